"""Structural checks of OMI_collider, OMI_physics_body, OMI_physics_shape and OMI_physics_joint, every
generation (the spec). Only the JSON is read; hierarchy facts come from the plain node tree."""

from __future__ import annotations

import math
from typing import Any

from ..common.body_checks import compound_parts, drive_fields, filter_lists
from ..common.checks import WARNING, Emit, Json, check_extensions_used
from ..common.context import ExtIndex
from ..registry import OMI_COLLIDER, OMI_PHYSICS_BODY, OMI_PHYSICS_JOINT, OMI_PHYSICS_SHAPE

COLLIDER_TYPES = ("box", "sphere", "capsule", "cylinder", "hull", "trimesh")
GEN1_BODY_TYPES = ("static", "kinematic", "character", "rigid", "vehicle", "trigger")
GEN2_BODY_TYPES = ("static", "kinematic", "dynamic", "trigger")
MOTION_TYPES = ("static", "kinematic", "dynamic")
FLAT_SHAPE_TYPES = ("box", "sphere", "capsule", "cylinder", "hull", "convex", "trimesh")
SHAPE_TYPES = ("box", "sphere", "capsule", "cylinder", "convex", "trimesh")
FLAT_KEYS = ("size", "radius", "height", "mesh")
COMBINE = ("average", "minimum", "maximum", "multiply")
DYNAMIC_LEGACY = ("rigid", "vehicle", "dynamic")


def check(gltf: dict[str, Any], emit: Emit, index: ExtIndex | None = None) -> None:
    j = Json(gltf, emit, index)
    check_extensions_used(gltf, emit)
    n_colliders = _collider_doc(j)
    _collider_nodes(j, n_colliders)
    n_shapes = _shape_doc(j)
    _shape_nodes(j, n_shapes)
    _bodies(j, n_shapes)
    _joints(j)


# ------------------------------------------------------------------ OMI_collider
def _collider_doc(j: Json) -> int:
    doc = j.doc_ext(OMI_COLLIDER)
    if doc is None:
        return 0
    ptr, ext = doc
    items = j.items(ext, "colliders", ptr, "COL-1", "collider")
    for _, cptr, c in items:
        kind = j.enum(c, "type", cptr, COLLIDER_TYPES, "COL-2")
        j.boolean(c, "isTrigger", cptr)
        need = {"box": ("size",), "sphere": ("radius",), "capsule": ("radius", "height"),
                "cylinder": ("radius", "height"), "hull": ("mesh",), "trimesh": ("mesh",)}.get(kind or "", ())
        for key in need:
            if key not in c:
                j.emit("COL-4", cptr, f"the schema requires '{key}' for a {kind} collider; the default is "
                       "used, write it explicitly")
        j.numbers(c, "size", cptr, 3, "GEN-6")
        radius, height = j.number(c, "radius", cptr), j.number(c, "height", cptr)
        if kind == "capsule":
            _old_capsule("COL-7", j, cptr, radius, height)
        if kind in ("hull", "trimesh"):
            mesh = j.index(c, "mesh", cptr, j.count("meshes"), "mesh")
            if mesh is not None:
                j.check_mesh(mesh, f"{cptr}/mesh", "COL-5", "COL-6" if kind == "hull" else None, 255)
    return len(ext.get("colliders")) if isinstance(ext.get("colliders"), list) else 0


def _old_capsule(code: str, j: Json, ptr: str, radius: float | None, height: float | None) -> None:
    """COL-7 / SHAPE-11: total height ≥ 2·radius (defaults radius 0.5, height 2.0)."""
    r = 0.5 if radius is None else radius
    h = 2.0 if height is None else height
    if h < 2 * r:
        j.emit(code, ptr, f"capsule height {h:g} (total, caps included) is less than twice its radius {r:g}; "
               f"make height ≥ {2 * r:g}")


