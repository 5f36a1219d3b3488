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
from collections import deque
from itertools import repeat
from typing import Any

import numpy as np

from ....model.joints import DriveMode, DriveType, JointDrive
from .aimed import _CONJ
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
_CONJ_T = _CONJ[:, None]  # conjugation of (4, N) quaternion columns
_PINNED_TURN, _FREE_TURN, _SLIDE = range(3)  # how a DoF moves its body (_SpringBatch._dof_mass)


def _code(s: _Spring) -> tuple[int, int]:
    """(metric code, its axis): the axis of a 1-axis metric, the cone axis k of a 2-axis angular one."""
    if s.kind == "linear":
        return (_LIN1, s.axes[0]) if len(s.axes) == 1 else (_LINN, s.axes[0])
    if len(s.axes) == 1:
        return _ANG1, s.axes[0]
    return (_ANG3, 0) if len(s.axes) == 3 else (_CONE, 3 - sum(s.axes))


# The batch works on columns: a vector per row (3, N), a quaternion (4, N), a matrix (3, 3, N). NumPy's cost
# here is per call, not per element (N ~ 2000), and batched (1, 3) @ (3, 3) products or einsum over 3-vectors
# are slow, so every product below is a few whole-array operations on contiguous columns, in the same arithmetic
# as the row-wise forms they replace. Columns are gathered with ``take`` (indexing the last axis with an array
# gives a strided result that makes every later operation several times slower).

