"""Structural checks of KHR_physics_rigid_bodies / KHR_rigid_bodies and their shape extensions
(KHR_implicit_shapes, KHR_collision_shapes), every generation (the spec)."""

from __future__ import annotations

from typing import Any

from ..common.body_checks import compound_parts, drive_fields, filter_lists
from ..common.checks import WARNING, Emit, Json
from ..common.context import ExtIndex
from ..registry import KHR_COLLISION_SHAPES, KHR_IMPLICIT_SHAPES, KHR_PHYSICS_RIGID_BODIES, KHR_RIGID_BODIES

BODY_EXTS = (KHR_PHYSICS_RIGID_BODIES, KHR_RIGID_BODIES)
IMPLICIT_TYPES = ("sphere", "box", "capsule", "cylinder", "plane")
COLLISION_TYPES = ("sphere", "box", "capsule", "cylinder", "convex", "trimesh", "mesh")
COMBINE = ("average", "minimum", "maximum", "multiply")


def check(gltf: dict[str, Any], emit: Emit, index: ExtIndex | None = None) -> None:
    j = Json(gltf, emit, index)
    n_shapes = _shapes(j, KHR_IMPLICIT_SHAPES) + _shapes(j, KHR_COLLISION_SHAPES)
    for name in BODY_EXTS:
        counts = _doc(j, name)
        for i, ptr, ext in j.nodes_with(name):
            _node(j, i, ext, ptr, name, n_shapes, counts)


# ------------------------------------------------------------------ shapes (KIS-*)
def _shapes(j: Json, name: str) -> int:
    doc = j.doc_ext(name)
    if doc is None:
        return 0
    ptr, ext = doc
    items = j.items(ext, "shapes", ptr, "KIS-1", "shape")
    known = IMPLICIT_TYPES if name == KHR_IMPLICIT_SHAPES else COLLISION_TYPES
    strict = name == KHR_IMPLICIT_SHAPES or any(s.get("type") == "mesh" for _, _, s in items)
    for _, sptr, s in items:
        _shape(j, s, sptr, known, strict)
    return len(ext["shapes"]) if isinstance(ext.get("shapes"), list) else 0


def _shape(j: Json, s: dict[str, Any], ptr: str, known: tuple[str, ...], strict: bool) -> None:
    """``strict``: gen2 and later prohibit zero sizes; gen0/gen1 minima were inclusive (≥ 0)."""
    if "type" not in s:
        j.emit("KIS-2", ptr, f"the shape needs 'type' (one of {', '.join(known)})")
        return
    kind = j.string(s, "type", ptr)
    if kind is None:
        return
    others = [k for k in known if k != kind and k in s]
    if others:
        j.emit("KIS-2", ptr, f"a {kind!r} shape also carries {', '.join(others)}; keep only the '{kind}' "
                             "object")
    if kind not in known:
        j.emit("KIS-2", f"{ptr}/type", f"shape type {kind!r} is not defined here; it needs the extension "
                                       "that "
               "defines it, and is ignored otherwise", WARNING)
        return
    if kind not in s:
        j.emit("GEN-5", ptr, f"shape of type {kind!r} has no '{kind}' object; defaults are used (D-2), write "
                             "it")
        p, pptr = {}, ptr
    else:
        got = j.obj(s[kind], f"{ptr}/{kind}")
        if got is None:
            return
        p, pptr = got, f"{ptr}/{kind}"
    _params(j, kind, p, pptr, strict)
    shape_ext = s.get("extensions", {}).get(KHR_PHYSICS_RIGID_BODIES) if isinstance(s.get("extensions"),
                                                                                       dict) else None
    if isinstance(shape_ext, dict):
        j.boolean(shape_ext, "convexHull", f"{ptr}/extensions/KHR_physics_rigid_bodies")


def _positive(j: Json, p: dict[str, Any], key: str, ptr: str, strict: bool) -> float | None:
    """KIS-3: > 0 (gen2+), ≥ 0 (gen0/gen1)."""
    return j.minimum(p, key, ptr, 0.0, "KIS-3", exclusive=strict)