def _collider_nodes(j: Json, n_colliders: int) -> None:
    colliders = (j.gltf.get("extensions") or {}).get(OMI_COLLIDER) if isinstance(j.gltf.get("extensions"),
                                                                                   dict) else None
    array = colliders.get("colliders") if isinstance(colliders, dict) else None
    for i, ptr, ext in j.nodes_with(OMI_COLLIDER):
        idx = j.index(ext, "collider", ptr, n_colliders, "OMI_collider collider", code="COL-3", required=True)
        body_node = _legacy_body_of(j, i, ptr)
        if idx is None or body_node is None or not isinstance(array, list):
            continue
        body = j.node_ext(body_node, OMI_PHYSICS_BODY)
        col = array[idx]
        if isinstance(body, dict) and isinstance(col, dict) and isinstance(body.get("type"), str):
            is_trigger = col.get("isTrigger") is True
            if is_trigger != (body["type"] == "trigger"):
                j.emit("BT-6", ptr, f"collider {idx} has isTrigger {str(is_trigger).lower()} but body node "
                       f"{body_node} is of type {body['type']!r}; the collider keeps its own isTrigger")


def _legacy_body_of(j: Json, node: int, ptr: str) -> int | None:
    """BT-5: an OMI_collider belongs to the body on its own node or its parent; deeper ⇒ static."""
    if j.node_ext(node, OMI_PHYSICS_BODY) is not None:
        return node
    parent = j.parent_of[node] if node < len(j.parent_of) else None
    if parent is not None and j.node_ext(parent, OMI_PHYSICS_BODY) is not None:
        return parent
    for a in j.ancestors(node):
        if j.node_ext(a, OMI_PHYSICS_BODY) is not None:
            j.emit("BT-5", ptr, f"this collider is not a direct child of body node {a}, so it is static; "
                                "make "
                   "the collider node a direct child of the body")
            return None
    return None


# ------------------------------------------------------------------ OMI_physics_shape
def _shape_doc(j: Json) -> int:
    doc = j.doc_ext(OMI_PHYSICS_SHAPE)
    if doc is None:
        return 0
    ptr, ext = doc
    items = j.items(ext, "shapes", ptr, "SHAPE-1", "shape")
    flat = _flat_era(j, [s for _, _, s in items])
    current = _current_generation(j)
    for _, sptr, s in items:
        _shape(j, s, sptr, flat, current)
    return len(ext["shapes"]) if isinstance(ext.get("shapes"), list) else 0


def _flat_era(j: Json, shapes: list[dict[str, Any]]) -> bool:
    """gen1-flat: no shape uses a keyed sub-object, some use flat fields or 'hull', bodies use 'type'."""
    if any(isinstance(s.get(s.get("type")), dict) for s in shapes if isinstance(s.get("type"), str)):
        return False
    flat = any(s.get("type") == "hull" or any(k in s for k in FLAT_KEYS) for s in shapes)
    return flat and not any(_body_is_motion_form(b) for _, _, b in _quiet_bodies(j))


def _quiet_bodies(j: Json) -> list[tuple[int, str, dict[str, Any]]]:
    out = []
    for i, node in enumerate(j.nodes):
        ext = node.get("extensions") if isinstance(node, dict) else None
        body = ext.get(OMI_PHYSICS_BODY) if isinstance(ext, dict) else None
        if isinstance(body, dict):
            out.append((i, f"/nodes/{i}/extensions/OMI_physics_body", body))
    return out


def _body_is_motion_form(body: dict[str, Any]) -> bool:
    return any(k in body for k in ("motion", "collider", "trigger"))


