"""Minimal in-test documents for the validator tests (plain dicts; one valid base per family).

Each base is valid for the rules its family's tests break; tests mutate a deep copy with ``put``/``drop``.
"""

from __future__ import annotations

import copy
from typing import Any

from gltf_physics.gltf.document import Document

OB, SH, JO = "OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint"
KHR, KIS = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"

# A box mesh: 8 points, 12 triangles (indices count 36); accessor 2 is a 3-point triangle. The accessors have
# no bufferView, so their data is zeros: POSITION min/max are the zeros core glTF requires them to declare.
ZEROS = {"min": [0, 0, 0], "max": [0, 0, 0]}
MESHES = {
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]},
               {"primitives": [{"attributes": {"POSITION": 2}}]}],
    "accessors": [{"count": 8, "type": "VEC3", "componentType": 5126, **ZEROS},
                  {"count": 36, "type": "SCALAR", "componentType": 5123},
                  {"count": 3, "type": "VEC3", "componentType": 5126, **ZEROS}],
}


def finish(gltf: dict[str, Any]) -> dict[str, Any]:
    """List every extension the document uses in extensionsUsed (so GEN-1 holds unless a test breaks it)."""
    names: list[str] = []
    for holder in [gltf, *gltf.get("nodes", [])]:
        for name in holder.get("extensions", {}):
            if name not in names:
                names.append(name)
    gltf["extensionsUsed"] = names
    gltf.setdefault("asset", {"version": "2.0"})
    return gltf


def ext(name: str, value: dict[str, Any], **node: Any) -> dict[str, Any]:
    return {**node, "extensions": {name: value}}


def omi_collider() -> dict[str, Any]:
    """OMI_collider era: a rigid body with one box collider child."""
    return finish({
        "nodes": [ext(OB, {"type": "rigid"}, children=[1]), ext("OMI_collider", {"collider": 0})],
        "extensions": {"OMI_collider": {"colliders": [{"type": "box", "size": [1, 1, 1]}]}},
        **copy.deepcopy(MESHES),
    })


def omi_old() -> dict[str, Any]:
    """gen2-type-dynamic + gen2 shapes: a dynamic body with a node-level shape child."""
    return finish({
        "nodes": [ext(OB, {"type": "dynamic"}, children=[1]), ext(SH, {"shape": 0})],
        "extensions": {SH: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
        **copy.deepcopy(MESHES),
    })


def omi4() -> dict[str, Any]:
    """Current OMI: dynamic body + collider child, a compound trigger with one part, a material and filter."""
    return finish({
        "nodes": [
            ext(OB, {"motion": {"type": "dynamic"}}, children=[1]),
            ext(OB, {"collider": {"shape": 0, "physicsMaterial": 0, "collisionFilter": 0}}),
            ext(OB, {"trigger": {"nodes": [3]}}, children=[3]),
            ext(OB, {"trigger": {"shape": 1}}),
        ],
        "extensions": {
            SH: {"shapes": [{"type": "box", "box": {"size": [1, 2, 3]}},
                            {"type": "sphere", "sphere": {"radius": 0.5}}]},
            OB: {"physicsMaterials": [{"staticFriction": 0.5}],
                 "collisionFilters": [{"collisionSystems": ["a"]}]},
        },
        **copy.deepcopy(MESHES),
    })


def omi_gen3() -> dict[str, Any]:
    """gen3 OMI (no current-generation evidence): a dynamic body with an old-style capsule collider."""
    return finish({
        "nodes": [ext(OB, {"motion": {"type": "dynamic"}}, children=[1]),
                  ext(OB, {"collider": {"shape": 0}})],
        "extensions": {SH: {"shapes": [{"type": "capsule", "capsule": {"height": 2.0, "radius": 0.5}}]}},
    })


def joint1() -> dict[str, Any]:
    """OMI joint seed form: joint node 0 ties dynamic body 1 to static body 2."""
    return finish({
        "nodes": [
            ext(JO, {"constraints": [0], "nodeA": 1, "nodeB": 2}),
            ext(OB, {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}),
            ext(OB, {"motion": {"type": "static"}, "collider": {"shape": 0}}),
            {"name": "plain"},
        ],
        "extensions": {SH: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]},
                       JO: {"constraints": [{"linearAxes": [0, 1, 2]}]}},
        **copy.deepcopy(MESHES),
    })


