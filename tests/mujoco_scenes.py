"""Small analytic scenes shared by the MuJoCo and compare tests: plain glTF nodes plus the physics model.

Every scene is a PhysicsScene over a Document of a few nodes, as in test_sim_world.py; ``save_khr`` writes
one as a KHR glTF file (through the project's own KHR writer) for the command-line tests.
"""

from __future__ import annotations

import math
from pathlib import Path

from gltf_physics.api import save
from gltf_physics.dialects import write_scene
from gltf_physics.gltf.document import Document
from gltf_physics.model import (
    Body,
    Box,
    Collider,
    Joint,
    JointDrive,
    JointLimit,
    Motion,
    PhysicsMaterial,
    PhysicsScene,
    Pose,
    Sphere,
)

G = 9.81
PIN = JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0)
OTHER_TWO = JointLimit(angular_axes=(0, 1), min=0.0, max=0.0)  # hinge about frame axis 2 (z)


def make(nodes, bodies=(), colliders=(), joints=(), materials=(), triggers=()) -> PhysicsScene:
    return PhysicsScene(bodies=list(bodies), colliders=list(colliders), joints=list(joints),
                        materials=list(materials), triggers=list(triggers),
                        document=Document(json={"asset": {"version": "2.0"}, "nodes": nodes}, buffers=[]))


def falling_sphere(height: float = 2.0) -> PhysicsScene:
    """A 0.25 m sphere dropped from ``height`` onto a 40 m box whose top face is y = 0."""
    nodes = [{"name": "ground", "translation": [0, -0.5, 0]}, {"name": "ball", "translation": [0, height, 0]}]
    return make(nodes, [Body(1, Motion())], [Collider(0, Box((40.0, 1.0, 40.0))),
                                             Collider(1, Sphere(0.25), body=1)])


def pendulum(length: float = 1.0, angle: float = math.radians(3.0), bob: float = 0.01) -> PhysicsScene:
    """A point-like bob (radius ``bob``) on a hinge about z at (0, 2, 0) to the world, released at ``angle``."""
    pos = (length * math.sin(angle), 2.0 - length * math.cos(angle), 0.0)
    joint = Joint(None, Pose((0.0, 2.0, 0.0)), 0, Pose((-pos[0], 2.0 - pos[1], 0.0)), limits=(PIN, OTHER_TWO))
    return make([{"name": "bob", "translation": list(pos)}], [Body(0, Motion(mass=1.0))],
                [Collider(0, Sphere(bob), body=0)], [joint])


def bar_hinge(limit: JointLimit | None = None, drive: JointDrive | None = None) -> PhysicsScene:
    """A 1 kg, 1 m bar along +x hinged about z at its left end (0, 2, 0)."""
    limits = (PIN, OTHER_TWO) + ((limit,) if limit is not None else ())
    joint = Joint(None, Pose((0.0, 2.0, 0.0)), 0, Pose((-0.5, 0.0, 0.0)), limits=limits,
                  drives=(drive,) if drive is not None else ())
    return make([{"name": "bar", "translation": [0.5, 2.0, 0.0]}], [Body(0, Motion(mass=1.0))],
                [Collider(0, Box((1.0, 0.1, 0.1)), body=0)], [joint])


def slope(mu: float, theta: float = math.radians(30.0)) -> PhysicsScene:
    """A 0.2 m cube resting on a slab tilted by ``theta`` about z; both with friction ``mu``."""
    q = [0.0, 0.0, math.sin(theta / 2), math.cos(theta / 2)]
    n = (-math.sin(theta), math.cos(theta), 0.0)  # the slab's top face passes through the origin
    nodes = [{"name": "slab", "translation": [-0.5 * c for c in n], "rotation": q},
             {"name": "block", "translation": [0.1 * c for c in n], "rotation": q}]
    return make(nodes, [Body(1, Motion())],
                [Collider(0, Box((20.0, 1.0, 4.0)), material=0), Collider(1, Box((0.2, 0.2, 0.2)), body=1, material=0)],
                materials=[PhysicsMaterial(mu, mu, 0.0)])


def save_khr(scene: PhysicsScene, path: Path) -> Path:
    """``scene`` as a KHR_physics_rigid_bodies glTF file (the project's writer), for the CLI tests."""
    assert scene.document is not None
    doc, losses = write_scene(scene, scene.document, "khr")
    assert not losses, losses
    save(doc, path)
    return path
