"""The fidelity case: a compound body with per-box collision filters stands after landing, at any rate.

Two unit boxes one above the other (node at y = 5, boxes at ±1); the lower box's filter collides with the
static ground, the upper's does not; dropped onto a 15 × 1 × 15 box whose top is at y = 0. At rest the node
is at y = 1.5 (lower box bottom on the ground), upright. It used to topple at 120 Hz (see
``sim.rapier.world.solver_iterations``).
"""

from __future__ import annotations

import numpy as np
import pytest

from gltf_physics.gltf.document import Document
from gltf_physics.gltf.transforms import quat_to_matrix
from gltf_physics.model import Body, Box, Collider, CollisionFilter, Motion, PhysicsScene
from gltf_physics.sim import World


def compound_scene() -> PhysicsScene:
    nodes = [{"translation": [0, -0.5, 0]}, {"translation": [0, 5, 0], "children": [2, 3]},
             {"translation": [0, -1, 0]}, {"translation": [0, 1, 0]}]
    filters = [CollisionFilter(("ground",)), CollisionFilter(("lower",), collide_with_systems=("ground",)),
               CollisionFilter(("upper",), not_collide_with_systems=("ground",))]
    return PhysicsScene(bodies=[Body(1, Motion())],
                        colliders=[Collider(0, Box((15, 1, 15)), filter=0), Collider(2, Box(), body=1, filter=1),
                                   Collider(3, Box(), body=1, filter=2)],
                        filters=filters, document=Document(json={"nodes": nodes}, buffers=[]))


@pytest.mark.parametrize("rate", [60, 120, 240])
def test_compound_filtered_body_stands_after_landing(rate):
    w = World(compound_scene(), rate=rate)
    w.run(3.0)
    t, q = w.pose(1)
    assert t[1] == pytest.approx(1.5, abs=0.01)
    up = quat_to_matrix(q) @ np.array([0.0, 1.0, 0.0])
    assert up[1] > 0.999  # upright: tilted less than 2.6°
