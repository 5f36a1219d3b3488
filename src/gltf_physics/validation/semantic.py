"""Semantic checks on the physics model (docs/architecture.md, second pass).

They need the normalised scene: which body a collider belongs to, joint endpoints' bodies, vehicles above
wheels. Codes still depend on the family that declared an object; ``dialects.checks_base`` tells which
(nothing here spells an extension's JSON).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..dialects.common.checks import Emit, is_legacy_body, joint_family, node_family
from ..gltf.hierarchy import parents
from ..gltf.transforms import local_matrix
from ..model import Capsule, Cylinder, MeshShape, MotionType, PhysicsScene, Shape, Sphere
from .rules import Severity

_ROUND = (Sphere, Capsule, Cylinder)


def check(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    with np.errstate(all="ignore"):  # NaN transforms are reported structurally; comparisons just fail here
        for step in _STEPS:
            step(scene, gltf, emit)


def _ptr(obj: Any, node: int) -> str:
    return getattr(obj, "pointer", "") or f"/nodes/{node}"


def _body_shapes(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """BT-3: a body of the 'type' generations has at least one shape."""
    owners = {c.body for c in scene.colliders} | {t.body for t in scene.triggers}
    owners |= {c.node for c in scene.colliders} | {t.node for t in scene.triggers}
    for b in scene.bodies:
        if b.node not in owners and is_legacy_body(gltf, b.node):
            emit("BT-3", _ptr(b, b.node), f"body node {b.node} has no shape on itself or below; add a "
                                          "collider "
                 "child or remove the body")


def _scale(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """COL-8 / SHAPE-8 (OMI: unscaled shape nodes) and KRB-12 (KHR: zero, negative, non-uniform round)."""
    shaped = [(c, c.node, c.shape) for c in scene.colliders]
    shaped += [(t, t.node, t.shape) for t in scene.triggers if t.shape is not None]
    if not shaped or not _any_scaled(gltf):
        return  # no node has scale or matrix: every shape is unscaled
    linear = _ScaledLinear(gltf)
    for obj, node, shape in shaped:
        m = linear(node)
        if m is None:
            continue  # no scale on the node or its ancestors: nothing to report
        scale = np.linalg.norm(m, axis=0)
        family = node_family(gltf, node)
        if family == "khr":
            _khr_scale(obj, node, shape, scale, float(np.linalg.det(m)), emit)
        elif family in ("omi", "collider") and (np.abs(scale - 1.0).max() > 1e-4 or np.linalg.det(m) < 0):
            code = "COL-8" if family == "collider" else "SHAPE-8"
            emit(code, _ptr(obj, node), f"the shape on node {node} is scaled by {_fmt(scale)} (own or "
                                        "inherited "
                 "scale); put the size in the shape and keep shape nodes unscaled")


def _any_scaled(gltf: dict[str, Any]) -> bool:
    nodes = gltf.get("nodes")
    return isinstance(nodes, list) and any(
        isinstance(n, dict) and ("scale" in n or "matrix" in n) for n in nodes)


class _ScaledLinear:
    """The 3×3 world linear part of a node, or None when no node on its chain has scale/matrix.

    Linear time over the document: rotation-only ancestors change neither column norms nor the determinant,
    so the product only starts at the topmost node with ``scale`` or ``matrix`` (docs/performance.md: validate a
    50k-node file in about a second).
    """

    def __init__(self, gltf: dict[str, Any]) -> None:
        nodes = gltf.get("nodes")
        self.nodes: list[Any] = nodes if isinstance(nodes, list) else []
        self.parent_of = parents(gltf)
        self.memo: dict[int, np.ndarray | None] = {}

    def __call__(self, node: int) -> np.ndarray | None:
        if not 0 <= node < len(self.nodes):
            return None
        chain, n, seen = [], node, set()
        while n is not None and n not in self.memo and n not in seen:
            seen.add(n)
            chain.append(n)
            n = self.parent_of[n]
        above = self.memo.get(n) if n is not None else None
        for k in reversed(chain):
            above = self._local(k, above)
            self.memo[k] = above
        return self.memo[node]

    def _local(self, k: int, above: np.ndarray | None) -> np.ndarray | None:
        nd = self.nodes[k] if isinstance(self.nodes[k], dict) else {}
        scaled = "matrix" in nd or ("scale" in nd and nd["scale"] != [1, 1, 1])
        if above is None and not scaled:
            return None
        m = local_matrix(nd)[:3, :3]
        return m if above is None else above @ m


def _khr_scale(obj: Any, node: int, shape: Shape, scale: np.ndarray, det: float, emit: Emit) -> None:
    ptr = _ptr(obj, node)
    if scale.max() < 1e-12:
        emit("KRB-12", ptr, f"node {node} has zero scale, so this shape is disabled", Severity.INFO)
        return
    if det < 0:
        emit("KRB-12", ptr, f"node {node} has a negative scale; the shape uses |scale|", Severity.INFO)
    if isinstance(shape, _ROUND) and scale.max() / max(scale.min(), 1e-12) - 1.0 > 1e-4:
        emit("KRB-12", ptr, f"a {type(shape).__name__.lower()} on node {node} is scaled non-uniformly "
             f"({_fmt(scale)}); the result is undefined and gets approximated: scale the shape's own sizes")


def _fmt(v: np.ndarray) -> str:
    return "[" + ", ".join(f"{x:.4g}" for x in v) + "]"


def _trimesh(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """COL-9 / SHAPE-9: no trimesh on moving bodies or triggers (OMI only; KHR has no such rule)."""
    moving = {b.node for b in scene.bodies if b.motion.type != MotionType.STATIC}
    items = [(c, c.node, c.shape, c.body in moving, "a moving body") for c in scene.colliders]
    items += [(t, t.node, t.shape, True, "a trigger") for t in scene.triggers if t.shape is not None]
    for obj, node, shape, bad, what in items:
        if not (bad and isinstance(shape, MeshShape) and not shape.convex):
            continue
        family = node_family(gltf, node)
        if family in ("omi", "collider"):
            emit("COL-9" if family == "collider" else "SHAPE-9", _ptr(obj, node), f"trimesh shape on {what} "
                 f"(node {node}); use convex or primitive shapes there, trimeshes are for static geometry")


def _joints(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """JOINT-2/JOINT-3 (OMI physicsJoints) and KRB-5 (KHR: a motion on at least one side)."""
    for joint in scene.joints:
        family = joint_family(gltf, joint.node)
        ptr = _ptr(joint, joint.node)
        if family == "joint":
            body = scene.body(joint.body_a) if joint.body_a is not None else None
            if body is None or body.motion.type != MotionType.DYNAMIC:
                emit("JOINT-2", ptr, f"joint node {joint.node} is not under a dynamic motion (its body is "
                     f"{'none' if body is None else body.motion.type.value}); move the joint node under the "
                     "dynamic body and let connectedNode point into the other body")
            if joint.body_b is None:
                emit("JOINT-3", ptr, f"connectedNode {joint.connected_node} is not under a motion node; add "
                                     "a "
                     "motion to its body (static is fine)")
        elif family == "khr" and joint.body_a is None and joint.body_b is None:
            emit("KRB-5", ptr, f"neither joint node {joint.node} nor connectedNode {joint.connected_node} is "
                 "under a motion, so the joint has no effect", Severity.WARNING)


def _vehicles(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """VBODY-1, VBODY-3, WHEEL-1, THR-1, HOVER-1 (D-13: KHR motion nodes count as bodies)."""
    physics = {b.node for b in scene.bodies} | {c.node for c in scene.colliders}
    physics |= {t.node for t in scene.triggers}
    seats = {s.node for s in scene.seats}
    for v in scene.vehicles:
        if v.node not in physics:
            emit("VBODY-1", _ptr(v, v.node), f"vehicle node {v.node} has no physics body; add a dynamic "
                                             "motion "
                 "on the same node")
        if v.pilot_seat is not None and v.pilot_seat not in seats:
            emit("VBODY-3", _ptr(v, v.node), f"pilotSeat node {v.pilot_seat} has no OMI_seat; point it at a "
                                             "seat")
    for items, code, what in ((scene.wheels, "WHEEL-1", "wheel"), (scene.thrusters, "THR-1", "thruster"),
                              (scene.hover_thrusters, "HOVER-1", "hover thruster")):
        for part in items:
            if part.vehicle is None or part.vehicle == part.node:
                emit(code, _ptr(part, part.node), f"{what} node {part.node} is not a strict descendant of a "
                     "vehicle body; put it on its own child node of the vehicle")


def _gravity(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """GRAV-3: on a trigger node, no motion or collider there, not part of another compound trigger."""
    triggers = {t.node for t in scene.triggers}
    bodies = {b.node for b in scene.bodies}
    colliders = {c.node for c in scene.colliders}
    member_of = {n: t.node for t in scene.triggers if t.nodes for n in t.nodes if n != t.node}
    for g in scene.gravity_fields:
        ptr, n = _ptr(g, g.node), g.node
        if n not in triggers:
            emit("GRAV-3", ptr, f"gravity node {n} has no trigger; the trigger defines where the gravity "
                                "applies")
        if n in bodies or n in colliders:
            emit("GRAV-3", ptr, f"gravity node {n} also has a motion or collider; keep the volume on its own "
                 "trigger node")
        if n in member_of:
            emit("GRAV-3", ptr, f"gravity node {n} is part of compound trigger {member_of[n]}; give the "
                                "gravity "
                 "its own trigger")


def _seats(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """SEAT-2: back, knee and foot are not (nearly) collinear."""
    for s in scene.seats:
        a = np.subtract(s.knee, s.back)
        b = np.subtract(s.foot, s.knee)
        size = float(np.linalg.norm(a) * np.linalg.norm(b))
        if size == 0 or float(np.linalg.norm(np.cross(a, b))) <= 1e-3 * size:
            emit("SEAT-2", _ptr(s, s.node), f"seat on node {s.node}: back, knee and foot are (nearly) "
                                            "collinear, "
                 "so the seat's right axis is undefined; bend the legs at the knee")


_STEPS: tuple[Callable[[PhysicsScene, dict[str, Any], Emit], None], ...] = (
    _body_shapes, _scale, _trimesh, _joints, _vehicles, _gravity, _seats,
)

__all__ = ["check"]
