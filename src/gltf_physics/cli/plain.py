"""Plain-text output for commands that print a short report and exit (`info`): no rich import.

Importing and running rich costs ~0.06 s CPU, a quarter of the start-up budget for `info` on a tiny file
(≤ 0.25 s). The layout is rich's borderless table (``box=None``): every cell padded by one space each side,
columns as wide as their widest cell counted in terminal cells (a CJK character takes two). Header and title
are bold on a terminal (ANSI, unless ``NO_COLOR`` is set or ``TERM=dumb``), plain when piped. Lines are never
wrapped: piped output stays one record per line, a terminal wraps what it must.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Sequence

_WIDE = frozenset("WF")  # East Asian wide and full-width: two terminal cells


def safe(text: str) -> str:
    """``text`` with what a terminal would act on or cannot encode spelled as escapes (``\\x1b``, ``\\ud800``):
    node names come from the file, and a hostile one must not move the cursor or end the output."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def cells(text: str) -> int:
    """Terminal cells ``text`` takes (wide characters two, combining marks none)."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in _WIDE else 1
               for c in text)


def bold(text: str) -> str:
    """``text`` in bold when stdout is a terminal that takes colour, else unchanged."""
    if not sys.stdout.isatty() or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return text
    return f"\x1b[1m{text}\x1b[0m"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of a borderless table: ``header`` (bold on a terminal) then ``rows``, columns left-aligned."""
    widths = [max(cells(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        return "".join(f" {cell}{' ' * (width - cells(cell))} " for cell, width in zip(row, widths, strict=True))

    return [bold(line(header)), *(line(row) for row in rows)]


def write(lines: Sequence[str]) -> None:
    """Print ``lines`` on stdout in one write."""
    sys.stdout.write("".join(f"{line}\n" for line in lines))
