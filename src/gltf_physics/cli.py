"""The `gltf-physics` command (DESIGN §4): a thin typer layer over the library.

Every command turns expected failures (unreadable or unsafe input, bad options) into one line on stderr
naming the file and the JSON pointer or byte offset, and exit code 2. Set GLTF_PHYSICS_DEBUG=1 to see
tracebacks of unexpected errors.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from .gltf.errors import GltfError
from .sim.errors import SimulationError

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="Read, validate, convert and simulate physics in glTF files.")
out = Console(highlight=False)
F = TypeVar("F", bound=Callable[..., Any])


class UsageError(Exception):
    """A bad option value: reported like unreadable input (exit 2)."""


def fail(message: str) -> None:
    sys.stderr.write(message.replace("\n", " ") + "\n")
    raise typer.Exit(2)


def clean_errors(func: F) -> F:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except (GltfError, UsageError, SimulationError) as e:
            fail(str(e))
        except OSError as e:
            fail(f"{e.filename or ''}: {e.strerror or e}".lstrip(": "))
        except Exception as e:  # a bug, not bad input: still one line unless debugging
            if os.environ.get("GLTF_PHYSICS_DEBUG"):
                raise
            fail(f"internal error: {type(e).__name__}: {e}")
    return wrapper  # type: ignore[return-value]


@app.command()
@clean_errors
def info(file: Path, as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Extensions, generations, counts and every body's resolved mass properties."""
    from .api import load, read_scene
    from .summary import summarize

    doc = load(file)
    summary = summarize(doc, read_scene(doc))
    if as_json:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
    else:
        _print_summary(summary)


def _print_summary(s: dict[str, Any]) -> None:
    out.print(f"[bold]{s['file']}[/bold]")
    for ext, gen in s["generations"].items():
        out.print(f"  {ext}: {gen}")
    for key, value in s["counts"].items():
        if isinstance(value, dict) and value:  # bodies by motion type, shapes by kind
            out.print(f"  {key}: " + ", ".join(f"{kind} {n}" for kind, n in value.items()))
        elif value and not isinstance(value, dict):
            out.print(f"  {key}: {value}")
    if s["worldGravity"] is not None:
        out.print(f"  world gravity {s['worldGravity']}")
    if not s["bodies"]:
        return
    table = Table("node", "name", "motion", "mass", "centre of mass", "inertia diagonal", box=None)
    for b in s["bodies"]:
        table.add_row(str(b["node"]), b["name"] or "", b["motion"], str(b["mass"]),
                      _fmt(b["centerOfMass"]), _fmt(b["inertiaDiagonal"]))
    out.print(table)


def _fmt(values: list[Any]) -> str:
    return "(" + ", ".join(v if isinstance(v, str) else f"{v:.4g}" for v in values) + ")"


@app.command()
@clean_errors
def convert(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    dst: Annotated[Path, typer.Argument(metavar="OUT")],
    to: Annotated[str | None, typer.Option(help="Target family: omi or khr. Without it: lossless re-save.")] = None,
    report: Annotated[Path | None, typer.Option(help="Write the loss report (JSON) here.")] = None,
) -> None:
    """Re-save IN as OUT (.gltf or .glb by extension), or convert its physics to the newest OMI or KHR form."""
    from .api import convert as convert_doc
    from .api import load, save, write_loss_report

    if dst.suffix.lower() not in (".gltf", ".glb"):
        raise UsageError(f"{dst}: OUT must end in .gltf or .glb")
    if to not in (None, "omi", "khr"):
        raise UsageError(f"--to must be omi or khr, not {to!r}")
    doc = load(src)
    losses: list[dict[str, str]] = []
    if to is not None:
        doc, losses = convert_doc(doc, to=to)
    save(doc, dst)
    if report is not None:
        write_loss_report(report, source=src, target=to, losses=losses)


