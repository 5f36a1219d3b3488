"""Joints on Rapier's reduced-coordinate multibodies (docs/semantics.md).

A joint goes on a ``MultibodyJointSet`` link when everything it asks for is native there, so that its limits
and drives act on the joint coordinate with the articulated inertia and need no per-step Python:

- every limit is hard (stiffness ∞) and either fixes its axes (min = max = 0) or bounds one axis (per-axis
  Rapier limits; several limits on one axis intersect; angular bounds clipped to [−π, π]);
- every drive is ``linear``/``angular`` on a free axis in ``force`` or ``acceleration`` mode, at most one per
  axis: a Rapier motor (target position, target velocity, stiffness, damping; ``FORCE_BASED`` /
  ``ACCELERATION_BASED``; ``maxForce``) — value = stiffness·(positionTarget − pos) + damping·(velocityTarget −
  vel), no positionTarget ⇒ no stiffness term, positionTarget without velocityTarget ⇒ 0 (D-11);
- at most one free angular axis, or three free angular axes with no angular limit or drive (a ball);
- not one free angular axis with one or two free linear axes (a planar joint: slide x, slide z, hinge y),
  see the "Mixed axes" note in the source;
- body B is dynamic and not already a child link; body A is dynamic (it becomes the parent link) or the
  world (``rw.ground``) or a fixed body, which gives each joint hanging from it a fixed root body of its own at
  its pose (:func:`fixed_root`), so separate chains stay separate multibodies (Rapier's multibody solve is
  dense in its degrees of freedom), or a kinematic body, which gives each such joint a driven root following
  it (``driven_roots.py``); and an empty contact-free impulse joint to the anchor body where the joint keeps
  their colliders apart (:func:`exclude_contacts`, JOINT-9);
- joining the two would not close a loop (a loop's closing joint stays an impulse joint).

- a soft limit (finite stiffness) on one free axis, not shared with a drive: a force-based motor toward the
  violated bound (target velocity 0, the limit's stiffness and damping) switched on before a step that
  starts outside [min, max] and off inside it (:class:`SoftLimits`, one coordinate read per articulation);

Anything else (cones, distances, total-rotation limits, two free angular axes, loops) stays on impulse
joints (``joints/rows.py``). Contacts between the two linked bodies follow
``enableCollision`` (JOINT-9); other links of an articulation collide as usual.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import rapier3d as r

from ...model.joints import DriveMode, DriveType, Joint, JointDrive, JointLimit

LIN = (r.JointAxis.LIN_X, r.JointAxis.LIN_Y, r.JointAxis.LIN_Z)
ANG = (r.JointAxis.ANG_X, r.JointAxis.ANG_Y, r.JointAxis.ANG_Z)
LIN_MASK = (r.JointAxesMask.LIN_X, r.JointAxesMask.LIN_Y, r.JointAxesMask.LIN_Z)
ANG_MASK = (r.JointAxesMask.ANG_X, r.JointAxesMask.ANG_Y, r.JointAxesMask.ANG_Z)
HUGE = 1e30  # an unbounded linear side / unlimited motor force (Rapier works in f32)
# Mixed axes. A link whose joint turns about one axis and slides along one or two loses most of its contact
# friction in Rapier's multibody solve (measured, rapier3d 0.36.1, raw: a 1 kg box on a planar link, μ 0.5,
# pushed by gravity (8, −9.81, 0) m/s², slid 8.3 m in 1.5 s where Coulomb friction says 3.48 m and a
# frictionless box 9.0 m; friction came back with the ground collider inserted before the box, with sliding
# axes only, or with all three linear axes free: the contact rows of such a link as contact body 1). Such
# joints (the planar roots of MJCF walkers) stay impulse joints, where the same box stops within 3 mm of
# Coulomb's distance; the links below them stay on the multibody.
_MODEL = {DriveMode.FORCE: r.MotorModel.FORCE_BASED, DriveMode.ACCELERATION: r.MotorModel.ACCELERATION_BASED}


@dataclass
class Plan:
    """What a joint becomes on a multibody link: locked axes, per-axis bounds, motors by axis index."""

    locked: set[tuple[str, int]] = field(default_factory=set)
    bounds: dict[tuple[str, int], tuple[float, float]] = field(default_factory=dict)
    drives: dict[tuple[str, int], int] = field(default_factory=dict)  # (kind, axis) → drive index
    soft: dict[tuple[str, int], JointLimit] = field(default_factory=dict)  # one soft limit per free axis


def plan(joint: Joint) -> Plan | None:
    """The multibody form of ``joint``, or None when something in it is not native there (module docstring)."""
    p = Plan()
    for lim in joint.limits:
        if lim.min > lim.max:
            return None
        soft = not math.isinf(lim.stiffness)
        for kind, axes in (("linear", lim.linear_axes), ("angular", lim.angular_axes)):
            axes = tuple(sorted(set(axes)))
            if not axes:
                continue
            if soft:
                if len(axes) != 1 or (kind, axes[0]) in p.soft:
                    return None
                if lim.stiffness > 0 or lim.damping > 0:  # a spring of zero gains does nothing
                    p.soft[(kind, axes[0])] = lim
                continue
            if lim.min == 0.0 and lim.max == 0.0:
                p.locked.update((kind, a) for a in axes)
            elif len(axes) == 1:
                key = (kind, axes[0])
                lo, hi = p.bounds.get(key, (-math.inf, math.inf))
                p.bounds[key] = (max(lo, lim.min), min(hi, lim.max))
            else:
                return None
    for i, d in enumerate(joint.drives):
        kind = "linear" if d.type == DriveType.LINEAR else "angular"
        key = (kind, d.axis)
        if (d.type not in (DriveType.LINEAR, DriveType.ANGULAR) or d.mode not in _MODEL or not 0 <= d.axis <= 2
                or key in p.locked or key in p.drives):
            return None
        p.drives[key] = i
    if any(key in p.locked or key in p.drives for key in p.soft):
        return None  # a soft limit is a motor of its own on its axis
    free_angular = [a for a in range(3) if ("angular", a) not in p.locked]
    if len(free_angular) == 2:
        return None
    if len(free_angular) == 3 and any(k == "angular" for k, _ in (*p.bounds, *p.drives, *p.soft)):
        return None
    free_linear = [a for a in range(3) if ("linear", a) not in p.locked]
    if len(free_angular) == 1 and 0 < len(free_linear) < 3:
        return None  # sliding and turning on one link: Rapier drops its contact friction (see "Mixed axes" above)
    if any(lo > hi for lo, hi in p.bounds.values()):
        return None
    return p


def motor_args(d: JointDrive) -> tuple[float, float, float, float, float]:
    """(target position, target velocity, stiffness, damping, max force) of a drive's Rapier motor."""
    k = max(d.stiffness, 0.0) if d.position_target is not None else 0.0
    c = max(d.damping, 0.0)
    x_t = d.position_target if d.position_target is not None else 0.0
    v_t = d.velocity_target if d.velocity_target is not None else 0.0
    max_force = d.max_force if d.max_force >= 0 and math.isfinite(d.max_force) else HUGE  # D-15
    return x_t, v_t, k, c, max_force


