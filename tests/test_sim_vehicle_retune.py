"""A wheel's suspension follows its chassis' mass when the mass is set during a run (World.set of the motion's
mass): Rapier's suspension coefficients are per unit of chassis mass, so the wheels are retuned from the spec's
N/m and N·s/m over the new mass. The test car of test_sim_vehicles (k = 20000 N/m per wheel, four wheels).

Load equilibrium: each wheel carries m·g/4, so its static sag is m·g/(4k): 0.1226 m at 1000 kg, 0.2453 m at
2000 kg (the travel is 0.25 m); Rapier's damper bias leaves it a few % short, as the unchanged car's test says.
"""

from __future__ import annotations

import pytest

from gltf_physics.sim import World
from gltf_physics.sim.rapier.controllers import controller_of
from gltf_physics.sim.rapier.vehicles import VehicleDriver
from test_sim_vehicles import G, K, car

MASS = "/nodes/0/extensions/OMI_physics_body/motion/mass"


def sags(w: World) -> list[float]:
    return [0.25 - s["suspension_length"] for s in controller_of(w.engine, VehicleDriver).wheel_states()]


def test_a_heavier_chassis_sags_as_its_new_mass_asks() -> None:
    w = World(car())
    w.run(3.0)
    before = sags(w)
    w.set(MASS, 1800.0)
    w.run(4.0)
    states = controller_of(w.engine, VehicleDriver).wheel_states()
    assert sum(s["suspension_force"] for s in states) == pytest.approx(1800.0 * G, rel=1e-3)
    # retuned: 1800·g/(4k) = 0.2207 m; not retuned the springs would stiffen with the mass and keep 0.1226 m
    assert all(s == pytest.approx(1800.0 * G / (4 * K), rel=0.10) for s in sags(w))
    assert all(a / b == pytest.approx(1.8, rel=0.05) for a, b in zip(sags(w), before, strict=True))  # 1.84


def test_the_same_mass_set_twice_keeps_the_controllers() -> None:
    w = World(car())
    rays = controller_of(w.engine, VehicleDriver).rays
    w.set(MASS, 1000.0)  # the mass it has: nothing to retune
    w.run(0.1)
    assert controller_of(w.engine, VehicleDriver).rays == rays

