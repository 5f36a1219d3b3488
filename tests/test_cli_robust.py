"""The CLI's net: a Rust panic, an engine error or a refused scene is one line on stderr that
starts with the input file, exit 2, no traceback; ``validate`` writes an unreadable file's line to stderr."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import rapier3d as rp
from typer.testing import CliRunner

from conftest import ROOT
from gltf_physics.cli import app
from gltf_physics.sim.rapier.world import RapierWorld

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"


def _panic_class() -> type[BaseException]:
    try:
        rp.SharedShape.cylinder(-1.0, 1.0)
    except BaseException as exc:  # pyo3_runtime.PanicException derives from BaseException
        return type(exc)
    raise AssertionError("Rapier no longer panics on a negative cylinder")


PANIC = _panic_class()


@pytest.mark.parametrize(("error", "shown"), [
    (PANIC("assertion failed: half_height.is_sign_positive()\nnote: run with RUST_BACKTRACE=1"),
     "PanicException: assertion failed: half_height.is_sign_positive()"),
    (rp.MeshConversionError("convex hull computation failed"),
     "MeshConversionError: convex hull computation failed"),
])
@pytest.mark.parametrize("where", ["step", "build"])
def test_an_engine_failure_is_one_line_naming_the_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                       error: BaseException, shown: str, where: str) -> None:
    def boom(*args: Any, **kwargs: Any) -> None:
        raise error

    monkeypatch.setattr(RapierWorld, "step" if where == "step" else "_build", boom)
    trace = tmp_path / "trace.csv"
    r = CliRunner().invoke(app, ["simulate", str(EXAMPLE), "--duration", "0.05", "--trace", str(trace)])
    assert r.exit_code == 2
    when = " at t = 0 s" if where == "step" else ""
    assert r.stderr == f"{EXAMPLE}: the physics engine failed{when}: {shown}\n"
    assert r.stdout == "" and not trace.exists()


def test_a_scene_the_runtime_refuses_is_one_line_with_file_and_pointer(tmp_path: Path) -> None:
    gltf = json.loads(EXAMPLE.read_text())
    shapes = gltf["extensions"]["OMI_physics_shape"]["shapes"]
    shapes[0] = {"type": "cylinder", "cylinder": {"height": -2.0, "radiusBottom": 0.5, "radiusTop": 0.5}}
    src = tmp_path / "bad.gltf"
    src.write_text(json.dumps(gltf))
    r = CliRunner().invoke(app, ["simulate", str(src), "--duration", "0.05"])
    assert r.exit_code == 2
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{src}: /extensions/OMI_physics_shape/shapes/0: the collider "
                                                   "shape on node ")
    assert lines[0].endswith("cannot be simulated: a size is negative (-1)")
    v = CliRunner().invoke(app, ["validate", str(src)])  # and validate said so first
    assert v.exit_code == 1 and "error GLTF-SIMULATE /extensions/OMI_physics_shape/shapes/0: " in v.stdout


def test_validate_writes_an_unreadable_file_to_stderr(tmp_path: Path) -> None:
    bad = tmp_path / "broken.gltf"
    bad.write_text("{")
    r = CliRunner().invoke(app, ["validate", str(bad), str(EXAMPLE)])
    assert r.exit_code == 2
    assert r.stderr.startswith(f"{bad}: error GLTF-UNREADABLE /: the file cannot be loaded: invalid JSON")
    assert len(r.stderr.splitlines()) == 1
    assert str(bad) not in r.stdout and r.stdout.splitlines()[0].startswith(f"{EXAMPLE}: ")
    assert r.stdout.splitlines()[-1] == "2 files: 1 valid, 0 invalid, 1 unreadable"
