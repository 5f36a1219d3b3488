"""What every command shares: the error handler (one line on stderr, exit 2) and the console."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:
    from rich.console import Console

F = TypeVar("F", bound=Callable[..., Any])


class _Stdout:
    """stdout's rich Console, made on first print: importing rich costs ~0.04 s CPU, which `--help`, `--json`
    output and error lines never need (start-up ≤ 0.25 s)."""

    _console: Console | None = None

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """``rich.console.Console.print`` on stdout."""
        if self._console is None:
            from rich.console import Console

            # Piped or redirected output is never wrapped (rich would break file names mid-word at 80 columns);
            # on a terminal, lines are left for the terminal to wrap (soft_wrap) and tables fit its width.
            self._console = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 100_000)
        self._console.print(*objects, **kwargs)


out = _Stdout()


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


LINE_LIMIT = 2000  # characters: a hostile file cannot turn an error line into megabytes of stderr


def fail(message: str) -> None:
    """Print one line on stderr (cut to ``LINE_LIMIT`` characters) and exit 2."""
    sys.stderr.write(clipped(message) + "\n")
    raise typer.Exit(2)


def require_extra(what: str, extra: str, modules: tuple[str, ...]) -> None:
    """Raise UsageError with the pip command when a module of an optional extra cannot be imported."""
    import importlib

    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as e:
            missing = e.name or name
            raise UsageError(f"{what} needs the [{extra}] extra ({missing} is not installed): "
                             f"pip install 'gltf-physics[{extra}]'") from None


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
        except (typer.Exit, typer.Abort, SystemExit, GeneratorExit):
            raise
        except KeyboardInterrupt:  # Ctrl-C before or after a run (during one, the run's progress says where)
            sys.stderr.write("interrupted\n")
            raise typer.Exit(130) from None
        except BaseException as e:
            _report(e, kwargs)
    return wrapper  # type: ignore[return-value]


def _report(e: BaseException, kwargs: dict[str, Any]) -> None:
    """One line on stderr for an expected failure, or for a bug or engine panic unless GLTF_PHYSICS_DEBUG is set.

    Lines about the run (simulation errors, bugs, engine panics) start with the input file's name. A Rust panic
    (``pyo3_runtime.PanicException``) is a ``BaseException``, so the net is ``BaseException`` minus the ways out
    a user or the interpreter asks for.
    """
    gltf_error, simulation_error = _loaded_error_types()
    if isinstance(e, UsageError):
        fail(str(e))
    if gltf_error is not None and isinstance(e, gltf_error):
        # A pointer into the input from a layer that never saw its path (a mesh's indices) is named after the
        # input; an error about an output (no pointer) says which output itself.
        named = getattr(e, "file", None) is None and getattr(e, "pointer", None) is not None
        fail(_named(kwargs, str(e)) if named else str(e))
    if simulation_error is not None and isinstance(e, simulation_error):
        fail(_named(kwargs, str(e)))
    if isinstance(e, OSError):
        fail(f"{e.filename or ''}: {e.strerror or e}".lstrip(": "))
    if os.environ.get("GLTF_PHYSICS_DEBUG"):
        raise e
    first = str(e).strip().split("\n", 1)[0][:200]
    fail(_named(kwargs, f"internal error: {type(e).__name__}: {first}"))


def _loaded_error_types() -> tuple[type[BaseException] | None, type[BaseException] | None]:
    """GltfError and SimulationError, if their layers are loaded. Looked up rather than imported: importing them
    would load numpy (gltf/) or the physics engine (sim/) into every command's start-up, and an error type whose
    module was never imported cannot have been raised."""
    found: list[type[BaseException] | None] = []
    for module, name in (("gltf.errors", "GltfError"), ("sim.errors", "SimulationError")):
        loaded = sys.modules.get(f"{_PACKAGE}.{module}")
        found.append(getattr(loaded, name) if loaded is not None else None)
    return found[0], found[1]


_PACKAGE = __name__.rsplit(".", 2)[0]  # "gltf_physics"


def _named(kwargs: dict[str, Any], message: str) -> str:
    """``IN: message`` when the command has an input file argument (``src`` or ``file``)."""
    source = kwargs.get("src", kwargs.get("file"))
    return f"{source}: {message}" if source is not None else message
