"""glTF Object Model pointers → model fields, for ``World.set`` and ``simulate --set`` (docs/cli.rst).

Only this module knows how the extensions spell the runtime-settable properties. :func:`resolve` turns a
pointer into a :class:`Target` naming a model object and a model field (snake_case, as in
``gltf_physics.model``):

- ``/nodes/N/extensions/{KHR_physics_rigid_bodies|OMI_physics_body}/motion/<prop>`` → ``("motion", N, field)``
  with field ``linear_velocity``, ``angular_velocity``, ``gravity_factor`` or ``mass``;
- ``/extensions/{KHR_physics_rigid_bodies|OMI_physics_joint}/physicsJoints/J/{limits|drives}/K/<prop>`` →
  ``("joint_settings", J, "drives/K/velocity_target")`` (applies to every joint using settings J);
- ``/nodes/N/extensions/{KHR_physics_rigid_bodies/joint|OMI_physics_joint}/enableCollision`` →
  ``("joint_node", N, "enable_collision")``;
- ``/nodes/N/extensions/OMI_vehicle_body/<prop>`` → ``("vehicle", N, field)``;
- ``/extensions/OMI_vehicle_wheel/wheels/I/<prop>``, ``/extensions/OMI_vehicle_thruster/thrusters/I/<prop>``,
  ``/extensions/OMI_vehicle_hover_thruster/hoverThrusters/I/<prop>`` → ``("wheel"|"thruster"|"hover", I,
  field)`` (every part using settings I; gen1 ``current*``/``maxForce`` names map to the gen2 fields);
- ``/nodes/N/extensions/OMI_physics_gravity/<prop>`` → ``("gravity", N, field)`` (gravity, priority,
  replace, stop).

:func:`body_family` tells which family declared a body (from its pointer), for the few runtime rules that
differ (docs/semantics.md: OMI kinematic follows animation, KHR isKinematic keeps its velocity).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ...model import Body
from ..registry import (
    KHR_PHYSICS_RIGID_BODIES,
    OMI_PHYSICS_BODY,
    OMI_PHYSICS_GRAVITY,
    OMI_PHYSICS_JOINT,
    OMI_VEHICLE_BODY,
    OMI_VEHICLE_HOVER_THRUSTER,
    OMI_VEHICLE_THRUSTER,
    OMI_VEHICLE_WHEEL,
)

KHR = KHR_PHYSICS_RIGID_BODIES
OMI_BODY = OMI_PHYSICS_BODY
OMI_JOINT = OMI_PHYSICS_JOINT
OMI_VEHICLE = OMI_VEHICLE_BODY
OMI_WHEEL, OMI_THRUSTER, OMI_HOVER, OMI_GRAVITY = (
    OMI_VEHICLE_WHEEL, OMI_VEHICLE_THRUSTER, OMI_VEHICLE_HOVER_THRUSTER, OMI_PHYSICS_GRAVITY)

MOTION_FIELDS = {
    "linearVelocity": "linear_velocity",
    "angularVelocity": "angular_velocity",
    "gravityFactor": "gravity_factor",
    "mass": "mass",
}
LIMIT_FIELDS = {"min": "min", "max": "max", "stiffness": "stiffness", "damping": "damping"}
DRIVE_FIELDS = {
    "maxForce": "max_force",
    "positionTarget": "position_target",
    "velocityTarget": "velocity_target",
    "stiffness": "stiffness",
    "damping": "damping",
}
VEHICLE_FIELDS = {
    "linearActivation": "linear_activation",
    "angularActivation": "angular_activation",
    "gyroTorque": "gyro_torque",
    "maxSpeed": "max_speed",
    "angularDampeners": "angular_dampeners",
    "linearDampeners": "linear_dampeners",
    "useThrottle": "use_throttle",
}

_MOTION = re.compile(rf"^/nodes/(\d+)/extensions/(?:{KHR}|{OMI_BODY})/motion/(\w+)$")
_SETTINGS = re.compile(
    rf"^/extensions/(?:{KHR}|{OMI_JOINT})/physicsJoints/(\d+)/(limits|drives)/(\d+)/(\w+)$")
_JOINT_NODE = re.compile(rf"^/nodes/(\d+)/extensions/(?:{KHR}/joint|{OMI_JOINT})/enableCollision$")
_VEHICLE = re.compile(rf"^/nodes/(\d+)/extensions/{OMI_VEHICLE}/(\w+)$")
_GRAVITY = re.compile(rf"^/nodes/(\d+)/extensions/{OMI_GRAVITY}/(\w+)$")

WHEEL_FIELDS = {
    "targetPropulsionForceRatio": "target_propulsion_force_ratio",
    "currentForceRatio": "target_propulsion_force_ratio",  # gen1 (the spec)
    "targetSteeringRatio": "target_steering_ratio",
    "currentSteeringRatio": "target_steering_ratio",  # gen1
    "maxPropulsionForce": "max_propulsion_force",
    "maxForce": "max_propulsion_force",  # gen1
    "maxSteeringAngle": "max_steering_angle",
    "brakingForce": "braking_force",
    "propulsionForceChangeRate": "propulsion_force_change_rate",
    "steeringChangeRate": "steering_change_rate",
}
THRUSTER_FIELDS = {
    "targetForceRatio": "target_force_ratio",
    "currentForceRatio": "target_force_ratio",  # gen1
    "targetGimbalRatio": "target_gimbal_ratio",
    "currentGimbalRatio": "target_gimbal_ratio",  # gen1
    "maxForce": "max_force",
    "maxGimbal": "max_gimbal",
    "gimbalChangeRate": "gimbal_change_rate",
    "forceChangeRate": "force_change_rate",
}
HOVER_FIELDS = {
    "targetHoverRatio": "target_hover_ratio",
    "currentHoverRatio": "target_hover_ratio",  # gen1 text
    "currentForceRatio": "target_hover_ratio",  # gen1 schema spelling
    "targetGimbalRatio": "target_gimbal_ratio",
    "currentGimbalRatio": "target_gimbal_ratio",
    "maxHoverEnergy": "max_hover_energy",
    "maxGimbal": "max_gimbal",
    "gimbalChangeRate": "gimbal_change_rate",
    "hoverEnergyChangeRate": "hover_energy_change_rate",
}
GRAVITY_FIELDS = {"gravity": "gravity", "priority": "priority", "replace": "replace", "stop": "stop"}

_PARTS = {  # document-level settings arrays: kind, field table
    f"{OMI_WHEEL}/wheels": ("wheel", WHEEL_FIELDS),
    f"{OMI_THRUSTER}/thrusters": ("thruster", THRUSTER_FIELDS),
    f"{OMI_HOVER}/hoverThrusters": ("hover", HOVER_FIELDS),
}
_PART = re.compile(r"^/extensions/(\w+/\w+)/(\d+)/(\w+)$")

Kind = Literal["motion", "joint_settings", "joint_node", "vehicle", "wheel", "thruster", "hover", "gravity"]


@dataclass(frozen=True)
class Target:
    kind: Kind
    index: int  # node index (motion, joint_node, vehicle, gravity) or settings index (the others)
    field: str


def resolve(pointer: str) -> Target:
    """The model target of an Object Model pointer; ``ValueError`` naming the pointer when unsupported."""
    if m := _MOTION.match(pointer):
        return Target("motion", int(m[1]), _field(MOTION_FIELDS, m[2], pointer))
    if m := _SETTINGS.match(pointer):
        table = LIMIT_FIELDS if m[2] == "limits" else DRIVE_FIELDS
        return Target("joint_settings", int(m[1]), f"{m[2]}/{int(m[3])}/{_field(table, m[4], pointer)}")
    if m := _JOINT_NODE.match(pointer):
        return Target("joint_node", int(m[1]), "enable_collision")
    if m := _VEHICLE.match(pointer):
        return Target("vehicle", int(m[1]), _field(VEHICLE_FIELDS, m[2], pointer))
    if (m := _PART.match(pointer)) and m[1] in _PARTS:
        kind, table = _PARTS[m[1]]
        return Target(kind, int(m[2]), _field(table, m[3], pointer))  # type: ignore[arg-type]
    if m := _GRAVITY.match(pointer):
        return Target("gravity", int(m[1]), _field(GRAVITY_FIELDS, m[2], pointer))
    raise ValueError(f"{pointer}: not a settable physics property")


def _field(table: dict[str, str], name: str, pointer: str) -> str:
    if name not in table:
        raise ValueError(f"{pointer}: {name!r} is not settable at runtime (settable: {', '.join(table)})")
    return table[name]


def body_family(body: Body) -> Literal["omi", "khr"]:
    """The family that declared ``body`` (KHR unless its pointer names an OMI extension)."""
    return "omi" if OMI_BODY in body.pointer else "khr"
