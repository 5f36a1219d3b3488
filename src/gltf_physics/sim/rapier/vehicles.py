"""Vehicles (OMI_vehicle_body / _wheel, docs/semantics.md, "Thrusters"), on Rapier's ray-cast vehicle.

Each vehicle body with wheels gets a ``DynamicRayCastVehicleController`` (forward +Z, up +Y in the body
frame). A wheel is a suspension ray along body −Y from ``wheel origin + suspensionTravel·Y``, rest length
= travel: unloaded, the wheel centre sits where the file puts it; fully compressed, it has risen by the
travel. Rapier's spring and dampers are per kg of chassis (its force is k·Δ·m), so the spec's N/m and N·s/m
are divided by the chassis mass; the maximum suspension force is unlimited. Friction: the wheel's physics
material's dynamic friction (OMI default 0.6) as Rapier's ``friction_slip`` (a Coulomb bound on the drive
and brake impulses by the suspension load); the ground's material is not combined in.

Inputs (docs/semantics.md): propulsion ratio = the wheel's own targetPropulsionForceRatio + the vehicle's
linearActivation along the wheel's unsteered +Z (vehicle frame), clipped to [−1, 1], times
maxPropulsionForce, moved at propulsionForceChangeRate N/s; steering angle = (targetSteeringRatio +
angularActivation.y, clipped) · maxSteeringAngle about +Y (+ = left), moved at steeringChangeRate rad/s. No
propulsion beyond maxSpeed (≥ 0) in the direction of travel. Linear dampeners on a wheeled vehicle: a wheel
with no propulsion input brakes with brakingForce (−1: its maxPropulsionForce; 0: none). Rapier's brake is an
impulse per step: force·dt.

Vehicle body (with or without wheels): torque gyroTorque ⊙ angularActivation in the vehicle frame; angular
dampeners: on a vehicle axis with zero angular activation, a torque −I·ω/τ (τ = 0.25 s, I the body's principal
inertia on that axis) clipped to ±gyroTorque (no gyro, no angular dampening). Linear dampeners on a vehicle
without wheels: on a vehicle axis with zero linear activation and no thruster firing along it, a force −m·v/τ,
clipped to the thrust its thrusters could give along that axis (unlimited when it has hover thrusters).
``useThrottle`` needs no runtime action here: activations set through pointers persist until set again.
The chassis is kept awake (a sleeping chassis freezes mid-suspension: measured). A chassis that nothing can
move (infinite mass and inertia) gets no wheel update: Rapier's rolling friction divides by its response.

Static-compression bias (measured, inherent to Rapier's impulse vehicle at a fixed step): the damper reads the
chassis velocity left by the last step, −(3/8)·g·dt at rest with Rapier's 4 solver substeps, so a wheel at
rest carries c·(3/8)·g·dt of damper force and the static compression is short of m·g/(n·k) by that much
(5 % at 60 Hz with the spec defaults; it shrinks with dt).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import rapier3d as rp

from ...geometry.mass import MassProperties
from ...gltf.transforms import quat_to_matrix
from ...model.bodies import PhysicsMaterial
from ...model.scene import PhysicsScene
from ...model.vehicles import Vehicle, Wheel
from .thrusters import Thrusters, nearest_body, relative_pose

DAMPENER_TIME = 0.25  # s: dampeners remove velocity with this time constant
MIN_TRAVEL = 1e-3
UNLIMITED = 1e9


@dataclass
class WheelState:
    spec: Wheel
    controller: int  # index in VehicleDriver.rays
    index: int  # wheel index in that controller
    forward_v: np.ndarray  # the wheel's unsteered +Z in the vehicle frame
    mount: tuple[Any, ...] = ()  # (origin, axle, travel, friction slip) as given to the controller


class VehicleDriver:
    def __init__(self, rw: Any, scene: PhysicsScene, forces: Any) -> None:
        self.rw = rw
        self.forces = forces
        self.vehicles: dict[int, Vehicle] = {v.node: v for v in scene.vehicles if v.node in rw.handle_of}
        self.rays: list[rp.DynamicRayCastVehicleController] = []
        self.wheels: list[WheelState] = []
        self._build_wheels(scene)
        self._chassis_nodes = [self.rw.node_of[r.chassis()] for r in self.rays]
        self._wheeled = set(self._chassis_nodes)  # chassis nodes (was an O(V) scan per vehicle)
        n = len(self.wheels)
        self._applied = np.full((n, 3), np.nan)  # force, steering, brake last given to Rapier, per wheel
        self._state = np.zeros((n, 2))  # force, steering now (the wheels' ``force`` / ``steering``)
        self._inputs: _WheelInputs | None = None  # the settings as arrays; None: rebuild (after ``set``)
        self._settled: float | None = None  # the dt at which the wheel values stopped changing (None: not)
        self._driven: list[int] | None = None  # vehicle nodes needing ``_body`` each step; None: rebuild
        self._world: Any = None  # the world the chassis objects below belong to
        self._chassis: list[rp.RigidBody] = []
        self._filter = rp.QueryFilter.new().exclude_sensors()
        self._motion_edits = rw.motion_edits  # the world's motion edits seen (a mass change retunes the wheels)
        self.thrusters = Thrusters(rw, [*scene.thrusters, *scene.hover_thrusters], forces)
        self._thrusters_of: dict[int, list[Any]] = {}  # body node → its thruster states
        for st in self.thrusters.states:
            self._thrusters_of.setdefault(st.body, []).append(st)

    # -- building ------------------------------------------------------------------------------------
    def _build_wheels(self, scene: PhysicsScene) -> None:
        by_body: dict[int, int] = {}
        for w in scene.wheels:
            body = nearest_body(self.rw, w.node) if w.node not in self.rw.handle_of else None
            if body is None:
                continue  # WHEEL-1 violated (no body above, or the wheel is the body)
            if body not in by_body:
                by_body[body] = len(self.rays)
                ray = rp.DynamicRayCastVehicleController(self.rw.handle_of[body])
                ray.index_up_axis, ray.index_forward_axis = 1, 2
                self.rays.append(ray)
            k = by_body[body]
            t, r = relative_pose(self.rw, body, w.node)
            travel = max(w.suspension_travel, MIN_TRAVEL)
            origin = (float(t[0]), float(t[1] + travel), float(t[2]))
            axle = tuple(float(x) for x in r @ np.array([-1.0, 0.0, 0.0]))  # −X: a positive force drives +Z
            mount = (origin, axle, travel, _friction(scene.materials, w.physics_material))
            index = self.rays[k].add_wheel(origin, (0.0, -1.0, 0.0), axle, travel, w.radius,
                                           self._tuning(w, body, mount))
            self.wheels.append(WheelState(w, k, index, r @ np.array([0.0, 0.0, 1.0]), mount))
        self._masses = self._chassis_masses()

    def _tuning(self, w: Wheel, body: int, mount: tuple[Any, ...]) -> rp.WheelTuning:
        """Rapier's suspension coefficients are per unit of chassis mass: the spec's N/m and N·s/m over it."""
        mass, travel, friction = self._mass(body), mount[2], mount[3]
        return rp.WheelTuning(
            suspension_stiffness=w.suspension_stiffness / mass,
            suspension_compression=w.suspension_damping_compression / mass,
            suspension_damping=w.suspension_damping_rebound / mass,
            max_suspension_travel=travel, side_friction_stiffness=1.0,
            friction_slip=friction, max_suspension_force=UNLIMITED)

    def _chassis_masses(self) -> list[float]:
        return [self._mass(self.rw.node_of[r.chassis()]) for r in self.rays]

    def _retune(self) -> None:
        """New controllers with the wheels tuned for the chassis' mass now (a wheel's tuning cannot be edited
        in place: ``wheel(i)`` is a copy). The suspension's rest and travel, the wheel values (applied again
        next step) and the spec's settings carry over; Rapier recomputes contact and compression every update."""
        rays = []
        for old in self.rays:
            ray = rp.DynamicRayCastVehicleController(old.chassis())
            ray.index_up_axis, ray.index_forward_axis = 1, 2
            rays.append(ray)
        for w in self.wheels:
            origin, axle, travel, _ = w.mount
            body = self.rw.node_of[rays[w.controller].chassis()]
            w.index = rays[w.controller].add_wheel(origin, (0.0, -1.0, 0.0), axle, travel, w.spec.radius,
                                                   self._tuning(w.spec, body, w.mount))
        self.rays = rays
        self._applied[:] = np.nan  # the new controllers hold no force, steering or brake yet
        self._settled = None
        self._masses = self._chassis_masses()

    def _mass(self, body: int) -> float:
        mp = self.rw.mass_of.get(body)
        return mp.mass if mp is not None and math.isfinite(mp.mass) and mp.mass > 0 else 1.0

    # -- runtime edits ------------------------------------------------------------------------------
    def set(self, kind: str, index: int, name: str, value: Any) -> None:
        """``kind`` vehicle (index = body node), wheel / thruster / hover (index = settings index)."""
        self._inputs = self._driven = None  # settings changed: rebuild what is derived from them
        if kind == "vehicle":
            v = self.vehicles.get(index)
            if v is None:
                raise ValueError(f"node {index} is not a simulated vehicle body")
            self.vehicles[index] = dataclasses.replace(v, **{name: _coerce(getattr(v, name), value, name)})
        elif kind == "wheel":
            hits = [w for w in self.wheels if w.spec.settings_index == index]
            if not hits:
                raise ValueError(f"no simulated wheel uses wheel settings {index}")
            for w in hits:
                w.spec = dataclasses.replace(w.spec, **{name: _coerce(getattr(w.spec, name), value, name)})
        elif self.thrusters.set(index, kind, name, value) == 0:
            raise ValueError(f"no simulated {kind} thruster uses settings {index}")

    # -- snapshots -----------------------------------------------------------------------------------
    def state(self) -> tuple[Any, ...]:
        """What a snapshot needs beside the Rapier world: the ray-cast controllers (suspension, speed and
        the wheel values they were given), the force and steering ramps, pointer-set settings, thrusters."""
        return ([r.to_bytes() for r in self.rays], self._applied.copy(), self._state.copy(), dict(self.vehicles),
                [w.spec for w in self.wheels], self.thrusters.state())

    def restore(self, state: tuple[Any, ...]) -> None:
        """Back to a :meth:`state`: the ray-cast controllers are the snapshot's copies."""
        rays, applied, ramps, vehicles, specs, thrusters = state
        self.rays = [rp.DynamicRayCastVehicleController.from_bytes(b) for b in rays]
        self._applied, self._state, self.vehicles = applied.copy(), ramps.copy(), dict(vehicles)
        for w, spec in zip(self.wheels, specs, strict=True):
            w.spec = spec
        self.thrusters.restore(thrusters)
        self._inputs = self._driven = None  # derived from the settings
        self._world = None  # the chassis objects belong to the old world
        self._masses = self._chassis_masses()  # the snapshot's controllers are tuned for the snapshot's masses

    # -- stepping ------------------------------------------------------------------------------------
    def before_step(self, dt: float) -> None:
        """Vehicle bodies, thrusters and wheels for the coming engine step."""
        rw = self.rw
        if self._driven is None:
            self._driven = [node for node, v in self.vehicles.items() if self._needs_body(node, v)]
        for node in self._driven:
            self._body(node, dt)
        if self.thrusters.states or self.rays:
            rw.world.update_query_pipeline()  # rays see this step's poses (cheap next to a step)
        self.thrusters.before_step(dt, self.vehicles)
        if not self.rays:
            return
        if rw.motion_edits != self._motion_edits:  # a mass set since: the suspension is per unit of mass
            self._motion_edits = rw.motion_edits
            if self._chassis_masses() != self._masses:
                self._retune()
        self._wheels_step(dt)
        if rw.world is not self._world:  # first step or restored: the chassis objects of this world
            self._world = rw.world
            self._chassis = [rw.bodies[ray.chassis()] for ray in self.rays]
        bodies, colliders, query, qf = rw.bodies, rw.colliders, rw.world.query_pipeline, self._filter
        for ray, chassis, node in zip(self.rays, self._chassis, self._chassis_nodes, strict=True):
            if _immovable(rw.mass_of.get(node)):
                continue  # no impulse moves it, and Rapier's rolling friction divides by its (zero) response
            chassis.wake_up(True)
            ray.update_vehicle(dt, bodies, colliders, query, qf)

    def _needs_body(self, node: int, v: Vehicle) -> bool:
        """Whether :meth:`_body` does anything for this vehicle: a wheeled chassis without gyro gets no torque
        nor dampening force, and the wheel loop wakes it (the same strong wake, before the same update)."""
        return node not in self._wheeled or any(v.gyro_torque)

    def _wheels_step(self, dt: float) -> None:
        """Every wheel's propulsion, steering and brake in one NumPy pass (the rules of the module docstring,
        "Inputs"); the controller is told only the values that changed since the last step (it keeps them)."""
        if self._inputs is None:
            self._inputs, self._settled = _WheelInputs.of(self), None
        if self._settled == dt:
            return
        x = self._inputs
        ratio, steer = x.ratio, x.steer
        if x.capped is not None:  # maxSpeed: no propulsion beyond it in the direction of travel
            speed = np.array([r.current_vehicle_speed if m >= 0 else 0.0
                              for r, m in zip(self.rays, x.max_speed.tolist(), strict=True)])[x.controller]
            stop = x.capped & (np.abs(speed) >= x.max_speed_w) & (ratio * speed > 0)
            ratio = np.where(stop, 0.0, ratio)
        # force and steering side by side: (W, 2) targets moved at (W, 2) rates
        self._state = _approach(self._state, np.column_stack([ratio, steer]) * x.limits, x.rates, dt)
        brake = np.where(x.damp & (ratio == 0.0), x.spec[:, 6], 0.0) * dt
        now = np.column_stack([self._state, brake])
        changed = now != self._applied  # NaN (never applied) compares unequal
        rows = np.flatnonzero(changed.any(axis=1))
        for i, (f, st, br), (cf, cs, cb) in zip(rows.tolist(), now[rows].tolist(), changed[rows].tolist(),
                                                strict=True):
            w = self.wheels[i]
            ray = self.rays[w.controller]
            if cf:
                ray.apply_engine_force(w.index, f)
            if cs:
                ray.set_steering(w.index, st)
            if cb:
                ray.set_brake(w.index, br)
        self._applied[rows] = now[rows]
        if len(rows) == 0 and x.capped is None:
            # Nothing moved: every ramp sits on its target (a ramp that did not move has reached it, or its
            # rate is 0), and without maxSpeed nothing depends on the motion, so the next steps give these same
            # values, bit for bit, until a pointer or a restore changes the inputs.
            self._settled = dt

    def _body(self, node: int, dt: float) -> None:
        v = self.vehicles[node]
        rw = self.rw
        handle = rw.handle_of[node]
        b = rw.bodies[handle]
        if not b.is_dynamic:
            return
        if not any(v.gyro_torque) and (node in self._wheeled or not v.linear_dampeners):
            b.wake_up(True)  # no torque (no gyro) and no dampening force: nothing to compute
            return
        rot = quat_to_matrix(np.array(b.rotation.to_tuple()))
        gyro = np.asarray(v.gyro_torque, dtype=np.float64)
        torque = gyro * np.clip(np.asarray(v.angular_activation, dtype=np.float64), -1.0, 1.0)
        mp = rw.mass_of.get(node)
        if v.angular_dampeners and mp is not None:
            w_local = rot.T @ np.array(b.angvel.to_tuple())
            inertia = np.array([x if math.isfinite(x) else 0.0 for x in mp.inertia_diagonal])
            damp = np.clip(-inertia * w_local / DAMPENER_TIME, -gyro, gyro)
            torque = np.where(np.asarray(v.angular_activation) == 0.0, damp, torque)
        force = self._linear_dampening(v, node, b, rot) if v.linear_dampeners and mp is not None else None
        if np.any(torque != 0.0) or force is not None:
            self.forces.add(handle, force, torque=rot @ torque)
        b.wake_up(True)

    def _linear_dampening(self, v: Vehicle, node: int, b: rp.RigidBody, rot: np.ndarray) -> np.ndarray | None:
        if node in self._wheeled:
            return None  # wheeled: the wheels brake
        mass = self.rw.mass_of[node].mass
        if not math.isfinite(mass):
            return None
        reach = np.zeros(3)  # thrust available along each vehicle axis
        firing = np.zeros(3, dtype=bool)
        for s in self._thrusters_of.get(node, ()):
            axis_v = s.rel_r @ np.array([0.0, 0.0, 1.0])
            reach += math.inf if s.hover else s.capacity * np.abs(axis_v)
            if not s.hover and s.ratio > 0:
                firing |= np.abs(axis_v) > 0.1
        v_local = rot.T @ np.array(b.linvel.to_tuple())
        f = np.clip(-mass * v_local / DAMPENER_TIME, -reach, reach)
        f = np.where((np.asarray(v.linear_activation) == 0.0) & ~firing, f, 0.0)
        return rot @ f if np.any(f != 0.0) else None

    def wheel_states(self) -> list[dict[str, Any]]:
        """Per wheel: node, suspension length (m), contact, force (N), steering (rad) — for reports and tests."""
        out = []
        for w, (force, steering) in zip(self.wheels, self._state.tolist(), strict=True):
            info = self.rays[w.controller].wheel(w.index)
            ri = info.raycast_info
            out.append({"node": w.spec.node, "suspension_length": float(ri.suspension_length),
                        "in_contact": bool(ri.is_in_contact), "force": force, "steering": steering,
                        "suspension_force": float(info.wheel_suspension_force)})
        return out


