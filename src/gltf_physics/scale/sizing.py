"""When a job is too small to win from worker processes, and how many to start: the rule, in numbers.

A local Dask cluster costs a fixed start before the first asset runs: importing Dask, the scheduler and one process
per worker, then one runner per worker importing the package (``bench/scale_out.py``'s profile:
:data:`LOCAL_START_S` on a 2-core machine). N workers can only save ``work × (1 − 1/N)``, so a job whose estimated
work is under ``start × N / (N − 1)`` (twice the start for 2 workers, about the start for 16) runs in this process
instead, in one warm runner forked from it (the same isolation, no start). A job on a cluster that is already
running (``cluster start``, ``GLTF_PHYSICS_SCHEDULER``) pays only the connection, :data:`CONNECT_S`. An explicit
client or ``--scheduler`` is always used as given.

The estimate is per command, from what is known before any asset is read: bytes for validate, info and convert
(reading and checking grow with the file), steps for simulate (the physics dominates); a sweep times its first run
instead (:mod:`.sweep_driver`). The constants are per-asset seconds measured on the fixture library on one core of
this project's 2-core machines; an estimate only decides where the job runs, never what it computes.
"""

from __future__ import annotations

from typing import Any

LOCAL_START_S = 5.5  # to a 2-worker local cluster's first row: Dask's import, cluster and runners' start
CONNECT_S = 0.6  # importing distributed and connecting to a running scheduler
PER_FILE_S = 0.004  # opening, parsing and the fixed checks of one small asset
PER_BYTE_S = 1e-7  # reading, validating or converting, per byte of the asset file
PER_STEP_S = 1.5e-4  # one physics step of a small scene (a handful of bodies)


def estimate(command: str, sizes: dict[str, int], options: dict[str, dict[str, Any]]) -> float:
    """Seconds of work for ``command`` on assets of these byte ``sizes`` with their per-asset ``options``."""
    total = 0.0
    for path, size in sizes.items():
        total += PER_FILE_S + PER_BYTE_S * size
        if command == "simulate":
            total += PER_STEP_S * steps(options.get(path, {}))
    return total


def steps(options: dict[str, Any]) -> float:
    """Physics steps of one run: duration × rate × substeps (the simulate defaults where unset)."""
    return float(options.get("duration", 5.0)) * float(options.get("rate", 60.0)) * int(options.get("substeps", 1))


def in_process(work: float, workers: int, running_cluster: bool) -> bool:
    """Whether ``work`` estimated seconds should run here rather than on ``workers`` (a cluster already
    running, or a local one to start)."""
    if running_cluster:
        return work < 2.0 * CONNECT_S  # its size unknown before connecting: the 2-worker break-even
    if workers <= 1:
        return True  # one local worker is one runner, plus a cluster's start for nothing
    return work < LOCAL_START_S * workers / (workers - 1)


def local_workers(requested: int | None, cores: int, tasks: int) -> int:
    """Workers for a local cluster: the request (default: the cores), never more than there are tasks."""
    return max(1, min(requested or cores, tasks))
