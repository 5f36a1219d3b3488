"""Placed collider shapes as MJCF geom attributes and ``<mesh>`` assets (part of ``formats/mjcf.py``).

Round shapes turn their axis from glTF's +Y onto MuJoCo's +Z; tapered ones and meshes become ``<mesh>``
assets (MuJoCo collides every mesh as its convex hull); a static triangle mesh becomes one thin prism per
triangle; planes follow MuJoCo's rule (infinite, one-sided, static) or become thin boxes, as on Rapier.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable

import numpy as np

from ...geometry.hulls import hull_triangles
from ...geometry.placement import PlacedShape
from ...geometry.tessellation import shape_points
from ...gltf.transforms import quat_multiply, quat_to_matrix
from ...model.shapes import Capsule, Cylinder

_Z_TO_Y = (-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))  # xyzw: turns MuJoCo's +Z axis onto glTF's +Y
PLANE_THICKNESS = 0.01  # m, as sim/rapier/shapes.py
BIG = 1.0e4  # m, half extent of a double-sided infinite plane (as on Rapier)
MIN_SIZE = 1e-15  # MuJoCo's mjMINVAL: its compiler refuses a geom size below it
MAX_PRISMS = 4096  # a static triangle mesh up to this size becomes one prism geom per triangle


class GeomWriter:
    """Writes shapes' geom attributes; meshes go to ``asset``; approximations to ``loss(code, pointer, msg)``."""

    def __init__(self, asset: ET.Element, loss: Callable[[str, str, str], None]) -> None:
        self.asset = asset
        self.loss = loss
        self.mesh_count = 0

    def prisms(self, p: PlacedShape) -> list[dict[str, str]]:
        """A static triangle mesh as one thin prism per triangle (extruded 1 cm behind its front face), so
        MuJoCo, which collides every mesh as its convex hull, sees the concave surface itself."""
        pts = np.asarray(p.points, dtype=float)
        out = []
        for tri in np.asarray(p.triangles):
            a, b, c = pts[tri]
            n = np.cross(b - a, c - a)
            length = float(np.linalg.norm(n))
            if length <= 1e-12:
                continue  # a degenerate triangle has no surface
            back = n / length * PLANE_THICKNESS
            name = f"mesh{self.mesh_count}"
            self.mesh_count += 1
            verts = np.vstack([a, b, c, a - back, b - back, c - back]).reshape(-1)
            ET.SubElement(self.asset, "mesh", name=name, vertex=_nums(verts), inertia="convex")
            out.append({"type": "mesh", "mesh": name})
        return out

    def shape_attrs(self, p: PlacedShape, pointer: str, moving: bool) -> dict[str, str] | None:
        """One geom's attributes (no name, material or filter); ``None``: MuJoCo cannot hold the shape."""
        t, q = p.translation, p.rotation
        if p.kind in ("box", "sphere", "capsule", "cylinder") and _smallest_size(p) < MIN_SIZE:
            # MuJoCo's compiler refuses a size under mjMINVAL ("size 0 must be positive"); Rapier builds it and
            # it collides with nothing there either (the validator warns: SHAPE-4, KIS-3).
            self.loss("MJCF-1", pointer, f"{p.kind} of zero size: MuJoCo takes no size under {MIN_SIZE:g}; "
                      "not written")
            return None
        if p.kind == "box":
            return {"type": "box", "size": _nums(p.params), "pos": _nums(t), "quat": _nums(_wxyz(q))}
        if p.kind == "sphere":
            return {"type": "sphere", "size": _num(p.params[0]), "pos": _nums(t)}
        if p.kind in ("capsule", "cylinder"):
            hh, rb, rt = p.params
            if abs(rb - rt) <= 1e-12 * max(rb, rt, 1e-300):
                qz = quat_multiply(q, _Z_TO_Y)
                return {"type": p.kind, "size": f"{_num(rb)} {_num(hh)}", "pos": _nums(t), "quat": _nums(_wxyz(qz))}
            self.loss("MJCF-1", pointer, f"tapered {p.kind} written as the convex hull of its tessellation "
                      "(approximate)")
            shape = Capsule(2 * hh, rb, rt) if p.kind == "capsule" else Cylinder(2 * hh, rb, rt)
            pts = shape_points(shape) @ quat_to_matrix(q).T + np.asarray(t)
            return self._mesh(PlacedShape("convex", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), points=pts), pointer)
        if p.kind == "plane":
            return self._plane(p, pointer, moving)
        return self._mesh(p, pointer, moving)

    def _plane(self, p: PlacedShape, pointer: str, moving: bool) -> dict[str, str]:
        sx, sz, double = p.params
        infinite = math.isinf(sx) or math.isinf(sz)
        qz = quat_multiply(p.rotation, _Z_TO_Y)
        if infinite and not double and not moving:
            return {"type": "plane", "size": "0 0 1", "pos": _nums(p.translation), "quat": _nums(_wxyz(qz))}
        hx, hz = (BIG, BIG) if infinite else (sx / 2, sz / 2)
        offset = 0.0 if double else -PLANE_THICKNESS / 2  # one-sided: the top face is the plane
        centre = np.asarray(p.translation) + quat_to_matrix(p.rotation) @ np.array([0.0, offset, 0.0])
        why = "on a moving body" if moving else ("double-sided" if double else "finite")
        self.loss("MJCF-1", pointer, f"{why} plane written as a {PLANE_THICKNESS * 100:g} cm thick box "
                  "(MuJoCo planes are infinite, one-sided and static)")
        return {"type": "box", "size": f"{_num(hx)} {_num(PLANE_THICKNESS / 2)} {_num(hz)}",
                "pos": _nums(centre), "quat": _nums(_wxyz(p.rotation))}

    def _mesh(self, p: PlacedShape, pointer: str, moving: bool = True) -> dict[str, str] | None:
        pts = np.asarray(p.points, dtype=float)
        hull = hull_triangles(pts)
        if len(hull) == 0:
            self.loss("MJCF-1", pointer, "flat or empty mesh shape: no MuJoCo mesh can hold it; not written")
            return None
        if p.kind == "trimesh":
            why = "on a moving body" if moving else f"of more than {MAX_PRISMS} triangles"
            self.loss("MJCF-1", pointer, f"triangle mesh {why} collides as its convex hull in MuJoCo (approximate)")
        used = np.unique(hull)  # the hull's vertices are all MuJoCo needs
        name = f"mesh{self.mesh_count}"
        self.mesh_count += 1
        ET.SubElement(self.asset, "mesh", name=name, vertex=_nums(pts[used].reshape(-1)), inertia="convex")
        return {"type": "mesh", "mesh": name}

    # -- filters and triggers ----------------------------------------------------------------------------


def _wxyz(q: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return q[3], q[0], q[1], q[2]


def _num(v: float) -> str:
    return f"{float(v):.12g}"


def _nums(values: object) -> str:
    return " ".join(_num(v) for v in values)  # type: ignore[attr-defined]


def _smallest_size(p: PlacedShape) -> float:
    """The size MuJoCo would be given that matters for "zero size": a box's or sphere's smallest parameter, a
    capsule's or cylinder's half-height and larger radius (a cone, one radius 0, is a real shape: a hull)."""
    if p.kind in ("capsule", "cylinder"):
        hh, rb, rt = p.params
        return min(hh, max(rb, rt))
    return min(p.params)
