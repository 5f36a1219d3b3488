"""Node frames for every engine: world matrices of a whole document for the world build (the common node shapes
computed in bulk), and a node's matrix now as carried by its nearest body (:func:`carried_matrix`).

The runtime's matrices are the ones it has always built (traces stay byte-identical): a node whose only
transform is a well-formed ``translation`` (or none) gets its local matrix from one NumPy array, any other
node goes through ``local_matrix``, and each world matrix is ``parent world @ local`` (a root's is
``identity @ local``, which turns a -0.0 into 0.0). ``gltf.transforms.world_matrices`` composes TRS
differently in its last bits, so it is not used here; its composition order (one batched product per
hierarchy level, the same cycle rule as the node-by-node walk) is.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

import numpy as np

from ..geometry.frames import body_frame
from ..gltf.hierarchy import ancestors, parents
from ..gltf.transforms import _composition_order, local_matrix, quat_to_matrix

_OTHER_TRANSFORMS = frozenset(("rotation", "scale", "matrix"))
_REALS = frozenset((int, float))


def world_matrices(gltf: dict[str, Any]) -> list[np.ndarray]:
    """World 4×4 of every node (parents before children; a cycle's nodes are treated as roots)."""
    nodes = gltf.get("nodes") or []
    if not nodes:
        return []
    local = _local_matrices(nodes)
    effective, depth = _composition_order(parents(gltf))
    levels = np.asarray(depth, dtype=np.int64)
    order = np.argsort(levels, kind="stable")
    bounds = np.searchsorted(levels[order], np.arange(0, int(levels.max()) + 2))
    parent = np.asarray([-1 if p is None else p for p in effective], dtype=np.int64)
    world = np.empty_like(local)
    with np.errstate(all="ignore"):  # a huge chain may overflow: callers check finiteness where it matters
        roots = order[bounds[0]:bounds[1]]
        world[roots] = np.matmul(np.eye(4), local[roots])  # batched products equal the one-by-one ones
        for level in range(1, len(bounds) - 1):
            idx = order[bounds[level]:bounds[level + 1]]
            world[idx] = np.matmul(world[parent[idx]], local[idx])
    return list(world)


def _local_matrices(nodes: list[Any]) -> np.ndarray:
    simple = [i for i, n in enumerate(nodes) if isinstance(n, dict) and _translation_only(n)]
    out = np.tile(np.eye(4), (len(nodes), 1, 1))
    if simple:
        out[simple, :3, 3] = [nodes[i].get("translation", (0.0, 0.0, 0.0)) for i in simple]
    if len(simple) < len(nodes):
        done = set(simple)
        for i, n in enumerate(nodes):
            if i not in done:
                out[i] = local_matrix(n if isinstance(n, dict) else {})
    return out


def _translation_only(node: dict[str, Any]) -> bool:
    if not _OTHER_TRANSFORMS.isdisjoint(node.keys()):
        return False
    t = node.get("translation")
    if t is None:
        return True
    return (t.__class__ is list and len(t) == 3 and set(map(type, t)) <= _REALS
            and all(abs(v) < 1e300 for v in t))  # exact for any int (no float conversion); NaN and ∞ fail


def nearest_body(gltf: dict[str, Any], bodies: Container[int], node: int) -> int | None:
    """``node`` itself or its nearest ancestor that is in ``bodies`` (None: no body carries it)."""
    if node in bodies:
        return node
    return next((a for a in ancestors(parents(gltf), node) if a in bodies), None)


def carried_matrix(gltf: dict[str, Any], start: list[np.ndarray], bodies: Container[int],
                   pose: Callable[[int], tuple[Any, Any]], node: int) -> np.ndarray:
    """World matrix (4×4) of ``node`` now: where its nearest body (``pose(body)``: translation, xyzw rotation) has
    taken it from the build's matrices ``start``, the node's scale kept; a node no body carries stays at ``start``."""
    body = nearest_body(gltf, bodies, node)
    if body is None:
        return start[node]
    t, q = pose(body)
    now = np.eye(4)
    now[:3, :3] = quat_to_matrix(q)
    now[:3, 3] = t
    return now @ np.linalg.inv(body_frame(start[body])) @ start[node]
