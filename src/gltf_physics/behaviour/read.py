"""Reads ``KHR_interactivity`` from a glTF JSON into the graph model, leniently, in both forms.

Forms: ``current`` — the specification merged into the glTF repository (flows only to higher-numbered nodes,
value links only to lower-numbered ones, ``{x}`` pointer parameters are references and ``[x]`` integers,
``variable/set`` configured by ``variables``); ``draft-2025`` — the draft the official test assets were exported
against (``{nodeIndex}`` pointer parameters fed integers, flows and links in either direction, ``variable/set``
configured by ``variable``, ``variable/setMultiple``). The form is detected per document and named in a note;
the ordering alone never makes a graph draft (a current-form graph breaking it is invalid, not draft).
Anything malformed is kept as ``None`` for the checker to report; the reader itself never raises.
"""

from __future__ import annotations

import re
from typing import Any

from .model import CustomEvent, Declaration, FlowLink, Graph, GraphNode, Interactivity, ValueSource, Variable

EXTENSION = "KHR_interactivity"
ROOT = f"/extensions/{EXTENSION}"
_CURLY = re.compile(r"(?<!\{)\{([^{}/]+)\}(?!\})")


def read_interactivity(doc_json: dict[str, Any]) -> Interactivity | None:
    """The document's behaviour graphs, or None when it has no ``KHR_interactivity`` object."""
    extensions = doc_json.get("extensions") if isinstance(doc_json, dict) else None
    ext = extensions.get(EXTENSION) if isinstance(extensions, dict) else None
    if not isinstance(ext, dict):
        return None
    raw_graphs = ext.get("graphs")
    graphs = [_graph(g, f"{ROOT}/graphs/{i}") for i, g in enumerate(raw_graphs)] \
        if isinstance(raw_graphs, list) else []
    default = ext.get("graph", 0)
    default = default if isinstance(default, int) and not isinstance(default, bool) else 0
    reasons = sorted({r for g in graphs for r in _draft_reasons(g)})
    # Ordering alone is no sign of the draft: a current-form graph that breaks it is invalid (KHRI-8), not draft.
    form = "draft-2025" if set(reasons) - _ORDERING else "current"
    reasons = reasons if form != "current" else []
    for g in graphs:
        g.form = form
    notes = [f"KHR_interactivity read as the {form} form" + (f" ({'; '.join(reasons)})" if reasons else "")]
    return Interactivity(graphs=graphs, default=default, form=form, notes=notes)


def _int(x: Any) -> int | None:
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return x
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return None


def _dict(x: Any) -> dict[str, Any]:
    return x if isinstance(x, dict) else {}


def _list(x: Any) -> list[Any]:
    return x if isinstance(x, list) else []


def _graph(raw: Any, pointer: str) -> Graph:
    raw = _dict(raw)
    types = [t.get("signature") if isinstance(t, dict) and isinstance(t.get("signature"), str) else None
             for t in _list(raw.get("types"))]
    graph = Graph(types=types, pointer=pointer)
    for i, v in enumerate(_list(raw.get("variables"))):
        v = _dict(v)
        vid = v.get("id") if isinstance(v.get("id"), str) else None
        value = v.get("value") if isinstance(v.get("value"), list) else None
        graph.variables.append(Variable(vid, _int(v.get("type")), value, f"{pointer}/variables/{i}"))
    for i, e in enumerate(_list(raw.get("events"))):
        e = _dict(e)
        values = {name: (_int(_dict(s).get("type")), _dict(s).get("value") if isinstance(_dict(s).get("value"), list)
                         else None) for name, s in _dict(e.get("values")).items()}
        graph.events.append(CustomEvent(e.get("id") if isinstance(e.get("id"), str) else None, values,
                                        f"{pointer}/events/{i}"))
    for i, d in enumerate(_list(raw.get("declarations"))):
        d = _dict(d)
        graph.declarations.append(Declaration(
            op=d.get("op") if isinstance(d.get("op"), str) else "",
            extension=d.get("extension") if isinstance(d.get("extension"), str) else None,
            inputs=_sockets(d.get("inputValueSockets")), outputs=_sockets(d.get("outputValueSockets")),
            pointer=f"{pointer}/declarations/{i}"))
    for i, n in enumerate(_list(raw.get("nodes"))):
        graph.nodes.append(_node(graph, _dict(n), i, f"{pointer}/nodes/{i}"))
    return graph


def _sockets(raw: Any) -> dict[str, int] | None:
    if not isinstance(raw, dict):
        return None
    return {name: _int(_dict(s).get("type")) for name, s in raw.items()}  # type: ignore[misc]


def _node(graph: Graph, raw: dict[str, Any], index: int, pointer: str) -> GraphNode:
    decl = _int(raw.get("declaration"))
    op = graph.declarations[decl].op if decl is not None and 0 <= decl < len(graph.declarations) else ""
    if not op and isinstance(raw.get("type"), str):  # the earliest drafts named the operation on the node
        op = raw["type"]
    node = GraphNode(index=index, op=op, declaration=decl, pointer=pointer)
    for socket, src in _dict(raw.get("values")).items():
        src = _dict(src)
        link = _int(src.get("node")) if "node" in src else None
        node.values[socket] = ValueSource(
            socket=socket, type=_int(src.get("type")),
            value=src.get("value") if isinstance(src.get("value"), list) else None,
            node=link, out_socket=src.get("socket") if isinstance(src.get("socket"), str) else "value",
            pointer=f"{pointer}/values/{socket}")
        if "node" in src and "value" in src:
            node.values[socket].value = src.get("value")  # both kept: the checker reports it
    for socket, link in _dict(raw.get("flows")).items():
        link = _dict(link)
        node.flows[socket] = FlowLink(socket, _int(link.get("node")),
                                      link.get("socket") if isinstance(link.get("socket"), str) else "in",
                                      f"{pointer}/flows/{socket}")
    for key, value in _dict(raw.get("configuration")).items():
        node.configuration[key] = _dict(value).get("value") if isinstance(value, dict) else value
    return node


_ORDERING = frozenset({"flows to lower-numbered nodes", "values linked from higher-numbered nodes"})


def _draft_reasons(graph: Graph) -> list[str]:
    """Why ``graph`` reads as the 2025 draft form (empty: nothing says so)."""
    reasons = set()
    for node in graph.nodes:
        for link in node.flows.values():
            if link.node is not None and link.node <= node.index:
                reasons.add("flows to lower-numbered nodes")
        for src in node.values.values():
            if src.node is not None and src.node >= node.index:
                reasons.add("values linked from higher-numbered nodes")
        if node.op.startswith("pointer/"):
            template = node.configuration.get("pointer")
            text = template[0] if isinstance(template, list) and template and isinstance(template[0], str) else ""
            for name in _CURLY.findall(text):
                src = node.values.get(name)
                if src is not None and graph.type_name(src.type) == "int":
                    reasons.add("integer {…} pointer parameters")
        if node.op == "variable/set" and "variable" in node.configuration and "variables" not in node.configuration:
            reasons.add("variable/set configured by 'variable'")
        if node.op == "variable/setMultiple":
            reasons.add("variable/setMultiple")
        if node.op == "flow/cancelDelay" and "delayIndex" in node.values:
            reasons.add("flow/cancelDelay's delayIndex")
    return sorted(reasons)
