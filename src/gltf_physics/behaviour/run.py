"""The interpreter: compiles a :class:`~.model.Graph` into linked run-time nodes and runs its events.

Tick model (documented in docs/behaviour.md): ``start()`` fires every ``event/onStart`` node in JSON order.
Each ``tick(time_since_start, dt)`` then, in this order: delivers the custom events sent during the previous
tick, advances variable and pointer interpolations, runs the delayed activations that are due (in due-time
order), and fires every ``event/onTick`` node. Each of those activations is an *entry*: its flow chain
runs to the end before the next entry starts. ``activation_budget`` bounds the activations of one ``start`` or
``tick`` (and one ``fire``/``send``): a graph that loops without end stops with one error line.

A run-time error stops the graph (``errors`` gets one line naming the node's pointer); the runner never raises
out of ``start``/``tick``/``fire``/``send``.
"""

from __future__ import annotations

import copy
import heapq
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import GraphError
from .fuse import fuse_math
from .host import Host
from .model import Graph, GraphNode
from .ops import OPS
from .ops.spec import OpSpec
from .values import convert, default

DEFAULT_BUDGET = 1_000_000
NOOP = OpSpec("noop")


@dataclass(frozen=True)
class Line:
    """One ``logs``/``errors`` entry: the graph time and a one-line message (naming the node's pointer)."""

    time: float
    message: str
    pointer: str = ""

    def __str__(self) -> str:
        return f"t={self.time:.4f} {self.message}" + (f" ({self.pointer})" if self.pointer else "")


class RNode:
    """A compiled node: its operation's callables, inline values, links resolved to nodes, state and outputs."""

    __slots__ = ("cached", "compute", "config", "consts", "flows", "index", "links", "op", "out", "pointer", "read",
                 "run", "seen", "source", "spec", "state", "thunk", "value")

    def __init__(self, source: GraphNode, spec: OpSpec) -> None:
        self.index = source.index
        self.op = source.op
        self.spec = spec
        self.pointer = source.pointer
        self.config: dict[str, Any] = source.configuration
        self.consts: dict[str, Any] = {}
        # socket → (source node, its output socket, the source's fast value function when that socket is "value")
        self.links: dict[str, tuple[RNode, str, Callable[..., Any] | None]] = {}
        self.flows: dict[str, tuple[RNode, str]] = {}
        self.out: dict[str, Any] = {}
        self.state: dict[str, Any] = {}
        self.read: dict[str, Callable[[], Any]] = {}  # input socket → its compiled reader (GraphRunner._compile)
        self.seen = -1  # the flow epoch of ``cached`` (a pure node's outputs, kept within one flow activation)
        self.cached: Any = None
        self.thunk: Callable[[], Any] | None = None  # a pure one-output node's value, bound to its input readers
        self.compute = spec.compute
        self.value = spec.value
        self.run = spec.run
        self.source = source

    def cfg(self, key: str, fallback: Any = None) -> Any:
        """The first element of configuration ``key``'s value array (``fallback`` when absent)."""
        value = self.config.get(key)
        if isinstance(value, list) and value:
            return value[0]
        return fallback


