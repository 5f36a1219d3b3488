"""The drop check for authored physics: an object made physical is dropped from 1 m onto a ground for 3 s.

``prepare`` wraps the scene's roots in one node ``Drop`` placed so the drawn geometry's lowest point is 1 m above
a ground (a static box collider, top face at y = 0, added to the read scene; the file itself gets only an
empty ``Ground`` node). ``drop`` runs the World and returns what the tests assert: how far the object still
moved in the last half second, and how deep the drawn mesh and the colliders went below the ground, as
fractions of the object's size (its bounding-box diagonal).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

import gltf_physics as gp
from gltf_physics.geometry.tessellation import shape_points
from gltf_physics.gltf.meshes import mesh_triangles, node_triangles
from gltf_physics.gltf.transforms import quat_to_matrix, world_matrices
from gltf_physics.model import Box, Collider, MeshShape


def prepare(gltf: dict[str, Any], buffers: list[bytes]) -> gp.Document:
    """A copy of the document with its scene under ``Drop`` (lowest drawn point at y = 1) and a ``Ground`` node."""
    g = copy.deepcopy(gltf)
    scene = g["scenes"][g.get("scene", 0)]
    roots = list(scene["nodes"])
    g["nodes"].append({"name": "Drop", "children": roots})
    drop = len(g["nodes"]) - 1
    g["nodes"].append({"name": "Ground", "translation": [0.0, -0.5, 0.0]})
    scene["nodes"] = [drop, drop + 1]
    doc = gp.Document(json=g, buffers=list(buffers))
    v, _ = node_triangles(doc, drop, space="world")
    lo, hi = v.min(axis=0), v.max(axis=0)
    g["nodes"][drop]["translation"] = [float(-(lo[0] + hi[0]) / 2), float(1.0 - lo[1]), float(-(lo[2] + hi[2]) / 2)]
    return doc


@dataclass
class Drop:
    size: float
    moved: float  # the most any drawn vertex moved between t = 2.5 s and t = 3 s, over ``size``
    mesh_depth: float  # how far the drawn mesh is below y = 0 at the end, over ``size`` (negative: above)
    collider_depth: float  # the same for the colliders' points
    height: float  # how far the drawn mesh's lowest point came down (m): 1 for a fall onto the ground
    settled: float  # how far the centre of mass moved up or down over the last half second, over ``size``


def drop(doc: gp.Document) -> Drop:
    """Run the dropped document for 3 s (60 Hz) and measure the end state."""
    scene = gp.read_scene(doc)
    nodes = doc.json["nodes"]
    drop_node = next(i for i, n in enumerate(nodes) if n.get("name") == "Drop")
    ground = next(i for i, n in enumerate(nodes) if n.get("name") == "Ground")
    scene.colliders.append(Collider(node=ground, shape=Box(size=(50.0, 1.0, 50.0))))
    world0 = world_matrices(doc.json)
    drawn, _ = node_triangles(doc, drop_node, space="node")
    size = float(np.linalg.norm(np.ptp(drawn, axis=0)))
    points = _collider_points(doc, scene, drop_node, world0)
    w = gp.World(scene, rate=60)
    com = np.asarray(w.mass_properties(drop_node).center_of_mass, dtype=float)[None, :]
    start = _placed(drawn, w, drop_node)
    w.run(2.5)
    mid, com_mid = _placed(drawn, w, drop_node), _placed(com, w, drop_node)
    w.run(0.5)
    end, com_end = _placed(drawn, w, drop_node), _placed(com, w, drop_node)
    col_y = _placed(points, w, drop_node)[:, 1].min()
    moved = float(np.linalg.norm(end - mid, axis=1).max())
    return Drop(size, moved / size, float(-end[:, 1].min()) / size, float(-col_y) / size,
                float(start[:, 1].min() - end[:, 1].min()), float(abs(com_end[0, 1] - com_mid[0, 1])) / size)


def _placed(points: np.ndarray, world: gp.World, body: int) -> np.ndarray:
    """``points`` (body frame) where the body is now, in world space."""
    t, q = world.pose(body)
    return points @ quat_to_matrix(q).T + t


def _collider_points(doc: gp.Document, scene: Any, body: int, world0: list[np.ndarray]) -> np.ndarray:
    """Every collider's points (primitives tessellated, meshes' vertices) in the body's frame at the start."""
    inv = np.linalg.inv(world0[body])
    out = []
    for c in scene.colliders:
        if c.body != body:
            continue
        mesh = isinstance(c.shape, MeshShape)
        p = mesh_triangles(doc, c.shape.mesh)[0] if mesh else shape_points(c.shape, 48)  # type: ignore[union-attr]
        rel = inv @ world0[c.node]
        out.append(p @ rel[:3, :3].T + rel[:3, 3])
    return np.concatenate(out)
