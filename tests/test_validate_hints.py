"""Validator hints (validate/hints.py): valid files that will not behave as their author meant.

Each hint fires on a hand-made KHR scene that has the problem and stays silent on its fixed twin; the
official OMI rope and pendulum samples get HINT-SAG with the sag figure m·g/k (g = 9.81 m/s²).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from conftest import fixture_path
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.io import load
from gltf_physics.validation import Severity, validate
from gltf_physics.validation.hints import HINTS, hints_markdown

KRB, KIS = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
GROUND = {"translation": [0.0, -0.5, 0.0], "extensions": {KRB: {"collider": {"geometry": {"shape": 1}}}}}
SHAPES = [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}, {"type": "box", "box": {"size": [10.0, 1.0, 10.0]}},
          {"type": "sphere", "sphere": {"radius": 1.0}}]


def scene(nodes: list[dict[str, Any]], **doc: Any) -> Document:
    """A KHR gen3 document: every node a root; shapes 0 = unit box, 1 = 10×1×10 ground box, 2 = sphere r 1."""
    return Document(json={
        "asset": {"version": "2.0"}, "extensionsUsed": [KRB, KIS], "scenes": [{"nodes": list(range(len(nodes)))}],
        "nodes": nodes, "extensions": {KIS: {"shapes": SHAPES}, KRB: doc}}, buffers=[])


def box(y: float, mass: float = 2.0, **part: Any) -> dict[str, Any]:
    """A dynamic unit box centred at height y (the ground's top face is y = 0)."""
    return {"translation": [0.0, y, 0.0],
            "extensions": {KRB: {"motion": {"mass": mass}, "collider": {"geometry": {"shape": 0}}, **part}}}


def hints(doc: Document) -> list[tuple[str, int, str, str]]:
    report = validate(doc)
    assert report.num_errors == 0, report.to_text()
    return [(m.code, int(m.severity), m.pointer, m.message) for m in report.messages if m.code.startswith("HINT-")]


def codes(doc: Document) -> list[str]:
    return [h[0] for h in hints(doc)]


# ------------------------------------------------------------------------------------------ HINT-SAG

def hanging(stiffness: float | None, axes: list[int], mode: str | None = None) -> Document:
    """Box 0 (2 kg, at y = 3) hangs from world node 1 by a limit (or a drive on axis 1 when ``mode``)."""
    limit: dict[str, Any] = {"linearAxes": axes, "min": 0.0, "max": 0.0}
    if stiffness is not None:
        limit["stiffness"] = stiffness
    settings: dict[str, Any] = {"limits": [limit]}
    if mode is not None:
        settings = {"drives": [{"type": "linear", "mode": mode, "axis": 1, "positionTarget": 0.0,
                                "stiffness": stiffness, "velocityTarget": 0.0, "damping": 0.0}]}
    joint = {"joint": {"connectedNode": 1, "joint": 0}}
    return scene([box(3.0, **joint), {"translation": [0.0, 3.0, 0.0]}], physicsJoints=[settings])


def test_weak_soft_limit_reports_its_sag() -> None:
    # 2 kg on k = 10 N/m: m·g/k = 2 · 9.81 / 10 = 1.962 m; k ≥ m·g / 0.1 m = 196.2 N/m would hold it.
    (hint,) = hints(hanging(10.0, [0, 1, 2]))
    assert hint[:3] == ("HINT-SAG", Severity.HINT, "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/limits/0")
    assert "carries 2 kg" in hint[3] and "m·g/k = 1.96 m" in hint[3] and "at least 196.2" in hint[3]


def test_stiff_hard_or_sideways_limits_do_not_sag() -> None:
    assert codes(hanging(1000.0, [0, 1, 2])) == []  # 2 · 9.81 / 1000 = 0.0196 m ≤ 0.1 m
    assert codes(hanging(None, [0, 1, 2])) == []  # no stiffness: a hard limit
    assert codes(hanging(10.0, [0])) == []  # a slab along x carries none of a weight along −y


def test_weak_position_drive_sags_and_acceleration_mode_ignores_the_mass() -> None:
    (hint,) = hints(hanging(10.0, [], mode="force"))
    assert hint[0] == "HINT-SAG" and "m·g/k = 1.96 m" in hint[3]
    # acceleration mode: force = k·m·x, so the sag is g/k = 0.981 m whatever the mass.
    (hint,) = hints(hanging(10.0, [], mode="acceleration"))
    assert "m·g/k = 0.981 m" in hint[3] and "at least 98.1 1/s²" in hint[3]  # g / 0.1 m, per unit mass


@pytest.mark.parametrize(("relative", "sags"), [
    # pendulum_balls: three 1 kg balls, each on a 0.3 N/m pin to the static frame: 1 · 9.81 / 0.3 = 32.7 m.
    ("OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf", ["32.7", "32.7", "32.7"]),
    ("OMI_physics_joint/gen1-constraints/pendulum_balls.gltf", ["32.7", "32.7", "32.7"]),
    # hanging_rope: a chain of three 1 kg links from one 0.3 N/m pin: 3 · 9.81 / 0.3 = 98.1 m.
    ("OMI_physics_joint/gen2-physicsJoints/hanging_rope.gltf", ["98.1"]),
    # rope_railing: five 1 kg links between two pins: each carries 2.5 kg, 2.5 · 9.81 / 0.3 = 81.75 m.
    ("OMI_physics_joint/gen2-physicsJoints/rope_railing.gltf", ["81.8", "81.8"]),
])
def test_official_rope_and_pendulum_samples_sag(relative: str, sags: list[str]) -> None:
    report = validate(load(fixture_path(relative)))
    found = [m.message for m in report.messages if m.code == "HINT-SAG"]
    assert [m.split("m·g/k = ")[1].split(" m ")[0] for m in found] == sags
    assert all("stiffness 0.3 " in m for m in found)


# ---------------------------------------------------------------------------------- HINT-NO-COLLIDER

def test_dynamic_body_without_collider() -> None:
    body = {"extensions": {KRB: {"motion": {"mass": 1.0}}}}
    (hint,) = hints(scene([body]))
    assert hint[:3] == ("HINT-NO-COLLIDER", Severity.HINT, "/nodes/0/extensions/KHR_physics_rigid_bodies/motion")
    assert "node 0 has no collider" in hint[3]
    kinematic = {"extensions": {KRB: {"motion": {"isKinematic": True}}}}
    assert codes(scene([kinematic])) == []  # moved by its velocity, not by contacts
    assert codes(scene([box(5.0), GROUND])) == []


# ------------------------------------------------------------------------------ HINT-START-OVERLAP

def test_body_starting_inside_the_ground() -> None:
    # Unit box centred at y = 0.4: its bottom face is 0.1 m below the ground's top face y = 0.
    (hint,) = hints(scene([box(0.4), GROUND]))
    assert hint[:3] == ("HINT-START-OVERLAP", Severity.HINT,
                        "/nodes/0/extensions/KHR_physics_rigid_bodies/collider")
    assert "static collider on node 1" in hint[3]
    assert codes(scene([box(0.5), GROUND])) == []  # resting exactly on it: touching is not overlapping
    assert codes(scene([box(0.498), GROUND])) == []  # 2 mm: within what solvers allow (5 mm)


def test_start_overlap_respects_filters_and_jointed_anchors() -> None:
    filtered = box(0.4)
    filtered["extensions"][KRB]["collider"]["collisionFilter"] = 0
    ground = copy.deepcopy(GROUND)
    ground["extensions"][KRB]["collider"]["collisionFilter"] = 1
    doc = scene([filtered, ground], collisionFilters=[{"collisionSystems": ["a"]},
                                                      {"collisionSystems": ["g"], "notCollideWithSystems": ["a"]}])
    assert codes(doc) == []  # the pair never collides
    # A body jointed to the world without enableCollision may sit in a static slot on purpose (JOINT-9).
    pinned = box(0.4, joint={"connectedNode": 2, "joint": 0})
    doc = scene([pinned, GROUND, {"translation": [0.0, 0.4, 0.0]}],
                physicsJoints=[{"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]}])
    assert codes(doc) == []


# ----------------------------------------------------------------------------- HINT-TRIGGER-STATIC

def test_trigger_overlapping_a_static_collider_at_the_start() -> None:
    trigger = {"translation": [0.0, 0.5, 0.0], "extensions": {KRB: {"trigger": {"geometry": {"shape": 2}}}}}
    (hint,) = hints(scene([trigger, GROUND]))  # the sphere (r 1) reaches 0.5 m into the ground
    assert hint[:3] == ("HINT-TRIGGER-STATIC", Severity.HINT, "/nodes/0/extensions/KHR_physics_rigid_bodies/trigger")
    trigger["translation"] = [0.0, 2.0, 0.0]
    assert codes(scene([trigger, GROUND])) == []


# ----------------------------------------------------------------------------------- HINT-NO-GROUND

def test_falling_bodies_with_nothing_static_anywhere() -> None:
    (hint,) = hints(scene([box(3.0)]))
    assert hint == ("HINT-NO-GROUND", Severity.HINT, "/nodes/0/extensions/KHR_physics_rigid_bodies/motion",
                    "dynamic body on node 0: the scene has no static or kinematic collider to land on: it falls "
                    "forever; add ground under it")
    assert codes(scene([box(3.0), GROUND])) == []  # a static collider anywhere: not judged further here
    assert codes(scene([box(3.0, motion={"mass": 2.0, "gravityFactor": 0.0})])) == []  # it floats
    # Held by a joint to the world: it hangs (HINT-SAG's business), it does not fall.
    joint = {"joint": {"connectedNode": 1, "joint": 0}}
    settings = [{"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]}]
    assert codes(scene([box(3.0, **joint), {"translation": [0.0, 3.0, 0.0]}], physicsJoints=settings)) == []


def test_vehicle_without_ground_under_its_wheels() -> None:
    path = fixture_path("OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf")
    doc = load(path)
    (hint,) = hints(doc)
    assert hint[:3] == ("HINT-NO-GROUND", Severity.HINT, "/nodes/0/extensions/OMI_vehicle_body")
    assert "any of its 4 wheel(s)" in hint[3]
    # The same car above a 20 m × 20 m static box whose top face is 1 m below the wheels: no hint.
    gltf = json.loads(json.dumps(doc.json))
    gltf["extensions"]["OMI_physics_shape"]["shapes"].append({"type": "box", "box": {"size": [20, 1, 20]}})
    gltf["nodes"].append({"name": "Ground", "translation": [0, -1.5, 0],
                          "extensions": {"OMI_physics_body": {"collider": {"shape": 3}}}})
    gltf["scenes"][0]["nodes"].append(len(gltf["nodes"]) - 1)
    assert codes(Document(json=gltf, buffers=doc.buffers, path=doc.path)) == []


# ---------------------------------------------------------------------------------- HINT-JOINT-SIDE

def test_khr_joint_node_without_a_moving_body() -> None:
    # Joint on world node 1 connected to dynamic box 0: the Babylon loader needs a body above the joint node.
    world_side = {"translation": [0.0, 3.0, 0.0], "extensions": {KRB: {"joint": {"connectedNode": 0, "joint": 0}}}}
    settings = [{"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]}]
    (hint,) = hints(scene([box(3.0), world_side], physicsJoints=settings))
    assert hint[:3] == ("HINT-JOINT-SIDE", Severity.HINT, "/nodes/1/extensions/KHR_physics_rigid_bodies/joint")
    # Written from the moving side (what `convert --to khr` does where the swap is exact): no hint.
    moving_side = box(3.0, joint={"connectedNode": 1, "joint": 0})
    assert codes(scene([moving_side, {"translation": [0.0, 3.0, 0.0]}], physicsJoints=settings)) == []


def test_hint_table_is_documented_and_every_hint_is_a_hint() -> None:
    assert set(HINTS) == {"HINT-SAG", "HINT-NO-COLLIDER", "HINT-START-OVERLAP", "HINT-TRIGGER-STATIC",
                          "HINT-NO-GROUND", "HINT-JOINT-SIDE"}
    # A hint is never a warning of the file's validity: `--strict` fails on warnings, not on hints.
    assert all(rule.severity is Severity.HINT for rule in HINTS.values())
    table = hints_markdown()
    assert all(f"| {code} |" in table for code in HINTS)
