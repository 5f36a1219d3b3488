"""Soft limits and drives of impulse joints: springs applied from Python.

Soft limits (finite stiffness) and drives are springs on one DoF of frame B relative to frame A, applied
as an impulse pair on the two bodies before each step — not Rapier's joint softness (it softens every
axis of the joint, docs/semantics.md), and not Rapier motors: a motor row sees only its own body's inertia about
the centre of mass, not the pin that turns it about the anchor, so with a point-like bob on a pin
(measured here) a force-based velocity motor delivered ~5 % of its torque per step and a soft hinge limit
of k = 981 N·m/rad sagged 0.79 rad instead of τ/k = 0.01 rad. Measured again on fixed and kinematic bases
(single joints, 60 Hz, default solver iterations): a force-based position motor as a soft limit sags 13 % (k = 100)
to 79 % (k = 981) too far on a 0.5 m box and 20–45× on a point bob, and as a position drive under gravity holds
40 % off its static balance; an acceleration-based velocity motor scales by the row's inertia about the centre
of mass (a pinned box: a quarter of the rate). Only unloaded cases match (a position drive's period; a velocity
drive as a force-based motor with damping c·M, within 0.3 % of ω*(1 − e^(−t))). The impulse is the force
k·(x* − x) + c·(v* − v) times dt (x = the KHR metric, v = its rate over the last step), clamped to
|force| ≤ maxForce; a spring too stiff for symplectic Euler on that DoF (dt²·k/M + 2·dt·c/M > 2, M its
effective mass or inertia, ``_dof_mass``) is scaled down just enough to stay stable.

- soft limit: only while the metric is outside [min, max] (checked before the step), aimed at the violated
  bound with v* = 0: stiffness·violation + damping·rate, no damping inside the range (OMI text).
- drive: value = stiffness·(positionTarget − pos) + damping·(velocityTarget − vel); no positionTarget ⇒ no
  stiffness term; positionTarget without velocityTarget ⇒ velocityTarget 0 (D-11); neither ⇒ inert.
  ``acceleration`` mode multiplies stiffness and damping by M, so the motion is independent of the masses.

Every live spring of the world is stepped in one NumPy pass (:class:`_SpringBatch`): the bodies' poses read in
bulk (the world's pose cache), every metric, rate, effective mass and impulse computed at once, the impulses
summed per body and applied with one call per body and kind. The springs' last metrics (their rates) go into
snapshots. Joints on multibody links (``multibody.py``) have native motors instead.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ....model.joints import DriveMode, DriveType, JointDrive
from .aimed import _CONJ, _qcanon, _qmul
from .common import _Built, _Spring


def _drive_spring(drive: JointDrive, notes: list[str], index: int) -> _Spring:
    kind = "linear" if drive.type == DriveType.LINEAR else "angular"
    ok = drive.type in (DriveType.LINEAR, DriveType.ANGULAR) and drive.mode in (
        DriveMode.FORCE, DriveMode.ACCELERATION) and 0 <= drive.axis <= 2
    if not ok:
        notes.append(f"joint {index}: drive {drive.type}/{drive.mode}/{drive.axis} not supported; ignored")
        return _Spring(kind, (), drive=None)
    return _Spring(kind, (drive.axis,), drive=drive)


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




_LIN1, _LINN, _ANG1, _ANG3, _CONE = range(5)  # metric of a spring: kind and axis count (common._measure)
_EYE = np.eye(3)


def _code(s: _Spring) -> tuple[int, int]:
    """(metric code, its axis): the axis of a 1-axis metric, the cone axis k of a 2-axis angular one."""
    if s.kind == "linear":
        return (_LIN1, s.axes[0]) if len(s.axes) == 1 else (_LINN, s.axes[0])
    if len(s.axes) == 1:
        return _ANG1, s.axes[0]
    return (_ANG3, 0) if len(s.axes) == 3 else (_CONE, 3 - sum(s.axes))


def _qmat(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (N, 3, 3) of xyzw quaternions (N, 4), normalised first."""
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    x, y, z, w = q.T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], axis=1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], axis=1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=1)], axis=1)


