"""The joints of one MuJoCo body as one glTF joint: frame axes, limits and drives (see :mod:`.read`).

MuJoCo stacks a body's joints (each moves the body relative to the previous); glTF has one joint per body
pair whose frame names six axes. Hinge and slide axes that are parallel or perpendicular to each other and
hinges sharing one anchor map exactly onto one frame (the suite's planar walkers: slide x, slide z, hinge y);
otherwise the frame is the nearest orthonormal one and a note says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...gltf.transforms import matrix_to_quat
from ...model import JointDrive, JointLimit
from ..robot_scene import ball_limits, drive, pose_matrix

FREE, BALL, SLIDE, HINGE = 0, 1, 2, 3
_TOL = 1e-6


@dataclass
class Dof:
    """One hinge or slide of the body: frame axis index, sign of the MuJoCo axis on it, joint id."""

    joint: int
    kind: str  # "linear" or "angular"
    axis: int
    sign: float


@dataclass
class BodyJoint:
    """A body's joints as one glTF joint: ``frame`` (4×4 in the body frame), limits, drives, notes."""

    frame: np.ndarray
    limits: tuple[JointLimit, ...]
    dofs: list[Dof] = field(default_factory=list)
    drives: tuple[JointDrive, ...] = ()
    notes: list[str] = field(default_factory=list)
    ball: int | None = None  # the ball joint's id


def body_joint(model: Any, body: int, qref: np.ndarray) -> BodyJoint | None:
    """The glTF joint of ``body``'s MuJoCo joints (``None``: a free joint, no constraint)."""
    first, count = int(model.body_jntadr[body]), int(model.body_jntnum[body])
    ids = list(range(first, first + count))
    kinds = [int(model.jnt_type[j]) for j in ids]
    if FREE in kinds:
        return None
    if kinds == [BALL]:
        return _ball(model, ids[0])
    notes: list[str] = []
    if BALL in kinds:
        notes.append("a ball joint stacked with hinges or slides: only the hinges and slides are kept")
        ids = [j for j in ids if int(model.jnt_type[j]) != BALL]
    frame_rot, dofs = _frame(model, ids, notes)
    anchors = [np.asarray(model.jnt_pos[j], dtype=float) for j in ids if int(model.jnt_type[j]) == HINGE]
    anchor = anchors[0] if anchors else np.asarray(model.jnt_pos[ids[0]], dtype=float)
    if any(np.linalg.norm(a - anchor) > _TOL for a in anchors[1:]):
        notes.append("hinges at different anchors: combined at the first one's (approximate)")
    frame = pose_matrix(anchor, matrix_to_quat(frame_rot))
    return BodyJoint(frame=frame, limits=_limits(model, dofs, qref), dofs=dofs, notes=notes)


def _ball(model: Any, j: int) -> BodyJoint:
    frame = pose_matrix(np.asarray(model.jnt_pos[j], dtype=float), (0.0, 0.0, 0.0, 1.0))
    hi = float(model.jnt_range[j][1]) if model.jnt_limited[j] else math.inf
    return BodyJoint(frame=frame, limits=ball_limits(hi), ball=j)


def _frame(model: Any, ids: list[int], notes: list[str]) -> tuple[np.ndarray, list[Dof]]:
    """An orthonormal right-handed frame whose axes carry the joints' axes, and each joint's place on it."""
    axes: list[np.ndarray] = []
    for j in ids:
        a = np.asarray(model.jnt_axis[j], dtype=float)
        a = a / np.linalg.norm(a)
        if all(abs(abs(float(a @ e)) - 1.0) > _TOL for e in axes):
            axes.append(a)
    basis = _orthonormal(axes, notes)
    dofs = []
    seen: set[tuple[str, int]] = set()
    for j in ids:
        a = np.asarray(model.jnt_axis[j], dtype=float)
        a = a / np.linalg.norm(a)
        dots = basis.T @ a
        i = int(np.argmax(np.abs(dots)))
        kind = "linear" if int(model.jnt_type[j]) == SLIDE else "angular"
        if (kind, i) in seen:
            notes.append(f"two {kind} joints on one axis: only the first is kept")
            continue
        seen.add((kind, i))
        dofs.append(Dof(joint=j, kind=kind, axis=i, sign=1.0 if dots[i] > 0 else -1.0))
    if sum(d.kind == "angular" for d in dofs) > 1:
        notes.append(f"{sum(d.kind == 'angular' for d in dofs)} hinges on one body: one joint with as many free "
                     "angular axes, each limited by its own twist (MuJoCo applies them in sequence)")
    return basis, dofs


