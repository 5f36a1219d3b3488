"""The Dask client a batch or sweep runs on: the caller's, an existing cluster's, or a local one it starts."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
from collections.abc import Iterator

import dask
from distributed import Client, LocalCluster

from .isolation import ONE_THREAD_ENV
from .main_guard import check_main_guard

# Background chores of a local cluster's servers, slowed or off. At their defaults (an event-loop tick every 20 ms
# in the scheduler, each nanny and each worker; a stack-sampling profiler every 10 ms in each worker; system and
# memory monitors every 0.5 s and 0.1 s) they cost ~10 % of a core on an idle 2-worker cluster (~2 % with these
# settings): CPU taken from the runners, since client, scheduler and workers share the machine's cores.
# What they feed is the dashboard (off here) and blocked-loop warnings (silenced here); the memory monitor still
# runs, so a worker that outgrows its limit is still paused or restarted, within 0.5 s instead of 0.1 s.
_QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "500ms",
}


@contextlib.contextmanager
def open_client(client: Client | None = None, *, workers: int | None = None,
                scheduler: str | None = None) -> Iterator[Client]:
    """``client`` itself if given; else a client of the cluster at ``scheduler`` (``tcp://host:port``); else a
    local cluster of ``workers`` single-threaded processes (default: the core count), closed on exit. (The
    commands' choice among these, a running ``cluster start`` cluster and no cluster at all is theirs:
    :mod:`.lasting`, :mod:`.sizing`.)"""
    if client is not None:
        yield client
        return
    if scheduler is not None:
        with Client(scheduler, timeout="30s") as remote:
            yield remote
        return
    check_main_guard()  # before a process starts: a script without the guard would re-run in each worker
    with local_cluster(workers or os.cpu_count() or 1) as (_cluster, local):
        yield local


@contextlib.contextmanager
def local_cluster(n: int) -> Iterator[tuple[LocalCluster, Client]]:
    """A local cluster of ``n`` single-threaded worker processes on 127.0.0.1 only, and a client of it."""
    _quiet()
    # Processes, one thread each: the work is Python (the GIL) and every thread keeps its own runner process.
    # Workers' log lines (e.g. a heartbeat racing the shutdown) would bury the progress bar and the summary;
    # what goes wrong with an asset is in its row.
    # No dashboard; the scheduler's health/metrics HTTP endpoint still listens, on a free local port rather than
    # 8787 (taken by any other cluster on the machine, which made Dask warn).
    # The settings are read when the servers are made (the nannies hand them to the worker processes), so they
    # apply to this cluster only, not to the caller's code that runs while it is open.
    with dask.config.set(_QUIET), _workers_ignore_ctrl_c():
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                               silence_logs=logging.CRITICAL, env=ONE_THREAD_ENV)
    with cluster, Client(cluster) as local:
        yield cluster, local


@contextlib.contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Start the worker processes with Ctrl-C ignored. A terminal's Ctrl-C goes to every process of the
    foreground group: each worker would print a KeyboardInterrupt traceback while the caller, which alone
    handles it, stops the cluster anyway. An ignored signal stays ignored in a spawned process (and Python and
    asyncio then leave it so); the caller's own handler is back once the workers are up."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to change
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _quiet() -> None:
    # A local cluster's start-up and shutdown chatter (INFO/WARNING lines) would bury the progress bar.
    for name in ("distributed", "distributed.worker", "distributed.scheduler", "distributed.nanny",
                 "distributed.core", "distributed.batched", "distributed.comm"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
