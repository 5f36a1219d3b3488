"""Mass properties of bodies from their collider shapes (DESIGN §3 "Computed mass", DIGEST §11).

Engine-agnostic NumPy math shared by ``gltf-physics info`` and the runtime, so both report the same numbers.

Pipeline: every collider at or below a body is first *placed* (:func:`place_shape`) in the body frame (the
body node's world pose without scale): its node's transform relative to the body, scale included, is folded
into the shape (DESIGN §3 "Scale": uniform scale exact; non-uniform exact for boxes, round shapes become the
convex hull of their tessellation; a sheared frame turns any shape into such a hull; a zero scale column
disables the shape; negative scale ⇒ |scale|). Each placed shape has exact volume, centre of mass and inertia
(closed forms for boxes, Gauss–Legendre over the revolution profile for spheres, capsules (tapered too) and
cylinders (tapered = frustum), divergence-theorem integrals over triangles for hulls and closed meshes); the
parts are summed with the parallel-axis theorem, then the file's explicit values override (see
:func:`apply_overrides`).

Mesh shapes: ``convex`` uses the convex hull of the mesh vertices (own incremental hull, :func:`convex_hull`);
``trimesh`` counts as a solid only when the mesh is closed and consistently oriented after welding coincident
vertices; an open one encloses no volume, and weighs as the solid box of its bounds in the parent frame (the
reading of the spec author's reference, Havok: the spec derives mass from volume at a density in kg/m³, and the
bounds are the volume the surface occupies; a flat one has none). Planes have no mass.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from ..gltf.transforms import (
    decompose,
    decompose_all,
    matrix_to_quat,
    quat_of_rows,
    quat_rows,
    quat_rows_all,
    quat_to_matrix,
    world_matrices,
)
from .bodies import IDENTITY_QUAT, Body, Quat
from .scene import PhysicsScene
from .shapes import Box, Capsule, Cylinder, MeshShape, Plane, Shape, Sphere, Vec3

# (vertices (n,3) float64, triangles (m,3) int64) of a mesh shape, in the shape node's space.
MeshSource = Callable[[MeshShape], tuple[np.ndarray, np.ndarray]]

SEGMENTS = 32  # tessellation of round shapes turned into hulls (non-uniform scale, tapered shapes in Rapier)


@functools.cache
def _gauss_legendre() -> tuple[tuple[float, float], ...]:
    """(node, weight) of 10-point Gauss-Legendre quadrature on [-1, 1]: exact for the degree ≤ 6 revolution
    integrands. Made on first use: numpy.polynomial costs ~5 ms CPU to import, and most files have no capsule
    or cylinder (issue 14 start-up)."""
    nodes, weights = np.polynomial.legendre.leggauss(10)
    return tuple(zip(nodes.tolist(), weights.tolist(), strict=True))


@dataclass(frozen=True)
class MassProperties:
    """Mass (kg, ``math.inf`` = infinite), centre of mass (body frame), principal inertia (kg·m², a component
    ``math.inf`` = no rotation about that axis) and the principal axes' orientation in the body frame."""

    mass: float
    center_of_mass: Vec3
    inertia_diagonal: Vec3
    inertia_orientation: Quat = IDENTITY_QUAT


@dataclass(frozen=True)
class PlacedShape:
    """A collider shape resolved into its parent frame (the body frame, or world for static colliders).

    ``kind``: box (``params`` = half extents), sphere (radius), capsule (half height between the centres,
    radius bottom, radius top), cylinder (half height, radius bottom, radius top), plane (size x or ``inf``,
    size z or ``inf``, 1.0 if double-sided else 0.0), convex (``points``, already in the parent frame:
    ``translation`` 0, identity ``rotation``), trimesh (``points`` + ``triangles``, likewise).
    """

    kind: str
    translation: tuple[float, float, float]
    rotation: Quat
    params: tuple[float, ...] = ()
    points: np.ndarray | None = None
    triangles: np.ndarray | None = None


# ---------------------------------------------------------------------------------------------------
# Placement: a shape under a 4×4 transform (scale included) → PlacedShape
# ---------------------------------------------------------------------------------------------------

