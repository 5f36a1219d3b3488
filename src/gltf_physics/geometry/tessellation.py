"""Tessellation: points whose convex hull is a round shape, in the shape's node space.

Used where a shape cannot stay analytic: non-uniform scale or a sheared frame (:mod:`.placement` turns the shape
into the hull of these points), tapered capsules and cylinders in engines without them, MJCF's mesh geoms.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..model.shapes import Box, Capsule, Cylinder, Shape, Sphere

SEGMENTS = 32  # tessellation of round shapes turned into hulls (non-uniform scale, tapered shapes in Rapier)


def shape_points(shape: Shape, segments: int = SEGMENTS) -> np.ndarray:
    """Points whose convex hull is the (tessellated) shape, in the shape's node space."""
    points = _POINTS.get(type(shape))
    if points is None:
        raise TypeError(f"no point set for {type(shape).__name__}")
    return points(shape, segments)


def _box_points(shape: Box, segments: int) -> np.ndarray:
    h = np.asarray(shape.size, dtype=float) / 2
    return np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float) * h


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


# Each primitive kind's points (a plane has none: it is never turned into a hull).
_POINTS: dict[type, Callable[[Any, int], np.ndarray]] = {
    Box: _box_points,
    Sphere: lambda shape, segments: _sphere_points(np.zeros(3), shape.radius, segments),
    Capsule: lambda shape, segments: capsule_points(shape.height / 2, shape.radius_bottom, shape.radius_top,
                                                    segments),
    Cylinder: lambda shape, segments: cylinder_points(shape.height / 2, shape.radius_bottom, shape.radius_top,
                                                      segments),
}