def _axis(kind: str, a: int) -> Any:
    return (LIN if kind == "linear" else ANG)[a]


def build(p: Plan, joint: Joint, frame1: Any, frame2: Any) -> Any:
    """The Rapier GenericJoint of a plan, frames given as Isometry3 in the two bodies' spaces."""
    mask = r.JointAxesMask.empty()
    for kind, a in p.locked:
        mask = mask | (LIN_MASK if kind == "linear" else ANG_MASK)[a]
    b = (r.GenericJointBuilder(mask).local_frame1(frame1).local_frame2(frame2)
         .contacts_enabled(joint.enable_collision))
    for (kind, a), (lo, hi) in p.bounds.items():
        if (kind, a) in p.locked:
            continue
        if kind == "angular":
            lo, hi = max(lo, -math.pi), min(hi, math.pi)
            if lo <= -math.pi and hi >= math.pi:
                continue
        else:
            lo, hi = max(lo, -HUGE), min(hi, HUGE)
            if lo <= -HUGE and hi >= HUGE:
                continue
        b = b.limits(_axis(kind, a), lo, hi)
    for (kind, a), i in p.drives.items():
        d = joint.drives[i]
        x_t, v_t, k, c, max_force = motor_args(d)
        if k == 0.0 and c == 0.0:
            continue  # inert; a Rapier motor of zero gains would hold the axis rigidly (measured)
        axis = _axis(kind, a)
        b = b.motor_model(axis, _MODEL[d.mode]).motor(axis, x_t, v_t, k, c).motor_max_force(axis, max_force)
    return b.build()


