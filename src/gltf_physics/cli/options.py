"""Option checks shared by the commands: each bad value is named in one line, with what was expected.

``UsageError`` messages always start with the option as typed (``--duration``), then the value given, then
what it must be, so a newcomer sees which of several options is wrong (issue 15 item 5). Usage errors that
click finds while parsing (a missing value, a non-number) are reworded the same way by :func:`usage_line`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .common import UsageError

# What each option takes, for click's parse errors (which only say "invalid value").
EXPECTS = {
    "--gravity": "three numbers X Y Z in m/s², e.g. --gravity 0 -1.62 0",
    "--duration": "a number of seconds ≥ 0, e.g. --duration 2.5",
    "--rate": "a number of steps per second > 0, e.g. --rate 120",
    "--substeps": "a whole number ≥ 1, e.g. --substeps 4",
    "--simulate": "a number of seconds ≥ 0 (0: a static page), e.g. --simulate 10",
}


def number(value: float) -> str:
    """A number as a user typed it: 2 not 2.0, never -0."""
    value = value + 0.0  # -0.0 + 0.0 is 0.0
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def at_least(option: str, value: float, low: float, what: str, *, strictly: bool = False) -> None:
    """Raise UsageError unless ``value`` is ≥ ``low`` (> with ``strictly``) and finite."""
    ok = math.isfinite(value) and (value > low if strictly else value >= low)
    if not ok:
        relation = ">" if strictly else "≥"
        raise UsageError(f"{option} {number(value)}: {what} must be {relation} {number(low)}")


def suffix(option: str, path: Path, allowed: Sequence[str], what: str) -> None:
    """Raise UsageError unless ``path`` ends in one of ``allowed`` (lower-case, with the dot)."""
    if path.suffix.lower() not in allowed:
        raise UsageError(f"{option} {path}: {what} must end in {one_of(allowed)}")


def choice(option: str, value: str, choices: Sequence[str]) -> None:
    """Raise UsageError unless ``value`` is one of ``choices``."""
    if value not in choices:
        raise UsageError(f"{option} {value}: expected {one_of(choices)}")


def one_of(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: a list as a sentence says it."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def usage_line(error: Any, argv: Sequence[str]) -> str:
    """One line for a click parse error (click's UsageError): the command, the option, the value given
    and what the option takes."""
    command = next((a for a in argv if not a.startswith("-")), "gltf-physics")  # the subcommand typed
    param = getattr(error, "param", None)
    opts = [o for o in getattr(param, "opts", []) if o.startswith("--")]
    option = opts[0] if opts else getattr(error, "option_name", None)  # BadOptionUsage names no param
    if option is not None and option in EXPECTS:
        return f"{command}: {_given(option, argv)}: expected {EXPECTS[option]}"
    message = error.format_message().replace("\n", " ").rstrip(".")
    return f"{command}: {message} (see `gltf-physics {command} --help`)"


def _given(option: str, argv: Sequence[str]) -> str:
    """The option and the values that followed it on the command line (up to three)."""
    args = list(argv)
    if option not in args:
        return option
    start = args.index(option) + 1
    count = 3 if option == "--gravity" else 1
    return " ".join([option, *args[start:start + count]])
