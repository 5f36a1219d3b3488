"""No command writes over an input: an output that is an input, a file an input references, or a side file the
save would rewrite is refused in one line (exit 2) before anything is written; `convert --in-place` replaces
the input on purpose. Each test checks the input's bytes and inode afterwards (a write by rename changes it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import ROOT
from gltf_physics.cli import main

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
MOTION = "/nodes/3/extensions/OMI_physics_body/motion"


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """Run `gltf-physics ARGS` in this process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


@pytest.fixture
def scene(tmp_path: Path) -> Path:
    """The example with an external buffer ``scene.bin`` and an image ``wood.png`` beside it."""
    doc = json.loads(EXAMPLE.read_text())
    doc["buffers"] = [{"uri": "scene.bin", "byteLength": 8}]
    doc["images"] = [{"uri": "wood.png"}]
    (tmp_path / "scene.bin").write_bytes(b"12345678")
    (tmp_path / "wood.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    path = tmp_path / "scene.gltf"
    path.write_text(json.dumps(doc))
    return path


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of ``folder`` with its bytes and inode."""
    return {p.name: (p.read_bytes(), p.stat().st_ino) for p in sorted(folder.iterdir()) if p.is_file()}


def refused(capsys: pytest.CaptureFixture[str], folder: Path, message: str, *args: str | Path) -> None:
    """The command exits 2 with exactly ``message`` on stderr, nothing on stdout, and the folder unchanged."""
    before = snapshot(folder)
    assert cli(capsys, *args) == (2, "", message + "\n")
    assert snapshot(folder) == before


def test_convert_onto_its_input_is_refused_unless_in_place(capsys, scene: Path) -> None:
    refused(capsys, scene.parent, f"OUT {scene}: that is the input {scene}; nothing written "
            "(--in-place replaces the input on purpose)", "convert", scene, scene, "--to", "khr")
    code, out, _ = cli(capsys, "convert", scene, scene, "--to", "khr", "--in-place")
    assert (code, out.splitlines()[0]) == (0, f"wrote {scene} (physics in the newest KHR form)")
    assert "KHR_physics_rigid_bodies" in json.loads(scene.read_text())["extensionsUsed"]
    assert (scene.parent / "scene.bin").read_bytes() == b"12345678"  # its buffer, rewritten with the same bytes


def test_convert_report_onto_a_referenced_buffer_is_refused(capsys, scene: Path, tmp_path: Path) -> None:
    bin_file = tmp_path / "scene.bin"
    refused(capsys, tmp_path, f"--report {bin_file}: that is {bin_file}, a file the input {scene} references at "
            "/buffers/0/uri; nothing written", "convert", scene, tmp_path / "out.gltf", "--report", bin_file)


def test_convert_over_an_output_that_shares_the_input_buffer_is_refused(capsys, scene: Path, tmp_path: Path) -> None:
    # copy.gltf (an earlier copy of scene.gltf) references scene.bin: re-saving it rewrites the files it references.
    copy = tmp_path / "copy.gltf"
    copy.write_text(scene.read_text())
    bin_file = tmp_path / "scene.bin"
    refused(capsys, tmp_path, f"OUT {copy}: saving it would rewrite {bin_file}, which is {bin_file}, a file the "
            f"input {scene} references at /buffers/0/uri; nothing written", "convert", scene, copy, "--to", "omi")


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_convert_onto_a_link_to_its_input_is_refused(capsys, scene: Path, tmp_path: Path, link: str) -> None:
    other = tmp_path / "other.gltf"
    if link == "symlink":
        other.symlink_to(scene)
    else:
        os.link(scene, other)
    refused(capsys, tmp_path, f"OUT {other}: that is the input {scene}; nothing written (--in-place replaces the "
            "input on purpose)", "convert", scene, other)


def test_convert_to_mjcf_onto_a_referenced_file_is_refused(capsys, scene: Path, tmp_path: Path) -> None:
    # An image named like an MJCF file: the conversion must not write it.
    doc = json.loads(scene.read_text())
    doc["images"] = [{"uri": "model.xml"}]
    (tmp_path / "model.xml").write_text("<keep/>")
    scene.write_text(json.dumps(doc))
    xml = tmp_path / "model.xml"
    refused(capsys, tmp_path, f"OUT {xml}: that is {xml}, a file the input {scene} references at /images/0/uri; "
            "nothing written", "convert", scene, xml, "--to", "mjcf")


@pytest.mark.parametrize(("option", "name", "pointer"), [
    ("-o", "scene.gltf", None), ("--events", "scene.bin", "/buffers/0/uri"), ("--events", "wood.png", "/images/0/uri"),
])
def test_simulate_outputs_onto_inputs_are_refused(capsys, scene: Path, tmp_path: Path, option: str, name: str,
                                                  pointer: str | None) -> None:
    target = tmp_path / name
    what = f"the input {scene}" if pointer is None else f"{target}, a file the input {scene} references at {pointer}"
    refused(capsys, tmp_path, f"{option} {target}: that is {what}; nothing written",
            "simulate", scene, "--duration", "0.1", option, target)


def test_simulate_events_onto_the_inputs_schedule_is_refused(capsys, scene: Path, tmp_path: Path) -> None:
    schedule = tmp_path / "schedule.json"
    schedule.write_text(json.dumps([{"time": 0.05, "pointer": f"{MOTION}/gravityFactor", "value": 0}]))
    refused(capsys, tmp_path, f"--events {schedule}: that is the input {schedule}; nothing written",
            "simulate", scene, "--duration", "0.1", "--inputs", schedule, "--events", schedule)


def test_view_out_must_be_html_and_never_an_input(capsys, scene: Path, tmp_path: Path) -> None:
    refused(capsys, tmp_path, f"--out {scene}: the page must end in .html", "view", scene, "--out", scene)
    refused(capsys, tmp_path, f"--out {tmp_path / 'page.txt'}: the page must end in .html",
            "view", scene, "--out", tmp_path / "page.txt")
    png = tmp_path / "wood.png"
    refused(capsys, tmp_path, f"--png {png}: that is {png}, a file the input {scene} references at /images/0/uri; "
            "nothing written", "view", scene, "--png", png, "--simulate", "0")
    # A glTF named .html: the default page (IN's name with .html) would be the input itself.
    named_html = tmp_path / "scene.html"
    named_html.write_text(EXAMPLE.read_text())
    refused(capsys, tmp_path, f"page {named_html}: that is the input {named_html}; nothing written",
            "view", named_html, "--simulate", "0")


def test_batch_table_onto_an_asset_is_refused(capsys, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")  # the [scale] extra
    table = tmp_path / "rows.jsonl"
    table.write_text(EXAMPLE.read_text())  # an asset named .jsonl: a named file is taken whatever its suffix
    refused(capsys, tmp_path, f"--out {table}: that is the input {table}; nothing written",
            "batch", "info", table, "--out", table)


def test_batch_convert_onto_another_asset_is_refused(capsys, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")  # the [scale] extra
    (tmp_path / "sub").mkdir()
    top, nested = tmp_path / "a.gltf", tmp_path / "sub" / "a.gltf"
    top.write_text(EXAMPLE.read_text())
    nested.write_text(EXAMPLE.read_text())
    # Outputs mirror the tree below the common folder: tmp/a.gltf → sub/a.gltf, the other asset.
    before = snapshot(tmp_path / "sub")
    refused(capsys, tmp_path, f"--out-dir {nested}: that is the input {nested}; nothing written",
            "batch", "convert", top, nested, "--out-dir", tmp_path / "sub", "--to", "khr")
    assert snapshot(tmp_path / "sub") == before


@pytest.mark.parametrize("option", ["--out", "--trajectories"])
def test_sweep_tables_onto_its_scene_are_refused(capsys, tmp_path: Path, option: str) -> None:
    pytest.importorskip("pyarrow")  # the [scale] extra
    scene = tmp_path / "scene.parquet"  # a glTF under another suffix (read by its content)
    scene.write_text(EXAMPLE.read_text())
    tables = {"--out": tmp_path / "runs.parquet", "--trajectories": tmp_path / "traj.parquet", option: scene}
    refused(capsys, tmp_path, f"{option} {scene}: that is the input {scene}; nothing written",
            "sweep", scene, "--vary", f"{MOTION}/gravityFactor=grid(0,1,2)", "--duration", "0.1",
            *[str(a) for kv in tables.items() for a in kv])


URDF = """<robot name="arm"><link name="base"/><link name="tip"><inertial><mass value="1"/>
<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="hinge" type="revolute"><parent link="base"/><child link="tip"/><axis xyz="0 0 1"/>
<limit lower="-1" upper="1" effort="10" velocity="1"/></joint></robot>"""


def test_convert_of_a_robot_onto_its_own_urdf_is_refused(capsys, tmp_path: Path) -> None:
    robot = tmp_path / "arm.urdf"
    robot.write_text(URDF)
    refused(capsys, tmp_path, f"OUT {robot}: that is the input {robot}; nothing written "
            "(--in-place replaces the input on purpose)", "convert", robot, robot, "--to", "khr")
