"""Writes a PhysicsScene as the newest KHR form: KHR_physics_rigid_bodies + KHR_implicit_shapes (2026).

Mesh geometry is written as ``geometry: {mesh, convexHull}`` (the spec, docs/semantics.md). A gen3
``geometry.node`` becomes ``geometry.mesh`` when that node has exactly one mesh, no meshed descendants and
no skin/morph weights of its own; otherwise it stays a ``node`` geometry and a Loss says why.
Implicit shapes and joint settings are deduplicated. Joints read with their own nodes reuse them; joints
without (the OMI seed form) get a joint node under body A and an attachment node under body B.

Conservative output (what the reference clients load, same meaning): the document-level
``KHR_physics_rigid_bodies`` object is always written (``{}`` when empty) and, when any collider or trigger is
written, ``KHR_implicit_shapes`` too — with one unused placeholder sphere when no implicit shape is used,
since its schema wants at least one shape (KIS-1) and the Babylon loader reads the object unconditionally.
Every material carries all three values and both combine modes (``combine_modes``: chosen so every pair of
materials keeps its outcome, D-12; a pair no mode can keep is a listed loss). Joints whose side A has no
moving body are written from side B where that is exact, and full linear locks per axis
(``portable_joints``).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from ...gltf.hierarchy import ancestors, descendants
from ...gltf.transforms import decompose
from ...model import (
    IDENTITY_QUAT,
    Body,
    Collider,
    CollisionFilter,
    Joint,
    JointLimit,
    MeshShape,
    Motion,
    MotionType,
    PhysicsMaterial,
    Pose,
    Shape,
    Trigger,
)
from ..common import portable_joints
from ..common.combine_modes import explicit_modes, loss_message
from ..common.context import WriteContext, frame_node, writable
from ..common.joint_settings import settings_json, split_limits
from .joints import KHR
from .shapes import BODIES_EXT, IMPLICIT_SHAPES, shape_json

_EPS = 1e-9
# KHR_implicit_shapes wants at least one shape (KIS-1): written, unused, when a file has only mesh geometry.
PLACEHOLDER_SHAPE: dict[str, Any] = {"type": "sphere", "sphere": {"radius": 0.5}}


def write_khr(ctx: WriteContext) -> None:
    _Writer(ctx).run()


class _Writer:
    def __init__(self, ctx: WriteContext) -> None:
        self.ctx = ctx
        self.gltf = ctx.gltf
        self.scene = ctx.scene
        self.parent_of = ctx.parents()
        self.n_file = len(self.parent_of)  # the file's own nodes (parents() walks the same list)
        self._world: list[np.ndarray] | None = None  # of the file's own nodes, for new joint nodes only
        self.parts: dict[int, dict[str, Any]] = {}
        self.shapes: list[dict[str, Any]] = []
        self.shape_index: dict[Shape, int] = {}
        self.joint_settings: list[dict[str, Any]] = []
        self.joint_index: dict[tuple[Any, Any], int] = {}
        self.geometries = 0  # colliders and triggers written with a geometry
        self.moving = portable_joints.moving_bodies(ctx.scene)
        self._statics: tuple[set[int], set[int | None]] | None = None
        self._partners: tuple[set[int], set[int], dict[int | None, set[int]]] | None = None
        self._split: dict[int, tuple[tuple[JointLimit, ...], bool]] = {}  # id → (limits, split_limits keeps them)
        self._settings_by_id: dict[tuple[int, int], tuple[Any, Any, int]] = {}  # see _settings

    @property
    def world(self) -> list[np.ndarray]:
        """World matrices of the file's own nodes (new nodes are only ever leaves): computed on first use, only
        joints without their own nodes (the OMI seed form) need them."""
        if self._world is None:
            self._world = self.ctx.world_matrices()
        return self._world

    def run(self) -> None:
        s = self.scene
        if not (s.bodies or s.colliders or s.triggers or s.joints or s.materials or s.filters):
            return
        motion_nodes = {b.node for b in s.bodies if b.motion.type is not MotionType.STATIC}
        for body in s.bodies:
            self._body(body, motion_nodes)
        for collider in s.colliders:
            self._collider(collider)
        for trigger in s.triggers:
            self._trigger(trigger)
        for joint in s.joints:
            self._joint(joint)
        self._document()
        self.ctx.set_node_exts(BODIES_EXT, [(node, self.parts[node]) for node in sorted(self.parts)])

    # -- document level

    def _document(self) -> None:
        doc: dict[str, Any] = {}
        if self.scene.materials:
            doc["physicsMaterials"] = [_material_json(m) for m in self._materials()]
        if self.scene.filters:
            doc["collisionFilters"] = [_filter_json(f) for f in self.scene.filters]
        if self.joint_settings:
            doc["physicsJoints"] = self.joint_settings
        self.ctx.set_doc_ext(BODIES_EXT, doc)  # always, even {}: readers look it up unconditionally
        if self.shapes or self.geometries:
            self.ctx.set_doc_ext(IMPLICIT_SHAPES, {"shapes": self.shapes or [PLACEHOLDER_SHAPE]})

    def _materials(self) -> list[PhysicsMaterial]:
        """The scene's materials with both modes explicit; pairs no mode keeps are listed (D-12)."""
        materials, broken = explicit_modes(self.scene)
        for b in broken:
            self.ctx.loss("D-12", self.scene.materials[b.material].pointer, loss_message(b))
        return materials

    # -- node parts

    def _part(self, node: int, key: str, value: dict[str, Any]) -> int:
        """Put ``value`` under ``key`` on ``node``; a second one of a kind goes on an identity child node."""
        part = self.parts.setdefault(node, {})
        if key in part:
            node = self.ctx.add_node({"name": f"{key}{node}"}, node)
            part = self.parts.setdefault(node, {})
        part[key] = value
        return node

    def _body(self, body: Body, motion_nodes: set[int]) -> None:
        if body.motion.type is MotionType.STATIC:
            # KHR has no static motion: a motionless node is static unless a moving ancestor adopts it
            #.
            if any(a in motion_nodes for a in ancestors(self.parent_of, body.node)):
                self.ctx.loss("BODY-10", body.pointer, "static motion under a moving body has no KHR form; "
                              "its colliders become part of the ancestor body")
            return
        self._part(body.node, "motion", _motion_json(body.motion))

    def _collider(self, c: Collider) -> None:
        self.geometries += 1
        part: dict[str, Any] = {"geometry": self._geometry(c.shape, c.node, c.pointer)}
        if c.material is not None:
            part["physicsMaterial"] = c.material
        if c.filter is not None:
            part["collisionFilter"] = c.filter
        self._part(c.node, "collider", part)

    def _trigger(self, t: Trigger) -> None:
        if t.nodes is not None:
            if not t.nodes:
                self.ctx.loss("KRB-4", t.pointer, "compound trigger without member nodes dropped")
                return
            if t.filter is not None:
                self.ctx.loss("KRB-4", t.pointer, "a 'nodes' trigger cannot carry a collision filter")
            self._part(t.node, "trigger", {"nodes": list(t.nodes)})
            return
        if t.shape is None:
            return
        self.geometries += 1
        part: dict[str, Any] = {"geometry": self._geometry(t.shape, t.node, t.pointer)}
        if t.filter is not None:
            part["collisionFilter"] = t.filter
        self._part(t.node, "trigger", part)

    # -- geometry

    def _geometry(self, shape: Shape, owner: int, pointer: str) -> dict[str, Any]:
        if not isinstance(shape, MeshShape):
            if shape not in self.shape_index:  # equal shapes share one entry (pointers do not compare)
                self.shape_index[shape] = len(self.shapes)
                self.shapes.append(shape_json(shape))
            return {"shape": self.shape_index[shape]}
        pointer = shape.pointer or pointer  # the geometry (or gen2 shape) the mesh came from
        if shape.node is not None:
            return self._node_geometry(shape, pointer)
        if shape.skin is None and shape.weights is None and not shape.use_node_weights:
            return _mesh_geometry("mesh", shape.mesh, shape.convex)
        return self._deformed_mesh(shape, owner, pointer)

    def _node_geometry(self, shape: MeshShape, pointer: str) -> dict[str, Any]:
        nodes = self.gltf.get("nodes") or []
        node = nodes[shape.node] if 0 <= shape.node < len(nodes) else {}  # type: ignore[operator]
        meshed_below = any("mesh" in nodes[d] for d in descendants(self.gltf, shape.node))  # type: ignore[arg-type]
        if "mesh" in node and not meshed_below and "skin" not in node and "weights" not in node:
            return _mesh_geometry("mesh", node["mesh"], shape.convex)
        self.ctx.loss("KRB-2", pointer, f"geometry node {shape.node} has child meshes or skin/morph weights; "
                      "kept as the earlier 'geometry.node' form")
        return _mesh_geometry("node", shape.node, shape.convex)

    def _deformed_mesh(self, shape: MeshShape, owner: int, pointer: str) -> dict[str, Any]:
        """gen2 skin/weights have no place in ``geometry.mesh``: they move to a helper node."""
        helper: dict[str, Any] = {"mesh": shape.mesh}
        if shape.skin is not None:
            helper["skin"] = shape.skin
        weights = shape.weights
        if shape.use_node_weights:
            weights = (self.gltf["nodes"][owner].get("weights")) or None
        if weights:
            helper["weights"] = list(weights)
        node = self.ctx.add_node(helper, None)
        self.ctx.loss("KRB-2", pointer, f"mesh shape with skin/morph weights written as geometry.node {node}")
        return _mesh_geometry("node", node, shape.convex)

    # -- joints

    def _joint(self, source: Joint) -> None:
        self._static_side(source)
        split = self._split_limits(source)  # D-4
        j = self._oriented(split)
        part: dict[str, Any] = {"connectedNode": -1, "joint": self._settings(j.limits, j.drives)}
        if j.enable_collision:
            part["enableCollision"] = True
        n_file = self.n_file
        if j.connected_node is not None and 0 <= j.node < n_file and 0 <= j.connected_node < n_file:
            part["connectedNode"] = j.connected_node
            node = self._part(j.node, "joint", part)
        else:  # the OMI seed form: one joint node for two bodies (docs/interop.md)
            joint_node = self._attach(j.body_a, j.frame_a, "Joint")
            part["connectedNode"] = self._attach(j.body_b, j.frame_b, "JointAttachment")
            node = self._part(joint_node, "joint", part)
        self.ctx.wrote_joint(source, j, part["joint"], node, j is not split)

    def _settings(self, limits: tuple[JointLimit, ...], drives: tuple[Any, ...]) -> int:
        """The index of the joint settings for these limits and drives, appended when new. Memoised by the
        tuples' identity too (the readers share one pair per file settings entry): hashing every limit's
        fields per joint was much of writing 20,000 joints."""
        known = self._settings_by_id.get((id(limits), id(drives)))
        if known is not None and known[0] is limits and known[1] is drives:
            return known[2]
        locks = portable_joints.per_axis_locks(limits)
        key = (locks, drives)
        if key not in self.joint_index:
            self.joint_index[key] = len(self.joint_settings)
            self.joint_settings.append(settings_json(locks, drives, KHR))
        self._settings_by_id[(id(limits), id(drives))] = (limits, drives, self.joint_index[key])
        return self.joint_index[key]

    def _split_limits(self, j: Joint) -> Joint:
        """``j`` with :func:`split_limits` applied; ``j`` itself when nothing splits (most joints: no copy)."""
        known = self._split.get(id(j.limits))  # by identity (kept alive in the entry): no hashing per joint
        if known is None or known[0] is not j.limits:
            split = split_limits(j.limits)
            same = len(split) == len(j.limits) and all(a is b for a, b in zip(split, j.limits, strict=True))
            known = self._split[id(j.limits)] = (j.limits, same)
        if known[1]:
            return j
        return dataclasses.replace(j, limits=split_limits(j.limits))

    def _oriented(self, j: Joint) -> Joint:
        """Side A without a moving body and side B with one: written from side B when that is the same
        constraint (``portable_joints``); otherwise as it is — the meaning comes first, and the validator's
        HINT-JOINT-SIDE tells the user the Babylon loader cannot build it."""
        if portable_joints.needs_swap(self.moving, j) and portable_joints.swap_is_exact(j):
            return portable_joints.swapped(j)
        return j

    def _static_side(self, j: Joint) -> None:
        """A static motion becomes no motion, so a joint to it becomes a joint to the world. The
        runtime still keeps the jointed pair apart (JOINT-9) through the side's static partner: the no-motion
        colliders under the nearest ancestor-or-self of the side's node that has any. Listed when that group
        is not exactly the static body's colliders (and enableCollision is false, so it matters)."""
        if j.enable_collision:
            return
        static, shaped = self._static_sets()
        n_file = self.n_file
        own_nodes = j.connected_node is not None and 0 <= j.node < n_file and 0 <= j.connected_node < n_file
        for body, node in ((j.body_a, j.node), (j.body_b, j.connected_node)):
            if body not in static or body not in shaped:
                continue
            side = node if own_nodes else body  # else a new leaf under the body: the same walk
            if not self._partner_kept(body, side, static):  # type: ignore[arg-type]
                self.ctx.loss("JOINT-9", j.pointer, f"joint to static body {body}: written as a joint to the "
                              "world, and the no-motion colliders paired with that side are not exactly the "
                              "body's, so the jointed-pair collision exclusion changes")

    def _static_sets(self) -> tuple[set[int], set[int | None]]:
        """(static body nodes, body nodes that carry a collider), built once per write, not once per joint."""
        if self._statics is None:
            static = {b.node for b in self.scene.bodies if b.motion.type is MotionType.STATIC}
            self._statics = static, {c.body for c in self.scene.colliders}
        return self._statics

    def _partner_kept(self, body: int, side: int, static: set[int]) -> bool:
        """Whether the static partner of a joint side at ``side`` in the KHR output is ``body``'s colliders."""
        if self._partners is None:  # the no-motion collider nodes and every node above one: once per write
            no_motion = {c.node for c in self.scene.colliders if c.body is None or c.body in static}
            covered, walked = set(no_motion), set()
            for c in no_motion:
                for a in ancestors(self.parent_of, c):
                    if a in walked:
                        break  # this chain was walked from here up already
                    walked.add(a)
                    covered.add(a)
            own: dict[int | None, set[int]] = {}
            for c in self.scene.colliders:
                own.setdefault(c.body, set()).add(c.node)
            self._partners = no_motion, covered, own
        no_motion, covered, own = self._partners
        group = next((a for a in (side, *ancestors(self.parent_of, side)) if a in covered), None)
        if group is None:
            return False
        subtree = {group, *descendants(self.gltf, group)}
        return no_motion & subtree == own.get(body, set())

    def _attach(self, body: int | None, pose: Pose, name: str) -> int:
        """A new node whose world pose is ``pose`` in ``body``'s rigid frame: local = world(B)⁻¹·frame."""
        local, _ = frame_node(self.world[body] if body is not None else None, pose)
        t, q, s = decompose(local)
        node: dict[str, Any] = {"name": name, "translation": list(t), "rotation": list(q)}
        if any(abs(c - 1.0) > _EPS for c in s):
            node["scale"] = list(s)
        index = self.ctx.add_node(node, body)
        if body is None:
            self._add_to_scene(index)
        return index

    def _add_to_scene(self, node: int) -> None:
        scenes = self.gltf.get("scenes")
        scenes = scenes if isinstance(scenes, list) else []
        default = self.gltf.get("scene", 0)
        if isinstance(default, int) and 0 <= default < len(scenes) and isinstance(scenes[default], dict):
            writable(scenes[default], "nodes", list).append(node)


