"""Primitives fitted around a mesh: the tightest box, sphere, capsule and cylinder enclosing its vertices.

Every fit is made in the mesh's own frame (the node's space) and returned with the pose of the shape in that
frame: the model's box is axis-aligned and its round shapes are centred on the origin with their axis along
+Y, so a fit that is rotated or off-centre is written on a child node carrying that pose.

- box: the smaller of the axis-aligned box and trimesh's minimum-volume oriented box (trimesh.bounds:
  the box is aligned with a face of the convex hull, the exact optimum for almost all meshes; O'Rourke's
  edge-pair optimum is rarely smaller);
- sphere: the minimum enclosing sphere (trimesh.nsphere: furthest-site Voronoi of the hull vertices, exact);
- cylinder, capsule: for each candidate axis (the node's three axes, the box's axes, the vertices' principal
  axes and trimesh's minimum-cylinder axis) the exact minimum enclosing circle of the projection, then the
  shortest height (cylinder) or, over a sweep of radii from that circle's, the smallest-volume segment
  (capsule); the smallest volume over the axes wins, the node's own axes on a tie.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..model import Box, Capsule, Cylinder, Sphere

TIE = 1e-3  # relative volume within which a fit aligned with the node's axes is preferred (no rotated node)
CAPSULE_RADII = 24  # radii swept between the enclosing circle's and the half-length along the axis


@dataclass(frozen=True)
class Fit:
    """A primitive around a mesh: ``shape`` in its own frame, whose axes are the columns of ``rotation``
    and whose origin is ``centre``, both in the mesh's frame; ``volume`` in the mesh's units cubed."""

    shape: Box | Sphere | Capsule | Cylinder
    rotation: np.ndarray
    centre: np.ndarray
    volume: float

    @property
    def kind(self) -> str:
        """``box``, ``sphere``, ``capsule`` or ``cylinder``."""
        return type(self.shape).__name__.lower()

    def matrix(self) -> np.ndarray:
        """The 4×4 pose of the shape frame in the mesh frame."""
        m = np.eye(4)
        m[:3, :3], m[:3, 3] = self.rotation, self.centre
        return m


def fit(kind: str, points: np.ndarray) -> Fit:
    """The fit of ``kind`` (box, sphere, capsule, cylinder) around ``points`` (N, 3)."""
    return {"box": fit_box, "sphere": fit_sphere, "capsule": fit_capsule, "cylinder": fit_cylinder}[kind](points)


def fit_box(points: np.ndarray) -> Fit:
    """The smaller of the axis-aligned and the minimum-volume oriented box around ``points``."""
    import trimesh.bounds

    p = np.asarray(points, dtype=float)
    lo, hi = p.min(axis=0), p.max(axis=0)
    aligned = Fit(Box(size=_vec(hi - lo)), np.eye(3), _snap((lo + hi) / 2, p), float(np.prod(hi - lo)))
    if len(p) < 4:
        return aligned
    try:
        to_origin, extents = trimesh.bounds.oriented_bounds(p)
    except Exception:
        return aligned
    pose = np.linalg.inv(to_origin)
    rotation, sizes = _nearest_identity(pose[:3, :3], np.asarray(extents, dtype=float))
    volume = float(np.prod(sizes))
    if aligned.volume <= volume * (1 + TIE):
        return aligned
    return Fit(Box(size=_vec(sizes)), rotation, _snap(pose[:3, 3], p), volume)


def fit_sphere(points: np.ndarray) -> Fit:
    """The minimum enclosing sphere of ``points``."""
    import trimesh.nsphere

    p = _hull_points(points)
    centre, radius = trimesh.nsphere.minimum_nsphere(p)
    radius = float(radius)
    return Fit(Sphere(radius=radius), np.eye(3), _snap(np.asarray(centre, dtype=float), p),
               4 / 3 * math.pi * radius**3)


def fit_cylinder(points: np.ndarray) -> Fit:
    """The smallest-volume enclosing cylinder over the candidate axes."""
    p = _hull_points(points)
    return _best(_cylinder_on(p, axis) for axis in _axes(p, cylinder=True))


def fit_capsule(points: np.ndarray) -> Fit:
    """The smallest-volume enclosing capsule over the candidate axes and a sweep of radii."""
    p = _hull_points(points)
    return _best(_capsule_on(p, axis) for axis in _axes(p, cylinder=True))


# -- round shapes on one axis

def _frame(axis: np.ndarray) -> np.ndarray:
    """A rotation whose +Y column is ``axis`` and whose other columns are as close to the node's as can be."""
    a = axis / np.linalg.norm(axis)
    if a[int(np.argmax(np.abs(a)))] < 0:
        a = -a
    x = np.array([1.0, 0.0, 0.0]) - a[0] * a
    if np.linalg.norm(x) < 1e-6:
        x = np.array([0.0, 0.0, -1.0]) - a[2] * a
    x /= np.linalg.norm(x)
    return np.column_stack([x, a, np.cross(x, a)])


