"""Joints of the model as an MJCF kinematic tree (docs/architecture.md, docs/semantics.md).

MuJoCo joints live in a child body and move it relative to its parent, so a glTF joint between two bodies
becomes (a) the child's nesting under the parent plus MJCF joints for the degrees of freedom the limits leave
open, when the joint graph lets that body have this parent, or (b) an equality constraint (a loop).

:func:`build_tree` picks the tree: world, static and kinematic (mocap) bodies are anchors that can only be
parents; each dynamic body gets at most one parent; a joint that would close a loop, or tie a dynamic group to
a second anchor, stays an equality. :func:`dof_plan` reads a joint's limits into per-axis states, and
:func:`joint_specs` turns them into MJCF ``slide``/``hinge``/``ball`` joints in the child's frame, with
``ref`` set to the joint's coordinate at t = 0 so MuJoCo's ``range`` and actuator targets mean the glTF
joint coordinate (frame B relative to frame A; when the child is side A the axis is negated so the sign is
kept).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...gltf.hierarchy import ancestors, parents
from ...gltf.transforms import matrix_to_quat, quat_to_matrix
from ...model import Joint, PhysicsScene

WORLD = None  # the key of the world side of a joint


@dataclass
class Axis:
    """One joint degree of freedom: ``locked``, ``range`` [lo, hi] (stiffness ∞ = hard) or ``free``."""

    state: str = "free"
    lo: float = -math.inf
    hi: float = math.inf
    stiffness: float = math.inf
    damping: float = 0.0


@dataclass
class DofPlan:
    """A joint's six degrees of freedom (frame A axes) as its limits leave them, and notes on approximations."""

    linear: list[Axis] = field(default_factory=lambda: [Axis() for _ in range(3)])
    angular: list[Axis] = field(default_factory=lambda: [Axis() for _ in range(3)])
    ball_range: float | None = None  # a total-rotation (3 axes) or cone (2 axes) limit
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class JointSpec:
    """One MJCF joint: kind slide|hinge|ball, the model axis it stands for, pos/axis in the child frame."""

    kind: str
    axis_index: int
    pos: tuple[float, float, float]
    axis: tuple[float, float, float]
    ref: float = 0.0
    lo: float = -math.inf
    hi: float = math.inf
    stiffness: float = math.inf
    damping: float = 0.0


def dof_plan(joint: Joint) -> DofPlan:
    """Per-axis states of a joint's limits (split D-4 style, each axis kind on its own)."""
    plan = DofPlan()
    for lim in joint.limits:
        for axes, states, kind in ((lim.linear_axes, plan.linear, "linear"), (lim.angular_axes, plan.angular,
                                                                              "angular")):
            axes = tuple(a for a in axes if a in (0, 1, 2))
            if axes:
                _apply_limit(plan, states, kind, axes, lim.min, lim.max, lim.stiffness, lim.damping)
    return plan


def _apply_limit(plan: DofPlan, states: list[Axis], kind: str, axes: tuple[int, ...], lo: float, hi: float,
                 stiffness: float, damping: float) -> None:
    if math.isfinite(stiffness) and (hi <= lo or (len(axes) > 1 and hi <= 0)):
        # a soft lock is a spring about the locked value, not a lock: per-axis soft ranges
        if len(axes) > 1:
            plan.notes.append(f"soft {kind} limit on axes {list(axes)} written per axis (approximate)")
        for a in axes:
            if states[a].state != "locked":
                states[a] = Axis("range", lo if len(axes) == 1 else -max(hi, 0.0), hi, stiffness, damping)
        return
    if hi <= lo or (len(axes) > 1 and hi <= 0):  # min = max (or an empty distance/cone): the axes are fixed
        if len(axes) == 1 and abs(lo) > 1e-12:
            plan.notes.append(f"{kind} axis {axes[0]} fixed at {lo:g}, not 0: held at its initial value")
        for a in axes:
            states[a] = Axis("locked")
        return
    if len(axes) == 1:
        if states[axes[0]].state != "locked":
            states[axes[0]] = Axis("range", lo, hi, stiffness, damping)
        return
    if kind == "angular":  # a cone (2 axes) or total rotation (3 axes) limit: a ball joint's range
        plan.ball_range = hi
        if len(axes) == 2:
            plan.notes.append("cone limit written as a ball joint's total-rotation range (approximate)")
        return
    plan.notes.append(f"linear distance limit on axes {list(axes)} written as a box of ±{hi:g} (approximate)")
    for a in axes:
        if states[a].state != "locked":
            states[a] = Axis("range", -hi, hi, stiffness, damping)


