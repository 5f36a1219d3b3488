"""Which nodes of a glTF JSON carry a trigger, without reading the whole scene: what a behaviour graph's
trigger events may name (KRBI-1) when the physics reader's own list is not at hand."""

from __future__ import annotations

from typing import Any

from ..registry import KHR_PHYSICS_RIGID_BODIES, OMI_PHYSICS_BODY


def trigger_nodes(doc_json: dict[str, Any]) -> set[int]:
    """The nodes of ``doc_json`` with a ``trigger`` object in KHR_physics_rigid_bodies or OMI_physics_body."""
    nodes = doc_json.get("nodes") if isinstance(doc_json, dict) else None
    out = set()
    for i, n in enumerate(nodes if isinstance(nodes, list) else []):
        ext = n.get("extensions") if isinstance(n, dict) else None
        if not isinstance(ext, dict):
            continue
        for name in (KHR_PHYSICS_RIGID_BODIES, OMI_PHYSICS_BODY):
            body = ext.get(name)
            if isinstance(body, dict) and isinstance(body.get("trigger"), dict):
                out.add(i)
    return out
