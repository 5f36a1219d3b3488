"""``World.poses()`` always reflects the current state, whatever the step/read pattern.

The pose reader skips bodies Rapier reports asleep; that shortcut is sound only when exactly one engine step
ran since the last read. These tests drop boxes that settle and fall asleep at different times, then step
and read in random patterns (substeps 1 and 3), comparing ``poses()`` with ``pose(node)`` bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from gltf_physics.gltf.document import Document
from gltf_physics.model import Body, Box, Collider, Motion, PhysicsScene
from gltf_physics.sim import World


def settling_scene(count: int = 6) -> PhysicsScene:
    nodes = [{"translation": [0.0, -0.5, 0.0]}]
    nodes += [{"translation": [3.0 * i, 0.6 + 0.35 * i, 0.0]} for i in range(count)]  # different drop heights
    return PhysicsScene(bodies=[Body(n, Motion(mass=1.0)) for n in range(1, count + 1)],
                        colliders=[Collider(0, Box((40.0, 1.0, 40.0)))]
                        + [Collider(n, Box(), body=n) for n in range(1, count + 1)],
                        document=Document(json={"nodes": nodes}, buffers=[]))


def assert_reads_current(w: World) -> None:
    nodes, t, q = w.poses()
    for i, n in enumerate(nodes.tolist()):
        pt, pq = w.pose(n)
        np.testing.assert_array_equal(t[i], pt)
        np.testing.assert_array_equal(q[i], pq)


@pytest.mark.parametrize("substeps", [1, 3])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_poses_equal_pose_after_random_step_and_read_patterns(seed, substeps):
    rng = np.random.default_rng(seed)
    w = World(settling_scene(), rate=60, substeps=substeps)
    slept = False
    while w.step_count < 400:
        for _ in range(int(rng.integers(1, 12))):  # skip reads for a while: bodies fall asleep unread
            w.step()
        assert_reads_current(w)
        if rng.random() < 0.3:
            assert_reads_current(w)  # a second read with no step in between
        slept = slept or any(w.engine.world.rigid_bodies[w.engine.handle_of[n]].is_sleeping
                             for n in w.nodes.tolist())
    assert slept  # the pattern crossed the moment bodies fell asleep


def test_poses_after_every_step_keep_the_shortcut_exact():
    w = World(settling_scene(), rate=60)
    for _ in range(300):
        w.step()
        assert_reads_current(w)
    assert w.engine.world.active_bodies() == []  # everything asleep: reads used the shortcut
