"""Gravity volumes and world gravity (OMI_physics_gravity, docs/semantics.md).

Field math is checked on its own (``sim.gravity_fields``) against hand-computed vectors; the runtime is checked
through the velocity a body gains in one step (Rapier adds a·dt to the velocity before it moves the body, so
one 60 Hz step from rest gives v = a/60 exactly, to float32 precision) and through short falls.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import fixture_path
from gltf_physics.api import load, read_scene
from gltf_physics.gltf.document import Document
from gltf_physics.model import Body, Collider, Motion, PhysicsScene, Sphere, Trigger
from gltf_physics.model.gravity import GravityField, GravityType, WorldGravity
from gltf_physics.model.shapes import Box
from gltf_physics.sim import World
from gltf_physics.sim.gravity_fields import Contribution, combine, field_acceleration

I4 = np.eye(4)
DT = 1 / 60
NO_WORLD_GRAVITY = WorldGravity(0.0)


def field(kind: GravityType, gravity: float = 1.0, **kw) -> GravityField:
    return GravityField(0, kind, gravity, **kw)


def translated(x: float, y: float, z: float) -> np.ndarray:
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


# -- field math ---------------------------------------------------------------------------------------


def test_point_field_pulls_to_the_node_with_inverse_square_falloff():
    # gravity 9 at unitDistance 2: at d = 6 the pull is 9·(2/6)² = 1 towards the node origin (1, 0, 0)
    f = field(GravityType.POINT, 9.0, unit_distance=2.0)
    a = field_acceleration(f, translated(1, 0, 0), (1, 6, 0))
    assert a == pytest.approx([0, -1, 0], abs=1e-12)
    # unitDistance 0: constant strength whatever the distance
    a = field_acceleration(field(GravityType.POINT, 9.0), I4, (0, 0, 100))
    assert a == pytest.approx([0, 0, -9], abs=1e-12)


def test_negative_gravity_repels_and_the_centre_itself_gets_nothing():
    assert field_acceleration(field(GravityType.POINT, -2.0), I4, (3, 0, 4)) == pytest.approx([1.2, 0, 1.6])
    assert field_acceleration(field(GravityType.POINT, 2.0), I4, (0, 0, 0)) == pytest.approx([0, 0, 0])


def test_directional_field_turns_with_its_node():
    # node turned 90° about Z: its local −Y points along world +X
    m = np.eye(4)
    m[:3, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]
    a = field_acceleration(field(GravityType.DIRECTIONAL, 3.0), m, (50, 50, 50))
    assert a == pytest.approx([3, 0, 0], abs=1e-12)


def test_disc_pulls_straight_down_over_its_face_and_to_the_rim_beyond():
    f = field(GravityType.DISC, 2.0, radius=1.0)
    assert field_acceleration(f, I4, (0.5, 3, 0)) == pytest.approx([0, -2, 0])
    # beyond the rim: towards (1, 0, 0) from (4, 4, 0) — direction (−3, −4)/5
    assert field_acceleration(f, I4, (4, 4, 0)) == pytest.approx([-1.2, -1.6, 0])


def test_torus_pulls_to_the_circle_edge():
    f = field(GravityType.TORUS, 5.0, radius=2.0)
    # from (0, 0, 0.5) the nearest rim point is (0, 0, 2): pull along +Z
    assert field_acceleration(f, I4, (0, 0, 0.5)) == pytest.approx([0, 0, 5])
    # from (0, 3, 2): straight down onto (0, 0, 2)
    assert field_acceleration(f, I4, (0, 3, 2)) == pytest.approx([0, -5, 0])


def test_line_pulls_to_the_nearest_point_of_the_polyline():
    # polyline (0,0,0) → (4,0,0) → (4,4,0); from (2, −3, 0) nearest is (2, 0, 0); from (7, 2, 0) it is (4, 2, 0)
    f = field(GravityType.LINE, 1.0, points=((0, 0, 0), (4, 0, 0), (4, 4, 0)))
    assert field_acceleration(f, I4, (2, -3, 0)) == pytest.approx([0, 1, 0])
    assert field_acceleration(f, I4, (7, 2, 0)) == pytest.approx([-1, 0, 0])


def test_shaped_box_pulls_to_its_surface_with_unit_distance():
    # box 2×2×2 at the origin; from (0, 5, 0) the nearest point is (0, 1, 0), d = 4; 8·(2/4)² = 2
    f = field(GravityType.SHAPED, 8.0, unit_distance=2.0, shape=Box((2, 2, 2)))
    assert field_acceleration(f, I4, (0, 5, 0)) == pytest.approx([0, -2, 0])
    assert field_acceleration(f, I4, (0.5, 0.5, 0.5)) == pytest.approx([0, 0, 0])  # inside: on the target


def c(priority: float, ax: float, replace: bool = False, stop: bool = False) -> Contribution:
    return Contribution(priority, replace, stop, np.array([ax, 0.0, 0.0]))


def test_combine_adds_by_priority_then_world_gravity():
    assert combine([c(0, 1), c(5, 2)], (0, -10, 0)) == pytest.approx([3, -10, 0])


def test_combine_replace_discards_what_higher_priorities_gave():
    # high first: 2 (p5), then replace with 1 (p3), then add 4 (p0): 5, plus world
    assert combine([c(0, 4), c(5, 2), c(3, 1, replace=True)], (0, -1, 0)) == pytest.approx([5, -1, 0])


def test_combine_stop_ends_the_walk_before_lower_priorities_and_world():
    assert combine([c(0, 4), c(5, 2), c(3, 1, stop=True)], (0, -1, 0)) == pytest.approx([3, 0, 0])
    assert combine([c(0, 4), c(5, 2, replace=True, stop=True)], (0, -1, 0)) == pytest.approx([2, 0, 0])


def test_combine_without_volumes_is_world_gravity():
    assert combine([], (0, -1.62, 0)) == pytest.approx([0, -1.62, 0])


# -- runtime ------------------------------------------------------------------------------------------


def scene(fields: list[GravityField], triggers: list[Trigger], body_at=(3.0, 0.0, 0.0),
          world: WorldGravity | None = NO_WORLD_GRAVITY, factor: float = 1.0) -> PhysicsScene:
    nodes = [{"name": f"volume{k}"} for k in range(len(fields))] + [{"name": "ball", "translation": list(body_at)}]
    ball = len(fields)
    return PhysicsScene(
        bodies=[Body(ball, Motion(gravity_factor=factor))],
        colliders=[Collider(ball, Sphere(0.1), body=ball)],
        triggers=triggers,
        gravity_fields=fields,
        world_gravity=world,
        document=Document(json={"nodes": nodes}, buffers=[]),
    )


def one_step_velocity(sc: PhysicsScene) -> np.ndarray:
    w = World(sc)
    w.step()
    ball = len(sc.gravity_fields)
    return np.array(w.engine.bodies[w.engine.handle_of[ball]].linvel.to_tuple())


def test_body_in_point_volume_accelerates_towards_centre_by_inverse_square():
    # gravity 4 at unitDistance 2, ball at (3, 0, 4): d = 5, a = 4·(2/5)² = 0.64 along (−3, 0, −4)/5
    sc = scene([GravityField(0, GravityType.POINT, 4.0, unit_distance=2.0)], [Trigger(0, shape=Sphere(10.0))],
               body_at=(3.0, 0.0, 4.0))
    v = one_step_velocity(sc)
    assert v == pytest.approx(np.array([-0.384, 0.0, -0.512]) * DT, rel=1e-5)


def reference_fall(g: float, unit: float, d0: float, seconds: float, n: int = 20000) -> float:
    """d'' = −g·(unit/d)², integrated independently with n tiny steps: the drop after ``seconds``."""
    d, v, h = d0, 0.0, seconds / n
    for _ in range(n):
        v -= g * (unit / d) ** 2 * h
        d += v * h
    return d0 - d


def test_point_volume_fall_matches_inverse_square_over_half_a_second():
    # g = 2 at unitDistance 10, from d = 10 (a = 2 at the start): the ODE's drop, +0.8 % Rapier's discrete
    # bias (t·h/t² with h = 1/240, see test_sim_world); a constant 2 m/s² would give only 0.2521 m
    sc = scene([GravityField(0, GravityType.POINT, 2.0, unit_distance=10.0)], [Trigger(0, shape=Sphere(50.0))],
               body_at=(0.0, 10.0, 0.0))
    w = World(sc)
    w.run(0.5)
    drop = 10.0 - w.pose(1)[0][1]
    expect = reference_fall(2.0, 10.0, 10.0, 0.5) * (1 + (1 / 240) / 0.5)
    assert drop == pytest.approx(expect, rel=2e-3)
    assert drop > 0.2521 + 0.0015  # more than the constant pull (the ODE adds 0.0021)


def test_outside_the_trigger_only_world_gravity_acts():
    sc = scene([GravityField(0, GravityType.POINT, 4.0)], [Trigger(0, shape=Sphere(1.0))],
               body_at=(3.0, 0.0, 0.0), world=WorldGravity(1.0))
    assert one_step_velocity(sc) == pytest.approx([0, -DT, 0], rel=1e-5)


def test_priority_replace_and_stop_at_runtime():
    left = GravityField(0, GravityType.DIRECTIONAL, 3.0, priority=2, direction=(-1, 0, 0))
    down = GravityField(1, GravityType.DIRECTIONAL, 5.0, priority=1, replace=True)
    big = [Trigger(0, shape=Sphere(10.0)), Trigger(1, shape=Sphere(10.0))]
    # replace: the lower-priority volume replaces the higher one's pull; world gravity (1 down) still adds
    sc = scene([left, down], big, world=WorldGravity(1.0))
    assert one_step_velocity(sc) == pytest.approx([0, -6 * DT, 0], rel=1e-5)
    # stop on the high-priority volume: only its pull, no world gravity
    stop = GravityField(0, GravityType.DIRECTIONAL, 3.0, priority=2, stop=True, direction=(-1, 0, 0))
    sc = scene([stop, down], big, world=WorldGravity(1.0))
    assert one_step_velocity(sc) == pytest.approx([-3 * DT, 0, 0], rel=1e-5)
    # neither: both pulls and world gravity add
    plain = GravityField(1, GravityType.DIRECTIONAL, 5.0, priority=1)
    sc = scene([left, plain], big, world=WorldGravity(1.0))
    assert one_step_velocity(sc) == pytest.approx([-3 * DT, -6 * DT, 0], rel=1e-5)


def test_gravity_factor_scales_the_volume_pull():
    sc = scene([GravityField(0, GravityType.DIRECTIONAL, 4.0, stop=True)], [Trigger(0, shape=Sphere(10.0))],
               factor=0.25)
    assert one_step_velocity(sc) == pytest.approx([0, -DT, 0], rel=1e-5)


def test_gravity_factor_set_inside_a_volume_scales_its_pull_zero_included():
    # docs/semantics.md: the volume's pull is scaled by the body's gravityFactor, also one set at run time; 0 must
    # stop the pull (it used to read as "unchanged" because the held gravity_scale is 0 too)
    sc = scene([GravityField(0, GravityType.DIRECTIONAL, 4.0, stop=True)], [Trigger(0, shape=Sphere(10.0))])
    w = World(sc)
    vy = lambda: w.engine.bodies[w.engine.handle_of[1]].linvel.to_tuple()[1]  # noqa: E731
    w.step()
    assert vy() == pytest.approx(-4 * DT, rel=1e-5)
    w.set("/nodes/1/extensions/KHR_physics_rigid_bodies/motion/gravityFactor", 0.0)
    w.step()
    assert vy() == pytest.approx(-4 * DT, rel=1e-5)
    w.set("/nodes/1/extensions/KHR_physics_rigid_bodies/motion/gravityFactor", 0.5)
    w.step()
    assert vy() == pytest.approx(-6 * DT, rel=1e-5)
    assert w.engine.bodies[w.engine.handle_of[1]].gravity_scale == 0.0  # Rapier's own gravity stays off


def test_leaving_a_volume_restores_world_gravity_with_the_factor():
    # a sideways volume (x ≤ 1 only) the ball leaves after its first step (it starts moving at 120 m/s)
    sc = scene([GravityField(0, GravityType.DIRECTIONAL, 6.0, direction=(0, 1, 0))],
               [Trigger(0, shape=Box((2.0, 2.0, 2.0)))], body_at=(0.0, 0.0, 0.0), world=WorldGravity(2.0),
               factor=0.5)
    w = World(sc)
    body = w.engine.bodies[w.engine.handle_of[1]]
    body.linvel = (120.0, 0.0, 0.0)
    w.step()  # inside: (6 up − 2 down)·0.5 = +2
    vy1 = w.engine.bodies[w.engine.handle_of[1]].linvel.to_tuple()[1]
    w.step()  # outside: world 2 down × 0.5 = −1
    b = w.engine.bodies[w.engine.handle_of[1]]
    assert vy1 == pytest.approx(2 * DT, rel=1e-5)
    assert b.linvel.to_tuple()[1] == pytest.approx(DT, rel=1e-4)
    assert b.gravity_scale == 0.5


def test_moon_world_gravity_drop_after_one_second(tmp_path):
    # document-level OMI_physics_gravity 1.62 m/s²: y = y0 − g t²/2 = y0 − 0.81 (discrete: g(t² + t h)/2)
    gltf = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape", "OMI_physics_gravity"],
        "extensions": {"OMI_physics_gravity": {"gravity": 1.62, "direction": [0, -1, 0]},
                       "OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]}},
        "nodes": [{"name": "ball", "translation": [0, 10, 0],
                   "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"},
                                                       "collider": {"shape": 0}}}}],
        "scenes": [{"nodes": [0]}], "scene": 0,
    }
    path = tmp_path / "moon.gltf"
    path.write_text(__import__("json").dumps(gltf))
    w = World(read_scene(load(path)))
    w.run(1.0)
    y = w.pose(0)[0][1]
    assert y == pytest.approx(10 - 1.62 * (1 + 1 / 240) / 2, abs=1e-4)
    assert abs(y - (10 - 0.81)) < 0.004


@pytest.mark.parametrize("rel", [
    "OMI_physics_gravity/gen1/earth_millionth_scale/earth_millionth_scale.gltf",
    "OMI_physics_gravity/gen1/earth_millionth_scale/earth_millionth_scale.glb",
    "OMI_physics_gravity/gen1/ramp/ramp_gravity.gltf",
    "OMI_physics_gravity/gen1/ramp/ramp_gravity.glb",
    "OMI_physics_gravity/gen1/rounded_cube/rounded_cube.gltf",
    "OMI_physics_gravity/gen1/rounded_cube/rounded_cube.glb",
])
def test_gravity_fixtures_simulate_two_seconds(rel):
    w = World(read_scene(load(fixture_path(rel))))
    w.run(2.0)
    _, t, q = w.poses()
    assert w.step_count == 120 and np.isfinite(t).all() and np.isfinite(q).all()


def test_unit_distance_falloff_is_exact_at_twice_the_distance():
    f = field(GravityType.POINT, 1.0, unit_distance=1.0)
    a1 = np.linalg.norm(field_acceleration(f, I4, (0, 1, 0)))
    a2 = np.linalg.norm(field_acceleration(f, I4, (0, 2, 0)))
    assert (a1, a2) == (1.0, 0.25) and math.isclose(a2 / a1, 0.25)


def test_restore_replays_a_body_that_left_its_volume_after_the_snapshot():
    # held by the volume (gravity_scale 0) at the snapshot, out of it two steps later: restored, it is held
    # again with its gravityFactor, as the snapshot saw it, and the run repeats bit for bit
    sc = scene([GravityField(0, GravityType.DIRECTIONAL, 6.0, direction=(0, 1, 0))],
               [Trigger(0, shape=Box((2.0, 2.0, 2.0)))], body_at=(0.0, 0.0, 0.0), world=WorldGravity(2.0),
               factor=0.5)
    w = World(sc)
    w.engine.bodies[w.engine.handle_of[1]].linvel = (30.0, 0.0, 0.0)
    w.step()
    snap = w.snapshot()
    w.run(0.1)
    first = w.poses()[1].tobytes()
    w.restore(snap)
    w.run(0.1)
    assert w.poses()[1].tobytes() == first
