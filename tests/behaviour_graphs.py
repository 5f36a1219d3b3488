"""Small behaviour graphs written by hand, in the current KHR_interactivity form, for the behaviour tests."""

from __future__ import annotations

import struct
from typing import Any

TYPES = ["bool", "int", "float", "float2", "float3", "float4", "float4x4", "ref"]
T = {name: i for i, name in enumerate(TYPES)}


def inline(type_name: str, *value: Any) -> dict[str, Any]:
    """An inline value of a named type."""
    return {"type": T[type_name], "value": list(value)}


def link(node: int, socket: str = "value") -> dict[str, Any]:
    """A value linked from ``node``'s output ``socket``."""
    return {"node": node, "socket": socket}


def graph_doc(nodes: list[dict[str, Any]], variables: list[dict[str, Any]] | None = None,
              events: list[dict[str, Any]] | None = None, extra_json: dict[str, Any] | None = None) -> dict[str, Any]:
    """A glTF JSON with one graph: nodes given as ``{"op": ..., "values": ..., "flows": ..., "configuration": ...}``
    (the op is turned into a declaration index), flows written ``{"out": 3}`` or ``{"out": [3, "in"]}``."""
    ops: list[str] = []
    out_nodes = []
    for spec in nodes:
        op = spec["op"]
        if op not in ops:
            ops.append(op)
        node: dict[str, Any] = {"declaration": ops.index(op)}
        if spec.get("values"):
            node["values"] = spec["values"]
        if spec.get("flows"):
            node["flows"] = {k: {"node": v[0], "socket": v[1]} if isinstance(v, list) else {"node": v, "socket": "in"}
                             for k, v in spec["flows"].items()}
        if spec.get("configuration"):
            node["configuration"] = {k: {"value": v if isinstance(v, list) else [v]}
                                     for k, v in spec["configuration"].items()}
        out_nodes.append(node)
    graph = {"types": [{"signature": s} for s in TYPES], "variables": variables or [], "events": events or [],
             "declarations": [{"op": op} for op in ops], "nodes": out_nodes}
    doc = {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_interactivity"],
           "extensions": {"KHR_interactivity": {"graphs": [graph], "graph": 0}},
           "nodes": [{"name": "box", "translation": [0.0, 1.0, 0.0]}, {"name": "other"}],
           "scenes": [{"nodes": [0, 1]}], "scene": 0}
    doc.update(extra_json or {})
    return doc


def variable(type_name: str, *value: Any, name: str | None = None) -> dict[str, Any]:
    """A custom variable definition."""
    out: dict[str, Any] = {"type": T[type_name]}
    if value:
        out["value"] = list(value)
    if name:
        out["id"] = name
    return out


def bits(value: Any) -> Any:
    """A value as comparable bits: floats as their 8 bytes (so NaN signs, payloads and −0.0 count), tuples element by
    element, anything else with its type name."""
    if isinstance(value, float):
        return struct.pack("<d", value)
    if isinstance(value, tuple):
        return tuple(bits(v) for v in value)
    return (type(value).__name__, value)
