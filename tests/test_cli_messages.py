"""What the commands say: summaries on success, `--quiet`, errors naming the option
and the value, `--version`, `--help` examples and choices, and presentation (static bodies, no camelCase, no
-0, no wrapping when piped). Exact text: a message that changes is a decision, not an accident.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, fixture_path
from gltf_physics import __version__
from gltf_physics.cli import main

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
TRIGGERS = "OMI_physics_body/gen4-materials/triggers/triggers.gltf"
JOINT_TYPES = "KHR_physics_rigid_bodies/gen3-implicit-shapes/JointTypes/JointTypes.glb"
BALL_MASS = "/nodes/3/extensions/OMI_physics_body/motion/mass"


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """Run `gltf-physics ARGS` in this process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    """A glTF with no physics extension at all."""
    path = tmp_path / "plain.gltf"
    path.write_text(json.dumps({"asset": {"version": "2.0"}, "nodes": [{"name": "a"}], "scenes": [{"nodes": [0]}]}))
    return path


# -- item 3: summaries ---------------------------------------------------------------------------------------

def test_simulate_without_outputs_says_what_ran_and_how_to_keep_it(capsys) -> None:
    code, out, err = cli(capsys, "simulate", EXAMPLE, "--duration", "1")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "simulated 1 s of tumbling_boxes.gltf (60 steps at 60 Hz): 4 moving bodies, 1 trigger event",
        "nothing written: add -o OUT.gltf, --trace T.csv or --events E.jsonl to keep the run"]


def test_simulate_lists_what_it_wrote_and_quiet_silences_it(capsys, tmp_path: Path) -> None:
    trace, events = tmp_path / "t.csv", tmp_path / "e.jsonl"
    code, out, _ = cli(capsys, "simulate", EXAMPLE, "--duration", "1", "--trace", trace, "--events", events)
    assert code == 0
    assert out.splitlines()[1] == f"wrote {trace}, {events}"
    code, out, err = cli(capsys, "simulate", EXAMPLE, "--duration", "1", "--quiet")
    assert (code, out, err) == (0, "", "")


def test_no_physics_is_said_by_every_command(capsys, plain: Path, tmp_path: Path) -> None:
    assert cli(capsys, "simulate", plain, "--duration", "1")[1].splitlines() == [
        f"{plain}: no physics extensions found; nothing moves",
        "simulated 1 s of plain.gltf (60 steps at 60 Hz): 0 moving bodies, 0 trigger events",
        "nothing written: add -o OUT.gltf, --trace T.csv or --events E.jsonl to keep the run"]
    dst = tmp_path / "out.gltf"
    assert cli(capsys, "convert", plain, dst, "--to", "khr")[1] == (
        f"{plain}: no physics extensions found; wrote {dst} with the glTF unchanged\n")
    page = tmp_path / "plain.html"
    assert cli(capsys, "view", plain, "--out", page)[1].splitlines() == [
        f"{plain}: no physics extensions found; the page shows the meshes only",
        f"wrote {page} (no run: nothing in the scene moves)"]
    assert cli(capsys, "info", plain)[1].splitlines()[1] == "  no physics extensions found"


def test_convert_prints_losses_by_code_with_counts(capsys, tmp_path: Path) -> None:
    # JointTypes → OMI: 9 losses (docs/interop.md): 6 JOINT-3 and 3 JOINT-2 (exact swaps onto the dynamic side).
    dst, report = tmp_path / "j.gltf", tmp_path / "losses.json"
    code, out, _ = cli(capsys, "convert", fixture_path(JOINT_TYPES), dst, "--to", "omi")
    assert code == 0
    assert out.splitlines() == [
        f"wrote {dst} (physics in the newest OMI form)",
        "9 losses (--report FILE lists each with its pointer):",
        "  JOINT-3  ×6",
        "  JOINT-2  ×3"]
    out = cli(capsys, "convert", fixture_path(JOINT_TYPES), dst, "--to", "omi", "--report", report)[1]
    assert out.splitlines()[1] == f"9 losses (details in {report}):"
    assert len(json.loads(report.read_text())["losses"]) == 9
    assert cli(capsys, "convert", EXAMPLE, dst)[1] == (
        f"wrote {dst} (lossless re-save; --to omi or --to khr converts the physics)\n")
    assert cli(capsys, "convert", EXAMPLE, dst, "-q") == (0, "", "")


