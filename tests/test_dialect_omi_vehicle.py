"""OMI_vehicle_* dialect: generation detection, reading both generations, writing gen2 (docs/interop.md).

Expectations are read off the fixture JSON by hand (node indices, settings values) and written as literals.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from conftest import fixture_path
from gltf_physics.dialects.common.context import ReadContext, WriteContext
from gltf_physics.dialects.omi_vehicle import vehicle as omi_vehicle
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.errors import GltfError
from gltf_physics.model import HoverThruster, PhysicsScene, Thruster, Vehicle, Wheel

G1, G2 = "gen1-current", "gen2-target"
BODY, WHEEL, THR, HOVER = omi_vehicle.EXTENSIONS

MINIMAL = "OMI_vehicle_body/minimal_vehicle_body.gltf"
HOVERCRAFT = "OMI_vehicle_hover_thruster/hovercraft.gltf"
ROCKET = "OMI_vehicle_thruster/rocket_ship.gltf"
SPACESHIP = "OMI_vehicle_thruster/simple_spaceship.gltf"
CAR = "OMI_vehicle_wheel/simple_car.gltf"
ASSETS = (MINIMAL, HOVERCRAFT, ROCKET, SPACESHIP, CAR)


def load(gen: str, asset: str) -> Document:
    path = fixture_path(f"OMI_vehicle/{gen}/{asset}")
    return Document(json=json.loads(path.read_text(encoding="utf-8")), path=path)


def read(doc: Document) -> PhysicsScene:
    ctx = ReadContext.for_document(doc)
    omi_vehicle.read(ctx)
    return ctx.scene


def doc_of(gltf: dict[str, Any]) -> Document:
    return Document(json=gltf, buffers=[])


def write(doc: Document, scene: PhysicsScene, family: str) -> Document:
    """Write into a copy of ``doc`` stripped of the vehicle extensions, as write_scene does."""
    out = copy.deepcopy(doc.json)
    for holder in [out, *out.get("nodes", [])]:
        for name in omi_vehicle.EXTENSIONS:
            holder.get("extensions", {}).pop(name, None)
    out["extensionsUsed"] = [e for e in out.get("extensionsUsed", []) if e not in omi_vehicle.EXTENSIONS]
    omi_vehicle.write(WriteContext(gltf=out, scene=scene, family=family))
    return doc_of(out)


# ------------------------------------------------------------------------------------------------ detection

# Only the gen1 simple car carries a gen1-only key (wheel "maxForce"); the other gen1-current assets use only
# keys spelled alike in both generations, so they read as gen2 by decision (module docstring).
DETECTED = [
    (G1, MINIMAL, {BODY: G2}),
    (G1, HOVERCRAFT, {BODY: G2, HOVER: G2}),
    (G1, ROCKET, {BODY: G2, THR: G2}),
    (G1, SPACESHIP, {BODY: G2, THR: G2}),
    (G1, CAR, {BODY: G1, WHEEL: G1}),
    (G2, MINIMAL, {BODY: G2}),
    (G2, HOVERCRAFT, {BODY: G2, HOVER: G2}),
    (G2, ROCKET, {BODY: G2, THR: G2}),
    (G2, SPACESHIP, {BODY: G2, THR: G2}),
    (G2, CAR, {BODY: G2, WHEEL: G2}),
]


@pytest.mark.parametrize(("gen", "asset", "expected"), DETECTED)
def test_detect_fixture_generation(gen: str, asset: str, expected: dict[str, str]) -> None:
    assert omi_vehicle.detect(load(gen, asset).json) == expected


def test_detect_nothing_without_vehicle_extensions() -> None:
    assert omi_vehicle.detect({"nodes": [{"extensions": {"OMI_seat": {}}}]}) == {}


@pytest.mark.parametrize(("settings", "expected"), [
    ({"currentSteeringRatio": 0.5}, G1),
    ({"maxForce": 10}, G1),
    ({"maxPropulsionForce": 10}, G2),
    ({"steeringChangeRate": 2}, G2),
    ({"maxForce": 10, "steeringChangeRate": 2}, G2),  # mixed: gen2 wins
    ({"radius": 0.3}, G2),  # nothing generation-specific
])
def test_detect_wheel_keys(settings: dict[str, Any], expected: str) -> None:
    gltf = {"extensions": {WHEEL: {"wheels": [settings]}}}
    assert omi_vehicle.detect(gltf) == {WHEEL: expected}


@pytest.mark.parametrize(("name", "settings", "expected"), [
    (THR, {"maxForce": 5, "currentGimbalRatio": [0, 0]}, G1),
    (THR, {"maxForce": 5, "maxGimbal": [0.1, 0.1]}, G1),  # gen1 schema's array form
    (THR, {"maxForce": 5, "forceChangeRate": 3}, G2),
    (THR, {"maxForce": 5}, G2),  # maxForce is a thruster key in both generations
    (HOVER, {"maxHoverEnergy": 5, "currentHoverRatio": 0.2}, G1),
    (HOVER, {"maxHoverEnergy": 5, "currentForceRatio": 0.2}, G1),
    (HOVER, {"maxHoverEnergy": 5, "targetHoverRatio": 0.2}, G2),
])
def test_detect_thruster_keys(name: str, settings: dict[str, Any], expected: str) -> None:
    key = "thrusters" if name == THR else "hoverThrusters"
    assert omi_vehicle.detect({"extensions": {name: {key: [settings]}}}) == {name: expected}


# ------------------------------------------------------------------------------------------------ counts

COUNTS = {  # asset -> (vehicle nodes, wheel nodes, thruster nodes, hover thruster nodes), same in both gens
    MINIMAL: ([0], [], [], []),
    HOVERCRAFT: ([0], [], [], [3, 4, 5, 6]),
    ROCKET: ([0], [], [7], []),
    SPACESHIP: ([0], [], [1, 3, 4, 7, 8, 9, 10, 11], []),
    CAR: ([0], [9, 11, 13, 15], [], []),
}


@pytest.mark.parametrize("gen", [G1, G2])
@pytest.mark.parametrize("asset", ASSETS)
def test_fixture_counts_and_vehicle_links(gen: str, asset: str) -> None:
    scene = read(load(gen, asset))
    vehicles, wheels, thrusters, hovers = COUNTS[asset]
    assert [v.node for v in scene.vehicles] == vehicles
    assert [w.node for w in scene.wheels] == wheels
    assert [t.node for t in scene.thrusters] == thrusters
    assert [h.node for h in scene.hover_thrusters] == hovers
    parts = [*scene.wheels, *scene.thrusters, *scene.hover_thrusters]
    assert [p.vehicle for p in parts] == [0] * len(parts)
    assert scene.notes == []


# ------------------------------------------------------------------------------------------------ values


def car_wheel(node: int, steering_rate: float, **settings: float) -> Wheel:
    """A simple-car wheel with every field spelled out (the spec defaults, checked by hand)."""
    values: dict[str, Any] = {
        "target_propulsion_force_ratio": 0.0, "target_steering_ratio": 0.0, "max_propulsion_force": 0.0,
        "max_steering_angle": 0.0, "physics_material": None, "radius": 0.35, "width": 0.125,
        "suspension_damping_compression": 2000.0, "suspension_damping_rebound": 2000.0,
        "suspension_stiffness": 20000.0, "suspension_travel": 0.25, "braking_force": -1.0,
        "propulsion_force_change_rate": -1.0, "steering_change_rate": steering_rate,
    }
    values.update(settings)
    return Wheel(node=node, vehicle=0, **values)


@pytest.mark.parametrize(("gen", "steering_rate"), [(G1, -1.0), (G2, 1.0)])
def test_simple_car_exact_values(gen: str, steering_rate: float) -> None:
    scene = read(load(gen, CAR))
    rear = {"max_propulsion_force": 2000.0}
    front = {"max_steering_angle": 0.5}
    assert scene.wheels == [car_wheel(9, steering_rate, **rear), car_wheel(11, steering_rate, **rear),
                            car_wheel(13, steering_rate, **front), car_wheel(15, steering_rate, **front)]
    assert [w.settings_index for w in scene.wheels] == [1, 1, 0, 0]
    zero = (0.0, 0.0, 0.0)
    assert scene.vehicles == [Vehicle(node=0, linear_activation=zero, angular_activation=zero,
                                      gyro_torque=zero, max_speed=-1.0, pilot_seat=6, angular_dampeners=True,
                                      linear_dampeners=True, use_throttle=False)]
    assert scene.vehicles[0].pointer == "/nodes/0/extensions/OMI_vehicle_body"


@pytest.mark.parametrize("gen", [G1, G2])
def test_vehicle_body_values(gen: str) -> None:
    minimal = read(load(gen, MINIMAL)).vehicles[0]
    assert (minimal.gyro_torque, minimal.pilot_seat) == ((1000.0, 1000.0, 1000.0), 1)
    rocket = read(load(gen, ROCKET)).vehicles[0]
    assert (rocket.gyro_torque, rocket.pilot_seat) == ((10000.0, 10000.0, 10000.0), 8)
    assert rocket.use_throttle is True
    ship = read(load(gen, SPACESHIP)).vehicles[0]
    assert (ship.gyro_torque, ship.pilot_seat, ship.linear_dampeners) == ((3000.0, 3000.0, 3000.0), 6, True)
    hover = read(load(gen, HOVERCRAFT)).vehicles[0]
    assert (hover.pilot_seat, hover.linear_dampeners, hover.max_speed) == (13, True, -1.0)


@pytest.mark.parametrize("gen", [G1, G2])
def test_spaceship_thruster_values(gen: str) -> None:
    by_node = {t.node: t for t in read(load(gen, SPACESHIP)).thrusters}
    # settings 0 {1000, 0.25} on nodes 1, 9, 10, 11; 1 {2000, 0.2} on 7, 8; 2 {5000, 0.25} on 3, 4
    assert by_node[1] == Thruster(node=1, vehicle=0, max_force=1000.0, target_force_ratio=0.0,
                                  target_gimbal_ratio=(0.0, 0.0), max_gimbal=0.25, gimbal_change_rate=1.0,
                                  force_change_rate=-1.0, linear_gimbal_adjust_ratio=0.0)
    assert (by_node[7].max_force, by_node[7].max_gimbal, by_node[7].settings_index) == (2000.0, 0.2, 1)
    assert (by_node[3].max_force, by_node[3].max_gimbal, by_node[3].settings_index) == (5000.0, 0.25, 2)
    assert sorted(n for n, t in by_node.items() if t.settings_index == 0) == [1, 9, 10, 11]


@pytest.mark.parametrize("gen", [G1, G2])
def test_hovercraft_values(gen: str) -> None:
    hovers = read(load(gen, HOVERCRAFT)).hover_thrusters
    assert hovers[0] == HoverThruster(node=3, vehicle=0, max_hover_energy=30000.0, target_hover_ratio=0.0,
                                      target_gimbal_ratio=(0.0, 0.0), max_gimbal=0.25, gimbal_change_rate=1.0,
                                      hover_energy_change_rate=-1.0, linear_gimbal_adjust_ratio=0.5)
    assert {h.max_hover_energy for h in hovers} == {30000.0}


@pytest.mark.parametrize("asset", ASSETS)
def test_gen1_and_gen2_assets_read_equal(asset: str) -> None:
    """Same values ⇒ same model. The one exception: the gen1 car's wheels steer instantly (gen1 has no
    change rates, so -1) while gen2's default steeringChangeRate is 1.0 rad/s."""
    old, new = read(load(G1, asset)), read(load(G2, asset))
    assert old.vehicles == new.vehicles
    assert (old.thrusters, old.hover_thrusters) == (new.thrusters, new.hover_thrusters)
    if asset == CAR:
        assert {w.steering_change_rate for w in old.wheels} == {-1.0}
        assert {w.steering_change_rate for w in new.wheels} == {1.0}
        old.wheels = [Wheel(**{**vars(w), "steering_change_rate": 1.0}) for w in old.wheels]
    assert old.wheels == new.wheels


