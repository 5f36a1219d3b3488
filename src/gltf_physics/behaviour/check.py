"""The validator family of behaviour graphs: the specification's graph rules (``KHRI-*`` in docs/rules.md), each
reported at its JSON pointer ``/extensions/KHR_interactivity/graphs/G/nodes/N/...``.

``check_graph`` returns the problems of one graph (a runner refuses a graph with any error); ``check`` is the
``validate`` pass (``check(gltf_json, emit, index)``, like the dialects' structural checkers). Operations may add
their own rules through ``OpSpec.check(graph, node, emit)`` (the physics operations' trigger rules do).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .model import Graph, GraphNode
from .ops import OPS
from .ops.pointers import parse_template
from .read import ROOT, read_interactivity
from .values import SIZES, convert, whole

Emit = Callable[..., None]  # emit(code, pointer, message, severity=None)

_FLOATS = frozenset({"float", "float2", "float3", "float4"})
_MATRICES = frozenset({"float2x2", "float3x3", "float4x4"})
_PATTERNS: dict[str, frozenset[str]] = {
    "N": _FLOATS | _MATRICES, "NI": _FLOATS | _MATRICES | {"int"}, "F": _FLOATS, "M": _MATRICES,
    "S": frozenset({"float", "int"}), "B": frozenset({"bool", "int"}), "T": frozenset(SIZES),
}


def sockets(graph: Graph, node: GraphNode) -> tuple[dict[str, str], dict[str, str], tuple[str, ...],
                                                      tuple[str, ...]] | None:
    """The node's (inputs, outputs, flows in, flows out) with their types or patterns; None for an unknown
    operation. An extension operation's declaration supplies its value sockets."""
    spec = OPS.get(node.op)
    decl = graph.declarations[node.declaration] if node.declaration is not None and \
        0 <= node.declaration < len(graph.declarations) else None
    if spec is None:
        if decl is None or decl.extension is None:
            return None
        inputs = {k: graph.type_name(t) or "*" for k, t in (decl.inputs or {}).items()}
        outputs = {k: graph.type_name(t) or "*" for k, t in (decl.outputs or {}).items()}
        return inputs, outputs, ("in",), ("out",)
    if spec.sockets is not None:
        return spec.sockets(graph, node)
    return spec.inputs, spec.outputs, spec.flows_in, spec.flows_out


