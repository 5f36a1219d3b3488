"""The KHR physics specification's operations for behaviour graphs ("Interaction with KHR_interactivity").

- ``rigid_body/applyImpulse`` (``nodeIndex``, world ``linearImpulse`` at the centre of mass and world
  ``angularImpulse``, both default 0) and ``rigid_body/applyPointImpulse`` (``nodeIndex``, world ``impulse`` at world
  ``position``): the body's velocities change at once; then ``out``.
- ``rigid_body/rayCast`` (world ``rayStart``/``rayEnd``, ``collisionFilterIndex`` default −1): ``hit`` with
  ``hitNodeIndex`` (the collider's node), ``hitFraction`` and world ``hitNormal`` of the closest collider, else
  ``miss`` (the outputs keep their last values, "only valid when ``hit`` is triggered").
- ``event/rigid_body_triggerEntered`` / ``Exited`` (configuration ``nodeIndex``: a trigger node): fired by the
  world once per collider entering or leaving, with ``colliderNodeIndex`` and ``motionNodeIndex`` (−1 when the
  collider has no motion).

Their checks (rule ids in docs/rules.md): KRBI-1, the ``nodeIndex`` of a trigger event names a node with a
``trigger``; KRBI-2, no two event nodes of the same kind share a ``nodeIndex``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...dialects.common.triggers import trigger_nodes
from ...dialects.registry import KHR_PHYSICS_RIGID_BODIES
from ..errors import GraphError
from ..values import whole
from .spec import OpSpec, table

ZERO3 = (0.0, 0.0, 0.0)
ENTERED = "event/rigid_body_triggerEntered"
EXITED = "event/rigid_body_triggerExited"
TRIGGER_EVENTS = (ENTERED, EXITED)
PHYSICS_EXTENSION = KHR_PHYSICS_RIGID_BODIES  # the extension a physics operation declares


def _node_index(rt: Any, node: Any) -> int:
    value = rt.get(node, "nodeIndex")
    if isinstance(value, bool) or not isinstance(value, int):
        raise GraphError(f"nodeIndex must be an int, got {value!r}", node.pointer)
    return value


def _input(rt: Any, node: Any, socket: str, fallback: Any) -> Any:
    return rt.get(node, socket) if rt.has_input(node, socket) else fallback


def _host(node: Any, call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)`` on the host; its errors name this node's pointer (the host does not know it)."""
    try:
        return call(*args)
    except GraphError as e:
        if e.pointer:
            raise
        raise GraphError(e.message, node.pointer) from None


def _apply_impulse(rt: Any, node: Any, _socket: str) -> None:
    target = _node_index(rt, node)
    linear = _input(rt, node, "linearImpulse", ZERO3)
    angular = _input(rt, node, "angularImpulse", ZERO3)
    if any(angular):
        _host(node, rt.host.apply_impulse, target, linear, angular)
    else:  # the Host protocol's two-argument form
        _host(node, rt.host.apply_impulse, target, linear)
    rt.activate(node, "out")


def _apply_point_impulse(rt: Any, node: Any, _socket: str) -> None:
    target = _node_index(rt, node)
    _host(node, rt.host.apply_point_impulse, target, _input(rt, node, "impulse", ZERO3),
          _input(rt, node, "position", ZERO3))
    rt.activate(node, "out")


def _ray_cast(rt: Any, node: Any, _socket: str) -> None:
    start, end = rt.get(node, "rayStart"), rt.get(node, "rayEnd")
    index = _input(rt, node, "collisionFilterIndex", -1)
    hit = _host(node, rt.host.ray_cast, start, end, index)
    if hit is None:
        rt.activate(node, "miss")
        return
    node.out["hitNodeIndex"] = int(hit.node)
    node.out["hitFraction"] = float(hit.fraction)
    node.out["hitNormal"] = tuple(float(v) for v in hit.normal)
    rt.activate(node, "hit")


def configured_index(config: dict[str, Any]) -> int | None:
    """The ``nodeIndex`` configuration of a trigger event (its value array's int, or a bare int), else None."""
    value = config.get("nodeIndex")
    if isinstance(value, dict):  # a configuration written as {"value": [...]}
        value = value.get("value")
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    return whole(value)


