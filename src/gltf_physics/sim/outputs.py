"""Run a World and write what a `simulate` asks for — all of it, or nothing (docs/cli.rst).

Every output path is checked before the run (format by extension, a folder that can exist, no two outputs
naming one file). The trace is streamed to a temporary file as the run goes (bounded memory), events and the
glTF result are added at the end, and all of them appear under their real names together; a failure at any
point (bad input found late, a numerical failure, a full disk) leaves none of them behind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..gltf.document import Document
from ..gltf.files import Output, OutputSet, check_writable
from ..gltf.io import plan_save
from .errors import SimulationError
from .to_gltf import bake, write_final_pose
from .trace import events_text
from .trace_writers import TraceWriter, check_trace_path, kept_frames, open_trace

GLTF_SUFFIXES = (".gltf", ".glb")


@dataclass(frozen=True)
class RunOutputs:
    """What a run writes: the glTF result (final pose, or the run baked with ``bake``), trace, events."""

    output: Path | None = None
    bake: bool = False
    trace: Path | None = None
    trace_every: int = 1
    events: Path | None = None

    def check(self) -> None:
        """Refuse impossible outputs before any work: formats, folders, clashes, option combinations."""
        if self.bake and self.output is None:
            raise SimulationError("--bake needs -o OUT")
        if self.output is not None and self.output.suffix.lower() not in GLTF_SUFFIXES:
            raise SimulationError(f"-o {self.output}: OUT must end in .gltf or .glb")
        if self.trace_every < 1:
            raise SimulationError(f"--trace-every must be a whole number ≥ 1, not {self.trace_every}")
        if self.trace is not None:
            check_trace_path(self.trace)
        named = [(p, what) for p, what in ((self.output, "-o"), (self.trace, "--trace"), (self.events, "--events"))
                 if p is not None]
        for path, what in named:
            check_writable(path, what)
        resolved = [p.resolve() for p, _ in named]
        if len(set(resolved)) != len(resolved):
            raise SimulationError("two outputs name the same file: " + ", ".join(f"{w} {p}" for p, w in named))

    @property
    def needs_recording(self) -> bool:
        """Whether the whole run must be kept in memory (only a bake needs every frame at once)."""
        return self.bake


def run_and_write(world: Any, seconds: float, doc: Document, outputs: RunOutputs,
                  each_step: Callable[[Any], None] | None = None,
                  runner: Callable[[Any, float, Callable[[Any], None]], None] | None = None) -> None:
    """Run ``world`` for ``seconds`` and write ``outputs`` together at the end (nothing on failure).

    ``each_step(world)`` runs after every step (timed inputs); ``runner(world, seconds, on_step)`` replaces
    ``world.run`` (e.g. to show progress).
    """
    outputs.check()
    with OutputSet() as files:
        writer = _open_trace(world, seconds, outputs, files)

        def on_step(w: Any) -> None:
            if each_step is not None:
                each_step(w)
            if writer is not None:
                _offer(writer, w)

        try:
            if writer is not None:
                _offer(writer, world)  # t = 0
            (runner or _plain_run)(world, seconds, on_step)
        except BaseException:
            if writer is not None:
                writer.discard()
            raise
        if writer is not None:
            writer.close()
        if outputs.events is not None:
            files.add(Output(outputs.events, [events_text(run_events(world)).encode("utf-8", "replace")]))
        if outputs.output is not None:
            result = bake(world.recording, doc) if outputs.bake else write_final_pose(world, doc)
            for out in plan_save(result, outputs.output):
                files.add(out)
        files.commit()


def run_events(world: Any) -> list[dict[str, Any]]:
    """The World's trigger events with its behaviour graph's ``debug/log`` lines and errors, in time order (a
    trigger event before a graph line of the same time: the graph ran after the step that found it)."""
    events = world.events()
    lines = graph_lines(world)
    return sorted(events + lines, key=lambda e: e["time"]) if lines else events


def graph_lines(world: Any) -> list[dict[str, Any]]:
    """The graph's lines as events: refusals (time 0), ``debug/log`` lines and run-time errors."""
    lines = [{"time": 0.0, "event": "graph_error", "message": text, "pointer": ""}
             for text in getattr(world, "graph_errors", [])]
    runner = getattr(world, "graph", None)
    if runner is not None:
        lines += [{"time": x.time, "event": "log", "message": x.message, "pointer": x.pointer} for x in runner.logs]
        lines += [{"time": x.time, "event": "graph_error", "message": x.message, "pointer": x.pointer}
                  for x in runner.errors]
    return sorted(lines, key=lambda e: e["time"])


def _open_trace(world: Any, seconds: float, outputs: RunOutputs, files: OutputSet) -> TraceWriter | None:
    if outputs.trace is None:
        return None
    frames = world.steps_for(seconds) + 1
    stream = files.stream(outputs.trace)
    names = list(world.names)
    return open_trace(outputs.trace, stream, [int(n) for n in world.nodes], names,
                      frames=frames, every=outputs.trace_every)


def _offer(writer: TraceWriter, world: Any) -> None:
    _, translations, rotations = world.poses()
    writer.frame(world.time, translations, rotations)


def _plain_run(world: Any, seconds: float, on_step: Callable[[Any], None]) -> None:
    world.run(seconds, on_step=on_step)


def frames_written(steps: int, every: int) -> int:
    """Rows per body a trace of ``steps`` steps keeps with ``--trace-every every`` (t = 0 included)."""
    return kept_frames(steps + 1, every)