def _current_generation(j: Json) -> bool:
    """Evidence of the current OMI generation (2024-11-29 on): materials/filters, gravityFactor, tapered
    radii, physicsJoints or vehicles. With it, an old capsule/cylinder 'radius' is SHAPE-10."""
    ext = j.gltf.get("extensions")
    ext = ext if isinstance(ext, dict) else {}
    if isinstance(ext.get(OMI_PHYSICS_BODY), dict):
        return True
    joint = ext.get(OMI_PHYSICS_JOINT)
    if isinstance(joint, dict) and "physicsJoints" in joint:
        return True
    shapes = ext.get(OMI_PHYSICS_SHAPE, {}).get("shapes") if isinstance(ext.get(OMI_PHYSICS_SHAPE),
                                                                          dict) else None
    for s in shapes if isinstance(shapes, list) else []:
        sub = s.get(s.get("type")) if isinstance(s, dict) and isinstance(s.get("type"), str) else None
        if isinstance(sub, dict) and ("radiusTop" in sub or "radiusBottom" in sub):
            return True
    for _, _, body in _quiet_bodies(j):
        motion, collider, trigger = (body.get(k) for k in ("motion", "collider", "trigger"))
        if isinstance(motion, dict) and "gravityFactor" in motion:
            return True
        if any(isinstance(o, dict) and ("physicsMaterial" in o or "collisionFilter" in o)
               for o in (collider, trigger)):
            return True
    used = j.gltf.get("extensionsUsed")
    return isinstance(used, list) and any(isinstance(u, str) and u.startswith("OMI_vehicle_") for u in used)


def _shape(j: Json, s: dict[str, Any], ptr: str, flat: bool, current: bool) -> None:
    kind = j.enum(s, "type", ptr, FLAT_SHAPE_TYPES if flat else SHAPE_TYPES, "SHAPE-2")
    if kind is None:
        return
    if flat:
        params, pptr = s, ptr
        need = {"box": ("size",), "sphere": ("radius",), "capsule": ("radius", "height"),
                "cylinder": ("radius", "height")}.get(kind, ("mesh",))
        for key in need:
            if key not in s:
                j.emit("SHAPE-3", ptr, f"the gen1 schema requires '{key}' for a {kind} shape; the default is "
                                       "used")
    else:
        stray = [k for k in FLAT_KEYS if k in s]
        if stray:
            j.emit("SHAPE-10", ptr, f"{', '.join(stray)} written on the shape itself (the flat gen1 form); "
                                    "move "
                   f"them into the '{kind}' sub-object")
        if kind not in s:
            j.emit("SHAPE-3", ptr, f"shape of type {kind!r} has no '{kind}' sub-object; defaults are used "
                   "(D-2), write the sub-object")
            params, pptr = {k: s[k] for k in stray}, ptr
        else:
            got = j.obj(s[kind], f"{ptr}/{kind}")
            if got is None:
                return
            params, pptr = got, f"{ptr}/{kind}"
    _shape_params(j, kind, params, pptr, flat, current)


def _shape_params(j: Json, kind: str, p: dict[str, Any], ptr: str, flat: bool, current: bool) -> None:
    if kind == "box":
        size = j.numbers(p, "size", ptr, 3, "GEN-6")
        if size is not None and min(size) <= 0:
            j.emit("SHAPE-4", f"{ptr}/size", f"box size {size} has a component ≤ 0; every extent must be > 0")
    elif kind == "sphere":
        j.minimum(p, "radius", ptr, 0.0, "SHAPE-4")
    elif kind in ("capsule", "cylinder"):
        _round_params(j, kind, p, ptr, current)
    else:
        mesh = j.index(p, "mesh", ptr, j.count("meshes"), "mesh")
        if "mesh" not in p:
            j.emit("SHAPE-5", ptr, f"a {kind} shape needs 'mesh': the index of its triangle mesh")
        if mesh is not None:
            convex = kind in ("convex", "hull")
            j.check_mesh(mesh, f"{ptr}/mesh", "SHAPE-5", "SHAPE-6" if convex else None, 255 if flat else None)


