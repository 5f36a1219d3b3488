"""World: the public runtime API (docs/architecture.md, docs/semantics.md, docs/cli.rst).

    world = World.from_file("scene.gltf", rate=60, record=True)
    world.run(2.0)
    t, q = world.pose(3)
    write_trace(world.recording, "trace.csv")

A World steps a fixed rate (``rate`` Hz, ``substeps`` engine steps per step), reports world poses of every
moving body (dynamic and kinematic) and trigger events, accepts glTF Object Model pointers (``set``) and
snapshots. The engine is a backend implementing ``sim.engine.Engine``, imported when the World is built:
``sim.rapier`` (the only place that imports rapier3d), or with ``engine="mujoco"`` ``sim.mujoco`` (the scene
written as MJCF and run by MuJoCo).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..dialects.common import pointers
from ..geometry.mass import MassProperties
from ..geometry.placement import MeshSource, document_mesh_source
from ..model import PhysicsScene
from . import robot_control
from .engine import CONTROLLED, Engine, engine_class
from .errors import SimulationError, engine_failures, value_reason
from .object_model import ObjectModel, trs_target
from .preflight import check_scene
from .queries import RayHit
from .recording import Recording

# World's keywords (from_file lists them when given another)
OPTIONS = ("rate", "substeps", "gravity", "density", "record", "mesh_source", "threads", "engine", "articulations",
           "graph")


class World:
    """A running simulation of one physics scene on Rapier, stepped at a fixed rate.

    Build it from a :class:`~gltf_physics.PhysicsScene` (``World(gp.read_scene(doc))``) or straight from a file
    (:meth:`from_file`). Each :meth:`step` advances ``1 / rate`` seconds in ``substeps`` engine steps; :meth:`run`
    steps for a time. Read world poses with :meth:`pose` / :meth:`poses`, trigger events with :meth:`events`,
    resolved mass properties with :meth:`mass_properties`; change properties by glTF Object Model pointer with
    :meth:`set`; save and rewind exact states with :meth:`snapshot` / :meth:`restore`.

    Args:
        scene: the scene to simulate (``gp.read_scene(gp.load(path))``).
        rate: steps per second (Hz); ``dt = 1 / rate``.
        substeps: engine steps per step (smaller solver steps, same output rate).
        gravity: world gravity (m/s², x y z) overriding the file's; ``None`` keeps the file's or (0, -9.81, 0).
        density: kg/m³ for bodies whose mass the file leaves out (computed from their shapes).
        record: keep every moving body's pose at t = 0 and after every step in :attr:`recording`.
        mesh_source: where triangle meshes come from (default: the scene's own document).
        threads: engine worker threads (``None``: Rapier's default, sized by ``RAYON_NUM_THREADS`` or the cores).
            In rapier3d 0.36 a world given its own count keeps a pool whose threads outlive it: a program that
            builds many worlds sets ``RAYON_NUM_THREADS`` instead (as the sweep's workers do).
        engine: ``"rapier"`` (default), or ``"mujoco"`` (the ``[mujoco]`` extra: the scene written as MJCF and
            run by MuJoCo).
        graph: the KHR_interactivity behaviour graph to run with the physics (docs/behaviour.md): None (default)
            the document's default graph when it has one, an int that graph, False none.
        articulations: (Rapier) joint trees whose limits and drives are native on Rapier's multibodies go there
            (exact chain lengths, drives and soft limits with the articulated inertia; docs/semantics.md); False keeps
            every joint on impulse joints (measured 3–5× cheaper per step for long hard-limit chains, which then
            stretch by millimetres).

    Example:
        >>> world = gp.World(gp.read_scene(gp.load("examples/tumbling_boxes.gltf")), rate=120, record=True)
        >>> world.run(2.0)
        >>> translation, rotation = world.pose(3)   # the ball: metres; quaternion x, y, z, w
    """

    def __init__(self, scene: PhysicsScene, *, rate: float = 60.0, substeps: int = 1,
                 gravity: tuple[float, float, float] | None = None, density: float = 1000.0,
                 record: bool = False, mesh_source: MeshSource | None = None,
                 threads: int | None = None, engine: str = "rapier", articulations: bool = True,
                 graph: int | bool | None = None) -> None:
        self.scene = scene
        self.rate = float(rate)
        self.engine_name = engine
        self._coords: dict[str, robot_control.Coordinate] | None = None  # joint name → coordinate, on first use
        self._before: tuple[int, dict[str, float]] | None = None  # (step, joint positions) before the last step
        self._stiffness = {k: j.drives[0].stiffness for k, j in enumerate(scene.joints) if j.drives}  # set_gains
        if mesh_source is None and scene.document is not None:
            mesh_source = document_mesh_source(scene.document)  # read once: the checks and the engine share it
        check_scene(scene, mesh_source)  # what no engine can build is refused here, naming the node
        if gravity is not None and not all(math.isfinite(float(g)) for g in gravity):
            raise SimulationError(f"gravity must be 3 finite numbers, got {tuple(gravity)}")
        backend = engine_class(engine)  # imported now: an unknown name fails before any engine loads
        with engine_failures():
            self.engine: Engine = backend(scene, rate=rate, substeps=substeps, gravity=gravity, density=density,
                                          mesh_source=mesh_source, threads=threads, articulations=articulations)
        self.step_count = 0
        nodes = list(self.engine.moving_nodes)
        self.nodes = np.asarray(nodes, dtype=np.int64)
        self.names = _node_names(scene, nodes)  # glTF node names of ``nodes`` ("" where unnamed)
        self.object_model = ObjectModel(self)
        self.graph_errors: list[str] = []  # why the selected graph was refused (it then does not run)
        self._driver = _graph_driver(self, graph)  # None: no behaviour graph runs (the plain path)
        self.recording: Recording | None = None
        if record:
            self.recording = Recording(nodes, self.names)
            self.recording.append(0.0, self.engine.read_poses())

    @classmethod
    def from_file(cls, path: str | Path, *, rate: float = 60.0, substeps: int = 1,
                  gravity: tuple[float, float, float] | None = None, density: float = 1000.0,
                  record: bool = False, mesh_source: MeshSource | None = None,
                  threads: int | None = None, engine: str = "rapier", articulations: bool = True,
                  graph: int | bool | None = None, **unknown: Any) -> World:
        """Load a .gltf or .glb and build its World; the options are the constructor's (see :class:`World`).

        Raises GltfError (naming the file and JSON pointer) when the file cannot be read, and TypeError
        listing the options for any other keyword.

        Example:
            >>> world = gp.World.from_file("examples/tumbling_boxes.gltf", rate=60, record=True)
            >>> world.run(1.0); world.time
            1.0
        """
        if unknown:
            raise TypeError(f"World.from_file() has no option {', '.join(map(repr, unknown))}; its options are "
                            f"{', '.join(OPTIONS)}")
        from ..dialects import read_scene
        from ..gltf.io import load

        return cls(read_scene(load(path)), rate=rate, substeps=substeps, gravity=gravity, density=density,
                   record=record, mesh_source=mesh_source, threads=threads, engine=engine,
                   articulations=articulations, graph=graph)

    @property
    def graph(self) -> Any:
        """The running behaviour graph's :class:`~gltf_physics.behaviour.run.GraphRunner` (None: none runs):
        ``variable(name)``, ``set_variable``, ``send(event, values)``, ``logs``, ``errors``.

        Example:
            >>> world = gp.World.from_file("door.gltf"); world.run(2.0); world.graph.variable("opened")
        """
        return self._driver.runner if self._driver is not None else None

    def select(self, node: int, point: Any = (0.0, 0.0, 0.0), origin: Any = (0.0, 0.0, 0.0)) -> None:
        """Tell the behaviour graph the user selected ``node`` (at world ``point``, by a ray from ``origin``):
        its ``event/onSelect`` nodes run now (KHR_node_selectability; nothing without a graph).

        Example:
            >>> world.select(4)
        """
        if self._driver is not None:
            self._driver.select(node, point, origin)

    def hover(self, node: int | None) -> None:
        """Tell the behaviour graph the pointer now hovers ``node`` (None: nothing): its ``event/onHoverOut`` and
        ``event/onHoverIn`` nodes run now (KHR_node_hoverability; nothing without a graph).

        Example:
            >>> world.hover(4); world.hover(None)
        """
        if self._driver is not None:
            self._driver.hover(node)

    @property
    def time(self) -> float:
        """Simulated seconds since the start: ``step_count / rate``.

        Example:
            >>> world.run(0.5); world.time
            0.5
        """
        return self.step_count / self.rate

    @property
    def dt(self) -> float:
        """Seconds per step: ``1 / rate``.

        Example:
            >>> gp.World.from_file("examples/tumbling_boxes.gltf", rate=120).dt
            0.008333333333333333
        """
        return 1.0 / self.rate

    def step(self) -> None:
        """Advance one step (``dt`` seconds, in ``substeps`` engine steps) and record the poses if recording.

        Example:
            >>> world.step(); world.step_count
            1
        """
        if self._coords is not None:  # the joint API is in use: the positions before the step give the rates
            self._before = (self.step_count, self.joint_positions())
        with engine_failures(self.time):
            self.engine.step()
        self.step_count += 1
        if self._driver is not None:  # trigger events, then the tick (docs/behaviour.md)
            self._driver.after_step()
        if self.recording is not None:
            self.recording.append(self.time, self.engine.read_poses())

    def steps_for(self, seconds: float) -> int:
        """How many steps :meth:`run` takes for ``seconds`` (rounded up to whole steps).

        Example:
            >>> gp.World.from_file("examples/tumbling_boxes.gltf", rate=60).steps_for(0.5)
            30
        """
        return max(0, math.ceil(seconds * self.rate - 1e-9))

    def run(self, seconds: float, on_step: Callable[[World], None] | None = None) -> None:
        """Advance ``seconds`` (rounded up to whole steps); ``on_step(world)`` is called after each step.

        Raises ValueError when ``seconds`` is negative or not finite.

        Example:
            >>> world.run(2.0, on_step=lambda w: print(w.time) if w.step_count % 60 == 0 else None)
        """
        if not (math.isfinite(seconds) and seconds >= 0):
            raise ValueError(f"World.run: seconds must be a finite number ≥ 0, not {seconds!r}")
        steps = self.steps_for(seconds)
        if self.recording is not None:
            self.recording.reserve(steps)
        for _ in range(steps):
            self.step()
            if on_step is not None:
                on_step(self)

    # -- reading -------------------------------------------------------------------------------------
    def pose(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """World translation (3,) in metres and rotation (4,) as a quaternion x, y, z, w of a body node now.

        Raises SimulationError when ``node`` is not a dynamic or kinematic body.

        Example:
            >>> translation, rotation = world.pose(3)
        """
        if node not in self.engine.handle_of:
            raise SimulationError(f"node {node} is not a body", node=node)
        return self.engine.pose(node)

    def poses(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every dynamic and kinematic body's world pose now: node indices (B,), translations (B, 3) in metres,
        rotations (B, 4) as quaternions x, y, z, w; copies, in the order of :attr:`nodes`.

        Example:
            >>> nodes, translations, rotations = world.poses()
        """
        p = self.engine.read_poses().astype(np.float64)  # a copy
        return self.nodes.copy(), p[:, 4:], p[:, :4]

    def set_targets(self, targets: Mapping[str, float]) -> None:
        """Drive targets by joint name (the source's joint names, as the URDF/MJCF converters write them): a
        position target (m or rad) for a position drive, a velocity target for a velocity drive; applied from
        the next step, through the same per-joint edits as :meth:`set`. Raises SimulationError naming a joint
        that does not exist or has no drive (and then changes nothing). See :mod:`gltf_physics.sim.robot_control`.

        Example:
            >>> world.set_targets({"FR_thigh_joint": 0.7, "FR_calf_joint": -1.4})
        """
        robot_control.set_targets(self.engine, self._coordinates(), self._stiffness, targets)

    def set_gains(self, gains: Mapping[str, tuple[float, float]]) -> None:
        """Drive gains by joint name, ``(stiffness, damping)``: a stiffness > 0 makes the joint's drive a
        position servo that :meth:`set_targets` then gives position targets (URDF drives carry only an effort
        limit and the file's damping). Rapier only (MuJoCo's actuator gains are compiled).

        Example:
            >>> world.set_gains({"FR_thigh_joint": (80.0, 2.0)})
        """
        robot_control.set_gains(self.engine, self._coordinates(), self._stiffness, gains)

    def joint_positions(self) -> dict[str, float]:
        """Joint name → position now (rad about, or m along, the joint's axis), for every joint with one
        coordinate.

        Example:
            >>> world.joint_positions()["FR_thigh_joint"]
            0.0
        """
        return {n: robot_control.position(self.scene, self.engine, c) for n, c in self._coordinates().items()}

    def joint_velocities(self) -> dict[str, float]:
        """Joint name → velocity (rad/s or m/s) for the joints of :meth:`joint_positions`: their rate over the
        last step once the joint API is in use (what moved them; Rapier's multibody keeps velocities that
        include its constraint bias, measured 0.94 rad/s on a standing joint that did not move), before that
        from the two bodies' velocities.

        Example:
            >>> world.joint_velocities()["FR_thigh_joint"]
            0.0
        """
        coords = self._coordinates()
        if self._before is not None and self._before[0] == self.step_count - 1:
            now, before = self.joint_positions(), self._before[1]
            return {n: robot_control.rate(coords[n], now[n] - before[n], self.dt) for n in now}
        return {n: robot_control.velocity(self.scene, self.engine, c) for n, c in coords.items()}

    def _coordinates(self) -> dict[str, robot_control.Coordinate]:
        if self._coords is None:
            self._coords = robot_control.coordinates(self.scene)
        return self._coords

    def notes(self) -> list[str]:
        """What the engine changed to run this scene stably, one line each naming the joint (a loss, as a
        converter's): e.g. armature on the joints of a multibody link that weighs under 1e-4 of its tree.

        Example:
            >>> world.notes()
            []
        """
        names = [j.pointer or _name_of(_nodes(self.scene), j.node) for j in self.scene.joints]
        return [f"joint {names[k]}: {message}" for k, message in getattr(self.engine, "notes", ())]

    def events(self) -> list[dict[str, Any]]:
        """Trigger events since the start, in order: ``{"time", "event": "enter"|"exit", "trigger", "node"}``
        (``trigger`` the trigger's node, ``node`` the body's node).

        Example:
            >>> world.run(1.0); world.events()[0]   # examples/tumbling_boxes.gltf: the ball enters the zone
            {'time': 0.8166666666666667, 'event': 'enter', 'trigger': 8, 'node': 3}
        """
        return [dict(e) for e in self.engine.triggers.events]

    def mass_properties(self, node: int) -> MassProperties | None:
        """The mass properties the engine uses for a body node (file values, or computed from its shapes at
        ``density``): ``mass`` (kg), ``center_of_mass`` (body frame), ``inertia_diagonal`` (kg·m²) and
        ``inertia_orientation``; ``None`` for a node that is not a dynamic or kinematic body.

        Example:
            >>> world.mass_properties(1).mass   # BoxA in examples/tumbling_boxes.gltf
            2.0
        """
        return self.engine.mass_of.get(node)

    # -- writing -------------------------------------------------------------------------------------
    def set(self, pointer: str, value: Any) -> None:
        """Apply a glTF Object Model pointer now: body motion (``linearVelocity``, ``angularVelocity``,
        ``gravityFactor``, ``mass``), joint limits and drives, vehicles, wheels, thrusters, gravity volumes.

        Raises SimulationError (naming the pointer) for a pointer that is not simulated or a value of the
        wrong type or shape.

        Example:
            >>> world.set("/nodes/3/extensions/OMI_physics_body/motion/linearVelocity", [0, 5, 0])
        """
        try:
            with engine_failures(self.time):  # a Rust panic on a hostile value: one SimulationError too
                try:
                    self._apply(pointer, value)
                except (ValueError, KeyError, IndexError, TypeError) as e:
                    raise SimulationError(value_reason(e, value), pointer=pointer) from None
        except SimulationError as e:
            e.pointer = pointer
            raise

    def push(self, node: int, force: Any, point: Any) -> None:
        """Apply a world force (N, x y z) at a world point (m) to a dynamic body during the next step only:
        what an interactive grab uses (the live viewer's spring). Other forces on the body are unchanged.

        Raises SimulationError when ``node`` is not a dynamic body or the engine cannot push.

        Example:
            >>> world.push(3, [0, 20, 0], world.pose(3)[0]); world.step()
        """
        self.engine.push(node, force, point)

    def get(self, pointer: str) -> Any:
        """The value of a glTF Object Model pointer now: node TRS (where bodies have taken them), body
        velocities (node space) and mass, and every pointer :meth:`set` takes (the last value set, else the
        file's); ``sim/object_model.py``. Raises SimulationError (naming the pointer) when it cannot be read.

        Example:
            >>> world.get("/nodes/3/translation")[1]   # the ball's height now
        """
        try:
            return self.object_model.get(pointer)
        except SimulationError as e:
            e.pointer = pointer
            raise

    def apply_impulse(self, node: int, linear: Any, angular: Any = (0.0, 0.0, 0.0)) -> None:
        """Change a dynamic body's velocities now by a world linear impulse (N·s) at its centre of mass
        (Δv = J/m) and a world angular impulse (N·m·s); what ``rigid_body/applyImpulse`` does.

        Raises SimulationError when ``node`` is not a dynamic body.

        Example:
            >>> world.apply_impulse(3, [0, 10, 0])
        """
        self.engine.apply_impulse(node, linear, angular)

    def apply_point_impulse(self, node: int, impulse: Any, point: Any) -> None:
        """Change a dynamic body's velocities now by a world impulse (N·s) at a world point (m): Δv = J/m,
        Δω = I⁻¹ (r × J); what ``rigid_body/applyPointImpulse`` does.

        Example:
            >>> world.apply_point_impulse(3, [0, 0, 1], world.pose(3)[0] + [0.5, 0, 0])
        """
        self.engine.apply_point_impulse(node, impulse, point)

    def ray_cast(self, start: Any, end: Any, filter_index: int | None = None) -> RayHit | None:
        """The closest solid collider on the world segment ``start``→``end`` (triggers are not hit), seen as a
        collider with the file's collision filter ``filter_index`` would see it (None or negative: every
        collider); a :class:`~gltf_physics.sim.queries.RayHit` (node, point, normal, fraction) or None.

        Example:
            >>> world.ray_cast([0, 10, 0], [0, -10, 0]).node
        """
        return self.engine.ray_cast(start, end, filter_index)

    def _apply(self, pointer: str, value: Any) -> None:
        trs = trs_target(pointer)
        if trs is not None:
            self.object_model.set_trs(*trs, value)
            return
        target = pointers.resolve(pointer)
        if target.kind == "motion":
            self.engine.set_motion(target.index, target.field, value)
        elif target.kind in ("joint_settings", "joint_node"):
            self._set_joint(target, value)
        elif target.kind in CONTROLLED:  # vehicles, wheels, thrusters, gravity volumes
            self.engine.set_controlled(target.kind, target.index, target.field, value)
        else:
            raise SimulationError(f"{target.kind} properties are not simulated")
        self.object_model.values[pointer] = value  # read back by get()

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
        """The OMI_seat frame of ``node`` now (the spec): world back/knee/foot points and forward/right/spine
        axes. Raises SimulationError when the node has no OMI_seat.

        Example:
            >>> world.seat_frame(5)["forward"]
        """
        from .seats import seat_frame

        seat = next((s for s in self.scene.seats if s.node == node), None)
        if seat is None:
            raise SimulationError(f"node {node} has no OMI_seat", node=node)
        return seat_frame(seat, self.engine.node_matrix(node))

    # -- snapshots -----------------------------------------------------------------------------------
    def snapshot(self) -> tuple[Any, ...]:
        """The exact state now (engine bytes with trigger bookkeeping, step count, recording length, the behaviour
        graph's state, the values set), for :meth:`restore`: a run continued from a restored snapshot repeats the
        original bit for bit.

        Example:
            >>> state = world.snapshot(); world.run(1.0); world.restore(state)
        """
        graph = self._driver.state() if self._driver is not None else None  # the behaviour graph's run state
        model = self.object_model
        return (self.engine.snapshot(), self.step_count, self.recording.count if self.recording else 0,
                (graph, dict(model.values), {n: dict(t) for n, t in model.trs.items()}))

    def restore(self, snap: tuple[Any, ...]) -> None:
        """Go back to a :meth:`snapshot` of this World: bodies, time, the recording (frames after it are
        dropped) and every value set by pointer since (vehicle inputs, gravity volumes included).

        Example:
            >>> state = world.snapshot(); world.step(); world.restore(state); world.step_count
            0
        """
        engine, steps, frames, (graph, values, trs) = snap
        self.engine.restore(engine)
        if self._driver is not None and graph is not None:
            self._driver.restore(graph)
        self.object_model.moved()
        self.object_model.values = dict(values)
        self.object_model.trs = {n: dict(t) for n, t in trs.items()}
        self.step_count = steps
        if self.recording is not None:
            self.recording.truncate(frames)


def _graph_driver(world: World, selector: int | bool | None) -> Any:
    """The behaviour graph's driver (``behaviour/world_host.py``), started; None without one. A document
    without KHR_interactivity never imports the graph room."""
    doc = world.scene.document.json if world.scene.document is not None else {}
    ext = doc.get("extensions")
    if selector is False or not (isinstance(ext, dict) and "KHR_interactivity" in ext):
        if isinstance(selector, int) and not isinstance(selector, bool):
            raise SimulationError(f"graph {selector} does not exist (the file has no behaviour graph)")
        return None
    from ..behaviour.errors import GraphError
    from ..behaviour.world_host import GraphRefused, attach

    try:
        driver = attach(world, selector)
    except GraphRefused as e:  # an invalid graph is reported and not run; the physics runs
        world.graph_errors = list(e.problems)
        return None
    except GraphError as e:
        raise SimulationError(str(e)) from None
    if driver is not None:
        driver.start()
    return driver


def _node_names(scene: PhysicsScene, wanted: list[int]) -> list[str]:
    nodes = _nodes(scene)
    return [_name_of(nodes, node) for node in wanted]


def _nodes(scene: PhysicsScene) -> list[Any]:
    nodes = scene.document.json.get("nodes") if scene.document is not None else None
    return nodes if isinstance(nodes, list) else []


def _name_of(nodes: list[Any], node: int) -> str:
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