def _circle(p: np.ndarray, rotation: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """(the enclosing circle's centre in the axis' plane, its radius, the axial coordinates)."""
    import trimesh.nsphere

    local = p @ rotation
    flat = local[:, [0, 2]]
    try:
        centre, radius = trimesh.nsphere.minimum_nsphere(flat)
    except Exception:
        centre, radius = flat.mean(axis=0), float(np.linalg.norm(flat - flat.mean(axis=0), axis=1).max())
    return np.asarray(centre, dtype=float), float(radius), local[:, 1]


def _cylinder_on(p: np.ndarray, axis: np.ndarray) -> Fit:
    rotation = _frame(axis)
    c2, r, y = _circle(p, rotation)
    lo, hi = float(y.min()), float(y.max())
    centre = rotation @ np.array([c2[0], (lo + hi) / 2, c2[1]])
    return Fit(Cylinder(height=hi - lo, radius_bottom=r, radius_top=r), rotation, _snap(centre, p),
               math.pi * r * r * (hi - lo))


def _capsule_on(p: np.ndarray, axis: np.ndarray) -> Fit:
    rotation = _frame(axis)
    c2, r0, y = _circle(p, rotation)
    local = p @ rotation
    d = np.hypot(local[:, 0] - c2[0], local[:, 2] - c2[1])
    best: tuple[float, float, float, float] | None = None  # (volume, radius, segment, axial centre)
    reach = max(r0, (float(y.max()) - float(y.min())) / 2)
    for r in np.linspace(r0, reach, CAPSULE_RADII) if reach > r0 else [r0]:
        s = np.sqrt(np.maximum(r * r - d * d, 0.0))
        top, bottom = float((y - s).max()), float((y + s).min())  # the segment must reach [top, bottom]
        length = max(top - bottom, 0.0)
        volume = math.pi * r * r * length + 4 / 3 * math.pi * r**3
        if best is None or volume < best[0]:
            best = (volume, float(r), length, (top + bottom) / 2)
    volume, r, length, mid = best  # type: ignore[misc]
    centre = rotation @ np.array([c2[0], mid, c2[1]])
    return Fit(Capsule(height=length, radius_bottom=r, radius_top=r), rotation, _snap(centre, p), volume)


def _axes(p: np.ndarray, cylinder: bool) -> list[np.ndarray]:
    """Candidate axes, the node's own first (so that a tie keeps the collider on an unrotated node)."""
    axes = list(np.eye(3))
    box = fit_box(p)
    axes += list(box.rotation.T)
    centred = p - p.mean(axis=0)
    _, vectors = np.linalg.eigh(centred.T @ centred)
    axes += list(vectors.T)
    if cylinder and len(p) >= 4:
        axes.append(_trimesh_cylinder_axis(p))
    return [a for a in axes if a is not None and np.linalg.norm(a) > 0.5]


def _trimesh_cylinder_axis(p: np.ndarray) -> np.ndarray | None:
    import trimesh.bounds

    try:
        found = trimesh.bounds.minimum_cylinder(p)
    except Exception:
        return None
    return np.asarray(found["transform"], dtype=float)[:3, 2]


def _best(fits: object) -> Fit:
    """The smallest volume; an earlier fit (the node's axes come first) wins ties within ``TIE``."""
    chosen: Fit | None = None
    for f in fits:  # type: ignore[attr-defined]
        if chosen is None or f.volume < chosen.volume * (1 - TIE):
            chosen = f
    assert chosen is not None
    if np.allclose(chosen.rotation, np.eye(3), atol=1e-9):
        chosen = Fit(chosen.shape, np.eye(3), chosen.centre, chosen.volume)
    return chosen


# -- helpers

def _hull_points(points: np.ndarray) -> np.ndarray:
    """The hull's vertices (the only ones that can touch an enclosing shape), or the points themselves."""
    from ..geometry.hulls import convex_hull

    p = np.asarray(points, dtype=float)
    hull = convex_hull(p)
    return hull.points if hull is not None else p


def _nearest_identity(rotation: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The same box with its axes permuted and flipped so its rotation is as close to the node's as can be:
    a box symmetric under those moves, the choice only changes how the child node's rotation reads."""
    import itertools

    best = (-math.inf, rotation, sizes)
    for perm in itertools.permutations(range(3)):
        r = rotation[:, perm]
        signs = np.sign(np.diag(r))
        signs[signs == 0] = 1
        r = r * signs
        if np.linalg.det(r) < 0:
            r[:, int(np.argmin(np.abs(np.diag(r))))] *= -1
        if np.trace(r) > best[0]:
            best = (float(np.trace(r)), r, sizes[list(perm)])
    return best[1], best[2]


def _snap(centre: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``centre`` with components below a billionth of the mesh's size made exactly zero."""
    size = float(np.ptp(p, axis=0).max()) if len(p) else 1.0
    out = np.asarray(centre, dtype=float).copy()
    out[np.abs(out) <= 1e-9 * max(size, 1e-300)] = 0.0
    return out


def _vec(v: np.ndarray) -> tuple[float, float, float]:
    return (float(v[0]), float(v[1]), float(v[2]))
