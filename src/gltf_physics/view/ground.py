"""`view --ground`: a static ground under the scene, for the run and the page (never written to the glTF file).

Many samples hold one body and nothing under it: it falls forever and leaves the frame within a second. The
ground is a static infinite plane collider (normal +Y) on a new node at the lowest point of every collider at
t = 0: a car driven for minutes never reaches its edge (a finite box of a few times the scene's footprint was
left within 3 s), and Rapier makes it a half-space, solid all the way down, so nothing falls through it. The
viewer draws it as a patch with grid lines around the scene.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..dialects import read_scene
from ..gltf.document import Document
from ..gltf.jsontext import copy_json
from ..gltf.transforms import world_matrices
from ..model import Collider, PhysicsScene, Plane
from .png import shape_segments

NAME = "gltf-physics ground"


def add_ground(doc: Document, scene: PhysicsScene) -> tuple[Document, PhysicsScene]:
    """A copy of ``doc`` with a ground node (no mesh), and its scene with a static infinite plane collider on
    that node, under the middle of the scene's footprint.

    Up is +Y (glTF's up, the default gravity's opposite).
    """
    lo, hi = lowest_and_footprint(doc, scene)
    centre = [float((lo[0] + hi[0]) / 2), float(lo[1]), float((lo[2] + hi[2]) / 2)]
    gltf = copy_json(doc.json)
    nodes = gltf.setdefault("nodes", [])
    node = len(nodes)
    nodes.append({"name": NAME, "translation": centre})
    scenes = gltf.setdefault("scenes", [{"nodes": []}])
    shown = gltf.get("scene", 0) if isinstance(gltf.get("scene", 0), int) else 0
    if 0 <= shown < len(scenes) and isinstance(scenes[shown], dict):
        scenes[shown].setdefault("nodes", []).append(node)
    grounded = dataclasses.replace(doc, json=gltf)
    new_scene = read_scene(grounded)
    new_scene.colliders.append(Collider(node=node, shape=Plane(), pointer=f"/nodes/{node}"))
    return grounded, new_scene


def lowest_and_footprint(doc: Document, scene: PhysicsScene) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) world corners of every bounded collider, trigger and wheel at t = 0 (the nodes' positions when
    there are none): ``lo[1]`` is the lowest point, x and z the footprint."""
    world = world_matrices(doc.json)
    points = []
    shapes = [(c.node, c.shape) for c in scene.colliders] + [(t.node, t.shape) for t in scene.triggers]
    for node, shape in shapes:
        if isinstance(shape, Plane) or not 0 <= node < len(world):
            continue  # a plane is a ground already, or an unbounded patch
        segs = shape_segments(doc, node, shape).reshape(-1, 3)
        if len(segs):
            points.append(segs @ world[node][:3, :3].T + world[node][:3, 3])
    for w in scene.wheels:  # a wheel's lowest point: its radius below its node, plus the suspension's travel
        if 0 <= w.node < len(world):
            reach = np.array([0.0, w.radius + w.suspension_travel, 0.0])
            points.append(np.array([world[w.node][:3, 3] - reach]))
    if not points:
        points = [np.array([m[:3, 3] for m in world]) if world else np.zeros((1, 3))]
    p = np.concatenate(points)
    p = p[np.all(np.isfinite(p), axis=1)]
    if not len(p):
        p = np.zeros((1, 3))
    return p.min(axis=0), p.max(axis=0)
