"""KHR shape resources of every generation: KHR_collision_shapes (gen0–gen2) and KHR_implicit_shapes (gen3+).

All KHR generations share the primitive layout ``{type, <type>: {…}}`` and the same schema defaults
(sphere radius 0.5, box [1,1,1], capsule/cylinder height 0.5 and radii 0.25; the spec, checked against
the gen0–gen2 schemas). KHR capsule ``height`` is already the distance between the cap centres and cylinder
``height`` the total height, the model's meanings, so nothing is converted. Mesh shapes differ per
generation: gen0/gen1 ``convex``/``trimesh`` ``{mesh}``; gen2 ``mesh {mesh, skin, weights, useNodeWeights}``
with the hull flag in ``shapes[i].extensions.KHR_physics_rigid_bodies.convexHull``; gen3+ moved meshes to the
collider's geometry.
"""

from __future__ import annotations

from typing import Any

from ...model import Box, Capsule, Cylinder, MeshShape, Plane, Shape, Sphere
from ..common.context import ReadContext, array, index, node_ext, num, to_float, vec
from ..registry import KHR_COLLISION_SHAPES, KHR_IMPLICIT_SHAPES, KHR_PHYSICS_RIGID_BODIES

COLLISION_SHAPES = KHR_COLLISION_SHAPES
IMPLICIT_SHAPES = KHR_IMPLICIT_SHAPES
BODIES_EXT = KHR_PHYSICS_RIGID_BODIES

PRIMITIVES = ("sphere", "box", "capsule", "cylinder", "plane")


def read_shapes(ctx: ReadContext, extension: str) -> list[Shape | None]:
    """Every shape of the document-level ``extension`` array by index; ``None`` where unreadable (noted)."""
    shapes = array(ctx.index.doc(extension), "shapes")
    base = f"/extensions/{extension}/shapes"
    return [_read_shape(ctx, s, f"{base}/{i}", extension) for i, s in enumerate(shapes)]


def _read_shape(ctx: ReadContext, obj: Any, pointer: str, extension: str) -> Shape | None:
    if not isinstance(obj, dict):
        ctx.note("KIS-2", pointer, "shape is not an object; ignored")
        return None
    kind = obj.get("type")
    if kind == "plane" and extension == IMPLICIT_SHAPES:
        return _primitive(ctx, obj, kind, pointer)
    if kind in PRIMITIVES[:4]:
        return _primitive(ctx, obj, kind, pointer)
    if kind in ("convex", "trimesh") and extension == COLLISION_SHAPES:
        return _gen1_mesh(ctx, obj, kind, pointer)
    if kind == "mesh" and extension == COLLISION_SHAPES:
        return _gen2_mesh(ctx, obj, pointer)
    ctx.note("KIS-2", f"{pointer}/type", f"shape type {kind!r} is not understood; shape ignored")
    return None


def _sub_object(ctx: ReadContext, obj: dict[str, Any], kind: str, pointer: str) -> dict[str, Any]:
    """The keyed parameter object; missing ⇒ all defaults with a note (GEN-5, D-2)."""
    sub = obj.get(kind)
    if isinstance(sub, dict):
        return sub
    ctx.note("GEN-5", pointer, f"shape of type '{kind}' has no '{kind}' object; defaults used")
    return {}


def _primitive(ctx: ReadContext, obj: dict[str, Any], kind: str, pointer: str) -> Shape:
    p = _sub_object(ctx, obj, kind, pointer)
    if kind == "sphere":
        return Sphere(radius=num(p, "radius", 0.5), pointer=pointer)
    if kind == "box":
        return Box(size=vec(p, "size", (1.0, 1.0, 1.0)), pointer=pointer)  # type: ignore[arg-type]
    if kind == "plane":
        return Plane(size_x=_optional(p, "sizeX"), size_z=_optional(p, "sizeZ"),
                     double_sided=p.get("doubleSided") is True, pointer=pointer)
    height = num(p, "height", 0.5)
    bottom = num(p, "radiusBottom", 0.25)
    top = num(p, "radiusTop", 0.25)
    if kind == "capsule":
        return Capsule(height=height, radius_bottom=bottom, radius_top=top, pointer=pointer)
    return Cylinder(height=height, radius_bottom=bottom, radius_top=top, pointer=pointer)


def _optional(obj: dict[str, Any], key: str) -> float | None:
    """A plane size: absent ⇒ ``None`` = infinite along that axis."""
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return to_float(v)


def _gen1_mesh(ctx: ReadContext, obj: dict[str, Any], kind: str, pointer: str) -> Shape | None:
    p = _sub_object(ctx, obj, kind, pointer)
    mesh = index(p, "mesh", ctx.count("meshes"), ctx, f"{pointer}/{kind}")
    if mesh is None:
        ctx.note("GEN-2", f"{pointer}/{kind}/mesh", f"'{kind}' shape has no mesh; shape ignored")
        return None
    return MeshShape(convex=kind == "convex", mesh=mesh, pointer=pointer)


def _gen2_mesh(ctx: ReadContext, obj: dict[str, Any], pointer: str) -> Shape | None:
    p = _sub_object(ctx, obj, "mesh", pointer)
    sub = f"{pointer}/mesh"
    mesh = index(p, "mesh", ctx.count("meshes"), ctx, sub)
    if mesh is None:
        ctx.note("GEN-2", f"{sub}/mesh", "'mesh' shape has no mesh; shape ignored")
        return None
    skin = index(p, "skin", ctx.count("skins"), ctx, sub)
    weights = p.get("weights")
    ok = isinstance(weights, list) and weights and all(
        isinstance(w, (int, float)) and not isinstance(w, bool) for w in weights)
    hull = (node_ext(obj, BODIES_EXT) or {}).get("convexHull") is True  # shape-level extension, gen2
    return MeshShape(convex=hull, mesh=mesh, skin=skin,
                     weights=tuple(to_float(w) for w in weights) if ok else None,  # type: ignore[union-attr]
                     use_node_weights=p.get("useNodeWeights") is True, pointer=pointer)


def shape_json(shape: Shape) -> dict[str, Any]:
    """A primitive in the KHR_implicit_shapes form, every parameter written (D-2: write the sub-object)."""
    if isinstance(shape, Sphere):
        return {"type": "sphere", "sphere": {"radius": shape.radius}}
    if isinstance(shape, Box):
        return {"type": "box", "box": {"size": list(shape.size)}}
    if isinstance(shape, (Capsule, Cylinder)):
        kind = "capsule" if isinstance(shape, Capsule) else "cylinder"
        return {"type": kind, kind: {"height": shape.height, "radiusBottom": shape.radius_bottom,
                                     "radiusTop": shape.radius_top}}
    if isinstance(shape, Plane):
        plane: dict[str, Any] = {}
        if shape.size_x is not None:
            plane["sizeX"] = shape.size_x
        if shape.size_z is not None:
            plane["sizeZ"] = shape.size_z
        if shape.double_sided:
            plane["doubleSided"] = True
        return {"type": "plane", "plane": plane}
    raise TypeError(f"not an implicit shape: {shape!r}")
