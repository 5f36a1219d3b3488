"""`gltf-physics plot TRACE --node N --y height|speed --out P.png`: one trace read the same from CSV, NPZ and
Parquet; the Ball's height starts at 4 m and its speed in free fall is g·t."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT
from gltf_physics.cli import main
from gltf_physics.view.plot import read_trace

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("traces")
    kinds = [".csv", ".npz"] + ([".parquet"] if _has_pyarrow() else [])
    paths = {k: folder / f"t{k}" for k in kinds}
    for path in paths.values():
        with pytest.raises(SystemExit) as done:
            main(["simulate", str(EXAMPLE), "--duration", "2", "--trace", str(path), "-q"])
        assert done.value.code == 0
    return paths


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def test_every_format_reads_to_the_same_trace(traces: dict[str, Path]) -> None:
    csv = read_trace(traces[".csv"])
    assert (csv.nodes, csv.names, csv.positions.shape) == ([1, 2, 3, 7], ["BoxA", "BoxB", "Ball", "Bob"], (121, 4, 3))
    for kind, path in traces.items():
        other = read_trace(path)
        assert other.nodes == csv.nodes and other.names == csv.names, kind
        assert np.allclose(other.times, csv.times) and np.allclose(other.positions, csv.positions, atol=1e-6), kind


def test_height_and_speed_of_the_falling_ball(traces: dict[str, Path]) -> None:
    trace = read_trace(traces[".csv"])
    height, speed = trace.series(3, "height"), trace.series(3, "speed")
    assert height[0] == 4.0
    # Free fall until it reaches the ground (~0.85 s): speed g·t, here at t = 0.5 s (frame 30).
    assert trace.times[30] == pytest.approx(0.5)
    assert speed[30] == pytest.approx(9.81 * 0.5, abs=0.1)
    assert height[30] == pytest.approx(4.0 - 9.81 * 0.5**2 / 2, abs=0.05)


def test_the_command_writes_the_picture_and_says_what(capsys, traces: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "ball.png"
    code, stdout, err = cli(capsys, "plot", traces[".csv"], "--node", "Ball", "--node", "1", "--y", "speed",
                            "--out", out)
    assert (code, err) == (0, "")
    assert stdout == f"wrote {out} (speed of Ball (#3), BoxA (#1) over 2 s, 121 frames)\n"
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (800, 450)


@pytest.mark.parametrize(("args", "message"), [
    (["--node", "9"], "--node 9: no such body in the trace (its bodies: 1 BoxA, 2 BoxB, 3 Ball, 7 Bob)"),
    (["--y", "depth"], "--y depth: expected height or speed"),
])
def test_bad_options_are_one_line(capsys, traces: dict[str, Path], tmp_path: Path, args: list[str],
                                  message: str) -> None:
    assert cli(capsys, "plot", traces[".csv"], *args, "--out", tmp_path / "p.png") == (2, "", message + "\n")
    assert not (tmp_path / "p.png").exists()


def test_a_broken_trace_names_the_line(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("time,node,name,tx,ty,tz,qx,qy,qz,qw\n0,1,a,0,0,0,0,0,0,1\n0,1,a,x\n")
    assert cli(capsys, "plot", bad, "--out", tmp_path / "p.png") == (
        2, "", f"{bad}: line 3: expected time,node,name and seven numbers\n")
