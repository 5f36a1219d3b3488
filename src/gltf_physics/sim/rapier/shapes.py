"""Placed shapes (``geometry.placement.PlacedShape``) → Rapier collider builders (docs/semantics.md).

Capsule: Rapier's half-height is half the distance between the cap centres (the model's ``height``/2).
Tapered capsules and cylinders have no Rapier primitive: a cone (one radius 0) is native, any other taper is
the convex hull of the tessellated exact shape. Infinite planes: a halfspace (single-sided) or a thin
10 km cuboid (double-sided); finite planes: a thin cuboid whose top face is the plane (single-sided) or
centred on it (double-sided).
"""

from __future__ import annotations

import math

import numpy as np
import rapier3d as rp

from ...geometry.hulls import convex_hull
from ...geometry.placement import PlacedShape
from ...geometry.tessellation import capsule_points, cylinder_points
from ..errors import SimulationError, first_line

PLANE_THICKNESS = 0.01  # m
BIG = 1.0e4  # m, half extent of a double-sided infinite plane


def collider_builder(p: PlacedShape, pointer: str | None = None, node: int | None = None) -> rp.ColliderBuilder:
    """A builder with the shape and its pose in the parent frame (the caller sets mass, material, flags).

    A point set Rapier's hull builder refuses (points a float32 engine sees on one line, though the pre-build
    check saw a sliver of volume) is a SimulationError naming the collider's ``pointer``.
    """
    try:
        shape, offset = _shape(p)
    except rp.MeshConversionError as e:
        raise SimulationError(f"the collider shape on node {node} cannot be built by the engine: "
                              f"{first_line(str(e))}", node=node, pointer=pointer) from e
    pose = (tuple(np.asarray(p.translation) + _rotate(p.rotation, offset)), p.rotation)
    return rp.Collider.new(shape).position(pose)


def _shape(p: PlacedShape) -> tuple[rp.SharedShape, np.ndarray]:
    zero = np.zeros(3)
    # Rapier asserts its sizes' sign bit is clear, and -0.0 has it set: a zero size is built as +0.0.
    params = tuple(v + 0.0 for v in p.params)
    if p.kind == "box":
        return rp.SharedShape.cuboid(*params), zero
    if p.kind == "sphere":
        return rp.SharedShape.ball(params[0]), zero
    if p.kind == "capsule":
        hh, rb, rt = params
        if rb == rt:
            return rp.SharedShape.capsule_y(hh, rb), zero
        return _hull(capsule_points(hh, rb, rt)), zero
    if p.kind == "cylinder":
        return _cylinder(*params), zero
    if p.kind == "plane":
        return _plane(*params)
    if p.kind == "convex":
        return _hull(p.points), zero
    if p.kind == "trimesh":
        return rp.SharedShape.trimesh(np.ascontiguousarray(p.points, dtype=np.float64),
                                      np.ascontiguousarray(p.triangles, dtype=np.uint32)), zero
    raise ValueError(f"unknown placed shape kind {p.kind!r}")


def _hull(points: np.ndarray) -> rp.SharedShape:
    """Rapier's own hull of ``points``; where its float32 hull builder gives up on a thin sliver (a shape squashed
    by a tiny scale, whose failures measured here do not follow any thickness threshold), the same hull from
    qhull handed over as a convex mesh."""
    pts = np.ascontiguousarray(points, dtype=np.float64)
    try:
        return rp.SharedShape.convex_hull(pts)
    except rp.MeshConversionError:
        hull = convex_hull(pts)
        if hull is None:
            raise
        return rp.SharedShape.convex_mesh(np.ascontiguousarray(hull.points),
                                          np.ascontiguousarray(hull.triangles, dtype=np.uint32))


def _cylinder(hh: float, rb: float, rt: float) -> rp.SharedShape:
    if rb == rt:
        return rp.SharedShape.cylinder(hh, rb)
    if rt == 0.0:
        return rp.SharedShape.cone(hh, rb)  # Rapier's cone: apex at +Y, base at -Y
    return _hull(cylinder_points(hh, rb, rt))


def _plane(size_x: float, size_z: float, double_sided: float) -> tuple[rp.SharedShape, np.ndarray]:
    infinite = math.isinf(size_x) or math.isinf(size_z)
    if infinite and not double_sided:
        return rp.SharedShape.halfspace((0.0, 1.0, 0.0)), np.zeros(3)
    hx = BIG if math.isinf(size_x) else size_x / 2
    hz = BIG if math.isinf(size_z) else size_z / 2
    h = PLANE_THICKNESS / 2
    offset = np.zeros(3) if double_sided else np.array([0.0, -h, 0.0])  # top face on the plane
    return rp.SharedShape.cuboid(hx, h, hz), offset


def _rotate(q: tuple[float, float, float, float], v: np.ndarray) -> np.ndarray:
    if not v.any():
        return v
    x, y, z, w = q
    u = np.array([x, y, z])
    return v + 2 * w * np.cross(u, v) + 2 * np.cross(u, np.cross(u, v))
