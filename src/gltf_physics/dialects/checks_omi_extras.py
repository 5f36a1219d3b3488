"""Structural checks of OMI_physics_gravity, OMI_seat and OMI_vehicle_* (DIGEST §7–§9)."""

from __future__ import annotations

import math
from typing import Any

from .common.checks import WARNING, Emit, Json
from .common.context import ExtIndex

GRAVITY_TYPES = ("directional", "point", "disc", "torus", "line", "shaped")
PI = math.pi


def check(gltf: dict[str, Any], emit: Emit, index: ExtIndex | None = None) -> None:
    j = Json(gltf, emit, index)
    _gravity(j)
    _seats(j)
    _vehicle_bodies(j)
    _wheels(j)
    _thrusters(j, "OMI_vehicle_thruster", "thrusters", "thruster", "maxForce")
    _thrusters(j, "OMI_vehicle_hover_thruster", "hoverThrusters", "hoverThruster", "maxHoverEnergy")


def _unit(j: Json, o: dict[str, Any], key: str, ptr: str) -> None:
    v = j.numbers(o, key, ptr, 3, "GEN-6")
    if v is not None and abs(math.sqrt(sum(c * c for c in v)) - 1.0) > 1e-3:
        j.emit("GRAV-5", f"{ptr}/{key}", f"direction {v} is not normalized; write a unit vector")


# ------------------------------------------------------------------ OMI_physics_gravity (§7)
def _gravity(j: Json) -> None:
    doc = j.doc_ext("OMI_physics_gravity")
    if doc is not None:
        ptr, ext = doc
        if "gravity" not in ext:
            j.emit("GRAV-1", ptr, "the document-level gravity needs 'gravity' (m/s²)")
        j.number(ext, "gravity", ptr)
        _unit(j, ext, "direction", ptr)
    shapes = _omi_shape_count(j)
    for _, ptr, g in j.nodes_with("OMI_physics_gravity"):
        kind = j.enum(g, "type", ptr, GRAVITY_TYPES, "GRAV-2")
        if "gravity" not in g:
            j.emit("GRAV-2", ptr, "the gravity volume needs 'gravity' (m/s², negative repels)")
        j.number(g, "gravity", ptr)
        priority = j.number(g, "priority", ptr)
        if priority is not None and not priority.is_integer():
            j.emit("GRAV-6", f"{ptr}/priority", f"priority {priority:g} should be an integer")
        j.boolean(g, "replace", ptr)
        j.boolean(g, "stop", ptr)
        if kind is not None:
            _gravity_sub(j, g, ptr, kind, shapes)


def _omi_shape_count(j: Json) -> int:
    ext = j.gltf.get("extensions")
    shape = ext.get("OMI_physics_shape") if isinstance(ext, dict) else None
    return len(shape["shapes"]) if isinstance(shape, dict) and isinstance(shape.get("shapes"), list) else 0


def _gravity_sub(j: Json, g: dict[str, Any], ptr: str, kind: str, shapes: int) -> None:
    if kind not in g:
        j.emit("GRAV-7", ptr, f"gravity of type {kind!r} has no '{kind}' object; defaults are used (D-2), "
               "write it")
        if kind == "line":
            j.emit("GRAV-4", ptr, "a line gravity needs 'points' (at least two xyz points)")
        return
    sub = j.obj(g[kind], f"{ptr}/{kind}")
    if sub is None:
        return
    sptr = f"{ptr}/{kind}"
    if kind == "directional":
        _unit(j, sub, "direction", sptr)
        return
    j.minimum(sub, "unitDistance", sptr, 0.0, "GRAV-5")
    if kind in ("disc", "torus"):
        j.number(sub, "radius", sptr)
    elif kind == "line":
        points = j.numbers(sub, "points", sptr, None, "GRAV-4")
        if "points" not in sub:
            j.emit("GRAV-4", sptr, "a line gravity needs 'points' (at least two xyz points)")
        elif points is not None and (len(points) % 3 or len(points) < 6):
            j.emit("GRAV-4", f"{sptr}/points", f"'points' has {len(points)} numbers; it needs a multiple of "
                                               "3, "
                   "at least 6")
    elif kind == "shaped":
        j.index(sub, "shape", sptr, shapes, "OMI_physics_shape shape", required=True)


# ------------------------------------------------------------------ OMI_seat (§8)
def _seats(j: Json) -> None:
    for _, ptr, seat in j.nodes_with("OMI_seat"):
        for key in ("back", "foot", "knee"):
            if key not in seat:
                j.emit("SEAT-1", ptr, f"the seat needs '{key}' (a node-local xyz point)")
            else:
                j.numbers(seat, key, ptr, 3, "SEAT-1", WARNING)
        j.number(seat, "angle", ptr)