def _round_params(j: Json, kind: str, p: dict[str, Any], ptr: str, current: bool) -> None:
    height = j.minimum(p, "height", ptr, 0.0, "SHAPE-4", exclusive=True)
    if "radius" in p:  # D-8: the total-height generations (gen1–gen3)
        radius = j.minimum(p, "radius", ptr, 0.0, "SHAPE-4")
        if current:
            j.emit("SHAPE-10", f"{ptr}/radius", f"'radius' is the gen3 {kind} form (height = total); this "
                   "document is otherwise current generation: write radiusTop/radiusBottom and "
                   + ("height between the cap centres" if kind == "capsule" else "keep the total height"))
        if kind == "capsule":
            _old_capsule("SHAPE-11", j, ptr, radius, height)
        return
    top = j.minimum(p, "radiusTop", ptr, 0.0, "SHAPE-4")
    bottom = j.minimum(p, "radiusBottom", ptr, 0.0, "SHAPE-4")
    top, bottom = 0.5 if top is None else top, 0.5 if bottom is None else bottom
    if top != bottom:
        j.emit("SHAPE-7", ptr, f"tapered {kind} (radiusTop {top:g} ≠ radiusBottom {bottom:g}); engines "
                               "without "
               "tapered shapes import it as a convex hull")


def _shape_nodes(j: Json, n_shapes: int) -> None:
    """gen1/gen2 node-level OMI_physics_shape {shape} (BT-7)."""
    for _, ptr, ext in j.nodes_with(OMI_PHYSICS_SHAPE):
        j.index(ext, "shape", ptr, n_shapes, "OMI_physics_shape shape", required=True)


# ------------------------------------------------------------------ OMI_physics_body
def _bodies(j: Json, n_shapes: int) -> None:
    doc = j.doc_ext(OMI_PHYSICS_BODY)
    n_mat = n_fil = 0
    if doc is not None:
        n_mat, n_fil = _body_doc(j, *doc)
    bodies = list(j.nodes_with(OMI_PHYSICS_BODY))
    legacy = [b for b in bodies if "type" in b[2]]
    era = _legacy_era(j, legacy)
    for i, ptr, body in bodies:
        if "type" in body:
            _legacy_body(j, body, ptr, era)
        else:
            _motion_body(j, i, body, ptr, n_shapes, n_mat, n_fil)


def _body_doc(j: Json, ptr: str, ext: dict[str, Any]) -> tuple[int, int]:
    mats = j.items(ext, "physicsMaterials", ptr, "GLTF-VALUE", "material", required=False)
    for _, mptr, m in mats:
        for key in ("staticFriction", "dynamicFriction", "restitution"):
            j.minimum(m, key, mptr, 0.0, "BODY-9")
        for key in ("frictionCombine", "restitutionCombine"):
            j.enum(m, key, mptr, COMBINE, "BODY-9", required=False)
    filters = j.items(ext, "collisionFilters", ptr, "GLTF-VALUE", "filter", required=False)
    for _, fptr, f in filters:
        filter_lists(j, f, fptr, "BODY-8")
    return (len(ext["physicsMaterials"]) if isinstance(ext.get("physicsMaterials"), list) else 0,
            len(ext["collisionFilters"]) if isinstance(ext.get("collisionFilters"), list) else 0)



def _legacy_era(j: Json, legacy: list[tuple[int, str, dict[str, Any]]]) -> str | None:
    """'gen1' or 'gen2' when the document shows which 'type' enum applies (BT-1), else None."""
    types = {b["type"] for _, _, b in legacy if isinstance(b.get("type"), str)}
    if types & {"rigid", "character", "vehicle"}:
        return "gen1"
    ext = j.gltf.get("extensions")
    if isinstance(ext, dict) and OMI_COLLIDER in ext:
        return "gen1"  # OMI_collider was archived before 'dynamic' existed
    return "gen2" if "dynamic" in types else None


