"""`batch`: one isolated Dask task per asset; crashes, hangs, memory exhaustion and unreadable files
fail their own rows only; --resume; a real `dask scheduler` + two `dask worker` processes equal a local run.

Fault assets go to a runner with test-only faults (tests/batch_faults.py, in place of the package's runner):
`*.hang.gltf` blocks in C, `*.crash.gltf` segfaults the runner, `*.oom.gltf` allocates until its limit.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import distributed
import pyarrow.parquet as pq
import pytest

import batch_faults
from conftest import fixture_path
from gltf_physics.scale.batch_driver import _chunks, batch
from gltf_physics.scale.cluster import open_client
from gltf_physics.scale.paths import expand
from gltf_physics.scale.table import journal_path
from gltf_physics.validation import Severity, validate_file
from scale_helpers import ball, cli, env, without_seconds, write

GOOD_DIR = "OMI_physics_body/gen2-type-dynamic"  # six small official assets, in two sub-folders


@pytest.fixture(scope="module")
def client():
    """Two local worker processes whose runners are tests/batch_faults.py (this folder on the PYTHONPATH the
    workers, and so their runners, inherit)."""
    previous = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent), previous]))
    try:
        with open_client(workers=2) as c:
            c.run(batch_faults.use_fault_runner)
            yield c
    finally:
        if previous is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = previous


@pytest.fixture(scope="module")
def good_dir() -> Path:
    return fixture_path(f"{GOOD_DIR}/basic/static_box.gltf").parent.parent


def validate_figures(path: str) -> dict:
    """What one plain `validate` says of the asset, in the row's columns."""
    report = validate_file(path)
    return {"errors": report.num_errors, "warnings": report.num_warnings, "infos": report.count(Severity.INFO),
            "hints": report.count(Severity.HINT), "codes": sorted(report.codes)}


def test_paths_expand_folders_globs_and_named_files(tmp_path):
    for name in ("a.gltf", "sub/b.glb", "sub/deeper/c.gltf", "sub/notes.txt", "d.GLTF"):
        write(tmp_path / name, "{}")
    assert expand([tmp_path]) == sorted(str(tmp_path / n) for n in ("a.gltf", "sub/b.glb", "sub/deeper/c.gltf",
                                                                     "d.GLTF"))
    assert expand([f"{tmp_path}/sub/**/*.gl*"]) == [str(tmp_path / "sub/b.glb"), str(tmp_path / "sub/deeper/c.gltf")]
    # a named file counts whatever its suffix, a missing one too (it fails in its row); duplicates collapse
    named = [str(tmp_path / "sub/notes.txt"), str(tmp_path / "gone.gltf"), str(tmp_path / "a.gltf")]
    assert expand([*named, tmp_path / "a.gltf"]) == sorted(named)



def test_tasks_start_with_the_largest_files_and_shrink_toward_the_end(tmp_path):
    # 4 equal large files (by path; one per task: each is over an eighth of a thread's share of the bytes), then 96
    # small ones, largest first, in tasks that shrink (half a thread's share of what is left, at least 4 here)
    paths = [str(tmp_path / f"big{k}.gltf") for k in range(4)] + [str(tmp_path / f"s{k:02d}.gltf") for k in range(96)]
    for k, path in enumerate(paths):
        write(Path(path), "x" * (100_000 if k < 4 else 1000 + k))
    missing = str(tmp_path / "gone.gltf")  # no size: counted as 0 bytes, last
    chunks = _chunks([*paths, missing], {p: {} for p in [*paths, missing]}, threads=2)
    assert [p for chunk in chunks for p, _ in chunk] == [*paths[:4], *paths[:3:-1], missing]
    assert [len(c) for c in chunks] == [1, 1, 1, 1, 25, 18, 14, 10, 8, 6, 4, 4, 4, 4]

