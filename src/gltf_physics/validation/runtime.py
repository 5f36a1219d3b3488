"""What ``simulate`` will refuse, reported as errors (GLTF-SIMULATE), so "valid" means the runtime accepts it too.

Two parts: the runtime's own pre-build checks (:func:`gltf_physics.model.sanity.scene_problems`) on the model,
and — only for a scene holding a motion value of extraordinary size (:func:`~.sanity.extraordinary_bodies`) —
a trial: the world is built and stepped once, as ``simulate`` would, and a body whose state stops being finite
is reported at its pointer. The engine computes in 32-bit floats, where what a value does after the solver's
products is not predictable from the value alone (a gravity factor of 1e30 runs, 1e38 does not); the trial is
exact and costs nothing for ordinary files.
"""

from __future__ import annotations

from typing import Any

from ..dialects.common.checks import Emit
from ..model import PhysicsScene
from ..model.sanity import extraordinary_bodies, scene_problems

_MAX_REPORTED = 100


def check(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """One GLTF-SIMULATE error per problem (the first 100), at the pointer the runtime names."""
    count = 0
    for count, (_node, pointer, message) in enumerate(scene_problems(scene), start=1):
        if count > _MAX_REPORTED:
            return
        emit("GLTF-SIMULATE", pointer, f"{message}; the simulation refuses this file")
    if count == 0 and extraordinary_bodies(scene):
        _first_step(scene, emit)


def _first_step(scene: PhysicsScene, emit: Emit) -> None:
    """Build the world and take one step, as ``simulate`` does; report a non-finite body at its pointer."""
    from ..sim import World
    from ..sim.errors import SimulationError

    try:
        World(scene).step()
    except SimulationError as e:
        emit("GLTF-SIMULATE", e.pointer or "", f"{e.message}: a velocity, gravity factor, mass or inertia is too "
             "large for the engine's 32-bit arithmetic; the simulation refuses this file")
