"""Engine-free overlap tests between placed collider shapes, for the validator's hints (``hints.py``).

Shapes come placed in world space by :func:`gltf_physics.geometry.placement.place_shape` (scale folded in). Each
placed shape is turned into convex pieces with a support function (box, sphere, capsule and cylinder — tapered
ones as the hull of their two end spheres / discs —, a convex hull's points; a triangle mesh is one piece
per triangle) or a half-space (a plane: its finite size is ignored, it is a floor). Two pieces overlap by
more than ``depth`` when the origin lies at least ``depth`` inside their Minkowski difference: a boolean GJK
on the support function shrunk by ``depth``, so shapes that merely touch (a box resting on the ground) do not
count.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import numpy as np

from ..geometry.placement import PlacedShape
from ..gltf.transforms import quat_to_matrix

Support = Callable[[np.ndarray], np.ndarray]  # direction (3,) → the farthest point of the piece along it
DEPTH = 0.005  # m: deeper than solvers' allowed penetration and float noise, far below a modelling mistake
MAX_TRIANGLES = 20000  # a bigger mesh is not tested (the hint stays silent rather than slow)
_ITERATIONS = 64


def _unit(d: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(d))
    return d / n if n > 1e-300 else np.array([0.0, 1.0, 0.0])


def _frame(p: PlacedShape) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(p.translation, dtype=float), quat_to_matrix(p.rotation)


def _box(c: np.ndarray, r: np.ndarray, half: np.ndarray) -> Support:
    return lambda d: c + r @ (np.where(r.T @ d >= 0.0, 1.0, -1.0) * half)


def _spheres(c: np.ndarray, r: np.ndarray, hh: float, rb: float, rt: float) -> Support:
    """Hull of a sphere of radius rb at −hh·Y and one of radius rt at +hh·Y (a capsule; a sphere: hh = 0)."""
    bottom, top = c - hh * r[:, 1], c + hh * r[:, 1]

    def support(d: np.ndarray) -> np.ndarray:
        u = _unit(d)
        a, b = bottom + rb * u, top + rt * u
        return a if a @ d >= b @ d else b
    return support


def _cylinder(c: np.ndarray, r: np.ndarray, hh: float, rb: float, rt: float) -> Support:
    def support(d: np.ndarray) -> np.ndarray:
        local = r.T @ d
        radial = np.array([local[0], 0.0, local[2]])
        n = float(np.linalg.norm(radial))
        radial = radial / n if n > 1e-12 else radial
        a = np.array([0.0, -hh, 0.0]) + rb * radial
        b = np.array([0.0, hh, 0.0]) + rt * radial
        return c + r @ (a if a @ local >= b @ local else b)
    return support


def _points(points: np.ndarray) -> Support:
    return lambda d: points[int(np.argmax(points @ d))]


def bounds(p: PlacedShape) -> tuple[np.ndarray, np.ndarray] | None:
    """An axis-aligned box around the placed shape; None for a plane (unbounded)."""
    c = np.asarray(p.translation, dtype=float)
    if p.kind == "plane":
        return None
    if p.points is not None:
        pts = np.asarray(p.points, dtype=float)
        return (pts.min(axis=0), pts.max(axis=0)) if len(pts) else (c, c)
    if p.kind == "box":
        reach = float(np.linalg.norm(p.params))
    elif p.kind == "sphere":
        reach = p.params[0]
    else:  # capsule, cylinder: half height plus the larger radius (a cylinder's rim: its hypotenuse)
        reach = math.hypot(p.params[0], max(p.params[1], p.params[2])) + (
            max(p.params[1], p.params[2]) if p.kind == "capsule" else 0.0)
    return c - reach, c + reach


def _apart(a: tuple[np.ndarray, np.ndarray] | None, b: tuple[np.ndarray, np.ndarray] | None) -> bool:
    return a is not None and b is not None and bool(np.any(a[1] < b[0]) or np.any(b[1] < a[0]))


def pieces(p: PlacedShape, near: tuple[np.ndarray, np.ndarray] | None = None
           ) -> Iterator[Support | tuple[np.ndarray, np.ndarray]]:
    """Convex pieces of a placed shape: support functions, or (point, outward normal) for a plane. ``near``:
    only the triangles of a mesh whose bounding box meets this box."""
    c, r = _frame(p)
    if p.kind == "box":
        yield _box(c, r, np.asarray(p.params, dtype=float))
    elif p.kind == "sphere":
        yield _spheres(c, r, 0.0, p.params[0], p.params[0])
    elif p.kind == "capsule":
        yield _spheres(c, r, *p.params)
    elif p.kind == "cylinder":
        yield _cylinder(c, r, *p.params)
    elif p.kind == "plane":
        yield c, r[:, 1]
    elif p.kind == "convex" and p.points is not None and len(p.points):
        yield _points(np.asarray(p.points, dtype=float))
    elif p.kind == "trimesh" and p.points is not None and p.triangles is not None \
            and len(p.triangles) <= MAX_TRIANGLES:
        tris = np.asarray(p.points, dtype=float)[np.asarray(p.triangles)]  # (m, 3, 3)
        if near is not None:
            keep = np.all(tris.max(axis=1) >= near[0], axis=1) & np.all(tris.min(axis=1) <= near[1], axis=1)
            tris = tris[keep]
        for tri in tris:
            yield _points(tri)


def overlap(a: PlacedShape, b: PlacedShape, depth: float = DEPTH) -> bool:
    """Whether ``a`` and ``b`` interpenetrate by more than ``depth`` (metres)."""
    box_a, box_b = bounds(a), bounds(b)
    if _apart(box_a, box_b):
        return False
    parts_b = list(pieces(b, box_a))
    for pa in pieces(a, box_b):
        for pb in parts_b:
            if _pieces_overlap(pa, pb, depth):
                return True
    return False


def _pieces_overlap(pa: Support | tuple[np.ndarray, np.ndarray],
                    pb: Support | tuple[np.ndarray, np.ndarray], depth: float) -> bool:
    if isinstance(pa, tuple) and isinstance(pb, tuple):
        return False  # two planes: no volume
    if isinstance(pa, tuple) or isinstance(pb, tuple):
        (point, normal), solid = (pa, pb) if isinstance(pa, tuple) else (pb, pa)
        lowest = solid(-normal)  # type: ignore[operator]
        return float((point - lowest) @ normal) > depth
    return gjk(lambda d: pa(d) - pb(-d) - depth * _unit(d))  # type: ignore[operator]


def gjk(support: Support) -> bool:
    """Boolean GJK: whether the convex set with this support function contains the origin.

    The simplex is kept newest point first; each step keeps the feature nearest the origin and searches
    towards the origin from it (the usual line / triangle / tetrahedron cases).
    """
    first = support(np.array([1.0, 0.0, 0.0]))
    simplex = [first]
    d = -first
    for _ in range(_ITERATIONS):
        if float(d @ d) < 1e-24:
            return True  # the origin lies on the simplex: touching at the shrunk depth
        p = support(d)
        if float(p @ d) < 0.0:
            return False  # a separating direction
        simplex.insert(0, p)
        inside, d = _step(simplex)
        if inside:
            return True
    return True  # no separating direction found within the budget: treat as touching


def _step(s: list[np.ndarray]) -> tuple[bool, np.ndarray]:
    if len(s) == 2:
        return False, _line(s)
    if len(s) == 3:
        return False, _triangle(s)
    return _tetrahedron(s)


def _line(s: list[np.ndarray]) -> np.ndarray:
    a, b = s
    ab, ao = b - a, -a
    if ab @ ao > 0:
        return np.cross(np.cross(ab, ao), ab)  # zero when the origin is on the line: caught by the caller
    s[:] = [a]
    return ao


def _triangle(s: list[np.ndarray]) -> np.ndarray:
    a, b, c = s
    ab, ac, ao = b - a, c - a, -a
    abc = np.cross(ab, ac)
    if np.cross(abc, ac) @ ao > 0:
        if ac @ ao > 0:
            s[:] = [a, c]
            return np.cross(np.cross(ac, ao), ac)
        s[:] = [a, b]
        return _line(s)
    if np.cross(ab, abc) @ ao > 0:
        s[:] = [a, b]
        return _line(s)
    if abc @ ao > 0:
        return abc
    s[:] = [a, c, b]
    return -abc


def _tetrahedron(s: list[np.ndarray]) -> tuple[bool, np.ndarray]:
    a, b, c, d = s
    ab, ac, ad, ao = b - a, c - a, d - a, -a
    for normal, face in ((np.cross(ab, ac), [a, b, c]), (np.cross(ac, ad), [a, c, d]),
                         (np.cross(ad, ab), [a, d, b])):
        if normal @ ao > 0:
            s[:] = face
            return False, _triangle(s)
    return True, ao


def segment(start: np.ndarray, end: np.ndarray) -> PlacedShape:
    """A line segment as a placed convex shape (for 'is there anything below this point')."""
    return PlacedShape("convex", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0),
                       points=np.array([start, end], dtype=float))


def centre(p: PlacedShape) -> np.ndarray:
    """A point inside the placed shape (its frame origin, or the mean of its points)."""
    if p.points is not None and len(p.points):
        return np.asarray(p.points, dtype=float).mean(axis=0)
    return np.asarray(p.translation, dtype=float)


def finite(p: PlacedShape) -> bool:
    """False when a size or position is NaN/∞ (the validator reports those elsewhere)."""
    values = [*p.translation, *p.rotation, *(v for v in p.params if not math.isinf(v))]
    if p.points is not None:
        values.append(float(np.sum(p.points)))
    return all(math.isfinite(v) for v in values)
