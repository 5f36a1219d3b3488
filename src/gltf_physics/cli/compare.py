"""`gltf-physics compare`: one asset on several engines, per-body differences and a verdict line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from .common import clean_errors, out
from .options import at_least


@clean_errors
def compare(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    engines: Annotated[str, typer.Option(help="Comma-separated engines; the first is the reference.")]
    = "rapier,mujoco",
    duration: Annotated[float, typer.Option(help="Seconds to simulate.")] = 2.0,
    rate: Annotated[float, typer.Option(help="Steps per second.")] = 60.0,
    tolerance: Annotated[float, typer.Option(help="Position difference (m) the engines may show.")] = 0.02,
    angle_tolerance: Annotated[float, typer.Option(help="Angle difference (degrees) allowed.")] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the verdict line.")] = False,
) -> None:
    """Run IN on each engine (MuJoCo needs the [mujoco] extra) and print how far every body drifts apart.

    Exit 0 when every body stays within the tolerances, or when each body past them is touched by a loss the
    engine listed (what it could not take: MuJoCo's missing restitution…; the verdict names them); 1 when a
    body differs that no listed loss explains (the verdict names it); 2 on bad input.
    """
    from ..api import load, read_scene
    from ..sim.compare import compare as run_compare

    names = [e.strip() for e in engines.split(",") if e.strip()]
    at_least("--duration", duration, 0, "the run's length in seconds")
    at_least("--rate", rate, 0, "the step rate in Hz", strictly=True)
    at_least("--tolerance", tolerance, 0, "the position tolerance in metres")
    at_least("--angle-tolerance", angle_tolerance, 0, "the angle tolerance in degrees")
    result = run_compare(read_scene(load(src)), names, duration=duration, rate=rate,
                         position_tolerance=tolerance, angle_tolerance=angle_tolerance)
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2) + "\n")
        raise typer.Exit(0 if result.explained else 1)
    if quiet:
        out.print(f"verdict: {result.verdict}", markup=False)
        raise typer.Exit(0 if result.explained else 1)
    from rich.table import Table

    table = Table("node", "name", "engine", "final Δpos (m)", "max Δpos (m)", "final Δangle (°)",
                  "max Δangle (°)", "losses touching it", box=None)
    for b in result.bodies:
        codes = ", ".join(sorted({loss["code"] for loss in b.losses})) or "-"
        table.add_row(str(b.node), b.name, b.engine, f"{b.final_position:.4f}", f"{b.max_position:.4f}",
                      f"{b.final_angle:.2f}", f"{b.max_angle:.2f}", codes)
    out.print(f"[bold]{src}[/bold]: {', '.join(names[1:])} against {names[0]}, {duration:g} s at {rate:g} Hz")
    out.print(table)
    out.print(f"verdict: {result.verdict}")
    raise typer.Exit(0 if result.explained else 1)  # a gate for CI: 1 when the engines differ unexplained
