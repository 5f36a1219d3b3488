"""Gravity volumes on Rapier (OMI_physics_gravity, docs/semantics.md; field math in ``sim.gravity_fields``).

Rapier has one global gravity vector. Before every engine step each dynamic body is tested against every
gravity volume's trigger (a shape query with the sensor's own shape, pose and collision groups, so the
volumes a body is in are those of its current pose, the first step included):

- in no volume: Rapier's own gravity acts, scaled by the body's gravity_scale (= gravityFactor) — untouched;
- in one or more: gravity_scale is set to 0 and the combined acceleration a (``gravity_fields.combine``, with
  the world's gravity vector as world gravity, evaluated at the centre of mass, scaled by the body's
  gravityFactor) is added as the force m·a at the centre of mass for this step (``controllers.Forces``).
  Rapier integrates user forces exactly like its own gravity (per solver substep), so a body in a
  directional volume falls bit-for-bit like one under the same world gravity; m is the model's mass (the one
  given to Rapier). Bodies of infinite mass are not pulled.

The gravityFactor of a body is remembered while its scale is held at 0; a runtime ``gravityFactor`` change
(``World.set``) reaches :meth:`GravityVolumes.factor_set` first, which adopts it as the held factor (0
included) instead of letting it into Rapier's gravity_scale.
Pair filters needed beyond 32 collision systems are not applied to the volume test (groups only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

import numpy as np
import rapier3d as rp

from ...model.gravity import GravityField
from ...model.scene import PhysicsScene
from ..gravity_fields import combine_many, field_accelerations, node_rotation

_INDEX = attrgetter("index")


@dataclass
class _Volume:
    field: GravityField
    matrix: np.ndarray  # the field node's world matrix (volumes have no motion, GRAV-3: fixed)
    sensors: list[rp.ColliderHandle]
    rot: np.ndarray  # its scale-free rotation, computed once
    origin: np.ndarray


class GravityVolumes:
    """All volumes' pulls on all bodies inside them in one NumPy pass per step (membership by one shape query
    per sensor, the poses of the step's one bulk read, field math, combination), then one force per body
    through :meth:`Forces.add_many` (sent where it changed). Per-body state lives in arrays over the world's
    pose rows (``rw._pose_handles``, node order)."""

    def __init__(self, rw: Any, scene: PhysicsScene, forces: Any) -> None:
        self.rw = rw
        self.forces = forces
        self.volumes: list[_Volume] = []
        for f in scene.gravity_fields:
            sensors = [h for h, (is_trigger, node) in rw._info.items() if is_trigger and node == f.node]
            m = np.asarray(rw._world_m[f.node], dtype=np.float64)
            self.volumes.append(_Volume(f, m, sensors, node_rotation(m), m[:3, 3].copy()))
        n = len(rw._pose_handles)
        # Collider index → pose row of its body for colliders of dynamic bodies (the volume query is
        # only_dynamic), else −1. Colliders are never removed, so an index names one collider.
        size = max((c.index for c in rw.colliders.handles()), default=-1) + 1
        self._row_of_collider = np.full(size, -1, dtype=np.intp)
        for row, h in enumerate(rw._pose_handles):
            b = rw.bodies[h]
            if b.is_dynamic:
                for c in b.colliders:
                    self._row_of_collider[c.index] = row
        self._filters: dict[rp.ColliderHandle, rp.QueryFilter] = {}  # per sensor (its groups are fixed)
        self._held = np.zeros(n, dtype=bool)  # bodies whose gravity_scale we hold at 0 …
        self._factor = np.zeros(n)  # … and their gravityFactor meanwhile
        self._mass = np.zeros(n)  # model mass (the one given to Rapier) …
        self._com = np.zeros((n, 3))  # … local centre of mass …
        self._pulled = np.zeros(n, dtype=bool)  # … and whether volumes pull it (finite, known mass)
        self._edits = -1  # rw.motion_edits the arrays above were checked at

    def set_field(self, node: int, name: str, value: Any) -> None:
        """Runtime edit of a volume property (model field name) on the gravity node ``node``."""
        import dataclasses

        hits = [v for v in self.volumes if v.field.node == node]
        if not hits:
            raise ValueError(f"node {node} has no gravity volume")
        for v in hits:
            v.field = dataclasses.replace(v.field, **{name: _coerce(v.field, name, value)})

    def factor_set(self, node: int, factor: float) -> bool:
        """Adopt a gravityFactor set at run time on a body held inside a volume (its gravity_scale stays 0);
        False when ``node`` is not held, so the caller sets Rapier's gravity_scale itself."""
        row = self.rw._row_of.get(self.rw.handle_of.get(node))
        if row is None or not self._held[row]:
            return False
        self._factor[row] = factor
        return True

    def state(self) -> tuple[np.ndarray, np.ndarray, list[GravityField]]:
        """Which bodies are held (their gravity_scale 0 in the world) with their gravityFactor, and the
        volumes' settings (pointers may set them): what a snapshot needs beside the Rapier world."""
        return self._held.copy(), self._factor.copy(), [v.field for v in self.volumes]

    def restore(self, state: tuple[np.ndarray, np.ndarray, list[GravityField]]) -> None:
        """Back to a :meth:`state` (the world restored beside it holds the same gravity scales)."""
        held, factor, fields = state
        self._held[:], self._factor[:] = held, factor
        for v, f in zip(self.volumes, fields, strict=True):
            v.field = f

    def before_step(self, dt: float) -> None:
        """Pull every dynamic body inside a volume for the coming engine step (held scale, one force)."""
        rw = self.rw
        world = rw.world
        fresh = self.forces.fresh  # first step, or a restored world: the query BVH must be built
        if fresh:
            world.update_query_pipeline()
        # A gravityFactor set at run time (or a restored world) may have changed a held body's gravity_scale.
        edited = fresh or rw.motion_edits != self._edits
        if edited:
            self._edits = rw.motion_edits
            self._mass_arrays()
        masks = self._members()
        inside = masks.any(axis=0)
        self._release(inside)
        rows = np.flatnonzero(inside)
        if len(rows) == 0:
            self.forces.add_many(rows, np.zeros((0, 3)))
            return
        self._hold(rows, edited)
        pulled = self._pulled[rows]
        members, factors, rows = masks[:, rows][:, pulled], self._factor[rows][pulled], rows[pulled]
        if len(rows) == 0:
            self.forces.add_many(rows, np.zeros((0, 3)))
            return
        pose = rw.read_poses()[rows].astype(np.float64)  # (N, 7): quaternion xyzw, translation
        local = self._com[rows]
        # Every centre of mass at its body origin (+0.0 bits): the rotated offset is +0.0, added as such.
        turned = _rotate(pose[:, :4], local) if local.view(np.int64).any() else 0.0
        com = pose[:, 4:] + turned
        g = world.gravity
        g_world = np.array(g.to_tuple() if hasattr(g, "to_tuple") else g, dtype=np.float64)
        order = sorted(range(len(self.volumes)), key=lambda k: -self.volumes[k].field.priority)  # stable
        acc = np.stack([field_accelerations(self.volumes[k].field, self.volumes[k].rot, self.volumes[k].origin, com)
                        for k in order])
        flags = [(self.volumes[k].field.replace, self.volumes[k].field.stop) for k in order]
        a = combine_many(flags, acc, members[order], g_world) * factors[:, None]
        self.forces.add_many(rows, a * self._mass[rows][:, None])  # at the centre of mass: no torque to undo

    def _mass_arrays(self) -> None:
        """(mass, local centre of mass, pulled) of every pose row from the model masses (set at run time too);
        bodies of infinite or unknown mass are not pulled."""
        rw = self.rw
        self._pulled[:] = False
        for row, node in enumerate(rw.moving_nodes):
            mp = rw.mass_of.get(node)
            if mp is not None and math.isfinite(mp.mass):
                self._mass[row], self._com[row], self._pulled[row] = mp.mass, mp.center_of_mass, True

    def _release(self, inside: np.ndarray) -> None:
        """Bodies that left every volume: Rapier's gravity again, with their gravityFactor."""
        objects = self.rw.body_objects()
        for r in np.flatnonzero(self._held & ~inside).tolist():
            objects[r].gravity_scale = float(self._factor[r])
        self._held &= inside

    def _hold(self, rows: np.ndarray, edited: bool) -> None:
        """Hold the gravity_scale of the bodies at ``rows`` at 0, remembering it as their gravityFactor: bodies
        entering, and (``edited``) held ones whose scale is no longer 0 (a gravityFactor set at run time)."""
        objects = self.rw.body_objects()
        check = rows if edited else rows[~self._held[rows]]
        for r in check.tolist():
            b = objects[r]
            scale = float(b.gravity_scale)
            if not self._held[r] or scale != 0.0:
                self._factor[r] = scale
                self._held[r] = True
                b.gravity_scale = 0.0

    def _members(self) -> np.ndarray:
        """(volumes, pose rows) mask of the dynamic bodies overlapping each volume's trigger now."""
        rw = self.rw
        colliders, query = rw.colliders, rw.world.query_pipeline
        row_of = self._row_of_collider
        masks = np.zeros((len(self.volumes), len(rw._pose_handles)), dtype=bool)
        for k, v in enumerate(self.volumes):
            for h in v.sensors:
                c = colliders[h]
                qf = self._filters.get(h)
                if qf is None:
                    qf = self._filters[h] = rp.QueryFilter.only_dynamic().exclude_sensors().groups(c.collision_groups)
                hits: list[rp.ColliderHandle] = []
                query.intersect_shape(c.position, c.shape, hits.append, qf)
                if hits:
                    rows = row_of[np.fromiter(map(_INDEX, hits), dtype=np.intp, count=len(hits))]
                    masks[k, rows[rows >= 0]] = True
        return masks


def _rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Rotate rows of ``v`` (N, 3) by unit quaternions ``q`` (N, 4, xyzw)."""
    u, w = q[:, :3], q[:, 3:]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def _coerce(f: GravityField, name: str, value: Any) -> Any:
    current = getattr(f, name)
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{name} needs true or false, got {value!r}")
        return value
    if isinstance(current, tuple):
        return tuple(float(x) for x in value)
    return float(value)
