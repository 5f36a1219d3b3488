"""The runtime on Rapier against analytic mechanics (docs/semantics.md, docs/semantics.md).

Integrator bias: Rapier 0.36 runs 4 solver substeps per step (h = dt/4) of symplectic Euler, so a body
falling from rest for N steps has dropped g·(t² + t·h)/2, not g·t²/2: at 60 Hz after 1 s that is
2.04 cm more than the continuous formula (g·t·h/2 = 9.81·1·(1/240)/2 = 0.0204 m). Tests state either the
exact discrete value or the continuous one with a tolerance that covers this bias.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gltf_physics.geometry.hulls import hull_triangles
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.transforms import quat_to_matrix
from gltf_physics.model import (
    Body,
    Box,
    Capsule,
    Collider,
    CollisionFilter,
    CombineMode,
    MeshShape,
    Motion,
    MotionType,
    PhysicsMaterial,
    PhysicsScene,
    Sphere,
    Trigger,
)
from gltf_physics.sim import SimulationError, World
from gltf_physics.sim.trace import trace_text

G = 9.81
H = 1 / 240  # Rapier's internal substep at 60 Hz
OMI = "/nodes/{}/extensions/OMI_physics_body/motion"
KHR_MOTION = "/nodes/{}/extensions/KHR_physics_rigid_bodies/motion/"
GROUND = {"name": "ground", "translation": [0, -0.5, 0]}  # top face at y = 0


def make(nodes, bodies=(), colliders=(), triggers=(), materials=(), filters=()) -> PhysicsScene:
    return PhysicsScene(
        bodies=list(bodies),
        colliders=list(colliders),
        triggers=list(triggers),
        materials=list(materials),
        filters=list(filters),
        document=Document(json={"nodes": nodes}, buffers=[]),
    )


def ground(node: int = 0, material: int | None = None, filt: int | None = None) -> Collider:
    return Collider(node, Box((40.0, 1.0, 40.0)), material=material, filter=filt)


def fall_drop(t: float) -> float:
    """Discrete drop after t seconds from rest at 60 Hz (see the module docstring)."""
    return G * (t * t + t * H) / 2


def up_vector(q: np.ndarray) -> np.ndarray:
    return quat_to_matrix(q) @ np.array([0.0, 1.0, 0.0])


# -- free motion ------------------------------------------------------------------------------------


def test_free_fall_one_second():
    # y = y0 − g t²/2 = 10 − 4.905 = 5.095; discrete: 10 − g(t² + t h)/2 = 5.0745625
    w = World(make([{"translation": [0, 10, 0]}], [Body(0, Motion())], [Collider(0, Sphere(0.5), body=0)]))
    w.run(1.0)
    y = w.pose(0)[0][1]
    assert w.time == 1.0 and w.step_count == 60
    assert y == pytest.approx(10 - fall_drop(1.0), abs=1e-4)
    assert abs(y - (10 - G / 2)) < 0.021  # the continuous formula, off by the 2.04 cm bias


def test_free_fall_within_one_centimetre_with_substeps():
    # 3 substeps per 60 Hz step: bias g·t·(dt/12)/2 = 0.68 cm < 1 cm
    w = World(
        make([{"translation": [0, 10, 0]}], [Body(0, Motion())], [Collider(0, Sphere(0.5), body=0)]),
        substeps=3,
    )
    w.run(1.0)
    assert abs(w.pose(0)[0][1] - (10 - G / 2)) < 0.01


def test_projectile_velocity_in_node_space():
    # node turned 90° about Y: node-space velocity (3, 4, 0) is world (0, 4, −3) (D-9);
    # after 1 s: z = −3, y = 4·1 − g(t² + t h)/2
    q = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))
    w = World(
        make(
            [{"rotation": list(q)}],
            [Body(0, Motion(linear_velocity=(3.0, 4.0, 0.0)))],
            [Collider(0, Sphere(0.5), body=0)],
        )
    )
    w.run(1.0)
    t = w.pose(0)[0]
    assert t == pytest.approx([0.0, 4.0 - fall_drop(1.0), -3.0], abs=1e-4)


@pytest.mark.parametrize(
    ("factor", "expect"), [(0.0, 10.0), (-1.0, 10 + fall_drop(1.0)), (0.5, 10 - fall_drop(1.0) / 2)]
)
def test_gravity_factor(factor, expect):
    # gravityFactor scales gravity: 0 floats, −1 rises by the same drop, 0.5 falls half as far
    w = World(
        make(
            [{"translation": [0, 10, 0]}],
            [Body(0, Motion(gravity_factor=factor))],
            [Collider(0, Sphere(0.5), body=0)],
        )
    )
    w.run(1.0)
    assert w.pose(0)[0][1] == pytest.approx(expect, abs=1e-4)


def test_world_gravity_option():
    # gravity=(0, 0, −2): after 1 s z = −(t² + t h) = −1.0041667
    w = World(make([{}], [Body(0, Motion())], [Collider(0, Sphere(0.5), body=0)]), gravity=(0.0, 0.0, -2.0))
    w.run(1.0)
    assert w.pose(0)[0] == pytest.approx([0, 0, -(1 + H)], abs=1e-5)


def test_spin_angle_from_angular_velocity():
    # ω = π rad/s about Y for 1 s ⇒ a half turn: q = ±(0, 1, 0, 0)
    w = World(
        make(
            [{}], [Body(0, Motion(angular_velocity=(0.0, math.pi, 0.0)))], [Collider(0, Sphere(0.5), body=0)]
        ),
        gravity=(0.0, 0.0, 0.0),
    )
    w.run(1.0)
    assert abs(w.pose(0)[1][1]) == pytest.approx(1.0, abs=1e-5)
    w.run(0.5)  # 3/4 turn: q = ±(0, sin(3π/4), 0, cos(3π/4))
    q = w.pose(0)[1] * np.sign(w.pose(0)[1][1])
    assert q == pytest.approx([0, math.sin(3 * math.pi / 4), 0, math.cos(3 * math.pi / 4)], abs=1e-5)


def test_khr_kinematic_keeps_its_velocity_and_omi_kinematic_waits_for_animation():
    # KHR isKinematic: constant velocity (1, 0, 0), no gravity: x = 2 after 2 s. OMI kinematic: moved only by
    # animation/script, so it stays.
    kin = Motion(type=MotionType.KINEMATIC, linear_velocity=(1.0, 0.0, 0.0))
    w = World(
        make(
            [{"translation": [0, 5, 0]}, {"translation": [0, 5, 3]}],
            [Body(0, kin), Body(1, kin, pointer=OMI.format(1))],
            [Collider(0, Box(), body=0), Collider(1, Box(), body=1)],
        )
    )
    w.run(2.0)
    assert w.pose(0)[0] == pytest.approx([2.0, 5.0, 0.0], abs=1e-4)  # float32 time step
    assert w.pose(1)[0] == pytest.approx([0.0, 5.0, 3.0], abs=1e-6)
    nodes, t, _ = w.poses()
    assert nodes.tolist() == [0, 1] and t.shape == (2, 3)


# -- contacts ------------------------------------------------------------------------------------------


def test_box_rests_on_static_box_and_scaled_collider_node():
    # unit box rests with its centre 0.5 above the ground's top face; a child collider node scaled by 2
    # makes a 2 m box: centre 1.0 above the ground, mass 8 m³·1000 = 8000 kg
    nodes = [
        GROUND,
        {"translation": [0, 2, 0]},
        {"translation": [5, 3, 0], "children": [3]},
        {"scale": [2, 2, 2]},
    ]
    s = make(
        nodes,
        [Body(1, Motion()), Body(2, Motion())],
        [ground(), Collider(1, Box(), body=1), Collider(3, Box(), body=2)],
    )
    w = World(s)
    w.run(2.0)
    assert w.pose(1)[0][1] == pytest.approx(0.5, abs=0.005)
    assert w.pose(2)[0][1] == pytest.approx(1.0, abs=0.005)
    assert w.mass_properties(2).mass == pytest.approx(8000.0)
    assert w.engine.hooks is None  # uniform (default) material: no contact hook at all (docs/semantics.md)


def slope_world(theta: float, material: PhysicsMaterial, v0: float = 0.0) -> tuple[World, np.ndarray]:
    """A unit block on a ramp tilted by θ (downhill = the ramp's +X); both use ``material``."""
    q = (0.0, 0.0, math.sin(-theta / 2), math.cos(-theta / 2))
    r = quat_to_matrix(q)
    block = r @ [0.0, 1.0, 0.0]  # one metre along the normal: resting on the 1 m thick ramp
    s = make(
        [{"rotation": list(q)}, {"translation": list(block), "rotation": list(q)}],
        [Body(1, Motion(linear_velocity=(v0, 0.0, 0.0)))],
        [Collider(0, Box((40.0, 1.0, 4.0)), material=0), Collider(1, Box(), body=1, material=0)],
        materials=[material],
    )
    return World(s), r @ [1.0, 0.0, 0.0]


def slide(w: World, downhill: np.ndarray, seconds: float) -> float:
    start = w.pose(1)[0]
    w.run(seconds)
    return float((w.pose(1)[0] - start) @ downhill)


def test_slope_holds_when_friction_exceeds_tan_theta():
    # θ = 30°, tan θ = 0.577 < μ = 0.7: the block stays (creep < 1 mm)
    w, d = slope_world(math.radians(30), PhysicsMaterial(0.7, 0.7))
    assert abs(slide(w, d, 1.0)) < 1e-3


def test_slope_slides_with_predicted_distance():
    # μ = 0.3 < tan 30°: a = g(sin θ − μ cos θ) = 2.3563 m/s², s = a t²/2 = 1.178 m after 1 s (1 %)
    w, d = slope_world(math.radians(30), PhysicsMaterial(0.3, 0.3))
    a = G * (math.sin(math.radians(30)) - 0.3 * math.cos(math.radians(30)))
    assert slide(w, d, 1.0) == pytest.approx(a / 2, rel=0.01)


def test_static_friction_holds_and_dynamic_friction_slides():
    # tan θ = 0.5, static 1.0, dynamic 0.1. At rest: static friction holds. Pushed down-slope at 1 m/s:
    # dynamic friction, s = v0 t + g(sin θ − 0.1 cos θ) t²/2 = 1 + 1.7549 = 2.755 m after 1 s (1 %)
    theta = math.atan(0.5)
    w, d = slope_world(theta, PhysicsMaterial(1.0, 0.1))
    assert abs(slide(w, d, 1.0)) < 1e-3
    assert w.engine.hooks is not None  # static ≠ dynamic needs the hook
    w, d = slope_world(theta, PhysicsMaterial(1.0, 0.1), v0=1.0)
    a = G * (math.sin(theta) - 0.1 * math.cos(theta))
    assert slide(w, d, 1.0) == pytest.approx(1.0 + a / 2, rel=0.01)


def test_pushed_block_on_flat_ground_slides_on_dynamic_friction():
    # v0 = 2 m/s, dynamic 0.1 (static 1.0): stops after v0²/(2 μd g) = 2.039 m (with μs it would be 0.204 m)
    s = make(
        [GROUND, {"translation": [0, 0.5, 0]}],
        [Body(1, Motion(linear_velocity=(2.0, 0.0, 0.0)))],
        [ground(material=0), Collider(1, Box(), body=1, material=0)],
        materials=[PhysicsMaterial(1.0, 0.1)],
    )
    w = World(s)
    w.run(3.0)
    assert w.pose(1)[0][0] == pytest.approx(4 / (2 * 0.1 * G), rel=0.02)


MODES = [None, CombineMode.AVERAGE, CombineMode.MINIMUM, CombineMode.MAXIMUM, CombineMode.MULTIPLY]


def spec_value(a: CombineMode | None, b: CombineMode | None, x: float, y: float) -> float:
    # precedence average > minimum > maximum > multiply; a missing mode does not vote (D-12)
    modes = {a, b}
    if CombineMode.AVERAGE in modes or modes == {None}:
        return (x + y) / 2
    if CombineMode.MINIMUM in modes:
        return min(x, y)
    if CombineMode.MAXIMUM in modes:
        return max(x, y)
    return x * y


def pair_scene(shape, mode_a, mode_b, height: float, v0: float) -> World:
    # ground material: friction 0.2, restitution 0.2; body: 0.8, 0.8
    mats = [PhysicsMaterial(0.2, 0.2, 0.2, mode_a, mode_a), PhysicsMaterial(0.8, 0.8, 0.8, mode_b, mode_b)]
    s = make(
        [GROUND, {"translation": [0, height, 0]}],
        [Body(1, Motion(linear_velocity=(v0, 0.0, 0.0)))],
        [ground(material=0), Collider(1, shape, body=1, material=1)],
        materials=mats,
    )
    return World(s)


@pytest.mark.parametrize("mode_b", MODES, ids=lambda m: getattr(m, "value", "none"))
@pytest.mark.parametrize("mode_a", MODES, ids=lambda m: getattr(m, "value", "none"))
def test_friction_combine_precedence(mode_a, mode_b):
    # a block sliding at 3 m/s decelerates at μ·g: μ = (3 − v(0.25 s)) / (g·0.25)
    w = pair_scene(Box(), mode_a, mode_b, 0.5, 3.0)
    w.run(0.25)
    v = w.engine.bodies[w.engine.handle_of[1]].linvel.x
    assert (3.0 - v) / (G * 0.25) == pytest.approx(spec_value(mode_a, mode_b, 0.2, 0.8), abs=0.005)


@pytest.mark.parametrize("mode_b", MODES, ids=lambda m: getattr(m, "value", "none"))
@pytest.mark.parametrize("mode_a", MODES, ids=lambda m: getattr(m, "value", "none"))
def test_restitution_combine_precedence_and_rebound_height(mode_a, mode_b):
    # a ball dropped from 1 m rebounds to ≈ e²·h (2 cm: the impact is caught within a step and the contact's
    # position correction takes a little energy)
    w = pair_scene(Sphere(0.5), mode_a, mode_b, 1.5, 0.0)
    peak, rising = 0.0, False

    def track(world: World) -> None:
        nonlocal peak, rising
        rising = rising or world.engine.bodies[world.engine.handle_of[1]].linvel.y > 0
        if rising:
            peak = max(peak, world.pose(1)[0][1] - 0.5)

    w.run(1.5, track)
    e = spec_value(mode_a, mode_b, 0.2, 0.8)
    assert peak == pytest.approx(e * e * 1.0, abs=0.02)


def test_uniform_materials_need_no_hook_and_mixed_modes_hook_only_where_needed():
    mats = [
        PhysicsMaterial(0.5, 0.5, 0.3, CombineMode.MINIMUM),
        PhysicsMaterial(0.5, 0.5, 0.3, CombineMode.MINIMUM),
    ]
    s = make(
        [GROUND, {"translation": [0, 0.5, 0]}],
        [Body(1, Motion())],
        [ground(material=0), Collider(1, Box(), body=1, material=1)],
        materials=mats,
    )
    assert World(s).engine.hooks is None
    nodes = [GROUND] + [{"translation": [2.0 * i, 0.5, 0]} for i in range(3)]

    def world(mats: list[PhysicsMaterial]) -> World:
        return World(make(nodes, [Body(i, Motion()) for i in (1, 2, 3)],
                          [ground(material=0)] + [Collider(i, Box(), body=i, material=1) for i in (1, 2, 3)],
                          materials=mats))

    # average vs minimum: Rapier would pick MIN where the specs average, but both classes carried as
    # AVERAGE give every pair exactly (0.2, 0.8 and their mean): no hook (per-class encoding)
    w = world([PhysicsMaterial(0.2, 0.2, 0.0, CombineMode.AVERAGE),
               PhysicsMaterial(0.8, 0.8, 0.0, CombineMode.MINIMUM)])
    assert w.engine.hooks is None
    # minimum vs multiply: the pair must give min(0.9, 0.4) = 0.4 and the boxes' own pair 0.4² = 0.16; no
    # choice of rules and coefficients gives both ⇒ one side (the lone ground) is hooked
    w = world([PhysicsMaterial(0.9, 0.9, 0.0, CombineMode.MINIMUM),
               PhysicsMaterial(0.4, 0.4, 0.0, CombineMode.MULTIPLY)])
    flagged = [not c.active_hooks.is_empty() for _, c in w.engine.colliders]
    assert sorted(flagged) == [False, False, False, True]


# -- filters, triggers ---------------------------------------------------------------------------------


def filter_world(extra_filters: int = 0) -> World:
    # ground: systems {S0}, collideWith {S0}. Block 1: systems {S1} (ground refuses it: doesCollide(B, G)).
    # Block 2: systems {S0}, notCollideWith {S0} (it refuses the ground: doesCollide(G, B) fails).
    # Block 3: systems {S0} (both pass). Block 4: systems {S1}, collideWith {S1} with a ground of
    # systems {S0,S1}, collideWith {S0,S1}: the KHR Filtering.gltf case the literal formula rejects (D-7).
    f = [
        CollisionFilter(("S0",), ("S0",)),
        CollisionFilter(("S1",)),
        CollisionFilter(("S0",), (), ("S0",)),
        CollisionFilter(("S0",)),
        CollisionFilter(("S0", "S1"), ("S0", "S1")),
        CollisionFilter(("S1",), ("S1",)),
    ]
    f += [CollisionFilter((f"X{i}",)) for i in range(extra_filters)]
    nodes = [GROUND, {"translation": [0, -0.5, 60]}] + [{"translation": [3.0 * i, 0.5, 0]} for i in range(3)]
    nodes += [{"translation": [0, 0.5, 60]}]
    cols = [
        ground(0, filt=0),
        ground(1, filt=4),
        Collider(2, Box(), body=2, filter=1),
        Collider(3, Box(), body=3, filter=2),
        Collider(4, Box(), body=4, filter=3),
        Collider(5, Box(), body=5, filter=5),
    ]
    cols += [
        Collider(1, Sphere(0.1), filter=6 + i) for i in range(extra_filters)
    ]  # inside ground 1: classes only
    return World(make(nodes, [Body(n, Motion()) for n in (2, 3, 4, 5)], cols, filters=f))


@pytest.mark.parametrize("extra", [0, 40], ids=["interaction-groups", "pair-filter-hook"])
def test_filters_apply_both_ways(extra):
    w = filter_world(extra)
    w.run(0.5)
    heights = [w.pose(n)[0][1] for n in (2, 3, 4, 5)]
    # falling through: 0.5 − g(t² + t h)/2 = −0.7364 after 0.5 s; resting: 0.5
    assert heights == pytest.approx([0.5 - fall_drop(0.5), 0.5 - fall_drop(0.5), 0.5, 0.5], abs=0.005)
    assert (w.engine.hooks is not None) == (extra > 0)


def trigger_scene(compound: bool = False, trigger_filter: int | None = None) -> PhysicsScene:
    # ball r = 0.5 falls from y = 5 through a static trigger box 2×1×2 centred at y = 2 (top 2.5, bottom 1.5)
    nodes = [
        {"name": "ball", "translation": [0, 5, 0]},
        {"name": "area", "children": [2, 3]},
        {"translation": [0, 2, 0]},
        {"translation": [0, 1, 0]},
    ]
    if compound:  # two stacked parts (1.5..2.5 and 0.5..1.5) of one compound trigger on node 1
        triggers = [
            Trigger(1, nodes=(2, 3)),
            Trigger(2, shape=Box((2, 1, 2))),
            Trigger(3, shape=Box((2, 1, 2))),
        ]
    else:
        triggers = [Trigger(2, shape=Box((2, 1, 2)), filter=trigger_filter)]
    filters = [CollisionFilter(("T",), ("nothing",))]
    return make(nodes, [Body(0, Motion())], [Collider(0, Sphere(0.5), body=0)], triggers, filters=filters)


def test_trigger_enter_and_exit_times():
    # enter: first step whose pose has the ball's bottom below 2.5 (centre below 3, a 2 m drop):
    # g(t² + t h)/2 > 2 ⇒ t > 0.6365 s ⇒ step 39, t = 0.65 s. exit: centre below 1.0 (4 m drop):
    # t > 0.9010 s ⇒ step 55, t = 55/60 s.
    w = World(trigger_scene())
    w.run(1.5)
    assert w.events() == [
        {"time": 39 / 60, "event": "enter", "trigger": 2, "node": 0},
        {"time": 55 / 60, "event": "exit", "trigger": 2, "node": 0},
    ]


def test_compound_trigger_reports_its_own_node_once():
    # enter as above (0.65 s); exit when the top passes 0.5 (centre below 0, a 5 m drop): t > 1.0076 s ⇒ 61/60
    w = World(trigger_scene(compound=True))
    w.run(1.5)
    assert w.events() == [
        {"time": 39 / 60, "event": "enter", "trigger": 1, "node": 0},
        {"time": 61 / 60, "event": "exit", "trigger": 1, "node": 0},
    ]


def test_filtered_trigger_sees_nothing():
    w = World(trigger_scene(trigger_filter=0))
    w.run(1.5)
    assert w.events() == []


def test_static_trigger_sees_kinematic_body_and_reports_static_collider_node():
    # a KHR kinematic box at 1 m/s enters a static trigger at x ∈ [2.02, 4.02] when its face passes 2.02
    # (x > 1.52): first pose beyond: step 92 ⇒ t = 92/60. The static wall inside the trigger (node 3) is
    # reported at once (time 0).
    nodes = [{"translation": [0, 5, 0]}, {"translation": [3.02, 5, 0]}, {}, {"translation": [3, 5.9, 0]}]
    kin = Motion(type=MotionType.KINEMATIC, linear_velocity=(1.0, 0.0, 0.0))
    s = make(
        nodes,
        [Body(0, kin)],
        [Collider(0, Box(), body=0), Collider(3, Box((0.2, 0.2, 0.2)))],
        [Trigger(1, shape=Box((2, 2, 2)))],
    )
    w = World(s)
    w.run(1.6)
    assert w.events() == [
        {"time": 0.0, "event": "enter", "trigger": 1, "node": 3},
        {"time": 92 / 60, "event": "enter", "trigger": 1, "node": 0},
    ]


# -- mass properties at run time -------------------------------------------------------------------------


def tall_box(motion: Motion, tilt_deg: float = 0.0, push: float = 0.0) -> World:
    """A 1×2×1 box standing on end (tilted about Z), pushed along X; friction 1.0 on both sides."""
    q = (0.0, 0.0, math.sin(math.radians(tilt_deg) / 2), math.cos(math.radians(tilt_deg) / 2))
    motion = Motion(**{**motion.__dict__, "linear_velocity": (push, 0.0, 0.0)})
    s = make(
        [GROUND, {"translation": [0, 1.0 if tilt_deg == 0 else 1.15, 0], "rotation": list(q)}],
        [Body(1, motion)],
        [ground(material=0), Collider(1, Box((1.0, 2.0, 1.0)), body=1, material=0)],
        materials=[PhysicsMaterial(1.0, 1.0)],
    )
    return World(s)


def test_infinite_inertia_prevents_tipping():
    # pushed at 4 m/s with μ = 1, the base friction tips the standing box over; with its inertia infinite
    # about X and Z (KHR inertia 0 ⇒ ∞) it slides upright and stops after v²/(2μg) = 0.8155 m
    free = tall_box(Motion(), push=4.0)
    free.run(2.0)
    assert abs(up_vector(free.pose(1)[1])[1]) < 0.2  # lying on its side
    locked = tall_box(Motion(inertia_diagonal=(math.inf, 1.0, math.inf)), push=4.0)
    locked.run(2.0)
    assert up_vector(locked.pose(1)[1])[1] == pytest.approx(1.0, abs=1e-6)
    assert locked.pose(1)[0][0] == pytest.approx(16 / (2 * G), rel=0.02)


def test_bottom_heavy_centre_of_mass_rights_the_box():
    # tilted 40°: the 1×2×1 box tips past atan(0.5/1) = 26.6° and falls; with its centre of mass at
    # y = −0.9 the tipping angle is atan(0.5/0.1) = 78.7°, so it swings back upright
    falls = tall_box(Motion(), tilt_deg=40)
    falls.run(3.0)
    assert abs(up_vector(falls.pose(1)[1])[1]) < 0.2
    rights = tall_box(Motion(center_of_mass=(0.0, -0.9, 0.0)), tilt_deg=40)
    rights.run(3.0)
    assert up_vector(rights.pose(1)[1])[1] > 0.999


def test_infinite_mass_body_ignores_gravity_and_keeps_its_velocity():
    # no force changes an infinite mass's momentum: x = v·t = 1, y stays 5 (KHR mass 0 ⇒ ∞, D-5)
    s = make(
        [{"translation": [0, 5, 0]}],
        [Body(0, Motion(mass=math.inf, linear_velocity=(1.0, 0.0, 0.0)))],
        [Collider(0, Box(), body=0)],
    )
    w = World(s)
    w.run(1.0)
    assert w.pose(0)[0] == pytest.approx([1, 5, 0], abs=1e-4)


def test_compound_body_rests_level():
    # two spheres r = 0.5 at x = ±1 under one body at y = 2: lands with the body origin 0.5 above ground
    nodes = [
        GROUND,
        {"translation": [0, 2, 0], "children": [2, 3]},
        {"translation": [1, 0, 0]},
        {"translation": [-1, 0, 0]},
    ]
    s = make(
        nodes,
        [Body(1, Motion())],
        [ground(), Collider(2, Sphere(0.5), body=1), Collider(3, Sphere(0.5), body=1)],
    )
    w = World(s)
    w.run(2.0)
    t, q = w.pose(1)
    assert t[1] == pytest.approx(0.5, abs=0.005)
    assert up_vector(q)[1] == pytest.approx(1.0, abs=1e-4)
    assert w.mass_properties(1).mass == pytest.approx(2 * 523.5987756)


CUBE = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])


