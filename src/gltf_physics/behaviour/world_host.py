"""A behaviour graph run inside a :class:`~gltf_physics.sim.World`: the Host over the World, and the per-step driver.

The host reads and writes Object Model pointers through ``World.get`` / ``World.set`` (node TRS, body motion,
joints, vehicles… ``sim/object_model.py``), applies the ``rigid_body/*`` impulses and ray casts on the running
engine, and keeps ``debug/log`` lines. An animation the graph plays (the runner times it) is applied each tick
through node TRS pointers: its animated body nodes move with it. The file's animations keep driving the nodes the
engine follows (from t = 0) as they always do.

Step order (docs/behaviour.md): ``event/onStart`` runs when the World is built, before the t = 0 frame is
recorded. Then each ``World.step``: the physics step (``substeps`` engine steps) → the step's trigger events as
the World reports them (``World.events``) → the graph's ``event/rigid_body_triggerEntered``/``Exited``, one per
collider event, in the order the engine found them → the graph's tick (custom events sent during the last tick,
due delays, interpolations, ``event/onTick`` with ``timeSinceStart`` = the World's time) → the frame is recorded.
"""

from __future__ import annotations

import copy
from typing import Any

from ..sim.errors import SimulationError
from .errors import GraphError
from .host import RayHit
from .ops.physics import ENTERED, EXITED, configured_index
from .read import read_interactivity
from .run import GraphRunner

# The World of sim/world.py, which imports this module: named, not imported (no import circle).
World = Any

_VECTORS = {"translation": "float3", "rotation": "float4", "scale": "float3", "linearVelocity": "float3",
            "angularVelocity": "float3", "linearActivation": "float3", "angularActivation": "float3",
            "gyroTorque": "float3", "gravity": "float", "priority": "int"}
_BOOLS = frozenset({"enableCollision", "angularDampeners", "linearDampeners", "useThrottle", "replace", "stop",
                    "isKinematic"})


