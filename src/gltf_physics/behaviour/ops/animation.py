"""The ``animation/*`` operations: start, stop, stopAt, with the specification's animation state array.

The runner keeps the state (start, end and stop times, speed, the ``done`` flows); each tick it asks the host
to apply animation ``a`` at effective time ``t`` (``Host.apply_animation``). ``Host.start_animation`` /
``stop_animation`` / ``stop_animation_at`` tell the host what the graph did (a simulation may hand an animated
body to the animation). The animation reference is ``/animations/N`` (current form) or the index (draft).
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import GraphError
from .spec import OpSpec, table


def _animation(rt: Any, node: Any) -> int | None:
    value = rt.get(node, "animation")
    if isinstance(value, str) and value.rsplit("/", 1)[-1].isdigit() and value.startswith("/animations/"):
        value = int(value.rsplit("/", 1)[-1])
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        try:
            rt.host.animation_duration(value)
        except GraphError:
            return None
        return value
    return None


def effective_time(r: float, duration: float) -> float:
    """The specification's mapping of a requested timestamp onto [0, T] (repeating in both directions)."""
    if duration == 0:
        return 0.0
    s = math.ceil((r - duration) / duration) if r > 0 else math.floor(r / duration)
    return r - s * duration


class Playback:
    """One entry of the animation state array (stepped with the runner's interpolations)."""

    def __init__(self, index: int, node: Any, start: float, end: float, speed: float, created: float,
                 duration: float) -> None:
        self.key = ("animation", index)
        self.index, self.node, self.start, self.end, self.speed = index, node, start, end, speed
        self.created, self.duration = created, duration
        self.stop, self.stop_node = end, None
        self.cancelled = False

    def _finish(self, rt: Any, at: float, done_node: Any) -> bool:
        rt.host.apply_animation(self.index, effective_time(at, self.duration))
        self.cancelled = True
        if done_node is not None:
            rt.activate(done_node, "done")
        return True

    def step(self, rt: Any) -> bool:
        """Apply the animation at the runner's time; True when it ended (its ``done`` flow activated)."""
        start, end, stop = self.start, self.end, self.stop
        if start == end:
            return self._finish(rt, start, self.node)
        scaled = max(0.0, rt.time - self.created) * self.speed
        now = start - scaled if start > end else start + scaled
        forward = start < end
        if self.stop_node is not None and ((forward and now >= stop and start <= stop < end)
                                           or (not forward and now <= stop and end < stop <= start)):
            return self._finish(rt, stop, self.stop_node)
        if (forward and now >= end) or (not forward and now <= end):
            return self._finish(rt, end, self.node)
        rt.host.apply_animation(self.index, effective_time(now, self.duration))
        return False


def _playing(rt: Any, index: int) -> Playback | None:
    for item in rt.interpolations:
        if isinstance(item, Playback) and item.index == index and not item.cancelled:
            return item
    return None


def _start(rt: Any, node: Any, socket: str) -> None:
    index = _animation(rt, node)
    start, end, speed = rt.get(node, "startTime"), rt.get(node, "endTime"), rt.get(node, "speed")
    if index is None or math.isnan(start) or math.isnan(end) or math.isinf(start) or not math.isfinite(speed) \
            or speed <= 0:
        rt.activate(node, "err")
        return
    try:
        duration = rt.host.animation_duration(index)
        rt.host.start_animation(index, start, end, speed)
    except GraphError:
        rt.activate(node, "err")
        return
    old = _playing(rt, index)
    if old is not None:
        old.cancelled = True  # replaced: its done flows never fire
    rt.interpolations.append(Playback(index, node, start, end, speed, rt.time, duration))
    rt.activate(node, "out")


def _stop(rt: Any, node: Any, socket: str) -> None:
    index = _animation(rt, node)
    if index is None:
        rt.activate(node, "err")
        return
    playing = _playing(rt, index)
    if playing is not None:
        playing.cancelled = True
        rt.host.stop_animation(index)
    rt.activate(node, "out")


def _stop_at(rt: Any, node: Any, socket: str) -> None:
    index = _animation(rt, node)
    time = rt.get(node, "stopTime")
    if index is None or math.isnan(time):
        rt.activate(node, "err")
        return
    playing = _playing(rt, index)
    if playing is not None:
        playing.stop, playing.stop_node = time, node
        rt.host.stop_animation_at(index, time)
    rt.activate(node, "out")


def _sockets(extra: dict[str, str], flows_out: tuple[str, ...]) -> Any:
    def sockets(graph: Any, node: Any) -> Any:
        src = node.values.get("animation")
        kind = "int" if src is not None and graph.type_name(src.type) == "int" else "ref"  # the draft: an index
        return {"animation": kind, **extra}, {}, ("in",), flows_out
    return sockets


TABLE = table(
    OpSpec("animation/start", {"animation": "ref", "startTime": "float", "endTime": "float", "speed": "float"},
           {}, ("in",), ("out", "err", "done"), run=_start,
           sockets=_sockets({"startTime": "float", "endTime": "float", "speed": "float"}, ("out", "err", "done"))),
    OpSpec("animation/stop", {"animation": "ref"}, {}, ("in",), ("out", "err"), run=_stop,
           sockets=_sockets({}, ("out", "err"))),
    OpSpec("animation/stopAt", {"animation": "ref", "stopTime": "float"}, {}, ("in",), ("out", "err", "done"),
           run=_stop_at, sockets=_sockets({"stopTime": "float"}, ("out", "err", "done"))),
)
