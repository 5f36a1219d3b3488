"""Structural checks of OMI_vehicle_body, OMI_vehicle_wheel, OMI_vehicle_thruster and
OMI_vehicle_hover_thruster."""

from __future__ import annotations

import math
from typing import Any

from ..common.checks import Emit, Json
from ..common.context import ExtIndex
from ..registry import (
    KHR_PHYSICS_RIGID_BODIES,
    OMI_PHYSICS_BODY,
    OMI_VEHICLE_BODY,
    OMI_VEHICLE_HOVER_THRUSTER,
    OMI_VEHICLE_THRUSTER,
    OMI_VEHICLE_WHEEL,
)


def check(gltf: dict[str, Any], emit: Emit, index: ExtIndex | None = None) -> None:
    """VBODY-*, WHEEL-* and the thrusters' schema ranges."""
    j = Json(gltf, emit, index)
    _vehicle_bodies(j)
    _wheels(j)
    _thrusters(j, OMI_VEHICLE_THRUSTER, "thrusters", "thruster", "maxForce")
    _thrusters(j, OMI_VEHICLE_HOVER_THRUSTER, "hoverThrusters", "hoverThruster", "maxHoverEnergy")


def _vehicle_bodies(j: Json) -> None:
    for _, ptr, v in j.nodes_with(OMI_VEHICLE_BODY):
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
    "maxSteeringAngle": (0.0, math.pi, False),  # D-17: the schema's 3.1415925 is read as π
    "radius": (0.0, math.inf, True),
    "width": (0.0, math.inf, True),
    "suspensionDampingCompression": (0.0, math.inf, True),
    "suspensionDampingRebound": (0.0, math.inf, True),
    "suspensionStiffness": (0.0, math.inf, True),
    "suspensionTravel": (0.0, math.inf, False),
}


def _wheels(j: Json) -> None:
    doc = j.doc_ext(OMI_VEHICLE_WHEEL)
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
    for _, ptr, node_ext in j.nodes_with(OMI_VEHICLE_WHEEL):
        j.index(node_ext, "wheel", ptr, n, "wheel", required=True)


def _material_count(j: Json) -> int:
    """A wheel's physicsMaterial indexes OMI_physics_body or KHR materials (the spec)."""
    ext = j.gltf.get("extensions")
    best = 0
    for name in (OMI_PHYSICS_BODY, KHR_PHYSICS_RIGID_BODIES):
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
                if v is not None and not 0 <= v <= math.pi:
                    j.emit("GLTF-VALUE", f"{tptr}/maxGimbal", f"maxGimbal {v:g} is outside [0, π]")
        n = len(ext[array]) if isinstance(ext.get(array), list) else 0
    for _, ptr, node_ext in j.nodes_with(name):
        j.index(node_ext, key, ptr, n, key, required=True)
