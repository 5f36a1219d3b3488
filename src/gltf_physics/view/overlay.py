"""The neutral "physics overlay" the viewer draws: plain JSON computed from the PhysicsScene model.

The viewer never reads extension JSON (docs/architecture.md: nothing outside dialects/ spells an extension's keys); it
gets shapes, body kinds, joint frames, wheels, thrusters and gravity volumes in this one model-level form.
Shapes are in their node's space (the viewer hangs each overlay under its node's object, so the node's scale
and whatever moves the node apply to it). Matrices are 4×4, column-major (three.js ``Matrix4.fromArray``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..gltf.document import Document
from ..gltf.hierarchy import descendants
from ..gltf.transforms import world_matrices
from ..model import (
    Box,
    Capsule,
    Cylinder,
    GravityField,
    Joint,
    MeshShape,
    MotionType,
    PhysicsScene,
    Plane,
    Pose,
    Shape,
    Sphere,
)

IDENTITY = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]


def build_overlay(doc: Document, scene: PhysicsScene) -> dict[str, Any]:
    """Everything the viewer draws besides the meshes; ``colliders`` lists colliders, then simple triggers."""
    world = world_matrices(doc.json)
    colliders = [_collider(doc, world, c.node, c.shape, _body_kind(scene, c.body), c.body, c.pointer)
                 for c in scene.colliders]
    colliders += [_collider(doc, world, t.node, t.shape, "trigger", t.body, t.pointer)
                  for t in scene.triggers if t.shape is not None]
    return {
        "version": 1,
        "nodeCount": len(world),
        "worldMatrices": [_column_major(m) for m in world],
        "markerSize": _marker_size(world, scene),
        "colliders": colliders,
        "triggers": _trigger_parts(scene),
        "bodies": [{"node": b.node, "motion": b.motion.type.value} for b in scene.bodies],
        "joints": [_joint(j) for j in scene.joints],
        "wheels": [{"node": w.node, "vehicle": w.vehicle, "radius": w.radius, "width": w.width}
                   for w in scene.wheels],
        "thrusters": [{"node": t.node, "kind": "thruster"} for t in scene.thrusters]
        + [{"node": t.node, "kind": "hoverThruster"} for t in scene.hover_thrusters],
        "gravity": [_gravity(doc, world, g) for g in scene.gravity_fields],
        # OMI_seat control points in the seat node's space (the spec): back, knee, foot.
        "seats": [{"node": t.node, "back": _vec(t.back), "knee": _vec(t.knee), "foot": _vec(t.foot)}
                  for t in scene.seats],
    }


def _body_kind(scene: PhysicsScene, body: int | None) -> str:
    """Overlay colour class: the motion type of the carrying body; no body (or a static one) is static."""
    b = scene.body(body) if body is not None else None
    if b is None or b.motion.type is MotionType.STATIC:
        return "static"
    return b.motion.type.value


def _collider(doc: Document, world: list[np.ndarray], node: int, shape: Shape | None, kind: str,
              body: int | None, pointer: str) -> dict[str, Any]:
    return {"node": node, "body": body, "kind": kind, "pointer": pointer,
            "shape": shape_json(doc, world, node, shape)}


def shape_json(doc: Document, world: list[np.ndarray], node: int, shape: Shape | None) -> dict[str, Any]:
    """One shape in its node's space; capsule height is between the hemisphere centres (D-8)."""
    if isinstance(shape, Box):
        return {"type": "box", "size": _vec(shape.size)}
    if isinstance(shape, Sphere):
        return {"type": "sphere", "radius": _num(shape.radius)}
    if isinstance(shape, Capsule | Cylinder):
        return {"type": "capsule" if isinstance(shape, Capsule) else "cylinder", "height": _num(shape.height),
                "radiusBottom": _num(shape.radius_bottom), "radiusTop": _num(shape.radius_top)}
    if isinstance(shape, Plane):
        # None sizes mean infinite (KHR plane); the viewer draws a finite patch.
        return {"type": "plane", "sizeX": _opt(shape.size_x), "sizeZ": _opt(shape.size_z),
                "doubleSided": shape.double_sided}
    if isinstance(shape, MeshShape):
        return {"type": "mesh", "convex": shape.convex, "parts": _mesh_parts(doc, world, shape)}
    return {"type": "none"}


