"""The newest-KHR writer (2026 ``geometry.mesh`` form) on hand-built documents and scenes: exact JSON out."""

from __future__ import annotations

import math
from typing import Any

import pytest

from gltf_physics.dialects import read_scene, write_scene
from gltf_physics.dialects.common.context import Loss
from gltf_physics.gltf.document import Document
from gltf_physics.model import (
    Body,
    DriveMode,
    DriveType,
    Joint,
    JointDrive,
    JointLimit,
    Motion,
    MotionType,
    PhysicsScene,
    Pose,
    Trigger,
)

KRB = "KHR_physics_rigid_bodies"
H = math.sqrt(0.5)


def krb(**parts: Any) -> dict[str, Any]:
    return {"extensions": {KRB: parts}}


def gen3(nodes: list[dict[str, Any]], doc_ext: dict[str, Any] | None = None,
         shapes: list[dict[str, Any]] | None = None, **extra: Any) -> Document:
    gltf: dict[str, Any] = {"asset": {"version": "2.0"}, "extensionsUsed": [KRB, "KHR_implicit_shapes"],
                            "scenes": [{"nodes": list(range(len(nodes)))}], "nodes": nodes,
                            "extensions": {KRB: doc_ext or {},
                                           "KHR_implicit_shapes": {"shapes": shapes or [{"type": "box"}]}},
                            **extra}
    return Document(json=gltf)


def convert(doc: Document) -> tuple[dict[str, Any], list[Loss]]:
    out, losses = write_scene(read_scene(doc), doc, "khr")
    return out.json, losses


def ext(out: dict[str, Any], node: int) -> dict[str, Any]:
    return out["nodes"][node]["extensions"][KRB]


def test_geometry_node_becomes_mesh_only_for_a_lone_undeformed_mesh() -> None:
    doc = gen3([
        krb(motion={}, collider={"geometry": {"node": 1, "convexHull": True}}),
        {"mesh": 0},                                               # one mesh ⇒ geometry.mesh
        krb(collider={"geometry": {"node": 3}}),
        {"mesh": 1, "children": [4]},                              # a meshed child ⇒ stays a node
        {"mesh": 0},
        krb(trigger={"geometry": {"node": 6, "convexHull": True}}),
        {"mesh": 1, "skin": 0},                                    # skinned ⇒ stays a node
    ], meshes=[{}, {}], skins=[{"joints": [4]}])
    out, losses = convert(doc)
    assert ext(out, 0)["collider"] == {"geometry": {"mesh": 0, "convexHull": True}}
    assert ext(out, 2)["collider"] == {"geometry": {"node": 3}}  # convexHull false is the default (KRB-3)
    assert ext(out, 5)["trigger"] == {"geometry": {"node": 6, "convexHull": True}}
    assert [(loss.code, loss.pointer) for loss in losses] == [
        ("KRB-2", "/nodes/2/extensions/KHR_physics_rigid_bodies/collider/geometry"),
        ("KRB-2", "/nodes/5/extensions/KHR_physics_rigid_bodies/trigger/geometry"),
    ]
    # No implicit shape left to write: the shapes object still comes, with one unused placeholder
    # because its schema wants at least one shape (KIS-1); the rigid bodies object comes even when empty.
    assert out["extensionsUsed"] == [KRB, "KHR_implicit_shapes"]
    assert out["extensions"] == {KRB: {}, "KHR_implicit_shapes": {"shapes": [
        {"type": "sphere", "sphere": {"radius": 0.5}}]}}


def test_equal_shapes_share_one_entry_and_materials_write_every_value_and_mode() -> None:
    shapes = [{"type": "box", "box": {"size": [1, 1, 1]}}, {"type": "box", "box": {}},
              {"type": "sphere", "sphere": {"radius": 0.5}}]
    mats = [{"staticFriction": 0.5, "dynamicFriction": 0.4, "restitution": 0.1, "frictionCombine": "maximum"},
            {}]
    nodes = [krb(collider={"geometry": {"shape": i}, "physicsMaterial": i % 2}) for i in range(3)]
    out, losses = convert(gen3(nodes, {"physicsMaterials": mats}, shapes))
    assert out["extensions"]["KHR_implicit_shapes"] == {"shapes": [
        {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}, {"type": "sphere", "sphere": {"radius": 0.5}}]}
    assert [ext(out, i)["collider"] for i in range(3)] == [
        {"geometry": {"shape": 0}, "physicsMaterial": 0}, {"geometry": {"shape": 0}, "physicsMaterial": 1},
        {"geometry": {"shape": 1}, "physicsMaterial": 0}]
    # Every value and both modes written. Material 1 has no modes (D-12: they do not vote): against
    # material 0 its friction combined by 0's 'maximum', with itself by 'average' (0.6 = max(0.6, 0.6)), so
    # 'maximum' keeps both pairs; restitution: no mode anywhere, 'average' everywhere.
    assert out["extensions"][KRB] == {"physicsMaterials": [
        {"staticFriction": 0.5, "dynamicFriction": 0.4, "restitution": 0.1, "frictionCombine": "maximum",
         "restitutionCombine": "average"},
        {"staticFriction": 0.6, "dynamicFriction": 0.6, "restitution": 0.0, "frictionCombine": "maximum",
         "restitutionCombine": "average"}]}
    assert losses == []


