"""A batch too small for worker processes (:mod:`.sizing`): every asset in one warm runner forked from here.

No Dask is imported and no cluster started; the isolation is the workers' own (:mod:`.isolation`): a crash, a
hang or a memory blow-up fails its row, and the next asset gets a freshly forked runner. The runner is forked
after this process has imported what the commands need, so it starts in milliseconds rather than the half
second a fresh interpreter spends on imports.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .isolation import close_runner, preload, run_isolated


def run_here(command: str, todo: list[str], options: dict[str, dict[str, Any]], timeout: float,
             memory_mb: int) -> Iterator[dict[str, Any]]:
    """Rows of ``todo`` in order, one at a time, as each asset finishes."""
    preload()
    try:
        for path in todo:
            yield run_isolated(command, path, options[path], timeout, memory_mb, warm=True)
    finally:
        close_runner()
