"""The first step on Rapier: every dynamic body carries the file's mass before the engine has stepped.

Rapier folds a body's mass properties into it only inside a step, and two things act before the step: the
ray-cast vehicle (OMI_vehicle_wheel) and the explicit joint springs. They used to see a massless chassis or
slider on the first step: a wheel touching something at t = 0 made the chassis non-finite (Rapier's rolling
friction divided 0 by the chassis's zero response), and a spring exerted nothing until the second step.
Expectations are by hand: spring k·x, damper c·v, thrust F/m, free fall g (docs/semantics.md, "Drives").
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gltf_physics.api import load, read_scene
from gltf_physics.cli import app
from gltf_physics.gltf.document import Document
from gltf_physics.model import Body, Collider, Motion, PhysicsScene, Sphere
from gltf_physics.model.joints import DriveMode, DriveType, Joint, JointDrive, JointLimit, Pose
from gltf_physics.sim import World
from gltf_physics.sim.rapier.controllers import controller_of
from gltf_physics.sim.rapier.vehicles import VehicleDriver
from test_sim_vehicles import G, K, M, car

DT = 1 / 60
C = 2000.0  # the spec's default suspension damping, N·s/m
TRAVEL = 0.25  # the spec's default suspension travel, m

# Found by a property test: a valid file whose dynamic vehicle body (1000 kg, no collider of its own) has a
# wheel, a thruster (100 N along +Z under linearActivation z = 1) and a hover thruster, beside a static 1 m
# box (node 1) at the same origin: the wheel's suspension ray starts inside that box.
COLLIDERLESS_VEHICLE = {
    "asset": {"version": "2.0"},
    "extensionsUsed": ["OMI_physics_shape", "OMI_vehicle_wheel", "OMI_vehicle_thruster", "OMI_vehicle_hover_thruster",
                       "OMI_physics_body", "OMI_vehicle_body", "OMI_seat"],
    "nodes": [
        {"children": [2, 3, 4, 5], "extensions": {
            "OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1000}},
            "OMI_vehicle_body": {"pilotSeat": 2, "linearActivation": [0, 0, 1]}}},
        {"extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
        {"extensions": {"OMI_physics_body": {"trigger": {"shape": 0}},
                        "OMI_seat": {"back": [0, 0, -0.3], "foot": [0, -0.5, 0.3], "knee": [0, 0, 0.3]}}},
        {"extensions": {"OMI_vehicle_wheel": {"wheel": 0}}},
        {"extensions": {"OMI_vehicle_thruster": {"thruster": 0}}},
        {"extensions": {"OMI_vehicle_hover_thruster": {"hoverThruster": 0}}},
        {"name": "outside"},
    ],
    "extensions": {
        "OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]},
        "OMI_vehicle_wheel": {"wheels": [{"radius": 0.35, "maxSteeringAngle": 0.5}]},
        "OMI_vehicle_thruster": {"thrusters": [{"maxForce": 100}]},
        "OMI_vehicle_hover_thruster": {"hoverThrusters": [{"maxHoverEnergy": 100}]},
    },
}


def colliderless_vehicle(tmp_path: Path) -> Path:
    path = tmp_path / "vehicle.gltf"
    path.write_text(json.dumps(COLLIDERLESS_VEHICLE), encoding="utf-8")
    return path


def velocity(w: World, node: int = 0) -> np.ndarray:
    return np.array(w.engine.bodies[w.engine.handle_of[node]].linvel.to_tuple())


def test_car_standing_on_its_wheels_at_t0_is_held_from_the_first_step():
    # Chassis origin at 0.65 − x above the ground compresses each of the 4 springs by x = m·g/(4k) = 0.1226 m
    # (the wheel's rest bottom is 0.3 + 0.35 under the origin): their forces sum to m·g at once, so the first
    # step leaves the chassis at rest (a massless chassis would have fallen at g·dt = 0.16 m/s, or gone NaN).
    x = M * G / (4 * K)
    scene = car()
    scene.document.json["nodes"][0]["translation"] = [0, 0.65 - x, 0]
    w = World(scene)
    w.run(DT)
    states = controller_of(w.engine, VehicleDriver).wheel_states()
    assert all(s["in_contact"] for s in states)
    assert sum(s["suspension_force"] for s in states) == pytest.approx(M * G, rel=1e-5)
    assert np.abs(velocity(w)).max() < 1e-4
    w.run(1.0)
    _, t, q = w.poses()
    assert np.isfinite(t).all() and np.isfinite(q).all()


def test_colliderless_vehicle_with_a_wheel_in_a_static_box_follows_its_suspension(tmp_path):
    # The ray starts inside the static box: Rapier's solid ray hits at distance 0, so the wheel reads fully
    # compressed (length 0, compression = travel) while the ray's start is in the box (chassis y ≥ −0.75):
    # force k·travel + c·|v| = 5000 N + damping against 9810 N of weight; below the box the ray finds nothing
    # and the chassis falls freely. Per step: v ← v + dt·(k·travel/m − g − (c/m)·v), then v ← v − g·dt.
    # The thruster pushes 100 N along +Z: v_z = (F/m)·t.
    w = World(read_scene(load(colliderless_vehicle(tmp_path))))
    wheels = controller_of(w.engine, VehicleDriver)
    v, worst, held = 0.0, 0.0, 0
    for n in range(60):
        in_box = w.pose(0)[0][1] + TRAVEL >= -0.5
        w.run(DT)
        if n == 0:
            assert wheels.wheel_states()[0]["in_contact"]
            assert wheels.wheel_states()[0]["suspension_force"] == pytest.approx(K * TRAVEL, rel=1e-6)
        v += DT * (K * TRAVEL / M - G - C / M * v) if in_box else -G * DT
        held += in_box
        worst = max(worst, abs(velocity(w)[1] - v))
    assert 30 < held < 60  # both phases were run
    assert worst < 1e-4
    assert velocity(w)[2] == pytest.approx(100.0 / M * 1.0, abs=1e-5)
    assert velocity(w)[0] == 0.0


def test_cli_simulates_the_colliderless_vehicle(tmp_path):
    r = CliRunner().invoke(app, ["simulate", str(colliderless_vehicle(tmp_path)), "--duration", "0.1"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("simulated 0.1 s of vehicle.gltf (6 steps at 60 Hz): 1 moving body")


def test_colliderless_vehicle_on_mujoco_falls_freely(tmp_path):
    # MJCF has no vehicles, wheels or thrusters (MJCF-8): the 1000 kg body falls as if alone, its drop after
    # t the discrete g·(t² + t·h)/2 of MuJoCo's step h = dt/4.
    w = World(read_scene(load(colliderless_vehicle(tmp_path))), engine="mujoco")
    w.run(0.5)
    t = w.pose(0)[0]
    assert t[1] == pytest.approx(-G * (0.25 + 0.5 * DT / 4) / 2, abs=1e-6)
    assert t[0] == 0.0 and t[2] == 0.0


def test_immovable_chassis_on_its_wheels_stays_put():
    # Infinite mass and inertia (KHR mass 0, inertia 0): nothing can move it, so its wheels do nothing —
    # Rapier's rolling friction would divide by its zero response to an impulse.
    scene = car()
    scene.document.json["nodes"][0]["translation"] = [0, 0.55, 0]
    scene = dataclasses.replace(scene, bodies=[Body(0, Motion(mass=math.inf, inertia_diagonal=(math.inf,) * 3))])
    w = World(scene)
    w.run(0.5)
    assert w.pose(0)[0].tolist() == pytest.approx([0.0, 0.55, 0.0], abs=1e-7)
    assert np.abs(velocity(w)).max() == 0.0


def test_mass_set_through_a_pointer_is_the_engine_body_s_mass_before_the_next_step():
    w = World(car())
    w.set("/nodes/0/extensions/OMI_physics_body/motion/mass", 1500.0)
    assert w.engine.bodies[w.engine.handle_of[0]].mass == pytest.approx(1500.0, rel=1e-6)


def test_impulse_joint_force_drive_pushes_on_the_first_step():
    # A 2 kg ball on an impulse-joint slider along X (gravity is across it), 0.1 m from a force drive's
    # target, k = 50 N/m: the first step's impulse is −k·x·dt, so v_x = −50·0.1/(60·2) = −0.041667 m/s after
    # it (it was 0: the spring was skipped while the ball read massless).
    doc = Document(json={"nodes": [{"translation": [0.1, 0, 0]}]}, buffers=[])
    slider = Joint(None, Pose(), 0, Pose(), limits=(JointLimit(linear_axes=(1, 2), min=0.0, max=0.0),
                                                    JointLimit(angular_axes=(0, 1, 2), min=0.0, max=0.0)),
                   drives=(JointDrive(DriveType.LINEAR, DriveMode.FORCE, 0, position_target=0.0, stiffness=50.0),))
    scene = PhysicsScene(bodies=[Body(0, Motion(mass=2.0))], colliders=[Collider(0, Sphere(0.05), body=0)],
                         joints=[slider], document=doc)
    w = World(scene, articulations=False)
    w.run(DT)
    assert velocity(w)[0] == pytest.approx(-50.0 * 0.1 * DT / 2.0, rel=1e-4)


@pytest.mark.parametrize("mass", [0, -0.0])
def test_a_massless_colliderless_chassis_on_its_wheel_stays_put(tmp_path, mass):
    # An OMI mass of 0 with no collider to weigh: Rapier reads the zero mass and inertia as infinite, so the wheel
    # controller is skipped as for an infinite mass (its rolling friction divided by the zero response: NaN).
    gltf = json.loads(json.dumps(COLLIDERLESS_VEHICLE))
    gltf["nodes"][0]["extensions"]["OMI_physics_body"]["motion"]["mass"] = mass
    path = tmp_path / "massless.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    w = World.from_file(path)
    w.run(0.5)
    assert w.pose(0)[0].tolist() == [0.0, 0.0, 0.0]