def attachable(rw: Any, parent: Any, child: Any) -> bool:
    """Whether ``child`` can hang from ``parent`` (None: a new fixed root) without a second parent or a loop."""
    bodies, mbs = rw.bodies, rw.multibody_joints
    if not bodies[child].is_dynamic or (parent is not None and bodies[parent].is_kinematic):
        return False
    lc = mbs.rigid_body_link(child)
    if lc is not None and lc.id != 0:
        return False  # already a child link
    lp = mbs.rigid_body_link(parent) if parent is not None else None
    return not (lc is not None and lp is not None and lc.multibody == lp.multibody)


def pose_of(body: Any) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(translation, xyzw rotation) of a Rapier body's pose now, as builders take it."""
    iso = body.position
    return tuple(iso.translation.to_tuple()), tuple(iso.rotation.to_tuple())


def fixed_root(rw: Any, anchor: Any) -> Any:
    """A fixed body without colliders at the pose of ``anchor`` (the world's ground or a fixed body) rooting one
    structure that hangs from it: each structure stays a multibody of its own, since Rapier's multibody solve
    is dense in its degrees of freedom (measured: 20 chains × 10 links hanging from one static body as one
    multibody, 741 ms a step; 40 chains, 4.3 s)."""
    pose = pose_of(rw.bodies[anchor])
    add = getattr(rw, "add_fixed_root", None)
    if add is not None:
        return add(pose)
    return rw.bodies.insert(r.RigidBody.fixed().position(pose))


def exclude_contacts(rw: Any, anchor: Any, child: Any, enable_collision: bool) -> list[Any]:
    """An impulse joint with no rows and contacts disabled between the fixed ``anchor`` and the link, when the
    joint keeps them apart (JOINT-9) and the anchor has colliders: the link hangs from a root of its own
    (:func:`fixed_root`), so the multibody joint no longer names the anchor. Returns its handle, if any."""
    if enable_collision or not rw.bodies[anchor].colliders:
        return []
    joint = r.GenericJointBuilder(r.JointAxesMask.empty()).contacts_enabled(False).build()
    return [rw.impulse_joints.insert(anchor, child, joint, True)]


def set_drive(rw: Any, handle: Any, p: Plan, joint: Joint, index: int) -> None:
    """Apply drive ``index`` of ``joint`` (already updated) to its live multibody link motor."""
    d = joint.drives[index]
    key = ("linear" if d.type == DriveType.LINEAR else "angular", d.axis)
    mb, link = rw.multibody_joints.get(handle)
    x_t, v_t, k, c, max_force = motor_args(d)
    axis = _axis(*key)
    if k == 0.0 and c == 0.0:
        mb.set_link_motor_max_force(link, axis, 0.0)  # inert (see build)
        return
    mb.set_link_motor_model(link, axis, _MODEL[d.mode])
    mb.set_link_motor(link, axis, x_t, v_t, k, c)
    mb.set_link_motor_max_force(link, axis, max_force)


def place(rw: Any, handle: Any, coords: list[float]) -> None:
    """Set a new link's joint coordinates (free axes, in order) so the articulation starts where its bodies
    are, and write the resulting poses back (a link's pose is otherwise its coordinates', 0 at insertion)."""
    mb, link_id = rw.multibody_joints.get(handle)
    link = mb.get_link(link_id)
    current = list(mb.generalized_position())
    disp = [0.0] * len(current)
    for k, value in enumerate(coords[:link.ndofs]):
        disp[link.assembly_id + k] = value - current[link.assembly_id + k]
    if any(disp):
        mb.apply_displacements(disp)
    # Rapier gives every multibody degree of freedom a joint damping of 0.1 by default (measured: a free hinge
    # lost 2 % of its rate per step); the specs have no such damping.
    mb.set_damping([0.0] * len(current))
    mb.forward_kinematics(rw.bodies, True)
    mb.update_rigid_bodies(rw.bodies, False)


