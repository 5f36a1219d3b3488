"""A run's progress bar on a terminal, and the one line Ctrl-C prints.

The bar appears only where someone watches (stderr is a terminal) and only once a run has taken ``SHOW_AFTER``
seconds of wall time: short runs, pipes and tests print nothing. Ctrl-C during the run says how far it got,
``interrupted at t = 3.2 s; nothing written``, and exits 130 (every output is written at the end, all together,
so an interrupted run leaves none behind).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

import typer

from .options import number

SHOW_AFTER = 2.0  # seconds of wall time before a bar appears
INTERRUPTED = 130  # the shell's code for a run stopped by SIGINT


class RunProgress:
    """Pass :meth:`on_step` to ``World.run`` (or a runner) inside ``with RunProgress(...)``."""

    def __init__(self, what: str, seconds: float, rate: float, *, watched: bool | None = None) -> None:
        self.what = what
        self.steps = max(0, round(seconds * rate))
        self.time = 0.0  # simulated seconds reached
        self.done = 0
        self.watched = sys.stderr.isatty() if watched is None else watched
        self._start = time.monotonic()
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> RunProgress:
        self._start = time.monotonic()
        return self

    def run(self, world: Any, seconds: float, on_step: Callable[[Any], None] | None = None) -> None:
        """``world.run(seconds)`` calling ``on_step`` then :meth:`on_step` after every step (a runner for
        :func:`~gltf_physics.sim.outputs.run_and_write`)."""
        def step(w: Any) -> None:
            if on_step is not None:
                on_step(w)
            self.on_step(w)

        world.run(seconds, on_step=step)

    def on_step(self, world: Any) -> None:
        """Called after every step: remembers the time reached; shows or advances the bar."""
        self.time = world.time
        self.done += 1
        if not self.watched:
            return
        if self._bar is None:
            if time.monotonic() - self._start >= SHOW_AFTER:
                self._show()
        else:
            self._bar.update(self._task, completed=self.done)

    def _show(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._bar = Progress(TextColumn(self.what), BarColumn(), MofNCompleteColumn(), TextColumn("steps, ETA"),
                             TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self._bar.start()
        self._task = self._bar.add_task(self.what, total=self.steps, completed=self.done)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.stop()
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            sys.stderr.write(interrupted_line(self.time) + "\n")
            raise typer.Exit(INTERRUPTED) from None


def interrupted_line(seconds: float) -> str:
    """``interrupted at t = 3.2 s; nothing written``."""
    return f"interrupted at t = {number(round(seconds, 3))} s; nothing written"
