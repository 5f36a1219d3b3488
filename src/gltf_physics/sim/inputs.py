"""Timed pointer changes for scripted runs (``simulate --inputs FILE.json``, docs/cli.rst).

The file is a JSON list of ``{"time": seconds ≥ 0, "pointer": "/glTF/Object/Model/pointer", "value": JSON}``.
A change takes effect at the first step boundary at or after its time (time 0: before the first step); changes
due at the same boundary apply in file order. :func:`load_inputs` checks the whole file first and raises
``ValueError`` naming the file and entry, so a bad file never starts a run.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..dialects.common import pointers
from .object_model import trs_target

_EPS = 1e-9  # a change at t = k/rate lands on step k despite float rounding of k/rate


@dataclass(frozen=True)
class TimedInput:
    time: float
    pointer: str
    value: Any


def parse_inputs(data: Any, source: str = "inputs") -> list[TimedInput]:
    if not isinstance(data, list):
        raise ValueError(f"{source}: expected a JSON list of {{time, pointer, value}} objects")
    out = []
    for k, item in enumerate(data):
        where = f"{source}: entry {k}"
        if not isinstance(item, dict) or set(item) != {"time", "pointer", "value"}:
            raise ValueError(f"{where}: expected exactly the keys time, pointer, value")
        t = item["time"]
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t < 0:
            raise ValueError(f"{where}: time must be a finite number ≥ 0, got {t!r}")
        if not isinstance(item["pointer"], str):
            raise ValueError(f"{where}: pointer must be a string")
        try:
            if trs_target(item["pointer"]) is None:  # node TRS moves a body's node (World.set)
                pointers.resolve(item["pointer"])
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
        out.append(TimedInput(float(t), item["pointer"], item["value"]))
    return sorted(out, key=lambda i: i.time)  # stable: equal times keep file order


def load_inputs(path: str | Path) -> list[TimedInput]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON ({e.msg} at line {e.lineno})") from None
    return parse_inputs(data, str(path))


class InputSchedule:
    """Applies each input through ``world.set`` once the world's time reaches it."""

    def __init__(self, inputs: list[TimedInput]) -> None:
        self.inputs = list(inputs)
        self.next = 0

    def apply_due(self, world: Any) -> None:
        while self.next < len(self.inputs) and self.inputs[self.next].time <= world.time + _EPS:
            item = self.inputs[self.next]
            world.set(item.pointer, item.value)
            self.next += 1
