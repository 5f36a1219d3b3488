"""`gltf-physics simulate`: run a scene on the engine and write poses, traces, events."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import UsageError, clean_errors, out
from .options import at_least, choice, suffix
from .overwrite import Source, refuse_overwrite
from .progress import RunProgress


@clean_errors
def simulate(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the result (.gltf/.glb).")] = None,
    duration: Annotated[float, typer.Option(help="Seconds to simulate.")] = 5.0,
    rate: Annotated[float, typer.Option(help="Steps per second.")] = 60.0,
    substeps: Annotated[int, typer.Option(help="Solver substeps per step.")] = 1,
    gravity: Annotated[tuple[float, float, float] | None, typer.Option(
        metavar="X Y Z", help="Override gravity (m/s²), e.g. --gravity 0 -1.62 0.")] = None,
    bake_run: Annotated[bool, typer.Option("--bake", help="With -o: add the run as an animation.")] = False,
    trace: Annotated[Path | None, typer.Option(
        metavar="T.csv|.parquet|.npz", help="Stream body poses per step to a file; the format by extension.")] = None,
    trace_every: Annotated[int, typer.Option(help="Keep one trace frame in N (t = 0 always).")] = 1,
    events: Annotated[Path | None, typer.Option(help="Write trigger events (JSON lines).")] = None,
    sets: Annotated[list[str] | None, typer.Option("--set", metavar="POINTER=JSON",
                                                   help="Set a glTF Object Model property before the run.")] = None,
    inputs: Annotated[Path | None, typer.Option(
        metavar="FILE.json", help='Timed changes: [{"time": s, "pointer": "/...", "value": ...}].')] = None,
    engine: Annotated[str, typer.Option(
        metavar="rapier|mujoco", help="The engine: rapier, or mujoco (the [mujoco] extra, through MJCF).")] = "rapier",
    joints: Annotated[str, typer.Option(
        metavar="multibody|impulse",
        help="Rapier: joint trees on reduced-coordinate multibodies (exact lengths and drives), or every "
             "joint on impulse joints (faster on long chains).")] = "multibody",
    graph: Annotated[int | None, typer.Option(
        "--graph", metavar="N", help="Run behaviour graph N of KHR_interactivity (default: the file's default "
                                     "graph).")] = None,
    no_graph: Annotated[bool, typer.Option("--no-graph", help="Run the physics without the behaviour graph.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
) -> None:
    """Simulate a scene on Rapier (or MuJoCo): final pose or baked animation, pose trace, trigger events.

    Every output is checked before the run and all of them are written together at the end: a failed run
    leaves no file behind.

    \b
    Example: gltf-physics simulate examples/tumbling_boxes.gltf --duration 3 --trace trace.csv --events events.jsonl
    """
    from ..api import load, read_scene
    from ..sim import World
    from ..sim.errors import SimulationError
    from ..sim.outputs import RunOutputs, run_and_write

    at_least("--duration", duration, 0, "the run's length in seconds")
    at_least("--rate", rate, 0, "the step rate in Hz", strictly=True)
    at_least("--substeps", substeps, 1, "the number of solver substeps")
    at_least("--trace-every", trace_every, 1, "the trace's frame interval")
    choice("--engine", engine, ["rapier", "mujoco"])
    choice("--joints", joints, ["multibody", "impulse"])
    if joints == "impulse" and engine != "rapier":
        raise UsageError("--joints impulse: only Rapier has impulse joints (MuJoCo's are always reduced coordinates)")
    if graph is not None and no_graph:
        raise UsageError("--graph N and --no-graph exclude each other")
    if graph is not None:
        at_least("--graph", graph, 0, "the behaviour graph's index")
    if bake_run and output is None:
        raise UsageError("--bake needs -o OUT")
    if output is not None:
        suffix("-o", output, [".gltf", ".glb"], "the output")
    outputs = RunOutputs(output=output, bake=bake_run, trace=trace, trace_every=trace_every, events=events)
    try:
        outputs.check()
    except SimulationError as e:  # an output option's problem, not the input's: said without the file's name
        raise UsageError(str(e)) from None
    assignments = [_parse_set(s) for s in sets or []]
    schedule = _load_schedule(inputs) if inputs is not None else None
    doc = load(src)
    refuse_overwrite([Source(src, doc.json), *([Source(inputs, references=False)] if inputs is not None else [])],
                     [("-o", output), ("--trace", trace), ("--events", events)])
    scene = read_scene(doc)
    world = World(scene, rate=rate, substeps=substeps, gravity=gravity, record=outputs.needs_recording,
                  engine=engine, graph=False if no_graph else graph,
                  **({"articulations": False} if joints == "impulse" else {}))
    for pointer, value in assignments:
        world.set(pointer, value)
    if schedule is not None:
        schedule.apply_due(world)  # time-0 changes, after --set
    # The hints are said once the first step has gone ahead: a file refused at build or at its first step (a
    # state gone non-finite) gets its one error line, with no hints before it.
    hints = [] if quiet else hint_lines(src, scene, doc.json)

    def each_step(w: Any) -> None:
        if hints:
            sys.stderr.write("".join(line + "\n" for line in hints))
            hints.clear()
        if schedule is not None:
            schedule.apply_due(w)

    with RunProgress("simulating", duration, rate) as progress:
        run_and_write(world, duration, doc, outputs, each_step=each_step, runner=progress.run)
    if not quiet:
        from .messages import simulate_summary

        for line in simulate_summary(src, world.scene, world, [output, trace, events]):
            out.print(line)
        say_graph(src, world)


def say_graph(src: Path, world: Any) -> None:
    """What became of the behaviour graph, on stderr: why it was refused, or its log and error counts."""
    from .common import clipped

    for problem in world.graph_errors:
        sys.stderr.write(clipped(f"{src}: behaviour graph not run: {problem}") + "\n")
    runner = world.graph
    if runner is not None:
        errors = "".join(f"; stopped: {line.message} ({line.pointer})" for line in runner.errors[:1])
        sys.stderr.write(clipped(f"{src}: behaviour graph ran: {len(runner.logs)} log lines{errors}") + "\n")


def say_hints(src: Path, scene: Any, gltf: Any, *, checked: bool = False) -> None:
    """The validator's hints that predict an odd run, one line each on stderr, before the run.

    Only for a run that goes ahead: a scene no engine can take is refused first (its one error line, no hints
    before it), unless the caller has ``checked`` it already (a World was built).
    """
    if not checked:
        from ..sim.preflight import check_scene

        check_scene(scene)
    for line in hint_lines(src, scene, gltf):
        sys.stderr.write(line + "\n")


def hint_lines(src: Path, scene: Any, gltf: Any) -> list[str]:
    """The validator's hints that predict an odd run, one clipped line each (the scene already checked)."""
    from .common import clipped
    from .messages import odd_run_hints

    return [clipped(line) for line in odd_run_hints(src, scene, gltf)]


def _parse_set(text: str) -> tuple[str, Any]:
    pointer, sep, value = text.partition("=")
    if not sep or not pointer.startswith("/"):
        raise UsageError(f"--set {text!r}: expected POINTER=JSON, e.g. /nodes/3/.../gravityFactor=0.5")
    try:
        return pointer, json.loads(value)
    except json.JSONDecodeError as e:
        raise UsageError(f"--set {text!r}: the value is not JSON ({e.msg})") from None


def _load_schedule(path: Path) -> Any:
    from ..sim.inputs import InputSchedule, load_inputs

    try:
        return InputSchedule(load_inputs(path))
    except ValueError as e:
        raise UsageError(f"--inputs {e}") from None
