"""`batch` and `sweep` on 1, 2, 4, … workers up to the core count: wall time, speed-up, efficiency, and where
the time goes (the fixed cost and the per-phase profile).

Workloads (every one run end to end as a user runs it, ``python -m gltf_physics … --workers N -q``):

- ``validate``: ``batch validate`` of the fixture library copied to ~544 files (many small validates);
- ``simulate``: ``batch simulate --duration D`` of the same copies (every fixture, several times);
- ``sweep``: ``sweep`` of examples/tumbling_boxes.gltf, R runs of D seconds, a gravity factor varied;
- ``few``: ``batch validate`` of 8 fixture files against one ``validate`` of the same 8 (one process).

For each, the 1-worker row is the baseline (``--workers 1``: one runner process, no cluster, see
gltf_physics.scale.sizing); speed-up = its wall time / this row's, efficiency = speed-up / workers; ``ran``
says where the command ran (``here``: the rule kept it in one process; ``dask``: a local cluster). ``work s``
is the rows' own seconds summed (batch) — the work the workers shared.

The profile (``--profile``, on by default) times the phases of one batch on N workers in this process:
importing Dask, starting the cluster, the runners' start (imports, once per worker), scheduling + work +
result transfer (the batch on the warm cluster), and the table; the fixed cost is the sum before the first row.

    GLTF_PHYSICS_FIXTURES=/path/to/fixtures python bench/scale_out.py [--quick] [--workers 1,2,4]

``--quick`` (≤ 3 minutes on 2 cores): 544 simulate files of 3 s, a 512-run sweep of 3 s (~16 s of estimated
work each: above the rule's 11 s for 2 workers, so they run on Dask). The full mode sizes them to ≥ 20 s of
one-worker work (544 files of 6 s, ~21 s idle; 2,048 runs of 3 s, ~20 s). The machine's load average is printed
with every table: timings on a shared machine are only ratios.

``--work SECONDS`` sizes the simulate and sweep workloads from this machine's own speed instead: one copy of the
fixture library simulated for 6 s and a 512-run sweep on one worker measure the cost of a copy and of a run,
and the workloads get as many copies (of 6 s) and runs (of 3 s) as make ``SECONDS`` × 1.1 of one-worker work
(a faster machine gets more of them, so the one-worker rows stay at ≥ ``SECONDS``; the table's ``work s`` says
what it was). ``--workers 1,2,4,8,16 --work 60`` on 16 cores: ~5–6 minutes.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
GRAVITY = "/nodes/3/extensions/OMI_physics_body/motion/gravityFactor"


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def copies(fixtures: Path, folder: Path, times: int) -> list[str]:
    """``times`` copies of the fixture tree (relative buffers and images travel with their assets)."""
    for k in range(times):
        shutil.copytree(fixtures, folder / f"copy{k}", dirs_exist_ok=True)
    return sorted(str(p) for p in folder.rglob("*") if p.suffix in (".gltf", ".glb"))


def cli(args: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Wall seconds of `gltf-physics ARGS` as its own process, and the process."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                                     os.environ.get("PYTHONPATH")]))}
    env.pop("GLTF_PHYSICS_SCHEDULER", None)  # the bench measures local clusters, not a running one
    env["XDG_CACHE_HOME"] = tempfile.mkdtemp()  # … nor a `cluster start` cluster
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gltf_physics", *args], capture_output=True, text=True,
                          env=env, check=False)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"gltf-physics {' '.join(args[:3])} …: exit {done.returncode}: {done.stderr[-500:]}")
    return seconds, done


def ran_where(paths: list[str], command: str, workers: int, options: dict[str, float]) -> str:
    """What the rule decides for this job (the same call the command makes)."""
    from gltf_physics.scale import sizing

    if workers == 1:
        return "here"
    sizes = {p: os.path.getsize(p) for p in paths}
    return "here" if sizing.in_process(sizing.estimate(command, sizes, dict.fromkeys(sizes, options)),
                                       workers, False) else "dask"


def workload_table(name: str, counts: list[int], run: callable) -> None:  # type: ignore[valid-type]
    """Run ``run(workers) -> (seconds, work_seconds, ran, table)`` for each count; print the rows and check
    every count gave the same table."""
    print(f"\n{name} ({load()})")
    print(f"{'workers':>7} {'ran':>5} {'wall s':>8} {'work s':>8} {'speed-up':>9} {'efficiency':>10}  same table")
    base = reference = None
    for n in counts:
        seconds, work, ran, table = run(n)
        base = base or seconds
        reference = table if reference is None else reference
        same = "yes" if table.equals(reference) else "NO"
        shown = "–" if work != work else f"{work:.2f}"  # NaN: no rows' seconds (a sweep)
        print(f"{n:>7} {ran:>5} {seconds:>8.2f} {shown:>8} {base / seconds:>8.2f}× {base / seconds / n:>10.2f}"
              f"  {same}", flush=True)


def batch_workload(paths: list[str], command: str, options: list[str], folder: Path):  # type: ignore[no-untyped-def]
    opts = {"duration": float(options[1])} if options else {}

    def run(n: int) -> tuple[float, float, str, object]:
        out = folder / f"{command}-{n}.parquet"
        seconds, _ = cli(["batch", command, *paths, *options, "--workers", str(n), "-q", "--out", str(out)])
        table = pq.read_table(out)
        work = sum(s or 0.0 for s in table.column("seconds").to_pylist())
        return seconds, work, ran_where(paths, command, n, opts), table.drop(["seconds"])

    return run


def sweep_workload(runs: int, duration: float, folder: Path):  # type: ignore[no-untyped-def]
    def run(n: int) -> tuple[float, float, str, object]:
        out = folder / f"sweep-{n}.parquet"
        seconds, _ = cli(["sweep", str(EXAMPLE), "--vary", f"{GRAVITY}=uniform(0,2)", "--runs", str(runs),
                          "--duration", str(duration), "--workers", str(n), "-q", "--out", str(out)])
        # No rows' seconds in a sweep's table; where it ran, it decides from its own second run's time (unseen here).
        return seconds, float("nan"), "here" if n == 1 else "rule", pq.read_table(out)

    return run


MARGIN = 1.1  # the probes' cost per copy or run varies by a few % between runs: size above the target


def copies_for(work: float, per_copy: float) -> int:
    """Copies of the fixture library whose one-worker rows' seconds reach ``work`` × MARGIN."""
    return max(1, math.ceil(work * MARGIN / per_copy))


