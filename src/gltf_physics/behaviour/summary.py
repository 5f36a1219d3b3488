"""What ``gltf-physics info`` says of a document's behaviour graphs: :func:`summarize` (each graph's size,
operations by domain, custom events, variables and physics operations), and :func:`graph_summaries` /
:func:`graph_lines`, the rows and text lines ``info`` prints (events by operation, the triggers listened to)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .model import Interactivity
from .ops.physics import TRIGGER_EVENTS, configured_index
from .read import read_interactivity

PHYSICS_PREFIXES = ("rigid_body/", "event/rigid_body")


def summarize(interactivity: Interactivity) -> dict[str, Any]:
    """``{"form", "default", "graphs": [{"nodes", "domains", "events", "variables", "physics"}…]}``."""
    graphs = []
    for graph in interactivity.graphs:
        domains = Counter(node.op.split("/", 1)[0] for node in graph.nodes if node.op)
        physics = sorted({node.op for node in graph.nodes if node.op.startswith(PHYSICS_PREFIXES)})
        graphs.append({"nodes": len(graph.nodes), "domains": dict(sorted(domains.items())),
                       "events": [e.id if e.id is not None else f"#{i}" for i, e in enumerate(graph.events)],
                       "variables": len(graph.variables), "physics": physics})
    return {"form": interactivity.form, "default": interactivity.default, "graphs": graphs}


def graph_summaries(doc_json: dict[str, Any]) -> list[dict[str, Any]] | None:
    """One JSON-ready row per graph: its index, whether it is the default, the form read, node count, operations
    by domain, event nodes by operation, custom events and variables (ids, or ``#i``), and the physics operations
    it uses (with the trigger nodes it listens to). None when the document has no KHR_interactivity."""
    interactivity = read_interactivity(doc_json)
    if interactivity is None:
        return None
    return [_row(i, g, i == interactivity.default, interactivity.form) for i, g in enumerate(interactivity.graphs)]


def _row(index: int, graph: Any, default: bool, form: str) -> dict[str, Any]:
    ops = [n.op or "?" for n in graph.nodes]
    physics = [n for n in graph.nodes if n.op.startswith(("rigid_body/", "event/rigid_body_"))]
    return {
        "graph": index,
        "default": default,
        "form": form,
        "nodes": len(graph.nodes),
        "domains": dict(sorted(Counter(op.split("/", 1)[0] for op in ops).items())),
        "events": dict(sorted(Counter(op for op in ops if op.startswith("event/")).items())),
        "customEvents": [e.id or f"#{k}" for k, e in enumerate(graph.events)],
        "variables": [v.id or f"#{k}" for k, v in enumerate(graph.variables)],
        "physics": dict(sorted(Counter(n.op for n in physics).items())),
        "triggers": sorted({t for n in physics if n.op in TRIGGER_EVENTS
                            and (t := configured_index(n.configuration)) is not None}),
    }


def graph_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The rows as ``info``'s text lines."""
    lines = []
    for r in rows:
        head = f"  graph {r['graph']}{' (default)' if r['default'] else ''}: {r['nodes']} nodes, {r['form']} form"
        lines.append(head)
        lines.append("    operations: " + ", ".join(f"{d} {n}" for d, n in r["domains"].items()))
        if r["events"]:
            lines.append("    events: " + ", ".join(f"{op.split('/', 1)[1]} {n}" for op, n in r["events"].items()))
        if r["customEvents"]:
            lines.append("    custom events: " + ", ".join(r["customEvents"]))
        if r["variables"]:
            lines.append("    variables: " + ", ".join(r["variables"]))
        if r["physics"]:
            used = ", ".join(f"{op} {n}" for op, n in r["physics"].items())
            where = f" (triggers on nodes {', '.join(map(str, r['triggers']))})" if r["triggers"] else ""
            lines.append(f"    physics: {used}{where}")
    return lines
