"""OMI_physics_gravity dialect: detection, world gravity, every field type, lenient reading, round trips.

Fixture expectations were read off the JSON by hand. ``ctx.omi_shapes`` is filled by hand with the shapes the
fixture's OMI_physics_shape array declares (the OMI core reader fills it in a full read).
"""

from __future__ import annotations

import copy
import json
import math
import struct
from typing import Any

import pytest

from conftest import fixture_path
from gltf_physics.dialects.common.context import ReadContext, WriteContext
from gltf_physics.dialects.omi_gravity import gravity as omi_gravity
from gltf_physics.gltf.document import Document
from gltf_physics.model import (
    Box,
    GravityField,
    GravityType,
    MeshShape,
    PhysicsScene,
    Plane,
    Shape,
    WorldGravity,
)

EXT = "OMI_physics_gravity"
DOWN = (0.0, -1.0, 0.0)
EARTH = "earth_millionth_scale/earth_millionth_scale"
RAMP = "ramp/ramp_gravity"
CUBE = "rounded_cube/rounded_cube"

# The fixtures' OMI_physics_shape arrays, transcribed by hand.
SHAPES: dict[str, list[Shape | None]] = {
    EARTH: [],  # not needed: no shaped field
    RAMP: [Box((6.0, 4.0, 3.0)), Box((2.0, 7.0, 5.0)), MeshShape(convex=False, mesh=1)],
    CUBE: [Box((6.0, 6.0, 6.0)), Box((1.0, 1.0, 1.0)), MeshShape(convex=True, mesh=0)],
}


def load(asset: str, suffix: str) -> Document:
    path = fixture_path(f"OMI_physics_gravity/gen1/{asset}{suffix}")
    data = path.read_bytes()
    if suffix == ".glb":  # the JSON chunk: 12-byte header, then chunk length and type
        (length,) = struct.unpack_from("<I", data, 12)
        data = data[20:20 + length]
    return Document(json=json.loads(data), path=path, is_glb=suffix == ".glb")


def read(doc: Document, shapes: list[Shape | None] | None = None) -> PhysicsScene:
    ctx = ReadContext.for_document(doc)
    ctx.omi_shapes = list(shapes or [])
    omi_gravity.read(ctx)
    return ctx.scene


def doc_of(gltf: dict[str, Any]) -> Document:
    return Document(json=gltf, buffers=[])


def write(doc: Document, scene: PhysicsScene, family: str) -> WriteContext:
    out = copy.deepcopy(doc.json)
    for holder in [out, *out.get("nodes", [])]:
        for name in (EXT, "OMI_physics_shape"):
            holder.get("extensions", {}).pop(name, None)
    out["extensionsUsed"] = [e for e in out.get("extensionsUsed", []) if e not in (EXT, "OMI_physics_shape")]
    ctx = WriteContext(gltf=out, scene=scene, family=family)
    omi_gravity.write(ctx)
    return ctx


BOTH = pytest.mark.parametrize("suffix", [".gltf", ".glb"])


# ------------------------------------------------------------------------------------------------ fixtures


@BOTH
@pytest.mark.parametrize("asset", [EARTH, RAMP, CUBE])
def test_detect(asset: str, suffix: str) -> None:
    assert omi_gravity.detect(load(asset, suffix).json) == {EXT: "gen1"}


def test_detect_nothing_without_gravity() -> None:
    assert omi_gravity.detect({"extensionsUsed": ["OMI_seat"], "nodes": [{}]}) == {}


@BOTH
def test_earth_world_gravity_zero_and_one_point_field(suffix: str) -> None:
    scene = read(load(EARTH, suffix))
    assert scene.world_gravity == WorldGravity(gravity=0.0, direction=DOWN)
    assert scene.gravity_fields == [GravityField(node=3, type=GravityType.POINT, gravity=9.80665, priority=0,
                                                 replace=False, stop=False, unit_distance=6.37814)]
    assert scene.gravity_fields[0].pointer == "/nodes/3/extensions/OMI_physics_gravity"
    assert scene.notes == []


@BOTH
def test_ramp_shaped_field(suffix: str) -> None:
    scene = read(load(RAMP, suffix), SHAPES[RAMP])
    assert scene.world_gravity is None
    assert scene.gravity_fields == [GravityField(node=0, type=GravityType.SHAPED, gravity=-9.8, stop=True,
                                                 shape=Box((6.0, 4.0, 3.0)))]
    assert scene.notes == []


@BOTH
def test_rounded_cube_shaped_field(suffix: str) -> None:
    scene = read(load(CUBE, suffix), SHAPES[CUBE])
    assert scene.world_gravity is None
    assert scene.gravity_fields == [GravityField(node=1, type=GravityType.SHAPED, gravity=9.80665, stop=True,
                                                 shape=Box((1.0, 1.0, 1.0)))]


def test_shaped_without_omi_shapes_is_noted() -> None:
    scene = read(load(CUBE, ".gltf"), shapes=[])
    assert [f.shape for f in scene.gravity_fields] == [None]
    assert [(n.code, n.pointer) for n in scene.notes] == [
        ("GEN-2", "/nodes/1/extensions/OMI_physics_gravity/shaped/shape")]