def runs_for(work: float, per_run: float) -> int:
    """Sweep runs whose one-worker wall time reaches ``work`` × MARGIN (a multiple of 64: whole chunks)."""
    return 64 * max(1, math.ceil(work * MARGIN / per_run / 64))


def sized_simulate(fixtures: Path, once: list[str], work: float, duration: float, folder: Path) -> list[str]:
    """Enough copies of the library for ``work`` seconds of one-worker ``batch simulate --duration D``, from the
    rows' own seconds of one copy (``once``) on one worker here."""
    probe = folder / "probe-simulate.parquet"
    cli(["batch", "simulate", *once, "--duration", str(duration), "--workers", "1", "-q", "--out", str(probe)])
    per_copy = sum(s or 0.0 for s in pq.read_table(probe).column("seconds").to_pylist())
    times = copies_for(work, per_copy)
    print(f"simulate: one copy ({len(once)} files of {duration:g} s) is {per_copy:.2f} s of rows' own seconds "
          f"on one worker: {times} cop{'y' if times == 1 else 'ies'} for ≥ {work:g} s", flush=True)
    return copies(fixtures, folder / "sized", times)


def sized_sweep(work: float, duration: float, folder: Path) -> int:
    """Enough sweep runs for ``work`` seconds of one-worker wall time, from a 512-run sweep on one worker (its
    process start counted in: a slight overestimate of a run's cost, which the margin more than covers)."""
    probe = 512
    seconds, _ = cli(["sweep", str(EXAMPLE), "--vary", f"{GRAVITY}=uniform(0,2)", "--runs", str(probe),
                      "--duration", str(duration), "--workers", "1", "-q", "--out", str(folder / "probe.parquet")])
    runs = runs_for(work, seconds / probe)
    print(f"sweep: {probe} runs of {duration:g} s took {seconds:.2f} s on one worker: {runs} runs for "
          f"≥ {work:g} s", flush=True)
    return runs


