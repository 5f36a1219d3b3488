"""What ``simulate`` will refuse, reported as errors (GLTF-SIMULATE): the runtime's own pre-build checks
(:func:`gltf_physics.model.sanity.scene_problems`) run on the model, so "valid" means the runtime accepts it too."""

from __future__ import annotations

from typing import Any

from ..dialects.common.checks import Emit
from ..model import PhysicsScene
from ..model.sanity import scene_problems

_MAX_REPORTED = 100


def check(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """One GLTF-SIMULATE error per problem (the first 100), at the pointer the runtime names."""
    for count, (_node, pointer, message) in enumerate(scene_problems(scene)):
        if count == _MAX_REPORTED:
            return
        emit("GLTF-SIMULATE", pointer, f"{message}; the simulation refuses this file")
