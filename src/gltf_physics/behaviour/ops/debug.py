"""The ``debug/log`` operation: a message template whose ``{name}`` parts are input values."""

from __future__ import annotations

import re
from typing import Any

from .spec import OpSpec, table

_PARAM = re.compile(r"\{([^{}]+)\}")


def _format(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")) or not value.is_integer() or abs(value) >= 1e16:
            return repr(value)
        return str(int(value))
    if isinstance(value, tuple):
        return "[" + ", ".join(_format(v) for v in value) + "]"
    return "null" if value is None else str(value)


def _log_sockets(graph: Any, node: Any) -> tuple[dict[str, str], dict[str, str], tuple[str, ...],
                                                   tuple[str, ...]]:
    message = node.configuration.get("message")
    text = message[0] if isinstance(message, list) and message and isinstance(message[0], str) else ""
    return {name: "*" for name in _PARAM.findall(text)}, {}, ("in",), ("out",)


def _log(rt: Any, node: Any, socket: str) -> None:
    text = node.cfg("message", "")
    text = text if isinstance(text, str) else ""
    if "{" in text:
        def value(match: re.Match[str]) -> str:
            name = match.group(1)
            return _format(rt.get(node, name)) if rt.has_input(node, name) else match.group(0)
        text = _PARAM.sub(value, text)
    rt.log(text, node)
    rt.activate(node, "out")


TABLE = table(
    OpSpec("debug/log", flows_in=("in",), flows_out=("out",), config={"severity": "int", "message": "string"},
           run=_log, sockets=_log_sockets),
)
