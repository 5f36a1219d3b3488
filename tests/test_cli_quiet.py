"""`-q/--quiet` on every command that prints on success (docs/cli.rst), and one error line for a refused run.

What ``-q`` keeps, exactly: ``info`` prints nothing (``--json`` still prints: it was asked for), ``validate`` each
file's verdict line and the total, ``compare`` the verdict line; ``convert``, ``simulate``, ``add``, ``view`` and
``plot`` print nothing. Errors are never silenced: one line on stderr, exit 2. ``simulate`` prints the validator's
odd-run hints only when the run goes ahead: a refused file gets its one error line and nothing before it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from author_meshes import box, document, write
from conftest import ROOT
from gltf_physics.cli import main

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
VERDICT = ("verdict: differ where the listed losses explain it: 2 of 4 bodies past 2 cm / 5° over 2 s, each touched "
           "by a loss (MJCF-2 restitution; MJCF-2 static friction); the farthest: node 3 'Ball' on mujoco is "
           "0.7626 m / 0° from rapier")


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


def test_info_quiet_prints_nothing_and_json_still_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "info", EXAMPLE, "-q") == (0, "", "")
    code, out, err = cli(capsys, "info", EXAMPLE, "--quiet", "--json")
    assert (code, err) == (0, "") and json.loads(out)["counts"]["joints"] == 1
    code, out, err = cli(capsys, "info", EXAMPLE)
    assert code == 0 and "PinJoint" in out  # without -q: the report


def test_validate_quiet_prints_each_verdict_line_and_the_total(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    gltf = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    gltf["nodes"][7]["scale"] = [1e300] * 3
    (tmp_path / "lib").mkdir()
    shutil.copy(EXAMPLE, tmp_path / "lib" / "a.gltf")
    (tmp_path / "lib" / "b.gltf").write_text(json.dumps(gltf), encoding="utf-8")
    lib = tmp_path / "lib"
    assert cli(capsys, "validate", "-q", lib) == (1, f"{lib / 'a.gltf'}: valid (0 errors, 0 warnings, 0 infos, "
                                                     f"0 hints)\n{lib / 'b.gltf'}: invalid (2 errors, 1 warning, 0 "
                                                     "infos, 0 hints)\n2 files: 1 valid, 1 invalid\n", "")
    assert cli(capsys, "validate", "--quiet", EXAMPLE) == (
        0, f"{EXAMPLE}: valid (0 errors, 0 warnings, 0 infos, 0 hints)\n", "")
    code, out, _ = cli(capsys, "validate", lib / "b.gltf")
    assert code == 1 and out.count("\n") == 4  # without -q: the three messages, then the verdict


def test_compare_quiet_prints_the_verdict_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("mujoco")
    assert cli(capsys, "compare", EXAMPLE, "-q") == (0, VERDICT + "\n", "")


def test_commands_that_write_print_nothing_with_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "trace.csv"
    assert cli(capsys, "convert", EXAMPLE, tmp_path / "k.gltf", "--to", "khr", "-q") == (0, "", "")
    assert cli(capsys, "simulate", EXAMPLE, "--duration", "0.5", "--trace", trace, "-q") == (0, "", "")
    assert cli(capsys, "plot", trace, "--out", tmp_path / "p.png", "-q") == (0, "", "")
    assert cli(capsys, "view", EXAMPLE, "--simulate", "0.2", "--out", tmp_path / "v.html", "-q") == (0, "", "")
    model = write(tmp_path / "plain.gltf", document([("Crate", box(1, 1, 1))], [{"name": "Crate", "mesh": 0}]))
    assert cli(capsys, "add", model, tmp_path / "added.gltf", "--collider", "box", "-q") == (0, "", "")
    assert all((tmp_path / f).is_file() for f in ("k.gltf", "trace.csv", "p.png", "v.html", "added.gltf"))


def test_a_refused_run_prints_one_error_line_and_no_hints(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # BoxA scaled by 1e300 draws HINT-START-OVERLAP (it swallows the ground) and cannot be simulated: the hint
    # was printed before the error (three lines on stderr); now the refusal is the only line.
    gltf = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    gltf["nodes"][1]["scale"] = [1e300] * 3
    src = tmp_path / "huge.gltf"
    src.write_text(json.dumps(gltf), encoding="utf-8")
    one = (f"{src}: /extensions/OMI_physics_shape/shapes/1: the collider shape on node 1 cannot be simulated: a "
           "mesh vertex lies beyond 100000 m (scale included)\n")
    assert cli(capsys, "simulate", src) == (2, "", one)
    assert cli(capsys, "view", src, "--out", tmp_path / "v.html") == (2, "", one)
    assert not (tmp_path / "v.html").exists()


def test_a_run_that_goes_ahead_still_says_its_hints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = write(tmp_path / "plain.gltf", document([("Crate", box(1, 1, 1))], [{"name": "Crate", "mesh": 0}]))
    added = tmp_path / "added.gltf"
    assert cli(capsys, "add", model, added, "--collider", "box", "-q")[0] == 0
    code, out, err = cli(capsys, "simulate", added, "--duration", "0.1")
    assert code == 0 and out.startswith("simulated 0.1 s of added.gltf")
    assert err == (f"{added}: hint HINT-NO-GROUND /nodes/0/extensions/KHR_physics_rigid_bodies/motion: dynamic body "
                   "on node 0: the scene has no static or kinematic collider to land on: it falls forever; add "
                   "ground under it\n")
