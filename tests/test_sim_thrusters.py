"""Thrusters and hover thrusters at runtime (docs/semantics.md).

Scenes are model objects: a 10 kg box body (node 0) with a thruster node (node 1) at its centre, no gravity
unless stated. Expected values are Newton's second law by hand: a = F/m, v = a·t.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import fixture_path
from gltf_physics.api import load, read_scene
from gltf_physics.gltf.document import Document
from gltf_physics.model import (
    Body,
    Box,
    Collider,
    HoverThruster,
    Motion,
    PhysicsScene,
    Thruster,
    Vehicle,
    WorldGravity,
)
from gltf_physics.sim import World

MASS = 10.0
S45 = math.sqrt(0.5)
UP = [-S45, 0.0, 0.0, S45]  # −90° about X: the node's +Z points along world +Y


def ship(thruster: Thruster | HoverThruster, gravity: float = 0.0, dampeners: bool = False,
         rotation: list[float] | None = None, y: float = 0.0, ground: bool = False) -> PhysicsScene:
    nodes: list[dict] = [{"name": "ship", "translation": [0, y, 0], "children": [1]},
                         {"name": "thruster", **({"rotation": rotation} if rotation else {})}]
    colliders = [Collider(0, Box((0.5, 0.5, 0.5)), body=0)]
    if ground:
        nodes.append({"name": "ground", "translation": [0, -0.5, 0]})
        colliders.append(Collider(2, Box((40.0, 1.0, 40.0))))
    scene = PhysicsScene(
        bodies=[Body(0, Motion(mass=MASS))], colliders=colliders,
        vehicles=[Vehicle(0, linear_dampeners=dampeners)],
        world_gravity=WorldGravity(gravity),
        document=Document(json={"nodes": nodes}, buffers=[]),
    )
    if isinstance(thruster, HoverThruster):
        scene.hover_thrusters.append(thruster)
    else:
        scene.thrusters.append(thruster)
    return scene


def velocity(w: World, node: int = 0) -> np.ndarray:
    return np.array(w.engine.bodies[w.engine.handle_of[node]].linvel.to_tuple())


def test_free_body_accelerates_at_force_over_mass():
    # 50 N on 10 kg: a = 5 m/s², v(1 s) = 5 m/s along +Z, x = a(t² + t·h)/2 (Rapier's bias, see test_sim_world)
    w = World(ship(Thruster(1, 0, max_force=50.0, target_force_ratio=1.0)))
    w.run(1.0)
    v = velocity(w)
    assert v[2] == pytest.approx(5.0, rel=0.02)
    assert abs(v[0]) < 1e-6 and abs(v[1]) < 1e-6
    assert w.pose(0)[0][2] == pytest.approx(5.0 * (1 + 1 / 240) / 2, rel=0.02)


def test_restore_replays_a_ramping_thruster_exactly():
    # 50 N reached at 25 N/s: the ramp is halfway at the snapshot and goes on from there after a restore
    w = World(ship(Thruster(1, 0, max_force=50.0, target_force_ratio=1.0, force_change_rate=25.0)))
    w.run(1.0)
    snap = w.snapshot()
    w.run(0.5)
    first = velocity(w)
    w.restore(snap)
    w.run(0.5)
    assert np.array_equal(velocity(w), first)


def test_dampeners_do_not_fight_an_axis_that_is_thrusting():
    w = World(ship(Thruster(1, 0, max_force=50.0, target_force_ratio=1.0), dampeners=True))
    w.run(1.0)
    assert velocity(w)[2] == pytest.approx(5.0, rel=0.02)


def test_gimbal_turns_the_force():
    # gimbal (1, 0)·0.5 rad about the node's X: thrust axis (0, −sin 0.5, cos 0.5)
    t = Thruster(1, 0, max_force=50.0, target_force_ratio=1.0, target_gimbal_ratio=(1.0, 0.0), max_gimbal=0.5,
                 gimbal_change_rate=-1.0)
    w = World(ship(t))
    w.run(1.0)
    v = velocity(w)
    assert v == pytest.approx([0.0, -5.0 * math.sin(0.5), 5.0 * math.cos(0.5)], abs=0.05)
    assert math.atan2(-v[1], v[2]) == pytest.approx(0.5, abs=0.005)


def test_gimbal_y_turns_the_force_towards_plus_x():
    # axis-angle (0, g): +Z turned about +Y by g goes towards +X
    t = Thruster(1, 0, max_force=50.0, target_force_ratio=1.0, target_gimbal_ratio=(0.0, 1.0), max_gimbal=0.3,
                 gimbal_change_rate=-1.0)
    w = World(ship(t))
    w.run(1.0)
    v = velocity(w)
    assert math.atan2(v[0], v[2]) == pytest.approx(0.3, abs=0.005) and abs(v[1]) < 1e-4


def test_force_change_rate_ramps_the_thrust():
    # 25 N/s on a 50 N thruster: F = 25t for t ≤ 2 s, so v(1 s) = 25/10 · t²/2 = 1.25 m/s
    t = Thruster(1, 0, max_force=50.0, target_force_ratio=1.0, force_change_rate=25.0)
    w = World(ship(t))
    w.run(1.0)
    assert velocity(w)[2] == pytest.approx(1.25, rel=0.03)


def test_vehicle_linear_activation_fires_a_thruster_through_a_pointer():
    w = World(ship(Thruster(1, 0, max_force=50.0, settings_index=0)))
    w.run(0.5)
    assert velocity(w)[2] == 0.0
    w.set("/nodes/0/extensions/OMI_vehicle_body/linearActivation", [0, 0, 1])
    w.run(1.0)
    assert velocity(w)[2] == pytest.approx(5.0, rel=0.02)


def test_thruster_settings_pointer_sets_the_ratio():
    w = World(ship(Thruster(1, 0, max_force=50.0, settings_index=0)))
    w.set("/extensions/OMI_vehicle_thruster/thrusters/0/targetForceRatio", 0.5)
    w.run(1.0)
    assert velocity(w)[2] == pytest.approx(2.5, rel=0.02)


def test_hover_thruster_holds_a_stable_height():
    # E/d = m·g: d = 196.2 / (10·9.81) = 2.0 m above the ground (top face at y = 0); dampeners settle it
    h = HoverThruster(1, 0, max_hover_energy=196.2, target_hover_ratio=1.0)
    w = World(ship(h, gravity=9.81, dampeners=True, rotation=UP, y=1.5, ground=True))
    w.run(6.0)
    heights = []
    w.run(1.0, on_step=lambda world: heights.append(world.pose(0)[0][1]))
    assert np.mean(heights) == pytest.approx(2.0, abs=0.01)
    assert max(heights) - min(heights) < 0.005
    assert abs(velocity(w)[1]) < 0.01


def test_hover_thruster_without_ground_gives_no_force():
    h = HoverThruster(1, 0, max_hover_energy=196.2, target_hover_ratio=1.0)
    w = World(ship(h, rotation=UP))
    w.run(0.5)
    assert velocity(w) == pytest.approx([0, 0, 0], abs=1e-9)


@pytest.mark.parametrize("rel", [
    f"OMI_vehicle/{gen}/{part}" for gen in ("gen1-current", "gen2-target") for part in (
        "OMI_vehicle_thruster/rocket_ship.gltf", "OMI_vehicle_thruster/simple_spaceship.gltf",
        "OMI_vehicle_hover_thruster/hovercraft.gltf")])
def test_thruster_fixtures_simulate_two_seconds(rel):
    w = World(read_scene(load(fixture_path(rel))))
    w.run(2.0)
    _, t, q = w.poses()
    assert w.step_count == 120 and np.isfinite(t).all() and np.isfinite(q).all()
