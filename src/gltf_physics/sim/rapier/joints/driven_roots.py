"""Driven roots: joint trees hanging from a kinematic (moving) body on Rapier's multibodies.

A multibody's root that is not dynamic is a fixed frame: in rapier3d 0.36 a kinematic root neither moves nor
lets its links feel its motion (measured: the root body and every link stay where they were built, whatever its
velocity or next kinematic pose). So a tree whose anchor is a kinematic body hangs from a *driven root* of its
own instead (one per joint to the kinematic body, like the fixed roots of static anchors): a dynamic body
without colliders at the kinematic body's pose, without gravity, with a mass :data:`MASS_RATIO` times the
heaviest dynamic body of the world (and an isotropic inertia of that mass at 1 m), which the links' reactions
cannot noticeably move. Before every step a force and a torque take it to the kinematic body's velocity over
that step, so the links feel the base's acceleration through the articulated dynamics (a pendulum on an
accelerating base swings as in the base's frame with gravity g − a); after the step its pose is set to the
kinematic body's exactly and the links are placed from it (the force ramps the velocity over Rapier's solver
substeps, which would leave the root behind by ~5/8 of a velocity change times the step). While its base stays
put the root is a fixed body (a dynamic one, however heavy, would drift under its links' weight and keep them
awake), so a tree on a still kinematic body runs as on a static one.

The kinematic body itself stays what it was (its colliders, triggers, trace and run-time edits); the driven
root is not a node and is never reported.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import rapier3d as r

from .. import articulations
from .aimed import _CONJ, _qcanon, _qmul

MASS_RATIO = 1e6  # driven root mass / heaviest dynamic body: the links' reactions move it by ~1e-6 of theirs
HEAVIEST = 1e20  # kg: the most a heaviest body counts for (Rapier works in float32, ~3e38 at most)


def _rotvec(q: np.ndarray) -> np.ndarray:
    """Rotation vectors (N, 3) of unit quaternions (N, 4) xyzw, the short way round."""
    q = _qcanon(q)
    s = np.linalg.norm(q[:, :3], axis=1)
    angle = 2.0 * np.arctan2(s, q[:, 3])
    scale = np.where(s > 1e-12, angle / np.where(s > 1e-12, s, 1.0), 2.0)
    return q[:, :3] * scale[:, None]


class DrivenRoots:
    """The driven roots of a world (module docstring): ``add`` one per joint hanging from a kinematic body,
    ``before_step``/``after_step`` around every engine step."""

    def __init__(self) -> None:
        self.pairs: list[tuple[Any, Any]] = []  # (kinematic body handle, its driven root's handle)
        self.mass = np.zeros(0)
        self._moving = np.zeros(0, dtype=bool)  # the root is dynamic now (its base moves); else fixed
        self._heaviest: float | None = None  # kg: the heaviest dynamic body of the world

    def add(self, rw: Any, kinematic: Any) -> Any:
        """A new driven root at ``kinematic``'s pose (fixed until its base moves); returns its body handle."""
        bodies = rw.bodies
        if self._heaviest is None:  # once: the world's bodies are all built before its joints
            masses = (b.mass for b in (bodies[h] for h in bodies.handles()) if b.is_dynamic)
            self._heaviest = max((m for m in masses if math.isfinite(m)), default=1.0)
        mass = MASS_RATIO * min(max(1.0, self._heaviest), HEAVIEST)
        props = r.MassProperties((0.0, 0.0, 0.0), mass, (mass, mass, mass))
        builder = (r.RigidBody.fixed().position(articulations.pose_of(bodies[kinematic])).gravity_scale(0.0)
                   .additional_mass_properties(props))
        root = rw.world.add_body(builder)
        self.pairs.append((kinematic, root))
        self.mass = np.append(self.mass, mass)
        self._moving = np.append(self._moving, False)
        return root

    def before_step(self, rw: Any, dt: float) -> None:
        """Set each root's force and torque to reach its kinematic body's velocity over the coming step (the
        kinematic body's pose at the step's end: its next kinematic pose, or its velocities integrated). A root
        whose base stays put this step is a fixed body, so its tree rests and sleeps as on a static post."""
        if not self.pairs or dt <= 0:
            return
        bodies = rw.bodies
        now, end = [], []
        for kin, _ in self.pairs:
            k = bodies[kin]
            iso = k.position
            target = (k.next_position if k.body_type == r.RigidBodyType.KINEMATIC_POSITION_BASED
                      else k.predict_position_using_velocity(dt))
            now.append((*iso.translation.to_tuple(), *iso.rotation.to_tuple()))
            end.append((*target.translation.to_tuple(), *target.rotation.to_tuple()))
        p0, p1 = np.array(now), np.array(end)
        want = np.hstack([(p1[:, :3] - p0[:, :3]) / dt, _rotvec(_qmul(p1[:, 3:], p0[:, 3:] * _CONJ)) / dt])
        moving = np.any(want != 0.0, axis=1)
        for i in np.flatnonzero(moving != self._moving).tolist():
            rb = bodies[self.pairs[i][1]]
            rb.body_type = r.RigidBodyType.DYNAMIC if moving[i] else r.RigidBodyType.FIXED
            rb.reset_forces(False)
            rb.reset_torques(False)
            self._place(rw, i)
        self._moving = moving
        idx = np.flatnonzero(moving).tolist()
        if not idx:
            return
        roots = [bodies[self.pairs[i][1]] for i in idx]
        v = np.array([(*rb.linvel.to_tuple(), *rb.angvel.to_tuple()) for rb in roots])
        push = self.mass[idx, None] * (want[idx] - v) / dt  # isotropic inertia: torque = I·Δω/dt, no gyroscopic
        for rb, f in zip(roots, push.tolist(), strict=True):
            rb.reset_forces(False)
            rb.reset_torques(False)
            rb.add_force((f[0], f[1], f[2]), True)
            rb.add_torque((f[3], f[4], f[5]), True)

    def body_for(self, handle: Any) -> Any:
        """The kinematic body a driven root stands for (``handle`` itself for any other body)."""
        return next((kin for kin, root in self.pairs if root == handle), handle)

    def restored(self, rw: Any) -> None:
        """The world was restored from a snapshot: which roots are moving is read back from their body types."""
        self._moving = np.array([rw.bodies[root].is_dynamic for _, root in self.pairs], dtype=bool)

    def after_step(self, rw: Any) -> None:
        """Put each moving root exactly at its kinematic body's pose and its links where that places them."""
        for i in np.flatnonzero(self._moving).tolist():
            self._place(rw, i)

    def _place(self, rw: Any, i: int) -> None:
        """Root ``i`` on its kinematic body's pose, and its multibody's links placed from it."""
        bodies, mbs = rw.bodies, rw.multibody_joints
        kin, root = self.pairs[i]
        bodies[root].position = bodies[kin].position
        link = mbs.rigid_body_link(root)
        if link is not None:
            mb = mbs.get_multibody(link.multibody)
            mb.forward_kinematics(bodies, True)
            mb.update_rigid_bodies(bodies, False)
