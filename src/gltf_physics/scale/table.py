"""Batch result tables: the Arrow schema per command, writing Parquet or JSON lines atomically, and the journal.

The journal (``<out>.partial.jsonl``) receives each row as soon as its asset finishes, so that an interrupted
batch keeps what it did and ``--resume`` can skip it; the final table is written once, at the end, sorted by
path (the same bytes whatever the worker count or completion order), and the journal is then removed.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..gltf.files import Output, write_all
from .tasks import FIGURES

if TYPE_CHECKING:
    import pyarrow as pa

# pyarrow is imported where a table is made or read, not with this module: importing it starts a thread, and a
# small batch forks its runner from a process that must still have only one (:func:`.isolation.can_fork`).
COMMON = [("path", "str"), ("command", "str"), ("status", "str"), ("reason", "str"), ("seconds", "float")]


def schema(command: str) -> pa.Schema:
    """``path, command, status, reason, seconds`` then the command's figures (null in failed rows)."""
    import pyarrow as pa

    types = {"int": pa.int64(), "float": pa.float64(), "str": pa.string(), "strs": pa.list_(pa.string())}
    return pa.schema([(name, types[kind]) for name, kind in [*COMMON, *FIGURES[command].items()]])


def to_table(rows: list[dict[str, Any]], command: str) -> pa.Table:
    """Rows (any order) as a table sorted by path."""
    import pyarrow as pa

    ordered = sorted(rows, key=lambda r: r["path"])
    return pa.Table.from_pylist([{**r, "command": command} for r in ordered], schema=schema(command))


def table_rows(rows: list[dict[str, Any]], command: str) -> list[dict[str, Any]]:
    """Rows (any order) as :func:`to_table` then ``to_pylist`` give them, without pyarrow: sorted by path, every
    column in schema order (absent ones null), values of the column's type."""
    kinds = dict([*COMMON, *FIGURES[command].items()])
    cast = {"int": int, "float": float, "str": str, "strs": list}
    out = []
    for row in sorted(rows, key=lambda r: r["path"]):
        full = {**row, "command": command}
        out.append({name: None if full.get(name) is None else cast[kind](full[name]) for name, kind in kinds.items()})
    return out


def write_rows(rows: list[dict[str, Any]], command: str, path: Path) -> None:
    """:func:`write_table` of the rows' table; JSON lines need no pyarrow (a small batch never imports it)."""
    if path.suffix.lower() == ".parquet":
        write_table(to_table(rows, command), path)
    else:
        write_all([Output(path, ["".join(json_line(r) for r in table_rows(rows, command)).encode()])])


def write_table(table: pa.Table, path: Path) -> None:
    """Parquet (``.parquet``) or JSON lines (anything else), atomically."""
    write_all([Output(path, [table_bytes(table, path)])])


def table_bytes(table: pa.Table, path: Path) -> bytes:
    """The file content of ``table`` in the format ``path``'s suffix names."""
    if path.suffix.lower() == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        return sink.getvalue().to_pybytes()
    return "".join(json_line(row) for row in table.to_pylist()).encode()


def json_line(row: dict[str, Any]) -> str:
    """One row as a JSON line (non-finite numbers as null: JSON has none)."""
    clean = {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in row.items()}
    return json.dumps(clean) + "\n"


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of an existing result table (Parquet or JSON lines)."""
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    return read_journal(path)


def journal_path(out: Path) -> Path:
    """Where rows go as they finish, beside the final table."""
    return out.with_name(out.name + ".partial.jsonl")


def read_journal(path: Path) -> list[dict[str, Any]]:
    """Complete lines of a journal; a last line cut by an interruption is dropped."""
    rows = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.endswith("\n"):
                rows.append(json.loads(line))
    return rows
