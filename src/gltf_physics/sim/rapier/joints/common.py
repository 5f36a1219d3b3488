"""What the joint modules share: the per-joint records, Rapier's axes, pose math, and the KHR limit metric.

A model joint becomes a :class:`_Built`: its two sides (:class:`_Side`: a Rapier body and the joint frame in that
body's local space), the Rapier impulse joints ("parts") carrying its rows, its aimed rows (:class:`_Aimed`,
``aimed.py``) and its springs (:class:`_Spring`, ``springs.py``), or the multibody link it became
(``multibody.py``). :func:`_measure` is the KHR metric of a limit or drive.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import rapier3d as r

from ....gltf.transforms import quat_multiply, quat_to_matrix
from ....model.joints import Joint, JointDrive, JointLimit, Pose

Quat = tuple[float, float, float, float]  # xyzw
LIN = (r.JointAxis.LIN_X, r.JointAxis.LIN_Y, r.JointAxis.LIN_Z)
ANG = (r.JointAxis.ANG_X, r.JointAxis.ANG_Y, r.JointAxis.ANG_Z)
LIN_MASK = (r.JointAxesMask.LIN_X, r.JointAxesMask.LIN_Y, r.JointAxesMask.LIN_Z)
ANG_MASK = (r.JointAxesMask.ANG_X, r.JointAxesMask.ANG_Y, r.JointAxesMask.ANG_Z)
COUPLED_LIN, COUPLED_ANG = -1, -2  # markers in _Built.used: the part has that coupled group
HUGE = 1e30  # an unbounded linear side (Rapier works in f32)
IDENTITY: Quat = (0.0, 0.0, 0.0, 1.0)
X = np.array([1.0, 0.0, 0.0])


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


def _data(rw: Any, handle: Any) -> Any:
    return rw.impulse_joints.get(handle).data  # a live view: edits persist


def _body_pose(rw: Any, handle: Any) -> Pose:
    iso = rw.bodies[handle].position
    t, q = iso.translation, iso.rotation
    return Pose((t.x, t.y, t.z), (q.i, q.j, q.k, q.w))


def _frame_world(rw: Any, side: _Side) -> Pose:
    return _compose(_body_pose(rw, side.handle), side.frame)


def _measure(kind: str, axes: tuple[int, ...], fa: Pose, fb: Pose) -> tuple[float, np.ndarray]:
    """The KHR limit metric (docs/semantics.md table) and the world direction along which it grows."""
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
