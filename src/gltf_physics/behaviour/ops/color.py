"""The colour-model ``math/*`` operations: linear BT.709 RGB to and from OkLCh, with the specification's (the
original OkLab document's) matrices, no clamping and no gamut mapping."""

from __future__ import annotations

import math
from typing import Any

from .linalg import cos, sin
from .spec import OpSpec, table

_RGB_TO_LMS = ((0.4122214708, 0.5363325363, 0.0514459929), (0.2119034982, 0.6806995451, 0.1073969566),
               (0.0883024619, 0.2817188376, 0.6299787005))
_LMS_TO_LAB = ((0.2104542553, 0.7936177850, -0.0040720468), (1.9779984951, -2.4285922050, 0.4505937099),
               (0.0259040371, 0.7827717662, -0.8086757660))
_LAB_TO_LMS = ((1.0, 0.3963377774, 0.2158037573), (1.0, -0.1055613458, -0.0638541728),
               (1.0, -0.0894841775, -1.2914855480))
_LMS_TO_RGB = ((4.0767416621, -3.3077115913, 0.2309699292), (-1.2684380046, 2.6097574011, -0.3413193965),
               (-0.0041960863, -0.7034186147, 1.7076147010))


def _mul(m: tuple[tuple[float, ...], ...], v: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(sum(a * b for a, b in zip(row, v, strict=True)) for row in m)


def _cbrt(x: float) -> float:
    return math.copysign(abs(x) ** (1 / 3), x) if math.isfinite(x) and x != 0 else x


def to_oklch(r: float, g: float, b: float) -> tuple[float, float, float]:
    """(l, c, h) of a linear RGB colour; h in radians."""
    lms = tuple(_cbrt(x) for x in _mul(_RGB_TO_LMS, (r, g, b)))
    big_l, a, bb = _mul(_LMS_TO_LAB, lms)
    return big_l, math.hypot(a, bb), math.atan2(bb, a)


def from_oklch(l_: float, c: float, h: float) -> tuple[float, float, float]:
    """Linear RGB of an OkLCh colour."""
    lms = _mul(_LAB_TO_LMS, (l_, c * cos(h), c * sin(h)))
    return _mul(_LMS_TO_RGB, tuple(x * x * x for x in lms))  # type: ignore[return-value]


def _to(rt: Any, node: Any) -> dict[str, Any]:
    return dict(zip("lch", to_oklch(rt.get(node, "r"), rt.get(node, "g"), rt.get(node, "b")), strict=True))


def _from(rt: Any, node: Any) -> dict[str, Any]:
    return dict(zip("rgb", from_oklch(rt.get(node, "l"), rt.get(node, "c"), rt.get(node, "h")), strict=True))


TABLE = table(
    OpSpec("math/rgbToOkLCh", {"r": "float", "g": "float", "b": "float"}, {"l": "float", "c": "float", "h": "float"},
           compute=_to),
    OpSpec("math/rgbFromOkLCh", {"l": "float", "c": "float", "h": "float"},
           {"r": "float", "g": "float", "b": "float"}, compute=_from),
)
