"""`gltf-physics view IN --png OUT.png`: a static picture of the colliders and body trajectories, drawn
with matplotlib's Agg canvas (no display, no browser).

Shapes come from the model, placed at their node's world matrix (initial pose); glTF's +Y is drawn up.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ..gltf.document import Document
from ..gltf.errors import GltfError
from ..gltf.files import Output, write_all
from ..gltf.meshes import mesh_triangles, node_triangles
from ..gltf.transforms import world_matrices
from ..model import Box, Capsule, Cylinder, MeshShape, PhysicsScene, Plane, Shape, Sphere
from .overlay import _body_kind

# Same colours as the browser viewer's overlays (viewer/src/overlays.js).
COLOURS = {"dynamic": "#ff8c1a", "kinematic": "#3aa0ff", "static": "#6f757b", "trigger": "#2fbf6f"}
DRAW_ORDER = ["static", "trigger", "kinematic", "dynamic"]
MAX_MESH_EDGES = 4000  # a preview, not a render: thin out big triangle meshes
INFINITE_PLANE = 20.0
GLTF_TO_PLOT = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])  # glTF Y-up → matplotlib Z-up (a rotation)

Segments = np.ndarray  # (S, 2, 3)


def render_png(doc: Document, scene: PhysicsScene, out: str | Path,
               trajectories: Mapping[int, np.ndarray] | None = None, *, size: tuple[float, float] = (8, 6),
               dpi: int = 100, frame: tuple[np.ndarray, np.ndarray] | None = None) -> Path:
    """Draw every collider and simple trigger (coloured by body kind) and each body's path; write a PNG.

    ``frame`` (glTF world corners, view/framing.py) is the box to show, lines outside it clipped; without one
    the picture holds everything drawn."""
    from matplotlib.figure import Figure  # Agg canvas via Figure: no pyplot, no display needed

    world = world_matrices(doc.json)
    fig = Figure(figsize=size, dpi=dpi)
    ax = fig.add_subplot(projection="3d")
    points: list[np.ndarray] = []
    drawn: set[str] = set()
    items = [(c.node, c.shape, _body_kind(scene, c.body)) for c in scene.colliders]
    items += [(t.node, t.shape, "trigger") for t in scene.triggers if t.shape is not None]
    items.sort(key=lambda item: DRAW_ORDER.index(item[2]))  # moving bodies drawn last, over the ground
    for node, shape, kind in items:
        segs = shape_segments(doc, node, shape)
        if frame is not None and isinstance(shape, Box | Plane):  # its part in the frame, outlined
            segs = _box_within(shape, world[node], frame)
        if len(segs) == 0:
            continue
        segs = _to_plot(_transform(segs, world[node]))
        if not _unbounded(shape):  # an infinite plane's patch would shrink the bodies to dots
            points.append(segs.reshape(-1, 3))
        if frame is not None:  # a 200 m floor under a 1 m ball: draw its part inside the picture
            segs = clip_segments(segs, *_to_plot(np.array(frame, dtype=float)))
            if len(segs) == 0:
                continue
        _draw_segments(ax, segs, COLOURS[kind], kind if kind not in drawn else None)
        drawn.add(kind)
    for node, path in (trajectories or {}).items():
        p = _to_plot(np.asarray(path, dtype=float).reshape(-1, 3))
        points.append(p)
        ax.plot(p[:, 0], p[:, 1], p[:, 2], color="#c2185b", linewidth=1.2,
                label="body path" if "path" not in drawn else None)
        ax.scatter(*p[-1], color="#c2185b", s=12)
        ax.text(*p[-1], f" #{node}", fontsize=7)
        drawn.add("path")
    limits = axes_limits(points if frame is None else [_to_plot(np.array(frame, dtype=float))])
    ax.set_xlim(*limits[0])
    ax.set_ylim(*limits[1])
    ax.set_zlim(*limits[2])
    ax.set_box_aspect((1, 1, 1))
    ax.set_xlabel("x")
    ax.set_ylabel("−z")
    ax.set_zlabel("y (up)")
    ax.set_title(doc.path.name if doc.path else "glTF physics scene", fontsize=10)
    if drawn:
        ax.legend(loc="upper left", fontsize=8)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    target = Path(out)
    write_all([Output(target, (buf.getvalue(),))])
    return target


def shape_segments(doc: Document, node: int, shape: Shape | None) -> Segments:
    """Line segments outlining ``shape`` in its node's space (round shapes along +Y, the spec)."""
    if isinstance(shape, Box):
        return _box(np.asarray(shape.size, dtype=float) / 2)
    if isinstance(shape, Sphere):
        r = shape.radius
        return np.concatenate([_circle(r, 0.0, axis) for axis in (0, 1, 2)])
    if isinstance(shape, Cylinder):
        h = shape.height / 2
        return _lathe([(shape.radius_bottom, -h), (shape.radius_top, h)])
    if isinstance(shape, Capsule):
        return _lathe(_capsule_profile(shape))
    if isinstance(shape, Plane):
        sx = INFINITE_PLANE if shape.size_x is None else shape.size_x
        sz = INFINITE_PLANE if shape.size_z is None else shape.size_z
        return _box(np.array([sx / 2, 0.0, sz / 2]))[:4]  # the 4 edges of the y = 0 face
    if isinstance(shape, MeshShape):
        return _mesh_edges(doc, shape)
    return np.zeros((0, 2, 3))


