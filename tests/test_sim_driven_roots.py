"""Joint trees hanging from a kinematic (moving) body, on multibodies through a driven root (driven_roots.py).

Scenes go through a glTF document (``write_scene`` → ``read_scene``), as a file would. The pendulum is a 1 kg
box 0.1 × 0.5 × 0.1 m hinged about Z at its top end to a kinematic base at the origin.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gltf_physics.model import Body, Box, Collider, Motion, MotionType, PhysicsScene
from gltf_physics.model.joints import Joint, Pose
from gltf_physics.sim import World
from gltf_physics.sim.errors import SimulationError
from test_sim_articulation_trees import HINGE_Z, _read, child_nodes

L = 0.5
VELOCITY = "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/linearVelocity"


def pendulum(family: str = "khr", motion: Motion | None = None) -> PhysicsScene:
    nodes = [{"translation": [0.0, 0.0, 0.0]}, {"translation": [0.0, -L / 2, 0.0]}]
    base = motion or Motion(type=MotionType.KINEMATIC)
    return _read(nodes, PhysicsScene(
        bodies=[Body(0, base), Body(1, Motion(mass=1.0))],
        colliders=[Collider(0, Box((0.05, 0.05, 0.05)), body=0), Collider(1, Box((0.1, L, 0.1)), body=1)],
        joints=[Joint(0, Pose(), 1, Pose((0.0, L / 2, 0.0)), limits=HINGE_Z)]), family)


@pytest.mark.parametrize("articulations", [True, False])
@pytest.mark.parametrize("tilt", [10.0, 20.0])
def test_a_pendulum_on_an_accelerating_base_swings_to_twice_its_tilt(articulations, tilt):
    # The base accelerates at a = g·tan(tilt) along X from rest (its velocity set before every step). In the
    # base's frame the pendulum hangs in a field g − a, tilted back by `tilt`; starting at rest straight down it
    # swings to twice that (energy), for any rigid pendulum. Measured: 20.03° / 40.06° on the driven root,
    # 19.99° / 39.96° on impulse joints. Before, the multibody path could not hold this pendulum at all.
    w = World(pendulum(), articulations=articulations)
    assert [b.multibody is not None for b in w.engine.joints.built.values()] == [articulations]
    a = 9.81 * math.tan(math.radians(tilt))
    top = 0.0
    for s in range(120):  # 2 s: over one full swing (period ≈ 1.16 s)
        w.set(VELOCITY, [a * (s + 1) / w.rate, 0.0, 0.0])
        w.step()
        base, bob = w.pose(0)[0], w.pose(1)[0]
        top = max(top, math.degrees(math.atan2(base[0] - bob[0], base[1] - bob[1])))
    assert top == pytest.approx(2 * tilt, abs=0.1)


def test_the_driven_root_sits_on_its_turning_base_and_the_hinge_holds():
    # A base moving at 0.5 m/s and turning at 1 rad/s about Y: after every step the driven root is exactly on
    # the base's pose (1e-6), and the hinge's anchors stay together within 0.1 mm (a multibody joint is exact).
    w = World(pendulum(motion=Motion(type=MotionType.KINEMATIC, linear_velocity=(0.5, 0.0, 0.0),
                                     angular_velocity=(0.0, 1.0, 0.0))))
    joints = w.engine.joints
    (base, root), = joints.driven.pairs
    bodies = w.engine.bodies
    for _ in range(120):
        w.step()
        for part in ("translation", "rotation"):  # through the free joint's coordinates: float32 round-off
            gap = np.subtract(getattr(bodies[root], part).to_tuple(), getattr(bodies[base], part).to_tuple())
            assert float(np.abs(gap).max()) < 1e-6
        fa, fb = joints.frames_world(0)
        assert float(np.linalg.norm(np.subtract(fa.translation, fb.translation))) < 1e-4
    assert w.pose(0)[0][0] == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("family", ["omi", "khr"])
def test_an_arm_on_a_still_kinematic_post_hangs_as_on_a_static_one(family):
    # OMI's kinematic body without an animation, and KHR's without velocities, stay where they are: an arm under
    # gravity on it goes where the same arm on a static post goes (its driven root stays a fixed body), and it
    # falls asleep as that one does.
    still = World(child_nodes(family, MotionType.KINEMATIC))
    fixed = World(child_nodes(family, MotionType.STATIC))
    assert all(b.multibody is not None for b in still.engine.joints.built.values())
    still.run(3.0)
    fixed.run(3.0)
    links = [b.node for b in still.scene.bodies if b.motion.type is MotionType.DYNAMIC]
    gap = max(float(np.abs(still.pose(n)[0] - fixed.pose(n)[0]).max()) for n in links)
    assert gap < 1e-6
    assert all(still.engine.bodies[still.engine.handle_of[n]].is_sleeping for n in links)


@pytest.mark.parametrize("at", [0.0, 0.5])
def test_a_run_restored_from_a_snapshot_repeats_bit_for_bit(at):
    # Also from before the first step, when the driven root is still a fixed body (it turns dynamic once its
    # base is seen moving): the restored root must be driven again.
    w = World(pendulum(motion=Motion(type=MotionType.KINEMATIC, linear_velocity=(0.5, 0.0, 0.0),
                                     angular_velocity=(0.0, 1.0, 0.0))))
    w.run(at)
    snap = w.snapshot()
    w.run(0.5)
    first = w.pose(1)
    w.restore(snap)
    w.run(0.5)
    again = w.pose(1)
    assert first[0].tolist() == again[0].tolist() and first[1].tolist() == again[1].tolist()


def test_a_base_turning_beyond_float32_names_its_own_node():
    # 1e30 rad/s would make the driven root's torque overflow float32 at the first step; the preflight's speed limit
    # (MAX_SPEED, 1e10: what MuJoCo takes) now refuses it before any engine is built, and the error names the base
    # (node 0) and its motion, not the root, which is no node (it once said "node -1").
    with pytest.raises(SimulationError) as e:
        World(pendulum(motion=Motion(type=MotionType.KINEMATIC, angular_velocity=(0.0, 1e30, 0.0))))
    assert str(e.value) == ("/nodes/0/extensions/KHR_physics_rigid_bodies/motion: body node 0: a velocity exceeds "
                            "1e+10 (m/s or rad/s), beyond what the engines can take")