class GraphRunner:
    """Runs one behaviour graph against a :class:`~.host.Host`.

    Example:
        >>> from gltf_physics.behaviour.doc_host import DocumentHost
        >>> from gltf_physics.behaviour.read import read_interactivity
        >>> runner = GraphRunner(read_interactivity(doc_json).graphs[0], DocumentHost(doc_json))
        >>> runner.start(); runner.tick(0.0, 0.0)
        >>> runner.variable("score"), [str(line) for line in runner.logs], runner.errors
    """

    def __init__(self, graph: Graph, host: Host, *, activation_budget: int = DEFAULT_BUDGET,
                 fuse: bool = True) -> None:
        self.graph = graph
        self.host = host
        self.budget = activation_budget
        self.time = 0.0
        self.ticks = 0
        self.errors: list[Line] = []
        self.logs: list[Line] = []
        self.sent: list[tuple[int, dict[str, Any]]] = []  # every event/send, for the embedding application
        self.stopped = False
        self.count = 0
        self.epoch = 0  # flow activations so far: math/random keeps its value while this is unchanged
        self.draft = graph.form != "current"
        self.vectorise = True  # False: every flow/for runs its scalar loop (the vectorised one's reference)
        self.fuse = fuse  # False: math trees run node by node (the fused code's reference, fuse.py)
        self.fused = 0  # how many math nodes were folded into another one's generated code
        self.variables: list[Any] = [self._initial(v.type, v.value, v.pointer) for v in graph.variables]
        self._var_names = {v.id: i for i, v in enumerate(graph.variables) if v.id is not None}
        self._delays: list[tuple[float, int, RNode, int]] = []
        self._delay_seq = 0
        self.cancelled: set[int] = set()
        self.interpolations: list[Any] = []  # objects with .step(runner) -> bool (True: finished)
        self._pending_events: list[tuple[int, dict[str, Any]]] = []
        self._serial = 0
        self.stopped_events: set[str] = set()  # event references event/stopPropagation stopped immediately
        self.nodes = [RNode(n, OPS.get(n.op, NOOP)) for n in graph.nodes]
        self._link()
        self.listeners: dict[str, list[RNode]] = {}
        for node in self.nodes:
            self.listeners.setdefault(node.op, []).append(node)
            if node.spec.init is not None:
                node.spec.init(self, node)
        self._compile()  # after init: a bound value reads what init prepared (a variable's index…)

    # ----- compile -------------------------------------------------------------------------------------------
    def _initial(self, type_index: int | None, raw: list[Any] | None, pointer: str) -> Any:
        signature = self.graph.type_name(type_index)
        return default(signature) if raw is None else convert(signature, raw, pointer)

    def _link(self) -> None:
        nodes = self.nodes
        count = len(nodes)
        for node in nodes:
            for socket, src in node.source.values.items():
                if src.node is not None:
                    if not 0 <= src.node < count:
                        raise GraphError(f"value '{socket}' links to missing node {src.node}", src.pointer)
                    source = nodes[src.node]
                    fast = source.value if src.out_socket == "value" else None
                    node.links[socket] = (source, src.out_socket, fast)
                else:
                    node.consts[socket] = self._initial(src.type, src.value, src.pointer)
            for socket, link in node.source.flows.items():
                if link.node is not None and 0 <= link.node < count:
                    node.flows[socket] = (nodes[link.node], link.in_socket)
            for socket, signature in node.spec.outputs.items():
                node.out[socket] = default(signature if signature in _CONCRETE else "float")

    # ----- evaluation ----------------------------------------------------------------------------------------
    def get(self, node: RNode, socket: str) -> Any:
        """The value of ``node``'s input ``socket``: inline, or the linked node's output (a pure node is evaluated
        once per flow epoch, see :meth:`_reader`)."""
        read = node.read.get(socket)
        if read is None:
            raise GraphError(f"{node.op} has no value for input '{socket}'", node.pointer)
        return read()

    # ----- compiled readers ----------------------------------------------------------------------------------
    def _compile(self) -> None:
        """Give every input socket a reader closure (done once, and again after a deep copy: closures are shared
        by ``copy.deepcopy``, so a copy's readers must be its own)."""
        for node in self.nodes:
            node.read = {socket: self._reader(node, socket) for socket in (*node.consts, *node.links)}
        for node in self.nodes:  # then each one-output pure node's value over those readers
            fast = node.value
            if fast is not None:
                bind = getattr(fast, "bind", None)
                thunk = bind(self, node) if bind is not None else None
                node.thunk = thunk if thunk is not None else (lambda fast=fast, node=node: fast(self, node))
        if self.fuse:
            self.fused = fuse_math(self)  # math trees as one generated function each (fuse.py)

    def _reader(self, node: RNode, socket: str) -> Callable[[], Any]:
        """The reader of one input socket. The specification keeps a node's output values until a node with flow
        sockets executes ("output value sockets MUST retain their values until an interactivity node with one or
        more flow sockets is executed"): a pure node's outputs are computed on the first read of a flow epoch and
        kept for the rest of it, so a ``math/extract3`` read by two nodes runs its ``pointer/get`` once. ``epoch``
        moves before and after every flow node's execution (:meth:`activate`) and whenever a loop's index moves."""
        if socket in node.consts:
            constant = node.consts[socket]
            return lambda: constant
        src, out, fast = node.links[socket]
        if src.compute is None:  # a flow node's output value: what it keeps
            outputs = src.out

            def kept() -> Any:
                try:
                    return outputs[out]
                except KeyError:
                    raise GraphError(f"{src.op} has no output '{out}'", node.pointer) from None
            return kept
        rt = self
        if fast is not None:
            def value() -> Any:
                if src.seen == rt.epoch:
                    return src.cached
                result = src.thunk()  # type: ignore[misc]
                src.cached, src.seen = result, rt.epoch
                return result
            return value
        compute = src.compute
        uncached = src.value is not None  # another socket of a one-output node: an error, never kept

        def socket_value() -> Any:
            if src.seen == rt.epoch and not uncached:
                values = src.cached
            else:
                values = compute(rt, src)
                if not uncached:
                    src.cached, src.seen = values, rt.epoch
            try:
                return values[out]
            except KeyError:
                raise GraphError(f"{src.op} has no output '{out}'", node.pointer) from None
        return socket_value

    def __deepcopy__(self, memo: dict[int, Any]) -> GraphRunner:
        """A deep copy (``World.snapshot``) whose readers read the copy's nodes."""
        clone = self.__class__.__new__(self.__class__)
        memo[id(self)] = clone
        for key, item in self.__dict__.items():
            setattr(clone, key, copy.deepcopy(item, memo))
        clone._compile()
        return clone

    def has_input(self, node: RNode, socket: str) -> bool:
        """Whether ``node`` has an input ``socket`` (inline or linked)."""
        return socket in node.consts or socket in node.links

    def activate(self, node: RNode, socket: str) -> None:
        """Activate ``node``'s output flow ``socket``: run the linked node's input flow (counting the budget)."""
        link = node.flows.get(socket)
        if link is None:
            return
        target, in_socket = link
        self.count += 1
        self.epoch += 1
        if self.count > self.budget:
            raise GraphError(f"stopped after {self.budget} activations in one tick (a loop without end?)",
                             target.pointer)
        run = target.run
        if run is not None:
            run(self, target, in_socket)
            self.epoch += 1  # the node executed: values read after this are read afresh

    # ----- entries -------------------------------------------------------------------------------------------
    def _entry(self, call: Callable[[], None]) -> None:
        if self.stopped:
            return
        self.epoch += 1  # Python may have changed variables or the world since the last entry
        try:
            call()
        except GraphError as err:
            self._fail(err.message, err.pointer)
        except RecursionError:
            self._fail("the flow chain is too deep (a flow loop?)", "")
        except Exception as exc:  # an operation's bug must not escape as a traceback into the simulation
            self._fail(f"internal error ({type(exc).__name__}: {exc})", "")

    def _fail(self, message: str, pointer: str) -> None:
        self.errors.append(Line(self.time, message, pointer))
        self.stopped = True

    def _fire_nodes(self, nodes: list[RNode], outputs: dict[str, Any] | None = None, event: str = "") -> None:
        """Activate ``nodes`` in order for one event occurrence (``event``: its reference, which
        ``event/stopPropagation`` may name to stop the nodes not yet activated)."""
        self._serial += 1
        reference = f"{event}#{self._serial}"
        self.stopped_events.discard(reference)
        for node in nodes:
            if self.stopped or reference in self.stopped_events:
                break
            if outputs:
                node.out.update(outputs)
            node.out["event"] = reference
            self._entry(lambda node=node: self.activate(node, "out"))
        self.stopped_events.discard(reference)

    def _deep(self, call: Callable[[], None]) -> None:
        """Run one entry point with room for long flow chains (each activation is a Python call)."""
        self.count = 0
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))
        try:
            call()
        finally:
            sys.setrecursionlimit(limit)

    def start(self) -> None:
        """Fire every ``event/onStart`` node, in JSON order."""
        self._deep(lambda: self._fire_nodes(self.listeners.get("event/onStart", []), event="start"))

    def tick(self, time_since_start: float, dt: float) -> None:
        """One tick at graph time ``time_since_start``: pending custom events, due delays, interpolations, then
        every ``event/onTick`` node."""
        self.time = time_since_start
        self._deep(lambda: self._tick(time_since_start, dt))
        self.ticks += 1

    def _tick(self, time_since_start: float, dt: float) -> None:
        # The tick's times are visible from its start: a delay due now reads this tick's timeSinceStart.
        first = self.ticks == 0
        outputs = {"timeSinceStart": 0.0 if first else time_since_start,
                   "timeSinceLastTick": float("nan") if first else dt}
        for node in self.listeners.get("event/onTick", ()):
            node.out.update(outputs)
        pending, self._pending_events = self._pending_events, []
        for event, values in pending:
            self._deliver(event, values)
        if self.interpolations:
            active = []
            for item in self.interpolations:
                finished = [False]
                self._entry(lambda item=item, finished=finished: finished.__setitem__(0, item.step(self)))
                if not finished[0] and not item.cancelled:
                    active.append(item)
            self.interpolations = [i for i in active if not i.cancelled]
        delays = self._delays
        while delays and delays[0][0] <= time_since_start + 1e-9 and not self.stopped:
            _, token, node, _ = heapq.heappop(delays)
            if token in self.cancelled:
                self.cancelled.discard(token)
                continue
            node.state.setdefault("tokens", set()).discard(token)
            self._entry(lambda node=node: self.activate(node, "done"))
        self._fire_nodes(self.listeners.get("event/onTick", []), event="tick")

    def schedule(self, node: RNode, duration: float) -> int:
        """Schedule ``node``'s ``done`` flow after ``duration`` seconds; returns the delay's id."""
        self._delay_seq += 1
        token = self._delay_seq
        heapq.heappush(self._delays, (self.time + duration, token, node, token))
        return token

    def fire(self, op: str, outputs: dict[str, Any], match: Callable[[GraphNode], bool] | None = None) -> None:
        """Fire every event node of ``op`` (in JSON order) whose node ``match`` accepts, with ``outputs`` set."""
        nodes = [n for n in self.listeners.get(op, []) if match is None or match(n.source)]
        self._deep(lambda: self._fire_nodes(nodes, outputs, event=op))

    # ----- custom events -------------------------------------------------------------------------------------
    def event_index(self, event: int | str) -> int:
        """The index of custom event ``event`` (its index or its id)."""
        if isinstance(event, int):
            if 0 <= event < len(self.graph.events):
                return event
        else:
            for i, ev in enumerate(self.graph.events):
                if ev.id == event:
                    return i
        raise GraphError(f"no custom event {event!r}")

    def send(self, event: int | str, values: dict[str, Any] | None = None) -> None:
        """Deliver custom event ``event`` (index or id) from Python now: every matching ``event/receive`` runs."""
        index = self.event_index(event)
        self._deep(lambda: self._deliver(index, values or {}))

    def queue_event(self, event: int, values: dict[str, Any]) -> None:
        """An ``event/send`` from the graph: recorded in ``sent``, delivered at the next tick."""
        self.sent.append((event, values))
        self._pending_events.append((event, values))

    def _deliver(self, event: int, values: dict[str, Any]) -> None:
        definition = self.graph.events[event]
        base = {name: self._initial(t, raw, definition.pointer) for name, (t, raw) in definition.values.items()}
        base.update(values)
        nodes = [n for n in self.listeners.get("event/receive", []) if n.cfg("event") == event]
        self._fire_nodes(nodes, base, event=f"custom/{event}")

    # ----- variables -----------------------------------------------------------------------------------------
    def variable_index(self, name_or_index: int | str) -> int:
        """The index of custom variable ``name_or_index``."""
        if isinstance(name_or_index, int) and 0 <= name_or_index < len(self.variables):
            return name_or_index
        if name_or_index in self._var_names:
            return self._var_names[name_or_index]  # type: ignore[index]
        raise GraphError(f"no custom variable {name_or_index!r}")

    def variable(self, name_or_index: int | str) -> Any:
        """A custom variable's current value (by index or id)."""
        return self.variables[self.variable_index(name_or_index)]

    def set_variable(self, name_or_index: int | str, value: Any) -> None:
        """Set a custom variable from Python."""
        self.variables[self.variable_index(name_or_index)] = value
        self.epoch += 1  # a value kept from before must not hide the new one

    def log(self, message: str, node: RNode | None = None) -> None:
        """A ``debug/log`` line: kept in ``logs`` and passed to the host."""
        self.logs.append(Line(self.time, message, node.pointer if node is not None else ""))
        self.host.log(message)


_CONCRETE = frozenset({"bool", "int", "float", "float2", "float3", "float4", "float2x2", "float3x3", "float4x4",
                       "ref"})
