"""OMI_physics_shape (the spec) and the OMI_collider shape fields: read every generation, write gen4.

Generations differ only in how a shape spells its parameters:

- gen1-flat: fields on the shape (``{"type": "capsule", "radius": 0.5, "height": 2}``), ``hull`` = convex;
- gen2/gen3: a keyed sub-object (``{"type": "capsule", "capsule": {"radius": 0.5, "height": 2}}``);
- gen4: tapered round shapes (``radiusTop``/``radiusBottom``), capsule ``height`` between the cap centres.

Capsule height (D-8): a capsule whose parameters carry the key ``radius``, or any capsule of a generation that
predates gen4 for certain (gen1, gen2, OMI_collider), uses the old *total* height and is converted to the
model's mid-height (height − 2·radius). Current OMI examples still write ``{height, radius}`` (SHAPE-10).
"""

from __future__ import annotations

import json
from typing import Any

from ...model import Box, Capsule, Cylinder, MeshShape, Plane, Shape, Sphere
from ..common.context import ReadContext, WriteContext, doc_ext, index, num, vec, writable
from ..registry import OMI_PHYSICS_SHAPE

SHAPE_EXT = OMI_PHYSICS_SHAPE

GEN1_FLAT = "gen1-flat"
GEN2_NODEEXT = "gen2-subjson-nodeext"
GEN3_SUBJSON = "gen3-subjson"
GEN4_TAPERED = "gen4-tapered"

KINDS = ("box", "sphere", "capsule", "cylinder", "convex", "trimesh")
FLAT_KEYS = ("size", "radius", "height", "mesh")
# Generations whose capsules certainly use the total height (D-8).
OLD_CAPSULE_GENS = (GEN1_FLAT, GEN2_NODEEXT, "omi-collider")


def doc_shapes(gltf: dict[str, Any]) -> list[Any]:
    holder = doc_ext(gltf, SHAPE_EXT)
    shapes = holder.get("shapes") if holder else None
    return shapes if isinstance(shapes, list) else []


def _params(shape: dict[str, Any]) -> dict[str, Any] | None:
    kind = "convex" if shape.get("type") == "hull" else shape.get("type")
    sub = shape.get(kind) if isinstance(kind, str) else None
    return sub if isinstance(sub, dict) else None


def is_flat(shape: Any) -> bool:
    """A gen1 flat shape: ``hull``, or parameters on the shape itself and no keyed sub-object."""
    if not isinstance(shape, dict):
        return False
    return shape.get("type") == "hull" or (_params(shape) is None and any(k in shape for k in FLAT_KEYS))


def content_generation(gltf: dict[str, Any], node_level: bool) -> str | None:
    """The shape generation the shapes themselves prove, or ``None`` when gen3 and gen4 read the same.

    Flat fields ⇒ gen1; a node-level ``OMI_physics_shape`` ⇒ gen2; tapered radii, or a capsule object
    without ``radius`` ⇒ gen4; capsule/cylinder objects with ``radius`` ⇒ gen3. Boxes, spheres and meshes
    alone do not tell gen3 from gen4 (the caller decides from the rest of the file).
    """
    shapes = [s for s in doc_shapes(gltf) if isinstance(s, dict)]
    if any(is_flat(s) for s in shapes):
        return GEN1_FLAT
    if node_level:
        return GEN2_NODEEXT
    rounded = [(s.get("type"), _params(s)) for s in shapes if s.get("type") in ("capsule", "cylinder")]
    if any(p is not None and ("radiusTop" in p or "radiusBottom" in p) for _, p in rounded):
        return GEN4_TAPERED
    if any(kind == "capsule" and p is not None and "radius" not in p for kind, p in rounded):
        return GEN4_TAPERED
    if any(p is not None and "radius" in p for _, p in rounded):
        return GEN3_SUBJSON
    return None


# ---------------------------------------------------------------- reading


def read_shapes(ctx: ReadContext, generation: str) -> list[Shape | None]:
    """Every document-level shape by index; ``None`` where the type is not understood (noted, SHAPE-2)."""
    base = f"/extensions/{SHAPE_EXT}/shapes"
    return [read_shape(ctx, s, f"{base}/{i}", generation) for i, s in enumerate(doc_shapes(ctx.gltf))]


def read_shape(ctx: ReadContext, obj: Any, pointer: str, generation: str) -> Shape | None:
    """One shape of any generation (also an OMI_collider collider, ``generation="omi-collider"``)."""
    if not isinstance(obj, dict):
        ctx.note("SHAPE-2", pointer, "shape is not an object; ignored")
        return None
    kind = obj.get("type")
    if kind == "hull":  # gen1 / OMI_collider name of convex (renamed in e7dc053)
        kind = "convex"
    if kind not in KINDS:
        ctx.note("SHAPE-2", f"{pointer}/type", f"shape type {kind!r} is not understood; shape ignored")
        return None
    params = _parameters(ctx, obj, kind, pointer, generation)
    if kind == "box":
        return Box(size=vec(params, "size", (1.0, 1.0, 1.0)), pointer=pointer)  # type: ignore[arg-type]
    if kind == "sphere":
        return Sphere(radius=num(params, "radius", 0.5), pointer=pointer)
    if kind == "capsule":
        return _capsule(ctx, params, pointer, generation)
    if kind == "cylinder":
        radius = num(params, "radius", 0.5)
        return Cylinder(
            height=num(params, "height", 2.0),
            radius_bottom=num(params, "radiusBottom", radius),
            radius_top=num(params, "radiusTop", radius),
            pointer=pointer,
        )
    where = pointer if params is obj else f"{pointer}/{kind}"
    mesh = index(params, "mesh", ctx.count("meshes"), ctx, where)  # D-1
    return MeshShape(convex=kind == "convex", mesh=mesh, pointer=pointer)