def _unbounded(shape: Shape | None) -> bool:
    return isinstance(shape, Plane) and (shape.size_x is None or shape.size_z is None)


def _box(h: np.ndarray) -> Segments:
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * h
    # Corners differing in exactly one sign are joined: 12 edges, y = -h edges first.
    pairs = [(0, 4), (1, 5), (0, 1), (4, 5), (2, 6), (3, 7), (2, 3), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7)]
    return np.array([[corners[a], corners[b]] for a, b in pairs])


def _circle(r: float, offset: float, axis: int = 1, n: int = 32) -> Segments:
    a = np.linspace(0, 2 * math.pi, n + 1)
    ring = np.zeros((n + 1, 3))
    u, v = [(1, 2), (0, 2), (0, 1)][axis]
    ring[:, u], ring[:, v], ring[:, axis] = r * np.cos(a), r * np.sin(a), offset
    return np.stack([ring[:-1], ring[1:]], axis=1)


def _lathe(profile: list[tuple[float, float]]) -> Segments:
    """Circles at each profile point and four meridians: a round shape about +Y."""
    rings = [_circle(r, y) for r, y in profile if r > 0]
    meridians = []
    for angle in (0, math.pi / 2, math.pi, 3 * math.pi / 2):
        c, s = math.cos(angle), math.sin(angle)
        pts = np.array([[r * c, y, r * s] for r, y in profile])
        meridians.append(np.stack([pts[:-1], pts[1:]], axis=1))
    return np.concatenate(rings + meridians)


def _capsule_profile(c: Capsule, n: int = 6) -> list[tuple[float, float]]:
    h = c.height / 2  # height is between the hemisphere centres (D-8)
    bottom = [(c.radius_bottom * math.cos(a), -h + c.radius_bottom * math.sin(a))
              for a in np.linspace(-math.pi / 2, 0, n)]
    top = [(c.radius_top * math.cos(a), h + c.radius_top * math.sin(a))
           for a in np.linspace(0, math.pi / 2, n)]
    return bottom + top


def _mesh_edges(doc: Document, shape: MeshShape) -> Segments:
    try:
        if shape.mesh is not None:
            vertices, triangles = mesh_triangles(doc, shape.mesh)
        elif shape.node is not None:
            vertices, triangles = node_triangles(doc, shape.node, space="node")
        else:
            return np.zeros((0, 2, 3))
    except GltfError:
        return np.zeros((0, 2, 3))  # unreadable mesh data: the validator reports it; the preview skips it
    if len(triangles) == 0:
        return np.zeros((0, 2, 3))
    edges = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    edges = np.unique(np.sort(edges, axis=1), axis=0)
    if len(edges) > MAX_MESH_EDGES:
        edges = edges[:: math.ceil(len(edges) / MAX_MESH_EDGES)]
    return vertices[edges]


