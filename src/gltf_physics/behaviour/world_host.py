"""A behaviour graph run inside a :class:`~gltf_physics.sim.World`: the Host over the World, and the per-step driver.

The host reads and writes Object Model pointers through ``World.get`` / ``World.set`` (node TRS, body motion,
joints, vehicles… ``sim/object_model.py``), applies the ``rigid_body/*`` impulses and ray casts on the running
engine, and keeps ``debug/log`` lines. Animation calls keep each animation's play state (``isPlaying``,
``playhead``, ``virtualPlayhead`` under ``/animations/N/extensions/KHR_interactivity/``); the file's animations
drive the simulation as they always do (they play from t = 0; a graph does not move them).

Step order (docs/behaviour.md): ``event/onStart`` runs when the World is built, before the t = 0 frame is
recorded. Then each ``World.step``: the physics step (``substeps`` engine steps) → the step's trigger events as
the World reports them (``World.events``) → the graph's ``event/rigid_body_triggerEntered``/``Exited``, one per
collider event, in the order the engine found them → the graph's tick (custom events sent during the last tick,
due delays, interpolations, ``event/onTick`` with ``timeSinceStart`` = the World's time) → the frame is recorded.
"""

from __future__ import annotations

import copy
import math
from typing import TYPE_CHECKING, Any

from ..sim.errors import SimulationError
from .errors import GraphError
from .host import RayHit
from .ops.physics import ENTERED, EXITED, configured_index
from .read import read_interactivity
from .run import GraphRunner

if TYPE_CHECKING:
    from ..sim.world import World

_VECTORS = {"translation": "float3", "rotation": "float4", "scale": "float3", "linearVelocity": "float3",
            "angularVelocity": "float3", "linearActivation": "float3", "angularActivation": "float3",
            "gyroTorque": "float3", "gravity": "float", "priority": "int"}
_BOOLS = frozenset({"enableCollision", "angularDampeners", "linearDampeners", "useThrottle", "replace", "stop",
                    "isKinematic", "isPlaying"})
_ANIMATION = "/animations/"


