"""``batch``: one command over many assets on Dask, one isolated task per asset, one table of results."""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from . import lasting, sizing
from . import paths as asset_paths
from .main_guard import check_main_guard
from .table import journal_path, json_line, read_journal, read_rows, table_rows, to_table, write_rows
from .tasks import COMMANDS

if TYPE_CHECKING:
    import pyarrow as pa
    from distributed import Client

DEFAULT_TIMEOUT = 120.0
DEFAULT_MEMORY_MB = 4096


def batch(paths: Iterable[str | Path], command: str, client: Client | None = None, **kwargs: Any) -> pa.Table:
    """Run ``command`` (validate, info, convert, simulate) on every asset of ``paths`` and return the table
    (:func:`batch_rows`' rows as a pyarrow table, one row per asset, sorted by path)."""
    return to_table(batch_rows(paths, command, client, **kwargs), command)


def batch_rows(paths: Iterable[str | Path], command: str, client: Client | None = None, *,
               workers: int | None = None, scheduler: str | None = None, timeout: float = DEFAULT_TIMEOUT,
               memory_mb: int = DEFAULT_MEMORY_MB, out: str | Path | None = None, resume: bool = False,
               on_start: Callable[[int, int], None] | None = None,
               on_row: Callable[[dict[str, Any]], None] | None = None, **options: Any) -> list[dict[str, Any]]:
    """Run ``command`` (validate, info, convert, simulate) on every asset of ``paths``; the table's rows.

    The assets run as Dask tasks on ``client`` (else the cluster at ``scheduler``, else a local cluster of
    ``workers`` processes, else a cluster started by ``gltf-physics cluster start`` or named by
    ``GLTF_PHYSICS_SCHEDULER``; a job too small to win from processes runs here: :mod:`.sizing`), each asset in
    an isolated process with ``timeout`` seconds and ``memory_mb`` of address
    space: a crash, hang or memory exhaustion fails that asset's row only. ``options`` are the command's
    (convert: ``to``, ``out_dir``; simulate: ``duration``, ``rate``, ``substeps``). With ``out`` the table is
    written there (``.parquet`` or ``.jsonl``); ``resume`` keeps the rows already there (or in the journal of an
    interrupted run) and runs only the other assets. ``on_start(todo, done)`` is called once, ``on_row(row)``
    as each asset finishes.
    """
    if command not in COMMANDS:
        raise ValueError(f"unknown batch command {command!r} (one of {', '.join(COMMANDS)})")
    assets = asset_paths.expand(paths)
    out_path = Path(out) if out is not None else None
    kept = _kept_rows(out_path, command, set(assets)) if resume and out_path is not None else {}
    todo = [a for a in assets if a not in kept]
    per_asset = _asset_options(command, options, todo)
    here, address, workers = _where(command, todo, per_asset, client, workers, scheduler)
    if here:  # before on_start, which may start threads (a progress bar): the runner forks from one thread
        from .batch_local import prepare, run_here

        prepare(memory_mb)
    if on_start is not None:
        on_start(len(todo), len(kept))
    rows = list(kept.values())
    with _journal(out_path, rows) as journal:
        results = run_here(command, todo, per_asset, timeout, memory_mb) if here else \
            _on_dask(command, todo, per_asset, client, workers, address, timeout, memory_mb) if todo else iter(())
        for row in results:
            rows.append(_record({**row, "command": command}, journal, on_row))
        if out_path is not None:
            write_rows(rows, command, out_path)
    return table_rows(rows, command)


def _record(row: dict[str, Any], journal: IO[str] | None,
            on_row: Callable[[dict[str, Any]], None] | None) -> dict[str, Any]:
    """Journal the finished row first (an interruption in ``on_row`` must not lose it), then report it."""
    if journal is not None:
        journal.write(json_line(row))
        journal.flush()
    if on_row is not None:
        on_row(row)
    return row


def _where(command: str, todo: list[str], options: dict[str, dict[str, Any]], client: Client | None,
           workers: int | None, scheduler: str | None) -> tuple[bool, str | None, int | None]:
    """(run here?, the scheduler address to use, the local workers to start) for this job (:mod:`.sizing`)."""
    if client is not None or scheduler is not None or not todo:
        return False, scheduler, workers
    running = lasting.discover() if workers is None else None
    sizes = {p: _file_size(p) for p in todo}
    count = sizing.local_workers(workers, os.cpu_count() or 1, len(todo))
    if sizing.in_process(sizing.estimate(command, sizes, options), count, running is not None):
        if running is None:  # a script that works on a few files must not break on many: the same rule
            check_main_guard()
        return True, None, None
    return False, running, None if running is not None else count


