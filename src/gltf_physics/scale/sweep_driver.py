"""``sweep``: one scene run many times on Dask with parameters varied by glTF Object Model pointers.

Each run is one task; its values are fixed up front from (seed, run index) (:mod:`.specs`), and results are
assembled in run order, so the tables are byte-identical whatever the worker count. Tables:

- runs: one row per (run, body): ``run``, one column per varied pointer (named by the pointer), ``node``,
  ``name``, the final world pose ``tx, ty, tz, qx, qy, qz, qw`` and ``events`` (trigger events in the run);
- trajectories (optional): ``run, time, node, name, tx … qw``, every body at t = 0 and after every step,
  streamed to Parquet one run (one row group) at a time.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..gltf.files import Output, write_all
from . import lasting, sizing, sweep_task
from .main_guard import check_main_guard
from .specs import Plan, plan
from .table import table_bytes

if TYPE_CHECKING:
    from distributed import Client

POSE = ["tx", "ty", "tz", "qx", "qy", "qz", "qw"]
_IN_FLIGHT = 4096  # runs submitted ahead of the one being written: bounds client memory on huge sweeps


def sweep(scene: str | Path, vary: dict[str, Any], runs: int | None = None, client: Client | None = None, *,
          duration: float = 5.0, seed: int = 0, rate: float = 60.0, substeps: int = 1,
          out: str | Path | None = None, trajectories: str | Path | None = None, workers: int | None = None,
          scheduler: str | None = None, on_start: Callable[[int], None] | None = None,
          on_run: Callable[[int], None] | None = None) -> pa.Table:
    """Run ``scene`` ``runs`` times (default: the grid size) varying each pointer of ``vary`` by its SPEC
    (``"uniform(0,5)"``, ``"[uniform(0,5),2,0]"``, ``"choice(1,2)"``, ``"grid(0,1,5)"``, ``"normal(0,1)"``,
    or a constant) and return the runs table; ``out`` writes it (``.parquet`` or ``.jsonl``) and
    ``trajectories`` streams every run's pose trace to Parquet. Tasks run on ``client`` (else the cluster at
    ``scheduler``, else a local cluster of ``workers`` processes, else a running ``cluster start`` cluster or
    ``GLTF_PHYSICS_SCHEDULER``'s; a sweep too small to win from processes runs here: :mod:`.sizing`).
    ``on_start(runs)`` once, ``on_run(run)`` as each run is written."""
    the_plan = plan(vary, runs)
    for pointer in the_plan.pointers:
        sweep_task.check_pointer(pointer)
    values = [the_plan.values(seed, r) for r in range(the_plan.runs)]
    if on_start is not None:
        on_start(the_plan.runs)
    results: list[dict[str, Any]] = []
    job = (str(scene), values, duration, rate, substeps, trajectories is not None)
    with _trajectory_writer(trajectories) as write_trajectory:
        for result in _results(job, client, workers, scheduler):
            if write_trajectory is not None:
                write_trajectory(result)
            result.pop("frames", None)
            results.append(result)
            if on_run is not None:
                on_run(result["run"])
    table = runs_table(the_plan, values, results)
    if out is not None:
        write_all([Output(Path(out), [table_bytes(table, Path(out))])])
    return table


def _results(job: tuple[Any, ...], client: Client | None, workers: int | None,
             scheduler: str | None) -> Iterator[dict[str, Any]]:
    """The runs' results in run order: here (a small sweep, :mod:`.sizing`) or on the chosen Dask cluster.

    Without a client or ``--scheduler``, the first two runs are made here and the second one's time is the
    estimate: every run is the same scene for the same duration, so runs × that time is the work, measured
    rather than guessed."""
    scene, values, duration, rate, substeps, trace = job
    first = 0
    if client is None and scheduler is None and values:
        running = lasting.discover() if workers is None else None
        if running is None:  # a script that works on a few runs must not break on many: the same rule
            check_main_guard()
        count = sizing.local_workers(workers, os.cpu_count() or 1, len(values))
        sweep_task.preload()
        # The first run reads the scene (cached for the others) and starts the engine: the second run's time,
        # both made here, is the one every other run will take.
        for index in range(min(2, len(values))):
            start = time.perf_counter()
            result = sweep_task.run(scene, index, values[index], duration, rate, substeps, trace)
            work = (len(values) - 2) * (time.perf_counter() - start)
            yield result
            first = index + 1
        if sizing.in_process(work, count, running is not None):
            for index in range(first, len(values)):
                yield sweep_task.run(scene, index, values[index], duration, rate, substeps, trace)
            return
        workers, scheduler = (None, running) if running is not None else (count, None)
    if first == len(values):
        return
    from .cluster import open_client

    with open_client(client, workers=workers, scheduler=scheduler) as dask_client:
        yield from _ordered(dask_client, *job, first=first)


def _ordered(client: Client, scene: str, values: list[dict[str, Any]], duration: float, rate: float,
             substeps: int, trace: bool, first: int = 0) -> Iterator[dict[str, Any]]:
    """Results of runs ``first``… in run order, whatever order the workers finish in."""
    todo = list(enumerate(values))[first:]
    size = chunk_size(len(todo), _threads(client))
    chunks = [todo[k:k + size] for k in range(0, len(todo), size)]
    from distributed import as_completed

    pending: dict[int, dict[str, Any]] = {}
    futures = as_completed()
    submitted, next_run = 0, first

    def submit_upto(run: int) -> None:
        nonlocal submitted
        while submitted < len(chunks) and chunks[submitted][0][0] < run:
            futures.add(client.submit(sweep_task.run_chunk, scene, chunks[submitted], duration, rate, substeps, trace,
                                      pure=False))
            submitted += 1

    submit_upto(_IN_FLIGHT)
    for future in futures:
        for result in future.result():  # a run's error (e.g. a bad value for the scene) stops the sweep
            pending[result["run"]] = result
        while next_run in pending:
            yield pending.pop(next_run)
            next_run += 1
        submit_upto(next_run + _IN_FLIGHT)


def chunk_size(runs: int, threads: int) -> int:
    """Runs per task: about eight tasks per worker thread (balance and a live progress bar), at most 64 runs."""
    return max(1, min(64, runs // max(1, 8 * threads)))


def _threads(client: Client) -> int:
    return sum(w.get("nthreads", 1) for w in client.scheduler_info().get("workers", {}).values()) or 1


def runs_table(the_plan: Plan, values: list[dict[str, Any]], results: list[dict[str, Any]]) -> pa.Table:
    """One row per (run, body) in run order, bodies in node order."""
    counts = [len(r["nodes"]) for r in results]
    columns: dict[str, Any] = {"run": pa.array(np.repeat([r["run"] for r in results], counts), pa.int64())}
    for pointer in the_plan.pointers:
        columns[pointer] = pa.array([values[r["run"]][pointer] for r, n in zip(results, counts, strict=True)
                                     for _ in range(n)])
    columns["node"] = pa.array(_concat([r["nodes"] for r in results], np.int64), pa.int64())
    columns["name"] = pa.array([name for r in results for name in r["names"]], pa.string())
    poses = _concat([r["poses"] for r in results], np.float64).reshape(-1, 7)
    for k, name in enumerate(POSE):
        columns[name] = pa.array(poses[:, k], pa.float64())
    columns["events"] = pa.array(np.repeat([r["events"] for r in results], counts), pa.int64())
    return pa.table(columns)


def trajectory_table(result: dict[str, Any]) -> pa.Table:
    """A run's trace in long format: a row per (time, body)."""
    times, frames = result["times"], result["frames"]
    bodies = len(result["nodes"])
    columns: dict[str, Any] = {
        "run": pa.array(np.full(len(times) * bodies, result["run"]), pa.int64()),
        "time": pa.array(np.repeat(times, bodies), pa.float64()),
        "node": pa.array(np.tile(result["nodes"], len(times)), pa.int64()),
        "name": pa.array(result["names"] * len(times), pa.string()),
    }
    flat = frames.reshape(-1, 7)
    for k, name in enumerate(POSE):
        columns[name] = pa.array(flat[:, k], pa.float64())
    return pa.table(columns)


