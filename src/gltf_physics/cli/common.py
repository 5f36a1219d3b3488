"""What every command shares: the error handler (one line on stderr, exit 2) and the console."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer
from rich.console import Console

out = Console(highlight=False)
F = TypeVar("F", bound=Callable[..., Any])


class UsageError(Exception):
    """A bad option value: reported like unreadable input (exit 2)."""


def fail(message: str) -> None:
    """Print one line on stderr and exit 2."""
    sys.stderr.write(message.replace("\n", " ") + "\n")
    raise typer.Exit(2)


def clean_errors(func: F) -> F:
    """Turn expected failures into one line on stderr and exit 2 (GLTF_PHYSICS_DEBUG=1 shows tracebacks)."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except Exception as e:
            _report(e)
    return wrapper  # type: ignore[return-value]


def _report(e: Exception) -> None:
    """One line on stderr for an expected failure, or for a bug unless GLTF_PHYSICS_DEBUG is set."""
    if isinstance(e, _expected_errors()):
        fail(str(e))
    if isinstance(e, OSError):
        fail(f"{e.filename or ''}: {e.strerror or e}".lstrip(": "))
    if os.environ.get("GLTF_PHYSICS_DEBUG"):
        raise e
    fail(f"internal error: {type(e).__name__}: {e}")  # a bug, not bad input: still one line unless debugging


def _expected_errors() -> tuple[type[Exception], ...]:
    """UsageError, and the library's error types of the layers already loaded. Looked up rather than imported:
    importing them would load numpy (gltf/) or the physics engine (sim/) into every command's start-up, and an
    error type whose module was never imported cannot have been raised."""
    found: list[type[Exception]] = [UsageError]
    for module, name in (("gltf.errors", "GltfError"), ("sim.errors", "SimulationError")):
        loaded = sys.modules.get(f"{_PACKAGE}.{module}")
        if loaded is not None:
            found.append(getattr(loaded, name))
    return tuple(found)


_PACKAGE = __name__.rsplit(".", 2)[0]  # "gltf_physics"
