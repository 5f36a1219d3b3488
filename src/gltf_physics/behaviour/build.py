"""Writing behaviour graphs from Python: :class:`GraphBuilder` makes the KHR_interactivity JSON (current form).

    g = GraphBuilder()
    enter = g.node("event/rigid_body_triggerEntered", configuration={"nodeIndex": 4})
    push = g.node("rigid_body/applyImpulse", nodeIndex=g.out(enter, "motionNodeIndex"), linearImpulse=(0, 8, 0))
    g.flow(enter, "out", push)
    g.attach(doc.json)          # doc.json["extensions"]["KHR_interactivity"] = {"graph": 0, "graphs": [...]}

Value types come from the operation's socket table where it names one (``ops/``), else from the Python value
(bool, int, float, a tuple of 2–4 floats, a 4/9/16-float :class:`~.values.Mat`). Extension operations (the
``rigid_body/*`` family) are declared with their extension and exact value sockets, as the specification asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .ops import OPS
from .ops.physics import PHYSICS_EXTENSION
from .values import MATRICES, Mat, type_of

_EXTENSIONS = {"rigid_body/": PHYSICS_EXTENSION, "event/rigid_body_": PHYSICS_EXTENSION}
_CONCRETE = frozenset({"bool", "int", "float", "float2", "float3", "float4", "ref"} | MATRICES)


@dataclass(frozen=True)
class Out:
    """An output value socket of a node, used as another node's input (``GraphBuilder.out``)."""

    node: int
    socket: str


class GraphBuilder:
    """Builds one behaviour graph: types, variables, custom events, declarations and nodes (module docstring)."""

    def __init__(self) -> None:
        self.types: list[str] = []
        self.variables: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.declarations: list[dict[str, Any]] = []
        self.nodes: list[dict[str, Any]] = []
        self._decl: dict[str, int] = {}

    def type(self, signature: str) -> int:
        """The index of type ``signature`` (added on first use)."""
        if signature not in self.types:
            self.types.append(signature)
        return self.types.index(signature)

    def variable(self, name: str, value: Any, signature: str | None = None) -> int:
        """A custom variable ``name`` with initial ``value``; returns its index."""
        sig = signature or _signature(value)
        self.variables.append({"id": name, "type": self.type(sig), "value": _json(value)})
        return len(self.variables) - 1

    def event(self, name: str, **values: Any) -> int:
        """A custom event ``name`` with value sockets (their initial values); returns its index."""
        sockets = {k: {"type": self.type(_signature(v)), "value": _json(v)} for k, v in values.items()}
        self.events.append({"id": name, "values": sockets})
        return len(self.events) - 1

    def node(self, op: str, *, configuration: dict[str, Any] | None = None, **values: Any) -> int:
        """A node of operation ``op`` with inline values or :class:`Out` links; returns its index."""
        spec = OPS.get(op)
        entry: dict[str, Any] = {"declaration": self._declaration(op)}
        if values:
            entry["values"] = {}
            for socket, value in values.items():
                if isinstance(value, Out):
                    entry["values"][socket] = {"node": value.node, "socket": value.socket}
                    continue
                wanted = spec.inputs.get(socket) if spec is not None else None
                sig = wanted if wanted in _CONCRETE else _signature(value)
                entry["values"][socket] = {"type": self.type(sig), "value": _json(value, sig)}
        if configuration:
            entry["configuration"] = {k: {"value": v if isinstance(v, list) else [v]}
                                      for k, v in configuration.items()}
        self.nodes.append(entry)
        return len(self.nodes) - 1

    def out(self, node: int, socket: str = "value") -> Out:
        """Output ``socket`` of ``node``, to link into another node's input."""
        return Out(node, socket)

    def flow(self, node: int, socket: str, target: int, target_socket: str = "in") -> None:
        """Link ``node``'s output flow ``socket`` to ``target``'s input flow."""
        self.nodes[node].setdefault("flows", {})[socket] = {"node": target, "socket": target_socket}

    def _declaration(self, op: str) -> int:
        if op in self._decl:
            return self._decl[op]
        decl: dict[str, Any] = {"op": op}
        extension = next((ext for prefix, ext in _EXTENSIONS.items() if op.startswith(prefix)), None)
        spec = OPS.get(op)
        if extension is not None and spec is not None:
            decl["extension"] = extension
            if spec.inputs:
                decl["inputValueSockets"] = {k: {"type": self.type(t)} for k, t in spec.inputs.items()}
            if spec.outputs:
                decl["outputValueSockets"] = {k: {"type": self.type(t)} for k, t in spec.outputs.items()}
        self.declarations.append(decl)
        self._decl[op] = len(self.declarations) - 1
        return self._decl[op]

    def json(self) -> dict[str, Any]:
        """The graph object."""
        out: dict[str, Any] = {"types": [{"signature": t} for t in self.types]}
        if self.variables:
            out["variables"] = self.variables
        if self.events:
            out["events"] = self.events
        out["declarations"] = self.declarations
        out["nodes"] = self.nodes
        return out

    def attach(self, doc_json: dict[str, Any]) -> None:
        """Make this the document's only behaviour graph (adds KHR_interactivity to ``extensionsUsed``)."""
        doc_json.setdefault("extensions", {})["KHR_interactivity"] = {"graph": 0, "graphs": [self.json()]}
        used = doc_json.setdefault("extensionsUsed", [])
        if "KHR_interactivity" not in used:
            used.append("KHR_interactivity")


def _signature(value: Any) -> str:
    """A Python value's socket type for the graph being written: the run-time :func:`~.values.type_of`, with
    lists taken as vectors, ``None`` and strings as ``ref``, and anything else refused."""
    if isinstance(value, (tuple, list)) and not isinstance(value, Mat):
        if not 2 <= len(value) <= 4:
            raise TypeError(f"no behaviour-graph type for {value!r}")
        return f"float{len(value)}"
    if value is None or isinstance(value, (bool, int, float, str, Mat)):
        return type_of(value)
    raise TypeError(f"no behaviour-graph type for {value!r}")


def _json(value: Any, signature: str | None = None) -> list[Any]:
    if isinstance(value, (tuple, list)):
        return [float(v) for v in value]
    if signature == "float" and isinstance(value, int) and not isinstance(value, bool):
        return [float(value)]
    return [value]
