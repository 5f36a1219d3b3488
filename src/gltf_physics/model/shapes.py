"""Collision shapes, independent of the extension that declared them.

All sizes are in the shape's node space (metres). Round shapes are centred on the node origin with their
axis along local +Y (the spec). Capsule ``height`` is always the distance between the two
hemisphere centres (the newest meaning, D-8); readers of total-height generations convert.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class Box:
    size: Vec3 = (1.0, 1.0, 1.0)  # full extents
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Sphere:
    radius: float = 0.5
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Capsule:
    height: float = 1.0  # between the hemisphere centres
    radius_bottom: float = 0.5
    radius_top: float = 0.5
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Cylinder:
    height: float = 2.0  # total height
    radius_bottom: float = 0.5
    radius_top: float = 0.5
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Plane:
    """Plane through the node origin with normal +Y; ``None`` sizes mean infinite (KHR, 2025-10-22)."""

    size_x: float | None = None
    size_z: float | None = None
    double_sided: bool = False
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class MeshShape:
    """A shape made from glTF mesh data: a convex hull of it, or its triangles as they are.

    Exactly one source is set: ``mesh`` (a glTF mesh index: OMI convex/trimesh, OMI_collider hull/trimesh,
    KHR gen1/gen2 mesh shapes, KHR 2026 ``geometry.mesh``) or ``node`` (KHR gen3 ``geometry.node``: that
    node's mesh and its descendants' meshes).
    """

    convex: bool
    mesh: int | None = None
    node: int | None = None
    skin: int | None = None  # KHR gen2 mesh shape deformation (kept for round trips)
    weights: tuple[float, ...] | None = None
    use_node_weights: bool = False
    pointer: str = field(default="", compare=False)


Shape = Box | Sphere | Capsule | Cylinder | Plane | MeshShape

SHAPE_KINDS: dict[type, str] = {
    Box: "box",
    Sphere: "sphere",
    Capsule: "capsule",
    Cylinder: "cylinder",
    Plane: "plane",
}


def shape_kind(shape: Shape) -> str:
    """A short name for reports: box, sphere, capsule, cylinder, plane, convex or trimesh."""
    if isinstance(shape, MeshShape):
        return "convex" if shape.convex else "trimesh"
    return SHAPE_KINDS[type(shape)]
