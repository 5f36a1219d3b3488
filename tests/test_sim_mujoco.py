"""World(engine="mujoco"): analytic scenes run by MuJoCo through our MJCF.

MuJoCo steps h = 1/(4·rate) (formats/mjcf.py STEPS_PER_RATE), the same as Rapier's 4 internal substeps, so a
body falling from rest for N World steps has dropped exactly g·(t² + t·h)/2 (the integrator bias documented
in test_sim_world.py). Limits, contacts and friction are MuJoCo's soft constraints; the tolerances below are
the issue's.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from conftest import all_fixture_files, fixture_path
from gltf_physics.api import load, read_scene
from gltf_physics.model import (
    Body,
    Box,
    Collider,
    DriveMode,
    DriveType,
    JointDrive,
    JointLimit,
    MeshShape,
    Motion,
    MotionType,
    Sphere,
    Trigger,
)
from gltf_physics.sim import SimulationError, World, write_trace
from gltf_physics.sim.trace import trace_text
from mujoco_scenes import G, bar_hinge, falling_sphere, make, pendulum, slope

H = 1 / 240


def twist_z(q: np.ndarray) -> float:
    return 2.0 * math.atan2(q[2], q[3])


def test_free_fall_one_and_two_seconds():
    w = World(make([{"translation": [0, 10, 0]}], [Body(0, Motion())], [Collider(0, Sphere(0.5), body=0)]),
              engine="mujoco")
    w.run(1.0)
    y1 = w.pose(0)[0][1]
    w.run(1.0)
    y2 = w.pose(0)[0][1]
    assert y1 == pytest.approx(10 - G * (1 + H) / 2, abs=1e-5)  # the discrete drop, as on Rapier
    assert (10 - y1) == pytest.approx(G / 2, rel=0.01)  # ±1 % of g t²/2
    assert (10 - y2) == pytest.approx(G * 4 / 2, rel=0.01)


def test_projectile_range_and_apex():
    # v0 = (3, 8) m/s from the origin: apex 8²/2g = 3.262 m at t = 0.815 s, back at y = 0 after 1.631 s
    # → range 3·16/g = 4.893 m. Both within 1 % (the integrator bias g·t·h/2 is 0.5 % of the apex).
    w = World(make([{"translation": [0, 0, 0]}], [Body(0, Motion(linear_velocity=(3.0, 8.0, 0.0)))],
                   [Collider(0, Sphere(0.1), body=0)]), engine="mujoco", record=True)
    w.run(2.0)
    t = w.recording.translations[:, 0].astype(np.float64)
    assert t[:, 1].max() == pytest.approx(64 / (2 * G), rel=0.01)
    k = int(np.argmax((t[1:, 1] < 0) & (np.arange(1, len(t)) > 5))) + 1  # first frame back below y = 0
    x_land = t[k - 1, 0] + (t[k, 0] - t[k - 1, 0]) * t[k - 1, 1] / (t[k - 1, 1] - t[k, 1])
    assert x_land == pytest.approx(3.0 * 16 / G, rel=0.01)
    assert np.abs(t[:, 2]).max() < 1e-9


def test_pendulum_small_angle_period():
    # L = 1 m, 3°: T = 2π·√(L/g) = 2.0061 s; measured between downward zero crossings of x.
    w = World(pendulum(), engine="mujoco", record=True)
    w.run(8.0)
    x = w.recording.translations[:, 0, 0].astype(np.float64)
    cross = [i for i in range(1, len(x)) if x[i - 1] > 0 >= x[i]]
    assert len(cross) >= 3
    period = (cross[-1] - cross[0]) / (len(cross) - 1) / 60
    assert period == pytest.approx(2 * math.pi * math.sqrt(1.0 / G), rel=0.01)


def test_hinge_hard_limit_never_exceeded_by_more_than_one_degree():
    # The horizontal bar falls about its left end into a −30° hard limit and must stay there.
    lim = JointLimit(angular_axes=(2,), min=-math.radians(30), max=math.radians(30))
    w = World(bar_hinge(limit=lim), engine="mujoco", record=True)
    w.run(3.0)
    angles = np.degrees([twist_z(q) for q in w.recording.rotations[:, 0].astype(np.float64)])
    assert angles.min() >= -31.0
    assert angles[-1] == pytest.approx(-30.0, abs=1.0)


@pytest.mark.parametrize("mode", [DriveMode.FORCE, DriveMode.ACCELERATION])
def test_position_drive_reaches_its_target(mode):
    # No gravity; k = 20, c = 4 (force) on a bar of I = 1/3 kg·m² about the hinge: settles at 45° ±1°.
    d = JointDrive(DriveType.ANGULAR, mode, 2, position_target=math.radians(45), stiffness=20.0, damping=4.0)
    w = World(bar_hinge(drive=d), engine="mujoco", gravity=(0.0, 0.0, 0.0))
    w.run(5.0)
    assert math.degrees(twist_z(w.pose(0)[1])) == pytest.approx(45.0, abs=1.0)


def test_drive_target_set_at_run_time():
    d = JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 2, position_target=0.0, stiffness=20.0, damping=4.0)
    scene = bar_hinge(drive=d)
    scene.joints[0] = dataclasses.replace(scene.joints[0], settings_index=0)
    w = World(scene, engine="mujoco", gravity=(0.0, 0.0, 0.0))
    w.set("/extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives/0/positionTarget", -math.radians(20))
    w.run(5.0)
    assert math.degrees(twist_z(w.pose(0)[1])) == pytest.approx(-20.0, abs=1.0)


@pytest.mark.parametrize(("mu", "holds"), [(0.7, True), (0.45, False)])
def test_slope_holds_above_and_slides_below_tan_theta(mu, holds):
    # tan 30° = 0.577. Sliding: s = g(sin θ − μ cos θ)·t²/2 = 2.164 m after 2 s (μ = 0.45).
    w = World(slope(mu), engine="mujoco")
    p0 = w.pose(1)[0]
    w.run(2.0)
    moved = float(np.linalg.norm(w.pose(1)[0] - p0))
    if holds:
        assert moved < 0.005
    else:
        expected = G * (math.sin(math.radians(30)) - mu * math.cos(math.radians(30))) * 4 / 2
        assert moved == pytest.approx(expected, rel=0.05)


def test_box_rests_on_plane_at_half_height():
    scene = make([{"translation": [0, -0.5, 0]}, {"translation": [0, 0.6, 0]}], [Body(1, Motion())],
                 [Collider(0, Box((40.0, 1.0, 40.0))), Collider(1, Box((0.4, 0.4, 0.4)), body=1)])
    w = World(scene, engine="mujoco")
    w.run(2.0)
    assert w.pose(1)[0][1] == pytest.approx(0.2, abs=0.005)


def test_trigger_enter_and_exit_times_match_rapier():
    # A sphere (r 0.25) falls from y = 3 through a 1 × 0.5 × 1 trigger box centred at y = 1.
    def run(engine: str) -> list[dict]:
        scene = make([{"translation": [0, 3, 0]}, {"translation": [0, 1, 0]}], [Body(0, Motion())],
                     [Collider(0, Sphere(0.25), body=0)], triggers=[Trigger(1, Box((1.0, 0.5, 1.0)))])
        w = World(scene, engine=engine)
        w.run(1.0)
        return w.events()

    events = run("mujoco")
    assert [(e["event"], e["trigger"], e["node"]) for e in events] == [("enter", 1, 0), ("exit", 1, 0)]
    # enter when the sphere's bottom reaches y = 1.25: 3 − 0.25 − 1.25 = 1.5 m of fall, t ≈ 0.553 s
    assert events[0]["time"] == pytest.approx(math.sqrt(2 * 1.5 / G), abs=2 / 60)
    assert [e["time"] for e in events] == [e["time"] for e in run("rapier")]


def test_trace_rows_are_every_moving_body_every_step(tmp_path):
    scene = make([{"name": "k", "translation": [0, 0, 0]}, {"name": "d", "translation": [0, 5, 0]},
                  {"name": "s", "translation": [3, 0, 0]}],
                 [Body(0, Motion(type=MotionType.KINEMATIC, linear_velocity=(1.0, 0.0, 0.0))), Body(1, Motion()),
                  Body(2, Motion(type=MotionType.STATIC))],
                 [Collider(0, Sphere(0.1), body=0), Collider(1, Sphere(0.1), body=1), Collider(2, Sphere(0.1), body=2)])
    w = World(scene, engine="mujoco", record=True)
    w.run(0.5)
    text = trace_text(w.recording)
    lines = text.splitlines()
    assert lines[0] == "time,node,name,tx,ty,tz,qx,qy,qz,qw"
    assert len(lines) == 1 + 2 * 31  # kinematic + dynamic, t = 0 and 30 steps; the static body is not traced
    # KHR isKinematic keeps its velocity: 0.5 m along x after 0.5 s
    assert w.pose(0)[0] == pytest.approx([0.5, 0.0, 0.0], abs=1e-9)
    write_trace(w.recording, tmp_path / "t.csv")
    assert (tmp_path / "t.csv").read_text(encoding="utf-8") == text


def test_snapshot_restore_replays_identically():
    w = World(falling_sphere(), engine="mujoco")
    w.run(0.3)
    snap = w.snapshot()
    w.run(1.0)
    first = w.pose(1)
    w.restore(snap)
    w.run(1.0)
    again = w.pose(1)
    assert np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])


def test_gravity_factor_is_gravcomp():
    w = World(make([{"translation": [0, 10, 0]}], [Body(0, Motion(gravity_factor=0.5))],
                   [Collider(0, Sphere(0.5), body=0)]), engine="mujoco")
    w.run(1.0)
    assert 10 - w.pose(0)[0][1] == pytest.approx(0.5 * G * (1 + H) / 2, abs=1e-5)


def test_unknown_engine_and_missing_extra(monkeypatch):
    with pytest.raises(SimulationError, match="unknown engine 'bullet'"):
        World(falling_sphere(), engine="bullet")
    import gltf_physics.sim.mujoco.world as mw

    monkeypatch.setattr(mw, "mujoco", None)
    with pytest.raises(SimulationError) as e:
        World(falling_sphere(), engine="mujoco")
    assert str(e.value) == "MuJoCo is not installed: pip install 'gltf-physics[mujoco]'"


def test_static_triangle_mesh_keeps_its_concave_surface():
    # A sphere (r 0.2) dropped into a 90° V valley (static triangle mesh) settles at its bottom: centre at
    # x = 0, y = r/sin 45° = 0.2828. MuJoCo collides meshes as their convex hull, whose flat top would hold
    # it at y = 1.2: the writer turns a static triangle mesh into one thin prism per triangle.
    points = np.array([[-1, 1, -1], [0, 0, -1], [0, 0, 1], [-1, 1, 1], [1, 1, -1], [1, 1, 1]], dtype=float)
    triangles = np.array([[0, 2, 1], [0, 3, 2], [1, 2, 5], [1, 5, 4]])
    scene = make([{"translation": [0, 0, 0]}, {"translation": [0.05, 1.5, 0]}], [Body(1, Motion())],
                 [Collider(0, MeshShape(convex=False, mesh=0)), Collider(1, Sphere(0.2), body=1)])
    w = World(scene, engine="mujoco", mesh_source=lambda shape: (points, triangles))
    w.run(3.0)
    x, y, _ = w.pose(1)[0]
    assert abs(x) < 0.005 and y == pytest.approx(0.2 / math.sqrt(0.5), abs=0.005)


def test_infinite_mass_does_not_translate_but_may_spin():
    # KHR mass 0 = infinite (D-5): gravity and contacts cannot move it; its initial spin stays.
    scene = make([{"translation": [0, 1, 0]}], [Body(0, Motion(mass=math.inf, angular_velocity=(0.0, 1.0, 0.0)))],
                 [Collider(0, Box((1.0, 1.0, 1.0)), body=0)])
    w = World(scene, engine="mujoco")
    w.run(1.0)
    t, q = w.pose(0)
    assert t == pytest.approx([0.0, 1.0, 0.0], abs=1e-9)
    assert 2 * math.atan2(q[1], q[3]) == pytest.approx(1.0, abs=1e-3)


@pytest.mark.parametrize("rel", all_fixture_files())
def test_every_fixture_runs_on_mujoco_with_rapiers_trace_rows(rel):
    # The trace contract: the same moving bodies (dynamic + kinematic) in the same order on both engines.
    scene = read_scene(load(fixture_path(rel)))
    w = World(scene, engine="mujoco", record=True)
    w.run(0.25)
    assert list(w.recording.nodes) == list(World(scene).nodes)
    assert np.isfinite(w.recording.poses).all() and w.recording.count == 16
