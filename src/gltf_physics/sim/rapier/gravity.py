"""Gravity volumes on Rapier (OMI_physics_gravity, DIGEST §11 "Gravity"; field math in ``sim.gravity_fields``).

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
(``World.set``) while inside a volume shows up as a non-zero gravity_scale and is adopted as the new factor.
Pair filters needed beyond 32 collision systems are not applied to the volume test (groups only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import rapier3d as rp

from ...model.gravity import GravityField
from ...model.scene import PhysicsScene
from ..gravity_fields import combine_many, field_accelerations, node_rotation


@dataclass
class _Volume:
    field: GravityField
    matrix: np.ndarray  # the field node's world matrix (volumes have no motion, GRAV-3: fixed)
    sensors: list[rp.ColliderHandle]
    rot: np.ndarray  # its scale-free rotation, computed once
    origin: np.ndarray


class GravityVolumes:
    """All volumes' pulls on all bodies inside them in one NumPy pass per step (bulk pose read, field math,
    combination), then one force per body."""

    def __init__(self, rw: Any, scene: PhysicsScene, forces: Any) -> None:
        self.rw = rw
        self.forces = forces
        self.volumes: list[_Volume] = []
        for f in scene.gravity_fields:
            sensors = [h for h, (is_trigger, node) in rw._info.items() if is_trigger and node == f.node]
            m = np.asarray(rw._world_m[f.node], dtype=np.float64)
            self.volumes.append(_Volume(f, m, sensors, node_rotation(m), m[:3, 3].copy()))
        self.factor: dict[rp.RigidBodyHandle, float] = {}  # bodies whose gravity_scale we hold at 0
        self._world_id = 0
        self._body_info: dict[rp.RigidBodyHandle, tuple[Any, Any]] = {}  # handle → (model mass, its info)

    def set_field(self, node: int, name: str, value: Any) -> None:
        """Runtime edit of a volume property (model field name) on the gravity node ``node``."""
        import dataclasses

        hits = [v for v in self.volumes if v.field.node == node]
        if not hits:
            raise ValueError(f"node {node} has no gravity volume")
        for v in hits:
            v.field = dataclasses.replace(v.field, **{name: _coerce(v.field, name, value)})

    def before_step(self, dt: float) -> None:
        rw = self.rw
        world = rw.world
        if id(world) != self._world_id:  # first step, or a restored world: the query BVH must be built
            world.update_query_pipeline()
            self._world_id = id(world)
        handles, members = self._members()
        bodies = rw.bodies
        inside = set(handles)
        for handle in list(self.factor):
            if handle not in inside:  # left every volume: Rapier's gravity again
                bodies[handle].gravity_scale = self.factor.pop(handle)
        if not handles:
            return
        factors = np.array([self._hold(h, bodies[h]) for h in handles])
        info = [self._mass_info(h) for h in handles]
        pulled = np.array([i is not None for i in info])
        if not pulled.any():
            return
        handles = [h for h, ok in zip(handles, pulled, strict=True) if ok]
        members, factors = members[:, pulled], factors[pulled]
        mass = np.array([i[0] for i in info if i is not None])
        com_local = np.array([i[1] for i in info if i is not None])
        pose = rw._read(handles).astype(np.float64)  # (N, 7): quaternion xyzw, translation
        com = pose[:, 4:] + _rotate(pose[:, :4], com_local)
        g = world.gravity
        g_world = np.array(g.to_tuple() if hasattr(g, "to_tuple") else g, dtype=np.float64)
        order = sorted(range(len(self.volumes)), key=lambda k: -self.volumes[k].field.priority)  # stable
        acc = np.stack([field_accelerations(self.volumes[k].field, self.volumes[k].rot, self.volumes[k].origin, com)
                        for k in order])
        flags = [(self.volumes[k].field.replace, self.volumes[k].field.stop) for k in order]
        a = combine_many(flags, acc, members[order], g_world) * factors[:, None]
        self.forces.add_many(handles, a * mass[:, None])  # at the centre of mass: no torque to undo

    def _mass_info(self, handle: rp.RigidBodyHandle) -> tuple[float, tuple[float, float, float]] | None:
        """(mass, local centre of mass) of a body that volumes pull; None for infinite or unknown mass."""
        mp = self.rw.mass_of.get(self.rw.node_of.get(handle))
        hit = self._body_info.get(handle)
        if hit is None or hit[0] is not mp:  # first time, or the mass was set at run time
            ok = mp is not None and math.isfinite(mp.mass)
            hit = (mp, (mp.mass, tuple(mp.center_of_mass)) if ok else None)  # type: ignore[union-attr]
            self._body_info[handle] = hit
        return hit[1]

    def _hold(self, handle: rp.RigidBodyHandle, b: rp.RigidBody) -> float:
        scale = float(b.gravity_scale)
        if handle not in self.factor or scale != 0.0:  # entering, or gravityFactor changed at runtime
            self.factor[handle] = scale
            b.gravity_scale = 0.0
        return self.factor[handle]

    def _members(self) -> tuple[list[rp.RigidBodyHandle], np.ndarray]:
        """Dynamic bodies overlapping any volume's trigger now (node order) and the (volumes, bodies) mask."""
        rw = self.rw
        world, colliders = rw.world, rw.colliders
        found: list[set[rp.RigidBodyHandle]] = []
        for v in self.volumes:
            hits: set[rp.RigidBodyHandle] = set()
            for h in v.sensors:
                c = colliders[h]
                qf = rp.QueryFilter.only_dynamic().exclude_sensors().groups(c.collision_groups)

                def hit(ch: rp.ColliderHandle, hits: set[rp.RigidBodyHandle] = hits) -> bool:
                    parent = colliders[ch].parent
                    if parent is not None:
                        hits.add(parent)
                    return True

                world.query_pipeline.intersect_shape(c.position, c.shape, hit, qf)
            found.append(hits)
        handles = sorted(set().union(*found), key=lambda x: rw.node_of.get(x, -1)) if found else []
        mask = np.array([[h in hits for h in handles] for hits in found], dtype=bool).reshape(len(found), -1)
        return handles, mask


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
