"""Model joints on Rapier impulse joints (DIGEST §11 "Joint frames", "Limit metrics", "Drives"; DESIGN §3).

``build_joints(rw, scene)`` turns every ``scene.joints`` entry into Rapier ``GenericJoint``s between the two
bodies (body 1 = ``body_a`` with ``local_frame1 = frame_a``, body 2 = ``body_b`` with ``frame_b``; a side
whose body is ``None`` is ``rw.ground``, its frame already in world space; a side on a node without a body
of its own is the ground too, its frame moved into world space; either is instead the fixed body of its
static partner colliders when ``rw.joint_anchor`` names one for the side's node, frame relative to it, so
the contact setting below reaches those colliders (JOINT-9)) and returns a ``JointDriver`` whose
``before_step(dt)`` the world calls before every step.

Hard limits (stiffness ∞) are Rapier rows; the KHR metric of each row is what is enforced:

- one axis: min = max = 0 ⇒ a locked axis; otherwise a per-axis Rapier limit (equal bounds ≠ 0 allowed;
  angular bounds clipped to [−π, π]; Rapier's angular measure is the signed twist, D-10).
- two or three linear axes (distance to a line / to a point): Rapier's coupled linear axes on a joint of
  their own. Rapier's coupled limit has only a maximum, so a minimum > 0 goes the "aimed" way (below).
- two angular axes (cone about the third axis): Rapier's coupled angular axes on a joint of their own.
- three angular axes (total rotation 2·acos(Re(q_A*·q_B))): Rapier has no such row. An "aimed" joint of its
  own: before each step its two frames are turned so that its X axis is the current rotation axis and its
  relative rotation is exactly that rotation about X; a 1-D ANG_X limit then bounds the total angle. Rows of
  joints without springs are turned together in NumPy, and only those within reach of their bound (a row far
  inside exerts nothing whichever way it points; ``_AimedBatch``).
- min = max = 0 on several axes of one kind fixes all of them: locked axes.

Soft limits (finite stiffness) and drives are springs on one DoF of frame B relative to frame A, applied
by this module as an impulse pair on the two bodies before each step — not Rapier's joint softness (it
softens every axis of the joint, DESIGN §3), and not Rapier motors: a motor row sees only its own body's
inertia about the centre of mass, not the pin that turns it about the anchor, so with a point-like bob on a
pin (measured here) a force-based velocity motor delivered ~5 % of its torque per step and a soft hinge
limit of k = 981 N·m/rad sagged 0.79 rad instead of τ/k = 0.01 rad. The impulse is the force
k·(x* − x) + c·(v* − v) times dt (x = the KHR metric, v = its rate over the last step), clamped to
|force| ≤ maxForce; a spring too stiff for symplectic Euler on that DoF (dt²·k/M + 2·dt·c/M > 2, M its
effective mass or inertia, ``_dof_mass``) is scaled down just enough to stay stable.

- soft limit: only while the metric is outside [min, max] (checked before the step), aimed at the violated
  bound with v* = 0: stiffness·violation + damping·rate, no damping inside the range (OMI text).
- drive: value = stiffness·(positionTarget − pos) + damping·(velocityTarget − vel); no positionTarget ⇒ no
  stiffness term; positionTarget without velocityTarget ⇒ velocityTarget 0 (D-11); neither ⇒ inert.
  ``acceleration`` mode multiplies stiffness and damping by M, so the motion is independent of the masses.

Several limits on the same axis (or several model joints on one body pair) spill into further Rapier joints
between the same bodies, so every row is enforced (overlapping ranges intersect). Every Rapier joint of a
model joint has contacts enabled exactly when ``enable_collision`` (JOINT-9, JOINT1-11).

Articulations (``articulations.py``): joints of a whole tree whose rows are all native on Rapier's
multibody links go there instead (limits, soft limits and drives on the joint coordinate with the
articulated inertia); ``_tree_joints`` picks them, ``JointDriver(articulate=False)`` turns it off. The
impulse machinery below serves every other joint.

Runtime edits: ``JointDriver.set(joint_index, field, value)`` with ``field`` a tuple of model names:

- ``("drives", i, name)``, name ∈ position_target, velocity_target, stiffness, damping, max_force
  (``None`` clears a target);
- ``("limits", i, name)``, name ∈ min, max, stiffness, damping (the joint's Rapier rows are rebuilt);
- ``("enable_collision",)`` with a bool.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import rapier3d as r

from ....dialects.common import portable_joints
from ....gltf.transforms import decompose, quat_multiply, quat_to_matrix
from ....model.joints import DriveMode, DriveType, Joint, JointDrive, JointLimit, Pose
from ....model.scene import PhysicsScene
from .. import articulations

Quat = tuple[float, float, float, float]  # xyzw

LIN = (r.JointAxis.LIN_X, r.JointAxis.LIN_Y, r.JointAxis.LIN_Z)
ANG = (r.JointAxis.ANG_X, r.JointAxis.ANG_Y, r.JointAxis.ANG_Z)
LIN_MASK = (r.JointAxesMask.LIN_X, r.JointAxesMask.LIN_Y, r.JointAxesMask.LIN_Z)
ANG_MASK = (r.JointAxesMask.ANG_X, r.JointAxesMask.ANG_Y, r.JointAxesMask.ANG_Z)
COUPLED_LIN, COUPLED_ANG = -1, -2  # markers in _Built.used: the part has that coupled group
HUGE = 1e30  # an unbounded linear side (Rapier works in f32)
IDENTITY: Quat = (0.0, 0.0, 0.0, 1.0)
X = np.array([1.0, 0.0, 0.0])

DRIVE_FIELDS = ("position_target", "velocity_target", "stiffness", "damping", "max_force")
LIMIT_FIELDS = ("min", "max", "stiffness", "damping")


# ---------------------------------------------------------------------------------------------- math


def _conj(q: Quat) -> Quat:
    return (-q[0], -q[1], -q[2], q[3])


def _canon(q: Quat) -> Quat:
    """Unit quaternion with w ≥ 0 (the short way round)."""
    n = math.sqrt(sum(c * c for c in q)) or 1.0
    s = (-1.0 if q[3] < 0 else 1.0) / n
    return (q[0] * s, q[1] * s, q[2] * s, q[3] * s)


def _axis_angle(axis: np.ndarray, angle: float) -> Quat:
    s = math.sin(angle / 2)
    return (float(axis[0] * s), float(axis[1] * s), float(axis[2] * s), math.cos(angle / 2))


def _x_to(u: np.ndarray) -> Quat:
    """A rotation taking +X to the unit vector ``u``."""
    c = float(X @ u)
    if c < -0.999999:
        return (0.0, 0.0, 1.0, 0.0)  # half turn about Z
    axis = np.cross(X, u)
    n = float(np.linalg.norm(axis))
    if n < 1e-12:
        return IDENTITY
    return _axis_angle(axis / n, math.atan2(n, c))


def _iso(pose: Pose) -> r.Isometry3:
    x, y, z, w = pose.rotation
    return r.Isometry3(r.Vec3(*pose.translation), r.Rotation3(w, x, y, z))


def _compose(a: Pose, b: Pose) -> Pose:
    """a ∘ b: pose b (given in a's frame) expressed in a's parent frame."""
    t = np.asarray(a.translation) + quat_to_matrix(a.rotation) @ np.asarray(b.translation)
    return Pose((float(t[0]), float(t[1]), float(t[2])), _canon(quat_multiply(a.rotation, b.rotation)))


def _vec(v: Any) -> np.ndarray:
    return np.array([v.x, v.y, v.z])


# ---------------------------------------------------------------------------------------------- state


@dataclass
class _Side:
    handle: Any
    frame: Pose  # in the Rapier body's local space


@dataclass
class _Aimed:
    """A hard limit on a metric Rapier lacks: a joint of its own, re-aimed before every step."""

    handle: Any
    kind: str  # "linear" | "angular"
    axes: tuple[int, ...]
    lo: float = -math.pi  # the bounds of its 1-D X row (lo ≤ −π for angular: no minimum)
    hi: float = math.pi


@dataclass
class _Spring:
    """A soft limit (active only outside [min, max]) or a drive, applied as impulses before each step."""

    kind: str  # "linear" | "angular"
    axes: tuple[int, ...]
    limit: JointLimit | None = None
    drive: JointDrive | None = None
    prev: float | None = None  # the metric before the previous step, for its rate


@dataclass
class _Built:
    joint: Joint
    a: _Side
    b: _Side
    parts: list[Any] = field(default_factory=list)  # Rapier joint handles; part 0 carries the locks
    used: list[set[int]] = field(default_factory=list)  # per part: Rapier axes with a limit, coupled groups
    dedicated: set[int] = field(default_factory=set)  # parts holding one coupled or aimed row
    aimed: list[_Aimed] = field(default_factory=list)
    pending_aimed: list[tuple[str, tuple[int, ...], float, float]] = field(default_factory=list)
    springs: list[_Spring] = field(default_factory=list)  # drives first (index = drive index), then limits
    pinned: bool = False  # all linear axes locked: rotations turn about the anchor
    rot_locked: bool = False  # all angular axes locked
    multibody: Any = None  # MultibodyJointHandle when the joint is a multibody link (articulations.py)
    plan: Any = None


# ---------------------------------------------------------------------------------------------- the driver


class JointDriver:
    """Owns the Rapier joints of every model joint; call ``before_step(dt)`` before each step."""

    def __init__(self, rw: Any, articulate: bool = True) -> None:
        self.rw = rw
        self.articulate = articulate  # trees of native joints go on multibodies (articulations.py)
        self._roots: dict[int, Any] = {}  # joint index → the fixed root body made for it (reused on rebuild)
        self.allowed: set[int] | None = None  # joints of whole trees (_tree_joints); None: any eligible one
        self.flipped: set[int] = set()  # joints built from their other side (_child_on_b)
        self.soft = articulations.SoftLimits()  # soft limits of multibody links
        self.built: dict[int, _Built] = {}  # model joint index → its Rapier rows and springs
        self.notes: list[str] = []
        self._needy: list[_Built] | None = None  # joints with per-step work; None: recompute
        self._bulk: _AimedBatch | None = None  # angular aimed rows of spring-free joints (vectorised)
        self._bulk_ids: set[int] = set()

    def handles(self, joint_index: int) -> list[Any]:
        """The Rapier joint handles of model joint ``joint_index`` (empty when it was ignored)."""
        b = self.built.get(joint_index)
        return list(b.parts) if b else []

    def frames_world(self, joint_index: int) -> tuple[Pose, Pose]:
        """World poses of frame A and frame B of a model joint."""
        b = self.built[joint_index]
        return _frame_world(self.rw, b.a), _frame_world(self.rw, b.b)

    def before_step(self, dt: float) -> None:
        self.soft.before_step(self.rw)
        if self._needy is None:  # joints whose rows are all Rapier's own need nothing per step
            needy = [b for b in self.built.values() if b.aimed or any(_live(s) for s in b.springs)]
            # Joints whose only per-step work is angular aimed rows are aimed together in NumPy.
            items = [(b, a) for b in needy if not any(_live(s) for s in b.springs)
                     for a in b.aimed if a.kind == "angular"]
            self._bulk = _AimedBatch(items) if items else None
            bulk = {id(b) for b, _ in items}
            self._needy = [b for b in needy if id(b) not in bulk
                           or any(a.kind != "angular" for a in b.aimed)]
            self._bulk_ids = bulk
        if self._bulk is not None:
            self._bulk.aim(self.rw)
        for b in self._needy:
            fa, fb = _frame_world(self.rw, b.a), _frame_world(self.rw, b.b)
            for a in b.aimed:
                if id(b) in self._bulk_ids and a.kind == "angular":
                    continue
                _aim(self.rw, b, a, fa, fb)
            for s in b.springs:
                _spring_step(self.rw, b, s, fa, fb, dt)

    def set(self, joint_index: int, field_path: tuple[Any, ...], value: Any) -> None:
        """Change a drive or limit value of a model joint at run time (names: module docstring).

        Raises ``KeyError`` for a joint that is not simulated, ``ValueError`` for an unknown field.
        """
        b = self.built.get(joint_index)
        if b is None:
            raise KeyError(f"joint {joint_index} is not simulated")
        if joint_index in self.flipped:  # built from its other side: the file's values seen from there
            field_path, value = _seen_from_b(b.joint, field_path, value)
        kind = field_path[0]
        if kind == "drives":
            i, name = int(field_path[1]), str(field_path[2])
            if name not in DRIVE_FIELDS:
                raise ValueError(f"unknown drive field {name!r} (one of {', '.join(DRIVE_FIELDS)})")
            drives = list(b.joint.drives)
            drives[i] = dataclasses.replace(drives[i], **{name: None if value is None else float(value)})
            b.joint = dataclasses.replace(b.joint, drives=tuple(drives))
            if b.multibody is not None:
                articulations.set_drive(self.rw, b.multibody, b.plan, b.joint, i)
                _wake(self.rw, b)
                return
            if not _live(b.springs[i]):
                b.springs[i].prev = None  # was not measured while inert (see _live)
            b.springs[i].drive = drives[i]
            self._needy = None
            _wake(self.rw, b)
        elif kind == "limits":
            i, name = int(field_path[1]), str(field_path[2])
            if name not in LIMIT_FIELDS:
                raise ValueError(f"unknown limit field {name!r} (one of {', '.join(LIMIT_FIELDS)})")
            limits = list(b.joint.limits)
            limits[i] = dataclasses.replace(limits[i], **{name: float(value)})
            self._rebuild(joint_index, dataclasses.replace(b.joint, limits=tuple(limits)))
        elif kind == "enable_collision":
            self._rebuild(joint_index, dataclasses.replace(b.joint, enable_collision=bool(value)))
        else:
            raise ValueError(f"unknown joint field {field_path!r}")

    def state(self) -> Any:
        """What a snapshot must keep beside the engine's bytes: the aimed rows' per-step bookkeeping."""
        return self._bulk.state() if self._bulk is not None else None

    def restored(self, state: Any = None) -> None:
        """The world was restored from a snapshot: soft-limit motors are re-set from the restored state, and the
        aimed rows' bookkeeping is the snapshot's (``state``), so the run repeats bit for bit."""
        self.soft.invalidate()
        if self._bulk is not None:
            self._bulk.restore(state)

    def velocity_set(self, body: Any, angular: bool) -> None:
        """A body's linear or ``angular`` velocity was set (``World.set``): when it is a multibody link, turn
        that into its joint's coordinate rates (least squares over the link's own degrees of freedom, the rest
        of the articulation unchanged), since Rapier derives link velocities from the coordinates."""
        b = next((x for x in self.built.values() if x.multibody is not None and x.b.handle == body), None)
        if b is not None:
            articulations.set_link_velocity(self.rw, b.multibody, body, angular)

    def _rebuild(self, joint_index: int, joint: Joint) -> None:
        old = self.built.pop(joint_index)
        for h in old.parts:
            self.rw.impulse_joints.remove(h, True)
        if old.multibody is not None:
            self.rw.multibody_joints.remove(old.multibody, True)
            self.soft.remove(old.multibody)
        self._add(joint_index, joint)

    def _add(self, index: int, joint: Joint) -> None:
        self._needy = None
        if joint.body_a is None and joint.body_b is None:
            self.notes.append(f"joint {index}: neither side has a body; ignored")
            return
        a = _side(self.rw, joint.body_a, joint.frame_a, joint.node if joint.node >= 0 else None)
        b = _side(self.rw, joint.body_b, joint.frame_b, joint.connected_node)
        if a.handle == b.handle:
            self.notes.append(f"joint {index}: both sides are the same (or static) body; ignored")
            return
        built = _Built(joint, a, b)
        self.built[index] = built
        if self.articulate and (self.allowed is None or index in self.allowed) and self._articulate(index, built):
            return
        _add_part(self.rw, built)
        for drive in joint.drives:
            built.springs.append(_drive_spring(drive, self.notes, index))
        for lim in joint.limits:
            for kind, axes in _split(lim):
                _add_limit(self.rw, built, kind, axes, lim, self.notes, index)
        for kind, axes, lo, hi in built.pending_aimed:  # after the rest: they may share part 0
            _add_aimed(self.rw, built, kind, axes, lo, hi)
        locked = _data(self.rw, built.parts[0]).locked_axes
        built.pinned = locked.contains(r.JointAxesMask.LIN_AXES)
        built.rot_locked = locked.contains(r.JointAxesMask.ANG_AXES)


    def _articulate(self, index: int, built: _Built) -> bool:
        """Put the joint on a multibody link when it is native there (``articulations.py``); else False."""
        p = articulations.plan(built.joint)
        if p is None:
            return False
        rw, parent, child = self.rw, built.a.handle, built.b.handle
        if parent == rw.ground:  # the world: a fixed root of its own (the ground's frame is the world's)
            if not articulations.attachable(rw, None, child):
                return False
            if index not in self._roots:
                self._roots[index] = articulations.new_root(rw)
            parent = self._roots[index]
        elif not articulations.attachable(rw, parent, child):
            return False
        coords = _link_coords(rw, built, p)
        if coords is None:
            return False
        handle = rw.multibody_joints.insert(
            parent, child, articulations.build(p, built.joint, _iso(built.a.frame), _iso(built.b.frame)), True)
        if handle is None:
            return False
        articulations.place(rw, handle, coords)
        built.multibody, built.plan = handle, p
        self.soft.add(handle, p)
        return True


def _link_coords(rw: Any, b: _Built, p: Any) -> list[float] | None:
    """The joint coordinates (free axes, Rapier's order) of B relative to A now; None when the multibody
    could not start from this state: a body moving (a link starts from the generalized velocity 0) or a
    ball joint turned (its coordinate is a rotation, not a metric)."""
    for side in (b.a, b.b):
        rb = rw.bodies[side.handle]
        if rb.is_dynamic and (any(v != 0.0 for v in rb.linvel.to_tuple())
                              or any(v != 0.0 for v in rb.angvel.to_tuple())):
            return None
    fa, fb = _frame_world(rw, b.a), _frame_world(rw, b.b)
    free = [(k, a) for k in ("linear", "angular") for a in range(3) if (k, a) not in p.locked]
    if sum(k == "angular" for k, _ in free) == 3:
        q = _canon(quat_multiply(_conj(fa.rotation), fb.rotation))
        if 2.0 * math.atan2(math.sqrt(q[0] ** 2 + q[1] ** 2 + q[2] ** 2), q[3]) > 1e-9:
            return None
        return [_measure(k, (a,), fa, fb)[0] if k == "linear" else 0.0 for k, a in free]
    return [_measure(k, (a,), fa, fb)[0] for k, a in free]


def _tree_joints(rw: Any, joints: list[Joint]) -> set[int]:
    """Indices of the joints that may go on multibodies: those of every connected structure (bodies linked
    by joints; the world and fixed bodies split per joint) whose joints are all native on a multibody link
    and whose parent links (side A) form a forest. A structure with a loop or with any other joint stays on
    impulse joints as a whole: measured, an impulse joint on a multibody link placed away from coordinate 0
    saw stale link state on the first step (rapier3d 0.36) and threw a loop-closed chain apart."""
    parent_of: dict[Any, Any] = {}
    ok: dict[int, bool] = {}
    union: dict[Any, Any] = {}

    def find(h: Any) -> Any:
        while union.get(h, h) != h:
            h = union[h]
        return h

    sides: dict[int, tuple[Any, Any]] = {}
    for index, joint in enumerate(joints):
        if joint.body_a is None and joint.body_b is None:
            continue
        a = _side(rw, joint.body_a, joint.frame_a, joint.node if joint.node >= 0 else None)
        b = _side(rw, joint.body_b, joint.frame_b, joint.connected_node)
        if a.handle == b.handle:
            continue
        dyn = [h for h in (a.handle, b.handle) if rw.bodies[h].is_dynamic]
        for h in dyn:
            union.setdefault(h, h)
        if len(dyn) == 2:
            union[find(dyn[0])] = find(dyn[1])
        p = articulations.plan(joint)
        good = (p is not None and rw.bodies[b.handle].is_dynamic and not rw.bodies[a.handle].is_kinematic
                and b.handle not in parent_of and _link_coords(rw, _Built(joint, a, b), p) is not None)
        if good:
            parent_of[b.handle] = a.handle if rw.bodies[a.handle].is_dynamic else None
        ok[index] = good
        sides[index] = (a.handle, b.handle)
    bad_roots = {find(h) for i, good in ok.items() if not good
                 for h in sides[i] if rw.bodies[h].is_dynamic}
    for start in parent_of:  # a cycle of parents is a loop
        seen, h = set(), start
        while h is not None and h not in seen:
            seen.add(h)
            h = parent_of.get(h)
        if h is not None:
            bad_roots.add(find(start))
    return {i for i, good in ok.items() if good and find(sides[i][1]) not in bad_roots}


def build_joints(rw: Any, scene: PhysicsScene, articulate: bool = True) -> JointDriver:
    """Create the Rapier joints of every model joint of ``scene`` in ``rw`` (see the module docstring)."""
    driver = JointDriver(rw, articulate)
    joints = list(scene.joints)
    if articulate:
        joints = [_child_on_b(rw, j) for j in joints]
        driver.flipped = {i for i, (given, used) in enumerate(zip(scene.joints, joints, strict=True))
                          if given is not used}
        driver.allowed = _tree_joints(rw, joints)
    for index, joint in enumerate(joints):
        driver._add(index, joint)
    return driver


def _seen_from_b(joint: Joint, field_path: tuple[Any, ...], value: Any) -> tuple[tuple[Any, ...], Any]:
    """A run-time change of a flipped joint's value, as the flipped joint holds it: a one-axis range's min
    and max exchange and change sign, drive targets change sign (``portable_joints.swapped``)."""
    kind, name = field_path[0], str(field_path[-1])
    if kind == "limits" and name in ("min", "max"):
        limit = joint.limits[int(field_path[1])]
        if len(limit.linear_axes) + len(limit.angular_axes) == 1:
            other = "max" if name == "min" else "min"
            return (*field_path[:-1], other), 0.0 - float(value)
    if kind == "drives" and name in ("position_target", "velocity_target") and value is not None:
        return field_path, 0.0 - float(value)
    return field_path, value


def _child_on_b(rw: Any, j: Joint) -> Joint:
    """The joint seen from its moving side when side A moves and side B is the world or a static body, and the
    two views are the same constraint (the swap DIGEST §10 allows, ``portable_joints``): the articulation
    planner takes the connected side (B) as the moving child, and writers put a world-anchored joint on its
    moving side (issue 12)."""
    def moving(node: int | None) -> bool:
        handle = rw.handle_of.get(node) if node is not None else None
        return handle is not None and rw.bodies[handle].is_dynamic

    def fixed(node: int | None) -> bool:
        handle = rw.handle_of.get(node) if node is not None else None
        return handle is None or not (rw.bodies[handle].is_dynamic or rw.bodies[handle].is_kinematic)

    if moving(j.body_a) and fixed(j.body_b) and portable_joints.swap_is_exact(j):
        return portable_joints.swapped(j)
    return j


# ---------------------------------------------------------------------------------------------- building


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


def _data(rw: Any, handle: Any) -> Any:
    return rw.impulse_joints.get(handle).data  # a live view: edits persist


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


def _drive_spring(drive: JointDrive, notes: list[str], index: int) -> _Spring:
    kind = "linear" if drive.type == DriveType.LINEAR else "angular"
    ok = drive.type in (DriveType.LINEAR, DriveType.ANGULAR) and drive.mode in (
        DriveMode.FORCE, DriveMode.ACCELERATION) and 0 <= drive.axis <= 2
    if not ok:
        notes.append(f"joint {index}: drive {drive.type}/{drive.mode}/{drive.axis} not supported; ignored")
        return _Spring(kind, (), drive=None)
    return _Spring(kind, (drive.axis,), drive=drive)


# ---------------------------------------------------------------------------------------------- per step


def _body_pose(rw: Any, handle: Any) -> Pose:
    iso = rw.bodies[handle].position
    t, q = iso.translation, iso.rotation
    return Pose((t.x, t.y, t.z), (q.i, q.j, q.k, q.w))


def _frame_world(rw: Any, side: _Side) -> Pose:
    return _compose(_body_pose(rw, side.handle), side.frame)


def _measure(kind: str, axes: tuple[int, ...], fa: Pose, fb: Pose) -> tuple[float, np.ndarray]:
    """The KHR limit metric (DIGEST §11 table) and the world direction along which it grows."""
    ra = quat_to_matrix(fa.rotation)
    q_rel = _canon(quat_multiply(_conj(fa.rotation), fb.rotation))
    if kind == "linear":
        d = ra.T @ (np.asarray(fb.translation) - np.asarray(fa.translation))  # in frame A
        if len(axes) == 1:
            return float(d[axes[0]]), ra[:, axes[0]]
        if len(axes) == 2:
            d[3 - sum(axes)] = 0.0
        dist = float(np.linalg.norm(d))
        u = d / dist if dist > 1e-9 else np.eye(3)[axes[0]]
        return dist, ra @ u
    if len(axes) == 1:  # signed twist about e_i (D-10)
        return 2.0 * math.atan2(q_rel[axes[0]], q_rel[3]), ra[:, axes[0]]
    if len(axes) == 3:  # total rotation
        imag = np.asarray(q_rel[:3])
        n = float(np.linalg.norm(imag))
        u = imag / n if n > 1e-12 else X
        return 2.0 * math.atan2(n, q_rel[3]), ra @ u
    k = 3 - sum(axes)  # cone about e_k
    ek = np.eye(3)[k]
    bk = quat_to_matrix(q_rel) @ ek  # frame B's k axis seen from frame A
    axis = np.cross(ek, bk)
    n = float(np.linalg.norm(axis))
    u = axis / n if n > 1e-12 else np.eye(3)[(k + 1) % 3]
    return math.atan2(n, float(ek @ bk)), ra @ u


def _aim(rw: Any, b: _Built, a: _Aimed, fa: Pose, fb: Pose) -> None:
    """Turn an aimed joint's frames so that its X axis carries the metric (see the module docstring)."""
    metric, world_dir = _measure(a.kind, a.axes, fa, fb)
    u = quat_to_matrix(fa.rotation).T @ world_dir  # in frame A
    aim = _x_to(u)
    frame1 = Pose(b.a.frame.translation, _canon(quat_multiply(b.a.frame.rotation, aim)))
    frame2 = b.b.frame
    if a.kind == "angular":
        # (frame1)⁻¹·frame2 = aim⁻¹·q_rel·fix = rot_X(metric) exactly: ANG_X measures the total angle.
        q_rel = _canon(quat_multiply(_conj(fa.rotation), fb.rotation))
        fix = quat_multiply(quat_multiply(_conj(q_rel), aim), _axis_angle(X, metric))
        frame2 = Pose(b.b.frame.translation, _canon(quat_multiply(b.b.frame.rotation, fix)))
    data = _data(rw, a.handle)
    data.local_frame1 = _iso(frame1)
    data.local_frame2 = _iso(frame2)


def _qmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise Hamilton products of xyzw quaternions (N, 4)."""
    ax, ay, az, aw = a.T
    bx, by, bz, bw = b.T
    return np.stack([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz], axis=1)


def _qcanon(q: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(q, axis=1, keepdims=True)
    n[n == 0] = 1.0
    return q * (np.where(q[:, 3:] < 0, -1.0, 1.0) / n)


def _rotations(rw: Any, handles: list[Any]) -> np.ndarray:
    """Current xyzw rotations (N, 4) of bodies, read in bulk where the world offers it."""
    read = getattr(rw, "_read", None)
    if read is not None:
        return read(handles)[:, :4].astype(np.float64)
    return np.array([_body_pose(rw, h).rotation for h in handles], dtype=np.float64)


class _AimedBatch:
    """The angular (total-rotation) aimed rows of many joints, re-aimed together (:func:`_aim`, vectorised).

    A row's limit is one-sided: Rapier gives it impulse bounds [0, 0] (no effect at all) while its X angle —
    measured with the frames as last aimed — is inside the bounds; and an aimed row's X angle *is* the total
    rotation. So a row needs turning only near its bound: re-aiming a row far inside changes no force, only
    the basis the pin's locked axes are solved in. Each step turns just the rows whose true total rotation or
    whose current (stale) X angle is within ``2 × last step's rotation + QUIET_MARGIN`` of the bound, so neither
    can reach it during the step; the rest keep their frames (two Rapier frame writes per row are the cost:
    ~18 µs each in the binding). Rows with a minimum > 0 are turned every step. The first step after a
    (re)build turns every row.
    """

    QUIET_MARGIN = 0.02  # rad

    def __init__(self, items: list[tuple[_Built, _Aimed]]) -> None:
        self.items = items
        self.fa_rot = np.array([b.a.frame.rotation for b, _ in items], dtype=np.float64)
        self.fb_rot = np.array([b.b.frame.rotation for b, _ in items], dtype=np.float64)
        handles = [b.a.handle for b, _ in items] + [b.b.handle for b, _ in items]
        unique = list(dict.fromkeys(handles))  # each body read once per step
        row = {h: i for i, h in enumerate(unique)}
        self.handles = unique
        self.row_a = np.array([row[b.a.handle] for b, _ in items], dtype=np.int64)
        self.row_b = np.array([row[b.b.handle] for b, _ in items], dtype=np.int64)
        self.hi = np.array([a.hi for _, a in items], dtype=np.float64)
        self.always = np.array([a.lo > -math.pi for _, a in items], dtype=bool)  # a real minimum
        self.frame1: np.ndarray | None = None  # frame rotations as last written (None: write every row)
        self.frame2: np.ndarray | None = None
        self.prev: np.ndarray | None = None  # each joint's relative rotation at the last step
        self.templates: np.ndarray | None = None  # each joint's bytes, (N, L) uint8 (see _write)
        self.fast = np.zeros(len(items), dtype=bool)  # rows written as bytes
        self.views: list[Any] | None = None  # each joint's live ImpulseJoint view
        self.rows: np.ndarray | None = None  # each side body's row in the world's pose cache (−1: none)
        self.others = np.zeros(0, dtype=np.int64)

    def state(self) -> tuple[np.ndarray | None, ...]:
        return tuple(None if x is None else x.copy() for x in (self.frame1, self.frame2, self.prev))

    def restore(self, state: Any) -> None:
        fits = state is not None and all(x is None or len(x) == len(self.items) for x in state)
        self.frame1, self.frame2, self.prev = state if fits else (None, None, None)  # else: turn every row
        self.frame1, self.frame2, self.prev = self.state()  # copies: the snapshot may be restored again
        self.views = None  # they were views into the world before the restore

    def _rotations(self, rw: Any) -> np.ndarray:
        """Every side's body rotation (N, 4). From the world's pose cache (``read_poses``: nothing to read
        when the poses were read after the last step, else only the bodies Rapier moved) where it has them,
        so the joints and a trace share one read; bodies outside it (fixed ones) are read directly."""
        read_poses, row_of = getattr(rw, "read_poses", None), getattr(rw, "_row_of", None)
        if read_poses is None or row_of is None:
            return _rotations(rw, self.handles)
        if self.rows is None:
            self.rows = np.array([row_of.get(h, -1) for h in self.handles], dtype=np.int64)
            self.others = np.flatnonzero(self.rows < 0)
        out = np.empty((len(self.handles), 4))
        cached = self.rows >= 0
        out[cached] = read_poses()[self.rows[cached], :4]
        if len(self.others):
            out[self.others] = _rotations(rw, [self.handles[i] for i in self.others.tolist()])
        return out

    def aim(self, rw: Any) -> None:
        rot = self._rotations(rw)
        body_a, body_b = rot[self.row_a], rot[self.row_b]
        qa, qb = _qmul(body_a, self.fa_rot), _qmul(body_b, self.fb_rot)
        q_rel = _qcanon(_qmul(qa * _CONJ, qb))
        n = np.linalg.norm(q_rel[:, :3], axis=1)
        metric = 2.0 * np.arctan2(n, q_rel[:, 3])
        touch = self._near_bound(body_a, body_b, q_rel, metric)
        self.prev = q_rel
        if not touch.any():
            return
        rows = np.flatnonzero(touch)
        q_rel, n, metric = q_rel[rows], n[rows], metric[rows]
        u = np.where((n > 1e-12)[:, None], q_rel[:, :3] / np.where(n > 1e-12, n, 1.0)[:, None], X)  # in frame A
        aim = _x_to_many(u)
        frame1 = _qcanon(_qmul(self.fa_rot[rows], aim))
        half = metric / 2
        twist = np.stack([np.sin(half), np.zeros_like(half), np.zeros_like(half), np.cos(half)], axis=1)
        fix = _qmul(_qmul(q_rel * _CONJ, aim), twist)
        frame2 = _qcanon(_qmul(self.fb_rot[rows], fix))
        if self.frame1 is None or self.frame2 is None:
            self.frame1, self.frame2 = np.empty_like(self.fa_rot), np.empty_like(self.fb_rot)
        self.frame1[rows], self.frame2[rows] = frame1, frame2
        self._write(rw, rows, frame1, frame2)

    def _write(self, rw: Any, rows: np.ndarray, frame1: np.ndarray, frame2: np.ndarray) -> None:
        """Set the frame rotations of ``rows``: each joint's bytes with its two rotations replaced (all rows
        patched at once in NumPy), assigned whole to its live view (≈ 3 µs a joint), where the template check
        (:func:`_frame_template`) passed; else the setters."""
        if self.templates is None:
            self._make_templates(rw)
        fast = self.fast[rows]
        if fast.any():
            picked = rows[fast]
            blobs = self.templates[picked]  # a copy: (k, L) bytes
            blobs[:, _ROT1] = frame1[fast].astype("<f4").view(np.uint8)  # Rapier stores f32
            blobs[:, _ROT2] = frame2[fast].astype("<f4").view(np.uint8)
            width, data = blobs.shape[1], blobs.tobytes()
            if self.views is None:  # live views of the joints (a restore replaces the world: new views)
                joints = rw.impulse_joints
                self.views = [joints.get(a.handle) for _, a in self.items]
            views, from_bytes = self.views, r.GenericJoint.from_bytes
            for k, i in enumerate(picked.tolist()):
                views[i].data = from_bytes(data[k * width:(k + 1) * width])
        for k in np.flatnonzero(~fast).tolist():
            b, a = self.items[int(rows[k])]
            r1, r2 = frame1[k].tolist(), frame2[k].tolist()
            data_ = _data(rw, a.handle)
            data_.local_frame1 = _iso(Pose(b.a.frame.translation, (r1[0], r1[1], r1[2], r1[3])))
            data_.local_frame2 = _iso(Pose(b.b.frame.translation, (r2[0], r2[1], r2[2], r2[3])))

    def _make_templates(self, rw: Any) -> None:
        """Every joint's bytes as one (N, L) array; joints whose layout check fails (or of another length)
        are marked for the setters."""
        blobs = [_frame_template(rw, b, a) for b, a in self.items]
        width = max((len(x) for x in blobs if x is not None), default=0)
        self.fast = np.array([x is not None and len(x) == width for x in blobs], dtype=bool)
        self.templates = np.zeros((len(blobs), width), dtype=np.uint8)
        for i, x in enumerate(blobs):
            if self.fast[i]:
                self.templates[i] = np.frombuffer(x, dtype=np.uint8)

    def _near_bound(self, body_a: np.ndarray, body_b: np.ndarray, q_rel: np.ndarray,
                    metric: np.ndarray) -> np.ndarray:
        """Rows to turn this step (see the class docstring)."""
        if self.frame1 is None or self.frame2 is None or self.prev is None:
            return np.ones(len(self.items), dtype=bool)
        step = _qmul(q_rel, self.prev * _CONJ)  # the relative rotation over the last step
        moved = 2.0 * np.arctan2(np.linalg.norm(step[:, :3], axis=1), np.abs(step[:, 3]))
        margin = 2.0 * moved + self.QUIET_MARGIN
        stale = _qmul(_qmul(body_a, self.frame1) * _CONJ, _qmul(body_b, self.frame2))  # what Rapier measures
        sx = np.abs(stale[:, 0]) / np.maximum(np.linalg.norm(stale, axis=1), 1e-300)
        stale_angle = 2.0 * np.arcsin(np.minimum(sx, 1.0))
        return self.always | (metric + margin >= self.hi) | (stale_angle + margin >= self.hi)


_CONJ = np.array([-1.0, -1.0, -1.0, 1.0])
# GenericJoint.to_bytes(): 8 header bytes, then local_frame1 and local_frame2 as 8 f32 each (rotation x y z w,
# translation x y z, one more word). Checked on every joint before it is used (_frame_template).
_ROT1, _ROT2 = slice(8, 24), slice(40, 56)
_FRAMES = slice(8, 72)
_FRAME_WORDS = [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14]  # f32 words of _FRAMES holding the two frames


_PROBE = (np.array([0.0, 0.6, 0.0, 0.8], dtype="<f4"), np.array([0.28, 0.0, 0.96, 0.0], dtype="<f4"))


def _frame_template(rw: Any, b: _Built, a: _Aimed) -> bytes | None:
    """The joint's bytes when its frames sit where ``_ROT1``/``_ROT2`` say: their words read back as the
    joint's frames, and two probe rotations patched in there come back from ``from_bytes`` as its two frame
    rotations, the rest of the joint unchanged; ``None``: use the frame setters."""
    data = _data(rw, a.handle)
    blob = data.to_bytes()
    f1, f2 = data.local_frame1, data.local_frame2
    expect = np.array([*f1.rotation.to_tuple(), *f1.translation.to_tuple(),
                       *f2.rotation.to_tuple(), *f2.translation.to_tuple()], dtype="<f4")
    if len(blob) < _FRAMES.stop or not np.array_equal(np.frombuffer(blob[_FRAMES], dtype="<f4")[_FRAME_WORDS],
                                                      expect):
        return None
    probe = bytearray(blob)
    probe[_ROT1], probe[_ROT2] = _PROBE[0].tobytes(), _PROBE[1].tobytes()
    back = r.GenericJoint.from_bytes(bytes(probe))
    if (not np.array_equal(np.array(back.local_frame1.rotation.to_tuple(), dtype="<f4"), _PROBE[0])
            or not np.array_equal(np.array(back.local_frame2.rotation.to_tuple(), dtype="<f4"), _PROBE[1])
            or back.to_bytes() != bytes(probe)):
        return None
    return blob


def _x_to_many(u: np.ndarray) -> np.ndarray:
    """:func:`_x_to` for rows of unit vectors (N, 3)."""
    c = u[:, 0]
    axis = np.stack([np.zeros_like(c), -u[:, 2], u[:, 1]], axis=1)  # X × u
    n = np.linalg.norm(axis, axis=1)
    safe = np.where(n < 1e-12, 1.0, n)
    half = np.arctan2(n, c) / 2
    q = np.concatenate([axis / safe[:, None] * np.sin(half)[:, None], np.cos(half)[:, None]], axis=1)
    q[n < 1e-12] = IDENTITY
    q[c < -0.999999] = (0.0, 0.0, 1.0, 0.0)  # half turn about Z
    return q


def _rate(rw: Any, b: _Built, kind: str, direction: np.ndarray, point: np.ndarray) -> float:
    """d(metric)/dt along ``direction``: frame B's velocity relative to frame A at ``point``."""
    rel = np.zeros(3)
    for side, sign in ((b.b, 1.0), (b.a, -1.0)):
        rb = rw.bodies[side.handle]
        if kind == "angular":
            rel += sign * _vec(rb.angvel)
        else:
            rel += sign * _vec(rb.velocity_at_point(r.Vec3(*point)))
    return float(direction @ rel)


