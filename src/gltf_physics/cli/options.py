"""Option checks shared by the commands: each bad value is named in one line, with what was expected.

``UsageError`` messages always start with the option as typed (``--duration``), then the value given, then
what it must be, so a newcomer sees which of several options is wrong. Usage errors that
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

# What the [scale] extra brings (batch, sweep), imported before a run starts so that its absence is one line.
SCALE_MODULES = ("pyarrow", "dask", "distributed")


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


def run_options(duration: float, rate: float, substeps: int) -> None:
    """The checks of a run's options (``batch simulate``, ``sweep``), as `simulate` words them."""
    at_least("--duration", duration, 0, "the run's length in seconds")
    at_least("--rate", rate, 0, "the step rate in Hz", strictly=True)
    at_least("--substeps", substeps, 1, "the number of solver substeps")


def workers(count: int | None, scheduler: str | None) -> None:
    """``--workers`` is a count ≥ 1 of local processes, which a ``--scheduler`` (a cluster of its own) excludes."""
    if count is None:
        return
    at_least("--workers", count, 1, "the number of worker processes")
    if scheduler is not None:
        raise UsageError(f"--workers {count}: excludes --scheduler (the cluster there has its own workers)")


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


def usage_line(error: Any, argv: Sequence[str], commands: Sequence[str] = ()) -> str:
    """One line for a click parse error (click's UsageError), in the form of every other error line:
    ``SUBJECT: what is wrong`` (the option and the value given, the missing argument, the mistyped command),
    then, unless the line says all, where the command's options are listed. ``commands``: the top-level
    command names (a mistyped one gets the closest as a suggestion)."""
    typed = _typed_command(argv)
    help_of = " ".join(["gltf-physics", *typed, "--help"])
    message = error.format_message().replace("\n", " ").rstrip(".")
    if message.startswith("No such command"):
        return _no_such_command(argv, typed, commands)
    param = getattr(error, "param", None)
    opts = [o for o in getattr(param, "opts", []) if o.startswith("--")]
    option = opts[0] if opts else getattr(error, "option_name", None)  # BadOptionUsage names no param
    if option is not None and option in EXPECTS:
        return f"{_given(option, argv)}: expected {EXPECTS[option]}"
    kind = type(error).__name__
    if kind == "NoSuchOption":
        import difflib  # here: only an error line needs it

        near = difflib.get_close_matches(error.option_name, list(getattr(error, "possibilities", None) or []), 1)
        hint = f"; did you mean {near[0]}?" if near else ""
        return f"{error.option_name}: no such option{hint} (see `{help_of}`)"
    if kind == "MissingParameter" and param is not None:
        if getattr(param, "param_type_name", "") == "argument":
            return f"{param.human_readable_name}: missing (a required argument; see `{help_of}`)"
        return f"{option or param.name}: missing (a required option; see `{help_of}`)"
    if kind == "BadOptionUsage" and option is not None and "requires an argument" in message:
        return f"{option}: needs a value (see `{help_of}`)"
    if option is not None:
        return f"{option}: {message} (see `{help_of}`)"
    return f"{message} (see `{help_of}`)"


def _typed_command(argv: Sequence[str]) -> list[str]:
    """The command (and a batch subcommand) as typed, up to the first option or argument that is neither."""
    words = [a for a in argv if not a.startswith("-")]
    return words[:2] if words[:1] == ["batch"] else words[:1]


def _no_such_command(argv: Sequence[str], typed: list[str], commands: Sequence[str]) -> str:
    """``simulte: no such command; did you mean simulate? (see `gltf-physics --help`)``."""
    import difflib

    from ..scale.tasks import COMMANDS as BATCH_COMMANDS  # no Dask: the runner's own list

    if typed[:1] == ["batch"] and len(typed) > 1:
        name, known, where = typed[1], list(BATCH_COMMANDS), "gltf-physics batch --help"
        what = "no such batch command"
    else:
        name, known, where = (typed[0] if typed else ""), list(commands), "gltf-physics --help"
        what = "no such command"
    near = difflib.get_close_matches(name, known, 1)
    hint = f"; did you mean {near[0]}?" if near else ""
    return f"{name}: {what}{hint} (see `{where}`)"


def _given(option: str, argv: Sequence[str]) -> str:
    """The option and the values that followed it on the command line (up to three)."""
    args = list(argv)
    if option not in args:
        return option
    start = args.index(option) + 1
    count = 3 if option == "--gravity" else 1
    return " ".join([option, *args[start:start + count]])
