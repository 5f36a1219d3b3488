"""Soft limits and drives of impulse joints on a moving kinematic post (sim/rapier/joints/springs.py).

On impulse joints (``--joints impulse``, or a joint no multibody link can express) every live spring is stepped
in one NumPy pass over all joints. These runs go through ``World`` (the world's pose cache feeds the batch): the
analytic sag and drive response of JOINT-6 soft limits and drives on a post moving at 0.5 m/s along X — on
both joint paths where the joint is native on a multibody link (there a driven root carries the tree,
``driven_roots.py``) — and snapshots that carry the springs' rates. 60 Hz, g = 9.81 m/s² down.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gltf_physics.gltf.document import Document
from gltf_physics.model import Body, Box, Collider, Motion, MotionType, PhysicsScene
from gltf_physics.model.joints import DriveMode, DriveType, Joint, JointDrive, JointLimit, Pose
from gltf_physics.sim import World
from gltf_physics.sim.rapier.joints.common import _frame_world, _measure

G = 9.81
ARM = 0.5  # each link: a 1 kg box 0.5 × 0.02 × 0.02 m along X, pinned at its −X end
SPEED = 0.5  # the post's velocity along X, m/s


def hinge(axis: int) -> tuple[JointLimit, ...]:
    """A pin with rotation free only about ``axis``."""
    return (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0),
            JointLimit(angular_axes=tuple(a for a in range(3) if a != axis), min=0.0, max=0.0))


def post_scene(links: int, limits: tuple[JointLimit, ...], drives: tuple[JointDrive, ...] = (),
               thickness: float = 0.02) -> PhysicsScene:
    """A kinematic post at the origin moving at SPEED along X, with a chain of ``links`` links along +X (boxes
    ARM × ``thickness`` × ``thickness``)."""
    nodes: list[dict] = [{"translation": [0.0, 0.0, 0.0]}]
    bodies = [Body(0, Motion(type=MotionType.KINEMATIC, linear_velocity=(SPEED, 0.0, 0.0)))]
    colliders = [Collider(0, Box((0.05, 0.05, 0.05)), body=0)]
    joints = []
    for i in range(1, links + 1):
        nodes.append({"translation": [ARM * (i - 0.5), 0.0, 0.0]})
        bodies.append(Body(i, Motion(mass=1.0)))
        colliders.append(Collider(i, Box((ARM, thickness, thickness)), body=i))
        frame_a = Pose() if i == 1 else Pose((ARM / 2, 0.0, 0.0))  # frame A on the parent: + is the link's way
        joints.append(Joint(i - 1, frame_a, i, Pose((-ARM / 2, 0.0, 0.0)), limits=limits, drives=drives,
                            node=i - 1, connected_node=i))
    return PhysicsScene(bodies=bodies, colliders=colliders, joints=joints,
                        document=Document(json={"nodes": nodes}, buffers=[]))


def on_path(w: World, articulations: bool, count: int) -> None:
    """The joints are multibody links (a driven root), or impulse joints whose ``count`` springs are one batch."""
    if articulations:
        assert all(b.multibody is not None for b in w.engine.joints.built.values())
        assert len(w.engine.joints.driven.pairs) == 1
    else:
        on_impulse_springs(w, count)


def on_impulse_springs(w: World, count: int) -> None:
    """The joints are impulse joints (a kinematic root) and their ``count`` springs are one batch."""
    driver = w.engine.joints
    assert all(b.multibody is None for b in driver.built.values())
    assert driver._springs is not None and len(driver._springs.items) == count
    assert driver._needy == []  # no joint is stepped on its own


def twist_z(w: World, node: int) -> float:
    q = w.pose(node)[1]
    return 2.0 * math.atan2(float(q[2]), float(q[3]))


@pytest.mark.parametrize("articulations", [True, False])
def test_soft_limit_sag_is_weight_torque_over_stiffness_on_a_moving_post(articulations: bool) -> None:
    # JOINT-6: one link held horizontal by a soft limit [0, 0] about Z, k = 100 N·m/rad, damped (c = 2):
    # it settles where k·θ = m·g·(L/2)·cos θ, θ ≈ 0.0245 rad below, whatever the post's steady motion.
    k = 100.0
    w = World(post_scene(1, (*hinge(2), JointLimit(angular_axes=(2,), min=0.0, max=0.0, stiffness=k,
                                                      damping=2.0))), rate=60, articulations=articulations)
    w.run(3.0)
    on_path(w, articulations, 1)
    sag = -twist_z(w, 1)
    expected = 1.0 * G * ARM / 2 * math.cos(sag) / k
    assert abs(sag - expected) / expected < 0.01
    assert abs(float(w.pose(0)[0][0]) - SPEED * 3.0) < 1e-4  # the post moved


@pytest.mark.parametrize("articulations", [True, False])
def test_acceleration_velocity_drive_follows_one_minus_exp_on_a_moving_post(articulations: bool) -> None:
    # JOINT-6 acceleration mode: damping 1 s⁻¹ toward ω* = 2 rad/s about the vertical Y axis (no gravity
    # torque): ω = ω*·(1 − e^(−t)), independent of the link's inertia; checked at 0.5, 1 and 2 s within 1 %.
    drive = JointDrive(DriveType.ANGULAR, DriveMode.ACCELERATION, 1, velocity_target=2.0, damping=1.0)
    w = World(post_scene(1, hinge(1), (drive,)), rate=60, articulations=articulations)
    body = w.engine.bodies[w.engine.handle_of[1]]
    for t in (0.5, 1.0, 2.0):
        w.run(t - w.time)
        expected = 2.0 * (1.0 - math.exp(-t))
        assert abs(body.angvel.y - expected) / expected < 0.01
    on_path(w, articulations, 1)


@pytest.mark.parametrize("articulations", [True, False])
def test_force_position_drive_period_on_a_moving_post(articulations: bool) -> None:
    # A force-mode position drive about Y (k = 20 N·m/rad, no damping) on a 1 kg link pinned at its end:
    # I = m·L²/3 (+ the thin box's cross term m·0.02²/12), period T = 2π·√(I/k) within 2 %.
    drive = JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 1, position_target=0.2, stiffness=20.0)
    w = World(post_scene(1, hinge(1), (drive,)), rate=60, articulations=articulations)
    angles = []
    for _ in range(3 * 60):
        w.step()
        q = w.pose(1)[1]
        angles.append(2.0 * math.atan2(float(q[1]), float(q[3])))
    a = np.asarray(angles) - 0.2
    ups = [i for i in range(1, len(a)) if a[i - 1] < 0 <= a[i]]
    measured = (ups[-1] - ups[0]) / (len(ups) - 1) / 60.0
    inertia = ARM * ARM / 3 + 0.02 * 0.02 / 12
    expected = 2 * math.pi * math.sqrt(inertia / 20.0)
    assert abs(measured - expected) / expected < 0.02
    on_path(w, articulations, 1)


def test_snapshot_restore_replays_the_springs_exactly() -> None:
    # Each spring's rate is its metric over the last step: the snapshot keeps the metrics, so a run continued
    # from a restored snapshot repeats the original bit for bit (drives and soft limits, 3 links).
    drive = JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 2, position_target=0.3, stiffness=30.0, damping=1.0)
    soft = JointLimit(angular_axes=(2,), min=-0.2, max=0.2, stiffness=200.0, damping=5.0)
    w = World(post_scene(3, (*hinge(2), soft), (drive,)), rate=60)

    def run(steps: int) -> list[np.ndarray]:
        out = []
        for _ in range(steps):
            w.step()
            out.append(np.array([w.pose(n)[1] for n in range(1, 4)]))
        return out

    run(20)
    snap = w.snapshot()
    first = run(30)
    w.restore(snap)
    second = run(30)
    on_impulse_springs(w, 6)
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


def test_total_rotation_limit_holds_against_a_drive_beside_it() -> None:
    # A ball joint with a 3-axis (total rotation) hard limit of 0.4 rad and a force-mode drive about Z pushing
    # toward 1.0 rad (the link 0.5 × 0.2 × 0.2 m): the aimed row, turned in the aimed batch beside the spring
    # batch, stops the link at the bound within the aimed rows' 1.5° allowance (JOINT-6, KHR total rotation).
    limit = JointLimit(angular_axes=(0, 1, 2), min=0.0, max=0.4)
    drive = JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 2, position_target=1.0, stiffness=40.0, damping=1.0)
    pin = JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0)
    w = World(post_scene(1, (pin, limit), (drive,), thickness=0.2), rate=60)
    worst = 0.0
    for _ in range(120):
        w.step()
        q = w.pose(1)[1]  # the post does not turn: the link's rotation is the joint's relative rotation
        worst = max(worst, 2.0 * math.atan2(float(np.linalg.norm(q[:3])), abs(float(q[3]))))
    on_impulse_springs(w, 1)
    assert w.engine.joints._bulk is not None and len(w.engine.joints._bulk.items) == 1
    assert 0.39 <= worst <= 0.4 + math.radians(1.5)


def test_every_metric_in_one_batch_is_the_single_joint_metric() -> None:
    # The batch groups springs by metric (1-axis and multi-axis distance, twist, cone, total rotation) and
    # gathers each group's columns: with every kind in one batch, each spring's metric and direction must be
    # common._measure's on that joint's frames (JOINT-6 metrics), here after a second of motion under the drives.
    lim = JointLimit
    pin = lim(linear_axes=(0, 1, 2), min=0.0, max=0.0)
    drive = JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 0, position_target=0.4, stiffness=20.0, damping=1.0)
    push = JointDrive(DriveType.LINEAR, DriveMode.ACCELERATION, 1, velocity_target=0.2, damping=3.0)
    variants = [
        ((pin, lim(angular_axes=(0, 1), min=0.0, max=0.0), lim(angular_axes=(2,), min=-0.1, max=0.1, stiffness=50.0)),
         ()),
        ((pin, lim(angular_axes=(0, 2), min=0.0, max=0.2, stiffness=80.0, damping=1.0)), (drive,)),
        ((pin, lim(angular_axes=(0, 1, 2), min=0.0, max=0.3, stiffness=60.0)), (drive,)),
        ((lim(linear_axes=(1, 2), min=0.0, max=0.02, stiffness=300.0), lim(angular_axes=(0, 1, 2), min=0.0, max=0.0)),
         (push,)),
        ((lim(linear_axes=(0, 1, 2), min=-0.02, max=0.02, stiffness=400.0),
          lim(linear_axes=(0,), min=-0.01, max=0.01, stiffness=500.0)), (drive,)),
    ]
    nodes: list[dict] = [{"translation": [0.0, 0.0, 0.0]}]
    bodies = [Body(0, Motion(type=MotionType.KINEMATIC, linear_velocity=(SPEED, 0.0, 0.0)))]
    colliders = [Collider(0, Box((0.05, 0.05, 0.05)), body=0)]
    joints = []
    for i, (limits, drives) in enumerate(variants * 2, start=1):
        nodes.append({"translation": [ARM * (i - 0.5), 0.0, 0.0]})
        bodies.append(Body(i, Motion(mass=1.0)))
        colliders.append(Collider(i, Box((ARM, 0.1, 0.1)), body=i))
        turn = (0.0, 0.0, math.sin(0.05 * i), math.cos(0.05 * i))  # frame A turned: metrics in frame A's axes
        frame_a = Pose((0.0, 0.0, 0.0), turn) if i == 1 else Pose((ARM / 2, 0.0, 0.0), turn)
        joints.append(Joint(i - 1, frame_a, i, Pose((-ARM / 2, 0.0, 0.0)), limits=limits, drives=drives,
                            node=i - 1, connected_node=i))
    scene = PhysicsScene(bodies=bodies, colliders=colliders, joints=joints,
                         document=Document(json={"nodes": nodes}, buffers=[]))
    w = World(scene, rate=60)
    w.run(1.0)
    batch = w.engine.joints._springs
    assert batch is not None and {code for code, *_ in batch.groups} == set(range(5))  # every metric, in groups
    seen: list[tuple[np.ndarray, np.ndarray]] = []
    measure = batch._measure
    batch._measure = lambda *a: seen.append(measure(*a)) or seen[-1]  # type: ignore[method-assign]
    batch.step(w.engine, w.dt)  # measures the current poses
    x, direction = seen[0]
    for i, (b, s) in enumerate(batch.items):
        expected_x, expected_dir = _measure(s.kind, s.axes, _frame_world(w.engine, b.a), _frame_world(w.engine, b.b))
        assert abs(x[i] - expected_x) < 1e-9, (i, s.kind, s.axes)
        assert np.allclose(direction[:, i], expected_dir, atol=1e-9), (i, s.kind, s.axes)
