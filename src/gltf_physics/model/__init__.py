"""The engine-agnostic physics scene model (DESIGN §1): plain typed dataclasses, SI units, xyzw quaternions."""

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
from .gravity import GravityField, GravityType, Seat, WorldGravity
from .joints import DriveMode, DriveType, Joint, JointDrive, JointLimit, Pose
from .scene import PhysicsScene, ReadNote
from .shapes import Box, Capsule, Cylinder, MeshShape, Plane, Shape, Sphere, Vec3, shape_kind
from .vehicles import HoverThruster, Thruster, Vehicle, Wheel

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