# -------------------------------------------------------------------------------------------- gen1 reading

GEN1_DOC: dict[str, Any] = {
    "nodes": [
        {"children": [1]},  # 0: no vehicle
        {"children": [2, 3, 5, 7], "extensions": {BODY: {"linearActivation": [0, 0, 1]}}},  # 1: vehicle
        {"extensions": {WHEEL: {"wheel": 0}}},  # 2
        {"children": [4]},  # 3: plain group
        {"extensions": {THR: {"thruster": 0}}},  # 4: vehicle is 1 through the group
        {"extensions": {HOVER: {"hoverThruster": 0}}},  # 5
        {"extensions": {WHEEL: {"wheel": 1}}},  # 6: a root wheel without a vehicle
        {"children": [8], "extensions": {BODY: {}}},  # 7: a vehicle inside vehicle 1
        {"extensions": {HOVER: {"hoverThruster": 1}}},  # 8: nearest vehicle is 7
    ],
    "extensions": {
        WHEEL: {"wheels": [
            {"currentForceRatio": 0.5, "currentSteeringRatio": -0.25, "maxForce": 300,
             "physicsMaterial": -1},
            {"radius": 0.4, "physicsMaterial": 2},
        ]},
        THR: {"thrusters": [{"maxForce": 800, "currentForceRatio": 0.75, "currentGimbalRatio": [0.1, 0.2],
                             "maxGimbal": [0.3]}]},
        HOVER: {"hoverThrusters": [
            {"maxHoverEnergy": 100, "currentHoverRatio": 0.4, "maxGimbal": [0.2, 0.1]},
            {"maxHoverEnergy": 200, "currentForceRatio": 0.6},
        ]},
    },
}


