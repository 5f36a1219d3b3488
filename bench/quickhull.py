"""The project's former pure-Python incremental quickhull, kept here only as the baseline ``bench/author.py``
measures qhull against (the runtime's hulls are qhull's: ``gltf_physics.geometry.hulls``)."""

from __future__ import annotations

import numpy as np


def python_hull(points: np.ndarray) -> np.ndarray:
    """Outward-wound triangles (m,3) of the convex hull of ``points``; empty when they are (nearly) flat.

    Quickhull: every point outside the hull is assigned to one face it sees; a face's farthest point is
    added next, the faces it sees are replaced by a fan over their horizon, and only their points are
    reassigned (to the new faces). A relative tolerance keeps coplanar points from being added.
    """
    p = np.asarray(points, dtype=float)
    if len(p) < 4:
        return np.zeros((0, 3), dtype=np.int64)
    eps = 1e-9 * max(float(np.ptp(p, axis=0).max()), 1e-300)
    start = _initial_tetrahedron(p, eps)
    if start is None:
        return np.zeros((0, 3), dtype=np.int64)
    hull = _Hull(p, eps)
    hull.add_faces(start, np.arange(len(p)))
    while hull.pending:
        f = hull.pending.pop()
        if hull.alive[f] and len(hull.outside[f]):
            hull.expand(f)
    return np.array(hull.faces, dtype=np.int64)[hull.alive[: len(hull.faces)]]


class _Hull:
    def __init__(self, p: np.ndarray, eps: float) -> None:
        self.p, self.eps = p, eps
        self.faces: list[tuple[int, int, int]] = []
        self.outside: list[np.ndarray] = []
        self.alive = np.zeros(64, dtype=bool)  # arrays grow by doubling: appends stay amortised O(1)
        self.normals = np.zeros((64, 3))
        self.offsets = np.zeros(64)
        self.pending: list[int] = []
        self.edges: dict[tuple[int, int], int] = {}  # directed edge → the face it belongs to

    def add_faces(self, faces: list[tuple[int, int, int]], candidates: np.ndarray) -> None:
        n, o = _planes(self.p, np.array(faces))
        first, count = len(self.faces), len(faces)
        if first + count > len(self.alive):
            size = 2 * (first + count)
            self.alive = np.concatenate([self.alive, np.zeros(size - len(self.alive), dtype=bool)])
            self.normals = np.vstack([self.normals, np.zeros((size - len(self.normals), 3))])
            self.offsets = np.concatenate([self.offsets, np.zeros(size - len(self.offsets))])
        self.faces += faces
        for k, (a, b, c) in enumerate(faces):
            self.edges[(a, b)] = self.edges[(b, c)] = self.edges[(c, a)] = first + k
        self.alive[first:first + count] = True
        self.normals[first:first + count] = n
        self.offsets[first:first + count] = o
        if len(candidates):
            d = self.p[candidates] @ n.T - o
            best = d.argmax(axis=1)
            out = d[np.arange(len(candidates)), best] > self.eps
        for k in range(count):
            self.outside.append(candidates[out & (best == k)] if len(candidates) else candidates)
            if len(self.outside[-1]):
                self.pending.append(first + k)

    def expand(self, f: int) -> None:
        pts = self.outside[f]
        apex = int(pts[np.argmax(self.p[pts] @ self.normals[f] - self.offsets[f])])
        apex_p = self.p[apex]
        visible, stack = {f}, [f]
        while stack:  # the faces seeing the apex form a connected patch: walk it through shared edges
            face = self.faces[stack.pop()]
            for k in range(3):
                n = self.edges.get((face[(k + 1) % 3], face[k]))
                if n is not None and n not in visible and self.normals[n] @ apex_p - self.offsets[n] > self.eps:
                    visible.add(n)
                    stack.append(n)
        horizon, inner = [], []
        for v in visible:
            face = self.faces[v]
            for k in range(3):
                e = (face[k], face[(k + 1) % 3])
                (inner if self.edges.get((e[1], e[0])) in visible else horizon).append(e)
        for e in inner:
            del self.edges[e]
        vis = sorted(visible)
        orphans = np.unique(np.concatenate([self.outside[v] for v in vis]))
        self.alive[vis] = False
        for v in vis:
            self.outside[v] = orphans[:0]
        self.add_faces([(a, b, apex) for a, b in sorted(horizon)], orphans[orphans != apex])


def _initial_tetrahedron(p: np.ndarray, eps: float) -> list[tuple[int, int, int]] | None:
    i0 = int(np.argmin(p[:, 0]))
    i1 = int(np.argmax(np.linalg.norm(p - p[i0], axis=1)))
    d = p[i1] - p[i0]
    if np.linalg.norm(d) <= eps:
        return None
    i2 = int(np.argmax(np.linalg.norm(np.cross(p - p[i0], d), axis=1)))
    n = np.cross(d, p[i2] - p[i0])
    if np.linalg.norm(n) <= eps * np.linalg.norm(d):
        return None
    n = n / np.linalg.norm(n)
    h = (p - p[i0]) @ n
    i3 = int(np.argmax(np.abs(h)))
    if abs(h[i3]) <= eps:
        return None
    if h[i3] > 0:  # make (i0, i1, i2) face away from i3
        i1, i2 = i2, i1
    return [(i0, i1, i2), (i0, i3, i1), (i1, i3, i2), (i2, i3, i0)]


def _planes(p: np.ndarray, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a, b, c = p[faces[:, 0]], p[faces[:, 1]], p[faces[:, 2]]
    n = np.cross(b - a, c - a)
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-300)
    return n, np.einsum("ij,ij->i", n, a)