def _params(j: Json, kind: str, p: dict[str, Any], ptr: str, strict: bool) -> None:
    if kind == "sphere":
        _positive(j, p, "radius", ptr, strict)
    elif kind == "box":
        size = j.numbers(p, "size", ptr, 3, "GEN-6")
        if size is not None and (min(size) < 0 or (strict and min(size) == 0)):
            j.emit("KIS-3", f"{ptr}/size", f"box size {size} is degenerate; every extent must be > 0")
    elif kind in ("capsule", "cylinder"):
        _positive(j, p, "height", ptr, strict)
        radii = [j.minimum(p, key, ptr, 0.0, "KIS-3") for key in ("radiusBottom", "radiusTop", "radius")]
        given = [r for r in radii if r is not None]
        if strict and given and max(given) == 0:
            j.emit("KIS-3", ptr, f"every radius of this {kind} is 0; at least one must be > 0")
    elif kind == "plane":
        for key in ("sizeX", "sizeZ"):
            _positive(j, p, key, ptr, True)
        j.boolean(p, "doubleSided", ptr)
    elif kind in ("convex", "trimesh"):
        mesh = j.index(p, "mesh", ptr, j.count("meshes"), "mesh", required=True)
        if mesh is not None:
            j.check_mesh(mesh, f"{ptr}/mesh", "GLTF-MESH", None)
    elif kind == "mesh":
        mesh = j.index(p, "mesh", ptr, j.count("meshes"), "mesh", required=True)
        j.index(p, "skin", ptr, j.count("skins"), "skin")
        j.boolean(p, "useNodeWeights", ptr)
        if "weights" in p and p.get("useNodeWeights") is True:
            j.emit("GLTF-VALUE", ptr, "a mesh shape has either 'weights' or useNodeWeights, not both")
        if mesh is not None:
            j.check_mesh(mesh, f"{ptr}/mesh", "GLTF-MESH", None)


# ------------------------------------------------------------------ document level
def _doc(j: Json, name: str) -> dict[str, int]:
    counts = {"materials": 0, "filters": 0, "joints": 0}
    doc = j.doc_ext(name)
    if doc is None:
        return counts
    ptr, ext = doc
    for _, mptr, m in j.items(ext, "physicsMaterials", ptr, "GLTF-VALUE", "material", required=False):
        for key in ("staticFriction", "dynamicFriction", "restitution"):
            j.minimum(m, key, mptr, 0.0, "GLTF-VALUE")
        combine = COMBINE if name == BODY_EXTS[0] else tuple(c.upper() for c in COMBINE)
        for key in ("frictionCombine", "restitutionCombine"):
            j.enum(m, key, mptr, combine, "GLTF-VALUE", required=False)
    for _, fptr, f in j.items(ext, "collisionFilters", ptr, "GLTF-VALUE", "filter", required=False):
        filter_lists(j, f, fptr, "KRB-10")
    key = "physicsJoints" if name == BODY_EXTS[0] else "physicsJointLimits"
    for _, jptr, joint in j.items(ext, key, ptr, "GLTF-VALUE", "joint", required=False):
        _joint_settings(j, joint, jptr)
    counts["materials"] = j_len(ext, "physicsMaterials")
    counts["filters"] = j_len(ext, "collisionFilters")
    counts["joints"] = j_len(ext, key)
    return counts


def j_len(o: dict[str, Any], key: str) -> int:
    return len(o[key]) if isinstance(o.get(key), list) else 0


def _joint_settings(j: Json, joint: dict[str, Any], ptr: str) -> None:
    for k, limit in enumerate(j.array(joint.get("limits", []), f"{ptr}/limits") or []):
        lim = j.obj(limit, f"{ptr}/limits/{k}")
        if lim is not None:
            _limit(j, lim, f"{ptr}/limits/{k}")
    for k, drive in enumerate(j.array(joint.get("drives", []), f"{ptr}/drives") or []):
        d = j.obj(drive, f"{ptr}/drives/{k}")
        if d is None:
            continue
        dptr = f"{ptr}/drives/{k}"
        drive_fields(j, d, dptr, "KRB-8", "KRB-7")
        for target, gain in (("positionTarget", "stiffness"), ("velocityTarget", "damping")):
            if (target in d) != (gain in d):
                have, miss = (target, gain) if target in d else (gain, target)
                j.emit("KRB-9", dptr, f"the drive has '{have}' without '{miss}'; the schema wants them "
                                      "together")


def _limit(j: Json, lim: dict[str, Any], ptr: str) -> None:
    lin, ang = j.axes(lim, "linearAxes", ptr, "KRB-6"), j.axes(lim, "angularAxes", ptr, "KRB-6")
    if (lin is None) == (ang is None):
        j.emit("KRB-6", ptr, "a limit has exactly one of linearAxes and angularAxes; split it or add one")
    for axes, key in ((lin, "linearAxes"), (ang, "angularAxes")):
        if axes is not None and not 1 <= len(axes) <= 3:
            j.emit("KRB-6", f"{ptr}/{key}", f"'{key}' needs 1 to 3 axes")
    j.number(lim, "min", ptr)
    j.number(lim, "max", ptr)
    for key in ("stiffness", "damping", "springConstant", "springDamping"):
        j.minimum(lim, key, ptr, 0.0, "KRB-7")


