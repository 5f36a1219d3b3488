"""The ``pointer/*`` operations over the host's Object Model: get, set, interpolate, with pointer templates.

Template parameters: ``[x]`` is an integer, ``{x}`` a reference in the current form — and an integer in the 2025
draft (``/nodes/{nodeIndex}/translation`` fed an int). A reference value is a JSON pointer (``/nodes/3``); its
last segment is what replaces the parameter.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..errors import GraphError
from ..values import default, type_of
from .interp import Interpolation, replace, valid_controls
from .spec import OpSpec, table

_SEGMENT = re.compile(r"^(\[|\{)([^\[\]{}]+)(\]|\})$")


def is_parameter(segment: str) -> bool:
    """Whether a pointer template's segment is a parameter (``{x}`` or ``[x]``), not literal text."""
    match = _SEGMENT.match(segment)
    return bool(match) and (match.group(1) == "[") == (match.group(3) == "]")  # type: ignore[union-attr]


def parse_template(text: str, draft: bool) -> tuple[list[str | tuple[str, str]], str | None]:
    """Split a pointer template into literal segments and ``(socket, "int" | "ref")`` parameters; the second
    item is the syntax error (None when valid)."""
    if not text.startswith("/"):
        return [], "a pointer template starts with '/'"
    parts: list[str | tuple[str, str]] = []
    seen: set[str] = set()
    for segment in text[1:].split("/"):
        match = _SEGMENT.match(segment)
        if match and (match.group(1) == "[") == (match.group(3) == "]"):
            name = match.group(2).replace("~1", "/").replace("~0", "~")
            if name in seen:
                return [], f"parameter '{name}' used twice"
            seen.add(name)
            kind = "int" if match.group(1) == "[" or draft else "ref"
            parts.append((name, kind))
            continue
        if segment in ("[", "{") or re.search(r"(?<![\[{])[\[{](?![\[{])|(?<![\]}])[\]}](?![\]}])",
                                              segment.replace("[[", "").replace("]]", "").replace("{{", "")
                                              .replace("}}", "")):
            return [], f"bad template segment '{segment}'"
        parts.append(segment.replace("[[", "[").replace("]]", "]").replace("{{", "{").replace("}}", "}"))
    return parts, None


def template_sockets(graph: Any, node: Any) -> dict[str, str]:
    """A pointer node's parameter sockets → types."""
    text = node.configuration.get("pointer")
    text = text[0] if isinstance(text, list) and text and isinstance(text[0], str) else ""
    parts, _ = parse_template(text, graph.form != "current")
    return {p[0]: p[1] for p in parts if isinstance(p, tuple)}


def _value_type(graph: Any, node: Any) -> str:
    t = node.configuration.get("type")
    t = t[0] if isinstance(t, list) and t else None
    return (graph.type_name(t) if isinstance(t, int) and not isinstance(t, bool) else None) or "*"


def _get_sockets(graph: Any, node: Any) -> Any:
    return template_sockets(graph, node), {"value": _value_type(graph, node), "isValid": "bool"}, (), ()


def _set_sockets(graph: Any, node: Any) -> Any:
    inputs = template_sockets(graph, node)
    inputs["value"] = _value_type(graph, node)
    return inputs, {}, ("in",), ("out", "err")


def _interp_sockets(graph: Any, node: Any) -> Any:
    inputs = template_sockets(graph, node)
    inputs.update({"value": _value_type(graph, node), "duration": "float", "p1": "float2", "p2": "float2"})
    return inputs, {}, ("in",), ("out", "err", "done")


def _init(rt: Any, node: Any) -> None:
    text = node.cfg("pointer")
    if not isinstance(text, str):
        raise GraphError(f"{node.op} has no 'pointer' configuration", node.pointer)
    parts, error = parse_template(text, rt.draft)
    if error:
        raise GraphError(f"bad pointer template {text!r}: {error}", node.pointer)
    t = node.cfg("type")
    signature = rt.graph.type_name(t) if isinstance(t, int) and not isinstance(t, bool) else None
    if signature is None:
        raise GraphError(f"{node.op} has no valid 'type' configuration", node.pointer)
    node.state["parts"] = parts
    node.state["static"] = "/" + "/".join(parts) if all(isinstance(p, str) for p in parts) else None  # type: ignore[arg-type]
    node.state["type"] = signature
    node.state["default"] = default(signature)
    node.state["fits"] = _fits(signature)
    params = [p[0] for p in parts if isinstance(p, tuple)]
    node.state["single"] = params[0] if len(params) == 1 else None
    node.state["memo"] = {}  # int parameter → effective pointer