def test_motion_json_infinite_and_computed_values() -> None:
    nodes = [krb(motion={"mass": 0, "inertiaDiagonal": [0, 1, 0], "gravityFactor": 0}),
             krb(motion={}),
             krb(motion={"isKinematic": True, "angularVelocity": [0, 0, 2], "centerOfMass": [0, 1, 0],
                         "inertiaOrientation": [0, H, 0, H]})]
    out, _ = convert(gen3(nodes))
    assert ext(out, 0) == {"motion": {"mass": 0.0, "inertiaDiagonal": [0.0, 1.0, 0.0], "gravityFactor": 0.0}}
    assert ext(out, 1) == {"motion": {}}  # mass/inertia absent ⇒ still computed
    assert ext(out, 2) == {"motion": {"isKinematic": True, "centerOfMass": [0.0, 1.0, 0.0],
                                      "inertiaOrientation": [0.0, H, 0.0, H],
                                      "angularVelocity": [0.0, 0.0, 2.0]}}


def test_gen0_motion_defaults_become_explicit() -> None:
    doc = Document(json={"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_rigid_bodies"],
                         "nodes": [{"extensions": {"KHR_rigid_bodies": {"motion": {}}}}]})
    out, _ = convert(doc)
    assert ext(out, 0) == {"motion": {"mass": 1.0, "centerOfMass": [0.0, 0.0, 0.0],
                                      "inertiaDiagonal": [1.0, 1.0, 1.0]}}
    assert out["extensionsUsed"] == [KRB]


def test_static_motion_has_no_khr_form() -> None:
    doc = Document(json={"asset": {"version": "2.0"}, "nodes": [{"children": [1]}, {}, {}]})
    scene = PhysicsScene(bodies=[Body(0, Motion(type=MotionType.DYNAMIC, mass=2.0)),
                                 Body(1, Motion(type=MotionType.STATIC), pointer="/nodes/1"),
                                 Body(2, Motion(type=MotionType.STATIC), pointer="/nodes/2")])
    out, losses = write_scene(scene, doc, "khr")
    assert ext(out.json, 0) == {"motion": {"mass": 2.0}}
    assert "extensions" not in out.json["nodes"][1] and "extensions" not in out.json["nodes"][2]
    assert [(loss.code, loss.pointer) for loss in losses] == [("BODY-10", "/nodes/1")]  # only the nested one


def test_compound_trigger_filter_is_a_loss() -> None:
    doc = Document(json={"asset": {"version": "2.0"}, "nodes": [{"children": [1]}, {}]})
    scene = PhysicsScene(triggers=[Trigger(0, nodes=(1,), filter=0, pointer="/t")], filters=[])
    out, losses = write_scene(scene, doc, "khr")
    assert ext(out.json, 0) == {"trigger": {"nodes": [1]}}
    assert [loss.code for loss in losses] == ["KRB-4"]


def seed_joint_scene() -> tuple[Document, PhysicsScene]:
    """Two bodies and an OMI-seed-style joint (no joint or connected node in the file)."""
    doc = Document(json={"asset": {"version": "2.0"}, "scenes": [{"nodes": [0, 1]}], "nodes": [
        {"translation": [0, 1, 0], "rotation": [0, H, 0, H], "scale": [2, 2, 2]},
        {"translation": [3, 0, 0]}]})
    both = JointLimit(linear_axes=(0, 1, 2), angular_axes=(0,), min=0.0, max=0.0)  # D-4: split on write
    drive = JointDrive(type=DriveType.ANGULAR, mode=DriveMode.FORCE, axis=1, position_target=1.0,
                       stiffness=5.0, damping=2.0)
    joint = Joint(body_a=0, frame_a=Pose((1.0, 0.0, 0.0), (0.0, 0.0, H, H)), body_b=1,
                  frame_b=Pose((0.0, 0.0, 1.0), (0.0, 0.0, 0.0, 1.0)), limits=(both,), drives=(drive,))
    return doc, PhysicsScene(bodies=[Body(0, Motion()), Body(1, Motion())], joints=[joint])


