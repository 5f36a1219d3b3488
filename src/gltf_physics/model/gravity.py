"""Gravity (OMI_physics_gravity, the spec) and seats (OMI_seat, the spec)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

from .shapes import Shape, Vec3

DOWN: Vec3 = (0.0, -1.0, 0.0)


@dataclass(frozen=True)
class WorldGravity:
    gravity: float = 9.81  # m/s²; the document-level OMI value when present
    direction: Vec3 = DOWN
    pointer: str = field(default="", compare=False)

    @property
    def vector(self) -> Vec3:
        g, (x, y, z) = self.gravity, self.direction
        n = math.sqrt(x * x + y * y + z * z) or 1.0
        return (g * x / n, g * y / n, g * z / n)


class GravityType(StrEnum):
    DIRECTIONAL = "directional"
    POINT = "point"
    DISC = "disc"
    TORUS = "torus"
    LINE = "line"
    SHAPED = "shaped"


@dataclass(frozen=True)
class GravityField:
    """A gravity volume on a trigger node; applies to bodies inside that trigger.

    Only the fields of ``type`` are meaningful: ``direction`` (directional, node space), ``radius`` (disc,
    torus), ``points`` (line, node space), ``shape`` (shaped), ``unit_distance`` (all but directional).
    """

    node: int
    type: GravityType
    gravity: float
    priority: int = 0
    replace: bool = False
    stop: bool = False
    direction: Vec3 = DOWN
    unit_distance: float = 0.0
    radius: float = 1.0
    points: tuple[Vec3, ...] = ()
    shape: Shape | None = None
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Seat:
    node: int
    back: Vec3
    foot: Vec3
    knee: Vec3
    angle: float = math.pi / 2
    pointer: str = field(default="", compare=False)