# ------------------------------------------------------------------------------------------------ every type

EVERY_TYPE: dict[str, Any] = {
    "extensions": {EXT: {"gravity": 1.62, "direction": [0, 0, -1]}},
    "nodes": [
        {"extensions": {EXT: {"type": "directional", "gravity": 5, "priority": 3, "replace": True,
                              "directional": {"direction": [1, 0, 0]}}}},  # 0
        {"extensions": {EXT: {"type": "point", "gravity": 2}}},  # 1: sub-object missing ⇒ defaults
        {"extensions": {EXT: {"type": "disc", "gravity": 3, "disc": {"radius": 2, "unitDistance": 4}}}},  # 2
        {"extensions": {EXT: {"type": "torus", "gravity": -1, "stop": True, "torus": {}}}},  # 3
        {"extensions": {EXT: {"type": "line", "gravity": 7, "line": {"points": [0, 0, 0, 1, 2, 3]}}}},  # 4
        {"extensions": {EXT: {"type": "line", "gravity": 7, "line": {"points": [0, 0, 0, 1, 2, 3, 9]}}}},  # 5
        {"extensions": {EXT: {"type": "shaped", "gravity": 1, "shaped": {"shape": -1, "unitDistance": 2}}}},
        {"extensions": {EXT: {"type": "shaped", "gravity": 1, "shaped": {"shape": 1}}}},  # 7
        {"extensions": {EXT: {"type": "spiral", "gravity": 1}}},  # 8: unknown type ⇒ skipped
        {"extensions": {EXT: {"type": "point", "point": {}}}},  # 9: no gravity ⇒ skipped
        {"extensions": {EXT: {"type": "point", "gravity": 1, "priority": 2.5, "point": {}}}},  # 10
    ],
}
EVERY_SHAPES: list[Shape | None] = [Box((2.0, 2.0, 2.0)), Box((3.0, 1.0, 3.0))]


def test_every_type_and_lenient_reading() -> None:
    scene = read(doc_of(copy.deepcopy(EVERY_TYPE)), EVERY_SHAPES)
    assert scene.world_gravity == WorldGravity(gravity=1.62, direction=(0.0, 0.0, -1.0))
    t = GravityType
    assert scene.gravity_fields == [
        GravityField(node=0, type=t.DIRECTIONAL, gravity=5.0, priority=3, replace=True,
                     direction=(1.0, 0.0, 0.0)),
        GravityField(node=1, type=t.POINT, gravity=2.0, unit_distance=0.0),
        GravityField(node=2, type=t.DISC, gravity=3.0, radius=2.0, unit_distance=4.0),
        GravityField(node=3, type=t.TORUS, gravity=-1.0, stop=True, radius=1.0),
        GravityField(node=4, type=t.LINE, gravity=7.0, points=((0.0, 0.0, 0.0), (1.0, 2.0, 3.0))),
        GravityField(node=5, type=t.LINE, gravity=7.0, points=((0.0, 0.0, 0.0), (1.0, 2.0, 3.0))),
        GravityField(node=6, type=t.SHAPED, gravity=1.0, shape=None, unit_distance=2.0),
        GravityField(node=7, type=t.SHAPED, gravity=1.0, shape=Box((3.0, 1.0, 3.0))),
        GravityField(node=10, type=t.POINT, gravity=1.0, priority=2.5),  # type: ignore[arg-type]
    ]
    n = "/nodes/{}/extensions/OMI_physics_gravity"
    assert [(note.code, note.pointer) for note in scene.notes] == [
        ("GRAV-7", n.format(1) + "/point"),  # GEN-5 / D-2: defaults
        ("GRAV-4", n.format(5) + "/line/points"),  # 7 numbers: one complete triple dropped
        ("GEN-3", n.format(6) + "/shaped/shape"),  # D-1: -1 ⇒ None
        ("GRAV-2", n.format(8) + "/type"),
        ("GRAV-2", n.format(9) + "/gravity"),
        ("GRAV-6", n.format(10) + "/priority"),
    ]
    counts = {k: sum(f.type is k for f in scene.gravity_fields) for k in t}
    assert counts == {t.DIRECTIONAL: 1, t.POINT: 2, t.DISC: 1, t.TORUS: 1, t.LINE: 2, t.SHAPED: 2}


def test_world_gravity_without_strength_keeps_direction() -> None:
    scene = read(doc_of({"extensions": {EXT: {"direction": [1, 0, 0]}}}))
    assert scene.world_gravity == WorldGravity(gravity=9.81, direction=(1.0, 0.0, 0.0))
    assert [(n.code, n.pointer) for n in scene.notes] == [("GRAV-1", f"/extensions/{EXT}/gravity")]


# ------------------------------------------------------------------------------------------------ writing


