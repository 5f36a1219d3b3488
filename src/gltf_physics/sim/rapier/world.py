"""RapierWorld: a PhysicsScene built into one Rapier ``PhysicsWorld`` (DESIGN §3, DIGEST §11).

The joint driver (``sim/rapier/joints.py``) sees this object through a fixed interface:
``bodies`` (RigidBodySet), ``colliders``, ``impulse_joints`` (ImpulseJointSet), ``multibody_joints``,
``handle_of`` (motion node → RigidBodyHandle, every motion type), ``ground`` (a fixed body at the world
origin, identity rotation) and ``world_pose(node) -> (t, q)`` (initial world pose of any node, scale removed).
The sets are properties: after :meth:`restore` they return the restored world's sets, so never cache them.
"""

from __future__ import annotations

import numpy as np
import rapier3d as rp

from ...gltf.transforms import decompose, world_matrices
from ...model import PhysicsScene

EARTH_GRAVITY = (0.0, -9.81, 0.0)


class RapierWorld:
    def __init__(self, scene: PhysicsScene, *, rate: float = 60.0, substeps: int = 1,
                 gravity: tuple[float, float, float] | None = None, density: float = 1000.0) -> None:
        self.scene = scene
        doc_json = scene.document.json if scene.document is not None else {}
        self._world_m = world_matrices(doc_json)
        g = gravity if gravity is not None else (
            scene.world_gravity.vector if scene.world_gravity is not None else EARTH_GRAVITY)
        self.world = rp.PhysicsWorld(gravity=tuple(float(v) for v in g))
        self.world.integration_parameters.dt = 1.0 / (float(rate) * int(substeps))
        self.density = density
        self.handle_of: dict[int, rp.RigidBodyHandle] = {}
        self.ground = self.world.add_body(rp.RigidBody.fixed())
        for body in scene.bodies:
            t, q = self.world_pose(body.node)
            self.handle_of[body.node] = self.world.add_body(
                rp.RigidBody.dynamic().position((t, q)))

    # -- the joint interface -------------------------------------------------------------------------
    @property
    def bodies(self) -> rp.RigidBodySet:
        return self.world.rigid_bodies

    @property
    def colliders(self) -> rp.ColliderSet:
        return self.world.colliders

    @property
    def impulse_joints(self) -> rp.ImpulseJointSet:
        return self.world.impulse_joints

    @property
    def multibody_joints(self) -> rp.MultibodyJointSet:
        return self.world.multibody_joints

    def world_pose(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """Initial world translation (3,) and xyzw rotation (4,) of ``node``, scale removed."""
        t, q, _ = decompose(self._world_m[node])
        return np.array(t), np.array(q)

    def step(self) -> None:
        self.world.step()
