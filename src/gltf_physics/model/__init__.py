"""The engine-agnostic physics scene model (docs/architecture.md): plain typed dataclasses, SI units, xyzw
quaternions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import exports, listing
from .bodies import (
    IDENTITY_QUAT,
    ZERO3,
    Body,
    Collider,
    CollisionFilter,
    CombineMode,
    Motion,
    MotionType,
    PhysicsMaterial,
    Quat,
    Trigger,
)
from .scene import PhysicsScene, ReadNote
from .shapes import Box, Capsule, Cylinder, MeshShape, Plane, Shape, Sphere, Vec3, shape_kind

if TYPE_CHECKING:
    from .gravity import GravityField, GravityType, Seat, WorldGravity
    from .joints import DriveMode, DriveType, Joint, JointDrive, JointLimit, Pose
    from .vehicles import HoverThruster, Thruster, Vehicle, Wheel

# Joints, gravity fields, seats and vehicles are made on first use: a file without them never pays for their
# fourteen classes (~0.02 s CPU of `info`'s start-up on a small file).
__getattr__ = exports(__name__, {
    **dict.fromkeys(("DriveMode", "DriveType", "Joint", "JointDrive", "JointLimit", "Pose"), "joints"),
    **dict.fromkeys(("GravityField", "GravityType", "Seat", "WorldGravity"), "gravity"),
    **dict.fromkeys(("HoverThruster", "Thruster", "Vehicle", "Wheel"), "vehicles"),
})

__all__ = [
    "IDENTITY_QUAT",
    "ZERO3",
    "Body",
    "Box",
    "Capsule",
    "Collider",
    "CollisionFilter",
    "CombineMode",
    "Cylinder",
    "DriveMode",
    "DriveType",
    "GravityField",
    "GravityType",
    "HoverThruster",
    "Joint",
    "JointDrive",
    "JointLimit",
    "MeshShape",
    "Motion",
    "MotionType",
    "PhysicsMaterial",
    "PhysicsScene",
    "Plane",
    "Pose",
    "Quat",
    "ReadNote",
    "Seat",
    "Shape",
    "Sphere",
    "Thruster",
    "Trigger",
    "Vec3",
    "Vehicle",
    "Wheel",
    "WorldGravity",
    "shape_kind",
]

__dir__ = listing(__name__, __all__)