class _Types:
    """Output socket types of every node, inferred on demand (value links may point anywhere in the draft)."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.memo: dict[int, dict[str, str | None]] = {}
        self.busy: set[int] = set()

    def warm(self) -> None:
        """Infer every node's outputs, each node after the nodes it reads (a post-order walk with its own stack),
        so that no later lookup recurses along a long chain of links (a draft graph may link forward for
        thousands of nodes; Python's recursion limit is about a thousand)."""
        nodes, done = self.graph.nodes, set()
        for root in nodes:
            if root.index in done:
                continue
            done.add(root.index)
            self.busy.add(root.index)  # the walk's path is busy: a loop back onto it reads as unknown types
            stack = [(root, iter(root.values.values()))]
            while stack:
                node, sources = stack[-1]
                src = next(sources, None)
                if src is None:
                    stack.pop()
                    self.busy.discard(node.index)
                    self.outputs(node)
                elif src.node is not None and 0 <= src.node < len(nodes) and src.node not in done:
                    done.add(src.node)
                    self.busy.add(src.node)
                    stack.append((nodes[src.node], iter(nodes[src.node].values.values())))

    def input_type(self, node: GraphNode, socket: str) -> str | None:
        src = node.values.get(socket)
        if src is None:
            return None
        if src.node is None:
            return self.graph.type_name(src.type)
        if not 0 <= src.node < len(self.graph.nodes):
            return None
        return self.outputs(self.graph.nodes[src.node]).get(src.out_socket)

    def outputs(self, node: GraphNode) -> dict[str, str | None]:
        if node.index in self.memo:
            return self.memo[node.index]
        if node.index in self.busy:  # a value loop: reported elsewhere
            return {}
        self.busy.add(node.index)
        found = sockets(self.graph, node)
        out: dict[str, str | None] = {}
        if found is not None:
            inputs, outputs, _, _ = found
            bound: dict[str, str | None] = {}
            for socket, pattern in inputs.items():
                if pattern in _PATTERNS and pattern not in bound:
                    bound[pattern] = self.input_type(node, socket)
            for socket, pattern in outputs.items():
                out[socket] = bound.get(pattern) if pattern in _PATTERNS else (None if pattern == "*" else pattern)
        self.busy.discard(node.index)
        self.memo[node.index] = out
        return out


def check_graph(graph: Graph, form: str = "current") -> list[tuple[str, str, str]]:
    """Every problem of one graph as (rule id, pointer, message)."""
    found: list[tuple[str, str, str]] = []

    def emit(code: str, pointer: str, message: str, severity: int | None = None) -> None:
        found.append((code, pointer, message))
    check_graph_into(graph, form, emit)
    return found


def check_graph_into(graph: Graph, form: str, emit: Emit) -> None:
    """Report every problem of one graph through ``emit(code, pointer, message, severity=None)``."""
    for i, signature in enumerate(graph.types):
        if signature not in SIZES:
            emit("KHRI-4", f"{graph.pointer}/types/{i}", f"unknown type signature {signature!r}")
    for var in graph.variables:
        _check_value(graph, var.type, var.value, var.pointer, emit, "variable")
    for event in graph.events:
        for name, (t, raw) in event.values.items():
            _check_value(graph, t, raw, f"{event.pointer}/values/{name}", emit, "event value")
    for decl in graph.declarations:
        _check_declaration(decl, emit)
    types = _Types(graph)
    types.warm()
    for node in graph.nodes:
        _check_node(graph, node, form, types, emit)
    _check_value_loops(graph, emit)


def _check_value(graph: Graph, t: int | None, raw: list[Any] | None, pointer: str, emit: Emit, what: str) -> None:
    signature = graph.type_name(t)
    if signature is None or signature not in SIZES:
        emit("KHRI-4", pointer, f"the {what}'s type {t!r} names no known type")
        return
    if raw is not None:
        try:
            convert(signature, raw, pointer)
        except Exception as exc:
            emit("KHRI-5", pointer, f"the {what}'s value does not fit its type {signature}: {exc}")


def _check_declaration(decl: Any, emit: Emit) -> None:
    if not decl.op:
        emit("KHRI-2", decl.pointer, "a declaration needs an 'op'")
        return
    spec = OPS.get(decl.op)
    if decl.extension is None:
        if spec is None or spec.domain in ("rigid_body",) or decl.op.startswith("event/rigid_body"):
            emit("KHRI-2", decl.pointer, f"'{decl.op}' is not a core operation and names no 'extension'")
        elif decl.inputs is not None or decl.outputs is not None:
            emit("KHRI-3", decl.pointer, f"the core operation '{decl.op}' must not declare value sockets")
        return
    if spec is None:
        return  # an extension this runtime does not know: a no-op, per the specification
    declared_in = {k for k in (decl.inputs or {})}
    declared_out = {k for k in (decl.outputs or {})}
    if declared_in != set(spec.inputs) or declared_out != set(spec.outputs):
        emit("KHRI-3", decl.pointer, f"'{decl.op}' ({decl.extension}) must declare exactly the input sockets "
                                     f"{sorted(spec.inputs)} and output sockets {sorted(spec.outputs)}")


def _check_node(graph: Graph, node: GraphNode, form: str, types: _Types, emit: Emit) -> None:
    if node.declaration is None or not 0 <= node.declaration < len(graph.declarations):
        emit("KHRI-4", node.pointer, f"the node's declaration {node.declaration!r} does not exist")
        return
    found = sockets(graph, node)
    if found is None:
        return  # unknown core op: reported on its declaration
    inputs, _, _, flows_out = found
    _check_config(graph, node, emit)
    bound: dict[str, tuple[str, str]] = {}
    for socket, src in node.values.items():
        if src.node is not None and src.value is not None:
            emit("KHRI-6", src.pointer, "a value is either inline ('value') or linked ('node'), not both")
            continue
        if src.node is not None:
            _check_link(graph, node, src, form, types, emit)
        elif src.type is None or graph.type_name(src.type) is None:
            emit("KHRI-4", src.pointer, f"the value's type {src.type!r} names no type")
            continue
        elif src.value is not None:
            _check_value(graph, src.type, src.value, src.pointer, emit, "value")
        actual = types.input_type(node, socket)
        expected = inputs.get(socket)
        if actual is None or expected is None or expected == "*":
            continue
        if expected in _PATTERNS:
            if actual not in _PATTERNS[expected]:
                emit("KHRI-5", src.pointer, f"'{socket}' of {node.op} cannot be {actual}")
            elif expected in bound and bound[expected][1] != actual:
                emit("KHRI-5", src.pointer, f"'{socket}' is {actual} but '{bound[expected][0]}' is "
                                            f"{bound[expected][1]}: {node.op} needs them equal")
            else:
                bound.setdefault(expected, (socket, actual))
        elif actual != expected:
            emit("KHRI-5", src.pointer, f"'{socket}' of {node.op} must be {expected}, not {actual}")
    for socket in inputs:
        if socket not in node.values and OPS.get(node.op) is not None:
            # a debug/log parameter without a value is logged as written: a warning, not a broken graph
            emit("KHRI-7", f"{node.pointer}/values", f"{node.op} needs a value for input '{socket}'",
                 1 if node.op == "debug/log" else None)
    for link in node.flows.values():
        if link.node is None or not 0 <= link.node < len(graph.nodes):
            emit("KHRI-7", link.pointer, f"the flow links to missing node {link.node!r}")
        elif form == "current" and link.node <= node.index:
            emit("KHRI-8", link.pointer, f"a flow must go to a higher-numbered node (node {node.index} → "
                                         f"{link.node})")
    spec = OPS.get(node.op)
    if spec is not None and spec.check is not None:
        spec.check(graph, node, emit)
    del flows_out  # flows to sockets an operation lacks are allowed (unconnected)


def _check_link(graph: Graph, node: GraphNode, src: Any, form: str, types: _Types, emit: Emit) -> None:
    if not 0 <= src.node < len(graph.nodes):
        emit("KHRI-7", src.pointer, f"the value links to missing node {src.node}")
        return
    if form == "current" and src.node >= node.index:
        emit("KHRI-8", src.pointer, f"a value must come from a lower-numbered node (node {node.index} ← "
                                    f"{src.node})")
    source = graph.nodes[src.node]
    found = sockets(graph, source)
    if found is not None and src.out_socket not in found[1]:
        emit("KHRI-7", src.pointer, f"node {src.node} ({source.op}) has no output '{src.out_socket}'")
        return
    declared = graph.type_name(src.type) if src.type is not None else None
    actual = types.outputs(source).get(src.out_socket)
    if declared is not None and actual is not None and declared != actual:
        emit("KHRI-5", src.pointer, f"the link says {declared} but '{src.out_socket}' of node {src.node} is "
                                    f"{actual}")


def _cfg(node: GraphNode, key: str) -> Any:
    value = node.configuration.get(key)
    return value[0] if isinstance(value, list) and len(value) == 1 else None


def _is_int(x: Any) -> bool:
    n = whole(x)
    return n is not None and -2**31 <= n < 2**31


def _check_config(graph: Graph, node: GraphNode, emit: Emit) -> None:
    spec = OPS.get(node.op)
    if spec is None:
        return
    pointer = f"{node.pointer}/configuration"
    for key in spec.required_config:
        if key not in node.configuration and not (key == "variables" and "variable" in node.configuration):
            emit("KHRI-10", pointer, f"{node.op} needs the configuration '{key}'")
    op = node.op
    if op in ("variable/get", "variable/interpolate") or (op == "variable/set" and "variables" not in
                                                          node.configuration):
        v = _cfg(node, "variable")
        if not (_is_int(v) and 0 <= v < len(graph.variables)):
            emit("KHRI-10", f"{pointer}/variable", f"variable {v!r} does not exist ({len(graph.variables)} "
                                                   "variables)")
    if op in ("variable/set", "variable/setMultiple") and "variables" in node.configuration:
        vs = node.configuration.get("variables")
        if not isinstance(vs, list) or not vs or not all(_is_int(v) and 0 <= v < len(graph.variables) for v in vs):
            emit("KHRI-10", f"{pointer}/variables", f"'variables' must list existing variables, not {vs!r}")
    if op in ("event/send", "event/receive"):
        e = _cfg(node, "event")
        if not (_is_int(e) and 0 <= e < len(graph.events)):
            emit("KHRI-10", f"{pointer}/event", f"custom event {e!r} does not exist ({len(graph.events)} events)")
    if op.startswith("pointer/"):
        t = _cfg(node, "type")
        if not (_is_int(t) and 0 <= t < len(graph.types)):
            emit("KHRI-10", f"{pointer}/type", f"type {t!r} does not exist")
        text = _cfg(node, "pointer")
        if not isinstance(text, str) or parse_template(text, graph.form != "current")[1]:
            emit("KHRI-10", f"{pointer}/pointer", f"bad pointer template {text!r}")
    if op == "flow/waitAll" and "inputFlows" in node.configuration:
        n = _cfg(node, "inputFlows")
        if not (_is_int(n) and 0 <= n <= 64):
            emit("KHRI-10", f"{pointer}/inputFlows", f"inputFlows must be 0…64, not {n!r} (the default 0 is "
                                                      "used)", 1)
    if op in ("flow/switch", "math/switch") and "cases" in node.configuration:
        cases = node.configuration.get("cases")
        if not isinstance(cases, list) or not all(_is_int(c) for c in cases):
            emit("KHRI-10", f"{pointer}/cases", f"cases must be 32-bit integers, not {cases!r} (the default is "
                                                "used)", 1)


def _check_value_loops(graph: Graph, emit: Emit) -> None:
    """A value that depends on itself through links (possible only where links may point forward: the draft).
    A depth-first walk with its own stack: a chain of thousands of forward links must not hit Python's recursion
    limit. Reports the first loop found, as the walk from the lowest node meets it."""
    count = len(graph.nodes)
    state: dict[int, int] = {}  # 1: on the path, 2: done
    for root in graph.nodes:
        if root.index in state:
            continue
        state[root.index] = 1
        stack = [(root.index, iter(root.values.values()))]
        while stack:
            i, sources = stack[-1]
            src = next(sources, None)
            if src is None:
                state[i] = 2
                stack.pop()
                continue
            j = src.node
            if j is None or not 0 <= j < count:
                continue
            if state.get(j) == 1:
                emit("KHRI-9", src.pointer, f"the value loops back to node {j} through value links")
                return
            if j not in state:
                state[j] = 1
                stack.append((j, iter(graph.nodes[j].values.values())))


def check(gltf: dict[str, Any], emit: Emit, index: Any = None) -> None:
    """The ``validate`` pass: every graph of the document's KHR_interactivity, and the form it is read as."""
    interactivity = read_interactivity(gltf)
    if interactivity is None:
        return
    ext = gltf["extensions"]["KHR_interactivity"]
    if not isinstance(ext.get("graphs"), list):
        emit("KHRI-1", ROOT, "KHR_interactivity needs a 'graphs' array")
        return
    if not 0 <= interactivity.default < max(1, len(interactivity.graphs)):
        emit("KHRI-1", f"{ROOT}/graph", f"the default graph {interactivity.default} does not exist")
    if interactivity.form != "current":
        emit("KHRI-11", ROOT, interactivity.notes[0])
    for graph in interactivity.graphs:
        check_graph_into(graph, interactivity.form, emit)