def _check_trigger_event(graph: Any, node: Any, emit: Callable[..., None], doc: Any = None,
                         triggers: set[int] | None = None, **_context: Any) -> None:
    """KRBI-1 (nodeIndex names a trigger node) and KRBI-2 (no earlier event node of this kind on it)."""
    index = configured_index(node.configuration)
    where = f"{node.pointer}/configuration/nodeIndex"
    if index is None:
        emit("KRBI-1", where, f"{node.op} needs an int nodeIndex configuration naming a trigger node")
        return
    doc_json = getattr(doc, "json", doc)
    if isinstance(doc_json, dict):
        count = len(doc_json.get("nodes") or []) if isinstance(doc_json.get("nodes"), list) else 0
        if not 0 <= index < count:
            emit("KRBI-1", where, f"nodeIndex {index} is not a node (the file has {count})")
        elif index not in (triggers if triggers is not None else trigger_nodes(doc_json)):
            emit("KRBI-1", where, f"node {index} has no trigger: {node.op} never fires")
    earlier = next((n for n in graph.nodes[:node.index] if n.op == node.op
                    and configured_index(n.configuration) == index), None)
    if earlier is not None:
        emit("KRBI-2", where, f"a second {node.op} on node {index} (node {earlier.index} already listens there)")


def check_document(doc_json: dict[str, Any], emit: Callable[..., None], triggers: set[int] | None = None) -> None:
    """KRBI-1 and KRBI-2 over every graph of ``doc_json``'s KHR_interactivity (what ``validate`` reports);
    ``triggers``: the trigger nodes as the physics reader found them, every generation (default: the KHR and
    OMI_physics_body ``trigger`` objects of the JSON)."""
    from ..read import read_interactivity

    interactivity = read_interactivity(doc_json)
    for graph in interactivity.graphs if interactivity is not None else []:
        for node in graph.nodes:
            if node.op in TRIGGER_EVENTS:
                _check_trigger_event(graph, node, emit, doc=doc_json, triggers=triggers)


# Inputs the KHR text gives a default (the node may leave them out); the others must have a value.
OPTIONAL_INPUTS = {"rigid_body/applyImpulse": ("linearImpulse", "angularImpulse"),
                   "rigid_body/rayCast": ("collisionFilterIndex",)}


def _sockets_of(name: str) -> Callable[[Any, Any], Any]:
    """The node's sockets for the graph validator: an optional input (``OPTIONAL_INPUTS``) only when present."""
    def sockets(graph: Any, node: Any) -> Any:
        spec = TABLE[name]
        optional = OPTIONAL_INPUTS.get(name, ())
        inputs = {k: t for k, t in spec.inputs.items() if k not in optional or k in node.values}
        return inputs, spec.outputs, spec.flows_in, spec.flows_out
    return sockets


_VECTOR_OUT = {"hitNodeIndex": "int", "hitFraction": "float", "hitNormal": "float3"}

TABLE = table(
    OpSpec("rigid_body/applyImpulse",
           inputs={"nodeIndex": "int", "linearImpulse": "float3", "angularImpulse": "float3"},
           flows_in=("in",), flows_out=("out",), run=_apply_impulse,
           sockets=_sockets_of("rigid_body/applyImpulse")),
    OpSpec("rigid_body/applyPointImpulse",
           inputs={"nodeIndex": "int", "impulse": "float3", "position": "float3"},
           flows_in=("in",), flows_out=("out",), run=_apply_point_impulse),
    OpSpec("rigid_body/rayCast",
           inputs={"rayStart": "float3", "rayEnd": "float3", "collisionFilterIndex": "int"},
           outputs=dict(_VECTOR_OUT), flows_in=("in",), flows_out=("hit", "miss"), run=_ray_cast,
           sockets=_sockets_of("rigid_body/rayCast")),
    *(OpSpec(name, outputs={"colliderNodeIndex": "int", "motionNodeIndex": "int"}, flows_out=("out",),
             config={"nodeIndex": "int"}, required_config=("nodeIndex",), event=True, check=_check_trigger_event)
      for name in TRIGGER_EVENTS),
)