# ------------------------------------------------------------------ node level
def _node(j: Json, node: int, ext: dict[str, Any], ptr: str, name: str, n_shapes: int,
          counts: dict[str, int]) -> None:
    motion = j.get_obj(ext, "motion", ptr)
    if motion is not None:
        _motion(j, motion, f"{ptr}/motion")
    collider = j.get_obj(ext, "collider", ptr)
    if collider is not None:
        cptr = f"{ptr}/collider"
        if "geometry" in collider:
            _geometry(j, collider, cptr, n_shapes)
        elif "shape" in collider:
            j.index(collider, "shape", cptr, n_shapes, "shape", code="KRB-2")
        else:
            j.emit("KRB-1", cptr, "the collider has no geometry; add geometry {shape | node | mesh}")
        j.index(collider, "physicsMaterial", cptr, counts["materials"], "physics material")
        j.index(collider, "collisionFilter", cptr, counts["filters"], "collision filter")
    trigger = j.get_obj(ext, "trigger", ptr)
    if trigger is not None:
        _trigger(j, node, trigger, f"{ptr}/trigger", name, n_shapes, counts)
    joint = j.get_obj(ext, "joint", ptr)
    if joint is not None:
        jptr = f"{ptr}/joint"
        key = "joint" if name == BODY_EXTS[0] else "jointLimits"
        j.index(joint, key, jptr, counts["joints"], "joint", code="KRB-5", required=True)
        j.index(joint, "connectedNode", jptr, len(j.nodes), "node", code="KRB-5", required=True)
        j.boolean(joint, "enableCollision", jptr)


def _motion(j: Json, m: dict[str, Any], ptr: str) -> None:
    j.boolean(m, "isKinematic", ptr)
    mass = j.number(m, "mass", ptr)
    if mass is not None and mass < 0:
        j.emit("KRB-11", f"{ptr}/mass", f"mass {mass:g} is negative; use a positive mass (0 means infinite)",
               0)
    elif mass == 0:
        j.emit("KRB-11", f"{ptr}/mass", "mass 0 is read as infinite (D-5); the schema wants > 0, so other "
                                        "tools "
               "may reject it")
    inertia = j.numbers(m, "inertiaDiagonal", ptr, 3, "GEN-6")
    if inertia is not None and min(inertia) < 0:
        j.emit("KRB-11", f"{ptr}/inertiaDiagonal", f"inertiaDiagonal {inertia} has a negative component", 0)
    elif inertia is not None and min(inertia) == 0:
        j.emit("KRB-11", f"{ptr}/inertiaDiagonal", f"inertiaDiagonal {inertia}: a 0 component is read as "
               "infinite (no rotation about that axis, D-5); the schema wants > 0")
    for key in ("centerOfMass", "linearVelocity", "angularVelocity"):
        j.numbers(m, key, ptr, 3, "GEN-6")
    j.quaternion(m, "inertiaOrientation", ptr, "GEN-6")
    j.number(m, "gravityFactor", ptr)


def _geometry(j: Json, holder: dict[str, Any], ptr: str, n_shapes: int) -> None:
    g = j.get_obj(holder, "geometry", ptr)
    if g is None:
        return
    gptr = f"{ptr}/geometry"
    present = [k for k in ("shape", "node", "mesh") if k in g]
    if len(present) != 1:
        j.emit("KRB-1", gptr, "geometry needs exactly one of shape, node or mesh"
               + (f"; it has {', '.join(present)}" if present else ""))
    j.index(g, "shape", gptr, n_shapes, "shape", code="KRB-2")
    j.index(g, "node", gptr, len(j.nodes), "node", code="KRB-2")
    j.index(g, "mesh", gptr, j.count("meshes"), "mesh", code="KRB-2")
    j.boolean(g, "convexHull", gptr)


def _trigger(j: Json, node: int, t: dict[str, Any], ptr: str, name: str, n_shapes: int,
             counts: dict[str, int]) -> None:
    simple = "geometry" if "geometry" in t or "shape" not in t else "shape"
    if (simple in t) == ("nodes" in t):
        j.emit("KRB-4", ptr, f"a trigger has exactly one of '{simple}' and 'nodes'")
    if simple == "geometry" and "geometry" in t:
        _geometry(j, t, ptr, n_shapes)
    elif "shape" in t:
        j.index(t, "shape", ptr, n_shapes, "shape", code="KRB-2")
    j.index(t, "collisionFilter", ptr, counts["filters"], "collision filter")
    if "nodes" in t:
        if "collisionFilter" in t:
            j.emit("KRB-4", f"{ptr}/collisionFilter", "a compound ('nodes') trigger has no collisionFilter "
                                                      "(the "
                   "schema forbids it); put the filter on its parts", WARNING)
        compound_parts(j, node, t, ptr, "KRB-4", name, simple)
