"""Core glTF checks the physics depends on: the node array and its hierarchy, node transforms."""

from __future__ import annotations

from typing import Any

from ..dialects.base import ExtIndex
from ..dialects.checks_base import Emit, is_finite, is_num

_TRS = {"translation": 3, "rotation": 4, "scale": 3, "matrix": 16}


def check(gltf: dict[str, Any], emit: Emit, index: ExtIndex | None = None) -> None:
    """``index`` is accepted for the common checker signature; this pass builds its own, checked, parents."""
    nodes = gltf.get("nodes", [])
    if not isinstance(nodes, list):
        emit("GLTF-TYPE", "/nodes", "'nodes' must be an array of node objects")
        return
    parent: list[int | None] = [None] * len(nodes)
    for i, node in enumerate(nodes):
        if not isinstance(node, dict):
            emit("GLTF-TYPE", f"/nodes/{i}", "a node must be a JSON object")
            continue
        if "translation" in node or "rotation" in node or "scale" in node or "matrix" in node:
            _transform(node, i, emit)
        if "children" in node:
            _children(node, i, parent, emit)
    _cycles(parent, emit)


def _transform(node: dict[str, Any], i: int, emit: Emit) -> None:
    for key, n in _TRS.items():
        if key not in node:
            continue
        v = node[key]
        if not isinstance(v, list) or len(v) != n or not all(is_num(c) for c in v):
            emit("GLTF-TYPE", f"/nodes/{i}/{key}", f"'{key}' must be an array of {n} numbers")
        elif not all(is_finite(c) for c in v):
            emit("GLTF-NUMBER", f"/nodes/{i}/{key}", f"'{key}' holds NaN or an infinite number; write finite "
                                                     "numbers")


def _children(node: dict[str, Any], i: int, parent: list[int | None], emit: Emit) -> None:
    children = node["children"]
    if children is None:
        return
    if not isinstance(children, list):
        emit("GLTF-TYPE", f"/nodes/{i}/children", "'children' must be an array of node indices")
        return
    n = len(parent)
    for k, c in enumerate(children):
        # The common case (a fresh, valid child) builds no pointer; type() excludes bool, an int subclass.
        if c.__class__ is int and 0 <= c < n and c != i and parent[c] is None:
            parent[c] = i
            continue
        ptr = f"/nodes/{i}/children/{k}"
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < n:
            emit("GLTF-HIERARCHY", ptr, f"child {c!r} is not a node index (0..{n - 1})")
        elif c == i:
            emit("GLTF-HIERARCHY", ptr, f"node {i} lists itself as a child")
        else:
            emit("GLTF-HIERARCHY", ptr, f"node {c} already has parent {parent[c]}; a node has one parent")


def _cycles(parent: list[int | None], emit: Emit) -> None:
    """Linear: colour each chain once (0 unvisited, 1 on the current walk, 2 done)."""
    state = [0] * len(parent)
    for start in range(len(parent)):
        walk = []
        n: int | None = start
        while n is not None and state[n] == 0:
            state[n] = 1
            walk.append(n)
            n = parent[n]
        if n is not None and state[n] == 1:
            emit("GLTF-HIERARCHY", f"/nodes/{n}", f"node {n} is its own ancestor (a cycle in 'children')")
        for w in walk:
            state[w] = 2
