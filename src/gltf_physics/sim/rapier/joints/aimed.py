"""Aimed rows: hard limits on a metric Rapier has no row for (DIGEST §11 "Limit metrics"; DESIGN §3).

Three angular axes (total rotation 2·acos(Re(q_A*·q_B))), or a distance to a line or point with a minimum > 0:
an "aimed" joint of its own (``rows._add_aimed``). Before each step its two frames are turned so that its X axis
is the current direction in which the metric grows (:func:`_aim`); for the total rotation, its relative rotation
is then exactly that rotation about X, so a 1-D ANG_X limit bounds the total angle. Rows of joints without springs
are turned together in NumPy, and only those within reach of their bound (a row far inside exerts nothing
whichever way it points; :class:`_AimedBatch`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import rapier3d as r

from ....gltf.transforms import quat_multiply, quat_to_matrix
from ....model.joints import Pose
from .common import IDENTITY, X, _Aimed, _axis_angle, _body_pose, _Built, _canon, _conj, _data, _iso, _measure, _x_to


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
