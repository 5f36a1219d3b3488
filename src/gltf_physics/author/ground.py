"""`add --ground`: a static ground written under a model, for a plain file that has nothing to land on.

A model given dynamic bodies and nothing below them falls forever (the validator's HINT-NO-GROUND). The ground
is a static box collider on a new root node (no mesh: it is not drawn), its top face at the lowest point of every
drawn mesh of the default scene, and wide enough to catch what falls or rolls off: :data:`SPREAD` times the
model's footprint, at least :data:`MIN_SIDE` a side. Up is +Y (glTF's up, the default gravity's opposite).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..gltf.document import Document
from ..gltf.meshes import mesh_triangles
from ..gltf.transforms import world_matrices
from ..model import Box
from .selectors import default_roots

NAME = "Ground"
THICKNESS = 1.0  # m: thick enough that no solver step pushes a falling body through it
MIN_SIDE = 10.0  # m
SPREAD = 3.0  # the ground's side over the model's footprint (its larger horizontal extent)


def ground_box(doc: Document) -> tuple[list[float], Box]:
    """The ground's centre (world) and box under the drawn meshes of ``doc``'s default scene."""
    lo, hi = drawn_bounds(doc)
    side = max(MIN_SIDE, SPREAD * float(max(hi[0] - lo[0], hi[2] - lo[2])))
    centre = [float((lo[0] + hi[0]) / 2), float(lo[1] - THICKNESS / 2), float((lo[2] + hi[2]) / 2)]
    return centre, Box(size=(side, THICKNESS, side))


def drawn_bounds(doc: Document) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) world corners of every mesh drawn at or below the default scene's meshed roots (the origin when
    there is none)."""
    from ..gltf.hierarchy import descendants

    gltf = doc.json
    nodes = gltf.get("nodes") or []
    world = world_matrices(gltf)
    shown = sorted({d for r in default_roots(gltf) for d in (r, *descendants(gltf, r))})
    corners: dict[int, np.ndarray] = {}  # each mesh's own bounds, read once
    points = []
    for n in shown:
        mesh = nodes[n].get("mesh")
        if not isinstance(mesh, int):
            continue
        if mesh not in corners:
            vertices = mesh_triangles(doc, mesh)[0]
            corners[mesh] = _corners(vertices) if len(vertices) else np.zeros((0, 3))
        points.append(corners[mesh] @ world[n][:3, :3].T + world[n][:3, 3])
    p = np.concatenate(points) if points else np.zeros((1, 3))
    p = p[np.isfinite(p).all(axis=1)]
    if not len(p):
        p = np.zeros((1, 3))
    return p.min(axis=0), p.max(axis=0)


def _corners(vertices: np.ndarray) -> np.ndarray:
    """The 8 corners of the vertices' local bounding box: their world bounds contain the mesh's."""
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])


def add_ground_node(gltf: dict[str, Any], centre: list[float]) -> int:
    """Append the ground's node to ``gltf`` (edited in place) as a root of the default scene; its index."""
    nodes = gltf.setdefault("nodes", [])
    nodes.append({"name": NAME, "translation": centre})
    scenes = gltf.setdefault("scenes", [{"nodes": []}])
    shown = gltf.get("scene", 0) if isinstance(gltf.get("scene", 0), int) else 0
    if not 0 <= shown < len(scenes):
        shown = 0
    scenes[shown].setdefault("nodes", []).append(len(nodes) - 1)
    return len(nodes) - 1
