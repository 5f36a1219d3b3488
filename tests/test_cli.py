"""The command line: info and convert on every fixture, and hostile input (exit 2, one line, nothing written)."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import ROOT, all_fixture_files, fixture_path
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
    assert json.dumps(_side_files_blanked(dst)) == json.dumps(_side_files_blanked(src))


def _side_files_blanked(path: Path) -> dict:
    """The JSON with external buffer/image uris blanked: saves name their side files after the output."""
    gltf = json.loads(_json_text(path))
    for key in ("buffers", "images"):
        for item in gltf.get(key, []):
            if not item.get("uri", "data:").startswith("data:"):
                item["uri"] = "<side file>"
    return gltf


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
    assert r.stderr.strip() == "--to bullet: expected omi, khr or mjcf"
    assert not (tmp_path / "x.gltf").exists()


EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"


def test_simulate_example_trace_events_and_final_pose(tmp_path: Path) -> None:
    trace, events, out_file = tmp_path / "t.csv", tmp_path / "e.jsonl", tmp_path / "final.gltf"
    r = run("simulate", EXAMPLE, "--duration", "3", "--trace", trace, "--events", events, "-o", out_file)
    assert r.returncode == 0, r.stderr
    rows = trace.read_text().splitlines()
    assert rows[0] == "time,node,name,tx,ty,tz,qx,qy,qz,qw"
    assert len(rows) == 1 + 181 * 4  # 4 moving bodies, t = 0 and 180 steps at 60 Hz
    first = json.loads(events.read_text().splitlines()[0])
    # The ball (r 0.25, from y 4) reaches the zone's top (y 0.55) after √(2·3.2/9.81) = 0.808 s; Rapier
    # reports a sensor overlap in the step after the one that produced it, so the event is at 49/60 s.
    assert first == {"time": 49 / 60, "event": "enter", "trigger": 8, "node": 3}
    final = json.loads(out_file.read_text())
    # BoxA (0.5 m cube) rests on the ground's top face at y = 0: centre at 0.25.
    assert final["nodes"][1]["translation"][1] == pytest.approx(0.25, abs=2e-3)


def test_simulate_bake_adds_one_clip_with_a_key_per_step(tmp_path: Path) -> None:
    out_file = tmp_path / "baked.glb"
    r = run("simulate", EXAMPLE, "--duration", "1", "-o", out_file, "--bake")
    assert r.returncode == 0, r.stderr
    doc = json.loads(_json_text(out_file))
    (clip,) = doc["animations"]
    assert {c["target"]["path"] for c in clip["channels"]} == {"translation", "rotation"}
    assert len(clip["channels"]) == 8  # translation + rotation for each of 4 bodies
    times = doc["accessors"][clip["samplers"][0]["input"]]
    assert times["count"] == 61 and times["max"] == [pytest.approx(1.0)]


def test_simulate_set_pointer_switches_gravity_off_for_one_body(tmp_path: Path) -> None:
    out_file = tmp_path / "final.gltf"
    r = run("simulate", EXAMPLE, "--duration", "1", "-o", out_file,
            "--set", "/nodes/3/extensions/OMI_physics_body/motion/gravityFactor=0")
    assert r.returncode == 0, r.stderr
    assert json.loads(out_file.read_text())["nodes"][3]["translation"] == [1.5, 4.0, 0.0]


@pytest.mark.parametrize(("args", "message"), [
    (["--bake"], "--bake needs -o OUT"),
    (["--set", "gravityFactor=0"],
     "--set 'gravityFactor=0': expected POINTER=JSON, e.g. /nodes/3/.../gravityFactor=0.5"),
    (["--rate", "0"], "--rate 0: the step rate in Hz must be > 0"),
])
def test_simulate_bad_options_exit_2(args: list[str], message: str) -> None:
    r = run("simulate", EXAMPLE, *args)
    assert r.returncode == 2
    assert r.stderr.strip() == message


def test_info_text_lists_generations_and_counts() -> None:
    r = CliRunner().invoke(app, ["info", str(EXAMPLE)])
    assert r.exit_code == 0, r.output
    lines = [line.rstrip() for line in r.stdout.splitlines()]
    assert lines[1:11] == [
        "  OMI_physics_shape: gen4-tapered",
        "  OMI_physics_body: gen4-materials",
        "  OMI_physics_joint: gen2-physicsJoints",
        "  nodes: 9",
        "  bodies: static 2, dynamic 4",
        "  shapes: box 4, sphere 2",
        "  colliders: 5",
        "  triggers: 1",
        "  joints: 1",
        "  materials: 2",
    ]


def test_simulate_joints_impulse_puts_a_chain_on_impulse_joints(tmp_path: Path) -> None:
    # Joint trees go on Rapier multibodies by default (a hanging 10-link chain's tip within 1 mm of
    # its 5 m rest length, test_sim_articulations); --joints impulse keeps them on impulse joints, which
    # stretch the same chain by more than 1 mm after 2 s
    from gltf_physics.api import save, write_scene
    from gltf_physics.gltf.document import Document
    from gltf_physics.gltf.transforms import quat_to_matrix
    from gltf_physics.model import Body, Box, Collider, Joint, JointLimit, Motion, PhysicsScene, Pose

    half = 0.25
    pin = JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0)
    nodes = [{"name": f"link{i}", "translation": [0.0, -half * (2 * i + 1), 0.0]} for i in range(10)]
    joints = [Joint(None if i == 0 else i - 1, Pose() if i == 0 else Pose((0.0, -half, 0.0)), i,
                    Pose((0.0, half, 0.0)), limits=(pin,)) for i in range(10)]
    bare = Document(json={"asset": {"version": "2.0"}, "nodes": nodes, "scenes": [{"nodes": list(range(10))}]},
                    buffers=[])
    scene = PhysicsScene(bodies=[Body(i, Motion(mass=1.0)) for i in range(10)],
                         colliders=[Collider(i, Box((0.1, 2 * half, 0.1)), body=i) for i in range(10)],
                         joints=joints, document=bare)
    doc, _ = write_scene(scene, bare, "khr")
    chain = tmp_path / "chain.gltf"
    save(doc, chain)
    stretch = {}
    for mode in ("multibody", "impulse"):
        out_file = tmp_path / f"{mode}.gltf"
        r = run("simulate", chain, "--duration", "2", "--joints", mode, "-o", out_file, "-q")
        assert r.returncode == 0, r.stderr
        tip = json.loads(out_file.read_text())["nodes"][9]
        rot = quat_to_matrix(tip.get("rotation", [0.0, 0.0, 0.0, 1.0]))
        end = [t + (rot @ [0.0, -half, 0.0])[k] for k, t in enumerate(tip["translation"])]
        stretch[mode] = abs(sum(v * v for v in end) ** 0.5 - 10 * 2 * half)
    assert stretch["multibody"] < 1e-3 < stretch["impulse"]
    r = run("simulate", chain, "--joints", "impulse", "--engine", "mujoco")
    assert r.returncode == 2
    assert r.stderr == "--joints impulse: only Rapier has impulse joints (MuJoCo's are always reduced coordinates)\n"