def few_files(paths: list[str]) -> None:
    """A batch of a few files against one process validating them."""
    one, _ = cli(["validate", *paths])
    two, _ = cli(["batch", "validate", *paths, "--workers", "2", "-q"])
    one, two = min(one, cli(["validate", *paths])[0]), min(two, cli(["batch", "validate", *paths, "--workers",
                                                                               "2", "-q"])[0])
    print(f"\n{len(paths)} files ({load()}): one `validate` {one:.2f} s, `batch validate --workers 2` {two:.2f} s "
          f"({two / one:.2f}× the one process; best of 2)")


def profile(paths: list[str], command: str, workers: int, options: dict[str, float]) -> None:
    """Phases of one batch on ``workers`` (in this process, forced onto Dask)."""
    from gltf_physics.scale.batch_driver import batch
    from gltf_physics.scale.table import to_table

    marks = [("start", time.perf_counter())]
    import distributed  # noqa: F401

    marks.append(("import Dask", time.perf_counter()))
    from gltf_physics.scale.cluster import open_client

    with open_client(workers=workers) as client:
        client.wait_for_workers(workers)
        marks.append(("cluster start", time.perf_counter()))
        batch(paths[:workers], command, client, **options)  # one small asset each: the runners start
        marks.append(("runners start (imports)", time.perf_counter()))
        table = batch(paths, command, client, **options)
        marks.append(("schedule + work + results", time.perf_counter()))
        to_table(table.to_pylist(), command)
        marks.append(("table", time.perf_counter()))
    marks.append(("cluster stop", time.perf_counter()))
    work = sum(s or 0.0 for s in table.column("seconds").to_pylist())
    print(f"\nprofile: batch {command} of {len(paths)} files on {workers} workers ({load()})")
    for (_, before), (name, after) in itertools.pairwise(marks):
        print(f"  {name:<28} {after - before:>7.2f} s")
    fixed = marks[3][1] - marks[0][1]
    print(f"  {'fixed cost (before a row)':<28} {fixed:>7.2f} s")
    print(f"  {'rows own seconds / workers':<28} {work / workers:>7.2f} s  (the work, ideally shared)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small workloads (≤ 3 minutes on 2 cores)")
    parser.add_argument("--workers", help="comma-separated counts (default: 1, 2, 4, … up to the cores)")
    parser.add_argument("--work", type=float, metavar="SECONDS",
                        help="size simulate and sweep to this much one-worker work, measured here (e.g. 60)")
    parser.add_argument("--only", default="few,validate,simulate,sweep,profile")
    args = parser.parse_args()
    fixtures = Path(os.environ.get("GLTF_PHYSICS_FIXTURES", ""))
    if not fixtures.is_dir():
        raise SystemExit("set GLTF_PHYSICS_FIXTURES to the fixture library")
    cores = os.cpu_count() or 1
    counts = [int(n) for n in args.workers.split(",")] if args.workers else \
        [2 ** k for k in range(cores.bit_length()) if 2 ** k <= cores]
    only = set(args.only.split(","))
    mode = f"work {args.work:g} s" if args.work else "quick" if args.quick else "full"
    print(f"{cores} cores, {mode} mode, workers {counts}, {load()}")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        many = copies(fixtures, folder / "assets", 4)
        fixtures_once = [p for p in many if "/copy0/" in p]
        if "few" in only:
            few_files(fixtures_once[:8])
        if "validate" in only:
            workload_table(f"batch validate, {len(many)} files", counts,
                           batch_workload(many, "validate", [], folder))
        if "simulate" in only:
            files, duration = (many, 3.0) if args.quick else (many, 6.0)  # full: ≥ 20 s of one-worker work
            if args.work:
                files, duration = sized_simulate(fixtures, fixtures_once, args.work, 6.0, folder), 6.0
            workload_table(f"batch simulate --duration {duration:g}, {len(files)} files", counts,
                           batch_workload(files, "simulate", ["--duration", str(duration)], folder))
        if "sweep" in only:
            runs, duration = (512, 3.0) if args.quick else (2048, 3.0)
            if args.work:
                runs = sized_sweep(args.work, duration, folder)
            workload_table(f"sweep of {EXAMPLE.name}, {runs} runs of {duration:g} s", counts,
                           sweep_workload(runs, duration, folder))
        if "profile" in only:
            profile(fixtures_once if args.quick else many, "simulate", counts[-1] if counts[-1] > 1 else 1,
                    {"duration": 1.0})
    print(f"\ndone ({load()})")


if __name__ == "__main__":
    main()
