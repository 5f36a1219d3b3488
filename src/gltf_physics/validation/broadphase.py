"""Broad phase for the hints: world bounding boxes of colliders and a sweep that finds which may overlap.

A scene of tens of thousands of colliders must validate in about a second (docs/performance.md), so the hints never test
every pair: boxes come from the node matrices in NumPy, candidate pairs from one vectorised sweep along x,
and only those go to the exact test (``overlap.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..geometry.placement import PlacedShape
from ..model import Box, Capsule, Cylinder, MeshShape, PhysicsScene, Sphere
from . import overlap


def collider_boxes(scene: PhysicsScene, world: list[np.ndarray],
                   placed: Callable[[int], PlacedShape | None]) -> tuple[np.ndarray, np.ndarray]:
    """World boxes of every collider: |L|·(local half box) about the node origin for boxes, capsules and
    cylinders (L the node's world 3×3, scale included), the rows' lengths × r for spheres (the ellipsoid's
    box); mesh shapes from their placed points (``placed(k)``: collider k in world space); planes and
    unplaceable shapes unbounded."""
    n = len(scene.colliders)
    lo, hi = np.full((n, 3), -np.inf), np.full((n, 3), np.inf)
    rows: list[int] = []
    halves: list[tuple[float, float, float]] = []
    spheres: list[int] = []
    radii: list[float] = []
    for k, c in enumerate(scene.colliders):
        shape = c.shape
        if isinstance(shape, Box):
            rows.append(k)
            halves.append(tuple(v / 2 for v in shape.size))  # type: ignore[arg-type]
        elif isinstance(shape, Sphere):
            spheres.append(k)
            radii.append(shape.radius)
        elif isinstance(shape, (Capsule, Cylinder)):
            r = max(shape.radius_bottom, shape.radius_top)
            rows.append(k)
            halves.append((r, shape.height / 2 + (r if isinstance(shape, Capsule) else 0.0), r))
        elif isinstance(shape, MeshShape) and (p := placed(k)) is not None:
            lo[k], hi[k] = overlap.bounds(p)  # type: ignore[misc]
    world = np.asarray(world)
    nodes = np.asarray([c.node for c in scene.colliders], dtype=np.int64)
    if rows:
        m = world[nodes[rows]]
        ext = np.einsum("kij,kj->ki", np.abs(m[:, :3, :3]), np.asarray(halves, dtype=float))
        lo[rows], hi[rows] = m[:, :3, 3] - ext, m[:, :3, 3] + ext
    if spheres:
        m = world[nodes[spheres]]
        ext = np.linalg.norm(m[:, :3, :3], axis=2) * np.asarray(radii, dtype=float)[:, None]
        lo[spheres], hi[spheres] = m[:, :3, 3] - ext, m[:, :3, 3] + ext
    bad = ~(np.isfinite(lo).all(axis=1) | np.isinf(lo).all(axis=1)) | np.isnan(hi).any(axis=1)
    lo[bad], hi[bad] = -np.inf, np.inf  # NaN transforms: unbounded (the exact test rejects them)
    return lo, hi


def near(lo: np.ndarray, hi: np.ndarray, box: tuple[np.ndarray, np.ndarray] | None, depth: float) -> np.ndarray:
    """Indices whose boxes overlap ``box`` by more than ``depth`` on every axis (a deeper overlap needs it)."""
    if box is None:
        return np.arange(len(lo))
    return np.flatnonzero(np.all(hi - box[0] > depth, axis=1) & np.all(box[1] - lo > depth, axis=1))


@dataclass
class Sweep:
    """Boxes (``index``: what they belong to, e.g. collider indices) ready for queries: sorted by their lower
    x, so a query only looks at the window that can reach it; the few boxes much wider than the rest (floors,
    planes) are always looked at."""

    index: list[int]
    lo: np.ndarray
    hi: np.ndarray
    order: np.ndarray = field(init=False)
    lo_x: np.ndarray = field(init=False)
    reach: float = field(init=False)
    wide: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        width = self.hi[:, 0] - self.lo[:, 0]
        finite = np.isfinite(width)
        limit = 8.0 * float(np.median(width[finite])) if finite.any() else 0.0
        small = finite & (width <= limit)
        self.wide = np.flatnonzero(~small)
        self.order = np.flatnonzero(small)[np.argsort(self.lo[small, 0], kind="stable")]
        self.lo_x = self.lo[self.order, 0]
        self.reach = float(width[small].max()) if small.any() else 0.0

    def pairs(self, lo: np.ndarray, hi: np.ndarray, depth: float) -> tuple[np.ndarray, np.ndarray]:
        """Every (query row, position) whose boxes overlap by more than ``depth``, for (n, 3) query boxes
        at once (all finite): the sweep windows and the wide boxes, tested in one NumPy pass, by row."""
        first = np.searchsorted(self.lo_x, lo[:, 0] - self.reach, side="left")
        last = np.searchsorted(self.lo_x, hi[:, 0] - depth, side="left")
        counts = np.maximum(last - first, 0)
        rows = np.repeat(np.arange(len(lo)), counts)
        starts = np.repeat(first - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        cols = self.order[np.arange(len(rows)) + starts] if len(rows) else np.zeros(0, dtype=np.int64)
        if len(self.wide):
            rows = np.concatenate([rows, np.repeat(np.arange(len(lo)), len(self.wide))])
            cols = np.concatenate([cols, np.tile(self.wide, len(lo))])
        keep = np.all(self.hi[cols] - lo[rows] > depth, axis=1) & np.all(hi[rows] - self.lo[cols] > depth, axis=1)
        rows, cols = rows[keep], cols[keep]
        sort = np.lexsort((cols, rows))
        return rows[sort], cols[sort]

    def near(self, box: tuple[np.ndarray, np.ndarray] | None, depth: float) -> np.ndarray:
        """Positions (into ``index``) whose boxes overlap ``box`` by more than ``depth`` on every axis."""
        if box is None:
            return np.arange(len(self.index))
        first = np.searchsorted(self.lo_x, box[0][0] - self.reach, side="left")
        last = np.searchsorted(self.lo_x, box[1][0] - depth, side="left")
        window = np.concatenate([self.order[first:last], self.wide])
        return window[near(self.lo[window], self.hi[window], box, depth)]
