"""Thrusters and hover thrusters (OMI_vehicle_thruster / _hover_thruster, docs/semantics.md).

Each thruster pushes the nearest body above its node (normally its vehicle) with a force along the node's +Z
after gimbal, applied at the node's origin (THR-2):

- force ratio → ``targetForceRatio`` plus, under a vehicle, the vehicle's linearActivation along the thrust
  direction (vehicle frame), clipped to [0, 1] (a reverse thrust is a separate thruster); moved towards that
  target at ``forceChangeRate``/maxForce per second (negative: instantly). No thrust while the body already moves
  at the vehicle's ``maxSpeed`` or faster along the thrust direction (maxSpeed caps self-propulsion only).
- gimbal g = targetGimbalRatio (length clipped to 1)·maxGimbal, moved at ``gimbalChangeRate`` rad/s (negative:
  instantly, 0: locked); the node's thrust axis is +Z turned by the axis-angle (g.x, g.y, 0) in node space.
- hover thrusters: force = hoverEnergy / d along the thrust axis, hoverEnergy = ratio·maxHoverEnergy (ratio
  rate-limited by hoverEnergyChangeRate/maxHoverEnergy), d the ground distance along the opposite of the thrust
  axis (a ray from the node that ignores the vehicle's own colliders and triggers; none within 1 km: no force,
  d is at least 1 cm). The force rises as the ground nears, so E/d = m·g is a stable hover height d = E/(m·g).

``linearGimbalAdjustRatio`` (steering the gimbal from linear input) is read but not applied.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import rapier3d as rp

from ...geometry.frames import body_frame
from ...gltf.transforms import decompose, quat_to_matrix
from ...model.vehicles import HoverThruster, Thruster, Vehicle
from .. import frames

RAY_LENGTH = 1000.0
MIN_DISTANCE = 0.01
Z = np.array([0.0, 0.0, 1.0])


@dataclass
class ThrusterState:
    spec: Thruster | HoverThruster
    handle: rp.RigidBodyHandle
    body: int
    rel_t: np.ndarray  # node origin in the body frame
    rel_r: np.ndarray  # node rotation in the body frame (3×3)
    ratio: float = 0.0
    gimbal: np.ndarray = field(default_factory=lambda: np.zeros(2))
    last_force: np.ndarray = field(default_factory=lambda: np.zeros(3))  # world N, for reports and tests

    @property
    def hover(self) -> bool:
        return isinstance(self.spec, HoverThruster)

    @property
    def capacity(self) -> float:
        return self.spec.max_hover_energy if isinstance(self.spec, HoverThruster) else self.spec.max_force


def nearest_body(rw: Any, node: int) -> int | None:
    """The node itself or its nearest ancestor that is a body in ``rw``."""
    return frames.nearest_body(rw.doc_json, rw.handle_of, node)


def relative_pose(rw: Any, body: int, node: int) -> tuple[np.ndarray, np.ndarray]:
    """``node``'s origin and rotation in ``body``'s runtime frame (scale removed)."""
    rel = np.linalg.inv(body_frame(rw._world_m[body])) @ rw._world_m[node]
    t, q, _ = decompose(rel)
    return np.asarray(t, dtype=np.float64), quat_to_matrix(np.asarray(q))


def build_thrusters(rw: Any, specs: list[Thruster | HoverThruster]) -> list[ThrusterState]:
    out = []
    for spec in specs:
        body = nearest_body(rw, spec.node)
        if body is None:
            continue  # THR-1 / HOVER-1 violated: nothing to push
        t, r = relative_pose(rw, body, spec.node)
        out.append(ThrusterState(spec, rw.handle_of[body], body, t, r))
    return out


def approach(current: float, target: float, rate: float, dt: float) -> float:
    """``current`` moved towards ``target`` by at most rate·dt (negative rate: at once)."""
    if rate < 0:
        return target
    step = rate * dt
    return min(max(target, current - step), current + step)


def approach_vec(current: np.ndarray, target: np.ndarray, rate: float, dt: float) -> np.ndarray:
    if rate < 0:
        return target.copy()
    gap = target - current
    n = float(np.linalg.norm(gap))
    step = rate * dt
    return target.copy() if n <= step else current + gap * (step / n)


def gimbal_axis(g: np.ndarray) -> np.ndarray:
    """+Z turned by the axis-angle (g.x, g.y, 0) (node space)."""
    angle = math.hypot(g[0], g[1])
    if angle < 1e-12:
        return Z.copy()
    kx, ky = g[0] / angle, g[1] / angle
    s, c = math.sin(angle), math.cos(angle)
    # Rodrigues for v = +Z, k = (kx, ky, 0): v c + (k × v) s + k (k·v)(1 − c), with k·v = 0
    return np.array([ky * s, -kx * s, c])


class Thrusters:
    def __init__(self, rw: Any, specs: list[Thruster | HoverThruster], forces: Any) -> None:
        self.rw = rw
        self.forces = forces
        self.states = build_thrusters(rw, specs)

    def set(self, settings: int, kind: str, name: str, value: Any) -> int:
        """Set model field ``name`` on every thruster using settings index ``settings``; returns how many."""
        import dataclasses

        n = 0
        for s in self.states:
            if s.spec.settings_index == settings and (s.hover == (kind == "hover")):
                s.spec = dataclasses.replace(s.spec, **{name: _coerce(getattr(s.spec, name), value, name)})
                n += 1
        return n

    def state(self) -> list[tuple[Any, float, np.ndarray, np.ndarray]]:
        """Per thruster: settings (pointers may set them), force ratio, gimbal and last force, for snapshots."""
        return [(s.spec, s.ratio, s.gimbal.copy(), s.last_force.copy()) for s in self.states]

    def restore(self, state: list[tuple[Any, float, np.ndarray, np.ndarray]]) -> None:
        """Back to a :meth:`state`."""
        for s, (spec, ratio, gimbal, force) in zip(self.states, state, strict=True):
            s.spec, s.ratio, s.gimbal, s.last_force = spec, ratio, gimbal.copy(), force.copy()

    def before_step(self, dt: float, vehicles: dict[int, Vehicle]) -> None:
        bodies = self.rw.bodies
        for s in self.states:
            b = bodies[s.handle]
            rot = quat_to_matrix(np.array(b.rotation.to_tuple()))
            vehicle = vehicles.get(s.body)
            axis_v = s.rel_r @ gimbal_axis(self._gimbal(s, dt))  # thrust axis in the body frame
            axis = rot @ axis_v
            point = rot @ s.rel_t + np.array(b.translation.to_tuple())
            target = self._target(s, vehicle, axis_v, axis, b)
            spec = s.spec
            rate = spec.hover_energy_change_rate if isinstance(spec, HoverThruster) else spec.force_change_rate
            cap = s.capacity
            s.ratio = approach(s.ratio, target, rate / cap if rate >= 0 and cap > 0 else -1.0, dt)
            magnitude = s.ratio * cap
            if s.hover and magnitude != 0.0:
                d = self._ground_distance(s, point, -axis)
                magnitude = 0.0 if d is None else magnitude / max(d, MIN_DISTANCE)
            s.last_force = magnitude * axis
            if magnitude != 0.0:
                self.forces.add(s.handle, s.last_force, point=point)

    def _gimbal(self, s: ThrusterState, dt: float) -> np.ndarray:
        g = np.asarray(s.spec.target_gimbal_ratio, dtype=np.float64)
        n = float(np.linalg.norm(g))
        if n > 1:
            g = g / n
        s.gimbal = approach_vec(s.gimbal, g * s.spec.max_gimbal, s.spec.gimbal_change_rate, dt)
        return s.gimbal

    def _target(self, s: ThrusterState, vehicle: Vehicle | None, axis_v: np.ndarray, axis: np.ndarray,
                b: rp.RigidBody) -> float:
        own = s.spec.target_hover_ratio if isinstance(s.spec, HoverThruster) else s.spec.target_force_ratio
        if vehicle is None:
            return min(max(own, 0.0), 1.0)
        target = own if s.hover else own + float(np.dot(vehicle.linear_activation, axis_v))
        target = min(max(target, 0.0), 1.0)
        if not s.hover and vehicle.max_speed >= 0:
            speed = float(np.dot(b.linvel.to_tuple(), axis))
            if speed >= vehicle.max_speed:
                return 0.0
        return target

    def _ground_distance(self, s: ThrusterState, point: np.ndarray, down: np.ndarray) -> float | None:
        world = self.rw.world
        ray = rp.Ray(tuple(point), tuple(down))
        qf = rp.QueryFilter.new().exclude_sensors().exclude_rigid_body(s.handle)
        hit = world.query_pipeline.cast_ray(ray, RAY_LENGTH, True, qf)
        return None if hit is None else float(hit[1])


def _coerce(current: Any, value: Any, name: str) -> Any:
    if isinstance(current, tuple):
        v = tuple(float(x) for x in value)
        if len(v) != len(current):
            raise ValueError(f"{name} needs {len(current)} numbers, got {value!r}")
        return v
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} needs a number, got {value!r}")
    return float(value)