class SoftLimits:
    """Soft limits of multibody links: before each step, one read of each articulation's coordinates, a
    NumPy test of every soft limit against its range, and a motor change only where a limit enters or
    leaves its active state (so a resting scene makes no engine calls)."""

    def __init__(self) -> None:
        self.entries: list[tuple[Any, str, int, JointLimit, int]] = []  # (handle, kind, axis, limit, rank)
        self._layout: tuple[list[Any], np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self._state = np.zeros(0, dtype=np.int8)  # −1 at min, +1 at max, 0 off
        self._force_all = True

    def add(self, handle: Any, p: Plan) -> None:
        """Register the soft limits of a new link (``p.soft``); its motors start off."""
        for (kind, a), lim in p.soft.items():
            self.entries.append((handle, kind, a, lim, _free_rank(p, kind, a)))
        self._layout = None

    def invalidate(self) -> None:
        """Forget the layout and motor states (a restored world): the next step sets every motor again."""
        self._layout = None

    def remove(self, handle: Any) -> None:
        self.entries = [e for e in self.entries if e[0] != handle]
        self._layout = None

    def _build_layout(self, rw: Any) -> None:
        """Which articulation and coordinate each soft limit reads (assembly ids change as trees merge)."""
        mbs = rw.multibody_joints
        roots: dict[Any, int] = {}
        first: list[Any] = []
        which, index = [], []
        for handle, _, _, _, rank in self.entries:
            mb, link_id = mbs.get(handle)
            root = mb.root_handle
            if root not in roots:
                roots[root] = len(first)
                first.append(handle)
            link = mb.get_link(link_id)
            which.append(roots[root])
            index.append(link.assembly_id + rank)
        lo = np.array([e[3].min for e in self.entries])
        hi = np.array([e[3].max for e in self.entries])
        self._layout = (first, np.array(which, dtype=np.int64), np.array(index, dtype=np.int64), lo, hi)
        self._state = np.zeros(len(self.entries), dtype=np.int8)
        self._force_all = True  # a new layout (built or rebuilt link): set every motor once

    def before_step(self, rw: Any) -> None:
        if not self.entries:
            return
        if self._layout is None:
            self._build_layout(rw)
        first, which, index, lo, hi = self._layout  # type: ignore[misc]
        mbs = rw.multibody_joints
        coords = [np.asarray(mbs.get(h)[0].generalized_position(), dtype=np.float64) for h in first]
        x = np.array([coords[w][i] for w, i in zip(which.tolist(), index.tolist(), strict=True)])
        state = np.where(x > hi, 1, np.where(x < lo, -1, 0)).astype(np.int8)
        changed = np.nonzero((state != self._state) | self._force_all)[0]
        self._force_all = False
        for k in changed.tolist():
            handle, kind, a, lim, _ = self.entries[k]
            mb, link_id = mbs.get(handle)
            axis = _axis(kind, a)
            if state[k] == 0:  # off: a motor of zero gains still holds its axis rigidly (measured); no force
                mb.set_link_motor_max_force(link_id, axis, 0.0)
            else:
                bound = lim.max if state[k] > 0 else lim.min
                mb.set_link_motor_model(link_id, axis, r.MotorModel.FORCE_BASED)
                mb.set_link_motor(link_id, axis, bound, 0.0, max(lim.stiffness, 0.0), max(lim.damping, 0.0))
                mb.set_link_motor_max_force(link_id, axis, HUGE)
        self._state = state


def _free_rank(p: Plan, kind: str, a: int) -> int:
    """Position of (kind, axis) among a link joint's free coordinates (Rapier's order: linear x, y, z, then
    angular x, y, z, locked ones skipped)."""
    order = [("linear", i) for i in range(3)] + [("angular", i) for i in range(3)]
    return [key for key in order if key not in p.locked].index((kind, a))


# ---------------------------------------------------------------------------------------------- trees


@dataclass
class TreePlan:
    """Which joints go on multibody links, and which of them are built from their other side."""

    joints: list[Joint]  # the joints as they are built (a flipped one is ``portable_joints.swapped``)
    flipped: set[int]  # indices built from side B
    allowed: set[int]  # indices that go on multibody links


def plan_trees(joints: list[Joint], ends: list[tuple[Any, Any] | None], dynamic: Any,
               fits: Any, swap_is_exact: Any, swapped: Any) -> TreePlan:
    """Orient every joint structure that is a tree from its root down, whatever side of each joint the file
    put its joint node on, and pick the structures that go on multibodies.

    ``ends[i]``: the Rapier bodies of joint i's sides A and B (None: ignored); ``dynamic(h)`` whether a body is
    dynamic; ``fits(joint, a, b)``: whether the joint, built with A = a and B = b, is native on a
    multibody link; ``swap_is_exact``/``swapped``: the exact side swap (``portable_joints``).

    A structure is the dynamic bodies linked by joints between two of them, plus its joints to fixed and
    kinematic bodies (each such joint its own anchor: the world, a static and a kinematic body are split per
    joint). It goes on multibodies when it is a tree with at most one anchor — rooted at the anchor, else
    (a free structure) at the body no joint hangs from side B of, else its first body — and every joint,
    oriented parent → child by a walk from the root (side A the parent; a joint given the other way round is
    swapped when the swap is exact), fits. A kinematic anchor roots it at a driven root (``driven_roots.py``).
    Loops, a second anchor and a joint that does not fit keep the
    whole structure on impulse joints (measured, an impulse joint on a multibody link placed away from
    coordinate 0 saw stale link state on the first step and threw a loop-closed chain apart).
    """
    out = list(joints)
    flipped: set[int] = set()
    allowed: set[int] = set()
    union: dict[Any, Any] = {}

    def find(h: Any) -> Any:
        while union.get(h, h) != h:
            h = union[h]
        return h

    for e in ends:
        if e is None:
            continue
        dyn = [h for h in e if dynamic(h)]
        for h in dyn:
            union.setdefault(h, h)
        if len(dyn) == 2 and find(dyn[0]) != find(dyn[1]):
            union[find(dyn[0])] = find(dyn[1])
    members: dict[Any, list[int]] = {}
    for i, e in enumerate(ends):
        if e is not None and any(dynamic(h) for h in e):
            members.setdefault(find(next(h for h in e if dynamic(h))), []).append(i)
    for indices in members.values():
        oriented = _orient(indices, [ends[i] for i in indices], dynamic)  # type: ignore[misc]
        if oriented is None:
            continue
        chosen: dict[int, tuple[Joint, bool]] = {}
        for i, flip in oriented.items():
            j = joints[i]
            if flip:
                if not swap_is_exact(j):
                    break
                j = swapped(j)
            a, b = ends[i][::-1] if flip else ends[i]  # type: ignore[index]
            if not fits(j, a, b):
                break
            chosen[i] = (j, flip)
        else:
            for i, (j, flip) in chosen.items():
                out[i] = j
                if flip:
                    flipped.add(i)
                allowed.add(i)
    return TreePlan(out, flipped, allowed)


def _orient(indices: list[int], ends: list[tuple[Any, Any]], dynamic: Any) -> dict[int, bool] | None:
    """{joint index: whether it must be flipped} for one structure, or None when it is no single-rooted tree."""
    end_of = dict(zip(indices, ends, strict=True))
    bodies: set[Any] = set()
    anchors: list[tuple[int, Any]] = []  # (joint index, its dynamic end)
    adjacent: dict[Any, list[tuple[int, Any]]] = {}
    for i, (a, b) in zip(indices, ends, strict=True):
        da, db = dynamic(a), dynamic(b)
        bodies.update(h for h in (a, b) if dynamic(h))
        if da and db:
            adjacent.setdefault(a, []).append((i, b))
            adjacent.setdefault(b, []).append((i, a))
        else:
            anchors.append((i, a if da else b))
    links = sum(len(v) for v in adjacent.values()) // 2
    if len(anchors) > 1 or links != len(bodies) - 1:
        return None  # a loop (through the world, or among the bodies)
    flips: dict[int, bool] = {}
    if anchors:
        i, root = anchors[0]
        flips[i] = dynamic(end_of[i][0])  # side A must be the anchor
    else:
        b_sides = {b for (a, b) in ends if dynamic(a) and dynamic(b)}
        free = [h for (a, b) in ends for h in (a, b) if h not in b_sides]
        root = free[0] if free else ends[0][0]
    seen, todo = {root}, [root]
    while todo:
        parent = todo.pop()
        for i, child in adjacent.get(parent, ()):
            if child in seen:
                continue
            seen.add(child)
            todo.append(child)
            flips[i] = end_of[i][0] != parent
    return flips if len(seen) == len(bodies) else None