def place_shape(shape: Shape, rel: np.ndarray, mesh_source: MeshSource | None = None) -> PlacedShape | None:
    """``shape`` (in its node's space) under ``rel`` (node → parent frame, scale included); ``None`` when a
    scale column is zero (KRB-12: the shape is disabled) or a mesh shape has no triangles."""
    rel = np.asarray(rel, dtype=float)
    return _place(shape, rel, rel[:3, :4].tolist(), mesh_source)


def _place(shape: Shape, rel: np.ndarray, rows: list[list[float]],
           mesh_source: MeshSource | None) -> PlacedShape | None:
    """:func:`place_shape` with ``rel``'s top three rows as floats. The 3×3 tests (column norms, shear,
    handedness) are plain float arithmetic in NumPy's summation order: the same values, without a dozen
    NumPy calls on tiny arrays per collider (most of ``info`` on a big document)."""
    (a, b, c, tx), (d, e, f, ty), (g, h, i, tz) = rows
    t = (tx, ty, tz)
    s = (math.sqrt(a * a + d * d + g * g), math.sqrt(b * b + e * e + h * h), math.sqrt(c * c + f * f + i * i))
    if s[0] <= 1e-12 or s[1] <= 1e-12 or s[2] <= 1e-12:
        return None
    if isinstance(shape, MeshShape):
        return _place_mesh(shape, rel[:3, :3], t, mesh_source)
    rot = [[a / s[0], b / s[1], c / s[2]], [d / s[0], e / s[1], f / s[2]], [g / s[0], h / s[1], i / s[2]]]
    sheared = _sheared(rot)
    # Unsheared, |det| ≈ 1 and the cofactor sign is LAPACK's; far from a rotation only LAPACK's is sure to be
    # the one reported so far.
    flip = bool(np.linalg.det(np.array(rot)) < 0) if sheared else _det3(rot) < 0
    if flip:  # negative scale ⇒ |scale| (KRB-12): drop the reflection
        for row in rot:
            row[0] = -row[0]
    q = quat_of_rows(rot)
    uniform = not any(v != v for v in s) and max(s) - min(s) <= 1e-9 * max(s)  # NaN: never uniform (NumPy)
    if isinstance(shape, Plane):
        sx = shape.size_x * s[0] if shape.size_x is not None else math.inf
        sz = shape.size_z * s[2] if shape.size_z is not None else math.inf
        return PlacedShape("plane", t, q, (sx, sz, 1.0 if shape.double_sided else 0.0))
    if isinstance(shape, Box) and not sheared:
        size = shape.size
        half = (float(size[0]) * s[0] / 2, float(size[1]) * s[1] / 2, float(size[2]) * s[2] / 2)
        return PlacedShape("box", t, q, half)
    if not sheared and uniform:
        k = s[0]
        if isinstance(shape, Sphere):
            return PlacedShape("sphere", t, q, (shape.radius * k,))
        if isinstance(shape, Capsule):
            return PlacedShape("capsule", t, q, (shape.height * k / 2, shape.radius_bottom * k,
                                                   shape.radius_top * k))
        if isinstance(shape, Cylinder):
            return PlacedShape("cylinder", t, q, (shape.height * k / 2, shape.radius_bottom * k,
                                                    shape.radius_top * k))
    # Non-uniform scale of a round shape, or a sheared frame: the hull of the tessellated shape (DESIGN §3).
    pts = shape_points(shape) @ rel[:3, :3].T + np.asarray(t)
    return PlacedShape("convex", (0.0, 0.0, 0.0), IDENTITY_QUAT, points=pts)


def _sheared(rot: list[list[float]]) -> bool:
    """max |rotᵀ·rot − I| > 1e-6, NaN never sheared (NumPy's max propagates NaN, and NaN > x is false)."""
    worst = 0.0
    for j in range(3):
        for k in range(3):
            v = abs(0.0 + rot[0][j] * rot[0][k] + rot[1][j] * rot[1][k] + rot[2][j] * rot[2][k]
                    - (1.0 if j == k else 0.0))
            if v != v:
                return False
            worst = max(worst, v)
    return worst > 1e-6


