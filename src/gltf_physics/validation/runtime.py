"""What ``simulate`` will refuse, reported as errors (GLTF-SIMULATE), so "valid" means the runtime accepts it too.

Two parts: the runtime's own pre-build checks (:func:`gltf_physics.geometry.limits.scene_problems`) on the model,
and — only for a document whose physics holds a number of extraordinary size (beyond ±1e6, or not finite:
velocities, gravity factors, masses, forces of thrusters, wheels or drives, gravity fields) — a trial: the world
is built and stepped once, as ``simulate`` would, and a body whose state stops being finite is reported at its
pointer. The engine computes in 32-bit floats, where what a value does after the solver's
products is not predictable from the value alone (a gravity factor of 1e30 runs, 1e38 does not); the trial is
exact and costs nothing for ordinary files.
"""

from __future__ import annotations

from typing import Any

from ..dialects.common.checks import Emit
from ..dialects.registry import PHYSICS_EXTENSIONS
from ..geometry.limits import scene_problems
from ..model import PhysicsScene

_MAX_REPORTED = 100
_ORDINARY = 1e6  # a physics number up to this magnitude cannot overflow the engine's first step on its own
_TINY = 1e-12  # a non-zero magnitude below this (a denormal mass) has an inverse the engine cannot hold
_TRANSFORM = ("translation", "rotation", "scale", "matrix")


def check(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """One GLTF-SIMULATE error per problem (the first 100), at the pointer the runtime names."""
    count = 0
    for count, (_node, pointer, message) in enumerate(scene_problems(scene), start=1):
        if count > _MAX_REPORTED:
            return
        emit("GLTF-SIMULATE", pointer, f"{message}; the simulation refuses this file")
    if count == 0 and _extraordinary(gltf):
        _first_step(scene, emit)


def _extraordinary(gltf: dict[str, Any]) -> bool:
    """Whether any number in the document's or a node's physics extensions, or in a node's transform, is beyond
    :data:`_ORDINARY` or, not zero, below :data:`_TINY` in magnitude (NaN included: it fails the comparison).
    Compared, never converted: an integer of any size compares exactly with a float."""
    stack: list[Any] = []
    matrices: list[list[float]] = []  # a squashed or sheared shape the engine's hull builder may refuse
    ext = gltf.get("extensions")
    if isinstance(ext, dict):
        stack += [v for k, v in ext.items() if k in PHYSICS_EXTENSIONS]
    nodes = gltf.get("nodes")
    for node in nodes if isinstance(nodes, list) else ():
        if not isinstance(node, dict):
            continue
        if _plain_matrix(node.get("matrix")):
            matrices.append(node["matrix"])
        node_ext = node.get("extensions")
        if isinstance(node_ext, dict):
            stack += [v for k, v in node_ext.items() if k in PHYSICS_EXTENSIONS]
        stack += [node.get(key) for key in _TRANSFORM if key in node]  # a wheel or thruster 1e30 m away
    if matrices:
        from ..gltf.transforms import non_trs_reasons  # numpy: only for a document that has node matrices

        if any(reason is not None for reason in non_trs_reasons(matrices)):
            return True
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack += value.values()
        elif isinstance(value, list):
            stack += value
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and (
                not abs(value) <= _ORDINARY or 0 < abs(value) < _TINY):
            return True
    return False


def _plain_matrix(matrix: Any) -> bool:
    """16 plain numbers (malformed or extraordinary ones are the core checks' and the magnitude test's)."""
    return isinstance(matrix, list) and len(matrix) == 16 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= 1e300 for v in matrix)


def _first_step(scene: PhysicsScene, emit: Emit) -> None:
    """Build the world and take one step, as ``simulate`` does; report a non-finite body at its pointer."""
    from ..sim import World
    from ..sim.errors import SimulationError

    try:
        World(scene).step()
    except SimulationError as e:
        emit("GLTF-SIMULATE", e.pointer or "", f"{e.message}: a velocity, gravity factor, mass or inertia is too "
             "large for the engine's 32-bit arithmetic; the simulation refuses this file")
