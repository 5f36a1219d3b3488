"""`gltf-physics info`: extensions, generations, counts and resolved mass properties."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from . import plain
from .common import clean_errors

# Human words for the JSON's camelCase count keys.
LABELS = {"staticColliders": "static colliders", "compoundTriggers": "compound triggers",
          "hoverThrusters": "hover thrusters", "gravityFields": "gravity fields"}


@clean_errors
def info(file: Path, as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
         quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing (exit 0: the file reads; 2: "
                                                                   "one line saying why not); --json still prints."
                                             )] = False) -> None:
    """Extensions, generations, counts, every body's resolved mass properties, the joints, the triggers and the
    behaviour graphs (operations by domain, events, variables, the physics operations they use).

    Example: gltf-physics info examples/tumbling_boxes.gltf --json
    """
    from ..api import load, read_scene
    from ..summary import summarize

    doc = load(file)
    scene = read_scene(doc)
    summary = summarize(doc, scene)
    if isinstance(doc.json.get("extensions"), dict) and "KHR_interactivity" in doc.json["extensions"]:
        from ..behaviour.summary import graph_summaries

        summary["graphs"] = graph_summaries(doc.json)
    if as_json:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
    elif not quiet:
        _print_summary(summary)


def _print_summary(s: dict[str, Any]) -> None:
    from .messages import NO_PHYSICS

    lines = [plain.bold(plain.safe(s["file"]))]
    if not s["generations"]:
        lines.append(f"  {NO_PHYSICS}")
    lines += [f"  {ext}: {gen}" for ext, gen in s["generations"].items()]
    for key, value in s["counts"].items():
        label = LABELS.get(key, key)
        if isinstance(value, dict) and value:  # bodies by motion type, shapes by kind
            lines.append(f"  {label}: " + ", ".join(f"{kind} {n}" for kind, n in value.items()))
        elif value and not isinstance(value, dict):
            lines.append(f"  {label}: {value}")
    if s["worldGravity"] is not None:
        lines.append(f"  world gravity: {_fmt(s['worldGravity'])} m/s²")
    if s["bodies"]:
        lines += plain.table(("node", "name", "motion", "mass (kg)", "centre of mass", "inertia diagonal"),
                             [_row(b) for b in s["bodies"]])
    names = {b["node"]: b["name"] for b in s["bodies"]}
    if s["joints"]:
        lines += plain.table(("joint", "name", "body A", "body B", "limits", "drives"),
                             [_joint(j, names) for j in s["joints"]])
    if s["triggers"]:
        lines += plain.table(("trigger", "name", "shape", "on body"), [_trigger(t, names) for t in s["triggers"]])
    if s.get("graphs"):
        from ..behaviour.summary import graph_lines

        lines.append("  behaviour graphs (KHR_interactivity):")
        lines += graph_lines(s["graphs"])
    plain.write(lines)


def _body(node: int | None, names: dict[int, str | None]) -> str:
    """``#7 Bob``; ``world`` for no body (a joint to the world, a static trigger)."""
    if node is None:
        return "world"
    name = names.get(node)
    return f"#{node} {plain.safe(name)}" if name else f"#{node}"


def _joint(j: dict[str, Any], names: dict[int, str | None]) -> tuple[str, ...]:
    return (str(j["node"]), plain.safe(j["name"] or ""), _body(j["bodyA"], names), _body(j["bodyB"], names),
            str(j["limits"]), str(j["drives"]))


def _trigger(t: dict[str, Any], names: dict[int, str | None]) -> tuple[str, ...]:
    shape = f"compound of {len(t['parts'])}" if "parts" in t else str(t["shape"])
    body = "static" if t["body"] is None else _body(t["body"], names)
    return str(t["node"]), plain.safe(t["name"] or ""), shape, body


def _row(b: dict[str, Any]) -> tuple[str, ...]:
    """One body's table cells; a static body is immovable and has no mass properties."""
    name = plain.safe(b["name"] or "")
    if "mass" not in b:
        return str(b["node"]), name, b["motion"], "static", "", ""
    return (str(b["node"]), name, b["motion"], _fmt([b["mass"]])[1:-1], _fmt(b["centerOfMass"]),
            _fmt(b["inertiaDiagonal"]))


def _fmt(values: list[Any]) -> str:
    """``(0, 0.25, 1e+06)``: 4 significant digits, never ``-0`` (a rounding artefact, not a direction)."""
    return "(" + ", ".join(v if isinstance(v, str) else f"{_clean(v):.4g}" for v in values) + ")"


def _clean(v: float) -> float:
    return 0.0 if abs(v) < 1e-12 else v + 0.0  # -0.0 + 0.0 is 0.0