def _det3(m: list[list[float]]) -> float:
    (a, b, c), (d, e, f), (g, h, i) = m
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


def _place_mesh(shape: MeshShape, lin: np.ndarray, t: tuple[float, float, float],
                mesh_source: MeshSource | None) -> PlacedShape | None:
    vertices, triangles = (mesh_source or default_mesh_source)(shape)
    if len(triangles) == 0:
        return None
    pts = np.asarray(vertices, dtype=float) @ lin.T + np.asarray(t)
    kind = "convex" if shape.convex else "trimesh"
    return PlacedShape(kind, (0.0, 0.0, 0.0), IDENTITY_QUAT, points=pts,
                       triangles=np.asarray(triangles, dtype=np.int64))


def default_mesh_source(shape: MeshShape) -> tuple[np.ndarray, np.ndarray]:
    raise ValueError("mesh shapes need a mesh_source (see gltf_physics.gltf.meshes)")


def document_mesh_source(doc: object) -> MeshSource:
    """Triangles of mesh shapes read from ``doc`` (cached per mesh / node)."""
    cache: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}

    def source(shape: MeshShape) -> tuple[np.ndarray, np.ndarray]:
        from ..gltf import meshes  # the container's mesh reader; imported late to keep model/ light

        key = ("mesh", shape.mesh) if shape.mesh is not None else ("node", shape.node)
        if key not in cache:
            if shape.mesh is not None:
                cache[key] = meshes.mesh_triangles(doc, shape.mesh)
            else:
                cache[key] = meshes.node_triangles(doc, shape.node, descendants=True, space="node")
        return cache[key]

    return source


def shape_points(shape: Shape, segments: int = SEGMENTS) -> np.ndarray:
    """Points whose convex hull is the (tessellated) shape, in the shape's node space."""
    if isinstance(shape, Box):
        h = np.asarray(shape.size, dtype=float) / 2
        return np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float) * h
    if isinstance(shape, Sphere):
        return _sphere_points(np.zeros(3), shape.radius, segments)
    if isinstance(shape, Capsule):
        return capsule_points(shape.height / 2, shape.radius_bottom, shape.radius_top, segments)
    if isinstance(shape, Cylinder):
        return cylinder_points(shape.height / 2, shape.radius_bottom, shape.radius_top, segments)
    raise TypeError(f"no point set for {type(shape).__name__}")


def capsule_points(half_height: float, r_bottom: float, r_top: float, segments: int = SEGMENTS) -> np.ndarray:
    return np.vstack([_sphere_points(np.array([0.0, -half_height, 0.0]), r_bottom, segments),
                      _sphere_points(np.array([0.0, half_height, 0.0]), r_top, segments)])


def cylinder_points(half_height: float, r_bottom: float, r_top: float,
                    segments: int = SEGMENTS) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, segments, endpoint=False)
    ring = np.stack([np.cos(a), np.zeros_like(a), np.sin(a)], axis=1)
    bottom = ring * r_bottom + [0.0, -half_height, 0.0]
    top = ring * r_top + [0.0, half_height, 0.0]
    return np.vstack([bottom, top])