@app.command()
@clean_errors
def simulate(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the result (.gltf/.glb).")] = None,
    duration: Annotated[float, typer.Option(help="Seconds to simulate.")] = 5.0,
    rate: Annotated[float, typer.Option(help="Steps per second.")] = 60.0,
    substeps: Annotated[int, typer.Option(help="Solver substeps per step.")] = 1,
    gravity: Annotated[tuple[float, float, float] | None, typer.Option(help="Override gravity (m/s²).")] = None,
    bake_run: Annotated[bool, typer.Option("--bake", help="With -o: add the run as an animation.")] = False,
    trace: Annotated[Path | None, typer.Option(help="Write body poses per step (CSV).")] = None,
    events: Annotated[Path | None, typer.Option(help="Write trigger events (JSON lines).")] = None,
    sets: Annotated[list[str] | None, typer.Option("--set", metavar="POINTER=JSON",
                                                   help="Set a glTF Object Model property before the run.")] = None,
    inputs: Annotated[Path | None, typer.Option(
        metavar="FILE.json", help='Timed changes: [{"time": s, "pointer": "/...", "value": ...}].')] = None,
) -> None:
    """Simulate a scene on Rapier: final pose or baked animation, pose trace, trigger events."""
    from .api import load, read_scene, save
    from .sim import World, bake, write_events, write_final_pose, write_trace

    if not (duration >= 0 and rate > 0 and substeps >= 1):
        raise UsageError("--duration must be ≥ 0, --rate > 0 and --substeps ≥ 1")
    if bake_run and output is None:
        raise UsageError("--bake needs -o OUT")
    if output is not None and output.suffix.lower() not in (".gltf", ".glb"):
        raise UsageError(f"{output}: OUT must end in .gltf or .glb")
    assignments = [_parse_set(s) for s in sets or []]
    schedule = _load_schedule(inputs) if inputs is not None else None
    doc = load(src)
    world = World(read_scene(doc), rate=rate, substeps=substeps, gravity=gravity,
                  record=trace is not None or bake_run)
    for pointer, value in assignments:
        world.set(pointer, value)
    if schedule is not None:
        schedule.apply_due(world)  # time-0 changes, after --set
    _run_with_progress(world, duration, schedule.apply_due if schedule is not None else None)
    if trace is not None:
        write_trace(world.recording, trace)
    if events is not None:
        write_events(world.events(), events)
    if output is not None:
        save(bake(world.recording, doc) if bake_run else write_final_pose(world, doc), output)


def _parse_set(text: str) -> tuple[str, Any]:
    pointer, sep, value = text.partition("=")
    if not sep or not pointer.startswith("/"):
        raise UsageError(f"--set {text!r}: expected POINTER=JSON, e.g. /nodes/3/.../gravityFactor=0.5")
    try:
        return pointer, json.loads(value)
    except json.JSONDecodeError as e:
        raise UsageError(f"--set {text!r}: the value is not JSON ({e.msg})") from None


def _load_schedule(path: Path) -> Any:
    from .sim.inputs import InputSchedule, load_inputs

    try:
        return InputSchedule(load_inputs(path))
    except ValueError as e:
        raise UsageError(f"--inputs {e}") from None


def _run_with_progress(world: Any, seconds: float, each_step: Callable[[Any], None] | None = None) -> None:
    from rich.progress import Progress

    steps = max(0, round(seconds * world.rate))
    # A bar only where someone watches, and only for runs long enough to need one.
    show = sys.stderr.isatty() and steps >= 600
    with Progress(console=Console(stderr=True), transient=True, disable=not show) as progress:
        task = progress.add_task("simulating", total=steps)
        def on_step(w: Any) -> None:
            progress.advance(task)
            if each_step is not None:
                each_step(w)

        world.run(seconds, on_step=on_step)


@app.command()
def validate(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...")],
    fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
    strict: Annotated[bool, typer.Option(help="Warnings fail too (exit 1).")] = False,
) -> None:
    """Check every physics rule of the spec digest; exit 0 valid, 1 errors (or warnings with --strict), 2 unreadable."""
    from .validate import validate_file

    if fmt not in ("text", "json"):
        fail(f"--format must be text or json, not {fmt!r}")
    reports = [validate_file(f) for f in files]
    if fmt == "json":
        body: Any = reports[0].to_dict() if len(reports) == 1 else [r.to_dict() for r in reports]
        sys.stdout.write(json.dumps(body, indent=2) + "\n")
    else:
        sys.stdout.write("".join(r.to_text().rstrip("\n") + "\n" for r in reports))
    raise typer.Exit(max(r.exit_code(strict) for r in reports))


@app.command()
@clean_errors
def view(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    simulate: Annotated[float | None, typer.Option(help="Simulate this many seconds and embed the run.")] = None,
    out_page: Annotated[Path | None, typer.Option("--out", help="The HTML page to write.")] = None,
    serve: Annotated[bool, typer.Option(help="Serve the page on 127.0.0.1 and print its address.")] = False,
    png: Annotated[Path | None, typer.Option(help="Render a static PNG preview instead (no browser).")] = None,
) -> None:
    """Write one self-contained HTML page showing the scene's physics (and a simulated run)."""
    from .api import load, read_scene
    from .validate import validate as validate_doc
    from .view import bake, page
    from .view import png as png_preview
    from .view import serve as serving

    if simulate is not None and not simulate >= 0:
        raise UsageError(f"--simulate must be a number of seconds ≥ 0, not {simulate}")
    doc = load(src)
    scene = read_scene(doc)
    run = bake.record(scene, simulate) if simulate is not None else None
    if png is not None:
        png_preview.render_png(doc, scene, png, trajectories=bake.trajectories(run) if run else None)
        return
    target = out_page or src.with_suffix(".html")
    page.write_page(target, doc, scene, bake=run, report=validate_doc(doc))
    out.print(f"wrote {target}")
    if serve:
        serving.serve_forever(target, announce=lambda url: out.print(f"serving {target} at {url} (Ctrl-C stops)"))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