def _orthonormal(axes: list[np.ndarray], notes: list[str]) -> np.ndarray:
    """Columns e0, e1, e2: e0 = the first axis, then the others (made orthogonal, noted when they were not)."""
    cols: list[np.ndarray] = []
    for a in axes[:3]:
        v = a - sum(float(a @ c) * c for c in cols) if cols else a.copy()
        if np.linalg.norm(v - a) > _TOL:
            notes.append("joint axes that are not perpendicular: made perpendicular (approximate)")
        if np.linalg.norm(v) < _TOL:
            continue
        cols.append(v / np.linalg.norm(v))
    if len(axes) > 3:
        notes.append("more than three joint axes on one body: the first three are kept")
    if not cols:
        cols.append(np.array([1.0, 0.0, 0.0]))
    if len(cols) == 1:
        helper = np.array([0.0, 0.0, 1.0]) if abs(cols[0][2]) < 0.9 else np.array([0.0, 1.0, 0.0])
        y = np.cross(helper, cols[0])
        cols.append(y / np.linalg.norm(y))
    if len(cols) == 2:
        cols.append(np.cross(cols[0], cols[1]))
    m = np.column_stack(cols)
    if np.linalg.det(m) < 0:  # a left-handed third axis: flip it (its joint's sign follows)
        m[:, 2] = -m[:, 2]
    return m


def _limits(model: Any, dofs: list[Dof], qref: np.ndarray) -> tuple[JointLimit, ...]:
    """Locks on every axis no joint frees; ``range`` (minus the initial qpos, signed onto the frame axis) on the
    others."""
    free = {(d.kind, d.axis) for d in dofs}
    out = []
    for kind in ("linear", "angular"):
        locked = tuple(i for i in range(3) if (kind, i) not in free)
        if locked:
            out.append(JointLimit(**{f"{kind}_axes": locked}, min=0.0, max=0.0))  # type: ignore[arg-type]
    for d in dofs:
        if not model.jnt_limited[d.joint]:
            continue
        q0 = float(qref[model.jnt_qposadr[d.joint]])
        lo, hi = (float(v) - q0 for v in model.jnt_range[d.joint])
        lo, hi = (lo, hi) if d.sign > 0 else (-hi, -lo)
        out.append(JointLimit(**{f"{d.kind}_axes": (d.axis,)}, min=lo, max=hi))  # type: ignore[arg-type]
    return tuple(out)


# -- drives ------------------------------------------------------------------------------------------------
@dataclass
class Gains:
    """What acts on one joint coordinate q: τ = kp·(p − q) + kd·(v − q̇), |τ| ≤ max_force (sums merged)."""

    kp: float = 0.0
    kd: float = 0.0
    kp_target: float = 0.0  # kp·p, summed over the springs
    kd_target: float = 0.0  # kd·v, summed over the dampers
    max_force: float = math.inf
    sources: int = 0


def joint_gains(model: Any, ctrl: np.ndarray, note: Any) -> dict[int, Gains]:
    """Per joint id: its actuators (position, velocity, motor), its damping and its spring, in q's units."""
    gains: dict[int, Gains] = {}
    for j in range(model.njnt):
        if int(model.jnt_type[j]) not in (SLIDE, HINGE):
            continue
        dof = int(model.jnt_dofadr[j])
        g = gains.setdefault(j, Gains())
        if model.dof_damping[dof] > 0:
            g.kd += float(model.dof_damping[dof])
            g.sources += 1
        if model.jnt_stiffness[j] > 0:
            k = float(model.jnt_stiffness[j])
            g.kp += k
            g.kp_target += k * float(model.qpos_spring[model.jnt_qposadr[j]])
            g.sources += 1
    for a in range(model.nu):
        _actuator(model, a, float(ctrl[a]), gains, note)
    return {j: g for j, g in gains.items() if g.sources}


