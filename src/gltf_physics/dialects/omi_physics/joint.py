"""OMI_physics_joint (the spec): read gen1 (seed ``constraints``) and gen2 (``physicsJoints``), write gen2.

Frames (docs/semantics.md): gen2 frame A = the joint node relative to its nearest motion node
(itself or an ancestor), frame B = ``connectedNode`` relative to its nearest motion node; the body is ``None``
(frame in world space) when there is none. gen1 has one joint node whose world pose, expressed relative to
``nodeA`` and to ``nodeB``, gives both frames.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ...gltf.transforms import decompose, quat_multiply, quat_to_matrix, trs_matrix
from ...model import Joint, JointLimit, MotionType, Pose
from ..common import portable_joints
from ..common.context import (
    ExtIndex,
    PendingJoint,
    ReadContext,
    WriteContext,
    array,
    frame_node,
    num,
    writable,
    writable_node,
)
from ..common.joint_settings import Family, JointSettings, axes, read_settings, settings_json, split_limits
from ..common.pose_bulk import clear_matches
from ..registry import OMI_PHYSICS_BODY, OMI_PHYSICS_JOINT

JOINT_EXT = OMI_PHYSICS_JOINT
BODY_EXT = OMI_PHYSICS_BODY
GEN1 = "gen1-constraints"
GEN2 = "gen2-physicsJoints"

# JOINT-7 on a negative stiffness/maxForce (D-15), JOINT-8 on a bad drive; no KRB-9 pairing on writing.
OMI = Family(negative_rule="JOINT-7", drive_rule="JOINT-8", axes_rule="JOINT-5", note_non_object_drive=True,
             paired_targets=False)

Owner = Callable[[int], "int | None"]  # node → its nearest motion node (itself or an ancestor)


def detect(gltf: dict[str, Any], index: ExtIndex | None = None) -> str | None:
    index = index or ExtIndex(gltf)
    doc = index.doc(JOINT_EXT)
    node_exts = [e for _, e in index.nodes_with(JOINT_EXT)]
    if doc is None and not node_exts:
        return None
    if (doc and "constraints" in doc) or any("constraints" in e or "nodeA" in e for e in node_exts):
        return GEN1
    return GEN2  # physicsJoints / joint+connectedNode, or nothing telling: the newest


# ---------------------------------------------------------------- reading


def read(ctx: ReadContext, generation: str, owner: Owner) -> None:
    doc = ctx.index.doc(JOINT_EXT) or {}
    base = f"/extensions/{JOINT_EXT}"
    make: Callable[[int, dict[str, Any], str], PendingJoint | None]
    if generation == GEN1:
        limits = [
            _constraint(ctx, c, f"{base}/constraints/{i}") for i, c in enumerate(array(doc, "constraints"))
        ]
        make = lambda node, ext, ptr: _seed_joint(ctx, node, ext, ptr, limits, owner)  # noqa: E731
    else:
        settings = read_settings(ctx, doc.get("physicsJoints"), f"{base}/physicsJoints", OMI)
        make = lambda node, ext, ptr: _joint(ctx, node, ext, ptr, settings, owner)  # noqa: E731
    pending = []
    for i, ext in ctx.index.nodes_with(JOINT_EXT):
        if (joint := make(i, ext, f"/nodes/{i}/extensions/{JOINT_EXT}")) is not None:
            pending.append(joint)
    ctx.add_joints(pending)  # every frame in one pass (docs/semantics.md: relative to the nearest motion node)


def _node_index(ctx: ReadContext, obj: dict[str, Any], key: str, pointer: str) -> int | None:
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < len(ctx.nodes):
        ctx.note(
            "JOINT-1" if key in ("joint", "connectedNode") else "JOINT1-6",
            f"{pointer}/{key}",
            f"'{key}' is missing or not a node index; joint ignored",
        )
        return None
    return v


# gen1 --------------------------------------------------------------------


def _constraint(ctx: ReadContext, obj: Any, pointer: str) -> JointLimit | None:
    """Seed defaults: limits 0/0, stiffness +∞ (schema spells it "Infinity"), damping 1.0 (the spec)."""
    if not isinstance(obj, dict):
        ctx.note("JOINT1-1", pointer, "constraint is not an object; ignored")
        return None
    return JointLimit(
        linear_axes=axes(obj, "linearAxes", ctx, pointer, "JOINT1-3"),
        angular_axes=axes(obj, "angularAxes", ctx, pointer, "JOINT1-3"),
        min=num(obj, "lowerLimit", 0.0),
        max=num(obj, "upperLimit", 0.0),
        stiffness=num(obj, "stiffness", math.inf),
        damping=num(obj, "damping", 1.0),
        pointer=pointer,
    )


def _seed_joint(
    ctx: ReadContext,
    node: int,
    ext: dict[str, Any],
    pointer: str,
    constraints: list[JointLimit | None],
    owner: Owner,
) -> PendingJoint | None:
    node_a = _node_index(ctx, ext, "nodeA", pointer)
    node_b = _node_index(ctx, ext, "nodeB", pointer)
    if node_a is None or node_b is None:
        return None
    chosen: list[JointLimit] = []
    for k, c in enumerate(array(ext, "constraints")):
        if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(constraints) and constraints[c]:
            chosen.append(constraints[c])  # type: ignore[arg-type]
        else:
            ctx.note("GEN-2", f"{pointer}/constraints/{k}", f"constraint index {c!r} is invalid; ignored")
    body_a, body_b = owner(node_a), owner(node_b)
    for key, n, b in (("nodeA", node_a, body_a), ("nodeB", node_b, body_b)):
        if b != n:
            ctx.note(
                "JOINT1-7",
                f"{pointer}/{key}",
                f"node {n} carries no motion; frame taken relative to "
                f"{'node ' + str(b) if b is not None else 'the world'}",
            )
    fields = {"body_a": body_a, "body_b": body_b, "limits": later_wins(chosen), "node": node,
              "connected_node": None, "pointer": pointer}
    return fields, (body_a, node), (body_b, node)  # one joint node: both frames are its pose


def later_wins(limits: list[JointLimit]) -> tuple[JointLimit, ...]:
    """JOINT1-10: where constraints overlap, the later one wins per axis (earlier limits lose that axis)."""
    out: list[JointLimit] = []
    for i, lim in enumerate(limits):
        later_lin = {a for x in limits[i + 1 :] for a in x.linear_axes}
        later_ang = {a for x in limits[i + 1 :] for a in x.angular_axes}
        lin = tuple(a for a in lim.linear_axes if a not in later_lin)
        ang = tuple(a for a in lim.angular_axes if a not in later_ang)
        if lin or ang or not (lim.linear_axes or lim.angular_axes):
            out.append(
                JointLimit(
                    linear_axes=lin,
                    angular_axes=ang,
                    min=lim.min,
                    max=lim.max,
                    stiffness=lim.stiffness,
                    damping=lim.damping,
                    pointer=lim.pointer,
                )
            )
    return tuple(out)


# gen2 --------------------------------------------------------------------

def _joint(
    ctx: ReadContext, node: int, ext: dict[str, Any], pointer: str, settings: list[JointSettings], owner: Owner
) -> PendingJoint | None:
    index = ext.get("joint")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(settings):
        ctx.note(
            "JOINT-1", f"{pointer}/joint", f"'joint' {index!r} is not a physicsJoints index; joint ignored"
        )
        return None
    connected = _node_index(ctx, ext, "connectedNode", pointer)
    if connected is None:
        return None
    limits, drives = settings[index]
    body_a, body_b = owner(node), owner(connected)
    fields = {"body_a": body_a, "body_b": body_b, "limits": limits, "drives": drives,
              "enable_collision": ext.get("enableCollision") is True, "node": node, "connected_node": connected,
              "settings_index": index, "pointer": pointer}
    return fields, (body_a, node), (body_b, connected)


# ---------------------------------------------------------------- writing (gen2)


class _Placer:
    """Puts joint and attachment nodes into the output, reusing the file's nodes where their pose matches."""

    def __init__(self, ctx: WriteContext, world: list[np.ndarray] | None = None,
                 parent_of: list[int | None] | None = None) -> None:
        """``world``, ``parent_of``: the output's world matrices and ``parents()`` when the caller has them (the
        body writer, when it added no node since), else computed here."""
        self.ctx = ctx
        self.motion_nodes = {b.node for b in ctx.scene.bodies}
        # the checked hierarchy (bad or unhashable child entries skipped, first parent wins, no self-parent)
        parent_of = parent_of if parent_of is not None else ctx.parents()
        self.parents: dict[int, int] = {c: p for c, p in enumerate(parent_of) if p is not None}
        self.world = world if world is not None else ctx.world_matrices()
        self.taken: set[int] = set()
        self._poses: dict[int, tuple[tuple[float, ...], tuple[float, ...], list[list[float]]]] = {}
        # every (body, node, frame) the joints can ask about, decided in a few NumPy calls where the outcome is
        # beyond rounding (the rest is tested one by one): each side's own triple, which a swap (portable_joints.
        # swapped) keeps, and for a seed-form joint swapped, side B's frame at the one joint node
        queries = [q for j in ctx.scene.joints for q in _queries(j)]
        # by id(frame): the scene's joints keep them alive. The reader's stack when the output still has the read
        # nodes (``world`` then holds the same matrices)
        self.verdicts = clear_matches(self.world, queries, ctx.world_stack())

    def owner(self, node: int) -> int | None:
        if node in self.motion_nodes:  # the usual joint node: a body's own (no walk, no set)
            return node
        seen: set[int] = set()
        n: int | None = node
        while n is not None and n not in seen:
            if n in self.motion_nodes:
                return n
            seen.add(n)
            n = self.parents.get(n)
        return None

    def matches(self, node: int | None, body: int | None, frame: Pose) -> bool:
        if node is None or not 0 <= node < len(self.world) or self.owner(node) != body:
            return False
        verdict = self.verdicts.get((body, node, id(frame)))
        if verdict is not None:
            return verdict
        t, q = self._relative(body, node)
        dot = abs(sum(a * b for a, b in zip(q, frame.rotation, strict=True)))
        return all(_close(a, b) for a, b in zip(t, frame.translation, strict=True)) and dot > 1.0 - 1e-9

    def _pose(self, node: int) -> tuple[tuple[float, ...], tuple[float, ...], list[list[float]]]:
        """(translation, rotation, rotation matrix rows) of a node's world matrix, decomposed once per node:
        a body is the reference of every joint on it."""
        pose = self._poses.get(node)
        if pose is None:
            t, q, _ = decompose(self.world[node])
            pose = self._poses[node] = (t, q, quat_to_matrix(q).tolist())
        return pose

    def _relative(self, body: int | None, node: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """``relative_pose(world[body], world[node])`` in plain floats from the memoised decompositions."""
        ct, cq, _ = self._pose(node)
        if body is None:
            return ct, cq
        pt, pq, rows = self._pose(body)
        d = (ct[0] - pt[0], ct[1] - pt[1], ct[2] - pt[2])
        t = tuple(rows[0][i] * d[0] + rows[1][i] * d[1] + rows[2][i] * d[2] for i in range(3))  # Rᵀ·d
        q = quat_multiply((-pq[0], -pq[1], -pq[2], pq[3]), cq)
        n = math.sqrt(sum(c * c for c in q)) or 1.0
        s = -1.0 / n if q[3] < 0 else 1.0 / n  # the canonical sign, w ≥ 0
        return t, (q[0] * s, q[1] * s, q[2] * s, q[3] * s)

    def place(self, node: int | None, body: int | None, frame: Pose, name: str, for_joint: bool) -> int:
        if self.matches(node, body, frame) and not (for_joint and node in self.taken):
            return node  # type: ignore[return-value]
        return self.add(body, frame, name)

    def add(self, body: int | None, frame: Pose, name: str) -> int:
        """A node posed at ``frame`` relative to ``body`` (world when None): local = world(B)⁻¹·world(J)."""
        local, joint_world = frame_node(self.world[body] if body is not None else None, frame)
        node = _local_json(local, name)
        i = self.ctx.add_node(node, body)
        if body is None:  # a world-space frame: a root node of the default scene
            add_root(self.ctx.gltf, i)
        self.world.append(joint_world)
        self.parents[i] = body  # type: ignore[assignment]
        return i


def _queries(j: Joint) -> list[tuple[int | None, int, Pose]]:
    """The (body, node, frame) pose tests ``write`` may make for ``j``, as written or swapped."""
    out = [(j.body_a, j.node, j.frame_a), (j.body_b, j.node if j.connected_node is None else j.connected_node,
                                           j.frame_b)]
    return [q for q in out if q[1] is not None]


def _close(a: float, b: float) -> bool:
    """``np.isclose(a, b, atol=1e-6)`` on two floats (NaN never close, equal infinities close)."""
    return (math.isfinite(b) and abs(a - b) <= 1e-6 + 1e-5 * abs(b)) or a == b


def _local_json(local: np.ndarray, name: str) -> dict[str, Any]:
    t, q, s = decompose(local)
    node: dict[str, Any] = {"name": name}
    if not np.allclose(trs_matrix(t, q, s), local, atol=1e-9):
        node["matrix"] = [float(v) for v in local.T.reshape(16)]  # sheared by a non-uniform parent scale
        return node
    if any(abs(v) > 0 for v in t):
        node["translation"] = list(t)
    if any(abs(v) > 0 for v in q[:3]):
        node["rotation"] = list(q)
    if any(abs(v - 1.0) > 1e-12 for v in s):
        node["scale"] = list(s)
    return node


def write(ctx: WriteContext, world: list[np.ndarray] | None = None,
          parent_of: list[int | None] | None = None) -> None:
    """The scene's joints as OMI_physics_joint gen2. ``world``, ``parent_of``: the output's world matrices and
    parents, if known."""
    if not ctx.scene.joints:
        return
    placer = _Placer(ctx, world, parent_of)
    settings: list[dict[str, Any]] = []
    known: dict[tuple[Any, Any], int] = {}  # (limits, drives) → settings index: equal values, equal JSON
    by_id: dict[tuple[int, int], tuple[Any, Any, int]] = {}  # the same by the tuples' identity
    types: dict[int, MotionType] = {}  # node → its first body's motion type (scene.body's), looked up per joint
    for b in ctx.scene.bodies:
        types.setdefault(b.node, b.motion.type)
    exts: list[tuple[int, dict[str, Any]]] = []  # (joint node, its extension), set together (set_node_exts)
    for source in ctx.scene.joints:
        j = _oriented(ctx, source, types)
        if j is None:
            continue
        same = by_id.get((id(j.limits), id(j.drives)))  # the readers share one pair per file entry: no hashing
        if same is not None and same[0] is j.limits and same[1] is j.drives:
            index = same[2]
        else:
            index = known.get((j.limits, j.drives))
            if index is None:  # a new pair of settings: its JSON, appended unless an equal one is there already
                data = settings_json(split_limits(j.limits), j.drives, OMI)
                if data not in settings:
                    settings.append(data)
                index = known[(j.limits, j.drives)] = settings.index(data)
            by_id[(id(j.limits), id(j.drives))] = (j.limits, j.drives, index)  # keeps the pair alive
        name = _name(ctx, j.node) or "Joint"
        joint_node = placer.place(j.node if j.node >= 0 else None, j.body_a, j.frame_a, name, for_joint=True)
        connected = placer.place(j.connected_node, j.body_b, j.frame_b, f"{name}Attachment", for_joint=False)
        if j.body_b is None:
            # the extensions set so far go first: an earlier joint node may be this anchor, and its keys (and
            # extensionsUsed) keep the order of one joint at a time
            ctx.set_node_exts(JOINT_EXT, exts)
            exts = []
            _anchor_static(ctx, placer, connected, j.pointer)
        placer.taken.add(joint_node)
        ext: dict[str, Any] = {"joint": index, "connectedNode": connected}
        if j.enable_collision:
            ext["enableCollision"] = True
        exts.append((joint_node, ext))
        ctx.wrote_joint(source, j, index, joint_node, j is not source)
    ctx.set_node_exts(JOINT_EXT, exts)
    if settings:
        ctx.set_doc_ext(JOINT_EXT, {"physicsJoints": settings})


def _anchor_static(ctx: WriteContext, placer: _Placer, node: int, pointer: str) -> None:
    """JOINT-3: OMI's connectedNode must lie under a motion. A world-anchored side (KHR joints to static
    colliders, which have no motion) gets a static motion on the connected node: the same immovable anchor."""
    ext = writable(writable(writable_node(ctx.gltf, node), "extensions", dict), BODY_EXT, dict)
    ctx.use(BODY_EXT)
    if "motion" not in ext:
        ext["motion"] = {"type": "static"}
        placer.motion_nodes.add(node)
        ctx.loss("JOINT-3", pointer, f"connected side has no body; a static motion was added on node {node}")


def _name(ctx: WriteContext, node: int) -> str | None:
    nodes = ctx.gltf.get("nodes") or []
    n = nodes[node] if 0 <= node < len(nodes) else None
    return n.get("name") if isinstance(n, dict) and isinstance(n.get("name"), str) else None


def _oriented(ctx: WriteContext, j: Joint, types: dict[int, MotionType]) -> Joint | None:
    """The joint node must lie under a dynamic body (JOINT-2): swap when only B is dynamic (docs/interop.md, D-14).
    ``types``: node → motion type of the body on it (the first listed, as ``scene.body`` finds it)."""
    a_type, b_type = types.get(j.body_a), types.get(j.body_b)  # type: ignore[arg-type]  # None: no body
    if j.body_a is None and j.body_b is None:
        ctx.loss(
            "JOINT-2", j.pointer, "joint connects no bodies; OMI needs the joint node under a body; dropped"
        )
        return None
    if a_type == MotionType.DYNAMIC:
        return j
    if b_type == MotionType.DYNAMIC:
        return swapped(ctx, j)
    ctx.loss(
        "JOINT-2",
        j.pointer,
        "neither side is dynamic; OMI needs the joint node under a dynamic body (written as it is)",
    )
    return j


def swapped(ctx: WriteContext, j: Joint) -> Joint:
    """B becomes A (``portable_joints.swapped``: 1-axis ranges and drive targets negated, multi-axis metrics
    symmetric). Exact or approximate as ``portable_joints.swap_is_exact`` says (D-14): a slab or twist whose
    frames may turn apart is approximate even with a symmetric range."""
    j = dataclasses.replace(j, limits=split_limits(j.limits))  # D-4 first: each limit one kind
    if portable_joints.swap_is_exact(j):  # still reported: an OMI source had its joint node misplaced (invalid)
        ctx.loss("JOINT-2", j.pointer, "joint sides swapped so the joint node lies under the dynamic body "
                 "(exact for these limits and drives)")
    else:
        ctx.loss("D-14", j.pointer, "joint sides swapped so the joint node lies under the dynamic body; "
                 "one-axis ranges and drive targets negated, approximate for these limits (the frames may turn "
                 "apart)")
    return portable_joints.swapped(j)


def add_root(gltf: dict[str, Any], node: int) -> None:
    scenes = writable(gltf, "scenes", list)
    if not scenes:
        scenes.append({"nodes": []})
    default = gltf.get("scene")
    scene = scenes[default] if isinstance(default, int) and 0 <= default < len(scenes) else scenes[0]
    if isinstance(scene, dict):
        writable(scene, "nodes", list).append(node)
