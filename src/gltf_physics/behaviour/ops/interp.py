"""Timed interpolation shared by ``variable/interpolate`` and ``pointer/interpolate``: a cubic Bézier easing
through (0, 0), p1, p2, (1, 1), linear or spherical (quaternions) blending, one step per tick."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..values import Mat


def _coord(s: float, a: float, b: float) -> float:
    u = 1.0 - s
    return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s


def bezier_progress(x: float, p1: tuple[float, float], p2: tuple[float, float], draft: bool = False) -> float:
    """The eased progress y at time fraction x: solve the Bézier's x(s) = x by bisection and return y(s). The 2025
    draft instead took the time fraction as the curve parameter (y(x), the control points' x ignored)."""
    if draft:
        return _coord(x, p1[1], p2[1])
    coord = _coord
    lo, hi = 0.0, 1.0
    for _ in range(48):  # x(s) is monotonic for control x in [0, 1]: 48 halvings reach double precision
        mid = 0.5 * (lo + hi)
        if coord(mid, p1[0], p2[0]) < x:
            lo = mid
        else:
            hi = mid
    return coord(0.5 * (lo + hi), p1[1], p2[1])


def valid_controls(p1: Any, p2: Any) -> bool:
    """The specification's check: finite control points with x within [0, 1]."""
    return all(math.isfinite(c) for c in (*p1, *p2)) and 0 <= p1[0] <= 1 and 0 <= p2[0] <= 1


def blend(a: Any, b: Any, t: float, slerp: bool) -> Any:
    """``a`` → ``b`` at ``t``: component-wise linear, or quaternion slerp."""
    if isinstance(a, float):
        return a + (b - a) * t
    if slerp and len(a) == 4:
        return _slerp(a, b, t)
    out = tuple(x + (y - x) * t for x, y in zip(a, b, strict=True))
    return Mat(out) if isinstance(a, Mat) else out


def _slerp(a: tuple[float, ...], b: tuple[float, ...], t: float) -> tuple[float, ...]:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    if dot < 0:
        b, dot = tuple(-y for y in b), -dot
    if dot > 0.9995:
        out = tuple(x + (y - x) * t for x, y in zip(a, b, strict=True))
        n = math.sqrt(sum(v * v for v in out))
        return tuple(v / n for v in out)
    theta = math.acos(min(1.0, dot))
    s = math.sin(theta)
    wa, wb = math.sin((1 - t) * theta) / s, math.sin(t * theta) / s
    return tuple(wa * x + wb * y for x, y in zip(a, b, strict=True))


class Interpolation:
    """One running interpolation: ``write`` receives each eased value; ``done`` is the node whose ``done`` flow
    fires at the end. ``key`` identifies the target (a later interpolation or set of it cancels this one)."""

    def __init__(self, key: Any, node: Any, start: Any, target: Any, begin: float, duration: float,
                 p1: Any, p2: Any, slerp: bool, write: Callable[[Any], None]) -> None:
        self.key, self.node, self.start, self.target = key, node, start, target
        self.begin, self.duration, self.p1, self.p2, self.slerp = begin, duration, p1, p2, slerp
        self.write = write
        self.cancelled = False

    def step(self, rt: Any) -> bool:
        """Write the value for the runner's current time; True when finished (``done`` activated)."""
        t = 1.0 if self.duration <= 0 else (rt.time - self.begin) / self.duration
        if t <= 0:
            return False
        if math.isnan(t) or t >= 1:
            self.write(self.target)
            self.cancelled = True
            rt.activate(self.node, "done")
            return True
        self.write(blend(self.start, self.target, bezier_progress(t, self.p1, self.p2, rt.draft), self.slerp))
        return False


def replace(rt: Any, key: Any) -> None:
    """Cancel any running interpolation of ``key``."""
    for item in rt.interpolations:
        if item.key == key:
            item.cancelled = True
