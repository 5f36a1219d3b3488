"""Traces streamed while the run goes (CSV, Parquet, NPZ, --trace-every) and all-or-nothing outputs
."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from gltf_physics.gltf.document import Document
from gltf_physics.model import Body, Box, Collider, Motion, PhysicsScene, Sphere
from gltf_physics.sim import SimulationError, World, write_trace
from gltf_physics.sim.outputs import RunOutputs, run_and_write
from gltf_physics.sim.trace import trace_text

G = 9.81


def scene() -> PhysicsScene:
    """Two falling balls (one named with a comma) above a static box floor."""
    nodes = [{"name": "a, b", "translation": [0, 3, 0]}, {"name": "c", "translation": [2, 5, 0]},
             {"name": "floor"}]
    return PhysicsScene(bodies=[Body(0, Motion()), Body(1, Motion())],
                        colliders=[Collider(0, Sphere(0.5), body=0), Collider(1, Sphere(0.5), body=1),
                                   Collider(2, Box((10, 1, 10)))],
                        document=Document(json={"nodes": nodes}, buffers=[]))


def recorded(seconds: float = 1.0) -> World:
    w = World(scene(), record=True)
    w.run(seconds)
    return w


def streamed(tmp_path: Path, name: str, seconds: float = 1.0, every: int = 1) -> Path:
    w = World(scene())
    path = tmp_path / name
    run_and_write(w, seconds, scene().document, RunOutputs(trace=path, trace_every=every))
    return path


def test_streamed_csv_equals_the_recorded_trace_text(tmp_path: Path) -> None:
    path = streamed(tmp_path, "t.csv")
    assert path.read_text() == trace_text(recorded().recording)
    assert len(path.read_text().splitlines()) == 1 + 61 * 2  # header, t = 0 and 60 steps, 2 bodies


def test_parquet_trace_has_the_csv_columns_and_the_engine_values(tmp_path: Path) -> None:
    table = pq.read_table(streamed(tmp_path, "t.parquet"))
    assert table.column_names == ["time", "node", "name", "tx", "ty", "tz", "qx", "qy", "qz", "qw"]
    assert table.num_rows == 61 * 2
    rec = recorded().recording
    ty = table.column("ty").to_numpy().reshape(61, 2)
    assert np.array_equal(ty, rec.translations[:, :, 1])  # float32, bit for bit
    assert table.column("name").to_pylist()[:2] == ["a, b", "c"]
    assert table.column("time").to_pylist()[2] == 1 / 60


def test_npz_trace_arrays(tmp_path: Path) -> None:
    with np.load(streamed(tmp_path, "t.npz")) as z:
        assert list(z["columns"]) == ["tx", "ty", "tz", "qx", "qy", "qz", "qw"]
        assert z["pose"].shape == (61, 2, 7) and z["pose"].dtype == np.float32
        assert list(z["node"]) == [0, 1] and list(z["name"]) == ["a, b", "c"]
        rec = recorded().recording
        assert np.array_equal(z["pose"][:, :, :3], rec.translations)
        assert np.array_equal(z["time"], rec.times)


@pytest.mark.parametrize("suffix", [".csv", ".parquet", ".npz"])
def test_trace_every_keeps_one_frame_in_n_from_t0(tmp_path: Path, suffix: str) -> None:
    path = streamed(tmp_path, "t" + suffix, every=7)
    times = _times(path)
    assert times == pytest.approx([k * 7 / 60 for k in range(9)])  # steps 0, 7, …, 56 of 60


def _times(path: Path) -> list[float]:
    if path.suffix == ".csv":
        return sorted({float(line.split(",")[0]) for line in path.read_text().splitlines()[1:]})
    if path.suffix == ".parquet":
        return sorted(set(pq.read_table(path).column("time").to_pylist()))
    with np.load(path) as z:
        return list(z["time"])


def test_write_trace_api_picks_the_format_by_extension(tmp_path: Path) -> None:
    rec = recorded(0.1).recording
    for suffix in (".csv", ".parquet", ".npz"):
        write_trace(rec, tmp_path / f"r{suffix}")
    assert (tmp_path / "r.csv").read_text() == trace_text(rec)
    assert pq.read_table(tmp_path / "r.parquet").num_rows == rec.count * 2
    with pytest.raises(SimulationError, match=r"the format is chosen by the extension: \.csv, \.parquet, \.npz"):
        write_trace(rec, tmp_path / "r.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.npz", "r.parquet"]


def test_a_failure_mid_run_leaves_no_output(tmp_path: Path) -> None:
    w = World(scene(), record=True)
    outputs = RunOutputs(output=tmp_path / "o.gltf", trace=tmp_path / "t.csv", events=tmp_path / "e.jsonl")

    def fail_at_half_a_second(world: World) -> None:
        if world.time >= 0.5:
            raise SimulationError("numerical failure", node=1)

    with pytest.raises(SimulationError):
        run_and_write(w, 1.0, scene().document, outputs, each_step=fail_at_half_a_second)
    assert list(tmp_path.iterdir()) == []


def test_two_outputs_naming_one_file_are_refused_before_the_run(tmp_path: Path) -> None:
    with pytest.raises(SimulationError, match="two outputs name the same file"):
        RunOutputs(trace=tmp_path / "x.csv", events=tmp_path / "." / "x.csv").check()


# -- the command line ------------------------------------------------------------------------------------


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gltf_physics", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


def example(tmp_path: Path) -> Path:
    from conftest import ROOT

    return ROOT / "examples" / "tumbling_boxes.gltf"


def test_cli_events_into_an_impossible_folder_fails_first_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    r = cli("simulate", example(tmp_path), "--duration", "0.5", "--trace", tmp_path / "t.csv",
            "--events", tmp_path / "afile" / "deep" / "e.jsonl")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == f"cannot write --events {tmp_path / 'afile' / 'deep' / 'e.jsonl'}: " \
                       f"{tmp_path / 'afile'} is not a folder\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_cli_failing_timed_input_mid_run_leaves_nothing(tmp_path: Path) -> None:
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps([{"time": 1.0, "pointer": "/nodes/99/extensions/OMI_physics_body/motion/mass",
                                   "value": 2}]))
    out = tmp_path / "out"
    r = cli("simulate", example(tmp_path), "--duration", "2", "--inputs", inputs, "--trace", out / "t.parquet",
            "--events", out / "e.jsonl", "-o", out / "final.gltf")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert not out.exists()


def test_cli_unknown_trace_extension_is_refused(tmp_path: Path) -> None:
    r = cli("simulate", example(tmp_path), "--trace", tmp_path / "x.json")
    assert r.returncode == 2
    assert r.stderr == (f"--trace {tmp_path / 'x.json'}: the format is chosen by the extension: "
                        ".csv, .parquet, .npz (not '.json')\n")
    assert list(tmp_path.iterdir()) == []


def test_cli_trace_every_and_parquet(tmp_path: Path) -> None:
    r = cli("simulate", example(tmp_path), "--duration", "1", "--trace", tmp_path / "t.parquet",
            "--trace-every", "10")
    assert r.returncode == 0, r.stderr
    times = sorted(set(pq.read_table(tmp_path / "t.parquet").column("time").to_pylist()))
    assert times == pytest.approx([k / 6 for k in range(7)])  # steps 0, 10, …, 60


def test_cli_convert_report_into_an_impossible_folder_leaves_no_output(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    r = cli("convert", example(tmp_path), tmp_path / "o" / "out.gltf", "--to", "khr",
            "--report", tmp_path / "afile" / "report.json")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_trace_names_with_lone_surrogates_are_written(tmp_path: Path) -> None:
    s = scene()
    s.document.json["nodes"][1]["name"] = "bad\udc80name"
    w = World(s)
    run_and_write(w, 0.1, s.document, RunOutputs(trace=tmp_path / "t.csv", events=tmp_path / "e.jsonl"))
    assert (tmp_path / "t.csv").read_text().splitlines()[2].split(",")[2] == "bad\ufffdname"  # World.names
    assert io.BytesIO((tmp_path / "t.csv").read_bytes()).read().decode("utf-8")  # valid UTF-8
