"""Node hierarchy walks on the plain JSON: parents, ancestors, descendants."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def parents(gltf: dict[str, Any]) -> list[int | None]:
    """``parents[i]`` is the parent node of node ``i`` (``None`` for roots). Bad child indices are skipped."""
    nodes = gltf.get("nodes") or []
    result: list[int | None] = [None] * len(nodes)
    for i, node in enumerate(nodes):
        children = node.get("children") if isinstance(node, dict) else None
        if not isinstance(children, list):
            continue
        for c in children:
            if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(nodes) and result[c] is None:
                result[c] = i
    return result


def ancestors(parent_of: list[int | None], node: int) -> Iterator[int]:
    """Strict ancestors of ``node``, nearest first (stops on a cycle)."""
    seen = {node}
    p = parent_of[node]
    while p is not None and p not in seen:
        yield p
        seen.add(p)
        p = parent_of[p]


def descendants(gltf: dict[str, Any], node: int) -> Iterator[int]:
    """Strict descendants of ``node`` in depth-first pre-order (children in file order)."""
    nodes = gltf.get("nodes") or []
    seen = {node}
    stack = list(reversed(_children(nodes, node)))
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        yield n
        stack.extend(reversed(_children(nodes, n)))


def _children(nodes: list[Any], node: int) -> list[int]:
    children = nodes[node].get("children") if isinstance(nodes[node], dict) else None
    if not isinstance(children, list):
        return []
    return [c for c in children if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(nodes)]