_FLOATN = {"float2": 2, "float3": 3, "float4": 4}


def _fits(signature: str) -> Any:
    """A fast test of ``type_of(value) == signature`` for the common signatures (the general test otherwise)."""
    if signature == "float":
        return lambda value: value.__class__ is float
    size = _FLOATN.get(signature)
    if size is not None:
        return lambda value: value.__class__ is tuple and len(value) == size
    return lambda value: type_of(value) == signature


def effective(rt: Any, node: Any) -> str | None:
    """The effective pointer for the node's current parameter values (None: a parameter is invalid)."""
    state = node.state
    static = state["static"]
    if static is not None:
        return static
    single = state["single"]
    if single is not None:  # one parameter (``/nodes/[i]/translation``): the pointer of an int is made once
        value = rt.get(node, single)
        if value.__class__ is int:
            memo = state["memo"]
            pointer = memo.get(value)
            if pointer is None:
                pointer = _build(rt, node, [value])
                if pointer is not None and len(memo) < 100_000:
                    memo[value] = pointer
            return pointer
        return _build(rt, node, [value])
    return _build(rt, node, [rt.get(node, part[0]) for part in state["parts"] if isinstance(part, tuple)])


def _build(rt: Any, node: Any, values: list[Any]) -> str | None:
    """The pointer of the template's parts with ``values`` in its parameters (None: a value is invalid)."""
    given = iter(values)
    out = []
    for part in node.state["parts"]:
        if isinstance(part, str):
            out.append(part)
            continue
        value = next(given)
        if isinstance(value, str):  # a reference: the pointer's last segment
            out.append(value.rsplit("/", 1)[-1])
        elif isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            out.append(str(value))
        else:
            return None
    return "/" + "/".join(out)


def _get(rt: Any, node: Any) -> dict[str, Any]:
    pointer = effective(rt, node)
    if pointer is not None:
        try:
            value = rt.host.get_pointer(pointer)
        except GraphError:
            value = None
        if value is not None and node.state["fits"](value):  # another type: not this property
            return {"value": value, "isValid": True}
    return {"value": node.state["default"], "isValid": False}


def _set(rt: Any, node: Any, socket: str) -> None:
    pointer = effective(rt, node)
    value = rt.get(node, "value")
    if pointer is None:
        rt.activate(node, "err")
        return
    try:
        if rt.interpolations:
            replace(rt, ("pointer", pointer))
        rt.host.set_pointer(pointer, value)
    except GraphError:
        rt.activate(node, "err")
        return
    rt.activate(node, "out")


def _interpolate(rt: Any, node: Any, socket: str) -> None:
    pointer = effective(rt, node)
    target, duration = rt.get(node, "value"), rt.get(node, "duration")
    p1, p2 = rt.get(node, "p1"), rt.get(node, "p2")
    if pointer is None or not isinstance(duration, float) or not math.isfinite(duration) or duration < 0 \
            or not valid_controls(p1, p2) or isinstance(target, (bool, int)):
        rt.activate(node, "err")
        return
    try:
        start = rt.host.get_pointer(pointer)
    except GraphError:
        rt.activate(node, "err")
        return
    replace(rt, ("pointer", pointer))
    slerp = pointer.endswith("/rotation") and isinstance(target, tuple) and len(target) == 4

    def write(value: Any) -> None:
        rt.host.set_pointer(pointer, value)
    rt.interpolations.append(Interpolation(("pointer", pointer), node, start, target, rt.time, duration, p1, p2,
                                           slerp, write))
    rt.activate(node, "out")


TABLE = table(
    OpSpec("pointer/get", config={"pointer": "string", "type": "int"}, compute=_get, init=_init,
           sockets=_get_sockets, required_config=("pointer", "type")),
    OpSpec("pointer/set", flows_in=("in",), flows_out=("out", "err"), config={"pointer": "string", "type": "int"},
           run=_set, init=_init, sockets=_set_sockets, required_config=("pointer", "type")),
    OpSpec("pointer/interpolate", flows_in=("in",), flows_out=("out", "err", "done"),
           config={"pointer": "string", "type": "int"}, run=_interpolate, init=_init, sockets=_interp_sockets,
           required_config=("pointer", "type")),
)