class WorldHost:
    """The :class:`~gltf_physics.behaviour.host.Host` of a graph running in ``world`` (module docstring)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._value = world.object_model.value  # the hot path of pointer/get
        self.lines: list[str] = []
        self.animations: dict[int, dict[str, float]] = {}  # animation → start, end, speed, started (world time)
        doc = world.scene.document.json if world.scene.document is not None else {}
        anims = doc.get("animations")
        self.animation_count = len(anims) if isinstance(anims, list) else 0

    # -- the Object Model ------------------------------------------------------------------------------
    def get_pointer(self, pointer: str) -> Any:
        """``World.get`` as a graph value (vectors as tuples)."""
        if pointer.startswith(_ANIMATION):
            return self._animation_value(pointer)
        try:
            value = self._value(pointer)
        except SimulationError as e:
            raise GraphError(str(e)) from None
        if value.__class__ is tuple:
            return value
        kind = self.pointer_type(pointer)  # a file's 1 read as a float pointer is 1.0
        if kind == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if kind == "int" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return int(value)
        return value

    def set_pointer(self, pointer: str, value: Any) -> None:
        """``World.set`` (a body's node TRS moves the body)."""
        self._call(self.world.set, pointer, list(value) if isinstance(value, tuple) else value)

    def pointer_type(self, pointer: str) -> str | None:
        """The Object Model type of a pointer the World reads and writes, else None."""
        from ..dialects.common import pointers
        from ..sim.object_model import trs_target

        last = pointer.rsplit("/", 1)[-1]
        if pointer.startswith(_ANIMATION):
            return "bool" if last == "isPlaying" else "float" if last in ("playhead", "virtualPlayhead") else None
        if trs_target(pointer) is None:
            try:
                pointers.resolve(pointer)
            except ValueError:
                return None
        return _VECTORS.get(last) or ("bool" if last in _BOOLS else "float")

    def log(self, message: str) -> None:
        """Keeps the line (the runner keeps it too, with its time)."""
        self.lines.append(message)

    # -- physics ---------------------------------------------------------------------------------------
    def apply_impulse(self, node: int, impulse: Any, angular: Any = (0.0, 0.0, 0.0)) -> None:
        """``World.apply_impulse``: world linear impulse at the centre of mass (and a world angular impulse)."""
        self._call(self.world.apply_impulse, node, impulse, angular)

    def apply_point_impulse(self, node: int, impulse: Any, point: Any) -> None:
        """``World.apply_point_impulse``: a world impulse at a world point."""
        self._call(self.world.apply_point_impulse, node, impulse, point)

    def ray_cast(self, start: Any, end: Any, filter_index: int) -> RayHit | None:
        """``World.ray_cast``: the closest solid collider, seen through collision filter ``filter_index``."""
        hit = self._call(self.world.ray_cast, start, end, filter_index)
        if hit is None:
            return None
        return RayHit(hit.node, hit.fraction, hit.point, hit.normal)

    # -- animations ------------------------------------------------------------------------------------
    def start_animation(self, animation: int, start: float, end: float, speed: float) -> None:
        """Play state of ``animation`` from ``start`` towards ``end`` at ``speed`` (from the World's time now)."""
        self._animation(animation)
        self.animations[animation] = {"start": start, "end": end, "speed": speed, "t0": self.world.time,
                                      "stop": math.nan}

    def stop_animation(self, animation: int) -> None:
        """Stop ``animation`` where it is."""
        self._animation(animation)
        state = self.animations.get(animation)
        if state is not None:
            state["stop"] = self._playhead(state)
            state["end"] = state["stop"]

    def stop_animation_at(self, animation: int, time: float) -> None:
        """Stop ``animation`` when its playhead reaches ``time``."""
        self._animation(animation)
        state = self.animations.get(animation)
        if state is not None:
            state["end"] = time

    def _animation(self, animation: int) -> None:
        if not 0 <= animation < self.animation_count:
            raise GraphError(f"animation {animation} does not exist (the file has {self.animation_count})")

    def _playhead(self, state: dict[str, float]) -> float:
        run = state["start"] + (self.world.time - state["t0"]) * state["speed"]
        lo, hi = sorted((state["start"], state["end"]))
        return min(max(run, lo), hi)

    def _animation_value(self, pointer: str) -> Any:
        parts = pointer.split("/")
        if len(parts) != 6 or not parts[2].isdigit() or parts[4] != "KHR_interactivity":
            raise GraphError(f"{pointer} cannot be read")
        index = int(parts[2])
        self._animation(index)
        state = self.animations.get(index)
        playhead = self._playhead(state) if state is not None else 0.0
        if parts[5] == "isPlaying":
            return state is not None and playhead != state["end"]
        if parts[5] in ("playhead", "virtualPlayhead"):
            return playhead
        raise GraphError(f"{pointer} cannot be read")

    @staticmethod
    def _call(fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except SimulationError as e:
            raise GraphError(str(e)) from None


class GraphDriver:
    """Runs one graph of a World's document alongside its steps (module docstring: the step order)."""

    def __init__(self, world: World, runner: GraphRunner, index: int) -> None:
        self.world = world
        self.runner = runner
        self.index = index  # the graph's index in the document
        self.seen = 0  # collider trigger events already fired
        self.has_trigger_events = bool(runner.listeners.get(ENTERED) or runner.listeners.get(EXITED))
        self.picks: Any = None  # the selection/hover state, made on the first pick

    def start(self) -> None:
        """``event/onStart``."""
        self.runner.start()

    def select(self, node: int, point: Any, origin: Any) -> None:
        """A user picked ``node`` at world ``point`` with a ray from ``origin``: ``event/onSelect`` up its chain."""
        self._picks().select(node, point, origin)

    def hover(self, node: int | None) -> None:
        """The pointer now hovers ``node`` (None: nothing): ``event/onHoverOut`` / ``event/onHoverIn``."""
        self._picks().hover(node)

    def _picks(self) -> Any:
        from .ops.selection import Picks

        if self.picks is None:
            doc = self.world.scene.document.json if self.world.scene.document is not None else {}
            self.picks = Picks(self.runner, doc)
        self.picks.runner = self.runner  # a restore replaces the runner
        self.runner.time = self.world.time
        return self.picks

    def state(self) -> tuple[GraphRunner, int, dict[int, dict[str, float]]]:
        """A copy of the graph's whole run state (variables, delays, interpolations, node states, logs), for
        :meth:`restore` (``World.snapshot``)."""
        host = self.runner.host
        keep = {id(host): host, id(self.runner.graph): self.runner.graph, id(self.world): self.world}
        return copy.deepcopy(self.runner, keep), self.seen, copy.deepcopy(host.animations)  # type: ignore[attr-defined]

    def restore(self, state: tuple[GraphRunner, int, dict[int, dict[str, float]]]) -> None:
        """Back to a :meth:`state` (which stays reusable)."""
        runner, seen, animations = state
        host = runner.host
        self.runner = copy.deepcopy(runner, {id(host): host, id(runner.graph): runner.graph,
                                             id(self.world): self.world})
        self.seen = seen
        host.animations = copy.deepcopy(animations)  # type: ignore[attr-defined]

    def after_step(self) -> None:
        """The step's trigger events, then the tick."""
        runner, world = self.runner, self.world
        if self.has_trigger_events:
            events = world.engine.collider_triggers.events
            while self.seen < len(events):
                e = events[self.seen]
                self.seen += 1
                op = ENTERED if e["event"] == "enter" else EXITED
                runner.time = world.time
                runner.fire(op, {"colliderNodeIndex": e["collider"], "motionNodeIndex": e["motion"]},
                            match=lambda n, trigger=e["trigger"]: configured_index(n.configuration) == trigger)
        runner.tick(world.time, world.dt)


def attach(world: World, selector: int | bool | None) -> GraphDriver | None:
    """The driver of the graph ``selector`` picks in the World's document: None picks the document's default
    graph (when it has ``KHR_interactivity``), an int that graph, False none. Raises GraphError when an int names
    no graph, GraphRefused when the graph breaks a rule (``prepare``'s KHRI rules, and the physics operations'
    KRBI-1/KRBI-2, which need the document)."""
    from .load import prepare

    if selector is False:
        return None
    doc = world.scene.document.json if world.scene.document is not None else {}
    interactivity = read_interactivity(doc)
    if interactivity is None or not interactivity.graphs:
        if isinstance(selector, int) and not isinstance(selector, bool):
            raise GraphError(f"graph {selector} does not exist (the file has no behaviour graph)")
        return None
    index = interactivity.default if selector is None or selector is True else int(selector)
    if not 0 <= index < len(interactivity.graphs):
        raise GraphError(f"graph {index} does not exist (the file has {len(interactivity.graphs)})")
    prepared = prepare(doc, WorldHost(world), index)
    errors = list(prepared.errors) + physics_errors(interactivity.graphs[index], doc, prepared.errors)
    if errors or prepared.runner is None:
        raise GraphRefused(errors or ["the graph cannot run"])
    return GraphDriver(world, prepared.runner, index)


class GraphRefused(GraphError):
    """The selected graph is invalid: ``problems`` lists why (one line each); the physics runs without it."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems[0] if problems else "the graph is invalid")
        self.problems = problems


def physics_errors(graph: Any, doc: dict[str, Any], known: list[str]) -> list[str]:
    """KRBI-1 and KRBI-2 errors of ``graph`` that ``known`` (``prepare``'s lines) does not already hold, in its
    form ``"KRBI-1 /pointer: message"``."""
    from .ops.physics import check_document

    found: list[str] = []

    def emit(code: str, pointer: str, message: str, severity: int | None = None) -> None:
        line = f"{code} {pointer}:"
        if pointer.startswith(graph.pointer + "/") and not any(k.startswith(line) for k in known + found):
            found.append(f"{code} {pointer}: {message}")

    check_document(doc, emit)
    return found
