"""Value types of behaviour graphs: signatures, type-defaults, conversion from JSON arrays, int32 wrap-around.

Run-time representation (chosen for cheap dispatch): ``bool``/``int``/``float`` scalars as Python's, vectors as
tuples of floats, matrices as :class:`Mat` (a tuple subclass, column-major like glTF, so ``float4`` and
``float2x2`` stay apart), references as strings (JSON pointers) or None (the null reference).
"""

from __future__ import annotations

import math
from typing import Any

from .errors import GraphError

NAN = math.nan

SIZES: dict[str, int] = {"bool": 1, "int": 1, "float": 1, "float2": 2, "float3": 3, "float4": 4,
                         "float2x2": 4, "float3x3": 9, "float4x4": 16, "ref": 1}
"""Every value socket type of the specification and the length of its JSON ``value`` array."""

MATRICES = frozenset({"float2x2", "float3x3", "float4x4"})


class Mat(tuple):
    """A column-major matrix (4, 9 or 16 floats)."""

    __slots__ = ()


def default(signature: str | None) -> Any:
    """The specification's type-default: false, 0, NaN(s), null reference."""
    if signature == "bool":
        return False
    if signature == "int":
        return 0
    if signature == "ref":
        return None
    if signature in MATRICES:
        return Mat((NAN,) * SIZES[signature])
    size = SIZES.get(signature or "float", 1)
    return NAN if size == 1 else (NAN,) * size


def wrap32(value: int) -> int:
    """Two's complement 32-bit wrap-around."""
    if -0x80000000 <= value <= 0x7FFFFFFF:  # the common case: nothing to wrap
        return value
    value &= 0xFFFFFFFF
    return value - 0x100000000 if value & 0x80000000 else value


def whole(x: Any) -> int | None:
    """``x`` as an int when it is a JSON integer (an int, or a float with no fraction), else None. Infinity and NaN
    are not integers (``int(x)`` would raise on them)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    if isinstance(x, float) and not x.is_integer():  # False for ±inf and NaN too
        return None
    return int(x)


def _float(x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        if isinstance(x, str):  # the draft exporter writes some numbers as strings ("NaN", "Infinity", "-1")
            return float(x)
        raise ValueError(f"{x!r} is not a number")
    return float(x)


def convert(signature: str | None, raw: Any, pointer: str = "") -> Any:
    """The run-time value of a JSON ``value`` array of type ``signature`` (GraphError when it does not fit)."""
    if signature not in SIZES:
        raise GraphError(f"unknown value type {signature!r}", pointer)
    if not isinstance(raw, list) or len(raw) != SIZES[signature]:
        raise GraphError(f"a {signature} value must be an array of {SIZES[signature]}", pointer)
    try:
        if signature == "bool":
            if not isinstance(raw[0], bool):
                raise ValueError("not a boolean")
            return raw[0]
        if signature == "int":
            n = whole(raw[0])
            if n is None:
                raise ValueError("not an integer")
            return wrap32(n)
        if signature == "ref":
            if raw[0] is not None and not isinstance(raw[0], str):
                raise ValueError("not a reference")
            return raw[0]
        if signature == "float":
            return _float(raw[0])
        values = tuple(_float(x) for x in raw)
        return Mat(values) if signature in MATRICES else values
    except (ValueError, OverflowError) as exc:
        raise GraphError(f"bad {signature} value {raw!r}: {exc}", pointer) from None


def transpose(value: Mat) -> Mat:
    """The same matrix with rows and columns swapped (the 2025 draft spells matrices row-major)."""
    n = {4: 2, 9: 3, 16: 4}[len(value)]
    return Mat(value[r * n + c] for c in range(n) for r in range(n))


def type_of(value: Any) -> str:
    """The signature of a run-time value."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, Mat):
        return {4: "float2x2", 9: "float3x3", 16: "float4x4"}[len(value)]
    if isinstance(value, tuple):
        return f"float{len(value)}"
    return "ref"


def to_json(value: Any) -> list[Any]:
    """A run-time value as a JSON ``value`` array (the inverse of :func:`convert`)."""
    return list(value) if isinstance(value, tuple) else [value]