def test_seed_joint_gets_a_joint_node_under_a_and_an_attachment_under_b() -> None:
    doc, scene = seed_joint_scene()
    out, losses = write_scene(scene, doc, "khr")
    nodes = out.json["nodes"]
    assert (nodes[0]["children"], nodes[1]["children"]) == ([2], [3])
    joint_node, attachment = nodes[2], nodes[3]
    # Under a node scaled by 2, local = world(A)⁻¹·frame halves the offset and carries scale ½.
    assert joint_node["translation"] == pytest.approx([0.5, 0.0, 0.0], abs=1e-12)
    assert joint_node["rotation"] == pytest.approx([0.0, 0.0, H, H], abs=1e-12)
    assert joint_node["scale"] == pytest.approx([0.5, 0.5, 0.5], abs=1e-12)
    assert attachment["translation"] == pytest.approx([0.0, 0.0, 1.0], abs=1e-12)
    assert attachment["rotation"] == pytest.approx([0.0, 0.0, 0.0, 1.0], abs=1e-12)
    assert "scale" not in attachment
    assert ext(out.json, 2) == {"joint": {"connectedNode": 3, "joint": 0}}
    assert out.json["extensions"][KRB]["physicsJoints"] == [{
        "limits": [{"linearAxes": [0], "min": 0.0, "max": 0.0}, {"linearAxes": [1], "min": 0.0, "max": 0.0},
                   {"linearAxes": [2], "min": 0.0, "max": 0.0},  # a hard full lock: per axis
                   {"angularAxes": [0], "min": 0.0, "max": 0.0}],
        "drives": [{"type": "angular", "mode": "force", "axis": 1, "positionTarget": 1.0, "stiffness": 5.0,
                    "velocityTarget": 0.0, "damping": 2.0}],  # KRB-9 pairs; D-11 velocity target 0
    }]
    assert losses == []
    (again,) = read_scene(out).joints
    assert (again.body_a, again.body_b) == (0, 1)
    assert again.frame_a.translation == pytest.approx((1.0, 0.0, 0.0), abs=1e-12)
    assert again.frame_a.rotation == pytest.approx((0.0, 0.0, H, H), abs=1e-12)
    assert again.frame_b.translation == pytest.approx((0.0, 0.0, 1.0), abs=1e-12)
    assert again.limits == (*(JointLimit(linear_axes=(a,), min=0.0, max=0.0) for a in range(3)),
                            JointLimit(angular_axes=(0,), min=0.0, max=0.0))


def test_file_joints_reuse_their_nodes_and_share_equal_settings() -> None:
    settings = {"limits": [{"angularAxes": [2], "min": -1, "max": 1}]}
    nodes = [{"children": [1, 2], **krb(motion={})},
             krb(joint={"connectedNode": 3, "joint": 0, "enableCollision": True}),
             krb(joint={"connectedNode": 3, "joint": 1}),
             {}]
    out, losses = convert(gen3(nodes, {"physicsJoints": [settings, settings]}))
    assert len(out["nodes"]) == 4
    assert ext(out, 1) == {"joint": {"connectedNode": 3, "joint": 0, "enableCollision": True}}
    assert ext(out, 2) == {"joint": {"connectedNode": 3, "joint": 0}}
    shared = {"limits": [{"angularAxes": [2], "min": -1.0, "max": 1.0}]}
    assert out["extensions"][KRB]["physicsJoints"] == [shared]
    assert losses == []


def test_infinite_limits_and_stiffness_are_written_by_omission() -> None:
    settings = {"limits": [{"linearAxes": [1], "max": 2, "stiffness": 10, "damping": 1},
                           {"angularAxes": [0]}],
                "drives": [{"type": "linear", "mode": "acceleration", "axis": 0, "maxForce": 7,
                            "velocityTarget": 3, "damping": 4}]}
    nodes = [krb(motion={}, joint={"connectedNode": 1, "joint": 0}), {}]
    out, _ = convert(gen3(nodes, {"physicsJoints": [settings]}))
    assert out["extensions"][KRB]["physicsJoints"] == [{
        "limits": [{"linearAxes": [1], "max": 2.0, "stiffness": 10.0, "damping": 1.0}, {"angularAxes": [0]}],
        "drives": [{"type": "linear", "mode": "acceleration", "axis": 0, "maxForce": 7.0,
                    "velocityTarget": 3.0, "damping": 4.0}]}]


def test_planes_and_tapered_shapes_round_trip() -> None:
    shapes = [{"type": "plane", "plane": {}}, {"type": "plane", "plane": {"sizeX": 2, "doubleSided": True}},
              {"type": "cylinder", "cylinder": {"radiusTop": 0}}, {"type": "capsule"}]
    doc = gen3([krb(collider={"geometry": {"shape": i}}) for i in range(4)], shapes=shapes)
    out, losses = write_scene(read_scene(doc), doc, "khr")
    assert out.json["extensions"]["KHR_implicit_shapes"]["shapes"] == [
        {"type": "plane", "plane": {}}, {"type": "plane", "plane": {"sizeX": 2.0, "doubleSided": True}},
        {"type": "cylinder", "cylinder": {"height": 0.5, "radiusBottom": 0.25, "radiusTop": 0.0}},
        {"type": "capsule", "capsule": {"height": 0.5, "radiusBottom": 0.25, "radiusTop": 0.25}}]  # D-2
    assert read_scene(out).colliders == read_scene(doc).colliders
    assert losses == []