def _concat(parts: list[np.ndarray], dtype: type) -> np.ndarray:
    return np.concatenate(parts).astype(dtype) if parts else np.empty(0, dtype)


@contextlib.contextmanager
def _trajectory_writer(path: str | Path | None) -> Iterator[Callable[[dict[str, Any]], None] | None]:
    """A function streaming one run's trace to ``path`` (Parquet), written to a temporary file then renamed;
    an interrupted sweep leaves no partial table."""
    if path is None:
        yield None
        return
    target = Path(path)
    temp = target.with_name(f".{target.name}.partial")
    writer: pq.ParquetWriter | None = None
    try:
        def write(result: dict[str, Any]) -> None:
            nonlocal writer
            table = trajectory_table(result)
            if writer is None:
                writer = pq.ParquetWriter(temp, table.schema)
            writer.write_table(table)

        yield write
        if writer is None:  # no run at all: still an empty table with the schema
            writer = pq.ParquetWriter(temp, trajectory_table(_empty_result()).schema)
        writer.close()
        temp.replace(target)
    finally:
        if temp.exists():
            if writer is not None:
                writer.close()
            temp.unlink()


def _empty_result() -> dict[str, Any]:
    return {"run": 0, "times": np.empty(0), "frames": np.empty((0, 0, 7)), "nodes": np.empty(0, np.int64),
            "names": []}
