"""The behaviour graph model: KHR_interactivity read into plain dataclasses, every object keeping its JSON pointer.

Values are kept as the file spells them (``[1.0, 2.0]`` lists, type indices), so a checker can name exactly what
is wrong; the runner converts them once when it compiles a graph. ``Interactivity.form`` is ``"current"`` (the
specification merged in 2026) or ``"draft-2025"`` (the draft the official test assets were exported against).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ValueSource:
    """One input value socket of a node: an inline ``value`` of ``type``, a link to ``node``'s output ``socket``,
    or (neither) the type-default of ``type``. ``type`` is an index into the graph's ``types`` (None: absent)."""

    socket: str
    type: int | None = None
    value: list[Any] | None = None
    node: int | None = None
    out_socket: str = "value"
    pointer: str = ""


@dataclass
class FlowLink:
    """An output flow socket linked to ``node``'s input flow ``socket``."""

    socket: str
    node: int | None
    in_socket: str = "in"
    pointer: str = ""


@dataclass
class Declaration:
    """An operation declaration: ``op`` and, for an extension's operation, its extension name and exact sockets."""

    op: str
    extension: str | None = None
    inputs: dict[str, int] | None = None
    outputs: dict[str, int] | None = None
    pointer: str = ""


@dataclass
class Variable:
    """A custom variable: id (optional), type index, initial value as written (None: the type-default)."""

    id: str | None
    type: int | None
    value: list[Any] | None = None
    pointer: str = ""


@dataclass
class CustomEvent:
    """A custom event: optional id and value sockets ``name → (type index, initial value or None)``."""

    id: str | None
    values: dict[str, tuple[int | None, list[Any] | None]] = field(default_factory=dict)
    pointer: str = ""


@dataclass
class GraphNode:
    """One interactivity node: its index, operation name (from its declaration), the declaration index, its value
    sources, output flow links and configuration (``key → list``, the ``value`` arrays as written)."""

    index: int
    op: str
    declaration: int | None
    values: dict[str, ValueSource] = field(default_factory=dict)
    flows: dict[str, FlowLink] = field(default_factory=dict)
    configuration: dict[str, Any] = field(default_factory=dict)
    pointer: str = ""


@dataclass
class Graph:
    """One behaviour graph: the type signatures, custom variables, custom events, declarations and nodes."""

    types: list[str | None] = field(default_factory=list)
    variables: list[Variable] = field(default_factory=list)
    events: list[CustomEvent] = field(default_factory=list)
    declarations: list[Declaration] = field(default_factory=list)
    nodes: list[GraphNode] = field(default_factory=list)
    pointer: str = ""
    form: str = "current"

    def type_name(self, index: int | None) -> str | None:
        """The signature of type ``index`` (None when it is absent or out of range)."""
        if index is None or not 0 <= index < len(self.types):
            return None
        return self.types[index]


@dataclass
class Interactivity:
    """The document's KHR_interactivity: its graphs, the one selected by default, the form read, reader notes."""

    graphs: list[Graph]
    default: int
    form: str
    notes: list[str] = field(default_factory=list)