# ------------------------------------------------------------------ OMI_vehicle_* (§9)
def _vehicle_bodies(j: Json) -> None:
    for _, ptr, v in j.nodes_with("OMI_vehicle_body"):
        for key in ("linearActivation", "angularActivation"):
            act = j.numbers(v, key, ptr, 3, "GEN-6")
            if act is not None and max(abs(c) for c in act) > 1:
                j.emit("VBODY-2", f"{ptr}/{key}", f"{key} {act} leaves [-1, 1]; activations are ratios")
        j.numbers(v, "gyroTorque", ptr, 3, "GEN-6")
        j.number(v, "maxSpeed", ptr)
        j.index(v, "pilotSeat", ptr, len(j.nodes), "node")
        for key in ("angularDampeners", "linearDampeners", "useThrottle"):
            j.boolean(v, key, ptr)


WHEEL_RANGES: dict[str, tuple[float, float, bool]] = {  # key: (low, high, low exclusive)
    "targetPropulsionForceRatio": (-1.0, 1.0, False),
    "targetSteeringRatio": (-1.0, 1.0, False),
    "maxPropulsionForce": (0.0, math.inf, False),
    "maxSteeringAngle": (0.0, PI, False),  # D-17: the schema's 3.1415925 is read as π
    "radius": (0.0, math.inf, True),
    "width": (0.0, math.inf, True),
    "suspensionDampingCompression": (0.0, math.inf, True),
    "suspensionDampingRebound": (0.0, math.inf, True),
    "suspensionStiffness": (0.0, math.inf, True),
    "suspensionTravel": (0.0, math.inf, False),
}


def _wheels(j: Json) -> None:
    doc = j.doc_ext("OMI_vehicle_wheel")
    n = 0
    if doc is not None:
        ptr, ext = doc
        materials = _material_count(j)
        for _, wptr, w in j.items(ext, "wheels", ptr, "GLTF-VALUE", "wheel"):
            for key, (low, high, exclusive) in WHEEL_RANGES.items():
                v = j.number(w, key, wptr)
                if v is not None and (v < low or v > high or (exclusive and v == low)):
                    j.emit("WHEEL-2", f"{wptr}/{key}", f"{key} {v:g} is outside its range "
                           f"{'(' if exclusive else '['}{low:g}, {high:g}]")
            for key in ("currentForceRatio", "currentSteeringRatio", "maxForce", "brakingForce",
                        "propulsionForceChangeRate", "steeringChangeRate"):
                j.number(w, key, wptr)
            j.index(w, "physicsMaterial", wptr, materials, "physics material")
        n = len(ext["wheels"]) if isinstance(ext.get("wheels"), list) else 0
    for _, ptr, node_ext in j.nodes_with("OMI_vehicle_wheel"):
        j.index(node_ext, "wheel", ptr, n, "wheel", required=True)


def _material_count(j: Json) -> int:
    """A wheel's physicsMaterial indexes OMI_physics_body or KHR materials (DIGEST §9)."""
    ext = j.gltf.get("extensions")
    best = 0
    for name in ("OMI_physics_body", "KHR_physics_rigid_bodies"):
        doc = ext.get(name) if isinstance(ext, dict) else None
        if isinstance(doc, dict) and isinstance(doc.get("physicsMaterials"), list):
            best = max(best, len(doc["physicsMaterials"]))
    return best


def _thrusters(j: Json, name: str, array: str, key: str, required: str) -> None:
    doc = j.doc_ext(name)
    n = 0
    if doc is not None:
        ptr, ext = doc
        for _, tptr, t in j.items(ext, array, ptr, "GLTF-VALUE", key):
            if required not in t:
                j.emit("GLTF-VALUE", tptr, f"the schema requires '{required}'; 0 is used, write it")
            j.minimum(t, required, tptr, 0.0, "GLTF-VALUE")
            ratio = j.numbers(t, "targetGimbalRatio", tptr, 2, "GEN-6")
            if ratio is not None and math.hypot(*ratio) > 1 + 1e-9:
                j.emit("GLTF-VALUE", f"{tptr}/targetGimbalRatio", f"targetGimbalRatio {ratio} is longer than "
                                                                  "1")
            gimbal = t.get("maxGimbal")
            if not isinstance(gimbal, list):  # the gen1 schema wrongly types maxGimbal as an array
                v = j.number(t, "maxGimbal", tptr)
                if v is not None and not 0 <= v <= PI:
                    j.emit("GLTF-VALUE", f"{tptr}/maxGimbal", f"maxGimbal {v:g} is outside [0, π]")
        n = len(ext[array]) if isinstance(ext.get(array), list) else 0
    for _, ptr, node_ext in j.nodes_with(name):
        j.index(node_ext, key, ptr, n, key, required=True)