def test_view_simulates_by_default_and_says_so(capsys, tmp_path: Path) -> None:
    page = tmp_path / "t.html"
    code, out, _ = cli(capsys, "view", fixture_path(TRIGGERS), "--out", page)
    assert (code, out) == (0, f"wrote {page} (a run of 5 s, 300 steps: 1 moving body, 4 trigger events)\n")
    data = page.read_text().split('id="gltf-physics-data">')[1].split("</script>")[0]
    assert json.loads(data)["bake"]["frames"] == 301
    assert cli(capsys, "view", fixture_path(TRIGGERS), "--out", page, "--simulate", "0")[1] == (
        f"wrote {page} (no run: --simulate S embeds one)\n")
    png = tmp_path / "t.png"
    assert cli(capsys, "view", fixture_path(TRIGGERS), "--png", png, "--simulate", "1")[1] == (
        f"wrote {png} (a run of 1 s, 60 steps: 1 moving body, 4 trigger events)\n")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- item 5: errors naming the option and the value ---------------------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    (["--duration", "-1"], "--duration -1: the run's length in seconds must be ≥ 0"),
    (["--rate", "0"], "--rate 0: the step rate in Hz must be > 0"),
    (["--substeps", "0"], "--substeps 0: the number of solver substeps must be ≥ 1"),
    (["--duration", "abc"], "--duration abc: expected a number of seconds ≥ 0, e.g. --duration 2.5"),
    (["--gravity", "0", "-1.62"],
     "--gravity 0 -1.62: expected three numbers X Y Z in m/s², e.g. --gravity 0 -1.62 0"),
    # errors found while running name the input file first, then the pointer
    (["--set", f'{BALL_MASS}="heavy"'], f'{EXAMPLE}: {BALL_MASS}: expected a number, not "heavy"'),
    (["--set", BALL_MASS.replace("motion", "motoin") + "=3"],
     f'{EXAMPLE}: ' + BALL_MASS.replace("motion", "motoin") + ": not a settable physics property"),
    (["-o", "out.txt"], "-o out.txt: the output must end in .gltf or .glb"),
])
def test_simulate_errors_name_the_option_and_value(capsys, args: list[str], message: str) -> None:
    code, out, err = cli(capsys, "simulate", EXAMPLE, *args)
    assert (code, out, err) == (2, "", message + "\n")


def test_gravity_that_swallowed_the_file_name_says_so(capsys) -> None:
    code, _, err = cli(capsys, "simulate", "--gravity", "0", "-1.62", EXAMPLE)
    assert (code, err) == (
        2, f"--gravity 0 -1.62 {EXAMPLE}: expected three numbers X Y Z in m/s², e.g. --gravity 0 -1.62 0\n")


@pytest.mark.parametrize(("args", "message"), [
    (["convert", str(EXAMPLE), "x.gltf", "--to", "bullet"], "--to bullet: expected omi, khr or mjcf"),
    (["convert", str(EXAMPLE), "x.obj"], "OUT x.obj: the output must end in .gltf, .glb, .usda, .usdc, .usd or .xml"),
    (["view", str(EXAMPLE), "--png", "out.jpg"], "--png out.jpg: the preview (a PNG picture) must end in .png"),
    (["view", str(EXAMPLE), "--simulate", "-2"], "--simulate -2: the run's length in seconds must be ≥ 0"),
    (["validate", str(EXAMPLE), "--format", "xml"], "--format xml: expected text or json"),
    (["simulate", str(EXAMPLE), "--bogus"], "--bogus: no such option (see `gltf-physics simulate --help`)"),
    (["simulate"], "IN: missing (a required argument; see `gltf-physics simulate --help`)"),
])
def test_other_bad_options_are_one_line_naming_them(capsys, args: list[str], message: str) -> None:
    code, out, err = cli(capsys, *args)
    assert (code, out, err) == (2, "", message + "\n")


def test_validate_a_directory_recurses_and_totals(capsys) -> None:
    family = fixture_path("OMI_physics_joint/gen2-physicsJoints/weld_joint.gltf").parent.parent
    files = sorted(p for p in family.rglob("*") if p.suffix in (".gltf", ".glb"))
    code, out, _ = cli(capsys, "validate", family)
    lines = out.splitlines()
    verdicts = [line for line in lines if ": valid (" in line or ": invalid (" in line]
    assert len(verdicts) == len(files) == 17
    assert lines[-1] == "17 files: 14 valid, 3 invalid"
    assert code == 1


