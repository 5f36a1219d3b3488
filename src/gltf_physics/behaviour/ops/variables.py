"""The ``variable/*`` operations: get, set (both forms, and the draft's setMultiple) and interpolate."""

from __future__ import annotations

import math
from typing import Any

from ..errors import GraphError
from .interp import Interpolation, replace, valid_controls
from .spec import OpSpec, table


def _index(graph: Any, value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(graph.variables):
        return value
    return None


def _var_type(graph: Any, index: int | None) -> str:
    return (graph.type_name(graph.variables[index].type) or "*") if index is not None else "*"


def _cfg_list(node: Any, key: str) -> list[Any]:
    value = node.configuration.get(key)
    return value if isinstance(value, list) else []


def _set_targets(graph: Any, node: Any) -> list[tuple[str, int | None]]:
    """(input socket, variable index) pairs: current ``variables`` → sockets "0", "1"…; draft ``variable`` →
    socket "value"."""
    if "variables" in node.configuration or node.op == "variable/setMultiple":
        ints = [v for v in _cfg_list(node, "variables") if isinstance(v, int) and not isinstance(v, bool)]
        return [(str(v), _index(graph, v)) for v in dict.fromkeys(ints)]
    one = _cfg_list(node, "variable")
    return [("value", _index(graph, one[0] if one else None))]


def _get_sockets(graph: Any, node: Any) -> Any:
    index = _index(graph, (_cfg_list(node, "variable") or [None])[0])
    return {}, {"value": _var_type(graph, index)}, (), ()


def _set_sockets(graph: Any, node: Any) -> Any:
    return {s: _var_type(graph, i) for s, i in _set_targets(graph, node)}, {}, ("in",), ("out",)


def _interp_sockets(graph: Any, node: Any) -> Any:
    index = _index(graph, (_cfg_list(node, "variable") or [None])[0])
    return ({"value": _var_type(graph, index), "duration": "float", "p1": "float2", "p2": "float2"}, {},
            ("in",), ("out", "err", "done"))


def _get_init(rt: Any, node: Any) -> None:
    index = _index(rt.graph, node.cfg("variable"))
    if index is None:
        raise GraphError("variable/get names no variable", node.pointer)
    node.state["v"] = index


def _get(rt: Any, node: Any) -> Any:
    return rt.variables[node.state["v"]]


def _bind_get(rt: Any, node: Any) -> Any:
    index = node.state["v"]
    return lambda: rt.variables[index]


_get.bind = _bind_get  # type: ignore[attr-defined]  # the compiled form (GraphRunner._compile)


def _set_init(rt: Any, node: Any) -> None:
    targets = _set_targets(rt.graph, node.source)
    if not targets or any(i is None for _, i in targets):
        raise GraphError(f"{node.op} names no variable", node.pointer)
    node.state["targets"] = targets
    node.state["single"] = targets[0] if len(targets) == 1 else None


def _set(rt: Any, node: Any, socket: str) -> None:
    single = node.state["single"]
    if single is not None:  # the common case, one variable: no lists
        value = rt.get(node, single[0])
        if rt.interpolations:
            replace(rt, ("variable", single[1]))
        rt.variables[single[1]] = value
        rt.activate(node, "out")
        return
    targets = node.state["targets"]
    values = [rt.get(node, s) for s, _ in targets]
    for (_, index), value in zip(targets, values, strict=True):
        if rt.interpolations:
            replace(rt, ("variable", index))
        rt.variables[index] = value
    rt.activate(node, "out")


def _interp_init(rt: Any, node: Any) -> None:
    index = _index(rt.graph, node.cfg("variable"))
    if index is None:
        raise GraphError("variable/interpolate names no variable", node.pointer)
    node.state["v"] = index


def _interpolate(rt: Any, node: Any, socket: str) -> None:
    index = node.state["v"]
    target, duration = rt.get(node, "value"), rt.get(node, "duration")
    p1, p2 = rt.get(node, "p1"), rt.get(node, "p2")
    if not isinstance(duration, float) or not math.isfinite(duration) or duration < 0 \
            or not valid_controls(p1, p2) or isinstance(target, (bool, int)):
        rt.activate(node, "err")
        return
    replace(rt, ("variable", index))

    def write(value: Any) -> None:
        rt.variables[index] = value
    slerp = node.cfg("useSlerp") is True
    rt.interpolations.append(Interpolation(("variable", index), node, rt.variables[index], target, rt.time,
                                           duration, p1, p2, slerp, write))
    rt.activate(node, "out")


TABLE = table(
    OpSpec("variable/get", config={"variable": "int"}, value=_get, init=_get_init, sockets=_get_sockets,
           required_config=("variable",)),
    OpSpec("variable/set", flows_in=("in",), flows_out=("out",), config={"variables": "int[]"}, run=_set,
           init=_set_init, sockets=_set_sockets),
    OpSpec("variable/setMultiple", flows_in=("in",), flows_out=("out",), config={"variables": "int[]"}, run=_set,
           init=_set_init, sockets=_set_sockets, required_config=("variables",)),
    OpSpec("variable/interpolate", flows_in=("in",), flows_out=("out", "err", "done"),
           config={"variable": "int", "useSlerp": "bool"}, run=_interpolate, init=_interp_init,
           sockets=_interp_sockets, required_config=("variable",)),
)