def _legacy_body(j: Json, body: dict[str, Any], ptr: str, era: str | None) -> None:
    kind = j.enum(body, "type", ptr, tuple(dict.fromkeys(GEN1_BODY_TYPES + GEN2_BODY_TYPES)), "BT-1")
    if kind == "dynamic" and era == "gen1":
        j.emit("BT-1", f"{ptr}/type", "'dynamic' is the gen2 name but this document is gen1 (it uses "
               "rigid/character/vehicle or OMI_collider); write 'rigid'")
    j.number(body, "mass", ptr)
    for key in ("linearVelocity", "angularVelocity", "centerOfMass"):
        j.numbers(body, key, ptr, 3, "GEN-6")
    tensor = j.numbers(body, "inertiaTensor", ptr, 9, "BT-2")
    if tensor is not None:
        scale = max(1e-12, max(abs(v) for v in tensor))
        if any(abs(tensor[3 * r + c] - tensor[3 * c + r]) > 1e-6 * scale for r in range(3) for c in range(r)):
            j.emit("BT-2", f"{ptr}/inertiaTensor", "inertiaTensor is not symmetric; engines keep only a "
                   "symmetric (or diagonal) tensor, write I[r][c] = I[c][r]")


def _motion_body(j: Json, node: int, body: dict[str, Any], ptr: str, n_shapes: int, n_mat: int,
                 n_fil: int) -> None:
    motion = j.get_obj(body, "motion", ptr)
    if motion is not None:
        mptr = f"{ptr}/motion"
        j.enum(motion, "type", mptr, MOTION_TYPES, "BODY-2")
        j.number(motion, "mass", mptr)
        j.number(motion, "gravityFactor", mptr)
        for key in ("centerOfMass", "inertiaDiagonal", "linearVelocity", "angularVelocity"):
            j.numbers(motion, key, mptr, 3, "BODY-3")
        j.quaternion(motion, "inertiaOrientation", mptr, "BODY-3")
    collider = j.get_obj(body, "collider", ptr)
    if collider is not None:
        cptr = f"{ptr}/collider"
        j.index(collider, "shape", cptr, n_shapes, "shape", code="BODY-4")
        j.index(collider, "physicsMaterial", cptr, n_mat, "physics material", code="BODY-4")
        j.index(collider, "collisionFilter", cptr, n_fil, "collision filter", code="BODY-4")
    trigger = j.get_obj(body, "trigger", ptr)
    if trigger is not None:
        _trigger(j, node, trigger, f"{ptr}/trigger", n_shapes, n_fil)


def _trigger(j: Json, node: int, t: dict[str, Any], ptr: str, n_shapes: int, n_fil: int) -> None:
    j.index(t, "shape", ptr, n_shapes, "shape", code="BODY-4")
    j.index(t, "collisionFilter", ptr, n_fil, "collision filter", code="BODY-4")
    if "shape" in t and "nodes" in t:
        j.emit("BODY-5", ptr, "the trigger has both 'shape' and 'nodes'; keep exactly one (a compound "
                              "trigger "
               "lists its parts in 'nodes')")
    elif "shape" not in t and "nodes" not in t:
        j.emit("BODY-5", ptr, "the trigger has neither 'shape' nor 'nodes'; it is read as the compound of "
                              "its "
               "descendant triggers (D-3): list them in 'nodes'")
    if "nodes" in t:
        if "collisionFilter" in t:
            j.emit("BODY-6", f"{ptr}/collisionFilter", "a compound ('nodes') trigger has no collisionFilter; "
                   "put the filter on its parts")
        compound_parts(j, node, t, ptr, "BODY-7", OMI_PHYSICS_BODY, "shape")



