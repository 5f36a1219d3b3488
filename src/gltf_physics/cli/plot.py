"""`gltf-physics plot`: a body's height or speed over time from a pose trace, as a picture."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import UsageError, clean_errors, out
from .options import choice, suffix
from .overwrite import Source, refuse_overwrite

if TYPE_CHECKING:
    from ..view.plot import Trace


@clean_errors
def plot(
    trace: Annotated[Path, typer.Argument(metavar="TRACE",
                                          help="A pose trace (simulate --trace T.csv, .parquet or .npz).")],
    out_file: Annotated[Path, typer.Option("--out", metavar="PLOT.png", help="The picture (.png, .svg or .pdf).")],
    nodes: Annotated[list[str] | None, typer.Option(
        "--node", metavar="N", help="A body's node index or name (repeatable; default: every body).")] = None,
    y: Annotated[str, typer.Option("--y", metavar="height|speed", help="What to plot over time.")] = "height",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
) -> None:
    """Plot the height (world y) or the speed of bodies over time from a trace written by simulate --trace.

    \b
    Example: gltf-physics simulate scene.gltf --trace t.csv && gltf-physics plot t.csv --node 3 --out ball.png
    """
    from ..view.plot import QUANTITIES, TraceError, plot_trace, read_trace
    from .messages import plural

    choice("--y", y, list(QUANTITIES))
    suffix("--out", out_file, [".png", ".svg", ".pdf"], "the picture")
    refuse_overwrite([Source(trace, references=False)], [("--out", out_file)])
    try:
        data = read_trace(trace)
    except TraceError as e:
        raise UsageError(str(e)) from None
    chosen = [_node(n, data) for n in nodes] if nodes else list(data.nodes)
    plot_trace(data, chosen, y, out_file, title=f"{trace.name}: {QUANTITIES[y][1]}")
    if not quiet:
        who = ", ".join(_label(data, n) for n in chosen)
        span = float(data.times[-1] - data.times[0]) if len(data.times) else 0.0
        out.print(f"wrote {out_file} ({QUANTITIES[y][1]} of {who} over {span:g} s, "
                  f"{plural(len(data.times), 'frame')})")


def _node(text: str, data: Trace) -> int:
    """A node index or a body name from the trace."""
    nodes, names = data.nodes, data.names
    if text.isdigit() and int(text) in nodes:
        return int(text)
    if text in names:
        return nodes[names.index(text)]
    bodies = ", ".join(f"{n} {name}".rstrip() for n, name in zip(nodes, names, strict=True))
    raise UsageError(f"--node {text}: no such body in the trace (its bodies: {bodies})")


def _label(data: Trace, node: int) -> str:
    name = data.names[data.column(node)]
    return f"{name} (#{node})" if name else f"#{node}"
