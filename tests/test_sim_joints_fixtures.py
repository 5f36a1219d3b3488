"""Official joint fixtures through the readers, RapierWorld and build_joints: 2 s at 60 Hz stay finite,
and the hard pin of OMI gen1 simple_joint keeps its two attachment points together."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import all_fixture_files, fixture_path
from gltf_physics.dialects import read_scene
from gltf_physics.gltf.io import load
from gltf_physics.sim.rapier.joints import JointDriver, build_joints
from gltf_physics.sim.rapier.world import RapierWorld

JOINT_FIXTURES = [f for f in all_fixture_files()
                  if f.endswith(".gltf") and (f.startswith("OMI_physics_joint/") or "/JointTypes/" in f)]
JOINT_FIXTURES = JOINT_FIXTURES or ["<fixtures-missing>"]


def run(relative: str, seconds: float = 2.0) -> tuple[RapierWorld, JointDriver]:
    scene = read_scene(load(fixture_path(relative)))
    world = RapierWorld(scene, rate=60.0)
    driver = build_joints(world, scene)
    for _ in range(int(seconds * 60)):
        driver.before_step(1.0 / 60.0)
        world.step()
    return world, driver


@pytest.mark.parametrize("relative", JOINT_FIXTURES)
def test_joint_fixture_runs_two_seconds_finite(relative: str) -> None:
    world, driver = run(relative)
    assert driver.built  # every fixture has at least one simulated joint
    for handle in world.handle_of.values():
        p = world.bodies[handle].position
        values = (p.translation.x, p.translation.y, p.translation.z, p.rotation.w, p.rotation.i)
        assert all(math.isfinite(v) for v in values)


@pytest.mark.parametrize("generation", ["gen1-constraints", "gen1-constraints-omi-collider"])
def test_simple_joint_pin_holds(generation: str) -> None:
    # One hard pin (linear [0,1,2] 0/0): after 2 s frame A and frame B are within 1 cm.
    _, driver = run(f"OMI_physics_joint/{generation}/simple_joint.gltf")
    fa, fb = driver.frames_world(0)
    assert float(np.linalg.norm(np.subtract(fa.translation, fb.translation))) < 0.01