def test_gen1_names_and_instant_change_rates() -> None:
    scene = read(doc_of(copy.deepcopy(GEN1_DOC)))
    assert omi_vehicle.detect(GEN1_DOC) == {BODY: G1, WHEEL: G1, THR: G1, HOVER: G1}
    assert [v.node for v in scene.vehicles] == [1, 7]
    assert scene.vehicles[0].linear_activation == (0.0, 0.0, 1.0)
    assert scene.wheels == [
        Wheel(node=2, vehicle=1, target_propulsion_force_ratio=0.5, target_steering_ratio=-0.25,
              max_propulsion_force=300.0, physics_material=None, steering_change_rate=-1.0,
              propulsion_force_change_rate=-1.0, braking_force=-1.0),
        Wheel(node=6, vehicle=None, radius=0.4, physics_material=2, steering_change_rate=-1.0),
    ]
    assert scene.thrusters == [Thruster(node=4, vehicle=1, max_force=800.0, target_force_ratio=0.75,
                                        target_gimbal_ratio=(0.1, 0.2), max_gimbal=0.3,
                                        gimbal_change_rate=-1.0, force_change_rate=-1.0,
                                        linear_gimbal_adjust_ratio=0.0)]
    assert scene.hover_thrusters == [
        HoverThruster(node=5, vehicle=1, max_hover_energy=100.0, target_hover_ratio=0.4, max_gimbal=0.2,
                      gimbal_change_rate=-1.0, hover_energy_change_rate=-1.0, linear_gimbal_adjust_ratio=0.5),
        HoverThruster(node=8, vehicle=7, max_hover_energy=200.0, target_hover_ratio=0.6,
                      gimbal_change_rate=-1.0, hover_energy_change_rate=-1.0),
    ]
    assert [(n.code, n.pointer) for n in scene.notes] == [
        ("GEN-3", "/extensions/OMI_vehicle_wheel/wheels/0/physicsMaterial"),  # D-1
        ("D-17", "/extensions/OMI_vehicle_hover_thruster/hoverThrusters/0/maxGimbal"),  # larger angle kept
    ]


