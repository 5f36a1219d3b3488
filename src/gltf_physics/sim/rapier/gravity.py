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
from ..gravity_fields import Contribution, combine, field_acceleration


@dataclass
class _Volume:
    field: GravityField
    matrix: np.ndarray  # the field node's world matrix (volumes have no motion, GRAV-3: fixed)
    sensors: list[rp.ColliderHandle]


class GravityVolumes:
    def __init__(self, rw: Any, scene: PhysicsScene, forces: Any) -> None:
        self.rw = rw
        self.forces = forces
        self.volumes: list[_Volume] = []
        for f in scene.gravity_fields:
            sensors = [h for h, (is_trigger, node) in rw._info.items() if is_trigger and node == f.node]
            self.volumes.append(_Volume(f, rw._world_m[f.node], sensors))
        self.factor: dict[rp.RigidBodyHandle, float] = {}  # bodies whose gravity_scale we hold at 0
        self._world_id = 0

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
        inside = self._members()
        bodies = rw.bodies
        g_world = np.array(world.gravity.to_tuple() if hasattr(world.gravity, "to_tuple") else world.gravity,
                           dtype=np.float64)
        for handle in list(self.factor):
            if handle not in inside:  # left every volume: Rapier's gravity again
                bodies[handle].gravity_scale = self.factor.pop(handle)
        for handle, vols in inside.items():
            b = bodies[handle]
            factor = self._hold(handle, b)
            mp = rw.mass_of.get(rw.node_of.get(handle))
            if mp is None or not math.isfinite(mp.mass):
                continue
            com = np.array(b.position.transform_point(mp.center_of_mass).to_tuple())
            parts = [Contribution(v.field.priority, v.field.replace, v.field.stop,
                                  field_acceleration(v.field, v.matrix, com)) for v in vols]
            a = combine(parts, g_world) * factor
            self.forces.add(handle, a * mp.mass, point=com)

    def _hold(self, handle: rp.RigidBodyHandle, b: rp.RigidBody) -> float:
        scale = float(b.gravity_scale)
        if handle not in self.factor or scale != 0.0:  # entering, or gravityFactor changed at runtime
            self.factor[handle] = scale
            b.gravity_scale = 0.0
        return self.factor[handle]

    def _members(self) -> dict[rp.RigidBodyHandle, list[_Volume]]:
        """Dynamic body handle → the volumes whose trigger it overlaps now, in field order."""
        rw = self.rw
        world, colliders = rw.world, rw.colliders
        out: dict[rp.RigidBodyHandle, list[_Volume]] = {}
        for v in self.volumes:
            found: set[rp.RigidBodyHandle] = set()
            for h in v.sensors:
                c = colliders[h]
                qf = rp.QueryFilter.only_dynamic().exclude_sensors().groups(c.collision_groups)

                def hit(ch: rp.ColliderHandle, found: set[rp.RigidBodyHandle] = found) -> bool:
                    parent = colliders[ch].parent
                    if parent is not None:
                        found.add(parent)
                    return True

                world.query_pipeline.intersect_shape(c.position, c.shape, hit, qf)
            for handle in sorted(found, key=lambda x: rw.node_of.get(x, -1)):
                out.setdefault(handle, []).append(v)
        return out


def _coerce(f: GravityField, name: str, value: Any) -> Any:
    current = getattr(f, name)
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{name} needs true or false, got {value!r}")
        return value
    if isinstance(current, tuple):
        return tuple(float(x) for x in value)
    return float(value)
