"""What every command shares: the error handler (one line on stderr, exit 2) and the console."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

# Piped or redirected output is never wrapped (rich would break file names mid-word at 80 columns); on a
# terminal, lines are left for the terminal to wrap (soft_wrap) and tables fit its width.
out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 100_000)
F = TypeVar("F", bound=Callable[..., Any])


try:  # recent typer carries its own copy of click; its parse errors are that copy's UsageError
    from typer._click.exceptions import UsageError as ClickUsageError
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click.exceptions import UsageError as ClickUsageError  # noqa: F401


def _print_version(value: bool) -> None:
    if value:
        from .. import __version__

        out.print(f"gltf-physics {__version__}")
        raise typer.Exit(0)


def top_level(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_print_version,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Read, validate, convert and simulate physics in glTF files.

    Example: gltf-physics validate scene.glb && gltf-physics view scene.glb
    """


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