def test_write_earth_json() -> None:
    doc = load(EARTH, ".gltf")
    out = write(doc, read(doc), "omi").gltf
    assert out["extensions"][EXT] == {"gravity": 0.0}
    assert out["nodes"][3]["extensions"][EXT] == {"type": "point", "gravity": 9.80665,
                                                   "point": {"unitDistance": 6.37814}}
    assert "OMI_physics_shape" not in out["extensions"]


def test_write_shaped_adds_the_shape() -> None:
    doc = load(CUBE, ".gltf")
    ctx = write(doc, read(doc, SHAPES[CUBE]), "khr")  # gravity stays OMI beside KHR (docs/interop.md)
    out = ctx.gltf
    assert out["extensions"]["OMI_physics_shape"] == {"shapes": [{"type": "box", "box": {}}]}  # size default
    assert out["nodes"][1]["extensions"][EXT] == {"type": "shaped", "gravity": 9.80665, "stop": True,
                                                   "shaped": {"shape": 0}}
    assert {"OMI_physics_gravity", "OMI_physics_shape"} <= set(out["extensionsUsed"])
    assert ctx.losses == []


def test_write_every_type_json() -> None:
    scene = read(doc_of(copy.deepcopy(EVERY_TYPE)), EVERY_SHAPES)
    ctx = write(doc_of(copy.deepcopy(EVERY_TYPE)), scene, "omi")
    nodes = [n.get("extensions", {}).get(EXT) for n in ctx.gltf["nodes"]]
    assert ctx.gltf["extensions"][EXT] == {"gravity": 1.62, "direction": [0.0, 0.0, -1.0]}
    assert nodes[:8] == [
        {"type": "directional", "gravity": 5.0, "priority": 3, "replace": True,
         "directional": {"direction": [1.0, 0.0, 0.0]}},
        {"type": "point", "gravity": 2.0, "point": {}},  # the sub-object is always written (GEN-5)
        {"type": "disc", "gravity": 3.0, "disc": {"radius": 2.0, "unitDistance": 4.0}},
        {"type": "torus", "gravity": -1.0, "stop": True, "torus": {}},
        {"type": "line", "gravity": 7.0, "line": {"points": [0.0, 0.0, 0.0, 1.0, 2.0, 3.0]}},
        {"type": "line", "gravity": 7.0, "line": {"points": [0.0, 0.0, 0.0, 1.0, 2.0, 3.0]}},
        {"type": "shaped", "gravity": 1.0, "shaped": {"unitDistance": 2.0}},  # no -1 placeholder
        {"type": "shaped", "gravity": 1.0, "shaped": {"shape": 0}},
    ]
    assert nodes[8:] == [None, None, {"type": "point", "gravity": 1.0, "priority": 2.5, "point": {}}]
    box = {"type": "box", "box": {"size": [3.0, 1.0, 3.0]}}
    assert ctx.gltf["extensions"]["OMI_physics_shape"] == {"shapes": [box]}
    assert [(loss.code, loss.pointer) for loss in ctx.losses] == [
        ("GRAV-2", "/nodes/6/extensions/OMI_physics_gravity/shaped/shape")]


def test_write_plane_shape_is_a_loss() -> None:
    scene = PhysicsScene(gravity_fields=[GravityField(node=0, type=GravityType.SHAPED, gravity=1.0,
                                                      shape=Plane())])
    ctx = WriteContext(gltf={"nodes": [{}]}, scene=scene, family="omi")
    omi_gravity.write(ctx)
    assert ctx.gltf["nodes"][0]["extensions"][EXT] == {"type": "shaped", "gravity": 1.0, "shaped": {}}
    assert [loss.code for loss in ctx.losses] == ["GRAV-2"]


@pytest.mark.parametrize("family", ["omi", "khr"])
@pytest.mark.parametrize("asset", [EARTH, RAMP, CUBE])
def test_fixture_round_trip(asset: str, family: str) -> None:
    doc = load(asset, ".gltf")
    scene = read(doc, SHAPES[asset])
    out = write(doc, scene, family).gltf
    # The writer wrote only the shaped fields' shapes; give the re-read the same list by hand.
    written = {RAMP: [Box((6.0, 4.0, 3.0))], CUBE: [Box((1.0, 1.0, 1.0))], EARTH: []}[asset]
    again = read(doc_of(out), written)
    assert (again.world_gravity, again.gravity_fields) == (scene.world_gravity, scene.gravity_fields)
    assert again.notes == []


@pytest.mark.parametrize("family", ["omi", "khr"])
def test_every_type_round_trip(family: str) -> None:
    scene = read(doc_of(copy.deepcopy(EVERY_TYPE)), EVERY_SHAPES)
    out = write(doc_of(copy.deepcopy(EVERY_TYPE)), scene, family).gltf
    again = read(doc_of(out), [Box((3.0, 1.0, 3.0))])
    assert again.world_gravity == scene.world_gravity
    assert again.gravity_fields == scene.gravity_fields
    # Only the non-integer priority is noted again; the -1 placeholder and the bad line are gone.
    assert [n.code for n in again.notes] == ["GRAV-6"]
    assert math.isclose(again.world_gravity.vector[2], -1.62)  # type: ignore[union-attr]