def _unit(v: np.ndarray, eps: float, fallback: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(|v|, v/|v|) row-wise, ``fallback`` rows where |v| ≤ eps."""
    n = np.linalg.norm(v, axis=1)
    ok = n > eps
    return n, np.where(ok[:, None], v / np.where(ok, n, 1.0)[:, None], fallback)


class _BodyData:
    """Per-body data of the springs' bodies, read in bulk: poses every step; the mass data (dynamic, mass,
    local centre of mass, principal inertia frame and inverse inertia) only when the world or a body's
    motion changed (``motion_edits``: mass and type edits)."""

    def __init__(self, handles: list[Any]) -> None:
        self.handles = handles
        self.key: tuple[Any, Any] | None = None
        self.objects: list[Any] = []
        self.rows: np.ndarray | None = None  # each body's row in the world's pose cache (−1: none)

    def refresh(self, rw: Any) -> None:
        key = (getattr(rw, "world", None), getattr(rw, "motion_edits", None))
        if self.key is not None and key[0] is not None and key[1] is not None and key == self.key:
            return
        self.key = key
        bodies = rw.bodies
        self.objects = [bodies[h] for h in self.handles]  # live views (a restored world: new ones)
        mps = [rb.mass_properties for rb in self.objects]
        self.dynamic = np.array([rb.is_dynamic for rb in self.objects], dtype=bool)
        self.mass = np.array([rb.mass for rb in self.objects], dtype=np.float64)
        self.local_com = np.array([mp.local_com.to_tuple() for mp in mps], dtype=np.float64).reshape(-1, 3)
        frames = [mp.principal_inertia_local_frame for mp in mps]
        self.frame = np.array([(f.i, f.j, f.k, f.w) for f in frames], dtype=np.float64).reshape(-1, 4)
        s = np.array([mp.inv_principal_inertia_sqrt.to_tuple() for mp in mps], dtype=np.float64).reshape(-1, 3)
        self.inv_d = s * s
        self.d = np.where(self.inv_d > 0, 1.0 / np.where(self.inv_d > 0, self.inv_d, 1.0), 1e30)  # blocked: ∞

    def poses(self, rw: Any) -> np.ndarray:
        """(B, 7) [qx, qy, qz, qw, tx, ty, tz]: from the world's pose cache where it has the body (one read
        shared with the aimed rows and a trace), the rest (fixed bodies) directly."""
        read_poses, row_of = getattr(rw, "read_poses", None), getattr(rw, "_row_of", None)
        if read_poses is None or row_of is None:
            return np.array([(*rb.rotation.to_tuple(), *rb.translation.to_tuple()) for rb in self.objects],
                            dtype=np.float64).reshape(-1, 7)
        if self.rows is None:
            self.rows = np.array([row_of.get(h, -1) for h in self.handles], dtype=np.int64)
            self.others = np.flatnonzero(self.rows < 0)
        out = np.empty((len(self.handles), 7))
        cached = self.rows >= 0
        out[cached] = read_poses()[self.rows[cached]]
        for i in self.others.tolist():
            rb = self.objects[i]
            out[i] = (*rb.rotation.to_tuple(), *rb.translation.to_tuple())
        return out

    def velocities(self) -> tuple[np.ndarray, np.ndarray]:
        """(linear, angular) velocities (B, 3): only for a spring's first step, when it has no rate yet."""
        lin = np.array([rb.linvel.to_tuple() for rb in self.objects], dtype=np.float64).reshape(-1, 3)
        ang = np.array([rb.angvel.to_tuple() for rb in self.objects], dtype=np.float64).reshape(-1, 3)
        return lin, ang