class WorldHost:
    """The :class:`~gltf_physics.behaviour.host.Host` of a graph running in ``world`` (module docstring)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._value = world.object_model.value  # the hot path of pointer/get
        self._world_pointers: dict[str, bool] = {}  # pointer → owned by the World (else: the document host)
        self._doc_host: Any = None  # made on the first pointer the World does not own
        self.lines: list[str] = []
        self.tracks: dict[int, tuple[float, dict[int, Any]]] = {}  # animation → (duration, node tracks)
        doc = world.scene.document.json if world.scene.document is not None else {}
        anims = doc.get("animations")
        self.animation_count = len(anims) if isinstance(anims, list) else 0

    # -- the Object Model ------------------------------------------------------------------------------
    def get_pointer(self, pointer: str) -> Any:
        """``World.get`` as a graph value (vectors as tuples)."""
        try:
            value = self._value(pointer)
        except SimulationError as e:
            if self._is_world(pointer):
                raise GraphError(str(e)) from None
            return self._document_host().get_pointer(pointer)  # materials, lights, .length… of the JSON
        if value.__class__ is tuple:
            return value
        kind = self.pointer_type(pointer)  # a file's 1 read as a float pointer is 1.0
        if kind == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if kind == "int" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return int(value)
        return value

    def trs_many(self, nodes: list[int], part: str) -> Any:
        """The ``translation`` or ``rotation`` of every node in ``nodes`` as one (N, 3|4) float64 array, the same
        numbers as ``get_pointer`` of each node's pointer; None when one of them is not a root body (the caller
        reads them one by one)."""
        return self.world.object_model.trs_many(nodes, part)

    def set_pointer(self, pointer: str, value: Any) -> None:
        """``World.set`` (a body's node TRS moves the body); other Object Model pointers (materials, lights…) go
        to the document host's copy of the JSON."""
        if not self._is_world(pointer):
            self._document_host().set_pointer(pointer, value)
            return
        self._call(self.world.set, pointer, list(value) if isinstance(value, tuple) else value)

    def pointer_type(self, pointer: str) -> str | None:
        """The Object Model type of ``pointer``: the World's pointers by property name, the others as the document
        host types them (None: not supported)."""
        if not self._is_world(pointer):
            return self._document_host().pointer_type(pointer)
        last = pointer.rsplit("/", 1)[-1]
        return _VECTORS.get(last) or ("bool" if last in _BOOLS else "float")

    def _is_world(self, pointer: str) -> bool:
        """Whether the World owns ``pointer`` (node TRS, or a physics property ``World.set`` takes)."""
        known = self._world_pointers.get(pointer)
        if known is None:
            from ..dialects.common import pointers
            from ..sim.object_model import trs_target

            known = trs_target(pointer) is not None
            if not known:
                try:
                    pointers.resolve(pointer)
                    known = True
                except ValueError:
                    known = False
            if len(self._world_pointers) < 100_000:
                self._world_pointers[pointer] = known
        return known

    def _document_host(self) -> Any:
        if self._doc_host is None:
            from .doc_host import DocumentHost

            doc = self.world.scene.document
            self._doc_host = DocumentHost(doc.json if doc is not None else {}, doc)
        return self._doc_host

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
    def animation_duration(self, animation: int) -> float:
        """The largest key time of the animation's node transform channels (GraphError: no such animation)."""
        return self._tracks(animation)[0]

    def apply_animation(self, animation: int, time: float) -> None:
        """Set the animated nodes' translation/rotation/scale at ``time`` through ``World.set``: a body's node
        moves the body there, another node keeps the value (node TRS pointers)."""
        for node, tracks in self._tracks(animation)[1].items():
            for path in ("translation", "rotation", "scale"):
                sampler = getattr(tracks, path)
                if sampler is not None:
                    self._call(self.world.set, f"/nodes/{node}/{path}", [float(x) for x in sampler.sample(time)])

    def start_animation(self, animation: int, start: float, end: float, speed: float) -> None:
        """Nothing more to do: the runner times the animation and applies it each tick."""
        self._tracks(animation)

    def stop_animation(self, animation: int) -> None:
        """Nothing more to do: the runner stops applying it."""

    def stop_animation_at(self, animation: int, time: float) -> None:
        """Nothing more to do: the runner stops applying it at ``time``."""

    def _tracks(self, animation: int) -> tuple[float, dict[int, Any]]:
        if animation not in self.tracks:
            from ..gltf.animation import node_tracks

            document = self.world.scene.document
            if document is None or not 0 <= animation < self.animation_count:
                raise GraphError(f"animation {animation} does not exist (the file has {self.animation_count})")
            tracks = node_tracks(document, animation)
            samplers = [s for t in tracks.values() for s in (t.translation, t.rotation, t.scale) if s is not None]
            self.tracks[animation] = (max((float(s.times[-1]) for s in samplers), default=0.0), tracks)
        return self.tracks[animation]

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

    def state(self) -> tuple[GraphRunner, int, Any]:
        """A copy of the graph's whole run state (variables, delays, interpolations, node states, logs, what it
        wrote into the document host's JSON), for :meth:`restore` (``World.snapshot``)."""
        host = self.runner.host
        keep = {id(host): host, id(self.runner.graph): self.runner.graph, id(self.world): self.world}
        doc_host = getattr(host, "_doc_host", None)
        return copy.deepcopy(self.runner, keep), self.seen, copy.deepcopy(doc_host.json) if doc_host else None

    def restore(self, state: tuple[GraphRunner, int, Any]) -> None:
        """Back to a :meth:`state` (which stays reusable)."""
        runner, seen, doc_json = state
        host = runner.host
        self.runner = copy.deepcopy(runner, {id(host): host, id(runner.graph): runner.graph,
                                             id(self.world): self.world})
        self.seen = seen
        doc_host = getattr(host, "_doc_host", None)
        if doc_host is not None:
            if doc_json is None:
                host._doc_host = None  # type: ignore[attr-defined]  # made after the snapshot: start afresh
            else:
                doc_host.json = copy.deepcopy(doc_json)

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
    triggers = {t.node for t in world.scene.triggers}
    errors = list(prepared.errors) + physics_errors(interactivity.graphs[index], doc, prepared.errors, triggers)
    if errors or prepared.runner is None:
        raise GraphRefused(errors or ["the graph cannot run"])
    return GraphDriver(world, prepared.runner, index)


class GraphRefused(GraphError):
    """The selected graph is invalid: ``problems`` lists why (one line each); the physics runs without it."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems[0] if problems else "the graph is invalid")
        self.problems = problems


def physics_errors(graph: Any, doc: dict[str, Any], known: list[str], triggers: set[int] | None = None) -> list[str]:
    """KRBI-1 and KRBI-2 errors of ``graph`` that ``known`` (``prepare``'s lines) does not already hold, in its
    form ``"KRBI-1 /pointer: message"``."""
    from .ops.physics import check_document

    found: list[str] = []

    def emit(code: str, pointer: str, message: str, severity: int | None = None) -> None:
        line = f"{code} {pointer}:"
        if pointer.startswith(graph.pointer + "/") and not any(k.startswith(line) for k in known + found):
            found.append(f"{code} {pointer}: {message}")

    check_document(doc, emit, triggers)
    return found
