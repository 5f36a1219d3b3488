"""Gravity-field math (OMI_physics_gravity, docs/semantics.md): engine-agnostic, pure NumPy.

- :func:`field_acceleration` — the acceleration one volume gives at a world point: ``gravity·direction``
  (directional, the node-relative direction turned into world space), or ``gravity`` towards the nearest point
  of the volume's target (point: the node origin; disc: the filled circle of ``radius`` in local XZ; torus: that
  circle's edge; line: the polyline through ``points``; shaped: the shape's surface or interior), with strength
  ``gravity·(unitDistance/d)²`` when ``unitDistance > 0``, else constant. Negative gravity repels. A point on
  the target (d = 0) has no direction: it gets no acceleration from that volume.
- :func:`combine` — docs/semantics.md: volumes sorted by priority, high first; a = 0; per volume ``a = c`` when it
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
    pts = np.asarray(point, dtype=np.float64).reshape(1, 3)
    return field_accelerations(field, _rotation_only(m[:3, :3]), m[:3, 3], pts)[0]


def field_accelerations(field: GravityField, rot: np.ndarray, origin: np.ndarray, points: np.ndarray) -> np.ndarray:
    """World accelerations (N, 3) of ``field`` at world ``points`` (N, 3), the field node's frame given as its
    scale-free rotation ``rot`` (3×3, see :func:`node_rotation`) and world ``origin`` (3,). One NumPy pass."""
    n = len(points)
    if field.type is GravityType.DIRECTIONAL:
        d = rot @ np.asarray(field.direction, dtype=np.float64)
        norm = math.sqrt(float(d @ d))
        a = field.gravity * d / norm if norm > _EPS else np.zeros(3)
        return np.broadcast_to(a, (n, 3)).copy()
    # Work in the node's frame without scale: distances stay metric (the spec gives sizes in node units,
    # and OMI discourages scaled gravity nodes).
    local = (np.asarray(points, dtype=np.float64) - origin) @ rot
    target = nearest_points(field, local)
    if target is None:
        return np.zeros((n, 3))
    offset = target - local
    dist = np.sqrt(np.einsum("ij,ij->i", offset, offset))
    ok = dist >= 1e-9  # a point on the target has no direction: no pull
    safe = np.where(ok, dist, 1.0)
    strength = np.full(n, float(field.gravity))
    if field.unit_distance > 0:
        strength = strength * (field.unit_distance / safe) ** 2
    out = (strength / safe * ok)[:, None] * offset
    return out @ rot.T


def node_rotation(node_matrix: np.ndarray) -> np.ndarray:
    """The scale-free rotation (3×3) of a field node's world matrix, as the field math uses it."""
    return _rotation_only(np.asarray(node_matrix, dtype=np.float64)[:3, :3])


def nearest_point(field: GravityField, local: np.ndarray) -> np.ndarray | None:
    """The nearest point of the field's target to ``local`` (node frame); None when it has no target."""
    out = nearest_points(field, np.asarray(local, dtype=np.float64).reshape(1, 3))
    return None if out is None else out[0]


def nearest_points(field: GravityField, local: np.ndarray) -> np.ndarray | None:
    """The nearest point of the field's target to each row of ``local`` (N, 3, node frame); None: no target."""
    t = field.type
    if t is GravityType.POINT:
        return np.zeros_like(local)
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
    """Nearest points (N, 3) of the circle of ``radius`` in the XZ plane (its disc when ``filled``)."""
    r = np.hypot(p[:, 0], p[:, 2])
    inside = (r <= radius) if filled else np.zeros(len(p), dtype=bool)
    on_axis = r < _EPS  # on the axis of a torus: every rim point is as near; pick +X
    k = np.where(inside, 1.0, radius / np.where(on_axis, 1.0, r))
    out = np.stack([p[:, 0] * k, np.zeros(len(p)), p[:, 2] * k], axis=1)
    out[on_axis & ~inside] = (radius, 0.0, 0.0)
    return out


