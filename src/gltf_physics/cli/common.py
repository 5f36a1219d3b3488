"""What every command shares: the error handler (one line on stderr, exit 2) and the console."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer
from rich.console import Console

from ..gltf.errors import GltfError
from ..sim.errors import SimulationError, first_line

out = Console(highlight=False)
F = TypeVar("F", bound=Callable[..., Any])


class UsageError(Exception):
    """A bad option value: reported like unreadable input (exit 2)."""


LINE_LIMIT = 2000  # characters: a hostile file cannot turn an error line into megabytes of stderr


def fail(message: str) -> None:
    """Print one line on stderr (cut to ``LINE_LIMIT`` characters) and exit 2."""
    sys.stderr.write(clipped(message) + "\n")
    raise typer.Exit(2)


def clipped(message: str) -> str:
    """``message`` as one printable line of at most ``LINE_LIMIT`` characters."""
    line = message.replace("\r", " ").replace("\n", " ")
    if len(line) > LINE_LIMIT:
        line = line[: LINE_LIMIT - 1] + "…"
    return line.encode("utf-8", "backslashreplace").decode("utf-8")  # a lone surrogate cannot reach stderr


def clean_errors(func: F) -> F:
    """Turn expected failures into one line on stderr and exit 2 (GLTF_PHYSICS_DEBUG=1 shows tracebacks).

    Lines about the run (simulation errors, bugs, engine panics) start with the input file's name. A Rust
    panic (``pyo3_runtime.PanicException``) is a ``BaseException``, so the net here is ``BaseException``
    minus the ways out a user or the interpreter asks for.
    """
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort, KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        except (GltfError, UsageError) as e:
            fail(str(e))
        except SimulationError as e:
            fail(_named(kwargs, str(e)))
        except OSError as e:
            fail(f"{e.filename or ''}: {e.strerror or e}".lstrip(": "))
        except BaseException as e:  # a bug or an engine panic, not bad input: still one line unless debugging
            if os.environ.get("GLTF_PHYSICS_DEBUG"):
                raise
            fail(_named(kwargs, f"internal error: {type(e).__name__}: {first_line(str(e))}"))
    return wrapper  # type: ignore[return-value]


def _named(kwargs: dict[str, Any], message: str) -> str:
    """``IN: message`` when the command has an input file argument (``src`` or ``file``)."""
    source = kwargs.get("src", kwargs.get("file"))
    return f"{source}: {message}" if source is not None else message
