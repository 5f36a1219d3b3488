"""Refuse, before any engine is built, what no engine can simulate: one ``SimulationError`` naming the node.

Engine-agnostic (docs/architecture.md: only ``sim/rapier/`` imports Rapier). The list of problems is
:func:`gltf_physics.geometry.limits.scene_problems` (shapes, bodies, joints); the validator reports the same list as
errors (``GLTF-SIMULATE``), so a file it calls valid is one the runtime accepts. Behind this check,
:func:`gltf_physics.sim.errors.engine_failures` catches whatever the engine still raises (Rust panics included).
"""

from __future__ import annotations

from ..geometry.limits import scene_problems
from ..geometry.placement import MeshSource
from ..model import PhysicsScene
from .errors import SimulationError


def check_scene(scene: PhysicsScene, mesh_source: MeshSource | None = None) -> None:
    """Raise ``SimulationError`` (node and pointer set) for the first thing the engine must not be given."""
    for node, pointer, message in scene_problems(scene, mesh_source):
        raise SimulationError(message, node=node, pointer=pointer)
