"""JOINT-9 with a bodiless joint side: its static partner colliders are kept apart from the other side.

A joint side without a body gets a fixed Rapier body carrying the static colliders (no motion, not animated)
under the nearest ancestor-or-self of the side's node that has any, so the joint's contact setting reaches
them (sim/rapier/partners.py ``joint_partners``). 60 Hz, g = 9.81 m/s² down.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import fixture_path
from gltf_physics.api import convert
from gltf_physics.dialects import read_scene
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.io import load
from gltf_physics.gltf.transforms import world_matrices
from gltf_physics.model import Body, Box, Collider, Motion, PhysicsScene, Sphere
from gltf_physics.model.joints import Joint, JointLimit, Pose
from gltf_physics.sim import World

# A slider along X: Y and Z and every rotation locked, X free (no force along it but contacts).
SLIDER_X = (JointLimit(linear_axes=(1, 2), min=0.0, max=0.0),
            JointLimit(angular_axes=(0, 1, 2), min=0.0, max=0.0))


def overlap_scene(enable_collision: bool) -> PhysicsScene:
    """Static root 0 holding box collider 1 (1 m cube at the origin, faces at x = ±0.5) and the joint's
    connected node 3 at (0.3, 0, 0); dynamic ball 2 (r = 0.3) centred at (0.3, 0, 0) overlaps the box by
    0.5 m. Node 3 holds no collider: its partner group is root 0 (the nearest ancestor with one)."""
    nodes = [{"children": [1, 3]}, {}, {"translation": [0.3, 0.0, 0.0]}, {"translation": [0.3, 0.0, 0.0]}]
    joint = Joint(2, Pose(), None, Pose((0.3, 0.0, 0.0)), limits=SLIDER_X, enable_collision=enable_collision,
                  node=2, connected_node=3)
    return PhysicsScene(bodies=[Body(2, Motion(mass=1.0))],
                        colliders=[Collider(1, Box((1.0, 1.0, 1.0))), Collider(2, Sphere(0.3), body=2)],
                        joints=[joint], document=Document(json={"nodes": nodes}, buffers=[]))


def ball_after(scene: PhysicsScene, seconds: float = 1.0) -> np.ndarray:
    w = World(scene, rate=60)
    w.run(seconds)
    return w.pose(2)[0]


def test_joint_without_collision_keeps_the_ball_inside_its_static_partner() -> None:
    # enableCollision false: the box (a static collider under the connected node's parent) is excluded, so
    # nothing pushes along the free X axis and the joint holds Y and Z: the ball stays at (0.3, 0, 0).
    p = ball_after(overlap_scene(False))
    assert float(np.linalg.norm(p - np.array([0.3, 0.0, 0.0]))) <= 1e-3


def test_joint_with_collision_pushes_the_ball_out_of_its_static_partner() -> None:
    # enableCollision true: the contact pushes the ball along the slider until it touches the face x = 0.5
    # from outside: centre at x = 0.5 + 0.3 = 0.8 (Rapier's allowed penetration is millimetres).
    p = ball_after(overlap_scene(True))
    assert 0.79 <= float(p[0]) <= 0.81
    assert abs(float(p[1])) <= 1e-3 and abs(float(p[2])) <= 1e-3  # the joint still holds Y and Z


def test_static_collider_outside_the_sides_ancestry_stays_parentless() -> None:
    # The connected node 3 is a root of its own: no ancestor-or-self holds a static collider, so the side is
    # the ground and the box hangs on nothing (no partner body is made).
    scene = overlap_scene(False)
    scene.document.json["nodes"][0]["children"] = [1]  # type: ignore[union-attr]
    w = World(scene, rate=60)
    assert w.engine.joint_anchor == {}
    box = [h for h, (_, node) in w.engine._info.items() if node == 1]
    assert len(box) == 1 and w.engine.colliders[box[0]].parent is None


@pytest.mark.parametrize("relative", ["OMI_physics_joint/gen2-physicsJoints/slider_ball.gltf",
                                      "OMI_physics_joint/gen1-constraints/pendulum_balls.gltf"])
def test_static_body_joint_converted_to_khr_moves_the_same(relative: str) -> None:
    # OMI's static body is a Rapier fixed body the joint excludes; in KHR it is "no motion" colliders, now
    # the joint side's static partner. Before that, slider_ball's ball ended 4.11 m away from the OMI one.
    doc = load(fixture_path(relative))
    out, losses = convert(doc, "khr")
    assert [x["code"] for x in losses] == []
    worlds = [World(read_scene(d), rate=60) for d in (doc, out)]
    for w in worlds:
        w.run(1.0)
    nodes = worlds[0].poses()[0].tolist()
    assert nodes == worlds[1].poses()[0].tolist() and nodes
    moved = 0.0
    for node in nodes:
        a, b = (w.pose(node)[0] for w in worlds)
        assert float(np.linalg.norm(a - b)) <= 1e-3
        moved = max(moved, float(np.linalg.norm(a - world_matrices(doc.json)[node][:3, 3])))
    assert moved > 0.05  # something moved: the comparison means something


def _static_body_doc(attach_under_shape: bool) -> Document:
    """OMI: static body 0 with box colliders 1 and 2; dynamic ball 3 whose joint node 4 connects to node 5,
    a child of collider 1 (``attach_under_shape``) or of the body node 0 itself."""
    omi, joint = "OMI_physics_body", "OMI_physics_joint"
    body_children = [1, 2] if attach_under_shape else [1, 2, 5]
    nodes = [
        {"children": body_children, "extensions": {omi: {"motion": {"type": "static"}}}},
        {"extensions": {omi: {"collider": {"shape": 0}}}, **({"children": [5]} if attach_under_shape else {})},
        {"translation": [2.0, 0.0, 0.0], "extensions": {omi: {"collider": {"shape": 0}}}},
        {"translation": [0.0, 2.0, 0.0], "children": [4],
         "extensions": {omi: {"motion": {"type": "dynamic"}, "collider": {"shape": 1}}}},
        {"extensions": {joint: {"connectedNode": 5, "joint": 0}}},
        {"translation": [0.0, 2.0, 0.0]},
    ]
    return Document(json={
        "asset": {"version": "2.0"}, "extensionsUsed": [omi, joint, "OMI_physics_shape"],
        "scenes": [{"nodes": [0, 3]}], "nodes": nodes,
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {}},
                                                        {"type": "sphere", "sphere": {"radius": 0.25}}]},
                       joint: {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}]}}},
        buffers=[])


def test_writer_lists_the_static_joint_only_when_the_partner_group_differs() -> None:
    # Connected node under the body node: its partner group is body 0, colliders {1, 2} = the body's: no loss.
    _, losses = convert(_static_body_doc(False), "khr")
    assert [x["code"] for x in losses] == []
    # Connected node under collider 1: the nearest ancestor-or-self with a static collider is node 1, so the
    # KHR runtime pairs only collider 1 with the ball, not collider 2 of the same OMI body: a listed loss.
    _, losses = convert(_static_body_doc(True), "khr")
    assert [(x["code"], x["pointer"]) for x in losses] == [
        ("JOINT-9", "/nodes/4/extensions/OMI_physics_joint")]