def _sphere_points(centre: np.ndarray, radius: float, segments: int) -> np.ndarray:
    lat = np.linspace(0, math.pi, segments // 2 + 1)
    lon = np.linspace(0, 2 * math.pi, segments, endpoint=False)
    la, lo = np.meshgrid(lat, lon, indexing="ij")
    pts = np.stack([np.sin(la) * np.cos(lo), np.cos(la), np.sin(la) * np.sin(lo)], axis=-1).reshape(-1, 3)
    return centre + radius * pts


# ---------------------------------------------------------------------------------------------------
# Mass of one placed shape (density 1): (volume, centre, inertia tensor about the centre), parent frame
# ---------------------------------------------------------------------------------------------------

Part = tuple[float, np.ndarray, np.ndarray]
Profile = tuple[float, float, Callable[[float], float]]  # y0, y1, radius(y) of a solid of revolution


def placed_mass(p: PlacedShape) -> Part:
    if p.kind == "box":
        hx, hy, hz = p.params
        v = 8 * hx * hy * hz  # m = ρ·a·b·c, I = m/12·(b²+c², a²+c², a²+b²) with full sizes a = 2hx…
        local = np.diag([(hy * hy + hz * hz), (hx * hx + hz * hz), (hx * hx + hy * hy)]) * v / 3
        return _to_parent(v, np.zeros(3), local, p)
    if p.kind == "sphere":
        (r,) = p.params
        v = 4 / 3 * math.pi * r * r * r  # products, not **: a huge r gives inf, ** raises OverflowError
        return _to_parent(v, np.zeros(3), np.eye(3) * 0.4 * v * r * r, p)
    if p.kind == "capsule":
        return _to_parent(*_revolution(_capsule_profile(*p.params)), p)
    if p.kind == "cylinder":
        hh, rb, rt = p.params
        return _to_parent(*_revolution([(-hh, hh, lambda y: rb + (rt - rb) * (y + hh) / (2 * hh))]), p)
    if p.kind == "convex":
        tris = convex_hull(p.points)
        return mesh_mass(p.points, tris) if len(tris) else _zero()
    if p.kind == "trimesh":
        return mesh_mass(p.points, p.triangles) if is_closed(p.points, p.triangles) else bounds_mass(p.points)
    return _zero()  # plane


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


# ---------------------------------------------------------------------------------------------------
# Convex hull (incremental, with a relative tolerance): triangles wound outward
# ---------------------------------------------------------------------------------------------------

def convex_hull(points: np.ndarray) -> np.ndarray:
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


def _horizon(visible: list[list[int]]) -> list[tuple[int, int]]:
    edges = {(f[k], f[(k + 1) % 3]) for f in visible for k in range(3)}
    return sorted(e for e in edges if (e[1], e[0]) not in edges)


# ---------------------------------------------------------------------------------------------------
# Bodies
# ---------------------------------------------------------------------------------------------------

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


def body_frame(world: np.ndarray) -> np.ndarray:
    """The rigid (scale-free) 4×4 frame of a node's world matrix: where the runtime puts its body."""
    t, q, _ = decompose(world)
    (a, b, c), (d, e, f), (g, h, i) = quat_rows(q)
    return np.array([[a, b, c, t[0]], [d, e, f, t[1]], [g, h, i, t[2]], [0.0, 0.0, 0.0, 1.0]])


def inverse_body_frame(world: np.ndarray) -> np.ndarray:
    """``rigid_inverse(body_frame(world))`` built from floats: the same values (the translation summed as
    NumPy sums ``-Rᵀ @ t``, from +0.0), one array instead of a dozen small NumPy calls per body."""
    t, q, _ = decompose(world)
    (a, b, c), (d, e, f), (g, h, i) = quat_rows(q)
    x, y, z = t
    return np.array([
        [a, d, g, 0.0 + -a * x + -d * y + -g * z],
        [b, e, h, 0.0 + -b * x + -e * y + -h * z],
        [c, f, i, 0.0 + -c * x + -f * y + -i * z],
        [0.0, 0.0, 0.0, 1.0],
    ])


def inverse_body_frames(worlds: np.ndarray) -> np.ndarray:
    """:func:`inverse_body_frame` of a stack of world matrices (n, 4, 4) in one NumPy pass, bit-identical."""
    t, q, _ = decompose_all(worlds)
    r = quat_rows_all(q)
    x, y, z = t[:, 0], t[:, 1], t[:, 2]
    inv = np.zeros((len(t), 4, 4))
    inv[:, :3, :3] = r.transpose(0, 2, 1)
    with np.errstate(all="ignore"):
        for k in range(3):  # the same operations as inverse_body_frame, element-wise
            inv[:, k, 3] = 0.0 + -r[:, 0, k] * x + -r[:, 1, k] * y + -r[:, 2, k] * z
    inv[:, 3, 3] = 1.0
    return inv


def body_placements(scene: PhysicsScene, node: int, world: list[np.ndarray],
                    mesh_source: MeshSource | None = None,
                    colliders: list[int] | None = None, frame: np.ndarray | None = None,
                    cache: dict | None = None) -> list[tuple[int, PlacedShape]]:
    """(collider index, placed shape) of every solid collider of the body on ``node``, in its body frame.

    ``colliders``: the indices of that body's colliders when the caller has them (see
    :func:`colliders_by_body`), else the scene is searched; ``frame``: the body frame, if already known;
    ``cache``: a dict shared across calls so equal shapes at equal relative transforms are placed once.
    """
    inv = inverse_body_frame(world[node]) if frame is None else rigid_inverse(frame)
    return _placements(scene, inv, world, mesh_source, node, colliders, cache)


def _placements(scene: PhysicsScene, inv: np.ndarray, world: list[np.ndarray], mesh_source: MeshSource | None,
                node: int, colliders: list[int] | None, cache: dict | None) -> list[tuple[int, PlacedShape]]:
    if colliders is None:
        colliders = [k for k, col in enumerate(scene.colliders) if col.body == node]
    out = []
    for k in colliders:
        shape, rel = scene.colliders[k].shape, inv @ world[scene.colliders[k].node]
        if cache is None:
            placed = place_shape(shape, rel, mesh_source)
        else:
            key = (shape, np.round(rel, 12).tobytes())
            if key not in cache:
                cache[key] = place_shape(shape, rel, mesh_source)
            placed = cache[key]
        if placed is not None:
            out.append((k, placed))
    return out


def colliders_by_body(scene: PhysicsScene) -> dict[int | None, list[int]]:
    """Collider indices grouped by the body node that carries them (``None``: static)."""
    out: dict[int | None, list[int]] = {}
    for k, col in enumerate(scene.colliders):
        out.setdefault(col.body, []).append(k)
    return out


def rigid_inverse(frame: np.ndarray) -> np.ndarray:
    """The inverse of a rigid 4×4 frame (transpose the rotation)."""
    inv = np.eye(4)
    inv[:3, :3] = frame[:3, :3].T
    inv[:3, 3] = -frame[:3, :3].T @ frame[:3, 3]
    return inv


def rigid_inverses(frames: np.ndarray) -> np.ndarray:
    """:func:`rigid_inverse` of a stack of frames (N, 4, 4) in one NumPy pass."""
    rot_t = np.transpose(frames[:, :3, :3], (0, 2, 1))
    inv = np.zeros_like(frames)
    inv[:, :3, :3] = rot_t
    inv[:, :3, 3] = -np.einsum("nij,nj->ni", rot_t, frames[:, :3, 3])
    inv[:, 3, 3] = 1.0
    return inv


def bulk_placements(scene: PhysicsScene, nodes: list[int], inverses: np.ndarray, world: list[np.ndarray],
                    mesh_source: MeshSource | None, by_body: dict[int | None, list[int]],
                    cache: dict) -> list[list[tuple[int, PlacedShape]]]:
    """:func:`body_placements` for many bodies at once (``inverses``: their inverse frames, (N, 4, 4)).

    Every collider's pose relative to its body is one batched product and its cache key one batched rounding
    (the same numbers as one body at a time: a batched 4×4 product is the one-by-one product); only equal
    shapes at new relative poses are placed, once each.
    """
    pairs = [(i, k) for i, node in enumerate(nodes) for k in by_body.get(node, ())]
    out: list[list[tuple[int, PlacedShape]]] = [[] for _ in nodes]
    if not pairs:
        return out
    colliders = scene.colliders
    rel = np.matmul(inverses[[i for i, _ in pairs]], np.stack([world[colliders[k].node] for _, k in pairs]))
    keys = np.round(rel, 12)
    for (i, k), r, key_rel in zip(pairs, rel, keys, strict=True):
        shape = colliders[k].shape
        key = (shape, key_rel.tobytes())
        placed = cache.get(key, _MISSING)
        if placed is _MISSING:
            placed = cache[key] = place_shape(shape, r, mesh_source)
        if placed is not None:
            out[i].append((k, placed))
    return out


_MISSING = object()


def apply_overrides(body: Body, computed: Part, node_world: np.ndarray,
                    cache: MassCache | None = None) -> MassProperties:
    """The file's explicit values over the computed ones (DIGEST §11, D-5, D-6).

    mass given ⇒ computed inertia scaled by mass/computed mass (inertia not given); centre of mass given
    (node space) ⇒ replaces the computed one, inertia kept; inertia given ⇒ used with its orientation.
    Without any volume a body gets 1 kg (when the file gives none) and the inertia of a 1 m cube of its mass
    (m/6 per axis), centred on its origin, so the engine never sees a zero-mass dynamic body.
    """
    m = body.motion
    volume_mass, com, inertia = computed
    if volume_mass <= 0:
        mass = 1.0 if m.mass is None else m.mass
        inertia = np.eye(3) * ((mass if math.isfinite(mass) else 1.0) / 6)
        com = np.zeros(3)
    elif m.mass is None:
        mass = volume_mass
    elif math.isinf(m.mass):
        mass = math.inf  # infinite mass: inertia stays the density-based one
    else:
        mass = m.mass
        inertia = inertia * (mass / volume_mass)
    if m.center_of_mass is not None:
        frame = body_frame(node_world)
        p = node_world @ np.array([*m.center_of_mass, 1.0])
        com = (np.linalg.inv(frame) @ p)[:3]
    if m.inertia_diagonal is not None:
        diag, orient = tuple(float(v) for v in m.inertia_diagonal), m.inertia_orientation
    else:
        diag, orient = principal_axes(inertia) if cache is None else cache.axes(inertia)
    centre = (float(com[0]), float(com[1]), float(com[2]))
    return MassProperties(float(mass), centre, diag, orient)  # type: ignore[arg-type]


class MassCache:
    """What bodies of one scene share while their mass properties are computed (see
    :func:`body_mass_properties`): placed shapes per (shape, exact relative transform), each placed shape's
    mass, principal axes per exact inertia tensor. Keys are exact bytes, so a hit returns exactly what the
    computation would: the ten thousand identical boxes of a big scene are integrated once.

    Entries keep their shape objects alive, so an ``id`` in a key always names the object it was made for.
    """

    def __init__(self) -> None:
        self._placed: dict[tuple[int, bytes], tuple[Shape, PlacedShape | None]] = {}
        self._parts: dict[int, tuple[PlacedShape, Part]] = {}
        self._axes: dict[bytes, tuple[Vec3, Quat]] = {}
        self._bodies: dict[tuple[object, ...], tuple[list[Part], MassProperties]] = {}
        self._inverse: dict[int, np.ndarray] = {}
        self._rel: dict[tuple[int, int], np.ndarray] = {}
        self._world: list[np.ndarray] | None = None  # what the prepared frames were computed from

    def prepare(self, scene: PhysicsScene, world: list[np.ndarray], nodes: list[int],
                colliders: dict[int | None, list[int]]) -> None:
        """Compute in one NumPy pass the inverse body frames of the bodies on ``nodes``
        (:func:`inverse_body_frames`) and every one of their colliders' transforms relative to them
        (``colliders``: :func:`colliders_by_body`); used when later calls pass the same ``world`` list."""
        self._world, self._inverse, self._rel = world, {}, {}
        if not nodes:
            return
        inverse = inverse_body_frames(np.stack([world[n] for n in nodes]))
        self._inverse = dict(zip(nodes, inverse, strict=True))
        pairs = [(j, n, k) for j, n in enumerate(nodes) for k in colliders.get(n, [])]
        if pairs:  # one batched product: the same per-matrix result as inv @ world[...] (matmul loops over them)
            rel = np.matmul(inverse[[j for j, _, _ in pairs]],
                            np.stack([world[scene.colliders[k].node] for _, _, k in pairs]))
            self._rel = dict(zip(((n, k) for _, n, k in pairs), rel, strict=True))

    def relative(self, scene: PhysicsScene, world: list[np.ndarray], node: int, k: int) -> np.ndarray:
        """Collider ``k``'s transform in the body frame of ``node``: prepared, else computed."""
        if world is self._world:
            found = self._rel.get((node, k))
            if found is not None:
                return found
        inverse = self._inverse.get(node) if world is self._world else None
        if inverse is None:
            inverse = inverse_body_frame(world[node])
        return inverse @ world[scene.colliders[k].node]

    def place(self, shape: Shape, rel: np.ndarray, mesh_source: MeshSource | None) -> PlacedShape | None:
        """:func:`place_shape`, once per shape object and exact ``rel``."""
        key = (id(shape), rel.tobytes())
        hit = self._placed.get(key)
        if hit is None:
            hit = self._placed[key] = (shape, _place(shape, rel, rel[:3, :4].tolist(), mesh_source))
        return hit[1]

    def mass(self, placed: PlacedShape) -> Part:
        """:func:`placed_mass`, once per placed shape object (callers must not modify the arrays)."""
        hit = self._parts.get(id(placed))
        if hit is None:
            hit = self._parts[id(placed)] = (placed, placed_mass(placed))
        return hit[1]

    def body(self, body: Body, parts: list[Part], density: float, node_world: np.ndarray) -> MassProperties:
        """Parts summed and the file's values applied (:func:`apply_overrides`), once per combination of
        part objects, density and mass when the body gives no centre of mass or inertia (then nothing else,
        not even its pose, enters the result)."""
        m, key = body.motion, None
        if m.center_of_mass is None and m.inertia_diagonal is None and isinstance(density, float) and (
                m.mass is None or isinstance(m.mass, float)):
            # Signs too: 0.0 == -0.0 as keys, not as results.
            key = (density, math.copysign(1.0, density), m.mass,
                   None if m.mass is None else math.copysign(1.0, m.mass), *map(id, parts))
            hit = self._bodies.get(key)
            if hit is not None:
                return hit[1]
        v, com, inertia = combine_parts(parts)
        mp = apply_overrides(body, (v * density, com, inertia * density), node_world, self)
        if key is not None:
            self._bodies[key] = (parts, mp)  # the parts stay alive: the ids in the key stay theirs
        return mp

    def axes(self, inertia: np.ndarray) -> tuple[Vec3, Quat]:
        """:func:`principal_axes`, once per exact tensor."""
        key = inertia.tobytes()
        hit = self._axes.get(key)
        if hit is None:
            hit = self._axes[key] = principal_axes(inertia)
        return hit


def body_mass_properties(scene: PhysicsScene, body: Body, density: float = 1000.0,
                         mesh_source: MeshSource | None = None, *,
                         world: list[np.ndarray] | None = None,
                         colliders: list[int] | None = None,
                         cache: MassCache | None = None) -> MassProperties:
    """Mass properties of ``body`` in its body frame (its node's world pose without scale).

    For many bodies pass what is shared, so the whole scene costs linear time: ``world`` (the document's
    world matrices), ``mesh_source``, ``colliders`` (this body's collider indices, from
    :func:`colliders_by_body`) and one :class:`MassCache`. Without them each call recomputes the matrices
    and searches every collider. Non-finite inputs give inf/NaN values, never an exception (:func:`has_axes`
    tells the NaN case).
    """
    if world is None:
        world = world_matrices(scene.document.json if scene.document is not None else {})
    if mesh_source is None and scene.document is not None:
        mesh_source = document_mesh_source(scene.document)
    if cache is not None:
        return cache.body(body, _cached_parts(scene, body.node, world, mesh_source, colliders, cache), density,
                          world[body.node])
    placed = body_placements(scene, body.node, world, mesh_source, colliders=colliders)
    parts = [placed_mass(p) for _, p in placed]
    v, com, inertia = combine_parts(parts)
    return apply_overrides(body, (v * density, com, inertia * density), world[body.node])


def _cached_parts(scene: PhysicsScene, node: int, world: list[np.ndarray], mesh_source: MeshSource | None,
                  colliders: list[int] | None, cache: MassCache) -> list[Part]:
    if colliders is None:
        colliders = [k for k, col in enumerate(scene.colliders) if col.body == node]
    placed = [cache.place(scene.colliders[k].shape, cache.relative(scene, world, node, k), mesh_source)
              for k in colliders]
    return [cache.mass(p) for p in placed if p is not None]  # all placed first, as body_placements does


def has_axes(mp: MassProperties) -> bool:
    """False when the principal axes could not be found (NaN inertia, see :func:`principal_axes`)."""
    return not any(math.isnan(q) for q in mp.inertia_orientation)
