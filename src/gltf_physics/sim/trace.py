"""Trace CSV and events JSONL writers (docs/cli.rst).

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

from ..gltf.files import Output, OutputSet, write_all
from .recording import Recording
from .trace_writers import HEADER, csv_field, open_trace

_ROW = "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n"
_ORDER = [4, 5, 6, 0, 1, 2, 3]  # recording layout (q, t) → trace columns (t, q)


def trace_text(rec: Recording) -> str:
    """The whole trace CSV of a recorded run as one string."""
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
    """Events as JSON lines ``{"time", "event", "trigger", "node"}``; a behaviour graph's lines
    (``event`` ``"log"`` or ``"graph_error"``) as ``{"time", "event", "message", "pointer"}``."""
    return "".join(json.dumps({"time": e["time"], "event": e["event"], "trigger": e["trigger"], "node": e["node"]}
                              if "trigger" in e else
                              {"time": e["time"], "event": e["event"], "message": e["message"],
                               "pointer": e["pointer"]}) + "\n" for e in events)


def write_trace(rec: Recording, path: str | Path, every: int = 1) -> None:
    """Write a recorded run as a trace, atomically; the format by extension (.csv, .parquet, .npz).

    A long run need not be recorded first: ``simulate --trace`` streams the same formats as it runs
    (:mod:`.outputs`).
    """
    target = Path(path)
    with OutputSet() as files:
        writer = open_trace(target, files.stream(target), [int(n) for n in rec.nodes], rec.names,
                            frames=rec.count, every=every)
        for f in range(rec.count):
            writer.frame(float(rec.times[f]), rec.translations[f], rec.rotations[f])
        writer.close()
        files.commit()


def write_events(events: Iterable[dict[str, Any]], path: str | Path) -> None:
    """Write trigger events as JSON lines, atomically."""
    write_all([Output(Path(path), [events_text(events).encode("utf-8", "replace")])])
