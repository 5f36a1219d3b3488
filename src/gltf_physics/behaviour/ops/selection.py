"""Pointer events of KHR_node_selectability and KHR_node_hoverability: ``event/onSelect``, ``event/onHoverIn``,
``event/onHoverOut``, and how a pick fires them (``view --live`` feeds them from the mouse).

Each event node is configured with ``nodeIndex`` and ``stopPropagation``. A pick on node *n* fires the event
nodes configured with *n*, then those of *n*'s parent, and so on up to the root, stopping after a level where an
event node has ``stopPropagation`` true. A node with ``KHR_node_selectability`` ``selectable: false`` (or
``KHR_node_hoverability`` ``hoverable: false``), or under one, fires nothing. Hover: when the hovered node
changes from *a* to *b*, ``onHoverOut`` fires (with ``hoverNodeIndex`` *a*) on the levels of *a*'s chain that are
not in *b*'s, then ``onHoverIn`` (with *b*) on the levels of *b*'s chain that are not in *a*'s.
"""

from __future__ import annotations

from typing import Any

from ...gltf.hierarchy import ancestors, parents
from .spec import OpSpec, table

SELECT, HOVER_IN, HOVER_OUT = "event/onSelect", "event/onHoverIn", "event/onHoverOut"
_CONFIG = {"nodeIndex": "int", "stopPropagation": "bool"}


def _config_value(node: Any, key: str) -> Any:
    value = node.configuration.get(key)
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    return value


class Picks:
    """Fires the pointer events of one graph runner over one document (module docstring)."""

    def __init__(self, runner: Any, doc_json: dict[str, Any]) -> None:
        self.runner = runner
        self.parent_of = parents(doc_json) if isinstance(doc_json.get("nodes"), list) else []
        nodes = doc_json.get("nodes") if isinstance(doc_json.get("nodes"), list) else []
        self.off = {ext: {i for i, n in enumerate(nodes) if isinstance(n, dict) and _flag(n, ext, key) is False}
                    for ext, key in (("KHR_node_selectability", "selectable"), ("KHR_node_hoverability", "hoverable"))}
        self.hovered: int | None = None

    def chain(self, node: int | None, extension: str) -> list[int]:
        """``node`` and its ancestors, root last; empty when ``node`` is None, missing, or switched off."""
        if node is None or not 0 <= node < len(self.parent_of):
            return []
        levels = [node, *ancestors(self.parent_of, node)]
        return [] if any(n in self.off[extension] for n in levels) else levels

    def _fire(self, op: str, levels: list[int], outputs: dict[str, Any]) -> None:
        listeners = self.runner.listeners.get(op, [])
        for level in levels:
            here = [n for n in listeners if _config_value(n.source, "nodeIndex") == level]
            if not here:
                continue
            self.runner.fire(op, outputs, match=lambda s, level=level: _config_value(s, "nodeIndex") == level)
            if any(_config_value(n.source, "stopPropagation") is True for n in here):
                return

    def select(self, node: int, point: Any, origin: Any, controller: int = 0) -> None:
        """A selection of ``node`` at world ``point`` by a ray from ``origin``."""
        self._fire(SELECT, self.chain(node, "KHR_node_selectability"),
                   {"selectedNodeIndex": node, "controllerIndex": controller,
                    "selectionPoint": tuple(float(v) for v in point),
                    "selectionRayOrigin": tuple(float(v) for v in origin)})

    def hover(self, node: int | None, controller: int = 0) -> None:
        """The pointer now hovers ``node`` (None: nothing)."""
        if node == self.hovered:
            return
        before, after = self.chain(self.hovered, "KHR_node_hoverability"), self.chain(node, "KHR_node_hoverability")
        if self.hovered is not None:
            self._fire(HOVER_OUT, [n for n in before if n not in after],
                       {"hoverNodeIndex": self.hovered, "controllerIndex": controller})
        if node is not None:
            self._fire(HOVER_IN, [n for n in after if n not in before],
                       {"hoverNodeIndex": node, "controllerIndex": controller})
        self.hovered = node


def _flag(node: dict[str, Any], extension: str, key: str) -> Any:
    ext = node.get("extensions")
    ext = ext.get(extension) if isinstance(ext, dict) else None
    return ext.get(key) if isinstance(ext, dict) else None


TABLE = table(
    OpSpec(SELECT, outputs={"selectedNodeIndex": "int", "controllerIndex": "int", "selectionPoint": "float3",
                            "selectionRayOrigin": "float3"}, flows_out=("out",), config=dict(_CONFIG), event=True),
    OpSpec(HOVER_IN, outputs={"hoverNodeIndex": "int", "controllerIndex": "int"}, flows_out=("out",),
           config=dict(_CONFIG), event=True),
    OpSpec(HOVER_OUT, outputs={"hoverNodeIndex": "int", "controllerIndex": "int"}, flows_out=("out",),
           config=dict(_CONFIG), event=True),
)
