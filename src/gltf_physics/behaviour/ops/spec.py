"""``OpSpec``: what the runner and the checker know of one operation. Domain modules build tables of them.

An operation is either *pure* (``compute(rt, node) -> {output socket: value}``, evaluated whenever a value it
outputs is read) or *flow* (``run(rt, node, in_socket)``, activated through an input flow; its value outputs are
kept in ``node.out``). Types are signatures (``float3``), or a pattern whose sockets of one node share one type:
``T`` (any type), ``N`` (float, floatN or floatNxN), ``NI`` (those or int), ``F`` (float or floatN), ``M``
(floatNxN), ``S`` (float or int), ``B`` (bool or int); ``*`` accepts anything, independently.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Compute = Callable[[Any, Any], dict[str, Any]]
Run = Callable[[Any, Any, str], None]
Check = Callable[..., None]  # check(graph, node, emit): reports problems of one node (rule id, pointer, message)
Sockets = Callable[[Any, Any], tuple[dict[str, str], dict[str, str], tuple[str, ...], tuple[str, ...]]]


@dataclass(frozen=True)
class OpSpec:
    """One operation: its sockets (value inputs/outputs with types, flow inputs/outputs), configuration schema
    (``key → "int" | "int[]" | "bool" | "string"``), behaviour (``compute`` for pure operations, ``run`` for flow
    ones; ``init`` prepares a compiled node), an optional ``check`` for the validator, ``sockets`` for operations
    whose sockets depend on the configuration (``(graph, node) → (inputs, outputs, flows_in, flows_out)``) and
    ``event``: the runner may fire it from outside (``GraphRunner.fire``). ``value`` is the fast form of a pure
operation whose only output is ``value``: it returns that value without building a dict."""

    name: str
    inputs: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    flows_in: tuple[str, ...] = ()
    flows_out: tuple[str, ...] = ()
    config: dict[str, str] = field(default_factory=dict)
    compute: Compute | None = None
    run: Run | None = None
    init: Callable[[Any, Any], None] | None = None
    check: Check | None = None
    sockets: Sockets | None = None
    event: bool = False
    required_config: tuple[str, ...] = ()
    value: Callable[[Any, Any], Any] | None = None

    def __post_init__(self) -> None:
        if self.value is not None and self.compute is None:  # the dict form, for readers of other outputs
            value = self.value
            object.__setattr__(self, "compute", lambda rt, node: {"value": value(rt, node)})

    @property
    def domain(self) -> str:
        """The part before the slash: ``math``, ``flow``, ``event``…"""
        return self.name.split("/", 1)[0]


def table(*specs: OpSpec) -> dict[str, OpSpec]:
    """A name → spec table."""
    return {spec.name: spec for spec in specs}
