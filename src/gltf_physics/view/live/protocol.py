"""What a page may send the live server: small JSON objects, checked field by field before anything runs.

:func:`parse` returns a :class:`Message` or raises :class:`Refused` with a one-line reason (the server logs it
and tells the client). Every number must be finite, every vector three numbers, every node an int.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

MAX_TEXT = 16_384  # bytes: the largest message a page sends is a pointer and a small value
MAX_POINTER = 512
MAX_COORD = 1e6  # metres: a grab target beyond this is a mistake, not a place


class Refused(ValueError):
    """A message the server will not act on; ``str()`` is the one-line reason."""


@dataclass(frozen=True)
class Message:
    """A checked message: its ``type`` and its fields."""

    type: str
    fields: dict[str, Any]


def parse(raw: str | bytes) -> Message:
    """Check one message from a page; raises Refused naming what is wrong."""
    if isinstance(raw, bytes):
        raise Refused("binary messages are not accepted (send JSON text)")
    if len(raw) > MAX_TEXT:
        raise Refused(f"message of {len(raw)} characters (at most {MAX_TEXT})")
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (json.JSONDecodeError, ValueError) as e:
        raise Refused(f"not JSON ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Refused("expected a JSON object with a string \"type\"")
    kind = data["type"]
    check = _CHECKS.get(kind)
    if check is None:
        raise Refused(f"unknown message type {kind[:40]!r} (known: {', '.join(sorted(_CHECKS))})")
    fields = {k: v for k, v in data.items() if k != "type"}
    return Message(kind, check(fields))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _keys(fields: dict[str, Any], required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    missing = [k for k in required if k not in fields]
    extra = [k for k in fields if k not in required and k not in optional]
    if missing:
        raise Refused(f"missing {', '.join(missing)}")
    if extra:
        raise Refused(f"unexpected field {extra[0][:40]!r}")


def _number(value: Any, name: str, low: float = -math.inf, high: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise Refused(f"{name} must be a finite number")
    if not low <= value <= high:
        raise Refused(f"{name} must be within [{low:g}, {high:g}]")
    return float(value)


def _vec3(value: Any, name: str) -> list[float]:
    if not isinstance(value, list) or len(value) != 3:
        raise Refused(f"{name} must be a list of 3 numbers")
    return [_number(v, name, -MAX_COORD, MAX_COORD) for v in value]


def _node(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise Refused("node must be a node index")
    return value


def _none(fields: dict[str, Any]) -> dict[str, Any]:
    _keys(fields, ())
    return {}


def _speed(fields: dict[str, Any]) -> dict[str, Any]:
    _keys(fields, ("value",))
    return {"value": _number(fields["value"], "value")}


def _set(fields: dict[str, Any]) -> dict[str, Any]:
    _keys(fields, ("pointer", "value"))
    pointer, value = fields["pointer"], fields["value"]
    if not isinstance(pointer, str) or not pointer.startswith("/") or len(pointer) > MAX_POINTER:
        raise Refused("pointer must be a JSON pointer string")
    if isinstance(value, bool):
        return {"pointer": pointer, "value": value}
    if isinstance(value, list):
        return {"pointer": pointer, "value": [_number(v, "value") for v in value[:4]] if len(value) <= 4
                else _too_long()}
    return {"pointer": pointer, "value": _number(value, "value")}


def _too_long() -> Any:
    raise Refused("value lists have at most 4 numbers")


def _grab(fields: dict[str, Any]) -> dict[str, Any]:
    _keys(fields, ("node", "point"))
    return {"node": _node(fields["node"]), "point": _vec3(fields["point"], "point")}


def _drag(fields: dict[str, Any]) -> dict[str, Any]:
    _keys(fields, ("target",))
    return {"target": _vec3(fields["target"], "target")}


def _drive(fields: dict[str, Any]) -> dict[str, Any]:
    _keys(fields, ("node", "throttle", "steer", "brake"))
    if not isinstance(fields["brake"], bool):
        raise Refused("brake must be true or false")
    return {"node": _node(fields["node"]), "throttle": _number(fields["throttle"], "throttle", -1, 1),
            "steer": _number(fields["steer"], "steer", -1, 1), "brake": fields["brake"]}


def _select(fields: dict[str, Any]) -> dict[str, Any]:
    _keys(fields, ("node", "point", "origin"))
    return {"node": _node(fields["node"]), "point": _vec3(fields["point"], "point"),
            "origin": _vec3(fields["origin"], "origin")}


def _hover(fields: dict[str, Any]) -> dict[str, Any]:
    _keys(fields, ("node",))
    return {"node": None if fields["node"] is None else _node(fields["node"])}


_CHECKS = {
    "pause": _none, "play": _none, "step": _none, "reset": _none, "ping": _none,
    "speed": _speed, "set": _set, "grab": _grab, "drag": _drag, "release": _none, "drive": _drive,
    "select": _select, "hover": _hover,
}
