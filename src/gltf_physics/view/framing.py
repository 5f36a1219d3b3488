"""What a picture of a run frames: the moving bodies over the whole run, and the static geometry they meet.

A camera that frames only the bodies at one moment shows a falling ball on an empty background (t = 2 s looks
like t = 0), and one that frames everything shows a 200 m floor with the bodies as dots. The box here is the
union of

- every moving body's colliders swept along its recorded path (each body's colliders as a ball about its node
  origin, so a turning body stays inside), or placed at t = 0 without a run, and
- the part of each static collider's bounds, and of each static mesh's (a node's mesh that no moving body
  carries: its POSITION accessors' min/max, placed), within ``MARGIN`` of that swept box (a floor under a
  falling box adds the floor's strip under it; a ramp the ball rolls down adds the ramp; a wall 1 km away
  adds nothing).

Coordinates are glTF world space (+Y up). Both pictures use it: the page's camera (`view --png --at`, and the
first view of a page) and the matplotlib preview (`view --png` without a browser).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..gltf.document import Document
from ..gltf.hierarchy import nearest_marked, parents
from ..gltf.transforms import world_matrices
from ..model import MotionType, PhysicsScene, Plane
from .png import shape_segments

MARGIN_FRACTION = 0.5  # static geometry within half the moving box's largest side of it is framed
MIN_MARGIN = 1.0  # m: and at least this, so a small body's floor and the wall beside it count

Box = tuple[np.ndarray, np.ndarray]  # (lo, hi) world corners


def frame_box(doc: Document, scene: PhysicsScene, trajectories: Mapping[int, np.ndarray] | None = None
              ) -> Box | None:
    """The box to frame (glTF world space), or None when nothing moves (then the whole scene is the subject)."""
    world = world_matrices(doc.json)
    moving = _moving_box(doc, scene, world, trajectories or {})
    if moving is None:
        return None
    lo, hi = moving
    margin = max(MIN_MARGIN, MARGIN_FRACTION * float(np.max(hi - lo)))
    near_lo, near_hi = lo - margin, hi + margin
    still = []
    for c in scene.colliders:
        body = scene.body(c.body) if c.body is not None else None
        if body is None or body.motion.type is MotionType.STATIC:
            still.append(_collider_bounds(doc, world, c.node, c.shape))
    still += _static_mesh_bounds(doc, scene, world)
    for bounds in still:
        if bounds is None:
            continue
        clip_lo, clip_hi = np.maximum(bounds[0], near_lo), np.minimum(bounds[1], near_hi)
        if np.all(clip_lo <= clip_hi):  # it reaches into the neighbourhood: frame the part that does
            lo, hi = np.minimum(lo, clip_lo), np.maximum(hi, clip_hi)
    return lo, hi


def _moving_box(doc: Document, scene: PhysicsScene, world: list[np.ndarray],
                trajectories: Mapping[int, np.ndarray]) -> Box | None:
    reach: dict[int, float] = {}  # body node → farthest collider point from its origin
    for c in scene.colliders:
        body = scene.body(c.body) if c.body is not None else None
        if body is None or body.motion.type is MotionType.STATIC or not 0 <= body.node < len(world):
            continue
        pts = _world_points(doc, world, c.node, c.shape)
        if len(pts):
            r = float(np.max(np.linalg.norm(pts - world[body.node][:3, 3], axis=1)))
            reach[body.node] = max(reach.get(body.node, 0.0), r)
    for b in scene.bodies:
        if b.motion.type is not MotionType.STATIC and 0 <= b.node < len(world):
            reach.setdefault(b.node, 0.0)
    if not reach:
        return None
    corners = []
    for node, r in reach.items():
        path = trajectories.get(node)
        p = np.asarray(path, dtype=float).reshape(-1, 3) if path is not None else world[node][None, :3, 3]
        p = p[np.all(np.isfinite(p), axis=1)]
        if len(p):
            corners += [p.min(axis=0) - r, p.max(axis=0) + r]
    if not corners:
        return None
    c = np.array(corners)
    return c.min(axis=0), c.max(axis=0)


def _static_mesh_bounds(doc: Document, scene: PhysicsScene, world: list[np.ndarray]) -> list[Box | None]:
    """World bounds of each mesh on a node no moving body carries, from its POSITION accessors' min/max
    (required by glTF; a primitive without them is skipped)."""
    gltf = doc.json
    nodes, meshes, accessors = (gltf.get(k) if isinstance(gltf.get(k), list) else [] for k in
                                ("nodes", "meshes", "accessors"))
    bodies = {b.node: b for b in scene.bodies}
    carrier = nearest_marked(parents(gltf), set(bodies))
    out: list[Box | None] = []
    for i, node in enumerate(nodes):
        m = node.get("mesh") if isinstance(node, dict) else None
        body = bodies.get(carrier[i]) if carrier[i] is not None else None
        if not isinstance(m, int) or not 0 <= m < len(meshes) or i >= len(world) or not isinstance(meshes[m], dict) \
                or (body is not None and body.motion.type is not MotionType.STATIC):
            continue
        for prim in meshes[m].get("primitives") or []:
            a = (prim.get("attributes") or {}).get("POSITION") if isinstance(prim, dict) else None
            acc = accessors[a] if isinstance(a, int) and 0 <= a < len(accessors) else None
            lo, hi = (acc.get("min"), acc.get("max")) if isinstance(acc, dict) else (None, None)
            try:
                corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                                    for z in (lo[2], hi[2])], dtype=float)
            except (TypeError, IndexError, ValueError):
                continue  # no usable min/max: the validator reports it; the frame does without
            pts = corners @ world[i][:3, :3].T + world[i][:3, 3]
            if np.all(np.isfinite(pts)):
                out.append((pts.min(axis=0), pts.max(axis=0)))
    return out


def _collider_bounds(doc: Document, world: list[np.ndarray], node: int, shape: object) -> Box | None:
    if isinstance(shape, Plane) and (shape.size_x is None or shape.size_z is None):
        return _infinite_plane_bounds(world, node)
    pts = _world_points(doc, world, node, shape)
    return (pts.min(axis=0), pts.max(axis=0)) if len(pts) else None


def _infinite_plane_bounds(world: list[np.ndarray], node: int) -> Box | None:
    """A level infinite plane: its height, unbounded across (clipped to the neighbourhood by the caller)."""
    if not 0 <= node < len(world):
        return None
    m = world[node]
    normal = m[:3, :3] @ np.array([0.0, 1.0, 0.0])
    if abs(abs(normal[1]) - np.linalg.norm(normal)) > 1e-9 * max(np.linalg.norm(normal), 1.0):
        return None  # a tilted infinite plane has no finite bounds to frame
    inf = np.inf
    return np.array([-inf, m[1, 3], -inf]), np.array([inf, m[1, 3], inf])


def _world_points(doc: Document, world: list[np.ndarray], node: int, shape: object) -> np.ndarray:
    if not 0 <= node < len(world):
        return np.zeros((0, 3))
    segs = shape_segments(doc, node, shape).reshape(-1, 3)  # type: ignore[arg-type]
    pts = segs @ world[node][:3, :3].T + world[node][:3, 3]
    return pts[np.all(np.isfinite(pts), axis=1)]