def _parameters(
    ctx: ReadContext, obj: dict[str, Any], kind: str, pointer: str, generation: str
) -> dict[str, Any]:
    """The keyed sub-object; else flat fields where present; else defaults with a note (SHAPE-3, D-2)."""
    if generation in (GEN1_FLAT, "omi-collider"):
        return obj
    sub = obj.get(kind)
    if isinstance(sub, dict):
        return sub
    if any(k in obj for k in FLAT_KEYS):
        # The gravity README writes {"type": "sphere", "radius": 40} in the current era (SHAPE-10): keep it.
        ctx.note("SHAPE-3", pointer, f"'{kind}' parameters written flat on the shape; read as gen1 fields")
        return obj
    ctx.note("SHAPE-3", pointer, f"shape of type '{kind}' has no '{kind}' object; defaults used (D-2)")
    return {}


def _capsule(ctx: ReadContext, params: dict[str, Any], pointer: str, generation: str) -> Capsule:
    if "radius" in params or generation in OLD_CAPSULE_GENS:  # D-8: total height, one radius
        radius = num(params, "radius", 0.5)
        total = num(params, "height", 2.0)
        height = total - 2.0 * radius
        if height < 0.0:
            ctx.note(
                "SHAPE-11",
                pointer,
                f"capsule height {total} is less than 2·radius {2 * radius}; "
                "read as a sphere-like capsule of height 0",
            )
            height = 0.0
        return Capsule(height=height, radius_bottom=radius, radius_top=radius, pointer=pointer)
    return Capsule(
        height=num(params, "height", 1.0),
        radius_bottom=num(params, "radiusBottom", 0.5),
        radius_top=num(params, "radiusTop", 0.5),
        pointer=pointer,
    )


# ---------------------------------------------------------------- writing


def shape_json(shape: Shape) -> dict[str, Any] | None:
    """The gen4 JSON of a shape; ``None`` for shapes OMI cannot express (plane, node geometry)."""
    if isinstance(shape, Box):
        return {"type": "box", "box": _omit({"size": list(shape.size)}, {"size": [1.0, 1.0, 1.0]})}
    if isinstance(shape, Sphere):
        return {"type": "sphere", "sphere": _omit({"radius": shape.radius}, {"radius": 0.5})}
    if isinstance(shape, Capsule):
        # Always written: the default and the meaning of `height` changed in gen4 (D-8).
        return {
            "type": "capsule",
            "capsule": {
                "height": shape.height,
                "radiusBottom": shape.radius_bottom,
                "radiusTop": shape.radius_top,
            },
        }
    if isinstance(shape, Cylinder):
        params = {"height": shape.height, "radiusBottom": shape.radius_bottom, "radiusTop": shape.radius_top}
        return {
            "type": "cylinder",
            "cylinder": _omit(params, {"height": 2.0, "radiusBottom": 0.5, "radiusTop": 0.5}),
        }
    if isinstance(shape, MeshShape) and shape.mesh is not None:
        kind = "convex" if shape.convex else "trimesh"
        return {"type": kind, kind: {"mesh": shape.mesh}}
    return None


def _omit(params: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if v != defaults.get(k)}


def add_shape(ctx: WriteContext, shape: Shape) -> int | None:
    """Index of ``shape`` in the output's OMI_physics_shape array, appending it once (equal shapes share).

    Public so the gravity writer can place ``shaped.shape`` in the same array. ``None`` (with a Loss) for a
    shape OMI cannot express.
    """
    if isinstance(shape, MeshShape) and shape.mesh is None and shape.node is not None:
        shape = _node_geometry_as_mesh(ctx, shape)
    if isinstance(shape, Plane):
        return None  # the caller turns a plane into a box on its own node (see omi_body)
    data = shape_json(shape)
    if data is None:
        ctx.loss("SHAPE-5", shape.pointer, "mesh shape without a glTF mesh has no OMI form; dropped")
        return None
    if isinstance(shape, MeshShape) and (shape.skin is not None or shape.weights or shape.use_node_weights):
        ctx.loss(
            "SHAPE-5",
            shape.pointer,
            "skin/morph deformation of a mesh shape has no OMI form; the undeformed mesh is used",
        )
    key = json.dumps(data, sort_keys=True)
    cache: dict[str, int] = vars(ctx).setdefault("_omi_shape_index", {})  # per-output dedup table
    if key not in cache:
        holder = writable(writable(ctx.gltf, "extensions", dict), SHAPE_EXT, dict)
        writable(holder, "shapes", list)
        holder["shapes"].append(data)
        cache[key] = len(holder["shapes"]) - 1
        ctx.use(SHAPE_EXT)
    return cache[key]


def _node_geometry_as_mesh(ctx: WriteContext, shape: MeshShape) -> MeshShape:
    """KHR gen3 ``geometry.node`` → OMI ``mesh``: the node's own mesh (docs/interop.md); children are a loss."""
    nodes = ctx.gltf.get("nodes") or []
    node = nodes[shape.node] if shape.node is not None and 0 <= shape.node < len(nodes) else {}
    mesh = node.get("mesh") if isinstance(node, dict) else None
    if isinstance(node, dict) and node.get("children"):
        ctx.loss(
            "KRB-2",
            shape.pointer,
            f"geometry node {shape.node}: meshes of its children have no OMI "
            "form; only the node's own mesh is used",
        )
    return MeshShape(
        convex=shape.convex,
        mesh=mesh if isinstance(mesh, int) else None,
        skin=shape.skin,
        weights=shape.weights,
        use_node_weights=shape.use_node_weights,
        pointer=shape.pointer,
    )