@dataclass
class _WheelInputs:
    """Per-wheel arrays of what the settings and activations give, rebuilt only when a pointer sets them."""

    controller: np.ndarray  # (W,) index of each wheel's ray-cast controller
    spec: np.ndarray  # (W, 7) ratio, steering ratio, max force, max angle, force rate, steering rate, brake
    limits: np.ndarray  # (W, 2) max force, max angle
    rates: np.ndarray  # (W, 2) force rate, steering rate
    ratio: np.ndarray  # (W,) propulsion ratio in [−1, 1] (before maxSpeed)
    steer: np.ndarray  # (W,) steering ratio in [−1, 1]
    damp: np.ndarray  # (W,) the vehicle has linear dampeners: an idle wheel brakes
    max_speed: np.ndarray  # (controllers,) the vehicle's maxSpeed (< 0: unlimited or no vehicle)
    max_speed_w: np.ndarray  # (W,) the same per wheel
    capped: np.ndarray | None  # (W,) wheels under a maxSpeed; None: no vehicle has one

    @staticmethod
    def of(driver: VehicleDriver) -> _WheelInputs:
        ws = driver.wheels
        c = np.array([w.controller for w in ws], dtype=np.int64)
        vehicles = [driver.vehicles.get(node) for node in driver._chassis_nodes]
        has_v = np.array([v is not None for v in vehicles])[c]
        lin = np.array([v.linear_activation if v is not None else (0.0, 0.0, 0.0) for v in vehicles])[c]
        ang_y = np.array([v.angular_activation[1] if v is not None else 0.0 for v in vehicles])[c]
        spec = np.array([(w.spec.target_propulsion_force_ratio, w.spec.target_steering_ratio,
                          w.spec.max_propulsion_force, w.spec.max_steering_angle,
                          w.spec.propulsion_force_change_rate, w.spec.steering_change_rate,
                          w.spec.max_propulsion_force if w.spec.braking_force < 0 else w.spec.braking_force)
                         for w in ws])
        forward = np.array([w.forward_v for w in ws])
        ratio = spec[:, 0] + np.where(has_v, np.einsum("ij,ij->i", lin, forward), 0.0)
        steer = spec[:, 1] + np.where(has_v, ang_y, 0.0)
        max_speed = np.array([v.max_speed if v is not None else -1.0 for v in vehicles])
        capped = has_v & (max_speed[c] >= 0) if np.any(max_speed >= 0) else None
        damp = np.array([v is not None and v.linear_dampeners for v in vehicles])[c]
        return _WheelInputs(c, spec, spec[:, 2:4].copy(), spec[:, 4:6].copy(), np.clip(ratio, -1.0, 1.0),
                            np.clip(steer, -1.0, 1.0), damp, max_speed, max_speed[c], capped)


