"""Joint trees on Rapier multibodies (sim/rapier/articulations.py; docs/semantics.md).

Scenes go through ``World`` (bodies, shapes, masses as a file would give them). Links are 1 kg boxes
0.1 × 0.5 × 0.1 m; hinges per the KHR recipe (docs/semantics.md): linear 0/0, two angular 0/0, one angular ranged.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gltf_physics.gltf.document import Document
from gltf_physics.gltf.transforms import quat_multiply, quat_to_matrix
from gltf_physics.model import Body, Box, Collider, Motion, PhysicsScene
from gltf_physics.model.joints import DriveMode, DriveType, Joint, JointDrive, JointLimit, Pose
from gltf_physics.sim import World

L = 0.5
PIN = JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0)


def hinge(axis: int, lo: float = -math.inf, hi: float = math.inf) -> tuple[JointLimit, ...]:
    others = tuple(a for a in range(3) if a != axis)
    return (PIN, JointLimit(angular_axes=others, min=0.0, max=0.0),
            JointLimit(angular_axes=(axis,), min=lo, max=hi))


def scene(nodes: list[dict], joints: list[Joint], size: tuple[float, float, float]) -> PhysicsScene:
    n = len(nodes)
    return PhysicsScene(bodies=[Body(i, Motion(mass=1.0)) for i in range(n)],
                        colliders=[Collider(i, Box(size), body=i) for i in range(n)], joints=joints,
                        document=Document(json={"nodes": nodes}, buffers=[]))


def twist(w: World, k: int, axis: int) -> float:
    fa, fb = w.engine.joints.frames_world(k)
    x, y, z, q_w = fa.rotation
    q = quat_multiply((-x, -y, -z, q_w), fb.rotation)
    return 2.0 * math.atan2(q[axis], q[3])


def articulated(w: World) -> list[bool]:
    return [b.multibody is not None for _, b in sorted(w.engine.joints.built.items())]


def test_hanging_ten_link_chain_keeps_its_length():
    # Ball-jointed chain hanging from the world at the origin, links along −Y: the tip (bottom of the last
    # link) stays within 1 mm of the rest length 10·L = 5 m at every step of 2 s (impulse joints: 8 mm).
    nodes = [{"translation": [0.0, -L * (i + 0.5), 0.0]} for i in range(10)]
    joints = [Joint(None if i == 0 else i - 1, Pose() if i == 0 else Pose((0.0, -L / 2, 0.0)), i,
                    Pose((0.0, L / 2, 0.0)), limits=(PIN,)) for i in range(10)]
    w = World(scene(nodes, joints, (0.1, L, 0.1)))
    assert all(articulated(w))
    worst = 0.0
    for _ in range(120):
        w.step()
        t, q = w.pose(9)
        tip = t + quat_to_matrix(q) @ np.array([0.0, -L / 2, 0.0])
        worst = max(worst, abs(float(np.linalg.norm(tip)) - 10 * L))
    assert worst < 1e-3


@pytest.mark.parametrize("mode", [DriveMode.FORCE, DriveMode.ACCELERATION])
def test_driven_two_link_arm_reaches_its_targets(mode):
    # Two links in the horizontal plane on vertical (Y) hinges, each with a position drive (k, c near
    # critical for the arm's inertia): after 2 s each joint is within 0.5° of its target.
    nodes = [{"translation": [L * 0.5, 0.0, 0.0]}, {"translation": [L * 1.5, 0.0, 0.0]}]
    k, c = 400.0, 40.0
    targets = (0.6, -0.9)
    joints = [Joint(None if i == 0 else 0, Pose() if i == 0 else Pose((L / 2, 0.0, 0.0)), i,
                    Pose((-L / 2, 0.0, 0.0)), limits=hinge(1),
                    drives=(JointDrive(DriveType.ANGULAR, mode, 1, position_target=targets[i], stiffness=k,
                                       damping=c),)) for i in range(2)]
    w = World(scene(nodes, joints, (L, 0.1, 0.1)))
    assert all(articulated(w))
    w.run(2.0)
    for i in range(2):
        assert abs(twist(w, i, 1) - targets[i]) < math.radians(0.5)


def loop_scene() -> tuple[PhysicsScene, list[Joint]]:
    # Three links hanging in a row from the world on Z hinges limited to ±0.4 rad, released tilted; a fourth
    # joint pins the last link's bottom back to a world point: a loop, which a multibody cannot close.
    tilt = 0.3
    nodes, joints = [], []
    top = np.zeros(3)
    for i in range(3):
        d = np.array([math.sin(tilt), -math.cos(tilt), 0.0])
        centre = top + d * L / 2
        nodes.append({"translation": centre.tolist(),
                      "rotation": [0.0, 0.0, math.sin(tilt / 2), math.cos(tilt / 2)]})
        a, fa = (None, Pose()) if i == 0 else (i - 1, Pose((0.0, -L / 2, 0.0)))
        joints.append(Joint(a, fa, i, Pose((0.0, L / 2, 0.0)), limits=hinge(2, -0.4, 0.4)))
        top = top + d * L
    joints.append(Joint(2, Pose((0.0, -L / 2, 0.0)), None, Pose(tuple(top.tolist())), limits=(PIN,)))
    return scene(nodes, joints, (0.1, L, 0.1)), joints


def test_a_loop_closing_a_chain_keeps_every_limit_beside_an_articulated_tree():
    # The loop (chain + closing pin) stays on impulse joints as a whole; a separate driven arm in the same
    # scene is a multibody. Over 3 s the hinges stay within ±0.4 rad (+0.5°) and the pin holds within 5 mm.
    loop, joints = loop_scene()
    nodes = loop.document.json["nodes"] + [{"translation": [3.0 + L * 0.5, 0.0, 0.0]}]
    arm = Joint(None, Pose((3.0, 0.0, 0.0)), 3, Pose((-L / 2, 0.0, 0.0)), limits=hinge(1),
                drives=(JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 1, position_target=0.5, stiffness=400.0,
                                   damping=40.0),))
    s = scene(nodes, [*joints, arm], (0.1, L, 0.1))
    w = World(s)
    assert articulated(w) == [False, False, False, False, True]
    for _ in range(180):
        w.step()
        for k in range(3):
            assert abs(twist(w, k, 2)) <= 0.4 + math.radians(0.5)
        fa, fb = w.engine.joints.frames_world(3)
        assert np.linalg.norm(np.subtract(fa.translation, fb.translation)) < 5e-3
    assert abs(twist(w, 4, 1) - 0.5) < math.radians(0.5)


def test_articulated_runs_are_deterministic_and_restore_exactly():
    s, _ = loop_scene()
    a, b = World(s, record=True), World(s, record=True)
    a.run(0.5)
    b.run(0.5)
    assert a.recording.poses.tobytes() == b.recording.poses.tobytes()
    snap = a.snapshot()
    a.run(0.5)
    first = a.poses()[1].copy()
    a.restore(snap)
    a.run(0.5)
    assert np.array_equal(a.poses()[1], first)


def test_setting_a_link_velocity_turns_its_joint():
    # A link hanging at rest on a Z hinge (pivot 0.25 m above its centre); World.set gives it ω_z = 2 rad/s:
    # its joint coordinate then turns at 2 rad/s (first step; gravity adds nothing at the bottom).
    nodes = [{"translation": [0.0, -L / 2, 0.0]}]
    w = World(scene(nodes, [Joint(None, Pose(), 0, Pose((0.0, L / 2, 0.0)), limits=hinge(2))], (0.1, L, 0.1)))
    assert articulated(w) == [True]
    w.set("/nodes/0/extensions/KHR_physics_rigid_bodies/motion/angularVelocity", [0.0, 0.0, 2.0])
    w.step()
    assert twist(w, 0, 2) == pytest.approx(2.0 / 60.0, rel=0.01)


def test_inert_drive_and_released_soft_limit_leave_the_joint_free():
    # A Rapier motor of zero gains holds its axis rigidly; an inert drive (no stiffness, no damping) and a
    # soft limit while inside its range must not: a link released 0.5 rad off the vertical swings down
    # through the vertical (twist sign changes) within 1 s.
    a0 = 0.5
    nodes = [{"translation": [L / 2 * math.sin(a0), -L / 2 * math.cos(a0), 0.0],
              "rotation": [0.0, 0.0, math.sin(a0 / 2), math.cos(a0 / 2)]}]
    inert = JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 2, velocity_target=1.0)
    soft = JointLimit(angular_axes=(2,), min=-1.0, max=1.0, stiffness=100.0, damping=1.0)
    for limits, drives in (((*hinge(2)[:2],), (inert,)), ((*hinge(2)[:2], soft), ())):
        w = World(scene(nodes, [Joint(None, Pose(), 0, Pose((0.0, L / 2, 0.0)), limits=limits, drives=drives)],
                        (0.1, L, 0.1)))
        assert articulated(w) == [True]
        seen = []
        for _ in range(60):
            w.step()
            seen.append(twist(w, 0, 2))
        assert seen[0] > 0.4 and min(seen) < -0.3


def test_articulations_off_keeps_every_joint_on_impulse_joints():
    nodes = [{"translation": [0.0, -L * (i + 0.5), 0.0]} for i in range(3)]
    joints = [Joint(None if i == 0 else i - 1, Pose() if i == 0 else Pose((0.0, -L / 2, 0.0)), i,
                    Pose((0.0, L / 2, 0.0)), limits=(PIN,)) for i in range(3)]
    w = World(scene(nodes, joints, (0.1, L, 0.1)), articulations=False)
    assert articulated(w) == [False, False, False]
    assert all(w.engine.joints.handles(k) for k in range(3))


def test_soft_limited_chain_replays_exactly_after_restore():
    # Soft-limit motors are switched before a step from the coordinates then, and that switch state is not
    # in the snapshot bytes. Snapshot right after the step on which a link leaves its range (its motor still
    # off in the snapshot), step once (the motor goes on), restore, and run on: the motor must be switched
    # again, so the run equals one that never restored, bit for bit.
    soft = JointLimit(angular_axes=(2,), min=-0.2, max=0.2, stiffness=30.0, damping=0.5)
    nodes = [{"translation": [L * (i + 0.5), 0.0, 0.0]} for i in range(3)]
    joints = [Joint(None if i == 0 else i - 1, Pose() if i == 0 else Pose((L / 2, 0.0, 0.0)), i,
                    Pose((-L / 2, 0.0, 0.0)), limits=(*hinge(2)[:2], soft)) for i in range(3)]
    reference, w = World(scene(nodes, joints, (L, 0.1, 0.1))), World(scene(nodes, joints, (L, 0.1, 0.1)))
    assert all(articulated(w))
    while all(-0.2 <= twist(w, k, 2) <= 0.2 for k in range(3)):
        w.step()
        reference.step()
    snap = w.snapshot()
    w.step()
    w.restore(snap)
    for _ in range(30):
        w.step()
        reference.step()
    assert np.array_equal(w.poses()[1], reference.poses()[1])


def test_a_world_anchored_joint_written_on_its_moving_side_is_articulated_and_set_the_same():
    # The KHR writer writes a world-anchored joint on its moving side (A = the link, B = the world); the planner takes
    # B as the child, so the runtime builds it from the other side (the exact swap) — same run, and a run-time
    # drive target or one-axis range given in the file's terms means the same after the flip.
    from gltf_physics.dialects.common.portable_joints import swapped

    nodes = [{"translation": [L * 0.5, 0.0, 0.0]}]
    drive = JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 1, position_target=0.6, stiffness=400.0, damping=40.0)
    given = Joint(None, Pose(), 0, Pose((-L / 2, 0.0, 0.0)), limits=hinge(1, -1.0, 1.0), drives=(drive,))
    worlds = [World(scene(nodes, [j], (L, 0.1, 0.1))) for j in (given, swapped(given))]
    assert [articulated(w) for w in worlds] == [[True], [True]]
    assert worlds[1].engine.joints.flipped == {0} and worlds[0].engine.joints.flipped == set()
    for w in worlds:
        w.run(1.0)
    assert worlds[0].pose(0)[0].tolist() == worlds[1].pose(0)[0].tolist()
    worlds[0].engine.joints.set(0, ("drives", 0, "position_target"), 0.7)
    worlds[1].engine.joints.set(0, ("drives", 0, "position_target"), -0.7)  # the flipped file's terms
    worlds[0].engine.joints.set(0, ("limits", 2, "max"), 0.5)  # below the target: the limit holds the link
    worlds[1].engine.joints.set(0, ("limits", 2, "min"), -0.5)
    for w in worlds:
        w.run(2.0)
    assert abs(twist(worlds[0], 0, 1) - 0.5) < math.radians(1.0)
    assert float(np.linalg.norm(worlds[0].pose(0)[0] - worlds[1].pose(0)[0])) < 1e-6
