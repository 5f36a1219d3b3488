"""The Rapier rows of a model joint's hard limits.

Every row is on a Rapier ``GenericJoint`` between the two sides (body 1 = ``body_a`` with ``local_frame1 =
frame_a``, body 2 = ``body_b`` with ``frame_b``; a side whose body is ``None`` is ``rw.ground``, its frame already
in world space; a side on a node without a body of its own is the ground too, its frame moved into world space;
either is instead the fixed body of its static partner colliders when ``rw.joint_anchor`` names one for the
side's node, frame relative to it, so the contact setting reaches those colliders (JOINT-9)).

Hard limits (stiffness ∞) are Rapier rows; the KHR metric of each row is what is enforced:

- one axis: min = max = 0 ⇒ a locked axis; otherwise a per-axis Rapier limit (equal bounds ≠ 0 allowed;
  angular bounds clipped to [−π, π]; Rapier's angular measure is the signed twist, D-10).
- two or three linear axes (distance to a line / to a point): Rapier's coupled linear axes on a joint of
  their own. Rapier's coupled limit has only a maximum, so a minimum > 0 goes the "aimed" way (``aimed.py``).
- two angular axes (cone about the third axis): Rapier's coupled angular axes on a joint of their own.
- three angular axes (total rotation): Rapier has no such row; an aimed row (``aimed.py``).
- min = max = 0 on several axes of one kind fixes all of them: locked axes.

Several limits on the same axis (or several model joints on one body pair) spill into further Rapier joints
between the same bodies, so every row is enforced (overlapping ranges intersect). Every Rapier joint of a
model joint has contacts enabled exactly when ``enable_collision`` (JOINT-9, JOINT1-11). Finite-stiffness
limits are springs (``springs.py``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import rapier3d as r

from ....gltf.transforms import decompose, quat_to_matrix
from ....model.joints import JointLimit, Pose
from .aimed import _aim
from .common import (
    ANG,
    ANG_MASK,
    COUPLED_ANG,
    COUPLED_LIN,
    HUGE,
    LIN,
    LIN_MASK,
    _Aimed,
    _Built,
    _compose,
    _conj,
    _data,
    _frame_world,
    _iso,
    _Side,
    _Spring,
)


def _side(rw: Any, node: int | None, frame: Pose, side_node: int | None = None) -> _Side:
    """Rapier body and local frame of one joint side; ``None`` (or a node without a body) is the ground,
    or the fixed body carrying the side's static partner colliders when the world made one (JOINT-9)."""
    if node is not None:
        handle = rw.handle_of.get(node)
        if handle is not None:
            return _Side(handle, frame)
        # No body of its own: it never moves, so its frame is fixed in the world.
        frame = _compose(_node_world(rw, node), frame)
    key = node if node is not None else side_node
    anchor = getattr(rw, "joint_anchor", {}).get(key) if key is not None else None
    if anchor is None:
        return _Side(rw.ground, frame)  # the ground sits at the origin: the world frame as it is
    handle, group = anchor  # JOINT-9: a body the joint can exclude contacts with
    return _Side(handle, _compose(_inverse(_node_world(rw, group)), frame))


def _inverse(p: Pose) -> Pose:
    t = -(quat_to_matrix(p.rotation).T @ np.asarray(p.translation))
    return Pose((float(t[0]), float(t[1]), float(t[2])), _conj(p.rotation))


def _node_world(rw: Any, node: int) -> Pose:
    wp = rw.world_pose(node)
    if isinstance(wp, Pose):
        return wp
    if isinstance(wp, np.ndarray) and wp.shape == (4, 4):
        t, q, _ = decompose(wp)
        return Pose(t, q)
    t, q = wp  # RapierWorld: (translation (3,), xyzw rotation (4,))
    return Pose((float(t[0]), float(t[1]), float(t[2])), (float(q[0]), float(q[1]), float(q[2]), float(q[3])))


def _add_part(rw: Any, b: _Built) -> int:
    """A new Rapier joint between the two sides with the model frames and the contact setting (JOINT-9)."""
    builder = (r.GenericJointBuilder(r.JointAxesMask.empty())
               .local_frame1(_iso(b.a.frame)).local_frame2(_iso(b.b.frame))
               .contacts_enabled(b.joint.enable_collision))
    b.parts.append(rw.impulse_joints.insert(b.a.handle, b.b.handle, builder.build(), True))
    b.used.append(set())
    return len(b.parts) - 1


def _limit_slot(rw: Any, b: _Built, axis: Any) -> Any:
    """The first general part whose ``axis`` carries no limit yet (else a new part; see _coupled_slot)."""
    for i, handle in enumerate(b.parts):
        if i not in b.dedicated and int(axis) not in b.used[i]:
            b.used[i].add(int(axis))
            return handle
    i = _add_part(rw, b)
    b.used[i].add(int(axis))
    return b.parts[i]


def _dedicated_part(rw: Any, b: _Built) -> Any:
    i = _add_part(rw, b)
    b.dedicated.add(i)
    return b.parts[i]


def _split(lim: JointLimit) -> list[tuple[str, tuple[int, ...]]]:
    """A limit listing both axis kinds applies its range to each kind separately (D-4)."""
    out: list[tuple[str, tuple[int, ...]]] = []
    if lim.linear_axes:
        out.append(("linear", tuple(sorted(set(lim.linear_axes)))))
    if lim.angular_axes:
        out.append(("angular", tuple(sorted(set(lim.angular_axes)))))
    return out


