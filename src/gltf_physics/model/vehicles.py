"""Vehicles, wheels, thrusters and hover thrusters (OMI_vehicle_*, docs/semantics.md).

Fields use the gen2 (``target*``) names. Readers of gen1 map ``current*``→``target*`` and ``maxForce``→
``max_propulsion_force``, and set change rates to -1 (instant), which is gen1's behaviour (docs/interop.md).
A negative change rate means "instant"; a negative ``max_speed`` means unlimited.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .bodies import ZERO3
from .shapes import Vec3


@dataclass(frozen=True)
class Vehicle:
    node: int
    linear_activation: Vec3 = ZERO3
    angular_activation: Vec3 = ZERO3
    gyro_torque: Vec3 = ZERO3
    max_speed: float = -1.0
    pilot_seat: int | None = None
    angular_dampeners: bool = True
    linear_dampeners: bool = True
    use_throttle: bool = False
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Wheel:
    node: int
    vehicle: int | None  # the vehicle body node above it, None when there is none (WHEEL-1)
    target_propulsion_force_ratio: float = 0.0
    target_steering_ratio: float = 0.0
    max_propulsion_force: float = 0.0
    max_steering_angle: float = 0.0
    physics_material: int | None = None
    radius: float = 0.25
    width: float = 0.125
    suspension_damping_compression: float = 2000.0
    suspension_damping_rebound: float = 2000.0
    suspension_stiffness: float = 20000.0
    suspension_travel: float = 0.25
    braking_force: float = -1.0
    propulsion_force_change_rate: float = -1.0
    steering_change_rate: float = 1.0
    settings_index: int | None = field(default=None, compare=False)
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Thruster:
    node: int
    vehicle: int | None
    max_force: float = 0.0
    target_force_ratio: float = 0.0
    target_gimbal_ratio: tuple[float, float] = (0.0, 0.0)
    max_gimbal: float = 0.0
    gimbal_change_rate: float = 1.0
    force_change_rate: float = -1.0
    linear_gimbal_adjust_ratio: float = 0.0
    settings_index: int | None = field(default=None, compare=False)
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class HoverThruster:
    node: int
    vehicle: int | None
    max_hover_energy: float = 0.0
    target_hover_ratio: float = 0.0
    target_gimbal_ratio: tuple[float, float] = (0.0, 0.0)
    max_gimbal: float = 0.0
    gimbal_change_rate: float = 1.0
    hover_energy_change_rate: float = -1.0
    linear_gimbal_adjust_ratio: float = 0.5
    settings_index: int | None = field(default=None, compare=False)
    pointer: str = field(default="", compare=False)
