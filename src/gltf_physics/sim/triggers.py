"""Trigger enter/exit bookkeeping (docs/semantics.md, docs/semantics.md).

The engine reports overlaps per collider pair; a trigger node (a compound trigger counts as its own node,
once) and the node it reports (the other body's node, or the collider node when static) may touch through
several pairs. ``enter`` is emitted when the first pair starts, ``exit`` when the last one stops.
"""

from __future__ import annotations

from typing import Any


class TriggerTracker:
    def __init__(self) -> None:
        self.counts: dict[tuple[int, int], int] = {}
        self.events: list[dict[str, Any]] = []

    def update(self, time: float, trigger: int, node: int, started: bool) -> None:
        key = (trigger, node)
        n = self.counts.get(key, 0)
        if started:
            self.counts[key] = n + 1
            if n == 0:
                self.events.append({"time": time, "event": "enter", "trigger": trigger, "node": node})
        elif n > 0:
            self.counts[key] = n - 1
            if n == 1:
                del self.counts[key]
                self.events.append({"time": time, "event": "exit", "trigger": trigger, "node": node})

    def state(self) -> tuple[dict[tuple[int, int], int], int]:
        return dict(self.counts), len(self.events)

    def restore(self, state: tuple[dict[tuple[int, int], int], int]) -> None:
        counts, n = state
        self.counts = dict(counts)
        del self.events[n:]