def _transform(segs: Segments, m: np.ndarray) -> Segments:
    return segs @ m[:3, :3].T + m[:3, 3]


def _to_plot(p: np.ndarray) -> np.ndarray:
    return p @ GLTF_TO_PLOT.T


def _box_within(shape: Box | Plane, m: np.ndarray, frame: tuple[np.ndarray, np.ndarray]) -> Segments:
    """The outline of the part of a box (or plane, infinite ones included) inside ``frame``: a wireframe of a
    200 m floor has no edge near a 1 m ball, so the cut is made on the solid, in its node's space."""
    if isinstance(shape, Box):
        h = np.asarray(shape.size, dtype=float) / 2
    else:
        far = 1e9  # an infinite plane: unbounded across, cut by the frame
        h = np.array([far if shape.size_x is None else shape.size_x / 2, 0.0,
                      far if shape.size_z is None else shape.size_z / 2])
    try:
        inv = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        return np.zeros((0, 2, 3))  # a collapsed node: nothing to outline
    a, b = (np.asarray(c, dtype=float) for c in frame)
    corners = np.array([[x, y, z] for x in (a[0], b[0]) for y in (a[1], b[1]) for z in (a[2], b[2])])
    local = corners @ inv[:3, :3].T + inv[:3, 3]
    lo, hi = np.maximum(-h, local.min(axis=0)), np.minimum(h, local.max(axis=0))
    if np.any(lo > hi + 1e-9 * max(float(np.max(np.abs(h))), 1.0)):
        return np.zeros((0, 2, 3))
    hi = np.maximum(lo, hi)
    segs = _box((hi - lo) / 2) + (lo + hi) / 2
    return segs if isinstance(shape, Box) else segs[:4]


def clip_segments(segs: Segments, a: np.ndarray, b: np.ndarray) -> Segments:
    """The parts of ``segs`` inside the box with corners ``a`` and ``b`` (any order; Liang–Barsky per axis):
    matplotlib's own 3-D clipping drops a whole line once an end leaves the axes."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    pad = 1e-9 * max(float(np.max(hi - lo)), 1.0)  # a face lying on the box's side stays
    lo, hi = lo - pad, hi + pad
    p0, d = segs[:, 0, :], segs[:, 1, :] - segs[:, 0, :]
    t0, t1 = np.zeros(len(segs)), np.ones(len(segs))
    keep = np.ones(len(segs), dtype=bool)
    for k in range(3):
        flat = d[:, k] == 0
        keep &= ~flat | ((p0[:, k] >= lo[k]) & (p0[:, k] <= hi[k]))
        with np.errstate(divide="ignore", invalid="ignore"):
            ta, tb = (lo[k] - p0[:, k]) / d[:, k], (hi[k] - p0[:, k]) / d[:, k]
        t0 = np.where(flat, t0, np.maximum(t0, np.minimum(ta, tb)))
        t1 = np.where(flat, t1, np.minimum(t1, np.maximum(ta, tb)))
    keep &= t0 <= t1
    return np.stack([p0 + t0[:, None] * d, p0 + t1[:, None] * d], axis=1)[keep]


def _draw_segments(ax: object, segs: Segments, colour: str, label: str | None) -> None:
    from mpl_toolkits.mplot3d.art3d import Line3DCollection

    ax.add_collection3d(Line3DCollection(segs, colors=colour, linewidths=0.8, label=label))  # type: ignore[attr-defined]


def axes_limits(points: list[np.ndarray]) -> np.ndarray:
    """(3, 2) plot-axis limits: equal scale on all axes, a cube of the largest extent of ``points`` (plot
    coordinates) about their centre, at least 1 m a side."""
    p = np.concatenate(points) if points else np.zeros((0, 3))
    p = p[np.all(np.isfinite(p), axis=1)]
    lo, hi = (p.min(axis=0), p.max(axis=0)) if len(p) else (np.full(3, -1.0), np.full(3, 1.0))
    centre, half = (lo + hi) / 2, max(float(np.max(hi - lo)) / 2, 0.5)
    return np.stack([centre - half, centre + half], axis=1)
