"""The behaviour-graph primitives on Rapier (``sim/queries.py``): impulses, ray casts, body poses and velocities.

Impulses change the body's velocities at once (Rapier's ``apply_impulse``: Δv = J/m, and at a point
Δω = I⁻¹ (r × J) with r from the centre of mass), so a pointer read after them sees the new velocity. A ray is
cast through Rapier's query pipeline over the colliders as the last step left them (refreshed first when a
pose was set since, or before the first step), sensors excluded and the ray's collision filter applied per
collider (``sim.queries.ray_allows``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import rapier3d as rp

from ..errors import SimulationError
from ..queries import RayHit, ray_allows, ray_filter, vec3

# The RapierWorld of sim/rapier/world.py, which imports this module: named, not imported (no import circle).
RapierWorld = Any


def dynamic_body(rw: RapierWorld, node: int) -> rp.RigidBody:
    """The Rapier body of the dynamic body node ``node``; SimulationError otherwise."""
    handle = rw.handle_of.get(node)
    if handle is None or not rw.world.rigid_bodies[handle].is_dynamic:
        raise SimulationError(f"node {node} is not a dynamic body", node=node)
    return rw.world.rigid_bodies[handle]


def apply_impulse(rw: RapierWorld, node: int, linear: Any, angular: Any = (0.0, 0.0, 0.0)) -> None:
    """A world linear impulse (N·s) at the centre of mass and a world angular impulse (N·m·s), now."""
    lin, ang = vec3(linear, "linearImpulse", node), vec3(angular, "angularImpulse", node)
    b = dynamic_body(rw, node)
    b.apply_impulse(rp.Vec3(*lin), True)
    if any(ang):
        b.apply_torque_impulse(rp.Vec3(*ang), True)
    _moved(rw, node)


def apply_point_impulse(rw: RapierWorld, node: int, impulse: Any, point: Any) -> None:
    """A world impulse (N·s) at a world point (m), now: its linear part and the spin r × J about the centre of
    mass."""
    j, p = vec3(impulse, "impulse", node), vec3(point, "position", node)
    dynamic_body(rw, node).apply_impulse_at_point(rp.Vec3(*j), rp.Vec3(*p), True)
    _moved(rw, node)


def _moved(rw: RapierWorld, node: int) -> None:
    rw._stale = True  # the next pose read reads every body
    rw.motion_edits += 1
    if rw.joints is not None:  # an articulation link moves by its joint coordinates
        rw.joints.velocity_set(rw.handle_of[node], True)


def ray_cast(rw: RapierWorld, start: Any, end: Any, filter_index: int | None = None) -> RayHit | None:
    """The closest solid collider the segment ``start``→``end`` (world) meets, or None."""
    a, b = np.asarray(vec3(start, "rayStart")), np.asarray(vec3(end, "rayEnd"))
    ray_f = ray_filter(rw.scene.filters, filter_index)
    if rw.query_dirty:
        rw.world.update_query_pipeline()
        rw.query_dirty = False
    query = rp.QueryFilter.new().exclude_sensors()
    if ray_f is not None:
        keys, filters = rw._keys, rw.scene.filters
        query = query.predicate(lambda h, _c: ray_allows(ray_f, filters, keys.get(h, (None, None))[1]))
    d = b - a
    if not np.any(d):
        return None  # a zero-length segment meets nothing
    ray = rp.Ray(rp.Vec3(*a.tolist()), rp.Vec3(*d.tolist()))
    found = rw.world.query_pipeline.cast_ray_and_get_normal(ray, 1.0, True, query)
    if found is None:
        return None
    handle, hit = found
    node = rw.collider_node.get(handle)
    if node is None:
        return None  # a collider this world did not build from the scene (none today)
    toi = float(hit.toi)
    n = np.array(hit.normal.to_tuple(), dtype=float)
    length = float(np.linalg.norm(n))
    normal = tuple((n / length).tolist()) if length > 0 and math.isfinite(length) else (0.0, 0.0, 0.0)
    return RayHit(node, tuple((a + toi * d).tolist()), normal, toi)  # type: ignore[arg-type]


def velocities(rw: RapierWorld, node: int) -> tuple[np.ndarray, np.ndarray]:
    """World linear (of the body origin's frame, as Rapier keeps it) and angular velocity of a body node."""
    if node not in rw.handle_of:
        raise SimulationError(f"node {node} is not a body", node=node)
    b = rw.world.rigid_bodies[rw.handle_of[node]]
    return np.array(b.linvel.to_tuple()), np.array(b.angvel.to_tuple())


def set_pose(rw: RapierWorld, node: int, translation: Any, rotation: Any) -> None:
    """Move a body node's body to a world pose now (a teleport: velocities kept; a position-based kinematic
    body is aimed there for the next step)."""
    if node not in rw.handle_of:
        raise SimulationError(f"node {node} is not a body", node=node)
    t, q = vec3(translation, "translation", node), tuple(float(v) for v in rotation)
    b = rw.world.rigid_bodies[rw.handle_of[node]]
    if b.body_type == rp.RigidBodyType.KINEMATIC_POSITION_BASED:
        b.set_next_kinematic_position((t, q))
    else:
        b.position = rp.Isometry3(t, q)
        b.wake_up(True)
    rw._stale = True
    rw.query_dirty = True