def test_gen2_name_wins_over_gen1_name() -> None:
    gltf = {"nodes": [{"extensions": {WHEEL: {"wheel": 0}}}],
            "extensions": {WHEEL: {"wheels": [
                {"maxForce": 1, "maxPropulsionForce": 2, "steeringChangeRate": 3}]}}}
    (wheel,) = read(doc_of(gltf)).wheels
    assert (wheel.max_propulsion_force, wheel.steering_change_rate) == (2.0, 3.0)


def test_pilot_seat_minus_one_is_none_with_note() -> None:
    scene = read(doc_of({"nodes": [{"extensions": {BODY: {"pilotSeat": -1, "linearDampeners": False}}}]}))
    assert scene.vehicles == [Vehicle(node=0, pilot_seat=None, linear_dampeners=False)]
    pointer = "/nodes/0/extensions/OMI_vehicle_body/pilotSeat"
    assert [(n.code, n.pointer) for n in scene.notes] == [("GEN-3", pointer)]


def test_missing_index_is_noted_and_bad_index_raises() -> None:
    settings = {THR: {"thrusters": [{"maxForce": 1}]}}
    scene = read(doc_of({"nodes": [{"extensions": {THR: {}}}], "extensions": settings}))
    assert scene.thrusters == []
    assert [(n.code, n.pointer) for n in scene.notes] == [("GEN-2", "/nodes/0/extensions/" + THR)]
    with pytest.raises(GltfError) as err:
        read(doc_of({"nodes": [{"extensions": {THR: {"thruster": 1}}}], "extensions": settings}))
    assert err.value.pointer == "/nodes/0/extensions/OMI_vehicle_thruster/thruster"