def _spring_step(rw: Any, b: _Built, s: _Spring, fa: Pose, fb: Pose, dt: float) -> None:
    x, direction = _measure(s.kind, s.axes, fa, fb)
    prev, s.prev = s.prev, x
    target = _spring_target(s, x)
    if target is None:
        return
    x_t, v_t, k, c, max_force, accel = target
    point = np.asarray(fb.translation)
    # The metric's own rate over the last step: Rapier's stored end-of-step velocity includes that step's
    # gravity even when the body is held at rest, which would bias the damping term.
    fresh = prev is None or dt <= 0
    v = _rate(rw, b, s.kind, direction, point) if fresh else _wrap(s, x - prev) / dt  # type: ignore[operator]
    mass = _dof_mass(rw, b, s.kind, direction, point)
    if mass <= 0.0:
        return
    if accel:
        k, c = k * mass, c * mass
    err = _wrap(s, x_t - x)
    # Explicit force over the step, exact while the spring is stable for this DoF mass; a stiffer one is
    # scaled down just enough to stay stable (symplectic Euler needs dt²k/M + 2·dt·c/M < 4).
    stiffness_ratio = (dt * dt * k + 2.0 * dt * c) / mass
    impulse = dt * (k * err + c * (v_t - v)) / max(1.0, stiffness_ratio / 2.0)
    cap = max_force * dt
    impulse = max(-cap, min(cap, impulse))
    if impulse != 0.0:
        _apply(rw, b, s.kind, direction * impulse, point)


