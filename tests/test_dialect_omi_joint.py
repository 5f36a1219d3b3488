"""OMI_physics_joint: seed (gen1 constraints) and current (gen2 physicsJoints) read into the same joints.

Frames are compared approximately (the seed files store float32-rounded poses); bodies are compared by node
name, because the two generations number their nodes differently.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from conftest import fixture_path
from gltf_physics.dialects.common.context import ReadContext, WriteContext
from gltf_physics.dialects.omi_physics import body as omi_body
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.io import load
from gltf_physics.model import DriveMode, DriveType, Joint, JointDrive, JointLimit, PhysicsScene

INF = math.inf


def read(doc: Document) -> PhysicsScene:
    ctx = ReadContext.for_document(doc)
    omi_body.read(ctx)
    return ctx.scene


def read_fixture(relative: str) -> tuple[PhysicsScene, list[Any]]:
    doc = load(fixture_path(relative))
    return read(doc), doc.json["nodes"]


def named(joint: Joint, nodes: list[Any]) -> tuple[str | None, str | None]:
    def name(i: int | None) -> str | None:
        return None if i is None else nodes[i]["name"]

    return name(joint.body_a), name(joint.body_b)


def assert_frames_close(a: Joint, b: Joint, tol: float = 1e-6) -> None:
    for fa, fb in ((a.frame_a, b.frame_a), (a.frame_b, b.frame_b)):
        assert fa.translation == pytest.approx(fb.translation, abs=tol)
        dot = abs(sum(x * y for x, y in zip(fa.rotation, fb.rotation, strict=True)))
        assert dot == pytest.approx(1.0, abs=tol)  # same rotation (q and -q are equal)


def test_seed_pin_joint_equals_newest_pin_joint() -> None:
    seed, seed_nodes = read_fixture("OMI_physics_joint/gen1-constraints/simple_joint.gltf")
    new, new_nodes = read_fixture("OMI_physics_joint/gen2-physicsJoints/simple_joint.gltf")
    (a,), (b,) = seed.joints, new.joints
    assert named(a, seed_nodes) == named(b, new_nodes) == ("BodyA", "BodyB")
    assert_frames_close(a, b)
    # Hand check: PinJoint at world (-0.23, 0.6, 0); BodyA at (-0.45, 0.68, 0) rotated -20° about Z.
    # R(+20°)·(0.22, -0.08, 0) = (0.2340940, 0.0000690, 0); rotation +20° about Z.
    assert a.frame_a.translation == pytest.approx((0.2340940, 0.0000690, 0.0), abs=1e-6)
    assert a.frame_a.rotation == pytest.approx((0.0, 0.0, 0.1736482, 0.9848078), abs=1e-6)
    assert a.frame_b.translation == pytest.approx((-0.23, 0.0, 0.0), abs=1e-9)
    # Seed constraint {"linearAxes": [0,1,2]}: limits 0/0, stiffness ∞ (default), damping 1.0 (default).
    assert a.limits == (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0, stiffness=INF, damping=1.0),)
    # The newest example was authored with a soft pin (stiffness 0.3); everything else is the same joint.
    assert b.limits == (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0, stiffness=0.3, damping=1.0),)
    assert (a.drives, a.enable_collision) == (b.drives, b.enable_collision) == ((), False)


def test_seed_slider_equals_newest_slider_exactly() -> None:
    seed, seed_nodes = read_fixture("OMI_physics_joint/gen1-constraints/slider_ball.gltf")
    new, new_nodes = read_fixture("OMI_physics_joint/gen2-physicsJoints/slider_ball.gltf")
    (a,), (b,) = seed.joints, new.joints
    assert named(a, seed_nodes) == named(b, new_nodes) == ("Ball", "SliderLine")
    assert_frames_close(a, b, tol=1e-9)
    assert a.frame_b.translation == pytest.approx((-0.75, 0.0, 0.0), abs=1e-9)
    assert (
        a.limits
        == b.limits
        == (
            JointLimit(linear_axes=(0,), min=-1.75, max=0.25, stiffness=1.0, damping=0.5),
            JointLimit(linear_axes=(1, 2), min=0.0, max=0.0, stiffness=1.0, damping=1.0),
            JointLimit(angular_axes=(0,), min=0.0, max=0.0, stiffness=1.0, damping=0.0),
            JointLimit(angular_axes=(1, 2), min=0.0, max=0.0, stiffness=1.0, damping=1.0),
        )
    )


@pytest.mark.parametrize(
    "asset",
    [
        "hanging_rope",
        "pendulum_balls",
        "rope_railing",
        "swing_and_slide",
        "weld_joint",
        "simple_joint",
        "slider_ball",
    ],
)
def test_seed_and_newest_joints_connect_the_same_bodies_at_the_same_frames(asset: str) -> None:
    seed, seed_nodes = read_fixture(f"OMI_physics_joint/gen1-constraints/{asset}.gltf")
    new, new_nodes = read_fixture(f"OMI_physics_joint/gen2-physicsJoints/{asset}.gltf")
    assert len(seed.joints) == len(new.joints)
    by_bodies = {named(j, new_nodes): j for j in new.joints}
    for a in seed.joints:
        b = by_bodies[named(a, seed_nodes)]
        assert_frames_close(a, b, tol=2e-5)  # the seed files store float32 poses


def test_omi_collider_era_seed_joint_matches_motion_era_seed_joint() -> None:
    old, old_nodes = read_fixture("OMI_physics_joint/gen1-constraints-omi-collider/slider_ball.gltf")
    new, new_nodes = read_fixture("OMI_physics_joint/gen1-constraints/slider_ball.gltf")
    (a,), (b,) = old.joints, new.joints
    assert named(a, old_nodes) == named(b, new_nodes)
    assert a.limits == b.limits
    assert_frames_close(a, b, tol=1e-12)


def _joint_doc(constraints_or_joints: dict[str, Any], joint_ext: dict[str, Any]) -> dict[str, Any]:
    """Body A (dynamic) at the origin, body B (dynamic) at x=2 with an attachment child at x=-1."""
    return {
        "extensions": {"OMI_physics_joint": constraints_or_joints},
        "nodes": [
            {"extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}, "children": [1]},
            {"translation": [1, 0, 0], "extensions": {"OMI_physics_joint": joint_ext}},
            {
                "translation": [2, 0, 0],
                "children": [3],
                "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}},
            },
            {"translation": [-1, 0, 0]},
        ],
    }


def test_seed_defaults_infinity_string_and_later_constraint_wins() -> None:
    doc = _joint_doc(
        {
            "constraints": [
                {"linearAxes": [0, 1, 2]},
                {"linearAxes": [1], "lowerLimit": -1, "upperLimit": 1, "stiffness": "Infinity", "damping": 0},
            ]
        },
        {"constraints": [0, 1], "nodeA": 0, "nodeB": 2},
    )
    (j,) = read(Document(json=doc)).joints
    # JOINT1-10: axis 1 taken by the later constraint; the earlier keeps axes 0 and 2.
    assert j.limits == (
        JointLimit(linear_axes=(0, 2), min=0.0, max=0.0, stiffness=INF, damping=1.0),
        JointLimit(linear_axes=(1,), min=-1.0, max=1.0, stiffness=INF, damping=0.0),
    )
    assert (j.body_a, j.body_b) == (0, 2)
    assert j.frame_a.translation == (1.0, 0.0, 0.0)
    assert j.frame_b.translation == (-1.0, 0.0, 0.0)
    assert j.connected_node is None


def test_gen2_defaults_negative_values_and_frames() -> None:
    doc = _joint_doc(
        {
            "physicsJoints": [
                {
                    "limits": [{"angularAxes": [2], "stiffness": -1}],
                    "drives": [
                        {
                            "type": "angular",
                            "mode": "force",
                            "axis": 2,
                            "maxForce": -5,
                            "velocityTarget": 3.0,
                            "damping": 2.0,
                        }
                    ],
                }
            ]
        },
        {"joint": 0, "connectedNode": 3, "enableCollision": True},
    )
    scene = read(Document(json=doc))
    (j,) = scene.joints
    assert j.limits == (JointLimit(angular_axes=(2,), min=-INF, max=INF, stiffness=INF, damping=0.0),)
    (d,) = j.drives
    assert (d.max_force, d.velocity_target, d.position_target, d.damping, d.stiffness) == (
        INF,
        3.0,
        None,
        2.0,
        0.0,
    )
    assert (j.body_a, j.body_b, j.enable_collision) == (0, 2, True)
    assert j.frame_a.translation == (1.0, 0.0, 0.0)  # joint node relative to its motion parent
    assert j.frame_b.translation == (-1.0, 0.0, 0.0)  # connectedNode relative to its motion parent
    assert [n.code for n in scene.notes] == ["JOINT-7", "JOINT-7"]  # D-15


def test_connected_node_without_motion_is_world_frame() -> None:
    doc = _joint_doc(
        {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}]},
        {"joint": 0, "connectedNode": 3},
    )
    doc["nodes"][2]["extensions"] = {}  # node 2 is no longer a body: node 3's world pose is (1, 0, 0)
    (j,) = read(Document(json=doc)).joints
    assert (j.body_b, j.frame_b.translation) == (None, (1.0, 0.0, 0.0))


# ---------------------------------------------------------------- writing gen2


def write(scene: PhysicsScene, gltf: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    out = copy.deepcopy(gltf)
    for holder in [out, *out.get("nodes", [])]:
        for name in omi_body.EXTENSIONS:
            (holder.get("extensions") or {}).pop(name, None)
    ctx = WriteContext(gltf=out, scene=scene, family="omi")
    omi_body.write(ctx)
    return out, ctx.losses


def test_seed_joint_written_with_attachment_nodes() -> None:
    doc = load(fixture_path("OMI_physics_joint/gen1-constraints/simple_joint.gltf"))
    out, losses = write(read(doc), doc.json)
    n = len(doc.json["nodes"])  # 12: the joint and attachment nodes are appended after them
    joint_node, attachment = out["nodes"][n], out["nodes"][n + 1]
    assert losses == []
    assert joint_node["name"] == "PinJoint" and attachment["name"] == "PinJointAttachment"
    assert n in out["nodes"][1]["children"]  # child of BodyA
    assert n + 1 in out["nodes"][2]["children"]  # child of BodyB
    assert joint_node["translation"] == pytest.approx([0.2340940, 0.0000690, 0.0], abs=1e-6)
    assert attachment["translation"] == pytest.approx([-0.23, 0.0, 0.0], abs=1e-9)
    assert "rotation" not in attachment
    assert joint_node["extensions"]["OMI_physics_joint"] == {"joint": 0, "connectedNode": n + 1}
    # Seed defaults 0/0 and damping 1.0 differ from gen2's (∓∞, 0): written; stiffness ∞ is gen2's default.
    assert out["extensions"]["OMI_physics_joint"] == {
        "physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0, "damping": 1.0}]}]
    }
    assert "OMI_physics_joint" in out["extensionsUsed"]


def test_newest_joint_reuses_its_nodes() -> None:
    doc = load(fixture_path("OMI_physics_joint/gen2-physicsJoints/simple_joint.gltf"))
    out, _ = write(read(doc), doc.json)
    assert len(out["nodes"]) == len(doc.json["nodes"])
    assert out["nodes"][4]["extensions"]["OMI_physics_joint"] == {"joint": 0, "connectedNode": 5}


def test_joint_under_static_body_is_swapped_to_the_dynamic_side() -> None:
    # pendulum: HingeJoint1 (node 4) under static TopBody, its attachment (5) under dynamic Ball1 (D-14).
    doc = load(fixture_path("OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf"))
    out, losses = write(read(doc), doc.json)
    assert out["nodes"][5]["extensions"]["OMI_physics_joint"] == {"joint": 0, "connectedNode": 4}
    assert "OMI_physics_joint" not in out["nodes"][4].get("extensions", {})
    # Symmetric 0/0 ranges swap exactly; the fix-up of the invalid source (JOINT-2) is still reported.
    assert [(x.code, x.pointer) for x in losses] == [
        ("JOINT-2", f"/nodes/{n}/extensions/OMI_physics_joint") for n in (4, 10, 16)]
    (again,) = [j for j in read(Document(json=out)).joints if j.node == 5]
    assert (again.body_a, again.body_b) == (6, 1)


def test_asymmetric_swap_negates_ranges_and_records_loss() -> None:
    doc = load(fixture_path("OMI_physics_joint/gen2-physicsJoints/swing_and_slide.gltf"))
    out, losses = write(read(doc), doc.json)
    assert [x.code for x in losses] == ["D-14"]
    limits = out["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["limits"]
    assert limits[0] == {"linearAxes": [0], "min": -1.75, "max": 0.25, "stiffness": 0.7, "damping": 1}


def test_mixed_limit_split_on_write() -> None:
    doc = load(fixture_path("OMI_physics_joint/gen2-physicsJoints/weld_joint.gltf"))
    out, _ = write(read(doc), doc.json)
    assert out["extensions"]["OMI_physics_joint"]["physicsJoints"] == [
        {
            "limits": [
                {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
                {"angularAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
            ]
        }
    ]  # D-4


def test_drive_written_without_defaults() -> None:
    doc = _joint_doc(
        {
            "physicsJoints": [
                {
                    "drives": [
                        {
                            "type": "linear",
                            "mode": "acceleration",
                            "axis": 0,
                            "positionTarget": 0.5,
                            "stiffness": 10,
                        }
                    ]
                }
            ]
        },
        {"joint": 0, "connectedNode": 3},
    )
    out, _ = write(read(Document(json=doc)), doc)
    assert out["extensions"]["OMI_physics_joint"] == {
        "physicsJoints": [
            {
                "drives": [
                    {
                        "type": "linear",
                        "mode": "acceleration",
                        "axis": 0,
                        "positionTarget": 0.5,
                        "stiffness": 10.0,
                    }
                ]
            }
        ]
    }
    (j,) = read(Document(json=out)).joints
    assert j.drives == (
        JointDrive(
            type=DriveType.LINEAR, mode=DriveMode.ACCELERATION, axis=0, position_target=0.5, stiffness=10.0
        ),
    )


def test_joint_without_dynamic_side_and_world_frame() -> None:
    from gltf_physics.model import Body, Motion, MotionType, Pose

    gltf = {"nodes": [{"name": "Wall", "translation": [0, 2, 0]}], "scenes": [{"nodes": [0]}], "scene": 0}
    scene = PhysicsScene(
        bodies=[Body(node=0, motion=Motion(type=MotionType.STATIC, mass=1.0))],
        joints=[Joint(body_a=0, frame_a=Pose((1.0, 0.0, 0.0)), body_b=None, frame_b=Pose((3.0, 2.0, 0.0)))],
    )
    out, losses = write(scene, gltf)
    assert [x.code for x in losses] == ["JOINT-2", "JOINT-3"]
    assert out["nodes"][1] == {
        "name": "Joint",
        "translation": [1.0, 0.0, 0.0],
        "extensions": {"OMI_physics_joint": {"joint": 0, "connectedNode": 2}},
    }
    assert out["nodes"][0]["children"] == [1]
    # The world-space side: a root node at the frame's world pose, anchored by a static motion (JOINT-3).
    assert out["nodes"][2] == {
        "name": "JointAttachment",
        "translation": [3.0, 2.0, 0.0],
        "extensions": {"OMI_physics_body": {"motion": {"type": "static"}}},
    }
    assert out["scenes"][0]["nodes"] == [0, 2]
    (j,) = read(Document(json=out)).joints
    assert (j.body_a, j.frame_a.translation, j.body_b, j.frame_b.translation) == (
        0,
        (1.0, 0.0, 0.0),
        2,
        (0, 0, 0),
    )


def test_bulk_pose_verdicts_are_the_exact_per_pair_test() -> None:
    """The joint writer's bulk pose test decides only what the exact per-pair test decides the same way;
    frames at the tolerance edge (translation off by exactly 1e-6, rotations at 1 − 1e-9) are left undecided."""
    import numpy as np

    from gltf_physics.dialects.common.pose_bulk import clear_matches
    from gltf_physics.gltf.transforms import relative_pose, trs_matrix
    from gltf_physics.model import Pose

    rng = np.random.default_rng(7)
    world = []
    for i in range(60):
        q = rng.normal(size=4)
        scale = (1.0, 1.0, 1.0) if i % 3 else tuple(rng.uniform(0.5, 2.0, 3))
        m = trs_matrix(tuple(rng.uniform(-1e3, 1e3, 3)), tuple(q / np.linalg.norm(q)), scale)
        if i % 7 == 0:
            m[0, 1] += 0.3  # sheared: not for the bulk path
        if i % 11 == 0:
            m[:3, 0] *= -1  # mirrored: not for the bulk path
        world.append(m)
    queries = []
    for k in range(400):
        body, node = (None if k % 9 == 0 else int(rng.integers(60))), int(rng.integers(60))
        t, q = relative_pose(world[body] if body is not None else None, world[node])
        kind = k % 4
        if kind == 1:  # off by the tolerance itself in one axis
            t = (t[0] + 1e-6 + 1e-5 * abs(t[0]), t[1], t[2])
        elif kind == 2:  # clearly elsewhere
            t = (t[0], t[1] + 0.01, t[2])
        elif kind == 3:  # turned a little
            q = (q[0] + 1e-4, q[1], q[2], q[3])
        queries.append((body, node, Pose(translation=tuple(t), rotation=tuple(q))))
    verdicts = clear_matches(world, queries)
    assert len(verdicts) > 200  # most are decided in bulk
    for body, node, frame in queries:
        if (body, node, id(frame)) not in verdicts:
            continue
        t, q = relative_pose(world[body] if body is not None else None, world[node])
        exact = bool(np.allclose(t, frame.translation, atol=1e-6)) and abs(
            sum(a * b for a, b in zip(q, frame.rotation, strict=True))) > 1.0 - 1e-9
        assert verdicts[(body, node, id(frame))] == exact