# ------------------------------------------------------------------------------------------------ writing


def test_write_gen1_car_as_gen2_json() -> None:
    doc = load(G1, CAR)
    out = write(doc, read(doc), "omi").json
    assert out["extensions"][WHEEL] == {"wheels": [
        # gen1 was instant: steering's gen2 default (1 rad/s) is not, so -1 is written; the propulsion
        # rate's gen2 default is already -1 (instant): left out.
        {"maxSteeringAngle": 0.5, "radius": 0.35, "steeringChangeRate": -1.0},
        {"maxPropulsionForce": 2000.0, "radius": 0.35, "steeringChangeRate": -1.0},
    ]}
    assert [out["nodes"][n]["extensions"][WHEEL] for n in (9, 11, 13, 15)] == [
        {"wheel": 1}, {"wheel": 1}, {"wheel": 0}, {"wheel": 0}]
    assert out["nodes"][0]["extensions"][BODY] == {"pilotSeat": 6, "linearDampeners": True}
    assert out["extensionsUsed"][-2:] == [BODY, WHEEL]
    assert omi_vehicle.detect(out) == {BODY: G2, WHEEL: G2}


def test_write_gen2_car_omits_gen2_defaults() -> None:
    doc = load(G2, CAR)
    out = write(doc, read(doc), "khr").json  # same OMI form for a KHR target: no counterpart there
    assert out["extensions"][WHEEL]["wheels"][0] == {"maxSteeringAngle": 0.5, "radius": 0.35}


def test_write_thrusters_json() -> None:
    doc = load(G2, HOVERCRAFT)
    out = write(doc, read(doc), "omi").json
    assert out["extensions"][HOVER] == {"hoverThrusters": [
        {"maxHoverEnergy": 30000.0, "maxGimbal": 0.25}]}  # hoverEnergyChangeRate -1 is gen2's default
    doc = load(G1, ROCKET)
    out = write(doc, read(doc), "omi").json
    assert out["extensions"][THR] == {"thrusters": [{"maxForce": 50000.0, "maxGimbal": 0.125}]}
    assert out["nodes"][7]["extensions"][THR] == {"thruster": 0}
    assert out["nodes"][0]["extensions"][BODY] == {"gyroTorque": [10000.0, 10000.0, 10000.0], "pilotSeat": 8,
                                                   "linearDampeners": True, "useThrottle": True}


