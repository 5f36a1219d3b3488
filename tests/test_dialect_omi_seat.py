"""OMI_seat dialect: detection, exact seat values of every seat fixture, SEAT-1 leniency, round trips."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest

from conftest import fixture_path
from gltf_physics.dialects.common.context import ReadContext, WriteContext
from gltf_physics.dialects.omi_seat import seat as omi_seat
from gltf_physics.gltf.document import Document
from gltf_physics.model import PhysicsScene, Seat

EXT = "OMI_seat"

# Recliner points, read off the JSON by hand; the 2023 files and recliner_chair_full/with_trigger share them.
RECLINER: dict[str, Any] = {"back": (0.0, 0.33, -0.247), "foot": (0.0, -0.17, 0.8), "knee": (0.0, 0.33, 0.3),
                            "angle": 2.0943951}

SEATS: dict[str, list[Seat]] = {
    "gen1/recliner_chair_full.gltf": [Seat(node=0, **RECLINER)],
    "gen1/recliner_chair_with_trigger.gltf": [Seat(node=0, **RECLINER)],
    "gen1/recliner_chair_legs.gltf": [
        Seat(node=0, back=(0.0, 0.33, -0.24), foot=(0.0, -0.17, 0.8), knee=(0.0, 0.33, 0.3),
             angle=math.pi / 2)],
    "gen1/simple_chair_down_x.gltf": [
        Seat(node=0, back=(0.33, 0.24, 0.0), foot=(-0.25, -0.3, 0.0), knee=(0.33, -0.3, 0.0))],
    "gen1/simple_chair_neg_z.gltf": [
        Seat(node=0, back=(0.0, 0.33, 0.24), foot=(0.0, -0.25, -0.3), knee=(0.0, 0.33, -0.3))],
    "gen1/simple_chair_pos_z.gltf": [
        Seat(node=0, back=(0.0, 0.33, -0.24), foot=(0.0, -0.25, 0.3), knee=(0.0, 0.33, 0.3))],
    "gen1/simple_chair_what.gltf": [
        Seat(node=0, back=(0.11, 0.368, -0.139), foot=(-0.032, -0.338, 0.194), knee=(0.344, 0.098, 0.266))],
    "gen1-2023-type-era/recliner_chair_with_body.gltf": [Seat(node=1, **RECLINER)],
    "gen1-2023-type-era/recliner_chair_with_collider.gltf": [Seat(node=1, **RECLINER)],
}

# Seats inside the vehicle fixtures (same in both vehicle generations).
VEHICLE_SEATS = {
    "OMI_vehicle_body/minimal_vehicle_body.gltf": [1],
    "OMI_vehicle_hover_thruster/hovercraft.gltf": [7, 9, 11, 13],
    "OMI_vehicle_thruster/rocket_ship.gltf": [8],
    "OMI_vehicle_thruster/simple_spaceship.gltf": [6],
    "OMI_vehicle_wheel/simple_car.gltf": [3, 4, 5, 6],
}


def load(relative: str) -> Document:
    path = fixture_path(relative)
    return Document(json=json.loads(path.read_text(encoding="utf-8")), path=path)


def read(doc: Document) -> PhysicsScene:
    ctx = ReadContext.for_document(doc)
    omi_seat.read(ctx)
    return ctx.scene


def doc_of(gltf: dict[str, Any]) -> Document:
    return Document(json=gltf, buffers=[])


def write(doc: Document, scene: PhysicsScene, family: str) -> dict[str, Any]:
    out = copy.deepcopy(doc.json)
    for node in out.get("nodes", []):
        node.get("extensions", {}).pop(EXT, None)
    out["extensionsUsed"] = [e for e in out.get("extensionsUsed", []) if e != EXT]
    omi_seat.write(WriteContext(gltf=out, scene=scene, family=family))
    return out


@pytest.mark.parametrize("relative", sorted(SEATS))
def test_seat_fixtures(relative: str) -> None:
    doc = load(f"OMI_seat/{relative}")
    assert omi_seat.detect(doc.json) == {EXT: "gen1"}
    scene = read(doc)
    assert scene.seats == SEATS[relative]
    assert scene.seats[0].pointer == f"/nodes/{SEATS[relative][0].node}/extensions/OMI_seat"
    assert scene.notes == []


@pytest.mark.parametrize("gen", ["gen1-current", "gen2-target"])
@pytest.mark.parametrize("asset", sorted(VEHICLE_SEATS))
def test_seats_in_vehicle_fixtures(asset: str, gen: str) -> None:
    doc = load(f"OMI_vehicle/{gen}/{asset}")
    assert omi_seat.detect(doc.json) == {EXT: "gen1"}
    assert [s.node for s in read(doc).seats] == VEHICLE_SEATS[asset]


def test_simple_car_pilot_seat_values() -> None:
    seats = read(load("OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf")).seats
    assert seats[3] == Seat(node=6, back=(0.0, 0.0, -0.3), foot=(0.0, -0.5, 0.3), knee=(0.0, 0.0, 0.3),
                            angle=math.pi / 2)


def test_detect_nothing_without_seats() -> None:
    assert omi_seat.detect({"nodes": [{}]}) == {}


def test_incomplete_seats_are_noted_and_skipped() -> None:
    gltf = {"nodes": [
        {"extensions": {EXT: {"back": [0, 0, 0], "foot": [0, -1, 1]}}},  # knee missing
        {"extensions": {EXT: {"back": [0, 0, 0], "foot": [0, -1, 1], "knee": [0, 0]}}},  # knee too short
        {"extensions": {EXT: {"back": [0, 0, 0], "foot": [0, -1, 1], "knee": [0, 0, 1], "angle": 1}}},
    ]}
    scene = read(doc_of(gltf))
    assert scene.seats == [Seat(node=2, back=(0.0, 0.0, 0.0), foot=(0.0, -1.0, 1.0), knee=(0.0, 0.0, 1.0),
                                angle=1.0)]
    assert [(n.code, n.pointer) for n in scene.notes] == [
        ("SEAT-1", "/nodes/0/extensions/OMI_seat/knee"), ("SEAT-1", "/nodes/1/extensions/OMI_seat/knee")]


def test_write_json_omits_default_angle() -> None:
    doc = load("OMI_seat/gen1/simple_chair_pos_z.gltf")
    out = write(doc, read(doc), "omi")
    assert out["nodes"][0]["extensions"][EXT] == {"back": [0.0, 0.33, -0.24], "foot": [0.0, -0.25, 0.3],
                                                  "knee": [0.0, 0.33, 0.3]}
    assert out["extensionsUsed"] == [EXT]
    doc = load("OMI_seat/gen1/recliner_chair_full.gltf")
    assert write(doc, read(doc), "khr")["nodes"][0]["extensions"][EXT]["angle"] == 2.0943951


@pytest.mark.parametrize("family", ["omi", "khr"])
@pytest.mark.parametrize("relative", sorted(SEATS))
def test_round_trip(relative: str, family: str) -> None:
    doc = load(f"OMI_seat/{relative}")
    scene = read(doc)
    again = read(doc_of(write(doc, scene, family)))
    assert again.seats == scene.seats
    assert again.notes == []