def test_crash_hang_memory_and_unreadable_fail_alone(client, good_dir, tmp_path):
    bad = tmp_path / "bad"
    for fault in ("hang", "crash", "oom"):
        write(bad / f"x.{fault}.gltf", ball())
    write(bad / "garbage.gltf", "{ not json")
    (bad / "cut.glb").write_bytes(b"glTF\x02\x00\x00\x00\xff\x00\x00\x00")
    missing = str(tmp_path / "missing.gltf")
    table = batch([good_dir, bad, missing], "validate", client=client, timeout=3, memory_mb=400)
    rows = {Path(r["path"]).name: r for r in table.to_pylist()}
    reasons = {name: r["reason"] for name, r in rows.items() if r["status"] == "failed"}
    assert reasons == {
        "x.hang.gltf": "timed out after 3 s",
        "x.crash.gltf": "crashed (signal SIGSEGV)",
        "x.oom.gltf": "out of memory (over the 400 MB limit)",
        "garbage.gltf": reasons["garbage.gltf"], "cut.glb": reasons["cut.glb"],
        "missing.gltf": reasons["missing.gltf"],
    }
    for name in ("garbage.gltf", "cut.glb", "missing.gltf"):
        assert reasons[name].startswith("the file cannot be loaded: "), reasons[name]
    good = [r for r in table.to_pylist() if r["status"] == "ok"]
    assert len(good) == 6 and all(r["reason"] is None and r["command"] == "validate" for r in good)
    for r in good:  # each row says what a plain validate of the file says
        assert {k: r[k] for k in ("errors", "warnings", "infos", "hints", "codes")} == validate_figures(r["path"])
    assert table.column("path").to_pylist() == sorted(table.column("path").to_pylist())


def huge_hull(folder: Path) -> dict:
    """A hostile size the loader and the runtime checks accept: a convex-hull collider over 400,000 points of a
    sphere (a 4.8 MB buffer, every point on the hull) — its mass properties take far longer than the time limit."""
    import numpy as np

    directions = np.random.default_rng(7).normal(size=(400_000, 3))
    points = (directions / np.linalg.norm(directions, axis=1, keepdims=True)).astype("<f4")  # all on the hull
    (folder / "huge.bin").write_bytes(points.tobytes())
    doc = ball()
    doc["buffers"] = [{"uri": "huge.bin", "byteLength": points.nbytes}]
    doc["bufferViews"] = [{"buffer": 0, "byteLength": points.nbytes}]
    doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0}}]}]  # 133,333 triangles
    doc["accessors"] = [{"bufferView": 0, "count": len(points), "type": "VEC3", "componentType": 5126,
                         "min": points.min(axis=0).tolist(), "max": points.max(axis=0).tolist()}]
    body = doc["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"]
    body["collider"] = {"geometry": {"mesh": 0, "convexHull": True}}
    body["motion"] = {}  # mass and inertia computed from the hull
    return doc


def test_a_hostile_size_times_out_without_any_hook(client, tmp_path):
    write(tmp_path / "huge.gltf", huge_hull(tmp_path))
    write(tmp_path / "small.gltf", ball())
    rows = batch([tmp_path], "info", client=client, timeout=2).to_pylist()
    assert [(Path(r["path"]).name, r["status"], r["reason"]) for r in rows] == [
        ("huge.gltf", "failed", "timed out after 2 s"), ("small.gltf", "ok", None)]
    assert rows[1]["bodies_dynamic"] == rows[1]["shapes_sphere"] == 1


def test_resume_after_an_interrupted_run_does_only_the_rest(client, good_dir, tmp_path):
    out = tmp_path / "results.parquet"
    full = without_seconds(batch([good_dir], "info", client=client).to_pylist())
    seen: list[str] = []

    def interrupt_after_two(row: dict) -> None:
        seen.append(row["path"])
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        batch([good_dir], "info", client=client, out=out, on_row=interrupt_after_two)
    assert not out.exists() and journal_path(out).exists()  # no partial table, the finished rows kept
    started: list[tuple[int, int]] = []
    redone: list[str] = []
    table = batch([good_dir], "info", client=client, out=out, resume=True,
                  on_start=lambda todo, done: started.append((todo, done)), on_row=lambda r: redone.append(r["path"]))
    assert started == [(4, 2)]
    assert sorted(redone) == sorted(set(r["path"] for r in full) - set(seen))
    assert without_seconds(pq.read_table(out).to_pylist()) == full == without_seconds(table.to_pylist())
    assert not journal_path(out).exists()
    # a second resume has nothing left to do
    batch([good_dir], "info", client=client, out=out, resume=True,
          on_start=lambda todo, done: started.append((todo, done)))
    assert started[-1] == (0, 6)


