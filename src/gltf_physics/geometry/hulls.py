"""Convex hulls and closed meshes: the hull of a point set by qhull (``scipy.spatial.ConvexHull``, the reference
Quickhull in C: a few hundredths of a second on a 100,000-triangle mesh where the project's former Python hull took
seconds; ``bench/author.py``), triangles wound outward, and the closed-mesh test that decides whether a triangle
mesh has a volume. SciPy is imported on the first hull, not with this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .native_inputs import qhull_problem


def is_closed(points: np.ndarray, triangles: np.ndarray) -> bool:
    """True when, after welding coincident vertices, every directed edge has exactly one opposite edge."""
    if len(triangles) < 4:
        return False
    p = np.asarray(points, dtype=float)
    scale = float(np.abs(p).max()) or 1.0
    _, weld = np.unique(np.round(p / (scale * 1e-9)), axis=0, return_inverse=True)
    t = weld.reshape(-1)[np.asarray(triangles)]
    t = t[(t[:, 0] != t[:, 1]) & (t[:, 1] != t[:, 2]) & (t[:, 0] != t[:, 2])]
    if len(t) < 4:
        return False
    n = int(t.max()) + 1
    e = np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])
    fwd = e[:, 0] * n + e[:, 1]
    rev = e[:, 1] * n + e[:, 0]
    return len(np.unique(fwd)) == len(fwd) and np.array_equal(np.sort(fwd), np.sort(rev))


@dataclass(frozen=True)
class Hull:
    """A convex hull: ``points`` (V, 3) are its vertices only, ``triangles`` (T, 3) index them, wound outward;
    ``normals`` (F, 3) and ``offsets`` (F,) are its facet planes (``normals @ x + offsets <= 0`` inside)."""

    points: np.ndarray
    triangles: np.ndarray
    volume: float
    normals: np.ndarray
    offsets: np.ndarray

    def contains(self, points: np.ndarray, tolerance: float = 0.0) -> np.ndarray:
        """Whether each of ``points`` (N, 3) is inside the hull or within ``tolerance`` of it."""
        return np.all(points @ self.normals.T + self.offsets <= tolerance, axis=1)


def _qhull(points: np.ndarray) -> Any:  # a scipy ConvexHull, or None
    """The one call into qhull: ``None`` for points it must not see (:func:`.native_inputs.qhull_problem`: a
    coordinate of 1e300 crashed it) as for the flat sets it refuses itself."""
    from scipy.spatial import ConvexHull, QhullError

    if qhull_problem(points) is not None:
        return None
    try:
        return ConvexHull(points)
    except (QhullError, ValueError):  # fewer than 4 points, or all of them in a plane or on a line
        return None


def hull_triangles(points: np.ndarray) -> np.ndarray:
    """Outward-wound triangles (m, 3) indexing ``points``, the convex hull's faces; empty when the points are
    (nearly) flat or fewer than four."""
    p = np.asarray(points, dtype=float)
    if len(p) < 4 or not np.isfinite(p).all():
        return np.zeros((0, 3), dtype=np.int64)
    qh = _qhull(p)
    if qh is None or _flat(qh.volume, p):
        return np.zeros((0, 3), dtype=np.int64)
    return _outward(p, qh.simplices.astype(np.int64), qh.equations[:, :3])


def _flat(volume: float, p: np.ndarray) -> bool:
    """A hull too thin to hold a volume: under 1e-12 of its extent cubed (divided, never cubed: an extent near
    the float limit would overflow)."""
    extent = float(np.ptp(p, axis=0).max())
    return extent == 0.0 or volume / extent / extent / extent <= 1e-12


def _outward(p: np.ndarray, simplices: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """qhull lists each facet's vertices in no particular order: flip those whose winding faces inward."""
    a, b, c = (p[simplices[:, k]] for k in range(3))
    inward = np.einsum("ij,ij->i", np.cross(b - a, c - a), normals) < 0
    simplices = simplices.copy()
    simplices[inward] = simplices[inward][:, [0, 2, 1]]
    return simplices


def convex_hull(points: np.ndarray) -> Hull | None:
    """The hull of ``points`` (N, 3) with its own compact vertex list, or ``None`` when it has no volume."""
    p = np.asarray(points, dtype=float)
    if len(p) < 4 or not np.isfinite(p).all():
        return None
    qh = _qhull(p)
    if qh is None or _flat(qh.volume, p):
        return None
    tris = _outward(p, qh.simplices.astype(np.int64), qh.equations[:, :3])
    used, remap = np.unique(tris, return_inverse=True)
    return Hull(points=p[used], triangles=remap.reshape(-1, 3).astype(np.int64), volume=float(qh.volume),
                normals=qh.equations[:, :3].copy(), offsets=qh.equations[:, 3].copy())
