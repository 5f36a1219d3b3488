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
from ..sim.errors import SimulationError

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
        except (GltfError, UsageError, SimulationError) as e:
            fail(str(e))
        except OSError as e:
            fail(f"{e.filename or ''}: {e.strerror or e}".lstrip(": "))
        except Exception as e:  # a bug, not bad input: still one line unless debugging
            if os.environ.get("GLTF_PHYSICS_DEBUG"):
                raise
            fail(f"internal error: {type(e).__name__}: {e}")
    return wrapper  # type: ignore[return-value]
