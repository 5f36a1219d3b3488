"""The ``event/*`` operations: lifecycle events (onStart, onTick) and custom events (send, receive)."""

from __future__ import annotations

from typing import Any

from .spec import OpSpec, table


def _event_sockets(graph: Any, node: Any) -> dict[str, str]:
    """A custom event's value sockets → types (empty when the configuration names no event)."""
    index = node.configuration.get("event")
    index = index[0] if isinstance(index, list) and index else None
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(graph.events):
        return {}
    return {name: graph.type_name(t) or "*" for name, (t, _) in graph.events[index].values.items()}


def _receive_sockets(graph: Any, node: Any) -> tuple[dict[str, str], dict[str, str], tuple[str, ...],
                                                       tuple[str, ...]]:
    return {}, {**_event_sockets(graph, node), "event": "ref"}, (), ("out",)


def _send_sockets(graph: Any, node: Any) -> tuple[dict[str, str], dict[str, str], tuple[str, ...],
                                                    tuple[str, ...]]:
    return _event_sockets(graph, node), {}, ("in",), ("out",)


def _receive_init(rt: Any, node: Any) -> None:
    event = node.cfg("event")
    if isinstance(event, int) and 0 <= event < len(rt.graph.events):
        definition = rt.graph.events[event]
        for name, (t, raw) in definition.values.items():
            node.out[name] = rt._initial(t, raw, definition.pointer)


def _send(rt: Any, node: Any, socket: str) -> None:
    event = node.cfg("event")
    if isinstance(event, int) and 0 <= event < len(rt.graph.events):
        names = rt.graph.events[event].values
        rt.queue_event(event, {name: rt.get(node, name) for name in names if rt.has_input(node, name)})
    rt.activate(node, "out")


def _stop_propagation(rt: Any, node: Any, socket: str) -> None:
    event = rt.get(node, "event")
    if isinstance(event, str) and rt.get(node, "stopImmediate") is True:
        rt.stopped_events.add(event)  # the later nodes of this occurrence are not activated
    rt.activate(node, "out")


TABLE = table(
    OpSpec("event/onStart", outputs={"event": "ref"}, flows_out=("out",), event=True),
    OpSpec("event/onTick", outputs={"timeSinceStart": "float", "timeSinceLastTick": "float", "event": "ref"},
           flows_out=("out",), event=True),
    OpSpec("event/stopPropagation", {"stopImmediate": "bool", "event": "ref"}, {}, ("in",), ("out",),
           run=_stop_propagation),
    OpSpec("event/receive", flows_out=("out",), config={"event": "int"}, init=_receive_init,
           sockets=_receive_sockets, event=True, required_config=("event",)),
    OpSpec("event/send", flows_in=("in",), flows_out=("out",), config={"event": "int"}, run=_send,
           sockets=_send_sockets, required_config=("event",)),
)