def _live(s: _Spring) -> bool:
    """Whether a spring can exert anything (a limit spring always may; a drive needs a target and a gain).

    An inert drive is not measured per step, so it keeps no rate: one made live by ``set`` starts fresh (its
    ``prev`` is cleared there), as at the first step."""
    if s.limit is not None:
        return True
    d = s.drive
    if d is None or (d.position_target is None and d.velocity_target is None):
        return False
    k = d.stiffness if d.position_target is not None else 0.0
    return k > 0.0 or d.damping > 0.0


def _wrap(s: _Spring, delta: float) -> float:
    """An angle difference of a signed twist the short way round; other metrics as they are."""
    return math.remainder(delta, 2 * math.pi) if s.kind == "angular" and len(s.axes) == 1 else delta


def _spring_target(s: _Spring, x: float) -> tuple[float, float, float, float, float, bool] | None:
    """(x*, v*, stiffness, damping, max force, acceleration mode), or None when it exerts nothing now."""
    if s.limit is not None:
        lim = s.limit
        if lim.min <= x <= lim.max:
            return None  # inside the range: no force, no damping
        bound = lim.max if x > lim.max else lim.min
        return bound, 0.0, max(lim.stiffness, 0.0), max(lim.damping, 0.0), math.inf, False
    d = s.drive
    if d is None or (d.position_target is None and d.velocity_target is None):
        return None
    k = max(d.stiffness, 0.0) if d.position_target is not None else 0.0  # no target ⇒ no spring term
    c = max(d.damping, 0.0)
    if k == 0.0 and c == 0.0:
        return None
    x_t = d.position_target if d.position_target is not None else 0.0
    v_t = d.velocity_target if d.velocity_target is not None else 0.0  # D-11
    max_force = d.max_force if d.max_force >= 0 else math.inf  # D-15: negative ⇒ unlimited
    return x_t, v_t, k, c, max_force, d.mode == DriveMode.ACCELERATION