def _add_limit(rw: Any, b: _Built, kind: str, axes: tuple[int, ...], lim: JointLimit,
               notes: list[str], index: int) -> None:
    lo, hi = lim.min, lim.max
    if lo > hi:
        notes.append(f"joint {index}: limit min {lo} > max {hi} (JOINT-6); ignored")
        return
    if math.isfinite(lim.stiffness):
        if lim.stiffness > 0 or lim.damping > 0:  # a spring of zero stiffness and damping does nothing
            b.springs.append(_Spring(kind, axes, limit=lim))
        return
    masks = LIN_MASK if kind == "linear" else ANG_MASK
    if lo == 0.0 and hi == 0.0:
        # min = max = 0 fixes the DoF; a zero distance / cone / total angle fixes every listed axis.
        data = _data(rw, b.parts[0])
        for ax in axes:
            data.lock_axes(masks[ax])
    elif len(axes) == 1:
        _add_hard_1d(rw, b, kind, axes[0], lo, hi)
    elif kind == "angular" and len(axes) == 2:
        _add_cone(rw, b, axes, lo, hi)
    elif kind == "linear" and lo <= 0.0:
        _add_distance(rw, b, axes, hi)
    elif not (kind == "angular" and lo <= 0.0 and hi >= math.pi):
        b.pending_aimed.append((kind, axes, lo, hi))  # total rotation, or a distance with a minimum > 0


def _add_hard_1d(rw: Any, b: _Built, kind: str, axis: int, lo: float, hi: float) -> None:
    if kind == "angular":
        lo, hi = max(lo, -math.pi), min(hi, math.pi)
        if lo <= -math.pi and hi >= math.pi:
            return  # the whole circle: no constraint
        rapier_axis = ANG[axis]
    else:
        lo, hi = max(lo, -HUGE), min(hi, HUGE)
        if lo <= -HUGE and hi >= HUGE:
            return
        rapier_axis = LIN[axis]
    _data(rw, _limit_slot(rw, b, rapier_axis)).set_limits(rapier_axis, lo, hi)


def _coupled_slot(rw: Any, b: _Built, kind: str, axes: tuple[int, ...]) -> Any:
    """A general part with no coupled group of this kind and no limit on these axes (else a new part).

    Rows of one Rapier joint are solved together (orthogonalised), rows of two joints on one pair only
    by iteration, which barely converges for a light bob far from its pin (measured: a cone on a joint of
    its own beside the pin held nothing) — so the first part is preferred.
    """
    group = COUPLED_LIN if kind == "linear" else COUPLED_ANG
    rapier_axes = {int((LIN if kind == "linear" else ANG)[ax]) for ax in axes}
    for i, handle in enumerate(b.parts):
        if i not in b.dedicated and group not in b.used[i] and not rapier_axes & b.used[i]:
            b.used[i] |= rapier_axes | {group}
            return handle
    i = _add_part(rw, b)
    b.used[i] |= rapier_axes | {group}
    return b.parts[i]


def _add_cone(rw: Any, b: _Built, axes: tuple[int, ...], lo: float, hi: float) -> None:
    """Angle between the frames' third axes in [lo, hi]: Rapier's coupled angular limit (2 axes)."""
    if lo <= 0.0 and hi >= math.pi:
        return
    data = _data(rw, _coupled_slot(rw, b, "angular", axes))
    data.coupled_axes = data.coupled_axes | ANG_MASK[axes[0]] | ANG_MASK[axes[1]]
    for ax in axes:
        data.set_limits(ANG[ax], max(lo, 0.0), min(hi, math.pi))


def _add_distance(rw: Any, b: _Built, axes: tuple[int, ...], hi: float) -> None:
    """Distance to a line (2 axes) or to a point (3 axes) ≤ hi: Rapier's coupled linear limit."""
    if hi >= HUGE:
        return
    data = _data(rw, _coupled_slot(rw, b, "linear", axes))
    mask = data.coupled_axes
    for ax in axes:
        mask = mask | LIN_MASK[ax]
    data.coupled_axes = mask
    for ax in axes:
        data.set_limits(LIN[ax], 0.0, hi)


def _add_aimed(rw: Any, b: _Built, kind: str, axes: tuple[int, ...], lo: float, hi: float) -> None:
    """A 1-D limit on the X axis of a joint re-aimed every step; its metric is ≥ 0, so min ≤ 0 is no bound.

    It goes on part 0 when turning part 0's frames changes none of its other rows (no angular or per-axis
    linear rows; a pin or a sphere distance is the same in every orientation) — the usual ball joint
    with a swing-twist limit — so that it is solved together with the pin (see _coupled_slot).
    """
    if not b.aimed and _aim_compatible(rw, b):
        handle = b.parts[0]
        b.dedicated.add(0)
    else:
        handle = _dedicated_part(rw, b)
    if kind == "angular":
        axis, lo, hi = ANG[0], (lo if lo > 0.0 else -math.pi), min(hi, math.pi)
    else:
        axis, lo, hi = LIN[0], (lo if lo > 0.0 else -HUGE), min(hi, HUGE)
    _data(rw, handle).set_limits(axis, lo, hi)
    aimed = _Aimed(handle, kind, axes, lo, hi)
    b.aimed.append(aimed)
    _aim(rw, b, aimed, _frame_world(rw, b.a), _frame_world(rw, b.b))


def _aim_compatible(rw: Any, b: _Built) -> bool:
    data = _data(rw, b.parts[0])
    locked = data.locked_axes
    if locked != r.JointAxesMask.empty() and locked != r.JointAxesMask.LIN_AXES:
        return False
    lin_group = {int(a) for a in LIN} | {COUPLED_LIN}
    return not b.used[0] or b.used[0] == lin_group
