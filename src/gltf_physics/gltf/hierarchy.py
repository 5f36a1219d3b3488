"""Node hierarchy walks on the plain JSON: parents, ancestors, descendants."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def _nodes(gltf: Any) -> list[Any]:
    nodes = gltf.get("nodes") if isinstance(gltf, dict) else None
    return nodes if isinstance(nodes, list) else []


def parents(gltf: dict[str, Any]) -> list[int | None]:
    """``parents[i]`` is the parent node of node ``i`` (``None`` for roots).

    Bad child indices are skipped; a node listed by several parents keeps the first; a node listing itself
    is not its own parent (the validator reports all three).
    """
    nodes = _nodes(gltf)
    n = len(nodes)
    result: list[int | None] = [None] * n
    for i, node in enumerate(nodes):
        children = node.get("children") if isinstance(node, dict) else None
        if not isinstance(children, list):
            continue
        for c in children:
            # type() rather than isinstance: bool is an int subclass, and this loop runs once per node.
            if c.__class__ is int and 0 <= c < n and result[c] is None and c != i:
                result[c] = i
    return result


def nearest_marked(parent_of: list[int | None], marked: set[int] | frozenset[int]) -> list[int | None]:
    """For every node: itself when in ``marked``, else its nearest marked ancestor, else ``None``.

    Linear over the hierarchy (each node's answer is computed once and reused by its descendants) instead of
    one ancestor walk per node. Same answers as walking :func:`ancestors`, cycles included: the walk up a
    cycle stops where it closes.
    """
    n = len(parent_of)
    out: list[int | None] = [None] * n
    state = bytearray(n)  # 0 unvisited, 1 on the current walk, 2 resolved
    for start in range(n):
        if state[start]:
            continue
        chain: list[int] = []
        k: int | None = start
        while k is not None and not state[k]:
            state[k] = 1
            chain.append(k)
            if k in marked:
                break
            k = parent_of[k]
        above = out[k] if k is not None and state[k] == 2 else None
        for c in reversed(chain):
            if c in marked:
                above = c
            out[c] = above
            state[c] = 2
    return out


def nearest_strict(table: list[int | None], parent_of: list[int | None], node: int) -> int | None:
    """The nearest marked strict ancestor of ``node`` from a :func:`nearest_marked` table."""
    p = parent_of[node]
    found = table[p] if p is not None else None
    return None if found == node else found  # the walk closed a cycle back at ``node``


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