def _mesh_geometry(key: str, index: Any, convex: bool) -> dict[str, Any]:
    """``convexHull`` defaults to false (KRB-3): written only when true."""
    return {key: index, "convexHull": True} if convex else {key: index}


def _motion_json(m: Motion) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if m.type is MotionType.KINEMATIC:
        out["isKinematic"] = True
    if m.mass is not None:
        out["mass"] = 0.0 if math.isinf(m.mass) else m.mass  # KRB-11: 0 = infinite; None = computed
    if m.center_of_mass is not None:
        out["centerOfMass"] = list(m.center_of_mass)
    if m.inertia_diagonal is not None:
        out["inertiaDiagonal"] = [0.0 if math.isinf(c) else c for c in m.inertia_diagonal]
    if tuple(m.inertia_orientation) != IDENTITY_QUAT:
        out["inertiaOrientation"] = list(m.inertia_orientation)
    if any(m.linear_velocity):
        out["linearVelocity"] = list(m.linear_velocity)
    if any(m.angular_velocity):
        out["angularVelocity"] = list(m.angular_velocity)
    if m.gravity_factor != 1.0:
        out["gravityFactor"] = m.gravity_factor
    return out


def _material_json(m: PhysicsMaterial) -> dict[str, Any]:
    """Every value explicit: readers' defaults differ (the Babylon loader's friction default is 0.5, not the
    schema's 0.6; its absent modes are maximum / minimum, not D-12's)."""
    out: dict[str, Any] = {"staticFriction": m.static_friction, "dynamicFriction": m.dynamic_friction,
                           "restitution": m.restitution}
    if m.friction_combine is not None:  # set by combine_modes.explicit_modes on every material
        out["frictionCombine"] = m.friction_combine.value
    if m.restitution_combine is not None:
        out["restitutionCombine"] = m.restitution_combine.value
    return out


def _filter_json(f: CollisionFilter) -> dict[str, Any]:
    out: dict[str, Any] = {}
    lists = (("collisionSystems", f.collision_systems), ("collideWithSystems", f.collide_with_systems),
             ("notCollideWithSystems", f.not_collide_with_systems))
    for key, value in lists:
        if value:
            out[key] = list(value)
    return out
