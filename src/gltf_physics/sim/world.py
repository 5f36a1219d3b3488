"""World: the public runtime API (DESIGN §1 ``sim/``, §3, §4).

    world = World.from_file("scene.gltf", rate=60, record=True)
    world.run(2.0)
    t, q = world.pose(3)
    write_trace(world.recording, "trace.csv")

A World steps a fixed rate (``rate`` Hz, ``substeps`` engine steps per step), reports world poses of every
moving body (dynamic and kinematic) and trigger events, accepts glTF Object Model pointers (``set``) and
snapshots. The engine lives behind ``sim.rapier`` (the only place that imports rapier3d).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..dialects import pointers
from ..model import PhysicsScene
from ..model.mass import MeshSource, document_mesh_source
from .checks import check_scene
from .errors import SimulationError, engine_failures
from .rapier.controllers import CONTROLLED, node_matrix, set_controlled
from .rapier.world import RapierWorld
from .recording import Recording


class World:
    def __init__(self, scene: PhysicsScene, *, rate: float = 60.0, substeps: int = 1,
                 gravity: tuple[float, float, float] | None = None, density: float = 1000.0,
                 record: bool = False, mesh_source: MeshSource | None = None,
                 threads: int | None = None) -> None:
        self.scene = scene
        self.rate = float(rate)
        if mesh_source is None and scene.document is not None:
            mesh_source = document_mesh_source(scene.document)  # read once: the checks and the engine share it
        check_scene(scene, mesh_source)  # what no engine can build is refused here, naming the node
        if gravity is not None and not all(math.isfinite(float(g)) for g in gravity):
            raise SimulationError(f"gravity must be 3 finite numbers, got {tuple(gravity)}")
        with engine_failures():
            self.engine = RapierWorld(scene, rate=rate, substeps=substeps, gravity=gravity, density=density,
                                      mesh_source=mesh_source, threads=threads)
        self.step_count = 0
        nodes = list(self.engine.moving_nodes)
        self.nodes = np.asarray(nodes, dtype=np.int64)
        self.recording: Recording | None = None
        if record:
            self.recording = Recording(nodes, [_node_name(scene, n) for n in nodes])
            self.recording.append(0.0, self.engine.read_poses())

    @classmethod
    def from_file(cls, path: str | Path, **options: Any) -> World:
        from ..dialects import read_scene
        from ..gltf.io import load

        return cls(read_scene(load(path)), **options)

    @property
    def time(self) -> float:
        return self.step_count / self.rate

    @property
    def dt(self) -> float:
        return 1.0 / self.rate

    def step(self) -> None:
        with engine_failures(self.time):
            self.engine.step()
        self.step_count += 1
        if self.recording is not None:
            self.recording.append(self.time, self.engine.read_poses())

    def run(self, seconds: float, on_step: Callable[[World], None] | None = None) -> None:
        """Advance ``seconds`` (rounded to whole steps); ``on_step(world)`` after each step."""
        steps = max(0, math.ceil(seconds * self.rate - 1e-9))
        if self.recording is not None:
            self.recording.reserve(steps)
        for _ in range(steps):
            self.step()
            if on_step is not None:
                on_step(self)

    # -- reading -------------------------------------------------------------------------------------
    def pose(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """World translation (3,) and xyzw rotation (4,) of a body node."""
        if node not in self.engine.handle_of:
            raise SimulationError(f"node {node} is not a body", node=node)
        return self.engine.pose(node)

    def poses(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(nodes (B,), translations (B,3), rotations (B,4) xyzw) of every dynamic and kinematic body."""
        p = self.engine.read_poses().astype(np.float64)  # a copy
        return self.nodes.copy(), p[:, 4:], p[:, :4]

    def events(self) -> list[dict[str, Any]]:
        """Trigger events since the start: ``{"time", "event": "enter"|"exit", "trigger", "node"}``."""
        return [dict(e) for e in self.engine.triggers.events]

    def mass_properties(self, node: int) -> Any:
        return self.engine.mass_of.get(node)

    # -- writing -------------------------------------------------------------------------------------
    def set(self, pointer: str, value: Any) -> None:
        """Apply a glTF Object Model pointer (e.g. ``/nodes/3/extensions/KHR_physics_rigid_bodies/motion/
        linearVelocity``) now; joint drive and limit pointers go to the joint driver."""
        try:
            with engine_failures(self.time):  # a Rust panic on a hostile value: one SimulationError too
                try:
                    self._apply(pointer, value)
                except (ValueError, KeyError, IndexError, TypeError) as e:
                    raise SimulationError(str(e).strip("'\""), pointer=pointer) from None
        except SimulationError as e:
            e.pointer = pointer
            raise

    def _apply(self, pointer: str, value: Any) -> None:
        target = pointers.resolve(pointer)
        if target.kind == "motion":
            self.engine.set_motion(target.index, target.field, value)
        elif target.kind in ("joint_settings", "joint_node"):
            self._set_joint(target, value)
        elif target.kind in CONTROLLED:  # vehicles, wheels, thrusters, gravity volumes
            set_controlled(self.engine, target.kind, target.index, target.field, value)
        else:
            raise SimulationError(f"{target.kind} properties are not simulated")

    def _set_joint(self, target: pointers.Target, value: Any) -> None:
        driver = self.engine.joints
        if target.kind == "joint_settings":
            indices = [k for k, j in enumerate(self.scene.joints) if j.settings_index == target.index]
        else:
            indices = [k for k, j in enumerate(self.scene.joints) if j.node == target.index]
        if driver is None or not indices:
            raise SimulationError("no simulated joint uses this property")
        path = tuple(target.field.split("/"))
        for k in indices:
            driver.set(k, path, value)

    def seat_frame(self, node: int) -> dict[str, Any]:
        """The OMI_seat frame of ``node`` now (DIGEST §8): world back/knee/foot and forward/right/spine axes."""
        from .seats import seat_frame

        seat = next((s for s in self.scene.seats if s.node == node), None)
        if seat is None:
            raise SimulationError(f"node {node} has no OMI_seat", node=node)
        return seat_frame(seat, node_matrix(self.engine, node))

    # -- snapshots -----------------------------------------------------------------------------------
    def snapshot(self) -> tuple[Any, ...]:
        """The exact state (engine bytes, time, trigger bookkeeping); restoring it replays identically."""
        return self.engine.snapshot(), self.step_count, self.recording.count if self.recording else 0

    def restore(self, snap: tuple[Any, ...]) -> None:
        engine, steps, frames = snap
        self.engine.restore(engine)
        self.step_count = steps
        if self.recording is not None:
            self.recording.truncate(frames)


def _node_name(scene: PhysicsScene, node: int) -> str:
    nodes = scene.document.json.get("nodes") if scene.document is not None else None
    nodes = nodes if isinstance(nodes, list) else []
    name = nodes[node].get("name") if 0 <= node < len(nodes) and isinstance(nodes[node], dict) else None
    return text_safe(name) if isinstance(name, str) else ""


def text_safe(text: str) -> str:
    """``text`` writable as UTF-8: lone surrogates (JSON ``"\\ud800"`` parses to one) become U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        # surrogatepass lets a lone surrogate through UTF-16, whose decoder then replaces it (pairs rejoin)
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