def is_fixed(plan: DofPlan) -> bool:
    """Every degree of freedom locked: a weld."""
    return all(a.state == "locked" for a in (*plan.linear, *plan.angular))


def side_frames(joint: Joint, frames: dict[int | None, np.ndarray], a: int | None,
                b: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """World (glTF) rotation matrices and origins of frames A and B at t = 0."""
    out = []
    for key, pose in ((a, joint.frame_a), (b, joint.frame_b)):
        body = frames[key]
        rot = body[:3, :3] @ quat_to_matrix(pose.rotation)
        origin = body[:3, :3] @ np.asarray(pose.translation, dtype=float) + body[:3, 3]
        out.extend([rot, origin])
    return out[0], out[1], out[2], out[3]


def joint_specs(joint: Joint, plan: DofPlan, frames: dict[int | None, np.ndarray], a: int | None,
                b: int | None, child_is_b: bool) -> tuple[list[JointSpec], list[str]]:
    """MJCF joints (child frame) for the open degrees of freedom, and notes on what is approximate."""
    rot_a, org_a, rot_b, org_b = side_frames(joint, frames, a, b)
    child = frames[b if child_is_b else a]
    to_child = child[:3, :3].T
    sign = 1.0 if child_is_b else -1.0
    pose = joint.frame_b if child_is_b else joint.frame_a
    pos = tuple(float(v) for v in pose.translation)
    notes: list[str] = []
    specs: list[JointSpec] = []
    delta = org_b - org_a
    for i, ax in enumerate(plan.linear):
        e = rot_a[:, i]
        if ax.state == "locked":
            if abs(float(e @ delta)) > 1e-6:
                notes.append(f"locked linear axis {i} starts {float(e @ delta):.4g} m apart: the offset is kept")
            continue
        specs.append(JointSpec("slide", i, pos, _vec(sign * (to_child @ e)), float(e @ delta), ax.lo, ax.hi,
                               ax.stiffness, ax.damping))
    rel = _rel_quat(rot_a, rot_b)
    open_ang = [i for i, ax in enumerate(plan.angular) if ax.state != "locked"]
    per_axis = any(plan.angular[i].state == "range" for i in open_ang)
    if len(open_ang) == 3 and not per_axis:
        if max(abs(rel[0]), abs(rel[1]), abs(rel[2])) > 1e-6 and plan.ball_range is not None:
            notes.append("ball joint starts rotated: MuJoCo measures its range from the initial pose")
        specs.append(JointSpec("ball", -1, pos, (0.0, 0.0, 1.0), 0.0, -math.inf,
                               plan.ball_range if plan.ball_range is not None else math.inf))
        return specs, notes
    if len(open_ang) > 1:
        notes.append(f"{len(open_ang)} free angular axes written as hinges in sequence (approximate)")
    if plan.ball_range is not None and open_ang:
        notes.append("cone/total-rotation limit dropped on per-axis hinges")
    for i in open_ang:
        ax = plan.angular[i]
        e = rot_a[:, i]
        twist = 2.0 * math.atan2(rel[i], rel[3])
        twist = math.remainder(twist, 2 * math.pi)
        specs.append(JointSpec("hinge", i, pos, _vec(sign * (to_child @ e)), twist, ax.lo, ax.hi,
                               ax.stiffness, ax.damping))
    locked_rot = [i for i in range(3) if i not in open_ang]
    if locked_rot and any(abs(rel[i]) > 1e-6 for i in locked_rot):
        notes.append("locked angular axes start rotated: the initial rotation is kept")
    return specs, notes


def _rel_quat(rot_a: np.ndarray, rot_b: np.ndarray) -> tuple[float, float, float, float]:
    return matrix_to_quat(rot_a.T @ rot_b)


def _vec(v: np.ndarray) -> tuple[float, float, float]:
    n = float(np.linalg.norm(v)) or 1.0
    return float(v[0] / n), float(v[1] / n), float(v[2] / n)


# ---------------------------------------------------------------------------------------------------
# The tree
# ---------------------------------------------------------------------------------------------------

@dataclass
class Tree:
    """parent[child] = (parent key, joint index); ``loops``: joints kept as equalities; ``skipped``:
    (joint index, reason) of joints with nothing to simulate."""

    parent: dict[int, tuple[int | None, int]] = field(default_factory=dict)
    loops: list[int] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)

    def children(self, key: int | None) -> list[int]:
        """The bodies hanging from ``key`` (``None`` = the world), ascending."""
        return sorted(c for c, (p, _) in self.parent.items() if p == key)


