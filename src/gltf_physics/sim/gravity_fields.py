"""Gravity-field math (OMI_physics_gravity, DIGEST §7, §11 "Gravity"): engine-agnostic, pure NumPy.

- :func:`field_acceleration` — the acceleration one volume gives at a world point: ``gravity·direction``
  (directional, the node-relative direction turned into world space), or ``gravity`` towards the nearest point
  of the volume's target (point: the node origin; disc: the filled circle of ``radius`` in local XZ; torus: that
  circle's edge; line: the polyline through ``points``; shaped: the shape's surface or interior), with strength
  ``gravity·(unitDistance/d)²`` when ``unitDistance > 0``, else constant. Negative gravity repels. A point on
  the target (d = 0) has no direction: it gets no acceleration from that volume.
- :func:`combine` — DIGEST §11: volumes sorted by priority, high first; a = 0; per volume ``a = c`` when it
  replaces, else ``a += c``; a volume that stops ends the walk; otherwise world gravity is added last. The
  caller scales the result by the body's gravityFactor.

Volumes of equal priority keep the order given (document order of the fields): the spec does not order them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..model.gravity import GravityField, GravityType
from ..model.shapes import Box, Capsule, Cylinder, Shape, Sphere

_EPS = 1e-12


@dataclass(frozen=True)
class Contribution:
    """One volume's pull on one body, with the volume's combination flags."""

    priority: float
    replace: bool
    stop: bool
    acceleration: np.ndarray  # (3,) m/s²


def field_acceleration(field: GravityField, node_matrix: np.ndarray, point: Sequence[float]) -> np.ndarray:
    """World acceleration (3,) of ``field`` (on a node with world matrix ``node_matrix``, 4×4) at ``point``."""
    m = np.asarray(node_matrix, dtype=np.float64)
    rot = _rotation_only(m[:3, :3])
    if field.type is GravityType.DIRECTIONAL:
        d = rot @ np.asarray(field.direction, dtype=np.float64)
        n = np.linalg.norm(d)
        return field.gravity * d / n if n > _EPS else np.zeros(3)
    p = np.asarray(point, dtype=np.float64)
    # Work in the node's frame without scale: distances stay metric (the spec gives sizes in node units,
    # and OMI discourages scaled gravity nodes).
    local = rot.T @ (p - m[:3, 3])
    target = nearest_point(field, local)
    if target is None:
        return np.zeros(3)
    offset = target - local
    dist = float(np.linalg.norm(offset))
    if dist < 1e-9:
        return np.zeros(3)
    strength = field.gravity
    if field.unit_distance > 0:
        strength *= (field.unit_distance / dist) ** 2
    return rot @ (strength * offset / dist)


def nearest_point(field: GravityField, local: np.ndarray) -> np.ndarray | None:
    """The nearest point of the field's target to ``local`` (node frame); None when it has no target."""
    t = field.type
    if t is GravityType.POINT:
        return np.zeros(3)
    if t is GravityType.DISC:
        return _nearest_on_circle(local, field.radius, filled=True)
    if t is GravityType.TORUS:
        return _nearest_on_circle(local, field.radius, filled=False)
    if t is GravityType.LINE:
        return _nearest_on_polyline(local, field.points)
    if t is GravityType.SHAPED and field.shape is not None:
        return nearest_on_shape(field.shape, local)
    return None


def _nearest_on_circle(p: np.ndarray, radius: float, *, filled: bool) -> np.ndarray:
    """Nearest point of the circle of ``radius`` in the XZ plane (its disc when ``filled``)."""
    r = math.hypot(p[0], p[2])
    if filled and r <= radius:
        return np.array([p[0], 0.0, p[2]])
    if r < _EPS:  # on the axis of a torus: every rim point is as near; pick +X
        return np.array([radius, 0.0, 0.0])
    return np.array([p[0] * radius / r, 0.0, p[2] * radius / r])


def _nearest_on_polyline(p: np.ndarray, points: Sequence[Sequence[float]]) -> np.ndarray | None:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    if len(pts) == 0:
        return None
    if len(pts) == 1:
        return pts[0].copy()
    a, b = pts[:-1], pts[1:]
    ab = b - a
    length2 = np.einsum("ij,ij->i", ab, ab)
    s = np.where(length2 > _EPS, np.einsum("ij,ij->i", p - a, ab) / np.maximum(length2, _EPS), 0.0)
    q = a + np.clip(s, 0.0, 1.0)[:, None] * ab
    return q[int(np.argmin(np.linalg.norm(q - p, axis=1)))]


def nearest_on_shape(shape: Shape, p: np.ndarray) -> np.ndarray | None:
    """Nearest point of a solid shape (centred on its node) to ``p``; ``p`` itself when inside.

    Exact for boxes, spheres, capsules and straight cylinders; a tapered capsule or cylinder uses its larger
    radius. Other shapes (planes, meshes) have no target here: None.
    """
    if isinstance(shape, Box):
        half = np.asarray(shape.size, dtype=np.float64) / 2
        return np.clip(p, -half, half)
    if isinstance(shape, Sphere):
        return _clamp_ball(p, np.zeros(3), shape.radius)
    if isinstance(shape, Capsule):
        h = shape.height / 2
        axis_point = np.array([0.0, min(max(p[1], -h), h), 0.0])
        return _clamp_ball(p, axis_point, max(shape.radius_bottom, shape.radius_top))
    if isinstance(shape, Cylinder):
        h = shape.height / 2
        r = max(shape.radius_bottom, shape.radius_top)
        q = _nearest_on_circle(p, r, filled=True)
        return np.array([q[0], min(max(p[1], -h), h), q[2]])
    return None


def _clamp_ball(p: np.ndarray, centre: np.ndarray, radius: float) -> np.ndarray:
    d = p - centre
    n = float(np.linalg.norm(d))
    return p.copy() if n <= radius else centre + d * (radius / n)


def combine(contributions: Iterable[Contribution], world: Sequence[float]) -> np.ndarray:
    """DIGEST §11 "Gravity": priority high first, replace / add, stop ends; else world gravity last."""
    a = np.zeros(3)
    for c in sorted(contributions, key=lambda c: -c.priority):  # stable: ties keep the given order
        a = np.array(c.acceleration, dtype=np.float64) if c.replace else a + c.acceleration
        if c.stop:
            return a
    return a + np.asarray(world, dtype=np.float64)


def _rotation_only(m3: np.ndarray) -> np.ndarray:
    """The rotation of a 3×3 linear map without its scale (columns normalised; |scale| as per DESIGN §3)."""
    norms = np.linalg.norm(m3, axis=0)
    norms[norms < _EPS] = 1.0
    r = m3 / norms
    if np.linalg.det(r) < 0:  # a mirror: keep a proper rotation
        r[:, 0] = -r[:, 0]
    return r