def test_convex_body_on_trimesh_ground():
    # a convex hull of a unit cube's corners rests 0.5 above a two-triangle trimesh floor at y = 0
    floor_v = np.array([[-20, 0, -20], [20, 0, -20], [20, 0, 20], [-20, 0, 20]], dtype=float)
    floor_t = np.array([[0, 2, 1], [0, 3, 2]])
    meshes = {0: (CUBE, hull_triangles(CUBE)), 1: (floor_v, floor_t)}
    s = make(
        [{}, {"translation": [0, 2, 0]}],
        [Body(1, Motion())],
        [Collider(0, MeshShape(convex=False, mesh=1)), Collider(1, MeshShape(convex=True, mesh=0), body=1)],
    )
    w = World(s, mesh_source=lambda shape: meshes[shape.mesh])
    w.run(2.0)
    assert w.pose(1)[0][1] == pytest.approx(0.5, abs=0.005)
    assert w.mass_properties(1).mass == pytest.approx(1000.0)


@pytest.mark.parametrize("top", [0.5, 0.25])
def test_capsule_rests_on_its_mid_height(top):
    # upright capsule, height 1 between the centres, bottom radius 0.5: centre at h/2 + r = 1.0
    s = make(
        [GROUND, {"translation": [0, 1.5, 0]}],
        [Body(1, Motion())],
        [ground(), Collider(1, Capsule(1.0, 0.5, top), body=1)],
    )
    w = World(s)
    w.run(2.0)
    assert w.pose(1)[0][1] == pytest.approx(1.0, abs=0.005)


