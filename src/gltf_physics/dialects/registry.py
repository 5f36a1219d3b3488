"""The extension families: the one place where an extension's name is spelled and a family is listed.

A :class:`Family` is a group of extensions read and written together (the OMI core physics extensions share
one body/shape/joint model, the KHR ones theirs). Each record names its extensions and the modules that
implement it; those modules are imported only when a document names one of the family's extensions, so that
reading a KHR file never loads the OMI readers (start-up stays cheap).

Adding a family = one record here and one folder beside this file; adding a generation of an existing
extension = one branch in that family's ``detect``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .common.context import ExtIndex, ReadContext, WriteContext
    from .common.emit import Emit

# The extension names, each spelled once. OMI core physics: the gen0 collider extension, then the
# shape/body/joint trio that replaced it.
OMI_COLLIDER = "OMI_collider"
OMI_PHYSICS_SHAPE = "OMI_physics_shape"
OMI_PHYSICS_BODY = "OMI_physics_body"
OMI_PHYSICS_JOINT = "OMI_physics_joint"
# Khronos: gen0's KHR_rigid_bodies, then KHR_physics_rigid_bodies with its shape extension (renamed once).
KHR_RIGID_BODIES = "KHR_rigid_bodies"
KHR_PHYSICS_RIGID_BODIES = "KHR_physics_rigid_bodies"
KHR_COLLISION_SHAPES = "KHR_collision_shapes"
KHR_IMPLICIT_SHAPES = "KHR_implicit_shapes"
OMI_VEHICLE_BODY = "OMI_vehicle_body"
OMI_VEHICLE_WHEEL = "OMI_vehicle_wheel"
OMI_VEHICLE_THRUSTER = "OMI_vehicle_thruster"
OMI_VEHICLE_HOVER_THRUSTER = "OMI_vehicle_hover_thruster"
OMI_PHYSICS_GRAVITY = "OMI_physics_gravity"
OMI_SEAT = "OMI_seat"

Target = Literal["omi", "khr"]


@dataclass(frozen=True)
class Family:
    """One extension family: its names and where its reader/writer and structural checker live.

    ``reader``: module (relative to ``gltf_physics.dialects``) with ``detect(gltf, index)``, ``read(ctx)`` and
    ``write(ctx)``; ``checker``: module with ``check(gltf, emit, index)``; ``targets``: the output forms the
    family is written for (the OMI core family for ``--to omi``, the KHR family for ``--to khr``, the OMI
    vehicle/gravity/seat extensions for both, having no KHR counterpart).
    """

    key: str
    extensions: tuple[str, ...]
    reader: str
    checker: str
    targets: tuple[Target, ...]

    def module(self) -> ModuleType:
        """The reader/writer module, imported on first use."""
        return importlib.import_module(f".{self.reader}", __package__)

    def named_in(self, index: ExtIndex) -> bool:
        """Whether the document names any of the family's extensions (in extensionsUsed, on itself or a node)."""
        return any(ext in index.used or index.named(ext) for ext in self.extensions)

    def detect(self, gltf: dict[str, Any], index: ExtIndex) -> dict[str, str]:
        """Extension name → generation id for the family's extensions present in the document."""
        return self.module().detect(gltf, index)

    def read(self, ctx: ReadContext) -> None:
        """Read the family's extensions into ``ctx.scene``."""
        self.module().read(ctx)

    def write(self, ctx: WriteContext) -> None:
        """Write ``ctx.scene``'s share of this family into ``ctx.gltf`` in the newest form."""
        self.module().write(ctx)

    def check(self, gltf: dict[str, Any], emit: Emit, index: ExtIndex | None = None) -> None:
        """The structural checks of the family's JSON, reported through ``emit``."""
        importlib.import_module(f".{self.checker}", __package__).check(gltf, emit, index)


OMI_PHYSICS_FAMILY = Family("omi_physics", (OMI_COLLIDER, OMI_PHYSICS_SHAPE, OMI_PHYSICS_BODY, OMI_PHYSICS_JOINT),
                            reader="omi_physics.body", checker="omi_physics.checks", targets=("omi",))
KHR_PHYSICS_FAMILY = Family("khr_physics",
                            (KHR_RIGID_BODIES, KHR_PHYSICS_RIGID_BODIES, KHR_COLLISION_SHAPES, KHR_IMPLICIT_SHAPES),
                            reader="khr_physics.rigid_bodies", checker="khr_physics.checks", targets=("khr",))
OMI_VEHICLE_FAMILY = Family("omi_vehicle",
                            (OMI_VEHICLE_BODY, OMI_VEHICLE_WHEEL, OMI_VEHICLE_THRUSTER, OMI_VEHICLE_HOVER_THRUSTER),
                            reader="omi_vehicle.vehicle", checker="omi_vehicle.checks", targets=("omi", "khr"))
OMI_GRAVITY_FAMILY = Family("omi_gravity", (OMI_PHYSICS_GRAVITY,),
                            reader="omi_gravity.gravity", checker="omi_gravity.checks", targets=("omi", "khr"))
OMI_SEAT_FAMILY = Family("omi_seat", (OMI_SEAT,), reader="omi_seat.seat", checker="omi_seat.checks",
                         targets=("omi", "khr"))

# Every family, in reading order: bodies and shapes before what refers to them (vehicles, gravity, seats).
FAMILIES: tuple[Family, ...] = (OMI_PHYSICS_FAMILY, KHR_PHYSICS_FAMILY, OMI_VEHICLE_FAMILY, OMI_GRAVITY_FAMILY,
                                OMI_SEAT_FAMILY)

# Every extension name the readers understand, so a writer can strip them before writing the target form.
PHYSICS_EXTENSIONS: tuple[str, ...] = tuple(name for family in FAMILIES for name in family.extensions)
OMI_EXTENSIONS: tuple[str, ...] = tuple(name for name in PHYSICS_EXTENSIONS if name.startswith("OMI_"))
KHR_EXTENSIONS: tuple[str, ...] = tuple(name for name in PHYSICS_EXTENSIONS if name.startswith("KHR_"))


def families_named(index: ExtIndex) -> list[Family]:
    """The families whose extensions the document names, in reading order."""
    return [family for family in FAMILIES if family.named_in(index)]


def written_for(target: Target) -> list[Family]:
    """The families written for an output form, in writing order."""
    return [family for family in FAMILIES if target in family.targets]
