"""Node animations (the simulation's --bake): written, saved, reloaded and read back exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import fixture_path
from gltf_helpers import glb_chunks, raw_json
from gltf_physics.gltf import Document, add_node_animation, load, read_accessor, save

TIMES = [0.0, 0.5, 1.0]
T1 = [[0, 0, 0], [0, -1.25, 0], [0, -5, 0]]
R1 = [[0, 0, 0, 1], [0, 0.6, 0, 0.8], [0, 1, 0, 0]]
T3 = [[1, 2, 3], [4, 5, 6], [7, 8, 9.5]]


def _animated(doc: Document) -> int:
    return add_node_animation(doc, "bake", TIMES, {3: (T3, None), 1: (T1, R1)})


def _check_clip(doc: Document, index: int) -> None:
    animation = doc.json["animations"][index]
    assert animation["name"] == "bake"
    # nodes in ascending order, translations first, then rotations
    assert [(c["target"]["node"], c["target"]["path"]) for c in animation["channels"]] == \
        [(1, "translation"), (3, "translation"), (1, "rotation")]
    samplers = animation["samplers"]
    assert {s["interpolation"] for s in samplers} == {"LINEAR"}
    assert len({s["input"] for s in samplers}) == 1  # one shared time accessor
    time_accessor = doc.json["accessors"][samplers[0]["input"]]
    assert (time_accessor["min"], time_accessor["max"]) == ([0.0], [1.0])
    outputs = {(c["target"]["node"], c["target"]["path"]):
               read_accessor(doc, samplers[c["sampler"]]["output"]) for c in animation["channels"]}
    assert read_accessor(doc, samplers[0]["input"]).tolist() == TIMES
    assert outputs[(1, "translation")].tolist() == T1
    assert outputs[(3, "translation")].tolist() == T3
    assert outputs[(1, "rotation")].dtype == np.float32
    # 0.6 and 0.8 are not float32-exact: stored and read back as exactly their float32 values
    assert np.array_equal(outputs[(1, "rotation")], np.array(R1, dtype=np.float32))


def test_animation_on_gltf_fixture_saved_as_data_uri_and_read_back(tmp_path: Path) -> None:
    doc = load(fixture_path("OMI_physics_body/gen4-materials/triggers/triggers.gltf"))  # 13 nodes, 1 buffer
    index = _animated(doc)
    assert len(doc.json["buffers"]) == 2 == len(doc.buffers)
    save(doc, tmp_path / "baked.gltf")
    written = raw_json(tmp_path / "baked.gltf")
    assert written["buffers"][0] == {"byteLength": 3984, "uri": "baked.bin"}  # side files are named after the output
    assert written["buffers"][1]["uri"].startswith("data:application/octet-stream;base64,")
    # 3 times + 2×3 translations + 3 rotations as float32
    assert written["buffers"][1]["byteLength"] == 4 * (3 + 2 * 3 * 3 + 3 * 4)
    _check_clip(load(tmp_path / "baked.gltf"), index)


def test_animation_on_gltf_without_buffers_gets_stem_bin(tmp_path: Path) -> None:
    doc = load(fixture_path("OMI_physics_body/gen4-materials/basic/dynamic_box.gltf"))  # no buffers
    doc.json["nodes"] += [{}, {}]
    _animated(doc)
    save(doc, tmp_path / "baked.gltf")
    assert raw_json(tmp_path / "baked.gltf")["buffers"] == [{"byteLength": 132, "uri": "baked.bin"}]
    _check_clip(load(tmp_path / "baked.gltf"), 0)


def test_animation_on_glb_fixture_round_trips(tmp_path: Path) -> None:
    source = fixture_path("OMI_physics_gravity/gen1/ramp/ramp_gravity.glb")
    doc = load(source)
    index = _animated(doc)
    save(doc, tmp_path / "baked.glb")
    assert glb_chunks(tmp_path / "baked.glb")[1] == glb_chunks(source)[1]  # BIN chunk untouched
    _check_clip(load(tmp_path / "baked.glb"), index)


def test_animation_on_empty_glb_becomes_the_bin_chunk(tmp_path: Path) -> None:
    doc = Document(json={"asset": {"version": "2.0"}, "nodes": [{}, {}, {}, {}]}, is_glb=True)
    _animated(doc)
    save(doc, tmp_path / "anim.glb")
    assert "uri" not in raw_json(tmp_path / "anim.glb")["buffers"][0]
    assert len(glb_chunks(tmp_path / "anim.glb")[1]) == 132
    _check_clip(load(tmp_path / "anim.glb"), 0)


def test_bake_sized_animation_layout() -> None:
    bodies, steps = 1000, 600
    doc = Document(json={"nodes": [{} for _ in range(bodies)]})
    times = np.arange(steps) / 60.0
    positions = np.broadcast_to(np.arange(steps, dtype=float)[:, None], (steps, 3))
    rotations = np.broadcast_to(np.array([0.0, 0.0, 0.0, 1.0]), (steps, 4))
    add_node_animation(doc, "bake", times, {n: (positions, rotations) for n in range(bodies)})
    assert doc.json["buffers"][0]["byteLength"] == steps * 4 + bodies * steps * (12 + 16)
    assert len(doc.json["animations"][0]["channels"]) == 2 * bodies
    last = doc.json["animations"][0]["samplers"][bodies - 1]["output"]  # node 999's translation
    assert doc.json["accessors"][last]["byteOffset"] == 999 * steps * 12
    assert read_accessor(doc, last)[599].tolist() == [599.0, 599.0, 599.0]


@pytest.mark.parametrize(("times", "tracks", "match"), [
    ([0.0, 0.0, 1.0], {0: (T1, None)}, "strictly increasing"),
    ([], {0: (T1, None)}, "non-empty"),
    (TIMES, {}, "at least one track"),
    (TIMES, {9: (T1, None)}, "node 9"),
    (TIMES, {0: (T1[:2], None)}, r"expected \(3, 3\) translation"),
    (TIMES, {0: (None, [[0, 0, 0, float("nan")]] * 3)}, "finite"),
])
def test_bad_arguments(times: list, tracks: dict, match: str) -> None:
    doc = Document(json={"nodes": [{}, {}]})
    with pytest.raises(ValueError, match=match):
        add_node_animation(doc, "x", times, tracks)
    assert doc.json == {"nodes": [{}, {}]}  # nothing added