# -- determinism, snapshots, pointers, failures -----------------------------------------------------------


def pile(threads: int | None = None) -> World:
    nodes = [GROUND] + [
        {
            "name": f"b{i}",
            "translation": [0.3 * (i % 3), 0.6 + 1.1 * i, 0.2 * (i % 2)],
            "rotation": [0.0, math.sin(0.1 * i), 0.0, math.cos(0.1 * i)],
        }
        for i in range(12)
    ]
    s = make(
        nodes,
        [Body(i, Motion()) for i in range(1, 13)],
        [ground()] + [Collider(i, Box(), body=i) for i in range(1, 13)],
    )
    return World(s, record=True, threads=threads)


def test_trace_is_byte_identical_twice_and_whatever_the_thread_count():
    texts = []
    for threads in (None, None, 1, 2):
        w = pile(threads)
        w.run(1.0)
        texts.append(trace_text(w.recording))
    assert texts[0] == texts[1] == texts[2] == texts[3]
    assert texts[0].count("\n") == 1 + 61 * 12


def test_snapshot_restore_replays_exactly():
    w = pile()
    w.run(0.5)
    snap = w.snapshot()
    w.run(0.5)
    first = w.poses()
    w.restore(snap)
    assert w.step_count == 30
    w.run(0.5)
    second = w.poses()
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    assert w.recording.count == 61


