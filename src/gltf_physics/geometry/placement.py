"""Placement: a collider shape under a 4×4 transform (scale included) → a :class:`PlacedShape` in its parent frame.

Every collider at or below a body is *placed* in the body frame (the body node's world pose without scale, see
:mod:`.frames`): its node's transform relative to the body, scale included, is folded into the shape. Uniform
scale is exact; non-uniform scale is exact for boxes, round shapes become the convex hull of their tessellation
(:mod:`.tessellation`); a sheared frame turns any shape into such a hull; a zero scale column disables the shape
(KRB-12); negative scale ⇒ |scale|. Mesh shapes keep their vertices (moved into the parent frame): ``convex``
becomes a hull, ``trimesh`` a triangle mesh.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..gltf.transforms import quat_of_rows
from ..model.bodies import IDENTITY_QUAT, Quat
from ..model.scene import PhysicsScene
from ..model.shapes import Box, Capsule, Cylinder, MeshShape, Plane, Shape, Sphere
from .frames import inverse_body_frame, rigid_inverse
from .tessellation import shape_points

# (vertices (n,3) float64, triangles (m,3) int64) of a mesh shape, in the shape node's space.
MeshSource = Callable[[MeshShape], tuple[np.ndarray, np.ndarray]]


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
    exact = _EXACT.get(type(shape))
    placed = exact(shape, Frame(t, q, s, sheared, uniform)) if exact is not None else None
    if placed is not None:
        return placed
    # Non-uniform scale of a round shape, or a sheared frame: the hull of the tessellated shape.
    pts = shape_points(shape) @ rel[:3, :3].T + np.asarray(t)
    return PlacedShape("convex", (0.0, 0.0, 0.0), IDENTITY_QUAT, points=pts)


class Frame(NamedTuple):
    """What a shape's exact placement needs of its transform: translation, rotation (reflection dropped), the
    column scales, and whether the frame is sheared or its scale uniform."""

    t: tuple[float, float, float]
    q: Quat
    s: tuple[float, float, float]
    sheared: bool
    uniform: bool


def _place_plane(shape: Plane, f: Frame) -> PlacedShape:
    sx = shape.size_x * f.s[0] if shape.size_x is not None else math.inf
    sz = shape.size_z * f.s[2] if shape.size_z is not None else math.inf
    return PlacedShape("plane", f.t, f.q, (sx, sz, 1.0 if shape.double_sided else 0.0))


def _place_box(shape: Box, f: Frame) -> PlacedShape | None:
    if f.sheared:
        return None
    size, s = shape.size, f.s
    return PlacedShape("box", f.t, f.q, (float(size[0]) * s[0] / 2, float(size[1]) * s[1] / 2,
                                         float(size[2]) * s[2] / 2))


def _place_sphere(shape: Sphere, f: Frame) -> PlacedShape | None:
    if f.sheared or not f.uniform:
        return None
    return PlacedShape("sphere", f.t, f.q, (shape.radius * f.s[0],))


def _place_capsule(shape: Capsule, f: Frame) -> PlacedShape | None:
    if f.sheared or not f.uniform:
        return None
    k = f.s[0]
    return PlacedShape("capsule", f.t, f.q, (shape.height * k / 2, shape.radius_bottom * k, shape.radius_top * k))


def _place_cylinder(shape: Cylinder, f: Frame) -> PlacedShape | None:
    if f.sheared or not f.uniform:
        return None
    k = f.s[0]
    return PlacedShape("cylinder", f.t, f.q, (shape.height * k / 2, shape.radius_bottom * k, shape.radius_top * k))


# Each primitive kind's exact placement: ``None`` where the transform does not keep the shape's kind (then it
# becomes the hull of its tessellation). Keyed by the exact class, like ``model.shapes.SHAPE_KINDS``.
_EXACT: dict[type, Callable[[Any, Frame], PlacedShape | None]] = {
    Plane: _place_plane, Box: _place_box, Sphere: _place_sphere, Capsule: _place_capsule, Cylinder: _place_cylinder,
}


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
        from ..gltf import meshes  # the container's mesh reader; imported late: placing primitives needs no mesh reader

        key = ("mesh", shape.mesh) if shape.mesh is not None else ("node", shape.node)
        if key not in cache:
            if shape.mesh is not None:
                cache[key] = meshes.mesh_triangles(doc, shape.mesh)
            else:
                cache[key] = meshes.node_triangles(doc, shape.node, descendants=True, space="node")
        return cache[key]

    return source


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
