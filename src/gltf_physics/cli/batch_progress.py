"""The progress bar (ok/failed counts, ETA) and the summary table of `batch`."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from .common import out

_SHOWN_FAILURES = 20


class BatchProgress:
    """Receives ``start(todo, done)`` and each finished row from the batch; renders on stderr."""

    def __init__(self, command: str, *, quiet: bool = False) -> None:
        self.command = command
        self.quiet = quiet
        self.counts: Counter[str] = Counter()
        self.skipped = 0
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("[green]ok {task.fields[ok]}[/green] [red]failed {task.fields[failed]}[/red]"),
            TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
            console=Console(stderr=True), disable=quiet or not sys.stderr.isatty())
        self.task = self.progress.add_task(command, total=None, ok=0, failed=0)

    def __enter__(self) -> BatchProgress:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.progress.stop()

    def start(self, todo: int, done: int) -> None:
        """The number of assets to run, and of rows kept from a previous run (``--resume``). The bar (and its
        refresh thread) starts here, not on entering: a small batch forks its runner before, from one thread."""
        self.skipped = done
        self.progress.update(self.task, total=todo)
        self.progress.start()

    def row(self, row: dict[str, Any]) -> None:
        """One asset finished."""
        self.counts[row["status"]] += 1
        self.progress.update(self.task, advance=1, ok=self.counts["ok"], failed=self.counts["failed"])

    def interrupted(self, table: Path | None) -> None:
        """Say what an interruption kept (even when quiet: the exit alone would not say it)."""
        done = sum(self.counts.values())
        kept = f"; --resume --out {table} does the rest" if table is not None else ""
        sys.stderr.write(f"interrupted after {done} asset(s){kept}\n")

    def summary(self, rows: list[dict[str, Any]]) -> None:
        """Assets and time by status, then the failed assets with their reasons (nothing when quiet)."""
        if self.quiet:
            return
        table = Table("status", "assets", "seconds", box=None, title=f"batch {self.command}")
        for status in ("ok", "failed"):
            mine = [r for r in rows if r["status"] == status]
            table.add_row(status, str(len(mine)), f"{sum(r['seconds'] or 0.0 for r in mine):.2f}")
        if self.skipped:
            table.caption = f"{sum(self.counts.values())} run now, {self.skipped} kept from the previous run"
        out.print(table)
        failed = [r for r in rows if r["status"] != "ok"]
        for r in failed[:_SHOWN_FAILURES]:
            out.print(f"  failed {r['path']}: {r['reason']}", soft_wrap=True)
        if len(failed) > _SHOWN_FAILURES:
            out.print(f"  … and {len(failed) - _SHOWN_FAILURES} more (see the table)")
