"""A short description of each graph, for ``info``: its size, operations by domain, custom events, variables and
the physics operations it uses."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .model import Interactivity

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