def _actuator(model: Any, a: int, ctrl: float, gains: dict[int, Gains], note: Any) -> None:
    import mujoco

    name = model.actuator(a).name or f"actuator{a}"
    pointer = f"//actuator/*[@name='{name}']"
    j = int(model.actuator_trnid[a][0])
    if int(model.actuator_trntype[a]) != int(mujoco.mjtTrn.mjTRN_JOINT) or j not in gains:
        note("MJCF-IN-4", pointer, "actuator on a tendon, site, body or ball/free joint: no glTF drive")
        return
    if int(model.actuator_dyntype[a]) != int(mujoco.mjtDyn.mjDYN_NONE):
        note("MJCF-IN-4", pointer, "actuator activation dynamics: dropped (the drive acts at once)")
    gear = float(model.actuator_gear[a][0])
    gain, bias = model.actuator_gainprm[a], model.actuator_biasprm[a]
    if int(model.actuator_gaintype[a]) != int(mujoco.mjtGain.mjGAIN_FIXED):
        note("MJCF-IN-4", pointer, "actuator gain that is not fixed: no glTF drive")
        return
    g = gains[j]
    g.sources += 1
    if model.actuator_ctrllimited[a]:
        ctrl = min(max(ctrl, float(model.actuator_ctrlrange[a][0])), float(model.actuator_ctrlrange[a][1]))
    kind = _kind(model, a, gain, bias)
    if kind == "position":  # τ = gear·kp·ctrl − kp·gear²·q − kv·gear²·q̇
        kp, kv = float(gain[0]), -float(bias[2])
        g.kp += kp * gear * gear
        g.kp_target += kp * gear * ctrl
        g.kd += kv * gear * gear
    elif kind == "velocity":  # τ = gear·kv·ctrl − kv·gear²·q̇
        kv = float(gain[0])
        g.kd += kv * gear * gear
        g.kd_target += kv * gear * ctrl
    elif kind == "motor":
        if ctrl != 0.0:
            note("MJCF-IN-4", pointer, f"motor with ctrl {ctrl:g}: an open-loop torque has no glTF drive "
                 "(written idle, with its torque limit)")
    else:
        note("MJCF-IN-4", pointer, "general actuator (gain/bias not of a position, velocity or motor "
             "actuator): written as an idle drive with its force limit")
    limit = _force_limit(model, a, gear, float(gain[0]), kind, note, pointer)
    passive = model.dof_damping[model.jnt_dofadr[j]] > 0 or model.jnt_stiffness[j] > 0
    if passive and math.isfinite(limit):
        note("MJCF-IN-4", pointer, "the joint's own spring/damping and this force-limited actuator make one glTF "
             f"drive: its limit {limit:g} now caps them too")
    g.max_force = min(g.max_force, limit)


def _kind(model: Any, a: int, gain: np.ndarray, bias: np.ndarray) -> str:
    import mujoco

    biastype = int(model.actuator_biastype[a])
    if biastype == int(mujoco.mjtBias.mjBIAS_NONE):
        return "motor"
    if biastype == int(mujoco.mjtBias.mjBIAS_AFFINE) and bias[0] == 0.0:
        if abs(bias[1] + gain[0]) <= 1e-12 * max(1.0, abs(gain[0])) and bias[2] <= 0:
            return "position"
        if bias[1] == 0.0 and abs(bias[2] + gain[0]) <= 1e-12 * max(1.0, abs(gain[0])):
            return "velocity"
    return "general"


def _force_limit(model: Any, a: int, gear: float, gain: float, kind: str, note: Any, pointer: str) -> float:
    """The largest joint force or torque the actuator can give: its force range (× gear), and for a motor
    its control range (× gain × gear)."""
    limit = math.inf
    if model.actuator_forcelimited[a]:
        lo, hi = (float(v) for v in model.actuator_forcerange[a])
        if lo != -hi:
            note("MJCF-IN-4", pointer, f"asymmetric force range [{lo:g}, {hi:g}]: the larger bound is the limit")
        limit = abs(gear) * max(abs(lo), abs(hi))
    if kind == "motor" and model.actuator_ctrllimited[a]:
        lo, hi = (float(v) for v in model.actuator_ctrlrange[a])
        limit = min(limit, abs(gear * gain) * max(abs(lo), abs(hi)))
    return limit


def dof_drives(model: Any, dofs: list[Dof], gains: dict[int, Gains], qref: np.ndarray,
               pointer: str) -> tuple[JointDrive, ...]:
    """One force drive per degree of freedom with gains, on its frame axis (targets in glTF coordinates:
    sign · (q − the initial q))."""
    out = []
    for d in dofs:
        g = gains.get(d.joint)
        if g is None:
            continue
        q0 = float(qref[model.jnt_qposadr[d.joint]])
        position = d.sign * (g.kp_target / g.kp - q0) if g.kp > 0 else None
        velocity = d.sign * g.kd_target / g.kd if g.kd > 0 else None
        out.append(drive(d.kind, d.axis, stiffness=g.kp, damping=g.kd, position=position,
                         velocity=velocity, max_force=g.max_force, pointer=pointer))
    return tuple(out)