def test_validate_strict_says_why_a_valid_file_fails(capsys) -> None:
    path = fixture_path("OMI_physics_body/gen1-type-omi-collider/basic/trigger_only_body.gltf")
    code, out, _ = cli(capsys, "validate", path, "--strict")
    assert code == 1
    assert out.splitlines()[-2:] == [f"{path}: valid (0 errors, 1 warning, 0 infos, 0 hints)",
                                     f"{path}: fails --strict (1 warning)"]


# -- item 6: presentation, --version, --help -----------------------------------------------------------------

def test_version(capsys) -> None:
    assert cli(capsys, "--version") == (0, f"gltf-physics {__version__}\n", "")


@pytest.mark.parametrize(("command", "example"), [
    ("info", "Example: gltf-physics info examples/tumbling_boxes.gltf --json"),
    ("validate", "Example: gltf-physics validate scene.glb assets/ --strict"),
    ("convert", "Example: gltf-physics convert scene.glb scene.khr.gltf --to khr --report losses.json"),
    ("simulate", "Example: gltf-physics simulate examples/tumbling_boxes.gltf --duration 3 --trace trace.csv"),
    ("view", "Example: gltf-physics view examples/tumbling_boxes.gltf --out boxes.html"),
])
def test_help_has_an_example_per_command(command: str, example: str) -> None:
    text = subprocess.run([sys.executable, "-m", "gltf_physics", command, "--help"], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "COLUMNS": "200"}, check=True).stdout
    assert example in text
    if command == "validate":
        assert "text|json" in text
    if command == "convert":
        assert "omi|khr" in text


def test_info_static_bodies_show_static_words_not_camelcase_and_no_negative_zero(capsys, tmp_path: Path) -> None:
    doc = json.loads(EXAMPLE.read_text())
    doc["nodes"][1]["extensions"]["OMI_physics_body"]["motion"]["centerOfMass"] = [-0.0, 0.0, 0.0]
    path = tmp_path / "boxes.gltf"
    path.write_text(json.dumps(doc))
    out = cli(capsys, "info", path)[1]
    rows = {line.split()[1]: line.split() for line in out.splitlines()[12:]}
    assert rows["Ground"][2:] == ["static", "static"]  # no mass, centre of mass or inertia for a static body
    assert rows["BoxA"][3:7] == ["2", "(0,", "0,", "0)"]
    numbers = out.replace(str(path), "")  # pytest's first temporary folder is .../pytest-0/
    assert "-0" not in numbers and "staticColliders" not in out
    body = json.loads(cli(capsys, "info", path, "--json")[1])["bodies"]
    assert body[0] == {"node": 0, "name": "Ground", "motion": "static"}


def test_piped_output_never_breaks_a_long_file_name(tmp_path: Path) -> None:
    deep = tmp_path / ("a_rather_long_directory_name_" * 3) / "tumbling_boxes_with_a_long_name.gltf"
    deep.parent.mkdir(parents=True)
    deep.write_text(EXAMPLE.read_text())
    r = subprocess.run([sys.executable, "-m", "gltf_physics", "simulate", str(deep), "--duration", "0.5",
                        "--trace", str(deep.with_suffix(".csv"))], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1] == f"wrote {deep.with_suffix('.csv')}"  # one line, well over 80 columns


# -- item 5, Python side: the World facade names what is wrong ----------------------------------------------

def test_world_run_refuses_negative_time_and_from_file_lists_its_options() -> None:
    import gltf_physics as gp

    world = gp.World.from_file(EXAMPLE)
    with pytest.raises(ValueError) as bad_time:
        world.run(-1)
    assert str(bad_time.value) == "World.run: seconds must be a finite number ≥ 0, not -1"
    assert world.step_count == 0
    with pytest.raises(TypeError) as bad_option:
        gp.World.from_file(EXAMPLE, rat=60)
    assert str(bad_option.value) == ("World.from_file() has no option 'rat'; its options are rate, substeps, "
                                     "gravity, density, record, mesh_source, threads, engine, articulations, "
                                     "graph")
