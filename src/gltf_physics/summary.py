"""What `gltf-physics info` reports: extensions, generations, counts and resolved mass properties."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np

from .gcpause import gc_paused
from .geometry.mass import MassCache, MassProperties, body_mass_properties, has_axes
from .geometry.placement import colliders_by_body, document_mesh_source
from .gltf.document import Document
from .gltf.transforms import world_matrices
from .model import MotionType, PhysicsScene, shape_kind

DENSITY = 1000.0  # kg/m³, body_mass_properties' default: what `info` has always reported


def summarize(doc: Document, scene: PhysicsScene) -> dict[str, Any]:
    """A JSON-ready summary; counts are plain integers, infinities are the string "inf".

    Static bodies' rows carry no mass, centre of mass or inertia: they never move, whatever the file says."""
    shapes = Counter(shape_kind(c.shape) for c in scene.colliders)
    shapes.update(shape_kind(t.shape) for t in scene.triggers if t.shape is not None)
    used, nodes = _array(doc.json, "extensionsUsed"), _array(doc.json, "nodes")
    return {
        "file": doc.name,
        "extensionsUsed": [e for e in used if isinstance(e, str)],
        "generations": dict(scene.generations),
        "counts": {
            "nodes": len(nodes),
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
        "bodies": _body_rows(doc, scene),
        "joints": [_joint_row(j, nodes) for j in scene.joints],
        "triggers": [_trigger_row(t, nodes) for t in scene.triggers],
    }


def _name(nodes: list[Any], node: int | None) -> str | None:
    """The node's name, if it has one."""
    item = nodes[node] if node is not None and 0 <= node < len(nodes) else None
    name = item.get("name") if isinstance(item, dict) else None
    return name if isinstance(name, str) else None


def _joint_row(j: Any, nodes: list[Any]) -> dict[str, Any]:
    """A joint: its node, the two bodies it connects (None: the world) and how many limits and drives."""
    return {"node": j.node, "name": _name(nodes, j.node), "bodyA": j.body_a, "bodyB": j.body_b,
            "connectedNode": j.connected_node, "limits": len(j.limits), "drives": len(j.drives),
            "pointer": j.pointer}


def _trigger_row(t: Any, nodes: list[Any]) -> dict[str, Any]:
    """A trigger: its node, its shape kind (or the parts of a compound) and the body carrying it (None: static)."""
    row: dict[str, Any] = {"node": t.node, "name": _name(nodes, t.node), "body": t.body, "pointer": t.pointer}
    if t.nodes is not None:
        row["parts"] = list(t.nodes)
    else:
        row["shape"] = shape_kind(t.shape)
    return row


def _array(gltf: Any, key: str) -> list[Any]:
    """A top-level array; anything else (malformed input) counts as empty."""
    value = gltf.get(key) if isinstance(gltf, dict) else None
    return value if isinstance(value, list) else []


def _body_rows(doc: Document, scene: PhysicsScene) -> list[dict[str, Any]]:
    """One row per body. World matrices, meshes and collider lists are gathered once for all bodies: per
    body they made `info` quadratic (minutes at a few thousand nodes); a :class:`MassCache` integrates
    identical bodies once."""
    if not scene.bodies:
        return []
    # The GC paused as while reading (a few objects per body; each full sweep walks the whole parsed JSON);
    # non-finite sizes give "nan" in the row, not NumPy warnings on stderr.
    with gc_paused(), np.errstate(all="ignore"):
        return _rows(doc, scene)


def _rows(doc: Document, scene: PhysicsScene) -> list[dict[str, Any]]:
    # The matrices the reader already computed (joint frames), else computed once.
    world = scene.node_world() if scene.document is doc else world_matrices(doc.json)
    mesh_source = document_mesh_source(doc)
    by_body = colliders_by_body(scene)
    nodes = _array(doc.json, "nodes")
    cache = MassCache()
    cache.prepare(scene, world, [b.node for b in scene.bodies if b.motion.type is not MotionType.STATIC], by_body)
    numbers: dict[int, tuple[MassProperties, dict[str, Any]]] = {}  # the cache hands out one object per result
    rows = []
    for body in scene.bodies:
        name = nodes[body.node].get("name") if isinstance(nodes[body.node], dict) else None
        row: dict[str, Any] = {"node": body.node, "name": name if isinstance(name, str) else None,
                               "motion": body.motion.type.value}
        rows.append(row)
        if body.motion.type is MotionType.STATIC:  # immovable: a mass or inertia would only mislead
            continue
        try:
            mp = body_mass_properties(scene, body, DENSITY, mesh_source, world=world,
                                      colliders=by_body.get(body.node, []), cache=cache)
        except (ArithmeticError, ValueError) as exc:  # e.g. unreadable mesh data
            _unknown(row, str(exc))
            continue
        found = numbers.get(id(mp))
        if found is None:
            found = numbers[id(mp)] = (mp, _mass_fields(mp))
        fields = found[1]
        if fields:
            row.update(mass=fields["mass"], centerOfMass=list(fields["centerOfMass"]),
                       inertiaDiagonal=list(fields["inertiaDiagonal"]),
                       inertiaOrientation=list(fields["inertiaOrientation"]))
        else:  # Non-finite or out-of-range sizes/transforms/overrides (reported by `validate`)
            _unknown(row, "the inertia tensor is NaN (non-finite or overflowing sizes, transforms or overrides)")
    return rows


def _mass_fields(mp: MassProperties) -> dict[str, Any]:
    """A row's mass columns, JSON-ready; empty when the principal axes are unknown (NaN inertia)."""
    if not has_axes(mp):
        return {}
    return {"mass": _num(mp.mass), "centerOfMass": [_num(v) for v in mp.center_of_mass],
            "inertiaDiagonal": [_num(v) for v in mp.inertia_diagonal],
            "inertiaOrientation": [_num(v) for v in mp.inertia_orientation]}


def _unknown(row: dict[str, Any], reason: str) -> None:
    """Say the body's mass properties cannot be computed, keeping the rest of the row."""
    row.update(mass="nan", centerOfMass=["nan"] * 3, inertiaDiagonal=["nan"] * 3, inertiaOrientation=["nan"] * 4,
               error=f"mass properties cannot be computed: {reason}")


def _num(v: float) -> float | str:
    if math.isnan(v):
        return "nan"  # JSON has no NaN
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return round(float(v), 9)
