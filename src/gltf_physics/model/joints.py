"""Joints: two body frames, limits and drives (docs/semantics.md).

Every generation is read into the same shape. A joint ties frame A (a pose in body A's node space, or in
world space when ``body_a`` is ``None``) to frame B (likewise for body B). The newest forms declare frame A
by the joint node and frame B by ``connectedNode``; the OMI seed form (gen1 constraints) has one joint node
whose pose relative to nodeA and nodeB gives both frames. ``node`` and ``connected_node`` remember where the
file put them so writers can reuse those nodes; they take no part in equality, so a seed pin joint equals
the newest pin joint with the same frames.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

from .bodies import IDENTITY_QUAT, ZERO3, Quat
from .shapes import Vec3


@dataclass(frozen=True)
class Pose:
    translation: Vec3 = ZERO3
    rotation: Quat = IDENTITY_QUAT


@dataclass(frozen=True)
class JointLimit:
    """Limits the listed axes of frame B relative to frame A to [min, max] (metres or radians).

    stiffness ``math.inf`` = a hard limit; finite = a spring acting only outside the range.
    A limit may list both axis kinds when read from a file that does (D-4); writers split it.
    """

    linear_axes: tuple[int, ...] = ()
    angular_axes: tuple[int, ...] = ()
    min: float = -math.inf
    max: float = math.inf
    stiffness: float = math.inf
    damping: float = 0.0
    pointer: str = field(default="", compare=False)


class DriveType(StrEnum):
    LINEAR = "linear"
    ANGULAR = "angular"


class DriveMode(StrEnum):
    FORCE = "force"
    ACCELERATION = "acceleration"


@dataclass(frozen=True)
class JointDrive:
    """value = stiffness·(positionTarget − pos) + damping·(velocityTarget − vel), |value| ≤ max_force.

    ``position_target`` ``None`` = no spring term; ``velocity_target`` ``None`` with a position target
    means 0 (D-11), kept as ``None`` here so a round trip writes what was read.
    """

    type: DriveType
    mode: DriveMode
    axis: int
    max_force: float = math.inf
    position_target: float | None = None
    velocity_target: float | None = None
    stiffness: float = 0.0
    damping: float = 0.0
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Joint:
    body_a: int | None
    frame_a: Pose
    body_b: int | None
    frame_b: Pose
    limits: tuple[JointLimit, ...] = ()
    drives: tuple[JointDrive, ...] = ()
    enable_collision: bool = False
    node: int = field(default=-1, compare=False)
    connected_node: int | None = field(default=None, compare=False)
    settings_index: int | None = field(default=None, compare=False)  # index into the file's joint array
    pointer: str = field(default="", compare=False)
