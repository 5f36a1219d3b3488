"""The engine interface: what :class:`~gltf_physics.sim.World` asks of every physics backend.

A backend is one package ``sim/<engine>/`` (the only place that imports its engine) whose module named in
:data:`ENGINES` defines ``ENGINE``, a class built as ``ENGINE(scene, rate=…, substeps=…, gravity=…, density=…,
mesh_source=…, threads=…, articulations=…)`` whose instances implement :class:`Engine`. ``World`` imports the
module when a world of that engine is built (:func:`engine_class`), so ``import gltf_physics.sim`` loads no engine
and a run on one engine never imports another.

What stays engine-agnostic (``World``): the step count and time, the recording, pointer resolution, and the seat
frame's geometry (``sim/seats.py``) over the engine's :meth:`Engine.node_matrix`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..geometry.mass import MassProperties
from ..geometry.placement import MeshSource
from ..model import PhysicsScene
from .errors import SimulationError
from .queries import ColliderTriggerLog, RayHit
from .triggers import TriggerTracker

# Backend name → the module defining ``ENGINE`` (imported on use; the first is the default).
ENGINES: dict[str, str] = {
    "rapier": "gltf_physics.sim.rapier.world",
    "mujoco": "gltf_physics.sim.mujoco.world",
}

# Object Model pointer kinds (``dialects.common.pointers``) that the engine's per-step controllers own: vehicles,
# wheels, thrusters, hover thrusters and gravity volumes (:meth:`Engine.set_controlled`).
CONTROLLED = ("vehicle", "wheel", "thruster", "hover", "gravity")


class JointEdits(Protocol):
    """Run-time joint changes of an engine (``Engine.joints``)."""

    def set(self, joint_index: int, field_path: tuple[Any, ...], value: Any) -> None:
        """Change one value of model joint ``joint_index``: ``("drives", i, name)``, ``("limits", i, name)`` or
        ``("enable_collision",)`` (model field names). Raises KeyError, ValueError or SimulationError when the
        engine cannot apply it."""


@runtime_checkable
class Engine(Protocol):
    """One physics scene built into one engine, stepped at a fixed rate by :class:`~gltf_physics.sim.World`.

    Poses are glTF world poses (Y up, metres, quaternions x, y, z, w) whatever the engine's own conventions.
    """

    moving_nodes: list[int]  # dynamic and kinematic body nodes, ascending: the trace order
    handle_of: Mapping[int, Any]  # every body node (all motion types) → the engine's handle of its body
    mass_of: dict[int, MassProperties]  # mass properties the engine uses, per dynamic body node
    triggers: TriggerTracker  # enter/exit events so far
    collider_triggers: ColliderTriggerLog  # the same per collider, with its motion node (graph events)
    joints: JointEdits | None  # run-time joint edits (None: the scene has no simulated joint)

    def step(self) -> None:
        """Advance one World step (1/rate s, in the engine's substeps); raise SimulationError on a non-finite
        state, naming the node where the engine tells which."""

    def read_poses(self) -> np.ndarray:
        """(B, 7) float32 [qx, qy, qz, qw, tx, ty, tz] of ``moving_nodes`` now; may be reused: copy to keep."""

    def pose(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """World translation (3,) and rotation (4, xyzw) of the body node ``node`` now."""

    def node_matrix(self, node: int) -> np.ndarray:
        """World matrix (4×4) of any node now: carried by its nearest body (itself or an ancestor), else as in
        the file at t = 0."""

    def set_motion(self, node: int, field: str, value: Any) -> None:
        """Set ``linear_velocity`` / ``angular_velocity`` (node space), ``gravity_factor`` or ``mass`` now."""

    def set_controlled(self, kind: str, index: int, field: str, value: Any) -> None:
        """Apply a pointer of a :data:`CONTROLLED` kind (vehicle, wheel, thruster, hover, gravity) now."""

    def push(self, node: int, force: Any, point: Any) -> None:
        """Apply ``force`` (N, world) at ``point`` (world) on the body of ``node`` for the next step only."""

    def apply_impulse(self, node: int, linear: Any, angular: Any = (0.0, 0.0, 0.0)) -> None:
        """Change a dynamic body's velocities now by a world linear impulse (N·s) at its centre of mass and a world
        angular impulse (N·m·s); SimulationError for a node that is not a dynamic body."""

    def apply_point_impulse(self, node: int, impulse: Any, point: Any) -> None:
        """Change a dynamic body's velocities now by a world impulse (N·s) at a world point (m)."""

    def ray_cast(self, start: Any, end: Any, filter_index: int | None = None) -> RayHit | None:
        """The closest solid collider on the world segment ``start``→``end`` seen through collision filter
        ``filter_index`` (None or negative: none), or None (``sim/queries.py``)."""

    def velocities(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """World linear (centre of mass) and angular velocity of a body node now."""

    def set_pose(self, node: int, translation: Any, rotation: Any) -> None:
        """Move a body node's body to a world pose (translation, xyzw rotation) now."""

    def snapshot(self) -> Any:
        """The exact state now, for :meth:`restore` (a run continued from it repeats bit for bit)."""

    def restore(self, snap: Any) -> None:
        """Go back to a :meth:`snapshot` of this engine."""


class EngineClass(Protocol):
    """How a backend's ``ENGINE`` is built from a scene (the options are :class:`~gltf_physics.sim.World`'s)."""

    def __call__(self, scene: PhysicsScene, *, rate: float, substeps: int,
                 gravity: tuple[float, float, float] | None, density: float, mesh_source: MeshSource | None,
                 threads: int | None, articulations: bool) -> Engine: ...


def engine_class(name: str) -> EngineClass:
    """The ``ENGINE`` of backend ``name`` (:data:`ENGINES`), its module imported now.

    Raises SimulationError for a name that is not in :data:`ENGINES`.
    """
    module = ENGINES.get(name)
    if module is None:
        raise SimulationError(f"unknown engine {name!r} ({' or '.join(ENGINES)})")
    return importlib.import_module(module).ENGINE
