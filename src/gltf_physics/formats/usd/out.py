"""What the USD writer's parts share: the namespace, the output being built and how a kept value is written."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...geometry.placement import MeshSource
from ...gltf.document import Document
from ...model import PhysicsScene

NS = "gltfPhysics"  # customData key and attribute namespace for what UsdPhysics has no place for
PHYSICS_SCOPE = "Physics"  # /World/Physics: materials, collision groups, joints, the physics scene


@dataclass
class Out:
    """The stage being written, the scene and document it comes from, and what has been placed so far."""

    pxr: Any
    stage: Any
    scene: PhysicsScene
    doc: Document
    mesh_source: MeshSource
    node_paths: list[Any] = field(default_factory=list)
    collider_paths: dict[int, Any] = field(default_factory=dict)  # collider index → prim path
    materials: list[Any] = field(default_factory=list)
    losses: list[dict[str, str]] = field(default_factory=list)

    def loss(self, code: str, pointer: str, message: str) -> None:
        """Add one entry to the loss report."""
        self.losses.append({"code": code, "pointer": pointer, "message": message})


def attr(out: Out, prim: Any, name: str, type_name: str, value: Any) -> None:
    """A custom ``gltfPhysics:<name>`` attribute of Sdf type ``type_name`` set to ``value``."""
    made = prim.CreateAttribute(f"{NS}:{name}", getattr(out.pxr.Sdf.ValueTypeNames, type_name), custom=True)
    made.Set(value)
