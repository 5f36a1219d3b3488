"""What `gltf-physics info` reports: extensions, generations, counts and resolved mass properties."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from .gltf.document import Document
from .model import PhysicsScene, shape_kind
from .model.mass import body_mass_properties


def summarize(doc: Document, scene: PhysicsScene) -> dict[str, Any]:
    """A JSON-ready summary; counts are plain integers, infinities are the string "inf"."""
    shapes = Counter(shape_kind(c.shape) for c in scene.colliders)
    shapes.update(shape_kind(t.shape) for t in scene.triggers if t.shape is not None)
    return {
        "file": doc.name,
        "extensionsUsed": list(doc.json.get("extensionsUsed") or []),
        "generations": dict(scene.generations),
        "counts": {
            "nodes": len(doc.json.get("nodes") or []),
            "bodies": dict(Counter(b.motion.type.value for b in scene.bodies)),
            "shapes": dict(shapes),
            "colliders": len(scene.colliders),
            "staticColliders": sum(1 for c in scene.colliders if c.body is None),
            "triggers": len(scene.triggers),
            "compoundTriggers": sum(1 for t in scene.triggers if t.nodes is not None),
            "joints": len(scene.joints),
            "materials": len(scene.materials),
            "filters": len(scene.filters),
            "vehicles": len(scene.vehicles),
            "wheels": len(scene.wheels),
            "thrusters": len(scene.thrusters),
            "hoverThrusters": len(scene.hover_thrusters),
            "gravityFields": len(scene.gravity_fields),
            "seats": len(scene.seats),
        },
        "worldGravity": None if scene.world_gravity is None else list(scene.world_gravity.vector),
        "bodies": [_body_row(doc, scene, b) for b in scene.bodies],
    }


def _body_row(doc: Document, scene: PhysicsScene, body: Any) -> dict[str, Any]:
    nodes = doc.json.get("nodes") or []
    name = nodes[body.node].get("name") if isinstance(nodes[body.node], dict) else None
    mp = body_mass_properties(scene, body)
    return {
        "node": body.node,
        "name": name,
        "motion": body.motion.type.value,
        "mass": _num(mp.mass),
        "centerOfMass": [_num(v) for v in mp.center_of_mass],
        "inertiaDiagonal": [_num(v) for v in mp.inertia_diagonal],
        "inertiaOrientation": [_num(v) for v in mp.inertia_orientation],
    }


def _num(v: float) -> float | str:
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return round(float(v), 9)
