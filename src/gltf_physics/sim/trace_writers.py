"""Pose traces streamed to disk while a run goes on (docs/cli.rst): CSV, Parquet or NPZ, chosen by extension.

A writer receives one frame at a time (``frame(time, translations, rotations)``) and writes it out through a
bounded buffer, so a long run's memory does not grow with its length. Every format carries the CSV header's
columns ``time,node,name,tx,ty,tz,qx,qy,qz,qw`` — a row per body per kept frame:

- ``.csv``: the text form (the default), formatted exactly as :func:`.trace.trace_text` formats it;
- ``.parquet``: one table with those columns (time float64, node int64, name string, pose float32 — the
  engine's own precision), written in row groups of about :data:`ROW_GROUP_ROWS` rows (needs pyarrow);
- ``.npz``: NumPy arrays ``time`` (F,), ``node`` (B,), ``name`` (B,), ``pose`` (F, B, 7) float32 in the order of
  ``columns`` = ``tx ty tz qx qy qz qw``; the pose array is streamed into the archive frame by frame, so the
  number of frames must be known when the writer is opened.

``every`` keeps one frame in ``every`` (t = 0 always kept): ``--trace-every N``.
"""

from __future__ import annotations

import contextlib
import io
import zipfile
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import numpy as np

from .errors import SimulationError

HEADER = "time,node,name,tx,ty,tz,qx,qy,qz,qw\n"


def csv_field(text: str) -> str:
    """A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break."""
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


FORMATS = (".csv", ".parquet", ".npz")
COLUMNS = ("tx", "ty", "tz", "qx", "qy", "qz", "qw")
ROW_GROUP_ROWS = 1 << 18
_ROW = "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n"


class TraceWriter(Protocol):
    """What a run feeds: one frame at a time, then ``close``."""

    def frame(self, time: float, translations: np.ndarray, rotations: np.ndarray) -> None:
        """Take the world poses of every body at ``time`` ((B, 3) translations, (B, 4) xyzw rotations)."""

    def close(self) -> None:
        """Write what is buffered and the format's trailer."""

    def discard(self) -> None:
        """Give up (the run failed): release what the writer holds; the file itself is removed by its owner."""


def check_trace_path(path: Path) -> None:
    """Refuse a trace path whose extension names no format (before any work)."""
    if path.suffix.lower() not in FORMATS:
        raise SimulationError(f"--trace {path}: the format is chosen by the extension: "
                              f"{', '.join(FORMATS)} (not {path.suffix or 'none'!r})")
    if path.suffix.lower() == ".parquet":
        _pyarrow()


def open_trace(path: Path, stream: BinaryIO, nodes: list[int], names: list[str], *,
               frames: int | None = None, every: int = 1) -> TraceWriter:
    """A writer for ``path``'s format writing into ``stream``; ``frames``: how many frames will be offered."""
    check_trace_path(path)
    kind = path.suffix.lower()
    writer: TraceWriter
    if kind == ".csv":
        writer = CsvTraceWriter(stream, nodes, names)
    elif kind == ".parquet":
        writer = ParquetTraceWriter(stream, nodes, names)
    else:
        if frames is None:
            raise SimulationError(f"--trace {path}: an .npz trace needs the number of frames up front")
        writer = NpzTraceWriter(stream, nodes, names, kept_frames(frames, every))
    return writer if every == 1 else Decimated(writer, every)


def kept_frames(frames: int, every: int) -> int:
    """How many of ``frames`` offered frames (t = 0 first) a writer keeping one in ``every`` writes."""
    return 0 if frames <= 0 else (frames - 1) // every + 1


class Decimated:
    """Keeps frames 0, every, 2·every, … of another writer's input."""

    def __init__(self, writer: TraceWriter, every: int) -> None:
        self.writer, self.every, self.seen = writer, every, 0

    def frame(self, time: float, translations: np.ndarray, rotations: np.ndarray) -> None:
        """Pass on one frame in ``every``."""
        if self.seen % self.every == 0:
            self.writer.frame(time, translations, rotations)
        self.seen += 1

    def close(self) -> None:
        """Close the wrapped writer."""
        self.writer.close()

    def discard(self) -> None:
        """Discard the wrapped writer."""
        self.writer.discard()


class CsvTraceWriter:
    """The CSV text form; a body whose pose did not change (asleep) reuses its formatted row."""

    def __init__(self, stream: BinaryIO, nodes: list[int], names: list[str]) -> None:
        self.stream = io.BufferedWriter(_Unclosing(stream), buffer_size=1 << 20)
        self.prefixes = [f",{int(n)},{csv_field(name)}," for n, name in zip(nodes, names, strict=True)]
        self.rows = [""] * len(nodes)
        self.previous: np.ndarray | None = None
        self.stream.write(HEADER.encode())

    def frame(self, time: float, translations: np.ndarray, rotations: np.ndarray) -> None:
        """Format and write one frame."""
        values = np.concatenate([translations, rotations], axis=1).astype(np.float32)
        if self.previous is None:
            changed: Any = range(len(self.rows))
        else:
            changed = np.flatnonzero(np.any(values != self.previous, axis=1))
        indices = list(changed)
        for i, row in zip(indices, values[indices].astype(np.float64).tolist(), strict=True):
            self.rows[i] = self.prefixes[i] + _ROW % tuple(row)
        stamp = repr(float(time))
        self.stream.write("".join([stamp + row for row in self.rows]).encode("utf-8", "replace"))
        self.previous = values

    def close(self) -> None:
        """Flush the buffer into the stream."""
        self.stream.flush()

    def discard(self) -> None:
        """Nothing to release: the buffer goes with the stream."""


