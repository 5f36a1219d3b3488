"""The ``animation/*`` operations: start, stop, stopAt — carried out by the host on the file's animations."""

from __future__ import annotations

import math
from typing import Any

from ..errors import GraphError
from .spec import OpSpec, table


def _valid_animation(rt: Any, node: Any) -> int | None:
    index = rt.get(node, "animation")
    return index if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else None


def _start(rt: Any, node: Any, socket: str) -> None:
    index = _valid_animation(rt, node)
    start, end, speed = rt.get(node, "startTime"), rt.get(node, "endTime"), rt.get(node, "speed")
    if index is None or not math.isfinite(start) or math.isnan(end) or not math.isfinite(speed) or speed <= 0:
        rt.activate(node, "err")
        return
    try:
        rt.host.start_animation(index, start, end, speed)
    except GraphError:
        rt.activate(node, "err")
        return
    rt.activate(node, "out")


def _stop(rt: Any, node: Any, socket: str) -> None:
    index = _valid_animation(rt, node)
    try:
        if index is None:
            raise GraphError("bad animation index")
        rt.host.stop_animation(index)
    except GraphError:
        rt.activate(node, "err")
        return
    rt.activate(node, "out")


def _stop_at(rt: Any, node: Any, socket: str) -> None:
    index = _valid_animation(rt, node)
    time = rt.get(node, "stopTime")
    try:
        if index is None or not math.isfinite(time):
            raise GraphError("bad animation index or stop time")
        rt.host.stop_animation_at(index, time)
    except GraphError:
        rt.activate(node, "err")
        return
    rt.activate(node, "out")


TABLE = table(
    OpSpec("animation/start", {"animation": "int", "startTime": "float", "endTime": "float", "speed": "float"},
           {}, ("in",), ("out", "err", "done"), run=_start),
    OpSpec("animation/stop", {"animation": "int"}, {}, ("in",), ("out", "err"), run=_stop),
    OpSpec("animation/stopAt", {"animation": "int", "stopTime": "float"}, {}, ("in",), ("out", "err", "done"),
           run=_stop_at),
)
