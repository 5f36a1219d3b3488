"""The ``type/*`` conversions between bool, int and float, with the specification's float → int rule."""

from __future__ import annotations

import math
from typing import Any

from ..values import wrap32
from .spec import OpSpec, table


def float_to_int(a: float) -> int:
    """Truncate toward zero, wrap to 32 bits; zero, NaN and infinities give 0 (ECMAScript ``a | 0``)."""
    if not math.isfinite(a):
        return 0
    return wrap32(int(a))


def _unary(fn: Any) -> Any:
    def value(rt: Any, node: Any) -> Any:
        return fn(rt.get(node, "a"))
    return value


TABLE = table(
    OpSpec("type/boolToInt", {"a": "bool"}, {"value": "int"}, value=_unary(lambda a: 1 if a else 0)),
    OpSpec("type/boolToFloat", {"a": "bool"}, {"value": "float"}, value=_unary(lambda a: 1.0 if a else 0.0)),
    OpSpec("type/intToBool", {"a": "int"}, {"value": "bool"}, value=_unary(lambda a: a != 0)),
    OpSpec("type/intToFloat", {"a": "int"}, {"value": "float"}, value=_unary(float)),
    OpSpec("type/floatToBool", {"a": "float"}, {"value": "bool"}, value=_unary(lambda a: not (a == 0 or a != a))),
    OpSpec("type/floatToInt", {"a": "float"}, {"value": "int"}, value=_unary(float_to_int)),
)