def _qmul_t(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton products of xyzw quaternion columns (4, N) (``aimed._qmul``, transposed)."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.stack([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz])


def _qcanon_t(q: np.ndarray) -> np.ndarray:
    """Unit quaternion columns with w ≥ 0 (``aimed._qcanon``, transposed)."""
    n = np.sqrt((q * q).sum(axis=0))
    n[n == 0] = 1.0
    return q * (np.where(q[3] < 0, -1.0, 1.0) / n)


def _qmat_t(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (3, 3, N) of xyzw quaternion columns (4, N), normalised first."""
    x, y, z, w = q / np.sqrt((q * q).sum(axis=0))
    xx, yy, zz, xy, xz, yz, xw, yw, zw = x * x, y * y, z * z, x * y, x * z, y * z, x * w, y * w, z * w
    out = np.empty((3, 3, q.shape[1]))
    out[0, 0], out[0, 1], out[0, 2] = 1 - 2 * (yy + zz), 2 * (xy - zw), 2 * (xz + yw)
    out[1, 0], out[1, 1], out[1, 2] = 2 * (xy + zw), 1 - 2 * (xx + zz), 2 * (yz - xw)
    out[2, 0], out[2, 1], out[2, 2] = 2 * (xz - yw), 2 * (yz + xw), 1 - 2 * (xx + yy)
    return out


def _mv(m: np.ndarray, v: np.ndarray) -> np.ndarray:
    """m·v per column: matrices (3, 3, N) times vectors (3, N)."""
    return m[:, 0] * v[0] + m[:, 1] * v[1] + m[:, 2] * v[2]


def _mtv(m: np.ndarray, v: np.ndarray) -> np.ndarray:
    """mᵀ·v per column: matrices (3, 3, N) transposed times vectors (3, N)."""
    return m[0] * v[0] + m[1] * v[1] + m[2] * v[2]


def _cross_t(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a × b per column (3, N) (the products of ``np.cross``)."""
    return np.stack([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _unit_t(v: np.ndarray, eps: float, fallback: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(|v|, v/|v|) per column (3, N), the ``fallback`` column (3, 1) or columns where |v| ≤ eps."""
    n = np.sqrt((v * v).sum(axis=0))
    ok = n > eps
    return n, np.where(ok, v / np.where(ok, n, 1.0), fallback)


class _BodyData:
    """Per-body data of the springs' bodies, read in bulk: poses every step; the mass data (dynamic, mass,
    local centre of mass, principal inertia frame and inverse inertia, as columns) only when the world or a
    body's motion changed (``motion_edits``: mass and type edits). ``version`` counts those re-reads, so the
    batch re-plans what it derives from them."""

    def __init__(self, handles: list[Any]) -> None:
        self.handles = handles
        self.key: tuple[Any, Any] | None = None
        self.version = 0
        self.objects: list[Any] = []
        self.rows: np.ndarray | None = None  # each body's row in the world's pose cache (−1: none)

    def refresh(self, rw: Any) -> None:
        key = (getattr(rw, "world", None), getattr(rw, "motion_edits", None))
        if self.key is not None and key[0] is not None and key[1] is not None and key == self.key:
            return
        self.key = key
        self.version += 1
        bodies = rw.bodies
        self.objects = [bodies[h] for h in self.handles]  # live views (a restored world: new ones)
        mps = [rb.mass_properties for rb in self.objects]
        self.dynamic = np.array([rb.is_dynamic for rb in self.objects], dtype=bool)
        self.mass = np.array([rb.mass for rb in self.objects], dtype=np.float64)
        self.live = self.dynamic & (self.mass > 0)  # the bodies a spring's impulse moves
        local_com = np.array([mp.local_com.to_tuple() for mp in mps], dtype=np.float64).reshape(-1, 3)
        self.local_com = np.ascontiguousarray(local_com.T)
        frames = [mp.principal_inertia_local_frame for mp in mps]
        frame = np.array([(f.i, f.j, f.k, f.w) for f in frames], dtype=np.float64).reshape(-1, 4)
        self.frame = np.ascontiguousarray(frame.T)
        # Principal axes along the body's own (boxes, spheres): the world principal frame is the body's rotation
        # itself (the product with the identity is exact), so it is not computed twice.
        self.frame_is_body = bool((frame == (0.0, 0.0, 0.0, 1.0)).all())
        s = np.array([mp.inv_principal_inertia_sqrt.to_tuple() for mp in mps], dtype=np.float64).reshape(-1, 3)
        self.inv_d = np.ascontiguousarray((s * s).T)
        self.d = np.where(self.inv_d > 0, 1.0 / np.where(self.inv_d > 0, self.inv_d, 1.0), 1e30)  # blocked: ∞
        self.rows = None  # the pose-cache rows and the fixed bodies' poses are read again (``poses``)

    def poses(self, rw: Any) -> np.ndarray:
        """(7, B) columns [qx, qy, qz, qw, tx, ty, tz]: from the world's pose cache where it has the body (one
        read shared with the aimed rows and a trace), the rest (fixed bodies) directly."""
        read_poses, row_of = getattr(rw, "read_poses", None), getattr(rw, "_row_of", None)
        if read_poses is None or row_of is None:
            return np.array([(*rb.rotation.to_tuple(), *rb.translation.to_tuple()) for rb in self.objects],
                            dtype=np.float64).reshape(-1, 7).T.copy()
        if self.rows is None:
            self.rows = np.array([row_of.get(h, -1) for h in self.handles], dtype=np.int64)
            self.others = np.flatnonzero(self.rows < 0)
            self.all_cached = len(self.others) == 0
            # Fixed bodies (posts, bases: most of the bodies outside the cache) never move in a world: read
            # once per world and mass data version; any other outside body (a driven root) every step.
            fixed = np.array([self.objects[i].is_fixed for i in self.others.tolist()], dtype=bool)
            self.still = np.empty((7, len(self.handles)))
            for i in self.others[fixed].tolist():
                rb = self.objects[i]
                self.still[:, i] = (*rb.rotation.to_tuple(), *rb.translation.to_tuple())
            self.others = self.others[~fixed]
            self.cached = self.rows >= 0
            self.cached_rows = self.rows[self.cached]
        if self.all_cached:
            return np.array(read_poses()[self.rows].T, dtype=np.float64, order="C")
        out = self.still.copy()
        out[:, self.cached] = read_poses()[self.cached_rows].T
        for i in self.others.tolist():
            rb = self.objects[i]
            out[:, i] = (*rb.rotation.to_tuple(), *rb.translation.to_tuple())
        return out

    def velocities(self) -> tuple[np.ndarray, np.ndarray]:
        """(linear, angular) velocity columns (3, B): only for a spring's first step, when it has no rate yet."""
        lin = np.array([rb.linvel.to_tuple() for rb in self.objects], dtype=np.float64).reshape(-1, 3)
        ang = np.array([rb.angvel.to_tuple() for rb in self.objects], dtype=np.float64).reshape(-1, 3)
        return np.ascontiguousarray(lin.T), np.ascontiguousarray(ang.T)


class _SpringBatch:
    """Every live spring of the impulse joints, stepped in one NumPy pass (module docstring): the bodies' poses
    read in bulk, every metric, rate, effective mass and impulse computed at once, and the impulses summed per
    body into one linear and one angular impulse each (Rapier's impulse at a point is exactly the impulse plus
    the torque impulse (point − centre of mass) × impulse)."""

    def __init__(self, items: list[tuple[_Built, _Spring]]) -> None:
        self.items = items
        n = len(items)
        handles = list(dict.fromkeys([b.a.handle for b, _ in items] + [b.b.handle for b, _ in items]))
        row = {h: i for i, h in enumerate(handles)}
        self.bodies = _BodyData(handles)
        self.row_a = np.array([row[b.a.handle] for b, _ in items], dtype=np.int64)
        self.row_b = np.array([row[b.b.handle] for b, _ in items], dtype=np.int64)
        self.fa_t = np.array([b.a.frame.translation for b, _ in items], dtype=np.float64).reshape(n, 3).T.copy()
        self.fa_q = np.array([b.a.frame.rotation for b, _ in items], dtype=np.float64).reshape(n, 4).T.copy()
        self.fb_t = np.array([b.b.frame.translation for b, _ in items], dtype=np.float64).reshape(n, 3).T.copy()
        self.fb_q = np.array([b.b.frame.rotation for b, _ in items], dtype=np.float64).reshape(n, 4).T.copy()
        codes = [_code(s) for _, s in items]
        code = np.array([c for c, _ in codes], dtype=np.int64)
        self.axis = np.array([a for _, a in codes], dtype=np.int64)
        # Per metric: (code, its springs: a slice when it is all of them, their indices, their axes, and the
        # flat positions below).
        self.groups: list[tuple[Any, ...]] = []
        for c in range(5):
            idx = np.flatnonzero(code == c)
            if len(idx):
                sel: slice | np.ndarray = slice(None) if len(idx) == n else idx
                axis = self.axis[idx]
                # Flat positions of column ``axis`` of each spring's (3, 3) matrix in a (3, 3, N) array, and
                # of component ``axis`` of each spring's vector in a (3 or 4, N) one: one ``take`` each; then
                # the same within the group's own (3, 3, n) matrices and (3, n) vectors (a cone's).
                col = (3 * np.arange(3)[:, None] + axis) * n + idx
                own = np.arange(len(idx))
                own_col = (3 * np.arange(3)[:, None] + axis) * len(idx) + own
                self.groups.append((c, sel, idx, axis, col, axis * n + idx, own_col, axis * len(idx) + own))
        self.relative = bool((code >= _ANG1).any())  # some metric reads the relative rotation
        self.angular = np.array([s.kind == "angular" for _, s in items], dtype=bool)
        self.linear = np.flatnonzero(~self.angular)
        self.wrap = (code == _ANG1)  # signed twists wrap the short way round (_wrap)
        self.wraps = bool(self.wrap.any())
        self.mask = np.array([[a in s.axes for a in range(3)] for _, s in items], dtype=np.float64).T.copy()
        self.pinned = np.array([b.pinned for b, _ in items], dtype=bool)
        self.rot_locked = np.array([b.rot_locked for b, _ in items], dtype=bool)
        self.dof = np.where(self.angular, np.where(self.pinned, _PINNED_TURN, _FREE_TURN), _SLIDE)
        self._targets(items)
        self.prev = np.array([math.nan if s.prev is None else s.prev for _, s in items], dtype=np.float64)
        self._planned = -1  # the bodies' version the per-side plan (_plan) was made for
        self._callees: list[tuple[int, np.ndarray, list[Any]] | None] = [None, None]  # per kind: _call
        import scipy.sparse  # on use, as elsewhere in the package (slow to import)

        # Summing per body: +x over each spring's body B and −x over its body A, as one (B, 2N) matrix product
        # (columns: side B, then side A, in spring order: np.add.at's order, so the same sums to the bit).
        rows = np.concatenate([self.row_b, self.row_a])
        self.summer = scipy.sparse.csr_array((np.concatenate([np.ones(n), -np.ones(n)]), (rows, np.arange(2 * n))),
                                             shape=(len(handles), 2 * n))

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
        self.limits = bool(self.is_limit.any())
        self.capped = bool(np.isfinite(self.max_force).any())
        self.scaled = bool(self.accel.any())

    def store(self) -> None:
        """Write each spring's last metric back to its record (the batch is about to be rebuilt)."""
        for (_, s), p in zip(self.items, self.prev.tolist(), strict=True):
            s.prev = None if math.isnan(p) else p

    def _plan(self, bd: _BodyData) -> None:
        """What depends on the bodies' mass data: per side (A, B), the springs whose body there moves (dynamic,
        with mass), by how their DoF moves it, and the bodies an impulse may be applied to."""
        self._planned = bd.version
        self.sides = []
        for rows in (self.row_a, self.row_b):
            live = bd.live[rows]
            parts = []
            for dof in (_PINNED_TURN, _FREE_TURN, _SLIDE):
                idx = np.flatnonzero(live & (self.dof == dof))
                if len(idx):
                    parts.append((dof, idx, rows[idx]))
            self.sides.append(parts)

    def step(self, rw: Any, dt: float) -> None:
        """Measure every spring and apply its impulse for the coming step of ``dt`` seconds."""
        bd = self.bodies
        bd.refresh(rw)
        if self._planned != bd.version:
            self._plan(bd)
        pose = bd.poses(rw)
        body_q, body_t = pose[:4], pose[4:]
        body_r = _qmat_t(body_q)  # once per body and step: frames, centres of mass and inertia axes reuse it
        com = body_t + _mv(body_r, bd.local_com)
        row_a, row_b = self.row_a, self.row_b
        qa = _qmul_t(body_q.take(row_a, axis=1), self.fa_q)
        ta = body_t.take(row_a, axis=1) + _mv(body_r.take(row_a, axis=2), self.fa_t)
        point = body_t.take(row_b, axis=1) + _mv(body_r.take(row_b, axis=2), self.fb_t)  # frame B's origin
        ra = _qmat_t(qa)
        qb = _qmul_t(body_q.take(row_b, axis=1), self.fb_q) if self.relative else None
        x, direction = self._measure(ra, qa, qb, point - ta)
        prev, self.prev = self.prev, x
        v = self._rates(bd, com, x, prev, direction, point, dt)
        frame = body_r if bd.frame_is_body else _qmat_t(_qmul_t(body_q, bd.frame))
        mass = self._dof_mass(bd, frame, com, direction, point)
        impulse = self._impulses(x, v, mass, dt)
        self._apply(bd, com, direction * impulse, point, impulse != 0.0)

    def _measure(self, ra: np.ndarray, qa: np.ndarray, qb: np.ndarray | None,
                 delta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every spring's KHR metric and the world direction (3, N) along which it grows (``common._measure``;
        a 1-axis metric's direction is frame A's axis itself)."""
        n = len(self.items)
        x, e = np.empty(n), np.empty((3, n))
        q_rel = _qcanon_t(_qmul_t(qa * _CONJ_T, qb)) if qb is not None else None
        whole = len(self.groups) == 1  # one kind of metric: no gathering
        for code, sel, idx, axis, col, comp, own_col, own_comp in self.groups:
            m = ra if whole else ra.take(idx, axis=2)
            if code == _LIN1:
                a_col = ra.take(col)
                x[sel], e[:, sel] = (a_col * (delta if whole else delta.take(idx, axis=1))).sum(axis=0), a_col
            elif code == _LINN:  # in frame A
                d = _mtv(m, delta if whole else delta.take(idx, axis=1)) * self.mask[:, sel]
                norm, u = _unit_t(d, 1e-9, _EYE[:, axis])
                x[sel], e[:, sel] = norm, _mv(m, u)
            elif code == _ANG1:  # signed twist about e_i (D-10)
                w = q_rel[3] if whole else q_rel[3].take(idx)
                x[sel], e[:, sel] = 2.0 * np.arctan2(q_rel.take(comp), w), ra.take(col)
            elif code == _ANG3:  # total rotation
                q = q_rel if whole else q_rel.take(idx, axis=1)
                norm, u = _unit_t(q[:3], 1e-12, _EYE[:, :1])
                x[sel], e[:, sel] = 2.0 * np.arctan2(norm, q[3]), _mv(m, u)
            else:  # cone about e_k: frame B's k axis seen from frame A
                b_col = _qmat_t(q_rel if whole else q_rel.take(idx, axis=1)).take(own_col)
                norm, u = _unit_t(_cross_t(_EYE[:, axis], b_col), 1e-12, _EYE[:, (axis + 1) % 3])
                x[sel], e[:, sel] = np.arctan2(norm, b_col.take(own_comp)), _mv(m, u)
        return x, e

    def _wrapped(self, delta: np.ndarray) -> np.ndarray:
        """``_wrap`` row-wise: twist differences the short way round (round half to even, as math.remainder)."""
        if not self.wraps:
            return delta
        turn = 2 * math.pi
        return np.where(self.wrap, delta - turn * np.round(delta / turn), delta)

    def _rates(self, bd: _BodyData, com: np.ndarray, x: np.ndarray, prev: np.ndarray, direction: np.ndarray,
               point: np.ndarray, dt: float) -> np.ndarray:
        """d(metric)/dt: over the last step (Rapier's stored end-of-step velocity includes that step's gravity
        even when the body is held at rest, which would bias the damping term); from the bodies' velocities at
        a spring's first step."""
        fresh = np.isnan(prev) if dt > 0 else np.ones(len(x), dtype=bool)
        if not fresh.any():
            return self._wrapped(x - prev) / dt
        v = self._wrapped(x - np.where(fresh, x, prev)) / (dt if dt > 0 else 1.0)
        lin, ang = bd.velocities()
        rel = np.zeros((3, len(x)))
        for rows, sign in ((self.row_b, 1.0), (self.row_a, -1.0)):
            at_point = lin[:, rows] + _cross_t(ang[:, rows], point - com[:, rows])
            rel += sign * np.where(self.angular, ang[:, rows], at_point)
        return np.where(fresh, (direction * rel).sum(axis=0), v)

    def _dof_mass(self, bd: _BodyData, frame: np.ndarray, com: np.ndarray, e: np.ndarray,
                  point: np.ndarray) -> np.ndarray:
        """Effective mass (linear) or inertia (angular) of each spring's DoF along world direction ``e``.

        Per dynamic body: an angular DoF of a pinned joint turns the body about the anchor (parallel axis:
        eᵀ·I·e + m·|r×e|²), otherwise about its centre (1/(eᵀ·I⁻¹·e)); a linear DoF moves the mass m when the
        joint locks rotation, otherwise 1/(1/m + (r×e)ᵀ·I⁻¹·(r×e)). The two bodies act in series:
        1/M = 1/M_A + 1/M_B; a fixed or kinematic body adds nothing. ``frame``: the world axes of each body's
        principal inertia (3, 3, B), as columns; each term is computed only for the springs it applies to.
        """
        inv = np.zeros(len(self.items))
        for parts in self.sides:  # side A, then B: 1/M = (0 + 1/M_A) + 1/M_B
            for dof, idx, rows in parts:
                f, ee = frame.take(rows, axis=2), e.take(idx, axis=1)
                # Quadratic forms in the principal frame: vᵀ·I·v = Σ d_j·(Fᵀv)_j², vᵀ·I⁻¹·v = Σ (1/d_j)·(Fᵀv)_j².
                if dof == _FREE_TURN:
                    e_p = _mtv(f, ee)
                    inv[idx] += (bd.inv_d.take(rows, axis=1) * e_p * e_p).sum(axis=0)
                    continue
                m = bd.mass.take(rows)
                rxe = _cross_t(point.take(idx, axis=1) - com.take(rows, axis=1), ee)
                if dof == _PINNED_TURN:
                    e_p = _mtv(f, ee)
                    inv[idx] += 1.0 / np.maximum((bd.d.take(rows, axis=1) * e_p * e_p).sum(axis=0)
                                                 + m * (rxe * rxe).sum(axis=0), 1e-12)
                else:
                    r_p = _mtv(f, rxe)
                    turn = np.where(self.rot_locked[idx], 0.0, (bd.inv_d.take(rows, axis=1) * r_p * r_p).sum(axis=0))
                    inv[idx] += 1.0 / m + turn
        return np.where(inv > 0, 1.0 / np.where(inv > 0, inv, 1.0), 0.0)

    def _impulses(self, x: np.ndarray, v: np.ndarray, mass: np.ndarray, dt: float) -> np.ndarray:
        """Each spring's impulse along its direction (0 where it exerts nothing now; ``_spring_target``)."""
        if self.limits:
            outside = (x < self.lo) | (x > self.hi)
            active = (~self.is_limit | outside) & (mass > 0)
            x_t = np.where(self.is_limit, np.where(x > self.hi, self.hi, self.lo), self.x_t)
        else:
            active, x_t = mass > 0, self.x_t
        k, c = self.k, self.c
        if self.scaled:
            scale = np.where(self.accel, mass, 1.0)
            k, c = k * scale, c * scale
        err = self._wrapped(x_t - x)
        # Explicit force over the step, exact while the spring is stable for this DoF mass; a stiffer one is
        # scaled down just enough to stay stable (symplectic Euler needs dt²k/M + 2·dt·c/M < 4).
        safe_mass = np.where(mass > 0, mass, 1.0)
        ratio = (dt * dt * k + 2.0 * dt * c) / safe_mass
        impulse = dt * (k * err + c * (self.v_t - v)) / np.maximum(1.0, ratio / 2.0)
        if self.capped:  # (an infinite cap clips nothing)
            cap = np.where(np.isinf(self.max_force), math.inf, self.max_force * dt)
            impulse = np.clip(impulse, -cap, cap)
        return np.where(active, impulse, 0.0)

    def _apply(self, bd: _BodyData, com: np.ndarray, impulse: np.ndarray, point: np.ndarray,
               nonzero: np.ndarray) -> None:
        """+impulse on each body B, −impulse on each body A (linear at ``point``, else a torque impulse), summed
        per dynamic body and applied with one call per body and kind (the binding has no batch call)."""
        if not nonzero.any():
            return
        nb = len(bd.handles)
        touched = np.zeros(nb, dtype=bool)
        touched[self.row_b[nonzero]] = True
        touched[self.row_a[nonzero]] = True
        touched &= bd.dynamic  # only dynamic bodies take impulses; the sums of the others are not applied
        summer = self.summer
        lin = self.linear
        if len(lin):
            j, at = impulse.take(lin, axis=1), point.take(lin, axis=1)
            torque_b, torque_a = impulse.copy(), impulse.copy()
            torque_b[:, lin] = _cross_t(at - com.take(self.row_b[lin], axis=1), j)
            torque_a[:, lin] = _cross_t(at - com.take(self.row_a[lin], axis=1), j)
            ang = summer @ np.concatenate([torque_b.T, torque_a.T])
            lin_j = np.where(self.angular, 0.0, impulse).T  # an angular spring moves no centre of mass
            lin_sum = summer @ np.concatenate([lin_j, lin_j])
            has_lin = touched & (lin_sum != 0).any(axis=1)
            self._call(bd, 0, has_lin, lin_sum)
        else:
            ang = summer @ np.concatenate([impulse.T, impulse.T])
            has_lin = np.zeros(nb, dtype=bool)
        has_ang = touched & ((ang != 0).any(axis=1) | ~has_lin)  # a touched body is woken even if its sum is 0
        self._call(bd, 1, has_ang, ang)

    def _call(self, bd: _BodyData, kind: int, which: np.ndarray, sums: np.ndarray) -> None:
        """``apply_impulse`` (kind 0) or ``apply_torque_impulse`` (kind 1) of each body in ``which`` with its
        row of ``sums`` (B, 3), in body order. One call per body: the binding has no batch call, so the
        arguments are made in C (tuples zipped from three lists; it reads a tuple fastest, measured 0.15 µs a
        call against 0.30 for a list and 0.43 for a Vec3), the calls are mapped over the method of the bodies'
        class (no bound method a call), and the list of bodies is kept while the same bodies take impulses."""
        rows = np.flatnonzero(which)
        if not len(rows):
            return
        cached = self._callees[kind]
        if cached is not None and cached[0] == bd.version and np.array_equal(rows, cached[1]):
            objects = cached[2]
        else:
            everything = bd.objects
            objects = [everything[i] for i in rows.tolist()]
            self._callees[kind] = (bd.version, rows, objects)
        method = type(objects[0]).apply_impulse if kind == 0 else type(objects[0]).apply_torque_impulse
        deque(map(method, objects, zip(*sums[rows].T.tolist(), strict=True), repeat(True)), maxlen=0)
