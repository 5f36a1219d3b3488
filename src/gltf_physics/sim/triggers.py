"""Trigger enter/exit bookkeeping (docs/semantics.md, docs/semantics.md).

The engine reports overlaps per collider pair; a trigger node (a compound trigger counts as its own node,
once) and the node it reports (the other body's node, or the collider node when static) may touch through
several pairs. ``enter`` is emitted when the first pair starts, ``exit`` when the last one stops.
"""

from __future__ import annotations

from typing import Any


class OverlapCounter:
    """Enter/exit events from overlapping shape pairs: a key (trigger, other) enters when its first pair starts
    and exits when its last one stops; ``state``/``restore`` for snapshots. Subclasses say what a key is."""

    def __init__(self) -> None:
        self.counts: dict[tuple[int, int], int] = {}
        self.events: list[dict[str, Any]] = []

    def _count(self, time: float, key: tuple[int, int], started: bool, fields: dict[str, Any]) -> None:
        """One pair of ``key`` starting (``started``) or stopping to overlap; ``fields`` follow time and event in
        an emitted event."""
        n = self.counts.get(key, 0)
        if started:
            self.counts[key] = n + 1
            if n == 0:
                self.events.append({"time": time, "event": "enter", **fields})
        elif n > 0:
            if n == 1:
                del self.counts[key]
                self.events.append({"time": time, "event": "exit", **fields})
            else:
                self.counts[key] = n - 1

    def state(self) -> tuple[dict[tuple[int, int], int], int]:
        """The bookkeeping now, for :meth:`restore`."""
        return dict(self.counts), len(self.events)

    def restore(self, state: tuple[dict[tuple[int, int], int], int]) -> None:
        """Back to a :meth:`state`."""
        counts, n = state
        self.counts = dict(counts)
        del self.events[n:]


class TriggerTracker(OverlapCounter):
    """The World's trigger events per (trigger node, reported node): ``{"time", "event", "trigger", "node"}``."""

    def update(self, time: float, trigger: int, node: int, started: bool) -> None:
        """Count one shape pair starting (``started``) or stopping to overlap."""
        self._count(time, (trigger, node), started, {"trigger": trigger, "node": node})
