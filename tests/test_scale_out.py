"""Scale-out without a fixed cost: a small job runs in one warm runner forked from the caller (no Dask), with
the same isolation and the same table as on any number of workers; `cluster start|status|stop` keeps a local
cluster between commands; workers that join and leave a real `dask scheduler` mid-batch lose no row."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import distributed
import pyarrow.parquet as pq
import pytest

from gltf_physics.api import load, read_scene
from gltf_physics.scale import sizing
from gltf_physics.scale.batch_driver import batch
from gltf_physics.scale.cluster import open_client
from gltf_physics.scale.sweep_driver import sweep
from gltf_physics.sim import World
from scale_helpers import SRC, ball, cli, env, without_seconds, write
from test_batch import free_port


@pytest.fixture(scope="module")
def client():
    with open_client(workers=2) as c:
        yield c


@pytest.fixture(scope="module")
def balls(tmp_path_factory) -> list[Path]:
    """Twelve projectiles of different heights and sizes, in two folders."""
    folder = tmp_path_factory.mktemp("balls")
    return [write(folder / f"{k % 2}" / f"ball{k:02d}.gltf", {**ball((0.0, 1.0 + k, 0.0), f"b{k}"),
            "extras": {"pad": "x" * (k * 500)}}) for k in range(12)]


def test_the_rule_runs_small_jobs_here_and_large_ones_on_workers():
    assert sizing.in_process(2 * sizing.LOCAL_START_S - 0.01, workers=2, running_cluster=False)
    assert not sizing.in_process(2 * sizing.LOCAL_START_S + 0.01, workers=2, running_cluster=False)
    assert not sizing.in_process(16 / 15 * sizing.LOCAL_START_S + 0.01, workers=16, running_cluster=False)
    assert sizing.in_process(1e6, workers=1, running_cluster=False)  # one worker: a runner, without the start
    assert not sizing.in_process(2 * sizing.CONNECT_S + 0.01, workers=1, running_cluster=True)
    assert sizing.local_workers(None, cores=16, tasks=3) == 3 and sizing.local_workers(4, cores=2, tasks=99) == 4
    sizes = {"a": 1000, "b": 3000}
    assert sizing.estimate("validate", sizes, {}) == pytest.approx(2 * sizing.PER_FILE_S + 4000 * sizing.PER_BYTE_S)
    steps = {p: {"duration": 2.0, "rate": 60.0, "substeps": 2} for p in sizes}
    assert sizing.estimate("simulate", sizes, steps) == pytest.approx(
        sizing.estimate("validate", sizes, {}) + 2 * 240 * sizing.PER_STEP_S)


def test_tables_are_identical_in_process_on_one_and_on_two_workers(client, balls, tmp_path):
    """The same bytes whatever runs the job: here (the rule), a 1-worker and a 2-worker Dask cluster."""
    folder = str(balls[0].parent.parent)
    here = batch([folder], "simulate", duration=0.5, out=tmp_path / "here.parquet")
    on_two = batch([folder], "simulate", client, duration=0.5, out=tmp_path / "two.parquet")
    with open_client(workers=1) as one_worker:
        on_one = batch([folder], "simulate", one_worker, duration=0.5, out=tmp_path / "one.parquet")
    rows = without_seconds(here.to_pylist())
    assert len(rows) == 12 and {r["status"] for r in rows} == {"ok"}
    assert rows == without_seconds(on_one.to_pylist()) == without_seconds(on_two.to_pylist())
    world = World(read_scene(load(rows[0]["path"])))  # the library called directly, in this process
    world.run(0.5)
    assert (rows[0]["steps"], rows[0]["min_y"]) == (30, float(world.poses()[1][0, 1]))
    for name in ("here", "one", "two"):  # only the seconds differ
        assert pq.read_table(tmp_path / f"{name}.parquet").drop(["seconds"]).equals(here.drop(["seconds"]))


def test_a_sweep_split_between_here_and_workers_is_the_same_table(client, balls, monkeypatch):
    """A sweep makes its first two runs here (the second's time is the estimate); the rest run here or on
    workers."""
    vary = {"/nodes/0/translation": "[grid(0,3,8),1,0]"}
    here = sweep(str(balls[0]), vary, duration=0.5, workers=2)  # small: every run here
    on_client = sweep(str(balls[0]), vary, duration=0.5, client=client)
    monkeypatch.setattr(sizing, "in_process", lambda *args: False)
    split = sweep(str(balls[0]), vary, duration=0.5, workers=2)  # runs 0-1 here, 2-7 on a local cluster
    assert here.equals(on_client) and here.equals(split)
    assert here.column("tx").to_pylist() == pytest.approx([3 * k / 7 for k in range(8)])  # free fall: x kept


def test_a_small_batch_imports_no_dask_and_names_the_file_it_wrote(balls, tmp_path):
    script = ("import sys; from gltf_physics.scale.batch_driver import batch\n"
              f"t = batch({[str(p) for p in balls[:3]]!r}, 'validate', workers=2)\n"
              "print(t.num_rows, 'distributed' in sys.modules)\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env(), timeout=120)
    assert r.stdout == "3 False\n", r.stderr
    table = tmp_path / "t.jsonl"
    done = cli("batch", "validate", *map(str, balls[:3]), "--out", str(table))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"3 rows written to {table}"
    quiet = cli("batch", "validate", *map(str, balls[:3]), "--out", str(tmp_path / "q.jsonl"), "-q")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    assert len((tmp_path / "q.jsonl").read_text().splitlines()) == 3
    runs = tmp_path / "runs.jsonl"
    swept = cli("sweep", str(balls[0]), "--vary", "/nodes/0/translation=[grid(0,1,2),1,0]", "--duration", "0.1",
                "--out", str(runs), "-q")
    assert (swept.returncode, swept.stdout, swept.stderr) == (0, "", "")
    assert [json.loads(line)["tx"] for line in runs.read_text().splitlines()] == [0.0, 1.0]


FAULTS_HERE = """
import json, sys
from gltf_physics.scale import isolation, tasks
import batch_faults

forks = []
fork = isolation._Forked.__init__
isolation._Forked.__init__ = lambda self, memory: (forks.append(memory), fork(self, memory))[1]
run = tasks.run
tasks.run = lambda command, path, options: (batch_faults.fault(path), run(command, path, options))[1]
from gltf_physics.scale.batch_driver import batch
rows = batch(sys.argv[1:], "validate", workers=1, timeout=2).to_pylist()
print(json.dumps({"forks": len(forks), "rows": [[r["path"], r["status"], r["reason"]] for r in rows]}))
"""


def test_in_process_a_crash_and_a_hang_fail_their_rows_only(balls, tmp_path):
    """A single-threaded caller (as the command line is) forks its runners, and each fork inherits the test
    faults (tests/batch_faults.py) patched in front of every asset here."""
    crash = write(tmp_path / "a.crash.gltf", ball())
    hang = write(tmp_path / "b.hang.gltf", ball())
    r = subprocess.run([sys.executable, "-c", FAULTS_HERE, str(crash), str(hang), *map(str, balls[:2])],
                       capture_output=True, text=True, timeout=120, cwd=Path(__file__).parent,
                       env=env(OPENBLAS_NUM_THREADS="1", PYTHONPATH=f"{SRC}{os.pathsep}{Path(__file__).parent}"))
    out = json.loads(r.stdout)
    by_name = {Path(path).name: (status, reason) for path, status, reason in out["rows"]}
    assert by_name["a.crash.gltf"] == ("failed", "crashed (signal SIGSEGV)")
    assert by_name["b.hang.gltf"] == ("failed", "timed out after 2 s")
    assert [by_name[p.name] for p in balls[:2]] == [("ok", None), ("ok", None)]
    assert out["forks"] >= 1  # the first runner was forked, warm


BIG_CALLER = """
import json, sys
from gltf_physics.scale import isolation
from gltf_physics.scale.batch_driver import batch

forks = []
fork = isolation._Forked.__init__
isolation._Forked.__init__ = lambda self, memory: (forks.append(memory), fork(self, memory))[1]
big = bytearray(int(sys.argv[1]) * 1024 * 1024)
rows = batch(sys.argv[2:], "validate", workers=1, memory_mb=400).to_pylist()
print(json.dumps([len(forks), [r["status"] for r in rows]]))
"""


@pytest.mark.parametrize(("held_mb", "forks"), [(0, 1), (300, 0)])
def test_a_caller_holding_much_memory_gets_fresh_runners_not_forks(balls, held_mb, forks):
    """A fork starts with the caller's address space under the asset's limit (400 MB here): a caller holding
    300 MB would leave its assets too little, so its runner is a fresh interpreter, and the rows are the same."""
    r = subprocess.run([sys.executable, "-c", BIG_CALLER, str(held_mb), *map(str, balls[:2])], capture_output=True,
                       text=True, timeout=120, env=env(OPENBLAS_NUM_THREADS="1"))
    assert json.loads(r.stdout) == [forks, ["ok", "ok"]], r.stderr


def test_cluster_start_status_stop_and_batch_uses_it(balls, tmp_path):
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    started = cli("cluster", "start", "--workers", "2", **cache)
    try:
        assert started.returncode == 0, started.stderr
        info = json.loads((tmp_path / "cache" / "gltf-physics" / "cluster.json").read_text())
        assert info["address"].startswith("tcp://127.0.0.1:") and info["workers"] == 2  # loopback only
        again = cli("cluster", "start", **cache)  # one cluster: the second start names the first
        assert again.stdout.startswith(f"cluster already running at {info['address']}, 2 workers"), again.stderr
        status = cli("cluster", "status", **cache)
        assert (status.returncode, status.stdout) == (0, f"cluster at {info['address']}, 2 workers "
                                                         f"(process {info['pid']})\n")
        big = [str(p) for p in balls]  # 12 × 1200 steps: above the rule's 1.2 s for a running cluster
        used = cli("batch", "simulate", *big, "--duration", "20", "--out", str(tmp_path / "c.parquet"), **cache)
        assert used.returncode == 0, used.stderr
        with distributed.Client(info["address"], timeout="30s") as watcher:  # the workers kept their runners
            runners = watcher.run(lambda: len(__import__("psutil").Process().children()))
        assert sorted(runners.values()) == [1, 1]
        named = cli("batch", "simulate", *big, "--duration", "20", "--out", str(tmp_path / "e.parquet"),
                    GLTF_PHYSICS_SCHEDULER=info["address"], XDG_CACHE_HOME=str(tmp_path / "none"))
        assert named.returncode == 0, named.stderr
        assert pq.read_table(tmp_path / "c.parquet").drop(["seconds"]).equals(
            pq.read_table(tmp_path / "e.parquet").drop(["seconds"]))
    finally:
        stopped = cli("cluster", "stop", **cache)
    assert (stopped.returncode, stopped.stdout) == (0, f"stopped the cluster at {info['address']}\n")
    gone = cli("cluster", "status", **cache)
    assert gone.returncode == 1 and gone.stdout.startswith("no cluster running")
    with pytest.raises(ProcessLookupError):
        os.kill(info["pid"], 0)


def test_workers_joining_and_leaving_a_real_scheduler_mid_batch_lose_no_row(balls, tmp_path):
    dask = str(Path(sys.executable).with_name("dask"))
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env()}

    def worker(name: str) -> subprocess.Popen:
        return subprocess.Popen([dask, "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny",
                                 "--no-dashboard", "--name", name], **quiet)

    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                              **quiet)]
    procs += [worker("w0"), worker("w1")]
    seen: list[str] = []
    try:
        with distributed.Client(address, timeout="120s") as c:
            c.wait_for_workers(2, timeout=120)

            def on_row(row: dict) -> None:
                seen.append(row["path"])
                if len(seen) == 2:  # mid-batch: a third worker joins, then the first one is killed outright
                    procs.append(worker("w2"))
                    c.wait_for_workers(3, timeout=120)
                    procs[1].send_signal(signal.SIGKILL)

            paths = [str(p) for p in balls]
            table = batch(paths, "simulate", c, duration=100.0, on_row=on_row)
            names = sorted(w["name"] for w in c.scheduler_info()["workers"].values())
    finally:
        for p in procs:
            p.kill()
            p.wait()
    rows = table.to_pylist()
    assert names == ["w1", "w2"]
    assert sorted(seen) == sorted(map(str, balls))
    assert [r["reason"] for r in rows if r["status"] != "ok"] == []
    alone = batch(paths, "simulate", workers=1, duration=100.0)  # one process: the reference table
    assert without_seconds(rows) == without_seconds(alone.to_pylist())