def joint2() -> dict[str, Any]:
    """OMI physicsJoints: joint node 2 under dynamic body 0, connectedNode 4 under static body 3."""
    return finish({
        "nodes": [
            ext(OB, {"motion": {"type": "dynamic"}}, children=[1, 2]),
            ext(OB, {"collider": {"shape": 0}}),
            ext(JO, {"joint": 0, "connectedNode": 4}),
            ext(OB, {"motion": {"type": "static"}}, children=[4, 5]),
            {"name": "attachment"},
            ext(OB, {"collider": {"shape": 0}}),
            {"name": "plain"},
        ],
        "extensions": {
            SH: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]},
            JO: {"physicsJoints": [{
                "limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}],
                "drives": [{"type": "angular", "mode": "force", "axis": 0, "velocityTarget": 1,
                            "damping": 1}],
            }]},
        },
        **copy.deepcopy(MESHES),
    })


def khr() -> dict[str, Any]:
    """KHR gen3: body 0 (collider + joint child 4), compound trigger 2 with part 3, static collider 5."""
    return finish({
        "nodes": [
            ext(KHR, {"motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}, "physicsMaterial": 0,
                                                          "collisionFilter": 0}}, children=[4]),
            ext(KHR, {"collider": {"geometry": {"shape": 1}}}),
            ext(KHR, {"trigger": {"nodes": [3]}}, children=[3]),
            ext(KHR, {"trigger": {"geometry": {"shape": 0}}}),
            ext(KHR, {"joint": {"joint": 0, "connectedNode": 5}}),
            ext(KHR, {"collider": {"geometry": {"shape": 0}}}),
        ],
        "extensions": {
            KIS: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}},
                             {"type": "sphere", "sphere": {"radius": 0.5}}]},
            KHR: {"physicsMaterials": [{"staticFriction": 0.5, "dynamicFriction": 0.5, "restitution": 0}],
                  "collisionFilters": [{"collisionSystems": ["a"], "collideWithSystems": ["a"]}],
                  "physicsJoints": [{"limits": [{"linearAxes": [0], "min": 0, "max": 0}],
                                     "drives": [{"type": "linear", "mode": "force", "axis": 1,
                                                 "positionTarget": 1, "stiffness": 10}]}]},
        },
    })


def gravity() -> dict[str, Any]:
    """OMI gravity: world gravity, a point volume on trigger node 0, a line volume on trigger node 1."""
    return finish({
        "nodes": [
            {"extensions": {OB: {"trigger": {"shape": 0}},
                            "OMI_physics_gravity": {"type": "point", "gravity": 9.8, "priority": 1,
                                                    "point": {"unitDistance": 1}}}},
            {"extensions": {OB: {"trigger": {"shape": 0}},
                            "OMI_physics_gravity": {"type": "line", "gravity": 2,
                                                    "line": {"points": [0, 0, 0, 1, 0, 0]}}}},
            ext(OB, {"collider": {"shape": 0}}),
        ],
        "extensions": {SH: {"shapes": [{"type": "sphere", "sphere": {"radius": 5}}]},
                       "OMI_physics_gravity": {"gravity": 9.8, "direction": [0, -1, 0]}},
    })


def vehicle() -> dict[str, Any]:
    """A car: body 0 with a collider, pilot seat, wheel, thruster, hover thruster; node 6 is outside."""
    return finish({
        "nodes": [
            {"children": [1, 2, 3, 4, 5], "extensions": {
                OB: {"motion": {"type": "dynamic", "mass": 1000}},
                "OMI_vehicle_body": {"pilotSeat": 2, "linearActivation": [0, 0, 1]}}},
            ext(OB, {"collider": {"shape": 0}}),
            {"extensions": {OB: {"trigger": {"shape": 0}},
                            "OMI_seat": {"back": [0, 0, -0.3], "foot": [0, -0.5, 0.3], "knee": [0, 0, 0.3]}}},
            ext("OMI_vehicle_wheel", {"wheel": 0}),
            ext("OMI_vehicle_thruster", {"thruster": 0}),
            ext("OMI_vehicle_hover_thruster", {"hoverThruster": 0}),
            {"name": "outside"},
        ],
        "extensions": {
            SH: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]},
            "OMI_vehicle_wheel": {"wheels": [{"radius": 0.35, "maxSteeringAngle": 0.5}]},
            "OMI_vehicle_thruster": {"thrusters": [{"maxForce": 100}]},
            "OMI_vehicle_hover_thruster": {"hoverThrusters": [{"maxHoverEnergy": 100}]},
        },
    })


def _walk(d: Any, path: str) -> tuple[Any, str | int]:
    parts = [p for p in path.split("/") if p]
    for p in parts[:-1]:
        d = d[int(p)] if isinstance(d, list) else d[p]
    last = parts[-1]
    return d, (int(last) if isinstance(d, list) else last)


def put(gltf: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    holder, key = _walk(gltf, path)
    holder[key] = value
    return gltf


def drop(gltf: dict[str, Any], path: str) -> dict[str, Any]:
    holder, key = _walk(gltf, path)
    del holder[key]
    return gltf


def as_doc(gltf: dict[str, Any]) -> Document:
    return Document(json=gltf, buffers=[])