class _SpringBatch:
    """Every live spring of the impulse joints, stepped in one NumPy pass (module docstring): the bodies' poses
    read in bulk, every metric, rate, effective mass and impulse computed at once, and the impulses summed per
    body into one linear and one angular impulse each (Rapier's impulse at a point is exactly the impulse plus
    the torque impulse (point − centre of mass) × impulse)."""

    def __init__(self, items: list[tuple[_Built, _Spring]]) -> None:
        self.items = items
        handles = list(dict.fromkeys([b.a.handle for b, _ in items] + [b.b.handle for b, _ in items]))
        row = {h: i for i, h in enumerate(handles)}
        self.bodies = _BodyData(handles)
        self.row_a = np.array([row[b.a.handle] for b, _ in items], dtype=np.int64)
        self.row_b = np.array([row[b.b.handle] for b, _ in items], dtype=np.int64)
        self.fa_t = np.array([b.a.frame.translation for b, _ in items], dtype=np.float64)
        self.fa_q = np.array([b.a.frame.rotation for b, _ in items], dtype=np.float64)
        self.fb_t = np.array([b.b.frame.translation for b, _ in items], dtype=np.float64)
        self.fb_q = np.array([b.b.frame.rotation for b, _ in items], dtype=np.float64)
        codes = [_code(s) for _, s in items]
        code = np.array([c for c, _ in codes], dtype=np.int64)
        self.axis = np.array([a for _, a in codes], dtype=np.int64)
        self.groups = [(c, np.flatnonzero(code == c)) for c in range(5) if (code == c).any()]
        self.angular = np.array([s.kind == "angular" for _, s in items], dtype=bool)
        self.wrap = (code == _ANG1)  # signed twists wrap the short way round (_wrap)
        self.mask = np.array([[a in s.axes for a in range(3)] for _, s in items], dtype=np.float64)
        self.pinned = np.array([b.pinned for b, _ in items], dtype=bool)
        self.rot_locked = np.array([b.rot_locked for b, _ in items], dtype=bool)
        self._targets(items)
        self.prev = np.array([math.nan if s.prev is None else s.prev for _, s in items], dtype=np.float64)

    def _targets(self, items: list[tuple[_Built, _Spring]]) -> None:
        """Per spring: a limit's range, or a drive's target, and the gains (``_spring_target``)."""
        n = len(items)
        self.is_limit = np.zeros(n, dtype=bool)
        self.lo, self.hi = np.full(n, -math.inf), np.full(n, math.inf)
        self.x_t, self.v_t, self.k, self.c = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
        self.max_force, self.accel = np.full(n, math.inf), np.zeros(n, dtype=bool)
        for i, (_, s) in enumerate(items):
            if s.limit is not None:
                lim = s.limit
                self.is_limit[i], self.lo[i], self.hi[i] = True, lim.min, lim.max
                self.k[i], self.c[i] = max(lim.stiffness, 0.0), max(lim.damping, 0.0)
                continue
            target = _spring_target(s, 0.0)  # a live drive: its target does not depend on the metric
            if target is not None:
                self.x_t[i], self.v_t[i], self.k[i], self.c[i], self.max_force[i], self.accel[i] = target

    def store(self) -> None:
        """Write each spring's last metric back to its record (the batch is about to be rebuilt)."""
        for (_, s), p in zip(self.items, self.prev.tolist(), strict=True):
            s.prev = None if math.isnan(p) else p

    def step(self, rw: Any, dt: float) -> None:
        """Measure every spring and apply its impulse for the coming step of ``dt`` seconds."""
        bd = self.bodies
        bd.refresh(rw)
        pose = bd.poses(rw)
        body_q, body_t = pose[:, :4], pose[:, 4:]
        body_r = _qmat(body_q)
        com = body_t + np.einsum("bij,bj->bi", body_r, bd.local_com)
        ra_body, rb_body = body_r[self.row_a], body_r[self.row_b]
        qa = _qmul(body_q[self.row_a], self.fa_q)
        qb = _qmul(body_q[self.row_b], self.fb_q)
        ta = body_t[self.row_a] + np.einsum("nij,nj->ni", ra_body, self.fa_t)
        point = body_t[self.row_b] + np.einsum("nij,nj->ni", rb_body, self.fb_t)  # frame B's origin
        ra = _qmat(qa)
        x, direction = self._measure(ra, qa, qb, point - ta)
        prev, self.prev = self.prev, x
        v = self._rates(bd, com, x, prev, direction, point, dt)
        mass = self._dof_mass(bd, body_q, com, direction, point)
        impulse = self._impulses(x, v, mass, dt)
        self._apply(bd, com, direction * impulse[:, None], point, impulse != 0.0)

    def _measure(self, ra: np.ndarray, qa: np.ndarray, qb: np.ndarray,
                 delta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every spring's KHR metric and the world direction along which it grows (``common._measure``)."""
        n = len(self.items)
        x, u = np.zeros(n), np.zeros((n, 3))
        q_rel = _qcanon(_qmul(qa * _CONJ, qb))
        for code, idx in self.groups:
            axis = self.axis[idx]
            if code == _LIN1:
                d = np.einsum("nji,nj->ni", ra[idx], delta[idx])  # in frame A
                x[idx], u[idx] = d[np.arange(len(idx)), axis], _EYE[axis]
            elif code == _LINN:
                d = np.einsum("nji,nj->ni", ra[idx], delta[idx]) * self.mask[idx]
                x[idx], u[idx] = _unit(d, 1e-9, _EYE[axis])
            elif code == _ANG1:  # signed twist about e_i (D-10)
                x[idx], u[idx] = 2.0 * np.arctan2(q_rel[idx, axis], q_rel[idx, 3]), _EYE[axis]
            elif code == _ANG3:  # total rotation
                norm, u[idx] = _unit(q_rel[idx, :3], 1e-12, _EYE[0])
                x[idx] = 2.0 * np.arctan2(norm, q_rel[idx, 3])
            else:  # cone about e_k: frame B's k axis seen from frame A
                bk = _qmat(q_rel[idx])[np.arange(len(idx)), :, axis]
                norm, u[idx] = _unit(np.cross(_EYE[axis], bk), 1e-12, _EYE[(axis + 1) % 3])
                x[idx] = np.arctan2(norm, bk[np.arange(len(idx)), axis])
        return x, np.einsum("nij,nj->ni", ra, u)

    def _wrapped(self, delta: np.ndarray) -> np.ndarray:
        """``_wrap`` row-wise: twist differences the short way round (round half to even, as math.remainder)."""
        turn = 2 * math.pi
        return np.where(self.wrap, delta - turn * np.round(delta / turn), delta)

    def _rates(self, bd: _BodyData, com: np.ndarray, x: np.ndarray, prev: np.ndarray, direction: np.ndarray,
               point: np.ndarray, dt: float) -> np.ndarray:
        """d(metric)/dt: over the last step (Rapier's stored end-of-step velocity includes that step's gravity
        even when the body is held at rest, which would bias the damping term); from the bodies' velocities at
        a spring's first step."""
        fresh = np.isnan(prev) if dt > 0 else np.ones(len(x), dtype=bool)
        v = self._wrapped(x - np.where(fresh, x, prev)) / (dt if dt > 0 else 1.0)
        if fresh.any():
            lin, ang = bd.velocities()
            rel = np.zeros((len(x), 3))
            for rows, sign in ((self.row_b, 1.0), (self.row_a, -1.0)):
                at_point = lin[rows] + np.cross(ang[rows], point - com[rows])
                rel += sign * np.where(self.angular[:, None], ang[rows], at_point)
            v = np.where(fresh, np.einsum("ni,ni->n", direction, rel), v)
        return v

    def _dof_mass(self, bd: _BodyData, body_q: np.ndarray, com: np.ndarray, e: np.ndarray,
                  point: np.ndarray) -> np.ndarray:
        """Effective mass (linear) or inertia (angular) of each spring's DoF along world direction ``e``.

        Per dynamic body: an angular DoF of a pinned joint turns the body about the anchor (parallel axis:
        eᵀ·I·e + m·|r×e|²), otherwise about its centre (1/(eᵀ·I⁻¹·e)); a linear DoF moves the mass m when the
        joint locks rotation, otherwise 1/(1/m + (r×e)ᵀ·I⁻¹·(r×e)). The two bodies act in series:
        1/M = 1/M_A + 1/M_B; a fixed or kinematic body adds nothing.
        """
        frame = _qmat(_qmul(body_q, bd.frame))  # world axes of the principal inertia (B, 3, 3), as columns
        inv = np.zeros(len(e))
        for rows in (self.row_a, self.row_b):
            m = bd.mass[rows]
            live = bd.dynamic[rows] & (m > 0)
            safe_m = np.where(live, m, 1.0)
            rxe = np.cross(point - com[rows], e)
            # Quadratic forms in the principal frame: vᵀ·I·v = Σ d_j·(Fᵀv)_j², vᵀ·I⁻¹·v = Σ (1/d_j)·(Fᵀv)_j².
            e_p = (e[:, None, :] @ frame[rows])[:, 0, :]
            r_p = (rxe[:, None, :] @ frame[rows])[:, 0, :]
            d, inv_d = bd.d[rows], bd.inv_d[rows]
            pinned_turn = 1.0 / np.maximum((d * e_p * e_p).sum(axis=1) + safe_m * (rxe * rxe).sum(axis=1), 1e-12)
            free_turn = (inv_d * e_p * e_p).sum(axis=1)
            slide = 1.0 / safe_m + np.where(self.rot_locked, 0.0, (inv_d * r_p * r_p).sum(axis=1))
            term = np.where(self.angular, np.where(self.pinned, pinned_turn, free_turn), slide)
            inv += np.where(live, term, 0.0)
        return np.where(inv > 0, 1.0 / np.where(inv > 0, inv, 1.0), 0.0)

    def _impulses(self, x: np.ndarray, v: np.ndarray, mass: np.ndarray, dt: float) -> np.ndarray:
        """Each spring's impulse along its direction (0 where it exerts nothing now; ``_spring_target``)."""
        outside = (x < self.lo) | (x > self.hi)
        active = (~self.is_limit | outside) & (mass > 0)
        x_t = np.where(self.is_limit, np.where(x > self.hi, self.hi, self.lo), self.x_t)
        scale = np.where(self.accel, mass, 1.0)
        k, c = self.k * scale, self.c * scale
        err = self._wrapped(x_t - x)
        # Explicit force over the step, exact while the spring is stable for this DoF mass; a stiffer one is
        # scaled down just enough to stay stable (symplectic Euler needs dt²k/M + 2·dt·c/M < 4).
        safe_mass = np.where(mass > 0, mass, 1.0)
        ratio = (dt * dt * k + 2.0 * dt * c) / safe_mass
        impulse = dt * (k * err + c * (self.v_t - v)) / np.maximum(1.0, ratio / 2.0)
        cap = np.where(np.isinf(self.max_force), math.inf, self.max_force * dt)
        return np.where(active, np.clip(impulse, -cap, cap), 0.0)

    def _apply(self, bd: _BodyData, com: np.ndarray, impulse: np.ndarray, point: np.ndarray,
               nonzero: np.ndarray) -> None:
        """+impulse on each body B, −impulse on each body A (linear at ``point``, else a torque impulse), summed
        per dynamic body and applied with one call per body and kind (the binding has no batch call)."""
        if not nonzero.any():
            return
        nb = len(bd.handles)
        lin, ang, touched = np.zeros((nb, 3)), np.zeros((nb, 3)), np.zeros(nb, dtype=bool)
        linear = ~self.angular
        for rows, sign in ((self.row_b, 1.0), (self.row_a, -1.0)):
            sel = nonzero & bd.dynamic[rows]
            j = sign * impulse
            lin_sel = sel & linear
            np.add.at(lin, rows[lin_sel], j[lin_sel])
            torque = np.where(linear[:, None], np.cross(point - com[rows], j), j)
            np.add.at(ang, rows[sel], torque[sel])
            touched[rows[sel]] = True
        has_lin = touched & (lin != 0).any(axis=1)
        has_ang = touched & ((ang != 0).any(axis=1) | ~has_lin)  # a touched body is woken even if its sum is 0
        objects = bd.objects
        # Tuples built in bulk, one call per body and kind: the binding reads a tuple fastest (measured: 0.15 µs
        # a call against 0.30 for a list and 0.43 for a Vec3) and has no batch call.
        idx = np.flatnonzero(has_lin).tolist()
        for rb, v in zip([objects[i] for i in idx], map(tuple, lin[idx].tolist()), strict=True):
            rb.apply_impulse(v, True)
        idx = np.flatnonzero(has_ang).tolist()
        for rb, v in zip([objects[i] for i in idx], map(tuple, ang[idx].tolist()), strict=True):
            rb.apply_torque_impulse(v, True)
