"""Soft limits and drives of impulse joints: springs applied from Python.

Soft limits (finite stiffness) and drives are springs on one DoF of frame B relative to frame A, applied
as an impulse pair on the two bodies before each step — not Rapier's joint softness (it softens every
axis of the joint, docs/semantics.md), and not Rapier motors: a motor row sees only its own body's inertia about
the centre of mass, not the pin that turns it about the anchor, so with a point-like bob on a pin
(measured here) a force-based velocity motor delivered ~5 % of its torque per step and a soft hinge limit
of k = 981 N·m/rad sagged 0.79 rad instead of τ/k = 0.01 rad. The impulse is the force
k·(x* − x) + c·(v* − v) times dt (x = the KHR metric, v = its rate over the last step), clamped to
|force| ≤ maxForce; a spring too stiff for symplectic Euler on that DoF (dt²·k/M + 2·dt·c/M > 2, M its
effective mass or inertia, ``_dof_mass``) is scaled down just enough to stay stable.

- soft limit: only while the metric is outside [min, max] (checked before the step), aimed at the violated
  bound with v* = 0: stiffness·violation + damping·rate, no damping inside the range (OMI text).
- drive: value = stiffness·(positionTarget − pos) + damping·(velocityTarget − vel); no positionTarget ⇒ no
  stiffness term; positionTarget without velocityTarget ⇒ velocityTarget 0 (D-11); neither ⇒ inert.
  ``acceleration`` mode multiplies stiffness and damping by M, so the motion is independent of the masses.

Joints on multibody links (``multibody.py``) have native motors instead.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import rapier3d as r

from ....gltf.transforms import quat_multiply, quat_to_matrix
from ....model.joints import DriveMode, DriveType, JointDrive, Pose
from .common import _Built, _measure, _Spring, _vec


def _drive_spring(drive: JointDrive, notes: list[str], index: int) -> _Spring:
    kind = "linear" if drive.type == DriveType.LINEAR else "angular"
    ok = drive.type in (DriveType.LINEAR, DriveType.ANGULAR) and drive.mode in (
        DriveMode.FORCE, DriveMode.ACCELERATION) and 0 <= drive.axis <= 2
    if not ok:
        notes.append(f"joint {index}: drive {drive.type}/{drive.mode}/{drive.axis} not supported; ignored")
        return _Spring(kind, (), drive=None)
    return _Spring(kind, (drive.axis,), drive=drive)


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
