"""Rigid bodies, colliders, triggers, materials and collision filters.

Meanings are normalised across families (docs/architecture.md): an infinite mass or inertia is ``math.inf``, never 0;
a value the file leaves to the engine ("compute it from the shapes") is ``None``. Readers translate each
generation's conventions (KHR 0 = infinite, OMI inertia 0 = computed; D-5, D-6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .shapes import Shape, Vec3

Quat = tuple[float, float, float, float]  # xyzw

IDENTITY_QUAT: Quat = (0.0, 0.0, 0.0, 1.0)
ZERO3: Vec3 = (0.0, 0.0, 0.0)


class MotionType(StrEnum):
    STATIC = "static"
    KINEMATIC = "kinematic"
    DYNAMIC = "dynamic"


@dataclass(frozen=True)
class Motion:
    """A node that moves as one rigid body with the colliders beneath it (docs/semantics.md).

    mass: kg; ``math.inf`` = infinite; ``None`` = compute from collider volumes.
    inertia_diagonal: kg·m² about principal axes; a component ``math.inf`` blocks rotation about that axis;
    ``None`` = compute from the shapes.
    center_of_mass: node space; ``None`` = compute from the shapes.
    legacy_type: the old body ``type`` string (``rigid``, ``character``, ``vehicle``…) when read from a
    generation that had one; informational only, so not part of equality.
    """

    type: MotionType = MotionType.DYNAMIC
    mass: float | None = None
    center_of_mass: Vec3 | None = None
    inertia_diagonal: Vec3 | None = None
    inertia_orientation: Quat = IDENTITY_QUAT
    linear_velocity: Vec3 = ZERO3
    angular_velocity: Vec3 = ZERO3
    gravity_factor: float = 1.0
    legacy_type: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Body:
    node: int
    motion: Motion
    pointer: str = field(default="", compare=False)


class CombineMode(StrEnum):
    AVERAGE = "average"
    MINIMUM = "minimum"
    MAXIMUM = "maximum"
    MULTIPLY = "multiply"


@dataclass(frozen=True)
class PhysicsMaterial:
    """``None`` combine modes do not vote (D-12)."""

    static_friction: float = 0.6
    dynamic_friction: float = 0.6
    restitution: float = 0.0
    friction_combine: CombineMode | None = None
    restitution_combine: CombineMode | None = None
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class CollisionFilter:
    collision_systems: tuple[str, ...] = ()
    collide_with_systems: tuple[str, ...] = ()
    not_collide_with_systems: tuple[str, ...] = ()
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Collider:
    """A solid shape on ``node``; ``body`` is the motion node that carries it, ``None`` when static."""

    node: int
    shape: Shape
    body: int | None = None
    material: int | None = None  # index into PhysicsScene.materials
    filter: int | None = None  # index into PhysicsScene.filters
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Trigger:
    """A non-solid volume reporting enter/exit.

    Either ``shape`` (a simple trigger) or ``nodes`` (a compound made of the listed descendant triggers) is
    set. ``implicit`` marks the old OMI ``"trigger": {}`` form whose ``nodes`` the reader gathered (D-3).
    """

    node: int
    shape: Shape | None = None
    nodes: tuple[int, ...] | None = None
    body: int | None = None
    filter: int | None = None
    implicit: bool = field(default=False, compare=False)
    pointer: str = field(default="", compare=False)
