"""Wheeled vehicles at runtime (OMI_vehicle_body / _wheel, docs/semantics.md; Rapier ray-cast vehicle).

The test car: a 1000 kg chassis (box 1.8×0.6×4 m) at y = 0.7, four wheels of radius 0.35 at (±0.8, −0.3,
±1.4) with the spec's default suspension (k = 20000 N/m, c = 2000 N·s/m, travel 0.25 m), rear wheels with
2000 N of propulsion each (4000 N together), front wheels steering up to 0.5 rad, on a flat ground (top y = 0).
Expectations are by hand: static compression m·g/(4k), a = F/m, v²/(2a) braking distances.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from conftest import fixture_path
from gltf_physics.api import load, read_scene
from gltf_physics.cli import app
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.transforms import quat_to_matrix, world_matrices
from gltf_physics.model import Body, Box, Collider, Motion, PhysicsScene, Seat, Vehicle, Wheel
from gltf_physics.sim import SimulationError, World
from gltf_physics.sim.rapier.controllers import controller_of
from gltf_physics.sim.rapier.vehicles import VehicleDriver

G = 9.81
M = 1000.0
K = 20000.0
BODY = "/nodes/0/extensions/OMI_vehicle_body/"


def car(dampeners: bool = True) -> PhysicsScene:
    nodes: list[dict] = [{"name": "car", "translation": [0, 0.7, 0], "children": [1, 2, 3, 4, 6]}]
    for x, z in ((0.8, 1.4), (-0.8, 1.4), (0.8, -1.4), (-0.8, -1.4)):
        nodes.append({"translation": [x, -0.3, z]})
    nodes.append({"name": "ground", "translation": [0, -0.5, 0]})
    nodes.append({"name": "seat", "translation": [0.4, 0.1, 0.2]})
    wheels = [Wheel(1 + k, 0, max_propulsion_force=0.0 if k < 2 else 2000.0,
                    max_steering_angle=0.5 if k < 2 else 0.0, radius=0.35, settings_index=0 if k < 2 else 1,
                    steering_change_rate=-1.0) for k in range(4)]
    return PhysicsScene(
        bodies=[Body(0, Motion(mass=M))],
        colliders=[Collider(0, Box((1.8, 0.6, 4.0)), body=0), Collider(5, Box((400.0, 1.0, 400.0)))],
        vehicles=[Vehicle(0, linear_dampeners=dampeners, pilot_seat=6)], wheels=wheels,
        seats=[Seat(6, back=(0, 0.1, -0.3), foot=(0, -0.3, 0.5), knee=(0, 0.1, 0.3))],
        document=Document(json={"nodes": nodes}, buffers=[]),
    )


def settled(dampeners: bool = True) -> World:
    w = World(car(dampeners))
    w.run(3.0)
    return w


def speed(w: World) -> np.ndarray:
    return np.array(w.engine.bodies[w.engine.handle_of[0]].linvel.to_tuple())


def up(w: World) -> np.ndarray:
    return quat_to_matrix(w.pose(0)[1]) @ np.array([0.0, 1.0, 0.0])


def test_default_suspension_settles_at_static_compression():
    # m·g/(4k) = 9810/80000 = 0.1226 m per wheel; Rapier's damper bias leaves it ~5 % short (module doc)
    w = settled()
    states = controller_of(w.engine, VehicleDriver).wheel_states()
    compressions = [0.25 - s["suspension_length"] for s in states]
    expect = M * G / (4 * K)
    assert all(c == pytest.approx(expect, rel=0.10) for c in compressions)
    assert sum(s["suspension_force"] for s in states) == pytest.approx(M * G, rel=1e-3)
    assert all(s["in_contact"] for s in states)
    # unloaded, the wheel centre is where the file puts it (0.3 under the chassis origin); loaded, it has
    # risen by the compression: chassis origin = radius + 0.3 − compression above the ground
    assert w.pose(0)[0][1] == pytest.approx(0.35 + 0.3 - compressions[0], abs=1e-4)


def test_4000_newtons_for_three_seconds_covers_f_over_m_and_stays_upright():
    # a = 4000/1000 = 4 m/s²: v = 12 m/s and d = a(t² + t·dt)/2 = 18.1 m at most (no rolling resistance here)
    w = settled()
    z0 = w.pose(0)[0][2]
    w.set(BODY + "linearActivation", [0, 0, 1])
    w.run(3.0)
    d = w.pose(0)[0][2] - z0
    assert 0.9 * 18.0 < d <= 18.1 + 1e-3
    assert 0.9 * 12.0 < speed(w)[2] <= 12.0 + 1e-3
    assert up(w)[1] > 0.999 and abs(w.pose(0)[0][0]) < 1e-3


@pytest.mark.parametrize("sign", [1, -1])
def test_positive_steering_curves_left_negative_right(sign):
    # left of a car facing +Z (+Y up) is +X
    w = settled()
    w.set(BODY + "linearActivation", [0, 0, 1])
    w.set(BODY + "angularActivation", [0, sign, 0])
    w.run(2.0)
    x = w.pose(0)[0][0]
    heading = quat_to_matrix(w.pose(0)[1]) @ np.array([0.0, 0.0, 1.0])
    assert sign * x > 2.0 and sign * heading[0] > 0.5
    assert up(w)[1] > 0.99


def test_wheel_settings_pointer_steers_directly():
    w = settled()
    w.set(BODY + "linearActivation", [0, 0, 1])
    w.set("/extensions/OMI_vehicle_wheel/wheels/0/targetSteeringRatio", -1.0)
    w.run(2.0)
    assert w.pose(0)[0][0] < -2.0


def test_dampeners_bring_a_rolling_car_to_rest_and_without_them_it_rolls_on():
    # 10 m/s, rear brakes 2 × 2000 N: a = 4 m/s², stop after v²/(2a) = 12.5 m
    w = settled()
    z0 = w.pose(0)[0][2]
    w.set("/nodes/0/extensions/OMI_physics_body/motion/linearVelocity", [0, 0, 10])
    w.run(5.0)
    assert np.linalg.norm(speed(w)) < 0.1
    assert w.pose(0)[0][2] - z0 == pytest.approx(12.5, rel=0.03)
    w = settled(dampeners=False)
    w.set("/nodes/0/extensions/OMI_physics_body/motion/linearVelocity", [0, 0, 10])
    w.run(2.0)
    assert speed(w)[2] == pytest.approx(10.0, rel=0.01)


def test_max_speed_caps_propulsion():
    w = settled()
    w.set(BODY + "maxSpeed", 5.0)
    w.set(BODY + "linearActivation", [0, 0, 1])
    w.run(4.0)
    assert 4.9 < speed(w)[2] < 5.1


def test_seat_frame_follows_the_car():
    # seat at (0.4, 0.1, 0.2) under the car; forward back→knee = +Z, right = (foot−knee)×(knee−back) = −X
    w = settled()
    f = w.seat_frame(6)
    t = w.pose(0)[0]
    assert f["forward"] == pytest.approx((0, 0, 1), abs=1e-3)
    assert f["right"] == pytest.approx((-1, 0, 0), abs=1e-3)
    assert f["spine"] == pytest.approx((0, 1, 0), abs=1e-3)
    assert f["back"] == pytest.approx((0.4, t[1] + 0.1 + 0.1, 0.2 - 0.3), abs=1e-3)
    with pytest.raises(SimulationError):
        w.seat_frame(0)


def test_restore_takes_back_inputs_set_after_the_snapshot():
    w = settled()
    start = w.pose(0)[0].copy()
    snap = w.snapshot()
    w.set(BODY + "linearActivation", [0, 0, 1])
    w.run(0.5)
    assert w.pose(0)[0][2] - start[2] > 0.1  # driven
    w.restore(snap)
    w.run(0.5)
    assert abs(w.pose(0)[0][2] - start[2]) < 1e-3  # the input went with the restore: it stays put


def test_bad_vehicle_pointer_value_is_a_simulation_error():
    w = World(car())
    with pytest.raises(SimulationError) as e:
        w.set(BODY + "linearActivation", [0, 1])
    assert e.value.pointer == BODY + "linearActivation"


VEHICLE_FIXTURES = [f"OMI_vehicle/{gen}/{part}" for gen in ("gen1-current", "gen2-target") for part in (
    "OMI_vehicle_body/minimal_vehicle_body.gltf", "OMI_vehicle_wheel/simple_car.gltf",
    "OMI_vehicle_thruster/rocket_ship.gltf", "OMI_vehicle_thruster/simple_spaceship.gltf",
    "OMI_vehicle_hover_thruster/hovercraft.gltf")]


@pytest.mark.parametrize("rel", VEHICLE_FIXTURES)
def test_vehicle_fixtures_simulate_two_seconds(rel):
    w = World(read_scene(load(fixture_path(rel))))
    w.run(2.0)
    _, t, q = w.poses()
    assert w.step_count == 120 and np.isfinite(t).all() and np.isfinite(q).all()


def with_ground(rel: str) -> PhysicsScene:
    """The fixture plus a static ground whose top is 2 cm under the lowest wheel (the files have none)."""
    doc = load(fixture_path(rel))
    scene = read_scene(doc)
    mats = world_matrices(doc.json)
    bottom = min(mats[w.node][1, 3] - w.radius for w in scene.wheels)
    nodes = doc.json["nodes"]
    nodes.append({"name": "test ground", "translation": [0, bottom - 0.02 - 0.5, 0]})
    scene.colliders.append(Collider(len(nodes) - 1, Box((200.0, 1.0, 200.0))))
    return scene


@pytest.mark.parametrize("gen", ["gen1-current", "gen2-target"])
def test_simple_car_fixture_drives_forward_under_an_input(gen):
    w = World(with_ground(f"OMI_vehicle/{gen}/OMI_vehicle_wheel/simple_car.gltf"))
    w.run(1.0)
    t0 = w.pose(0)[0]
    w.set(BODY + "linearActivation", [0, 0, 1])
    w.run(2.0)
    moved = w.pose(0)[0] - t0
    # rear wheels 2 × 2000 N on 1000 kg: 4 m/s² for 2 s ⇒ 8 m at most
    assert 4.0 < moved[2] <= 8.1 and abs(moved[0]) < 0.1
    assert up(w)[1] > 0.99


# -- CLI: simulate --inputs -----------------------------------------------------------------------------


def car_file_with_ground(tmp_path: Path) -> Path:
    """simple_car.gltf (its buffer is a data: URI) plus a ground collider 2 cm under the lowest wheel."""
    src = fixture_path("OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf")
    gltf = json.loads(src.read_text(encoding="utf-8"))
    scene = read_scene(load(src))
    mats = world_matrices(gltf)
    bottom = min(mats[w.node][1, 3] - w.radius for w in scene.wheels)
    shapes = gltf["extensions"]["OMI_physics_shape"]["shapes"]
    shapes.append({"type": "box", "box": {"size": [200, 1, 200]}})
    gltf["nodes"].append({"name": "test ground", "translation": [0, bottom - 0.52, 0],
                          "extensions": {"OMI_physics_body": {"collider": {"shape": len(shapes) - 1}}}})
    gltf["scenes"][0]["nodes"].append(len(gltf["nodes"]) - 1)
    path = tmp_path / "car.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


def test_cli_inputs_drive_the_simple_car_from_a_timed_change(tmp_path):
    car_path = car_file_with_ground(tmp_path)
    inputs = tmp_path / "drive.json"
    inputs.write_text(json.dumps([{"time": 1.0, "pointer": BODY + "linearActivation", "value": [0, 0, 1]}]))
    trace = tmp_path / "trace.csv"
    r = CliRunner().invoke(app, ["simulate", str(car_path), "--duration", "3", "--inputs", str(inputs),
                                 "--trace", str(trace)])
    assert r.exit_code == 0, r.output
    rows = [line.split(",") for line in trace.read_text().splitlines()[1:] if line.split(",")[1] == "0"]
    z = {round(float(row[0]), 6): float(row[5]) for row in rows}
    # nothing moves forward before the change at t = 1 s; then at most a·t²/2 + bias = 2·(4 + 2/60) ≈ 8.07 m
    assert abs(z[1.0] - z[0.0]) < 0.02  # settling on its springs only
    assert 4.0 < z[3.0] - z[1.0] <= 8.1


@pytest.mark.parametrize("content, message", [
    ("{not json", "not JSON"),
    ('{"time": 1}', "expected a JSON list"),
    ('[{"time": -1, "pointer": "/nodes/0/extensions/OMI_vehicle_body/maxSpeed", "value": 1}]', "time must be"),
    ('[{"time": 1, "pointer": "/nodes/0/name", "value": 1}]', "not a settable physics property"),
    ('[{"time": 1, "pointer": "/nodes/0/extensions/OMI_vehicle_body/maxSpeed"}]', "exactly the keys"),
])
def test_cli_bad_inputs_file_is_one_line_and_exit_2(tmp_path, content, message):
    inputs = tmp_path / "bad.json"
    inputs.write_text(content)
    src = fixture_path("OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf")
    r = CliRunner().invoke(app, ["simulate", str(src), "--duration", "0.1", "--inputs", str(inputs)])
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines() if r.stderr else r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"--inputs {inputs}") and message in lines[0]