# ------------------------------------------------------------------ OMI_physics_joint
def _joints(j: Json) -> None:
    doc = j.doc_ext(OMI_PHYSICS_JOINT)
    n_constraints = n_joints = 0
    if doc is not None:
        ptr, ext = doc
        if "constraints" in ext or "physicsJoints" not in ext:
            n_constraints = _constraints(j, ptr, ext)
        if "physicsJoints" in ext:
            n_joints = _physics_joints(j, ptr, ext)
    for i, ptr, ext in j.nodes_with(OMI_PHYSICS_JOINT):
        if "constraints" in ext or "nodeA" in ext or "nodeB" in ext:
            _joint1_node(j, i, ext, ptr, n_constraints)
        else:
            _joint2_node(j, i, ext, ptr, n_joints)
        _own_node(j, i, ptr, "JOINT1-9" if "constraints" in ext else "JOINT-2")


def _constraints(j: Json, ptr: str, ext: dict[str, Any]) -> int:
    for _, cptr, c in j.items(ext, "constraints", ptr, "JOINT1-1", "constraint"):
        lin = j.axes(c, "linearAxes", cptr, "JOINT1-3") or []
        ang = j.axes(c, "angularAxes", cptr, "JOINT1-3") or []
        if not lin and not ang:
            j.emit("JOINT1-2", cptr, "the constraint lists no axis, so it constrains nothing; add linearAxes "
                                     "or "
                   "angularAxes")
        lo, hi = j.number(c, "lowerLimit", cptr), j.number(c, "upperLimit", cptr)
        lo, hi = 0.0 if lo is None else lo, 0.0 if hi is None else hi
        if lo > hi:
            j.emit("JOINT1-4", cptr, f"lowerLimit {lo:g} is above upperLimit {hi:g}; swap them")
        stiffness = c.get("stiffness")
        if stiffness != "Infinity":  # the seed schema spells +∞ as a string
            s = j.number(c, "stiffness", cptr)
            if s is not None and s <= 0:
                j.emit("JOINT1-5", f"{cptr}/stiffness", f"stiffness {s:g} must be > 0 (omit it for a hard "
                                                        "limit)")
        d = j.number(c, "damping", cptr)
        if d is not None and d < 0:
            j.emit("JOINT1-5", f"{cptr}/damping", f"damping {d:g} must be ≥ 0")
    return len(ext["constraints"]) if isinstance(ext.get("constraints"), list) else 0


def _physics_joints(j: Json, ptr: str, ext: dict[str, Any]) -> int:
    for _, jptr, joint in j.items(ext, "physicsJoints", ptr, "GLTF-VALUE", "joint"):
        limits = j.array(joint.get("limits", []), f"{jptr}/limits") or []
        drives = j.array(joint.get("drives", []), f"{jptr}/drives") or []
        if not limits and not drives:
            j.emit("JOINT-4", jptr, "the joint has no limits and no drives, so it does nothing; add one")
        for k, limit in enumerate(limits):
            lim = j.obj(limit, f"{jptr}/limits/{k}")
            if lim is not None:
                _limit(j, lim, f"{jptr}/limits/{k}")
        for k, drive in enumerate(drives):
            d = j.obj(drive, f"{jptr}/drives/{k}")
            if d is not None:
                drive_fields(j, d, f"{jptr}/drives/{k}", "JOINT-8", "JOINT-7")
    return len(ext["physicsJoints"]) if isinstance(ext.get("physicsJoints"), list) else 0


def _limit(j: Json, lim: dict[str, Any], ptr: str) -> None:
    lin = j.axes(lim, "linearAxes", ptr, "JOINT-5") or []
    ang = j.axes(lim, "angularAxes", ptr, "JOINT-5") or []
    if not lin and not ang:
        j.emit("JOINT-5", ptr, "the limit lists no axis; add linearAxes or angularAxes")
    elif lin and ang:
        j.emit("JOINT-5", ptr, "the limit lists both linearAxes and angularAxes (the schema allows one "
                               "kind); it "
               "is read as two limits (D-4), write them separately", WARNING)
    lo, hi = j.number(lim, "min", ptr), j.number(lim, "max", ptr)
    if "min" not in lim and "max" not in lim:
        j.emit("JOINT-6", ptr, "the limit has neither min nor max, so it limits nothing; add one")
    if lo is not None and hi is not None and lo > hi:
        j.emit("JOINT-6", ptr, f"min {lo:g} is above max {hi:g}; swap them")
    for key in ("stiffness", "damping"):
        j.minimum(lim, key, ptr, 0.0, "JOINT-7")



