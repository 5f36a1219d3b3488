"""A batch too small for worker processes (:mod:`.sizing`): every asset in one warm runner forked from here.

No Dask is imported and no cluster started; the isolation is the workers' own (:mod:`.isolation`): a crash, a
hang or a memory blow-up fails its row, and the next asset gets a freshly forked runner. The runner is forked
after this process has imported what the commands need, so it starts in milliseconds rather than the half
second a fresh interpreter spends on imports; :func:`prepare` forks it before the caller starts any thread (a
progress bar's), as forking is only safe from a single-threaded process (:func:`.isolation.can_fork`). A
runner replaced after a fault, or one for a caller that already runs threads, is a fresh interpreter instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .isolation import close_runner, preload, run_isolated, start_runner


def prepare(memory_mb: int) -> None:
    """Import what the commands need and start this thread's runner (warm where it can be)."""
    preload()
    start_runner(memory_mb, warm=True)


def run_here(command: str, todo: list[str], options: dict[str, dict[str, Any]], timeout: float,
             memory_mb: int) -> Iterator[dict[str, Any]]:
    """Rows of ``todo`` in order, one at a time, as each asset finishes (after :func:`prepare`)."""
    try:
        for path in todo:
            yield run_isolated(command, path, options[path], timeout, memory_mb, warm=True)
    finally:
        close_runner()