class ParquetTraceWriter:
    """One Parquet table, a row group every :data:`ROW_GROUP_ROWS` rows or so."""

    def __init__(self, stream: BinaryIO, nodes: list[int], names: list[str]) -> None:
        pa, pq = _pyarrow()
        self.pa = pa
        self.nodes = np.asarray(nodes, dtype=np.int64)
        self.names = pa.array([_text(n) for n in names], pa.string())
        fields = [("time", pa.float64()), ("node", pa.int64()), ("name", pa.string())]
        self.schema = pa.schema(fields + [(c, pa.float32()) for c in COLUMNS])
        self.writer = pq.ParquetWriter(stream, self.schema)
        self.batch_frames = max(1, ROW_GROUP_ROWS // max(1, len(nodes)))
        self.times: list[float] = []
        self.poses: list[np.ndarray] = []

    def frame(self, time: float, translations: np.ndarray, rotations: np.ndarray) -> None:
        """Buffer one frame; write a row group when the buffer is full."""
        self.times.append(float(time))
        self.poses.append(np.concatenate([translations, rotations], axis=1).astype(np.float32))
        if len(self.times) >= self.batch_frames:
            self._flush()

    def _flush(self) -> None:
        if not self.times:
            return
        pa, count, bodies = self.pa, len(self.times), len(self.nodes)
        poses = np.stack(self.poses).reshape(count * bodies, 7)
        columns = [pa.array(np.repeat(np.asarray(self.times), bodies)), pa.array(np.tile(self.nodes, count)),
                   pa.concat_arrays([self.names] * count) if bodies else pa.array([], pa.string())]
        columns += [pa.array(np.ascontiguousarray(poses[:, k])) for k in range(7)]
        self.writer.write_table(pa.Table.from_arrays(columns, schema=self.schema))
        self.times, self.poses = [], []

    def close(self) -> None:
        """Write the last row group and the file footer."""
        self._flush()
        self.writer.close()

    def discard(self) -> None:
        """Close the Parquet writer now, so it does not try to finish a removed file when collected."""
        self.times, self.poses = [], []
        with contextlib.suppress(Exception):
            self.writer.close()


class NpzTraceWriter:
    """An ``.npz`` archive whose ``pose`` array is streamed in, frame by frame."""

    def __init__(self, stream: BinaryIO, nodes: list[int], names: list[str], frames: int) -> None:
        self.archive = zipfile.ZipFile(_Unclosing(stream), "w", zipfile.ZIP_STORED, allowZip64=True)
        self.nodes, self.names, self.frames = nodes, names, frames
        self.times: list[float] = []
        self.pose = self.archive.open("pose.npy", "w", force_zip64=True)
        header = {"descr": "<f4", "fortran_order": False, "shape": (frames, len(nodes), 7)}
        np.lib.format.write_array_header_2_0(self.pose, header)

    def frame(self, time: float, translations: np.ndarray, rotations: np.ndarray) -> None:
        """Append one frame's (B, 7) poses to the archive."""
        if len(self.times) == self.frames:
            raise SimulationError(f"the .npz trace was opened for {self.frames} frames; one more was offered")
        self.times.append(float(time))
        values = np.concatenate([translations, rotations], axis=1).astype("<f4")
        self.pose.write(np.ascontiguousarray(values).tobytes())

    def close(self) -> None:
        """Write the small arrays and the archive's directory."""
        if len(self.times) != self.frames:
            raise SimulationError(f"the .npz trace was opened for {self.frames} frames but got {len(self.times)}")
        self.pose.close()
        small = {"time": np.asarray(self.times, dtype=np.float64), "node": np.asarray(self.nodes, dtype=np.int64),
                 "name": np.asarray([_text(n) for n in self.names], dtype=str), "columns": np.asarray(COLUMNS)}
        for key, array in small.items():
            with self.archive.open(f"{key}.npy", "w") as member:
                np.lib.format.write_array(member, array, allow_pickle=False)
        self.archive.close()

    def discard(self) -> None:
        """Nothing to finish: the archive is abandoned with its file."""


class _Unclosing(io.RawIOBase):
    """A view of a binary stream that writes through but leaves closing to its owner (the OutputSet)."""

    def __init__(self, stream: BinaryIO) -> None:
        self.inner = stream

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self.inner.seekable()

    def write(self, data: Any) -> int:
        return self.inner.write(data)

    def tell(self) -> int:
        return self.inner.tell()

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.inner.seek(offset, whence)

    def flush(self) -> None:
        self.inner.flush()


def _text(name: str) -> str:
    """Names as valid text: a lone surrogate (which no UTF-8 file can hold) becomes ``?``."""
    return name.encode("utf-8", "replace").decode("utf-8")


def _pyarrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise SimulationError("Parquet traces need pyarrow: pip install 'gltf-physics[scale]'") from None
    return pa, pq
