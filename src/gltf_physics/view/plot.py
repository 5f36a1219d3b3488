"""`gltf-physics plot`: a body's height or speed over time, from a pose trace (``simulate --trace``).

The trace is read in any of its three formats (``.csv``, ``.parquet``, ``.npz``: the columns ``time, node, name,
tx … qw``, a row per body per kept frame) into one :class:`Trace`; the speed is the length of the position's
time derivative (central differences on the kept frames, one-sided at the ends). Drawn with matplotlib's Agg
canvas (no display).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..gltf.files import Output, write_all

QUANTITIES = {"height": ("height y (m)", "height"), "speed": ("speed (m/s)", "speed")}


class TraceError(ValueError):
    """A trace file that cannot be read: the message names the file and where."""


@dataclass
class Trace:
    """Every body's world positions over time: ``times`` (F,), ``nodes`` and ``names`` (B,), ``positions``
    (F, B, 3)."""

    times: np.ndarray
    nodes: list[int]
    names: list[str]
    positions: np.ndarray

    def column(self, node: int) -> int:
        """The body index of ``node`` (KeyError when the trace has no such body)."""
        return self.nodes.index(node)

    def series(self, node: int, quantity: str) -> np.ndarray:
        """``height`` (world y, m) or ``speed`` (m/s) of ``node`` at every time."""
        p = self.positions[:, self.column(node), :]
        if quantity == "height":
            return p[:, 1].copy()
        if len(self.times) < 2:
            return np.zeros(len(self.times))
        return np.linalg.norm(np.gradient(p, self.times, axis=0), axis=1)


def read_trace(path: Path) -> Trace:
    """A trace file by its extension; raises TraceError naming the file (and the line, for CSV)."""
    kind = path.suffix.lower()
    try:
        if kind == ".csv":
            return _from_rows(_csv_rows(path), path)
        if kind == ".npz":
            return _npz(path)
        if kind == ".parquet":
            return _parquet(path)
    except (OSError, KeyError, ValueError, IndexError) as e:
        if isinstance(e, TraceError):
            raise
        raise TraceError(f"{path}: not a pose trace ({type(e).__name__}: {e})") from None
    raise TraceError(f"{path}: a trace ends in .csv, .parquet or .npz")


def _csv_rows(path: Path) -> list[tuple[float, int, str, float, float, float]]:
    rows = []
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None or header[:6] != ["time", "node", "name", "tx", "ty", "tz"]:
            raise TraceError(f"{path}: line 1: expected the header time,node,name,tx,ty,tz,qx,qy,qz,qw")
        for row in reader:
            try:
                rows.append((float(row[0]), int(row[1]), row[2], float(row[3]), float(row[4]), float(row[5])))
            except (IndexError, ValueError):
                raise TraceError(f"{path}: line {reader.line_num}: expected time,node,name and seven numbers") from None
    return rows


def _from_rows(rows: list[tuple[float, int, str, float, float, float]], path: Path) -> Trace:
    """Rows (time, node, name, x, y, z) in frame order, every body in every frame."""
    nodes: list[int] = []
    names: list[str] = []
    for _, node, name, *_ in rows:
        if node in nodes:
            break
        nodes.append(node)
        names.append(name)
    if not nodes or len(rows) % len(nodes):
        raise TraceError(f"{path}: not every frame lists the same bodies")
    data = np.array([r[3:] for r in rows], dtype=float).reshape(-1, len(nodes), 3)
    times = np.array([r[0] for r in rows[:: len(nodes)]], dtype=float)
    return Trace(times, nodes, names, data)


def _npz(path: Path) -> Trace:
    with np.load(path, allow_pickle=False) as archive:
        pose = np.asarray(archive["pose"], dtype=float)
        return Trace(np.asarray(archive["time"], dtype=float), [int(n) for n in archive["node"]],
                     [str(n) for n in archive["name"]], pose[:, :, :3])


def _parquet(path: Path) -> Trace:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise TraceError("Parquet traces need pyarrow: pip install 'gltf-physics[scale]'") from None
    table = pq.read_table(path, columns=["time", "node", "name", "tx", "ty", "tz"]).to_pydict()
    rows = list(zip(table["time"], table["node"], table["name"], table["tx"], table["ty"], table["tz"], strict=True))
    return _from_rows(rows, path)


def plot_trace(trace: Trace, nodes: list[int], quantity: str, out: Path, title: str) -> Path:
    """Draw ``quantity`` of each of ``nodes`` over time and write ``out`` (PNG, SVG or PDF by extension)."""
    from matplotlib.figure import Figure  # Agg canvas via Figure: no pyplot, no display needed

    label, _ = QUANTITIES[quantity]
    fig = Figure(figsize=(8, 4.5), dpi=100)
    ax = fig.add_subplot()
    for node in nodes:
        name = trace.names[trace.column(node)]
        ax.plot(trace.times, trace.series(node, quantity), label=f"{name} (#{node})" if name else f"#{node}")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(label)
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=out.suffix.lower().lstrip("."))
    write_all([Output(out, (buf.getvalue(),))])
    return out