def joint_sides(joint: Joint, bodies: set[int]) -> tuple[int | None, int | None]:
    """The body keys of a joint's sides (``None`` = the world: no body, or a node that is not a body)."""
    a = joint.body_a if joint.body_a in bodies else WORLD
    b = joint.body_b if joint.body_b in bodies else WORLD
    return a, b


def build_tree(joints: list[Joint], dynamic: set[int], anchors: set[int]) -> Tree:
    """Spanning forest of the joint graph: each component hangs from one anchor (or floats free)."""
    tree = Tree()
    root: dict[int | None, int | None] = {}

    def find(k: int | None) -> int | None:
        while root.get(k, k) != k:
            k = root[k]
        return k

    is_anchor = {WORLD: True, **{k: True for k in anchors}}
    edges: list[tuple[int, int | None, int | None]] = []
    bodies = dynamic | anchors
    for k, j in enumerate(joints):
        a, b = joint_sides(j, bodies)
        if a == b:
            tree.skipped.append((k, "both sides are the same body"))
            continue
        if a not in dynamic and b not in dynamic:
            tree.skipped.append((k, "neither side is a dynamic body"))
            continue
        ra, rb = find(a), find(b)
        if ra == rb or (is_anchor.get(ra, False) and is_anchor.get(rb, False)):
            tree.loops.append(k)
            continue
        if is_anchor.get(rb, False):  # keep the anchor as the representative
            ra, rb = rb, ra
        root[rb] = ra
        edges.append((k, a, b))
    _orient(tree, edges, joints, dynamic, find)
    return tree


def _orient(tree: Tree, edges: list[tuple[int, int | None, int | None]], joints: list[Joint],
            dynamic: set[int], find) -> None:  # type: ignore[no-untyped-def]
    """Hang each component from its anchor, or from its lowest body node when it has none (a free root)."""
    adjacency: dict[int | None, list[tuple[int, int | None]]] = {}
    for k, a, b in edges:
        adjacency.setdefault(a, []).append((k, b))
        adjacency.setdefault(b, []).append((k, a))
    starts = sorted((n for n in adjacency if n is None or n not in dynamic), key=lambda n: -1 if n is None else n)
    starts += sorted(n for n in adjacency if n is not None and n in dynamic)
    seen: set[int | None] = set()
    for start in starts:
        if start in seen:
            continue
        seen.add(start)
        queue = [start]
        while queue:
            cur = queue.pop(0)
            for k, nxt in sorted(adjacency.get(cur, []), key=lambda e: e[0]):
                if nxt in seen:
                    continue
                seen.add(nxt)
                tree.parent[nxt] = (cur, k)  # type: ignore[index]
                queue.append(nxt)



def partner_groups(scene: PhysicsScene, bodies: set[int],
                   animated: set[int]) -> tuple[dict[int, int], dict[int, int]]:
    """JOINT-9, as the Rapier runtime reads it: (side node → group node, static collider node → group node).

    A joint side without a body excludes the static colliders under the nearest ancestor-or-self of its node
    whose subtree holds one; nested groups merge into the outermost.
    """
    gltf = scene.document.json if scene.document is not None else {}
    nodes = gltf.get("nodes") or []
    statics = {c.node for c in scene.colliders
               if (c.body is None or c.body not in bodies) and 0 <= c.node < len(nodes) and c.node not in animated}
    sides = []
    for j in scene.joints:
        for body, node in ((j.body_a, j.node), (j.body_b, j.connected_node)):
            if body is None or body not in bodies:
                side = body if body is not None else node
                if side is not None and 0 <= side < len(nodes):
                    sides.append(side)
    if not statics or not sides:
        return {}, {}
    parent_of = parents(gltf)
    covered = set(statics)
    for c in statics:
        covered.update(ancestors(parent_of, c))
    groups = {g for s in sides if (g := next((a for a in (s, *ancestors(parent_of, s)) if a in covered), None))
              is not None}

    def outer(node: int) -> int | None:
        found = None
        for a in (node, *ancestors(parent_of, node)):
            if a in groups:
                found = a
        return found

    side_group = {s: g for s in sides if (g := outer(s)) is not None}
    return side_group, {c: g for c in statics if (g := outer(c)) is not None}
