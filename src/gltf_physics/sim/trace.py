"""Trace CSV and events JSONL writers (DESIGN §4).

Trace: header exactly ``time,node,name,tx,ty,tz,qx,qy,qz,qw``, a row per body at t = 0 and after every step.
Deterministic formatting: ``time`` is ``repr`` of the float64 time (step / rate), pose values are ``%.9g``
of the engine's float32 values (nine significant digits round-trip a float32 exactly). Names are quoted
(RFC 4180) when they hold a comma, a quote or a line break. A body whose pose did not change since the
previous frame (asleep) reuses its formatted row, which keeps writing fast for settled scenes.
Events: one JSON object a line, ``{"time", "event", "trigger", "node"}``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ..gltf.files import Output, write_all
from .recording import Recording

HEADER = "time,node,name,tx,ty,tz,qx,qy,qz,qw\n"
_ROW = "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n"
_ORDER = [4, 5, 6, 0, 1, 2, 3]  # recording layout (q, t) → trace columns (t, q)


def csv_field(text: str) -> str:
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def trace_text(rec: Recording) -> str:
    out = io.StringIO()
    out.write(HEADER)
    prefixes = [f",{int(n)},{csv_field(name)}," for n, name in zip(rec.nodes, rec.names, strict=True)]
    rows = [""] * len(prefixes)
    poses = rec.poses
    previous = None
    for f in range(rec.count):
        frame = poses[f]
        changed = range(len(rows)) if previous is None else np.flatnonzero(np.any(frame != previous, axis=1))
        values = frame[:, _ORDER].astype(np.float64)
        for i in changed:
            rows[i] = prefixes[i] + _ROW % tuple(values[i].tolist())
        time = repr(float(rec.times[f]))
        out.write("".join([time + row for row in rows]))
        previous = frame
    return out.getvalue()


def events_text(events: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps({"time": e["time"], "event": e["event"], "trigger": e["trigger"],
                               "node": e["node"]}) + "\n" for e in events)


def write_trace(rec: Recording, path: str | Path) -> None:
    """Write the trace CSV atomically (temporary file, then rename)."""
    write_all([Output(Path(path), [trace_text(rec).encode()])])


def write_events(events: Iterable[dict[str, Any]], path: str | Path) -> None:
    write_all([Output(Path(path), [events_text(events).encode()])])