def test_write_edited_settings_split() -> None:
    """Two wheels that shared settings but now differ get one settings entry each."""
    doc = load(G2, CAR)
    scene = read(doc)
    scene.wheels[1] = Wheel(**{**vars(scene.wheels[1]), "target_propulsion_force_ratio": 0.5})
    out = write(doc, scene, "omi").json
    assert len(out["extensions"][WHEEL]["wheels"]) == 3
    assert [out["nodes"][n]["extensions"][WHEEL]["wheel"] for n in (9, 11, 13, 15)] == [1, 2, 0, 0]
    assert read(doc_of(out)).wheels == scene.wheels


@pytest.mark.parametrize("family", ["omi", "khr"])
@pytest.mark.parametrize("gen", [G1, G2])
@pytest.mark.parametrize("asset", ASSETS)
def test_fixture_write_read_round_trip(asset: str, gen: str, family: str) -> None:
    doc = load(gen, asset)
    scene = read(doc)
    again = read(write(doc, scene, family))
    assert (again.vehicles, again.wheels, again.thrusters, again.hover_thrusters) == (
        scene.vehicles, scene.wheels, scene.thrusters, scene.hover_thrusters)
    assert again.notes == []


@pytest.mark.parametrize("family", ["omi", "khr"])
def test_round_trip_gen1_document_with_every_field(family: str) -> None:
    doc = doc_of(copy.deepcopy(GEN1_DOC))
    scene = read(doc)
    out = write(doc, scene, family)
    text = json.dumps(out.json)
    assert "current" not in text and '"maxGimbal": [' not in text
    again = read(out)
    assert (again.vehicles, again.wheels, again.thrusters, again.hover_thrusters) == (
        scene.vehicles, scene.wheels, scene.thrusters, scene.hover_thrusters)
    assert again.notes == []  # no -1 placeholders written


def test_round_trip_non_default_gen2_values() -> None:
    gltf = {
        "nodes": [{"children": [1, 2], "extensions": {BODY: {
            "angularActivation": [0.1, 0.2, 0.3], "maxSpeed": 40, "angularDampeners": False,
            "linearDampeners": False, "useThrottle": True}}},
            {"extensions": {WHEEL: {"wheel": 0}}}, {"extensions": {HOVER: {"hoverThruster": 0}}}],
        "extensions": {
            WHEEL: {"wheels": [{"brakingForce": 0, "steeringChangeRate": 0.5,
                                "propulsionForceChangeRate": 100, "suspensionTravel": 0.1, "width": 0.3,
                                "physicsMaterial": 0}]},
            HOVER: {"hoverThrusters": [{"maxHoverEnergy": 5, "linearGimbalAdjustRatio": 0,
                                        "gimbalChangeRate": -1, "targetGimbalRatio": [0.5, -0.5]}]},
        },
    }
    scene = read(doc_of(gltf))
    out = write(doc_of(gltf), scene, "omi")
    assert out.json["nodes"][0]["extensions"][BODY] == {
        "angularActivation": [0.1, 0.2, 0.3], "maxSpeed": 40.0, "angularDampeners": False,
        "linearDampeners": False, "useThrottle": True}
    assert out.json["extensions"][WHEEL]["wheels"][0] == {
        "physicsMaterial": 0, "width": 0.3, "suspensionTravel": 0.1, "brakingForce": 0.0,
        "propulsionForceChangeRate": 100.0, "steeringChangeRate": 0.5}
    assert out.json["extensions"][HOVER]["hoverThrusters"][0] == {
        "maxHoverEnergy": 5.0, "targetGimbalRatio": [0.5, -0.5], "gimbalChangeRate": -1.0,
        "linearGimbalAdjustRatio": 0.0}
    again = read(out)
    assert (again.vehicles, again.wheels, again.hover_thrusters) == (
        scene.vehicles, scene.wheels, scene.hover_thrusters)