def _mesh_parts(doc: Document, world: list[np.ndarray], shape: MeshShape) -> list[dict[str, Any]]:
    """The glTF meshes a mesh shape is made of, each with its matrix into the shape node's space.

    ``mesh`` source: that mesh in the node's own space. ``node`` source (KHR gen3, KRB-2): the geometry
    node's mesh and its descendants' meshes, in the geometry node's own space (its own transform does not
    apply: the official samples point at a "physicsMeshDataNode" outside the scene), as the runtime reads it.
    """
    meshes = doc.json.get("meshes") or []
    nodes = doc.json.get("nodes") or []

    def valid(m: Any) -> bool:
        return isinstance(m, int) and not isinstance(m, bool) and 0 <= m < len(meshes)

    if shape.mesh is not None:
        return [{"mesh": shape.mesh, "matrix": IDENTITY}] if valid(shape.mesh) else []
    if shape.node is None or not 0 <= shape.node < len(nodes):
        return []
    g = world[shape.node]
    to_geometry = np.linalg.inv(g) if abs(np.linalg.det(g)) > 1e-12 else np.eye(4)
    parts = []
    for n in [shape.node, *descendants(doc.json, shape.node)]:
        mesh = nodes[n].get("mesh") if isinstance(nodes[n], dict) else None
        if valid(mesh):
            matrix = IDENTITY if n == shape.node else _column_major(to_geometry @ world[n])
            parts.append({"mesh": mesh, "matrix": matrix})
    return parts


def _trigger_parts(scene: PhysicsScene) -> list[dict[str, Any]]:
    """Trigger node → the nodes of its drawn parts: a simple trigger is its own part, a compound trigger's
    parts are its listed triggers' parts (events name the compound node, docs/semantics.md Triggers)."""
    by_node = {t.node: t for t in scene.triggers}

    def parts(node: int, seen: frozenset[int]) -> list[int]:
        t = by_node.get(node)
        if t is None or node in seen:
            return []
        if t.nodes is None:
            return [node]
        return sorted({p for n in t.nodes for p in parts(n, seen | {node})})

    return [{"node": t.node, "parts": parts(t.node, frozenset())} for t in scene.triggers]


def _joint(j: Joint) -> dict[str, Any]:
    """Frame A in body A's (scale-free) frame, or world space when body A is None; likewise B (docs/semantics.md)."""
    return {
        "node": j.node,
        "pointer": j.pointer,
        "a": _frame(j.body_a, j.frame_a),
        "b": _frame(j.body_b, j.frame_b),
    }


def _frame(body: int | None, pose: Pose) -> dict[str, Any]:
    return {"body": body, "translation": _vec(pose.translation), "rotation": _vec(pose.rotation)}


def _gravity(doc: Document, world: list[np.ndarray], g: GravityField) -> dict[str, Any]:
    return {
        "node": g.node,
        "type": g.type.value,
        "gravity": _num(g.gravity),
        "priority": g.priority,
        "direction": _vec(g.direction),
        "radius": _num(g.radius),
        "points": [_vec(p) for p in g.points],
        "shape": shape_json(doc, world, g.node, g.shape) if g.shape is not None else None,
    }


def _marker_size(world: list[np.ndarray], scene: PhysicsScene | None = None) -> float:
    """Size of joint axes and arrows: a few percent of the spread of the moving bodies and joints (what the
    first view frames), else of every node, within sane bounds."""
    if not world:
        return 0.25
    near = sorted({b.node for b in scene.bodies if b.motion.type is not MotionType.STATIC}
                  | {j.node for j in scene.joints}) if scene is not None else []
    near = [n for n in near if 0 <= n < len(world)]
    origins = np.array([world[n][:3, 3] for n in near] if len(near) > 1 else [m[:3, 3] for m in world])
    finite = origins[np.all(np.isfinite(origins), axis=1)]
    spread = float(np.linalg.norm(finite.max(axis=0) - finite.min(axis=0))) if len(finite) else 0.0
    return 0.25 if spread == 0.0 else min(max(spread * 0.04, 0.05), 5.0)


def _column_major(m: np.ndarray) -> list[float | None]:
    return [_num(v) for v in np.asarray(m, dtype=float).T.reshape(16)]


def _vec(values: Any) -> list[float | None]:
    return [_num(v) for v in values]


def _num(v: float) -> float | None:
    """JSON has no infinity or NaN: those become null (the viewer treats null sizes as unbounded)."""
    f = float(v)
    return round(f, 7) if math.isfinite(f) else None


def _opt(v: float | None) -> float | None:
    return None if v is None else _num(v)
