"""Graphs in conversion: a graph's pointers to physics properties follow the properties to their new place.

A conversion between the physics families (KHR ↔ OMI, or to the newest form of one) moves a physics property to
another Object Model pointer. :func:`retarget_graphs` rewrites, in the converted document's own JSON, the
``pointer`` configuration of every ``pointer/get``, ``pointer/set`` and ``pointer/interpolate`` node — in both
forms, template parameters (``{nodeIndex}``, ``{x}``, ``[x]``) kept where they stand — to the target's
pointer, as :class:`~gltf_physics.dialects.common.pointer_map.PointerMoves` spells it. A pointer that cannot
follow is kept, and listed as a ``KHRI-12`` loss naming the graph node. Nothing else in a graph changes.
"""

from __future__ import annotations

from typing import Any

from ..dialects.common.pointer_map import Param, PointerMoves, Segment
from .ops.pointers import is_parameter
from .read import EXTENSION, ROOT

POINTER_OPS = frozenset({"pointer/get", "pointer/set", "pointer/interpolate"})


def retarget_graphs(doc_json: dict[str, Any], moves: PointerMoves) -> list[dict[str, str]]:
    """Rewrite the physics pointers of every graph of ``doc_json`` (in place: the converted copy) and return
    the losses, each ``{"code": "KHRI-12", "pointer", "message"}`` with the JSON pointer of the node's
    ``pointer`` configuration."""
    losses: list[dict[str, str]] = []
    for gi, graph in enumerate(_graphs(doc_json)):
        declarations = _list(graph.get("declarations"))
        for ni, node in enumerate(_list(graph.get("nodes"))):
            if not isinstance(node, dict) or _op(node, declarations) not in POINTER_OPS:
                continue
            config = node.get("configuration")
            holder = config.get("pointer") if isinstance(config, dict) else None
            value = holder.get("value") if isinstance(holder, dict) else None
            if not (isinstance(value, list) and value and isinstance(value[0], str)):
                continue  # malformed: the validator's business (KHRI-10)
            old = value[0]
            new, loss = retarget(old, moves)
            if new is not None:
                value[0] = new
            if loss is not None:
                kept = "the pointer is kept" if new is None else f"rewritten as {new}"
                losses.append({"code": "KHRI-12", "pointer": f"{ROOT}/graphs/{gi}/nodes/{ni}/configuration/pointer",
                               "message": f"{old}: {loss}; {kept}"})
    return losses


def retarget(template: str, moves: PointerMoves) -> tuple[str | None, str | None]:
    """(the rewritten pointer template or None when unchanged, why it could not follow or None)."""
    if not template.startswith("/"):
        return None, None
    segments: list[Segment] = [Param(s) if is_parameter(s) else s for s in template[1:].split("/")]
    moved = moves.rewrite(segments)
    if moved is None:
        return None, None
    if moved.segments is None:
        return None, moved.loss
    text = "/" + "/".join(s.text if isinstance(s, Param) else s for s in moved.segments)
    return (text if text != template else None), moved.loss


def _graphs(doc_json: dict[str, Any]) -> list[dict[str, Any]]:
    ext = doc_json.get("extensions") if isinstance(doc_json, dict) else None
    interactivity = ext.get(EXTENSION) if isinstance(ext, dict) else None
    graphs = interactivity.get("graphs") if isinstance(interactivity, dict) else None
    return [g for g in _list(graphs) if isinstance(g, dict)]


def _op(node: dict[str, Any], declarations: list[Any]) -> str | None:
    d = node.get("declaration")
    if isinstance(d, int) and not isinstance(d, bool) and 0 <= d < len(declarations):
        op = declarations[d].get("op") if isinstance(declarations[d], dict) else None
        return op if isinstance(op, str) else None  # a malformed op (a list, an object) is KHRI-2's business
    return node.get("type") if isinstance(node.get("type"), str) else None  # the earliest drafts


def _list(x: Any) -> list[Any]:
    return x if isinstance(x, list) else []
