"""The command line: info and convert on every fixture, and hostile input (exit 2, one line, nothing written)."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, all_fixture_files, fixture_path
from typer.testing import CliRunner

from gltf_physics.cli import app


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gltf_physics", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


def test_info_json_on_the_shipped_example() -> None:
    r = run("info", ROOT / "examples" / "tumbling_boxes.gltf", "--json")
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["generations"] == {"OMI_physics_body": "gen4-materials", "OMI_physics_shape": "gen4-tapered",
                                   "OMI_physics_joint": "gen2-physicsJoints"}
    assert info["counts"]["bodies"] == {"static": 2, "dynamic": 4}
    assert info["counts"]["colliders"] == 5
    assert info["counts"]["triggers"] == 1
    assert info["counts"]["joints"] == 1
    assert info["counts"]["materials"] == 2
    box_a = next(b for b in info["bodies"] if b["name"] == "BoxA")
    # mass 2 kg given; inertia computed from the 0.5 m cube: m·(a²+a²)/12 = 2·0.5/12
    assert box_a["mass"] == 2.0
    assert box_a["inertiaDiagonal"] == pytest.approx([2 * 0.5 / 12] * 3)


@pytest.mark.parametrize("relative", all_fixture_files())
def test_info_and_lossless_convert_on_every_fixture(relative: str, tmp_path: Path) -> None:
    # In-process (CliRunner) to keep the sweep fast; the hostile cases below run the real command.
    src = fixture_path(relative)
    r = CliRunner().invoke(app, ["info", str(src), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["counts"]["nodes"] == len(json.loads(_json_text(src)).get("nodes", []))
    dst = tmp_path / ("out" + src.suffix)
    r = CliRunner().invoke(app, ["convert", str(src), str(dst)])
    assert r.exit_code == 0, r.output
    assert json.dumps(json.loads(_json_text(dst))) == json.dumps(json.loads(_json_text(src)))


def _json_text(path: Path) -> str:
    data = path.read_bytes()
    if path.suffix == ".glb":
        length = int.from_bytes(data[12:16], "little")
        return data[20:20 + length].decode()
    return data.decode()


def _gltf_with_buffer_uri(uri: str) -> dict:
    return {"asset": {"version": "2.0"}, "buffers": [{"uri": uri, "byteLength": 4}]}


HOSTILE = {
    "parent-escape": (_gltf_with_buffer_uri("../outside.bin"), "/buffers/0/uri"),
    "absolute-path": (_gltf_with_buffer_uri("/etc/passwd"), "/buffers/0/uri"),
    "file-scheme": (_gltf_with_buffer_uri("file:///etc/passwd"), "/buffers/0/uri"),
    "percent-escape": (_gltf_with_buffer_uri("%2e%2e/outside.bin"), "/buffers/0/uri"),
    "huge-accessor": ({
        "asset": {"version": "2.0"},
        "buffers": [{"uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(12)).decode(),
                     "byteLength": 12}],
        "bufferViews": [{"buffer": 0, "byteLength": 12}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 10**12, "type": "VEC3"}],
    }, "/accessors/0"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
@pytest.mark.parametrize("command", ["info", "convert"])
def test_hostile_input_is_one_line_exit_2_nothing_written(case: str, command: str, tmp_path: Path) -> None:
    doc, pointer = HOSTILE[case]
    (tmp_path / "outside.bin").write_bytes(bytes(4))
    inner = tmp_path / "asset"
    inner.mkdir()
    src = inner / "bad.gltf"
    src.write_text(json.dumps(doc))
    dst = tmp_path / "out.gltf"
    r = run(command, src, *([dst] if command == "convert" else []))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert pointer in lines[0] and str(src) in lines[0]
    assert "Traceback" not in r.stderr
    assert not dst.exists()


def test_bad_json_names_line_and_column(tmp_path: Path) -> None:
    src = tmp_path / "bad.gltf"
    src.write_text('{"asset": {"version": "2.0"},\n "nodes": [\n')
    r = run("info", src)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "line 3" in r.stderr


def test_truncated_glb_names_byte_offset(tmp_path: Path) -> None:
    data = fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/JointTypes/JointTypes.glb").read_bytes()
    src = tmp_path / "cut.glb"
    src.write_bytes(data[: len(data) // 2])
    dst = tmp_path / "out.glb"
    r = run("convert", src, dst)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "byte" in r.stderr and "Traceback" not in r.stderr
    assert not dst.exists()


def test_convert_rejects_unknown_target(tmp_path: Path) -> None:
    r = run("convert", ROOT / "examples" / "tumbling_boxes.gltf", tmp_path / "x.gltf", "--to", "bullet")
    assert r.returncode == 2
    assert r.stderr.strip() == "--to must be omi or khr, not 'bullet'"
    assert not (tmp_path / "x.gltf").exists()
