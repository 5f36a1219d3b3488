"""Mass integrals of one placed shape at density 1: (volume, centre, inertia tensor about the centre), parent frame.

Closed forms for boxes and spheres, Gauss–Legendre over the revolution profile for capsules (tapered too) and
cylinders (tapered = frustum), divergence-theorem integrals over triangles for hulls and closed meshes. A
``trimesh`` that is not closed and consistently oriented (after welding coincident vertices) encloses no volume,
and weighs as the solid box of its bounds in the parent frame (the reading of the spec author's reference, Havok:
the spec derives mass from volume at a density in kg/m³, and the bounds are the volume the surface occupies; a
flat one has none). Planes have no mass. :func:`combine_parts` sums parts with the parallel-axis theorem;
:func:`principal_axes` diagonalises the result.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable

import numpy as np

from ..gltf.transforms import matrix_to_quat, quat_to_matrix
from ..model.bodies import IDENTITY_QUAT, Quat
from ..model.shapes import Vec3
from .hulls import hull_triangles, is_closed
from .placement import PlacedShape


@functools.cache
def _gauss_legendre() -> tuple[tuple[float, float], ...]:
    """(node, weight) of 10-point Gauss-Legendre quadrature on [-1, 1]: exact for the degree ≤ 6 revolution
    integrands. Made on first use: numpy.polynomial costs ~5 ms CPU to import, and most files have no capsule
    or cylinder (the CLI's start-up)."""
    nodes, weights = np.polynomial.legendre.leggauss(10)
    return tuple(zip(nodes.tolist(), weights.tolist(), strict=True))


Part = tuple[float, np.ndarray, np.ndarray]
Profile = tuple[float, float, Callable[[float], float]]  # y0, y1, radius(y) of a solid of revolution


def placed_mass(p: PlacedShape) -> Part:
    """Volume, centre and inertia tensor (about the centre) of ``p`` at density 1, in its parent frame."""
    integral = _MASS.get(p.kind)
    return integral(p) if integral is not None else _zero()  # a plane has no mass


def _box_mass(p: PlacedShape) -> Part:
    hx, hy, hz = p.params
    v = 8 * hx * hy * hz  # m = ρ·a·b·c, I = m/12·(b²+c², a²+c², a²+b²) with full sizes a = 2hx…
    local = np.diag([(hy * hy + hz * hz), (hx * hx + hz * hz), (hx * hx + hy * hy)]) * v / 3
    return _to_parent(v, np.zeros(3), local, p)


def _sphere_mass(p: PlacedShape) -> Part:
    (r,) = p.params
    v = 4 / 3 * math.pi * r * r * r  # products, not **: a huge r gives inf, ** raises OverflowError
    return _to_parent(v, np.zeros(3), np.eye(3) * 0.4 * v * r * r, p)


def _capsule_mass(p: PlacedShape) -> Part:
    return _to_parent(*_revolution(_capsule_profile(*p.params)), p)


def _cylinder_mass(p: PlacedShape) -> Part:
    hh, rb, rt = p.params
    return _to_parent(*_revolution([(-hh, hh, lambda y: rb + (rt - rb) * (y + hh) / (2 * hh))]), p)


def _convex_mass(p: PlacedShape) -> Part:
    tris = hull_triangles(p.points)
    return mesh_mass(p.points, tris) if len(tris) else _zero()


def _trimesh_mass(p: PlacedShape) -> Part:
    return mesh_mass(p.points, p.triangles) if is_closed(p.points, p.triangles) else bounds_mass(p.points)


def bounds_mass(points: np.ndarray) -> Part:
    """Volume, centre and inertia per unit density of the solid axis-aligned box bounding ``points``."""
    if points is None or len(points) == 0:
        return _zero()
    lo, hi = np.min(points, axis=0), np.max(points, axis=0)
    a, b, c = (hi - lo).tolist()
    v = a * b * c
    if not v > 0:
        return _zero()
    return float(v), (lo + hi) / 2, np.diag([b * b + c * c, a * a + c * c, a * a + b * b]) * v / 12


def _zero() -> Part:
    return 0.0, np.zeros(3), np.zeros((3, 3))


def _to_parent(v: float, com: np.ndarray, inertia: np.ndarray, p: PlacedShape) -> Part:
    r = quat_to_matrix(p.rotation)
    return v, r @ com + np.asarray(p.translation), r @ inertia @ r.T


def _capsule_profile(hh: float, rb: float, rt: float) -> list[Profile]:
    """Radius profile along Y of the convex hull of two spheres (centres ∓hh, radii rb, rt)."""
    y1, y2, h = -hh, hh, 2 * hh
    if not all(math.isfinite(v) and v >= 0 for v in (hh, rb, rt)):
        return []  # no solid: a non-finite or negative size has no volume (the runtime refuses it earlier)
    if h <= abs(rb - rt):  # one sphere contains the other
        y, r = (y1, rb) if rb >= rt else (y2, rt)
        return [_sphere_piece(y, r, y - r, y + r)]
    s = (rb - rt) / h  # sine of the half-angle: the tangent cone touches sphere i at y_i + r_i·s
    a, b = y1 + rb * s, y2 + rt * s
    if not b > a:  # rounding at a tangent-cone length of ~0: the larger sphere is the whole shape
        y, r = (y1, rb) if rb >= rt else (y2, rt)
        return [_sphere_piece(y, r, y - r, y + r)]
    ra, rbb = rb * math.sqrt(1 - s * s), rt * math.sqrt(1 - s * s)
    return [_sphere_piece(y1, rb, y1 - rb, a),
            (a, b, lambda y: ra + (rbb - ra) * (y - a) / (b - a)),
            _sphere_piece(y2, rt, b, y2 + rt)]


def _sphere_piece(c: float, r: float, y0: float, y1: float) -> Profile:
    return y0, y1, lambda y: math.sqrt(max(r * r - (y - c) * (y - c), 0.0))



def _revolution(pieces: Iterable[Profile]) -> Part:
    """Volume, centre and inertia (about the centre) of a solid of revolution about Y, radius r(y)."""
    v = my = iyy = ixx0 = 0.0
    for y0, y1, radius in pieces:
        if y1 <= y0:
            continue
        half = (y1 - y0) / 2
        for x, w in _gauss_legendre():
            y = y0 + half * (x + 1)
            r = radius(y)
            r2 = r * r
            dv = w * half * math.pi * r2  # disc of radius r, thickness dy
            v += dv
            my += dv * y
            iyy += dv * r2 / 2  # disc about its axis: m r²/2
            ixx0 += dv * (r2 / 4 + y * y)  # disc about a diameter m r²/4, moved by y (parallel axis)
    if v <= 0:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    cy = my / v
    ixx = ixx0 - v * cy * cy
    return v, np.array([0.0, cy, 0.0]), np.diag([ixx, iyy, ixx])


def mesh_mass(points: np.ndarray, triangles: np.ndarray) -> Part:
    """Volume, centre and inertia of the solid bounded by a closed triangle mesh (either orientation).

    Sum over the tetrahedra (origin, a, b, c): volume det/6, centre (a+b+c)/4, second moment
    ∫x xᵀ dV = det/120·(aaᵀ + bbᵀ + ccᵀ + (a+b+c)(a+b+c)ᵀ).
    """
    p = np.asarray(points, dtype=float)
    origin = p.mean(axis=0)  # integrate about a nearby point: less cancellation far from the world origin
    a, b, c = (p[triangles[:, k]] - origin for k in range(3))
    det = np.einsum("ij,ij->i", a, np.cross(b, c))
    vol = det.sum() / 6
    if abs(vol) <= 1e-15 * max(1.0, float(np.abs(det).sum())):
        return _zero()
    s = a + b + c
    com = (det[:, None] * s).sum(axis=0) / 24 / vol
    second = np.einsum("i,ij,ik->jk", det, a, a) + np.einsum("i,ij,ik->jk", det, b, b) \
        + np.einsum("i,ij,ik->jk", det, c, c) + np.einsum("i,ij,ik->jk", det, s, s)
    second /= 120
    if vol < 0:  # inward-wound mesh: every term changes sign
        vol, second = -vol, -second
    cov = second - vol * np.outer(com, com)
    inertia = np.trace(cov) * np.eye(3) - cov
    return float(vol), com + origin, inertia


def combine_parts(parts: Iterable[Part]) -> Part:
    """Sum of parts about their common centre (parallel-axis theorem: I + m(|d|²E − d dᵀ))."""
    parts = [pt for pt in parts if pt[0] > 0]
    if len(parts) == 1:
        return parts[0]
    total = sum(m for m, _, _ in parts)
    if total <= 0:
        return _zero()
    com = sum(m * c for m, c, _ in parts) / total
    inertia = np.zeros((3, 3))
    for m, c, i in parts:
        d = c - com
        inertia += i + m * (float(d @ d) * np.eye(3) - np.outer(d, d))
    return float(total), com, inertia


def principal_axes(inertia: np.ndarray) -> tuple[Vec3, Quat]:
    """Diagonal and xyzw orientation with I = R·diag(d)·Rᵀ; an (almost) diagonal tensor keeps its axes.

    A tensor with a NaN (from non-finite sizes, transforms or overrides) has no axes: all NaN (eigh would
    raise LinAlgError); callers such as ``info`` check :func:`has_axes`.
    """
    if not np.isfinite(inertia).all():  # NaN, or ∞ (whose off-diagonal arithmetic gives NaN)
        return (math.nan,) * 3, (math.nan,) * 4  # type: ignore[return-value]
    scale = float(np.abs(inertia).max()) or 1.0
    off = inertia - np.diag(np.diag(inertia))
    if float(np.abs(off).max()) <= 1e-9 * scale:
        d = np.diag(inertia)
        return (float(d[0]), float(d[1]), float(d[2])), IDENTITY_QUAT
    unit = inertia / scale  # near 1: (a + b) / 2 cannot overflow for entries near the float maximum
    values, vectors = np.linalg.eigh((unit + unit.T) / 2)
    values = values * scale
    if np.linalg.det(vectors) < 0:
        vectors[:, 2] = -vectors[:, 2]
    return (float(values[0]), float(values[1]), float(values[2])), matrix_to_quat(vectors)


# Each placed kind's integral (``PlacedShape.kind``); a plane has none.
_MASS: dict[str, Callable[[PlacedShape], Part]] = {
    "box": _box_mass, "sphere": _sphere_mass, "capsule": _capsule_mass, "cylinder": _cylinder_mass,
    "convex": _convex_mass, "trimesh": _trimesh_mass,
}
