"""`gltf-physics info`: extensions, generations, counts and resolved mass properties."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from .common import clean_errors, out


@clean_errors
def info(file: Path, as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Extensions, generations, counts and every body's resolved mass properties."""
    from ..api import load, read_scene
    from ..summary import summarize

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
