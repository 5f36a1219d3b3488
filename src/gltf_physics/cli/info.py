"""`gltf-physics info`: extensions, generations, counts and resolved mass properties."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import clean_errors, out

# Human words for the JSON's camelCase count keys.
LABELS = {"staticColliders": "static colliders", "compoundTriggers": "compound triggers",
          "hoverThrusters": "hover thrusters", "gravityFields": "gravity fields"}


@clean_errors
def info(file: Path, as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Extensions, generations, counts and every body's resolved mass properties.

    Example: gltf-physics info examples/tumbling_boxes.gltf --json
    """
    from ..api import load, read_scene
    from ..summary import summarize

    doc = load(file)
    scene = read_scene(doc)
    summary = summarize(doc, scene)
    if as_json:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
    else:
        _print_summary(summary)


def _print_summary(s: dict[str, Any]) -> None:
    from rich.markup import escape
    from rich.table import Table

    from .messages import NO_PHYSICS

    out.print(f"[bold]{escape(s['file'])}[/bold]")
    if not s["generations"]:
        out.print(f"  {NO_PHYSICS}")
    for ext, gen in s["generations"].items():
        out.print(f"  {ext}: {gen}")
    for key, value in s["counts"].items():
        label = LABELS.get(key, key)
        if isinstance(value, dict) and value:  # bodies by motion type, shapes by kind
            out.print(f"  {label}: " + ", ".join(f"{kind} {n}" for kind, n in value.items()))
        elif value and not isinstance(value, dict):
            out.print(f"  {label}: {value}")
    if s["worldGravity"] is not None:
        out.print(f"  world gravity: {_fmt(s['worldGravity'])} m/s²")
    if not s["bodies"]:
        return
    table = Table("node", "name", "motion", "mass (kg)", "centre of mass", "inertia diagonal", box=None)
    for b in s["bodies"]:
        if "mass" not in b:  # static: immovable, no mass properties
            table.add_row(str(b["node"]), escape(b["name"] or ""), b["motion"], "static", "", "")
            continue
        table.add_row(str(b["node"]), escape(b["name"] or ""), b["motion"], _fmt([b["mass"]])[1:-1],
                      _fmt(b["centerOfMass"]), _fmt(b["inertiaDiagonal"]))
    out.print(table)


def _fmt(values: list[Any]) -> str:
    """``(0, 0.25, 1e+06)``: 4 significant digits, never ``-0`` (a rounding artefact, not a direction)."""
    return "(" + ", ".join(v if isinstance(v, str) else f"{_clean(v):.4g}" for v in values) + ")"


def _clean(v: float) -> float:
    return 0.0 if abs(v) < 1e-12 else v + 0.0  # -0.0 + 0.0 is 0.0
