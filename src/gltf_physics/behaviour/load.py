"""From a document to a ready runner: read, select a graph, check it, compile it — or say why not.

An invalid graph is reported and not run (the rest of the asset still simulates): ``prepare`` returns no runner
and the problems, each a one-line message naming the rule and the JSON pointer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .check import check_graph_into
from .errors import GraphError
from .host import Host
from .read import read_interactivity
from .run import DEFAULT_BUDGET, GraphRunner


@dataclass
class Prepared:
    """The outcome of :func:`prepare`: the runner (None when the graph cannot run), the graph's index, the
    problems found (``"KHRI-5 /extensions/…: message"``; errors stop the graph, warnings do not) and the
    reader's notes (the form read)."""

    runner: GraphRunner | None
    index: int | None
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def prepare(doc_json: dict[str, Any], host: Host, graph: int | None = None, *,
            activation_budget: int = DEFAULT_BUDGET) -> Prepared:
    """The runner of graph ``graph`` (default: the extension's ``graph``) of ``doc_json`` on ``host``, unless the
    document has no graphs or the graph breaks a KHRI rule."""
    from ..validation.rules import Severity, severity_of

    interactivity = read_interactivity(doc_json)
    if interactivity is None or not interactivity.graphs:
        return Prepared(None, None)
    index = interactivity.default if graph is None else graph
    if not 0 <= index < len(interactivity.graphs):
        return Prepared(None, index, [f"KHRI-1 /extensions/KHR_interactivity: no graph {index} "
                                      f"({len(interactivity.graphs)} graphs)"], notes=interactivity.notes)
    selected = interactivity.graphs[index]
    errors, warnings = [], []
    problems: list[tuple[str, str, str, int | None]] = []
    check_graph_into(selected, interactivity.form,
                     lambda code, pointer, message, severity=None: problems.append((code, pointer, message, severity)))
    for code, pointer, message, severity in problems:
        line = f"{code} {pointer}: {message}"
        level = severity_of(code) if severity is None else Severity(severity)
        (errors if level == Severity.ERROR else warnings).append(line)
    if errors:
        return Prepared(None, index, errors, warnings, interactivity.notes)
    try:
        runner = GraphRunner(selected, host, activation_budget=activation_budget)
    except GraphError as err:
        return Prepared(None, index, [f"KHRI-10 {err.pointer}: {err.message}"], warnings, interactivity.notes)
    except Exception as exc:  # a graph the checks let through but the compiler cannot take: still one line
        return Prepared(None, index, [f"KHRI-10 {selected.pointer}: the graph cannot be compiled "
                                      f"({type(exc).__name__}: {exc})"], warnings, interactivity.notes)
    return Prepared(runner, index, errors, warnings, interactivity.notes)
