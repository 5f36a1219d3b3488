"""Joint settings written the way every reference client reads them, with the same meaning.

Two choices the KHR writer makes for portability, each exact where this module says so:

- **Dynamic side first.** The spec author's Babylon loader builds a joint from the body above the joint node
  (frame A) and cannot make one whose frame A has no moving body. A joint whose side A has no moving body
  (none, or a static motion, which KHR writes as no motion) and whose side B has one is written swapped:
  the joint on B's node, ``connectedNode`` = A's node (docs/interop.md; D-14).
  The relative pose becomes its inverse (R, t) → (Rᵀ, −Rᵀ·t), so, with the metrics of docs/semantics.md:
  a 3-axis distance, a cone and a total rotation are symmetric (same range); a signed twist about e_i
  (D-10, measured 2·atan2(q_i, q_w)) changes sign exactly (range [−max, −min]) — a soft one only keeps its
  force direction when frame B's e_i is frame A's, i.e. the other two rotations are hard-locked; a 1-axis
  slab along e_i and a drive on axis i change sign exactly when the other two rotations are hard-locked
  (then R·e_i = e_i); a 2-axis distance to the line along e_k is unchanged when the rotations about the two
  listed axes are hard-locked. Anything else is not swapped: negating its ranges would be another joint
  (measured on the official ``swing_and_slide.gltf``: 7.5 m apart after 2 s), so it is written as it is and
  the validator's HINT-JOINT-SIDE names it.
- **Full linear locks per axis.** ``linearAxes: [0,1,2]`` with min = max = 0 (the distance to a point is 0)
  is read by that loader as a soft distance constraint; three 1-axis limits with the same range are exact
  there. The two forms are the same constraint when the limit is hard, and the same spring (stiffness·Δ)
  when it is soft without damping; a damped soft lock keeps one limit (per-axis damping would also damp
  motion across the line to the anchor).
"""

from __future__ import annotations

import dataclasses
import math

from ...model import Joint, JointDrive, JointLimit, MotionType, PhysicsScene

ALL = frozenset((0, 1, 2))


def moving_bodies(scene: PhysicsScene) -> frozenset[int]:
    """Nodes of the dynamic and kinematic bodies (a static motion is written as no motion)."""
    return frozenset(b.node for b in scene.bodies if b.motion.type is not MotionType.STATIC)


def needs_swap(moving: frozenset[int], j: Joint) -> bool:
    """Side A has no moving body and side B has one (``moving``: :func:`moving_bodies`)."""
    return j.body_a not in moving and j.body_b in moving


def hard_locked_rotations(limits: tuple[JointLimit, ...]) -> frozenset[int]:
    """Angular axes whose rotation a hard min = max = 0 limit removes (a cone of 0 about e_k removes the
    rotations about the two listed axes; a total rotation of 0 removes all three)."""
    out: set[int] = set()
    for lim in limits:
        if lim.angular_axes and lim.min == 0.0 and lim.max == 0.0 and math.isinf(lim.stiffness):
            out.update(lim.angular_axes if len(set(lim.angular_axes)) < 3 else ALL)
    return frozenset(out)


def _keeps_axis(locked: frozenset[int], axis: int) -> bool:
    """R·e_axis = e_axis: the rotations about the two other axes are hard-locked."""
    return ALL - {axis} <= locked


def hard_locked_translations(limits: tuple[JointLimit, ...]) -> frozenset[int]:
    """Linear axes a hard min = max = 0 limit holds at 0 (a 2- or 3-axis distance of 0 holds each listed axis)."""
    out: set[int] = set()
    for lim in limits:
        if lim.linear_axes and lim.min == 0.0 and lim.max == 0.0 and math.isinf(lim.stiffness):
            out.update(lim.linear_axes)
    return frozenset(out)


def _limit_exact(lim: JointLimit, locked: frozenset[int], pinned: bool) -> bool:
    lin, ang = set(lim.linear_axes), set(lim.angular_axes)
    if lin and ang:
        return False  # writers split these first (D-4)
    if not (lin | ang) <= ALL or len(lin) != len(lim.linear_axes) or len(ang) != len(lim.angular_axes):
        return False  # axes beyond 0..2 or repeated (JOINT-5 / KRB-6): no metric to compare, written as read
    if lin and pinned:
        return True  # the frames' origins coincide: every linear metric is 0 from either side
    axes = lin or ang
    if not axes:
        return True  # a limit on no axis (its axes malformed, read as none) constrains nothing from either side
    if len(axes) == 3 or (ang and len(axes) == 2):
        return True  # distance to a point, total rotation, cone: symmetric metrics
    if lin and len(axes) == 2:
        return _keeps_axis(locked, next(iter(ALL - axes)))
    (axis,) = axes
    if ang and math.isinf(lim.stiffness):
        return True  # the set of signed twists in [min, max] maps to [−max, −min] exactly
    return _keeps_axis(locked, axis)


def swap_is_exact(j: Joint) -> bool:
    """Whether :func:`swapped` describes the same constraint (module docstring)."""
    locked = hard_locked_rotations(j.limits)
    pinned = hard_locked_translations(j.limits) == ALL
    return all(_limit_exact(lim, locked, pinned) for lim in j.limits) and all(
        _keeps_axis(locked, d.axis) for d in j.drives)


def _negate_limit(lim: JointLimit) -> JointLimit:
    if len(lim.linear_axes) + len(lim.angular_axes) != 1:
        return lim  # multi-axis metrics are symmetric (or the swap is listed as approximate)
    return dataclasses.replace(lim, min=0.0 - lim.max, max=0.0 - lim.min)  # 0.0 - x: never a -0.0


def _negate_drive(d: JointDrive) -> JointDrive:
    return dataclasses.replace(
        d, position_target=None if d.position_target is None else 0.0 - d.position_target,
        velocity_target=None if d.velocity_target is None else 0.0 - d.velocity_target)


def swapped(j: Joint) -> Joint:
    """The joint seen from side B: frames and nodes exchanged, 1-axis ranges and drive targets negated."""
    own_nodes = j.connected_node is not None
    return dataclasses.replace(
        j, body_a=j.body_b, frame_a=j.frame_b, body_b=j.body_a, frame_b=j.frame_a,
        limits=tuple(_negate_limit(lim) for lim in j.limits), drives=tuple(_negate_drive(d) for d in j.drives),
        node=j.connected_node if own_nodes else j.node,  # type: ignore[arg-type]
        connected_node=j.node if own_nodes else None)


def is_full_linear_lock(lim: JointLimit) -> bool:
    return len(set(lim.linear_axes)) == 3 and not lim.angular_axes and lim.min == 0.0 and lim.max == 0.0


def per_axis_locks(limits: tuple[JointLimit, ...]) -> tuple[JointLimit, ...]:
    """Every full linear lock that is hard or undamped as three 1-axis limits (in the listed order)."""
    out: list[JointLimit] = []
    for lim in limits:
        if is_full_linear_lock(lim) and (math.isinf(lim.stiffness) or lim.damping == 0.0):
            out += [dataclasses.replace(lim, linear_axes=(a,)) for a in dict.fromkeys(lim.linear_axes)]
        else:
            out.append(lim)
    return tuple(out)
