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
               dpi: int = 100) -> Path:
    """Draw every collider and simple trigger (coloured by body kind) and each body's path; write a PNG."""
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
        if len(segs) == 0:
            continue
        segs = _to_plot(_transform(segs, world[node]))
        if not _unbounded(shape):  # an infinite plane's patch would shrink the bodies to dots
            points.append(segs.reshape(-1, 3))
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
    _frame(ax, points)
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


def _draw_segments(ax: object, segs: Segments, colour: str, label: str | None) -> None:
    from mpl_toolkits.mplot3d.art3d import Line3DCollection

    ax.add_collection3d(Line3DCollection(segs, colors=colour, linewidths=0.8, label=label))  # type: ignore[attr-defined]


def _frame(ax: object, points: list[np.ndarray]) -> None:
    """Equal scale on all axes around everything drawn (a cube of the largest extent)."""
    if not points:
        lo, hi = np.full(3, -1.0), np.full(3, 1.0)
    else:
        p = np.concatenate(points)
        p = p[np.all(np.isfinite(p), axis=1)]
        lo, hi = (p.min(axis=0), p.max(axis=0)) if len(p) else (np.full(3, -1.0), np.full(3, 1.0))
    centre, half = (lo + hi) / 2, max(float(np.max(hi - lo)) / 2, 0.5)
    ax.set_xlim(centre[0] - half, centre[0] + half)  # type: ignore[attr-defined]
    ax.set_ylim(centre[1] - half, centre[1] + half)  # type: ignore[attr-defined]
    ax.set_zlim(centre[2] - half, centre[2] + half)  # type: ignore[attr-defined]
    ax.set_box_aspect((1, 1, 1))  # type: ignore[attr-defined]