def _joint1_node(j: Json, node: int, ext: dict[str, Any], ptr: str, n_constraints: int) -> None:
    if "constraints" not in ext:
        j.emit("JOINT1-6", ptr, "the joint node needs 'constraints': indices of the document's constraints")
    else:
        refs = j.array(ext["constraints"], f"{ptr}/constraints") or []
        if not refs and isinstance(ext["constraints"], list):
            j.emit("JOINT1-6", f"{ptr}/constraints", "'constraints' is empty; list at least one constraint")
        for k, v in enumerate(refs):
            j.index_value(v, f"{ptr}/constraints/{k}", n_constraints, "constraint")
    bodies = []
    for key in ("nodeA", "nodeB"):
        n = j.index(ext, key, ptr, len(j.nodes), "node", required=True, required_code="JOINT1-6")
        if n is not None:
            bodies.append((key, n))
    kinds = [_jointed_kind(j, key, n, ptr) for key, n in bodies]
    if len(kinds) == 2 and None not in kinds and "dynamic" not in kinds:
        j.emit("JOINT1-8", ptr, "neither jointed body is dynamic (rigid/vehicle/dynamic motion); at least "
                                "one "
               "must be")


def _jointed_kind(j: Json, key: str, n: int, ptr: str) -> str | None:
    """JOINT1-7: nodeA/nodeB carry OMI_physics_body and are not triggers. Returns 'dynamic'/'other'."""
    body = j.node_ext(n, OMI_PHYSICS_BODY)
    if not isinstance(body, dict):
        j.emit("JOINT1-7", f"{ptr}/{key}", f"{key} (node {n}) has no OMI_physics_body; joints connect bodies")
        return None
    if "type" in body:
        if body["type"] == "trigger":
            j.emit("JOINT1-7", f"{ptr}/{key}", f"{key} (node {n}) is a trigger body; joints connect solid "
                                               "bodies")
            return None
        return "dynamic" if body["type"] in DYNAMIC_LEGACY else "other"
    motion = body.get("motion")
    if not isinstance(motion, dict):
        if "trigger" in body:
            j.emit("JOINT1-7", f"{ptr}/{key}", f"{key} (node {n}) is a trigger; joints connect solid bodies")
            return None
        return "other"
    return "dynamic" if motion.get("type") == "dynamic" else "other"


def _joint2_node(j: Json, node: int, ext: dict[str, Any], ptr: str, n_joints: int) -> None:
    j.index(ext, "joint", ptr, n_joints, "physicsJoints joint", code="JOINT-1", required=True)
    j.index(ext, "connectedNode", ptr, len(j.nodes), "node", code="JOINT-1", required=True)
    j.boolean(ext, "enableCollision", ptr)


def _own_node(j: Json, node: int, ptr: str, code: str) -> None:
    """JOINT1-9 / JOINT-2 (S): a joint node carries no mesh, camera, light, body or shape."""
    n = j.nodes[node]
    ext = n.get("extensions") if isinstance(n.get("extensions"), dict) else {}
    extra = [k for k in ("mesh", "camera") if k in n]
    extra += [k for k in ("KHR_lights_punctual", OMI_PHYSICS_BODY, OMI_PHYSICS_SHAPE, OMI_COLLIDER)
              if k in ext]
    if extra:
        j.emit(code, ptr, f"the joint node also carries {', '.join(extra)}; put the joint on its own empty "
                          "child "
               "node", WARNING)


def finite(v: float | None) -> bool:
    return v is not None and math.isfinite(v)