def _apply(rw: Any, b: _Built, kind: str, impulse: np.ndarray, point: np.ndarray) -> None:
    """+impulse on body B, −impulse on body A (linear at ``point``, else as a torque impulse)."""
    for side, sign in ((b.b, 1.0), (b.a, -1.0)):
        rb = rw.bodies[side.handle]
        if not rb.is_dynamic:
            continue
        j = r.Vec3(*(sign * impulse))
        if kind == "angular":
            rb.apply_torque_impulse(j, True)
        else:
            rb.apply_impulse_at_point(j, r.Vec3(*point), True)


def _dof_mass(rw: Any, b: _Built, kind: str, e: np.ndarray, point: np.ndarray) -> float:
    """Effective mass (linear) or inertia (angular) of the joint's DoF along world direction ``e``.

    Per dynamic body: an angular DoF of a pinned joint turns the body about the anchor (parallel axis:
    eᵀ·I·e + m·|r×e|²), otherwise about its centre (1/(eᵀ·I⁻¹·e)); a linear DoF moves the mass m when the
    joint locks rotation, otherwise 1/(1/m + (r×e)ᵀ·I⁻¹·(r×e)). The two bodies act in series:
    1/M = 1/M_A + 1/M_B; a fixed or kinematic body adds nothing.
    """
    inv = 0.0
    for side in (b.a, b.b):
        rb = rw.bodies[side.handle]
        if not rb.is_dynamic or rb.mass <= 0:
            continue
        inertia, inv_inertia = _inertia_world(rb)
        rvec = point - _vec(rb.center_of_mass)
        if kind == "angular":
            if b.pinned:
                rxe = np.cross(rvec, e)
                inv += 1.0 / max(float(e @ inertia @ e) + rb.mass * float(rxe @ rxe), 1e-12)
            else:
                inv += float(e @ inv_inertia @ e)
        elif b.rot_locked:
            inv += 1.0 / rb.mass
        else:
            rxe = np.cross(rvec, e)
            inv += 1.0 / rb.mass + float(rxe @ inv_inertia @ rxe)
    return 1.0 / inv if inv > 0 else 0.0


def _inertia_world(rb: Any) -> tuple[np.ndarray, np.ndarray]:
    """World inertia tensor and its inverse (a blocked axis: infinite inertia, zero inverse)."""
    mp = rb.mass_properties
    s = _vec(mp.inv_principal_inertia_sqrt)
    frame, rot = mp.principal_inertia_local_frame, rb.rotation
    m = quat_to_matrix(quat_multiply((rot.i, rot.j, rot.k, rot.w), (frame.i, frame.j, frame.k, frame.w)))
    inv_d = s * s
    d = np.where(inv_d > 0, 1.0 / np.where(inv_d > 0, inv_d, 1.0), 1e30)
    return m @ np.diag(d) @ m.T, m @ np.diag(inv_d) @ m.T


def _wake(rw: Any, b: _Built) -> None:
    for side in (b.a, b.b):
        rb = rw.bodies[side.handle]
        if rb.is_dynamic:
            rb.wake_up(True)