def test_convert_and_simulate_rows(client, tmp_path):
    src = tmp_path / "in"
    write(src / "one.gltf", ball((0.0, 10.0, 0.0)))
    write(src / "sub" / "two.gltf", ball((0.0, 5.0, 0.0)))
    converted = batch([src], "convert", client=client, to="omi", out_dir=tmp_path / "out").to_pylist()
    assert [(r["status"], r["output"]) for r in converted] == [
        ("ok", str(tmp_path / "out" / "one.gltf")), ("ok", str(tmp_path / "out" / "sub" / "two.gltf"))]
    assert all((tmp_path / "out" / p).is_file() for p in ("one.gltf", "sub/two.gltf"))
    simulated = batch([src], "simulate", client=client, duration=1.0).to_pylist()
    # from rest, 1 s at 60 Hz: dropped g·(t² + t·h)/2 with Rapier's internal substep h = 1/240 (test_sim_world)
    drop = 9.81 * (1 + 1 / 240) / 2
    for r, y0 in zip(simulated, (10.0, 5.0), strict=True):
        assert (r["bodies"], r["steps"], r["events"]) == (1, 60, 0)
        assert r["min_y"] == r["max_y"] == pytest.approx(y0 - drop, abs=1e-4)
        assert r["max_displacement"] == pytest.approx(drop, abs=1e-4)


def test_cli_usage_errors_are_one_line_exit_2(tmp_path):
    result = cli("batch", "validate", str(tmp_path), "--out", str(tmp_path / "r.csv"))
    assert (result.returncode, result.stderr) == (
        2, f"--out {tmp_path / 'r.csv'}: the results table must end in .parquet or .jsonl\n")
    result = cli("batch", "info", str(tmp_path), "--resume")
    assert (result.returncode, result.stderr) == (2, "--resume needs --out (the table to resume)\n")
    write(tmp_path / "a.gltf", ball())
    result = cli("batch", "convert", str(tmp_path), "--out-dir", str(tmp_path), "--to", "omi")
    assert (result.returncode, result.stderr) == (
        2, f"out_dir {tmp_path} is the input folder: the converted files would overwrite the assets\n")
    assert not list(tmp_path.glob("*.partial.jsonl"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_external_scheduler_and_two_workers_equal_the_local_run(client, good_dir, tmp_path):
    dask = str(Path(sys.executable).with_name("dask"))
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env()}
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                              **quiet)]
    procs += [subprocess.Popen([dask, "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny",
                                "--no-dashboard", "--name", f"w{i}"], **quiet) for i in range(2)]
    missing = str(tmp_path / "missing.gltf")
    try:
        with distributed.Client(address, timeout="120s") as watcher:
            watcher.wait_for_workers(2, timeout=120)
            remote = cli("batch", "validate", str(good_dir), missing, "--scheduler", address,
                         "--out", str(tmp_path / "remote.parquet"))
            # both workers took assets: each holds the runner process it started
            runners = watcher.run(lambda: len(__import__("psutil").Process().children()))
            watcher.shutdown()  # the scheduler and both workers
        for p in procs:
            p.wait(timeout=60)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert remote.returncode == 1, remote.stderr  # the missing file failed
    local = batch([good_dir, missing], "validate", client=client)
    remote_rows = without_seconds(pq.read_table(tmp_path / "remote.parquet").to_pylist())
    assert remote_rows == without_seconds(local.to_pylist())
    assert sorted(r["status"] for r in remote_rows) == ["failed"] + ["ok"] * 6
    assert list(runners.values()) == [1, 1]


def test_a_memory_limit_too_small_for_the_runner_fails_the_rows_with_the_reason(client, tmp_path):
    write(tmp_path / "a.gltf", ball())
    [row] = batch([tmp_path], "validate", client=client, memory_mb=30).to_pylist()
    assert row["status"] == "failed" and row["reason"].startswith("the runner could not start: "), row
