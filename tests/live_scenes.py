"""Small scenes for the live viewer's tests: a box on the ground, a driven hinge, the OMI simple car on a ground."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from conftest import fixture_path

KHR, SHAPES = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
BOX_MASS = 2.0
HINGE_STIFFNESS, HINGE_DAMPING = 400.0, 40.0  # acceleration drive: ω = 20 rad/s, critically damped (c = 2ω)
CAR = "OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf"
CAR_MASS, CAR_DRIVE_FORCE = 1000.0, 2 * 2000.0  # the file: 1000 kg; two rear wheels of maxPropulsionForce 2000 N
GROUND_TOP = -0.5  # under the car's wheels (centres at y = 0, radius 0.35): it drops 0.15 m and settles


def _box(size: list[float]) -> dict[str, Any]:
    return {"type": "box", "box": {"size": size}}


def _write(folder: Path, name: str, gltf: dict[str, Any]) -> Path:
    path = folder / name
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


def box_on_ground(folder: Path) -> Path:
    """A flat 1 × 0.5 × 1 m box (2 kg) resting on a static 8 × 1 × 8 m ground whose top is y = 0."""
    gltf = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
        "extensionsUsed": [KHR, SHAPES],
        "extensions": {SHAPES: {"shapes": [_box([8.0, 1.0, 8.0]), _box([1.0, 0.5, 1.0])]}},
        "nodes": [
            {"name": "Ground", "translation": [0, -0.5, 0],
             "extensions": {KHR: {"collider": {"geometry": {"shape": 0}}}}},
            {"name": "Box", "translation": [0, 0.25, 0],
             "extensions": {KHR: {"motion": {"mass": BOX_MASS}, "collider": {"geometry": {"shape": 1}}}}},
        ],
    }
    return _write(folder, "box.gltf", gltf)


def hinge(folder: Path) -> Path:
    """A 1 m arm (node 2, 1 kg, no gravity) hinged to the world about Z at (0, 1, 0), an acceleration drive on its
    angle (settings 0, drive 0) with position target 0."""
    lock = [{"linearAxes": [a], "min": 0, "max": 0} for a in range(3)]
    lock += [{"angularAxes": [a], "min": 0, "max": 0} for a in (0, 1)]
    drive = {"type": "angular", "mode": "acceleration", "axis": 2, "positionTarget": 0.0,
             "stiffness": HINGE_STIFFNESS, "damping": HINGE_DAMPING}
    gltf = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 2, 5]}],
        "extensionsUsed": [KHR, SHAPES],
        "extensions": {SHAPES: {"shapes": [_box([1.0, 0.1, 0.1]), _box([4.0, 0.2, 4.0])]},
                       KHR: {"physicsJoints": [{"limits": lock, "drives": [drive]}]}},
        "nodes": [
            {"name": "Anchor", "translation": [0, 1, 0], "children": [1]},
            {"name": "Hinge", "extensions": {KHR: {"joint": {"connectedNode": 3, "joint": 0}}}},
            {"name": "Arm", "translation": [0, 1, 0], "children": [3, 4],
             "extensions": {KHR: {"motion": {"mass": 1.0, "gravityFactor": 0.0}}}},
            {"name": "ArmHinge"},
            {"name": "ArmShape", "translation": [0.5, 0, 0],
             "extensions": {KHR: {"collider": {"geometry": {"shape": 0}}}}},
            {"name": "Floor", "translation": [0, -0.1, 0],
             "extensions": {KHR: {"collider": {"geometry": {"shape": 1}}}}},
        ],
    }
    return _write(folder, "hinge.gltf", gltf)


def hinge_angle(q: Any) -> float:
    """The arm's rotation about +Z (radians) from its quaternion x, y, z, w (a pure Z rotation)."""
    return 2.0 * math.atan2(float(q[2]), float(q[3]))


def car_on_ground(folder: Path) -> Path:
    """The official OMI simple_car with a static 60 × 1 × 60 m ground added under its wheels (the file's buffers
    are referenced from the fixture folder, which the test never writes)."""
    source = fixture_path(CAR)
    gltf = json.loads(source.read_text(encoding="utf-8"))
    for buf in gltf.get("buffers", []):
        if "uri" in buf and not buf["uri"].startswith("data:"):
            buf["uri"] = (source.parent / buf["uri"]).resolve().as_uri()
    shapes = gltf["extensions"]["OMI_physics_shape"]["shapes"]
    shapes.append({"type": "box", "box": {"size": [60.0, 1.0, 60.0]}})
    gltf["nodes"].append({"name": "Ground", "translation": [0, GROUND_TOP - 0.5, 0],
                          "extensions": {"OMI_physics_body": {"collider": {"shape": len(shapes) - 1}}}})
    gltf["scenes"][gltf.get("scene", 0)]["nodes"].append(len(gltf["nodes"]) - 1)
    return _write(folder, "car.gltf", gltf)