def _immovable(mp: MassProperties | None) -> bool:
    """Infinite mass and inertia on every axis (a KHR mass and inertia of 0): no wheel impulse can move it."""
    # Rapier reads a zero mass or inertia as infinite, as it does an infinite one (sim/rapier/bodies.py).
    return mp is not None and (math.isinf(mp.mass) or mp.mass == 0.0) and all(
        math.isinf(v) or v == 0.0 for v in mp.inertia_diagonal)


def _friction(materials: list[PhysicsMaterial], index: int | None) -> float:
    if index is not None and 0 <= index < len(materials):
        return materials[index].dynamic_friction
    return PhysicsMaterial().dynamic_friction


def _coerce(current: Any, value: Any, name: str) -> Any:
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{name} needs true or false, got {value!r}")
        return value
    if isinstance(current, tuple):
        v = tuple(float(x) for x in value)
        if len(v) != len(current) or not all(math.isfinite(x) for x in v):
            raise ValueError(f"{name} needs {len(current)} finite numbers, got {value!r}")
        return v
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name} needs a finite number, got {value!r}")
    return float(value)


def _approach(current: np.ndarray, target: np.ndarray, rate: np.ndarray, dt: float) -> np.ndarray:
    """:func:`approach` for arrays: moved towards ``target`` by at most rate·dt (negative rate: at once)."""
    step = rate * dt
    return np.where(rate < 0, target, np.minimum(np.maximum(target, current - step), current + step))