def _on_dask(command: str, todo: list[str], options: dict[str, dict[str, Any]], client: Client | None,
             workers: int | None, scheduler: str | None, timeout: float,
             memory_mb: int) -> Iterator[dict[str, Any]]:
    """Rows from the Dask cluster the arguments choose, as its tasks finish."""
    from .batch_dask import run_on
    from .cluster import open_client

    with open_client(client, workers=workers, scheduler=scheduler) as dask_client:
        yield from run_on(dask_client, command, lambda threads: _chunks(todo, options, threads), timeout, memory_mb)


def _chunks(todo: list[str], options: dict[str, dict[str, Any]],
            threads: int) -> list[list[tuple[str, dict[str, Any]]]]:
    """The assets grouped into tasks, largest file first, in the order they should start.

    A batch's time is often in a few large assets (in bench/batch.py, the 2 % of 10,000 nodes are three quarters
    of it). Dealt out in path order, one of them may start last on one worker while the others run dry; largest
    first, they start at once and the many small assets fill in behind them. File size is the cost estimate:
    one ``stat``, and reading and checking an asset grow with it. Ties go by path: the same tasks every run.

    A task holds at most an eighth of a thread's share of the bytes (unless one asset alone is more), so the large
    assets are spread over the threads. Its count of assets shrinks as the batch goes (guided self-scheduling):
    half a thread's share of the assets left, at most 64, at least 4 (fewer for a small batch). Early tasks are
    then big, which matters because each task costs the client, scheduler and worker ~10 ms of CPU taken from the
    runners on a small machine; the last ones are small, so the workers end within a few small assets of each
    other.
    """
    sizes = {p: _file_size(p) for p in todo}
    order = sorted(todo, key=lambda p: (-sizes[p], p))
    budget = sum(sizes.values()) / (8 * threads)
    least = max(1, min(4, len(todo) // (8 * threads)))
    chunks: list[list[tuple[str, dict[str, Any]]]] = []
    first = 0
    while first < len(order):
        most = min(64, max(least, math.ceil((len(order) - first) / (2 * threads))))
        end, filled = first + 1, sizes[order[first]]
        while end < len(order) and end - first < most and filled + sizes[order[end]] <= budget:
            filled += sizes[order[end]]
            end += 1
        chunks.append([(p, options[p]) for p in order[first:end]])
        first = end
    return chunks


def _file_size(path: str) -> int:
    """Bytes of the asset; 0 for a path that cannot be read (its row fails, quickly)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _asset_options(command: str, options: dict[str, Any], todo: list[str]) -> dict[str, dict[str, Any]]:
    """Per-asset options; convert gets each asset's output path under ``out_dir``, mirroring the input tree."""
    if command != "convert":
        return dict.fromkeys(todo, options)
    out_dir = options.get("out_dir")
    if out_dir is None:
        raise ValueError("batch convert needs out_dir (the folder the converted files go to)")
    outputs = asset_paths.mirrored(todo, out_dir)
    return {p: {"to": options.get("to"), "output": outputs[p]} for p in todo}


def _kept_rows(out: Path, command: str, assets: set[str]) -> dict[str, dict[str, Any]]:
    """Rows of a previous run of ``command`` (the final table, then its journal), by path, among ``assets``."""
    rows: list[dict[str, Any]] = []
    if out.exists():
        rows += read_rows(out)
    if journal_path(out).exists():
        rows += read_journal(journal_path(out))
    return {r["path"]: r for r in rows if r.get("command") == command and r["path"] in assets}


@contextlib.contextmanager
def _journal(out: Path | None, kept: list[dict[str, Any]]) -> Iterator[IO[str] | None]:
    """The journal beside ``out``, rewritten with the kept rows; removed once the table is written. An
    interruption (an exception, Ctrl-C) leaves it for ``resume``."""
    if out is None:
        yield None
        return
    path = journal_path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        f.writelines(json_line(r) for r in kept)
        f.flush()
        yield f
    path.unlink()