def test_set_pointers_velocity_and_gravity_factor():
    s = make(
        [{"translation": [0, 10, 0]}, {"translation": [5, 10, 0]}],
        [Body(0, Motion()), Body(1, Motion(), pointer=OMI.format(1))],
        [Collider(0, Sphere(0.5), body=0), Collider(1, Sphere(0.5), body=1)],
    )
    w = World(s)
    w.set(KHR_MOTION.format(0) + "gravityFactor", 0.0)
    w.set(KHR_MOTION.format(0) + "linearVelocity", [2.0, 0.0, 0.0])
    w.set("/nodes/1/extensions/OMI_physics_body/motion/gravityFactor", 0)
    w.run(1.0)
    assert w.pose(0)[0] == pytest.approx([2.0, 10.0, 0.0], abs=1e-5)
    assert w.pose(1)[0] == pytest.approx([5.0, 10.0, 0.0], abs=1e-6)
    with pytest.raises(SimulationError) as err:
        w.set(KHR_MOTION.format(0) + "isKinematic", True)
    assert err.value.pointer == KHR_MOTION.format(0) + "isKinematic"
    with pytest.raises(SimulationError, match="node 7 is not a body"):
        w.set(KHR_MOTION.format(7) + "linearVelocity", [0, 0, 0])


def test_non_finite_state_names_the_node(monkeypatch):
    s = make(
        [{"translation": [0, 10, 0]}, {"translation": [3, 10, 0]}],
        [Body(0, Motion()), Body(1, Motion())],
        [Collider(0, Sphere(0.5), body=0), Collider(1, Sphere(0.5), body=1)],
    )
    w = World(s)
    with pytest.raises(SimulationError) as refused:  # beyond MAX_SPEED: refused before the engine sees it
        w.set(KHR_MOTION.format(1) + "angularVelocity", [3e38, 3e38, 3e38])
    assert refused.value.node == 1 and "exceeds 1e+10" in str(refused.value)
    monkeypatch.setattr("gltf_physics.geometry.limits.MAX_SPEED", math.inf)  # the net behind it: the state check
    w.set(KHR_MOTION.format(1) + "angularVelocity", [3e38, 3e38, 3e38])
    with pytest.raises(SimulationError) as err:
        w.run(0.1)
    assert err.value.node == 1