def _nearest_on_polyline(p: np.ndarray, points: Sequence[Sequence[float]]) -> np.ndarray | None:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    if len(pts) == 0:
        return None
    if len(pts) == 1:
        return np.broadcast_to(pts[0], p.shape).copy()
    a, b = pts[:-1], pts[1:]  # (S, 3)
    ab = b - a
    length2 = np.einsum("ij,ij->i", ab, ab)
    rel = p[:, None, :] - a[None, :, :]  # (N, S, 3)
    s = np.where(length2 > _EPS, np.einsum("nij,ij->ni", rel, ab) / np.maximum(length2, _EPS), 0.0)
    q = a[None] + np.clip(s, 0.0, 1.0)[:, :, None] * ab[None]  # (N, S, 3)
    best = np.argmin(np.linalg.norm(q - p[:, None, :], axis=2), axis=1)
    return q[np.arange(len(p)), best]


def nearest_on_shape(shape: Shape, p: np.ndarray) -> np.ndarray | None:
    """Nearest points of a solid shape (centred on its node) to ``p`` ((3,) or (N, 3)); ``p`` itself inside.

    Exact for boxes, spheres, capsules and straight cylinders; a tapered capsule or cylinder uses its larger
    radius. Other shapes (planes, meshes) have no target here: None.
    """
    p = np.asarray(p, dtype=np.float64)
    if p.ndim == 1:
        out = nearest_on_shape(shape, p.reshape(1, 3))
        return None if out is None else out[0]
    if isinstance(shape, Box):
        half = np.asarray(shape.size, dtype=np.float64) / 2
        return np.clip(p, -half, half)
    if isinstance(shape, Sphere):
        return _clamp_ball(p, np.zeros_like(p), shape.radius)
    if isinstance(shape, Capsule):
        h = shape.height / 2
        axis_point = np.zeros_like(p)
        axis_point[:, 1] = np.clip(p[:, 1], -h, h)
        return _clamp_ball(p, axis_point, max(shape.radius_bottom, shape.radius_top))
    if isinstance(shape, Cylinder):
        h = shape.height / 2
        r = max(shape.radius_bottom, shape.radius_top)
        q = _nearest_on_circle(p, r, filled=True)
        q[:, 1] = np.clip(p[:, 1], -h, h)
        return q
    return None


def _clamp_ball(p: np.ndarray, centre: np.ndarray, radius: float) -> np.ndarray:
    d = p - centre
    n = np.sqrt(np.einsum("ij,ij->i", d, d))
    inside = n <= radius
    k = np.where(inside, 1.0, radius / np.where(inside, 1.0, n))
    return np.where(inside[:, None], p, centre + d * k[:, None])


def combine_many(order: Sequence[tuple[bool, bool]], accelerations: np.ndarray, members: np.ndarray,
                 world: Sequence[float]) -> np.ndarray:
    """:func:`combine` for N bodies at once. ``order``: (replace, stop) of each volume, already sorted by
    priority high first (stable); ``accelerations`` (V, N, 3) and ``members`` (V, N) bool in that order.
    Bodies in no volume get world gravity (callers apply this only to bodies in some volume)."""
    n = members.shape[1]
    a = np.zeros((n, 3))
    done = np.zeros(n, dtype=bool)
    for (replace, stop), acc, member in zip(order, accelerations, members, strict=True):
        m = member & ~done
        if replace:  # masked in place (the same element operations as a[m] = acc[m], without the gathers)
            np.copyto(a, acc, where=m[:, None])
        else:
            np.add(a, acc, out=a, where=m[:, None])
        if stop:
            done |= m
    np.add(a, np.asarray(world, dtype=np.float64), out=a, where=~done[:, None])
    return a


def combine(contributions: Iterable[Contribution], world: Sequence[float]) -> np.ndarray:
    """docs/semantics.md: priority high first, replace / add, stop ends; else world gravity last."""
    a = np.zeros(3)
    for c in sorted(contributions, key=lambda c: -c.priority):  # stable: ties keep the given order
        a = np.array(c.acceleration, dtype=np.float64) if c.replace else a + c.acceleration
        if c.stop:
            return a
    return a + np.asarray(world, dtype=np.float64)


def _rotation_only(m3: np.ndarray) -> np.ndarray:
    """The rotation of a 3×3 linear map without its scale (columns normalised; |scale| as per docs/semantics.md)."""
    norms = np.linalg.norm(m3, axis=0)
    norms[norms < _EPS] = 1.0
    r = m3 / norms
    if np.linalg.det(r) < 0:  # a mirror: keep a proper rotation
        r[:, 0] = -r[:, 0]
    return r
