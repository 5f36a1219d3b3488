"""The `gltf-physics` command (docs/cli.rst): a thin typer layer over the library, one module per command.

Every command turns expected failures (unreadable or unsafe input, bad options) into one line on stderr
naming the file and the JSON pointer or byte offset, and exit code 2. Set GLTF_PHYSICS_DEBUG=1 to see
tracebacks of unexpected errors.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable
from typing import Any

# Before anything imports numpy: OpenBLAS would start a thread per core at import (~0.13 s CPU on every
# command, measured by bench/cli.py) for arrays of a few rows; a user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import typer

from ..lazy import listing
from . import common

_USAGE = 2  # click's exit code for a usage error (a bad, missing or unknown option or argument)

# Every command, in the order `--help` lists them; each lives in the module of its name (cli/<name>.py).
COMMANDS = ("info", "validate", "convert", "simulate", "view", "plot", "compare", "batch", "sweep", "add",
            "cluster", "blender-extension")


def build_app(names: Iterable[str] = COMMANDS) -> typer.Typer:
    """The typer app with the commands ``names`` (all by default)."""
    # Plain help text: typer's rich-formatted help imports rich.markdown and markdown-it (~0.1 s CPU), a third of
    # the `--help` start-up budget (≤ 0.25 s).
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                      rich_markup_mode=None, help="Read, validate, convert and simulate physics in glTF files "
                      "(OMI_physics_* and KHR_physics_rigid_bodies, every generation).")
    app.callback()(common.top_level)
    for name in names:
        module = importlib.import_module(f".{name.replace('-', '_')}", __name__)  # blender-extension: _
        if name in ("batch", "cluster"):  # groups of subcommands
            app.add_typer(module.app, name=name)
        else:
            app.command()(getattr(module, name.replace("-", "_")))
    return app


def __getattr__(name: str) -> Any:
    # `from gltf_physics.cli import app` (typer.testing, embedding): the app with every command, built once.
    if name == "app":
        app = globals()["app"] = build_app()
        return app
    raise AttributeError(name)


def _commands_needed(args: list[str]) -> Iterable[str]:
    """Only the command named first on the command line: typer builds each registered command's parameters
    from its signature at start-up (~3 ms CPU a command), and its module is imported for that. Anything else
    (the top-level `--help` or `--version`, no command, a mistyped one) gets every command, as click lists or
    suggests them."""
    return args[:1] if args[:1] and args[0] in COMMANDS else COMMANDS


def main(argv: list[str] | None = None) -> None:
    """Run the command line; a usage error (bad or missing option value) is one line on stderr, exit 2."""
    from ..gcpause import promoting
    from .options import usage_line

    for stream in (sys.stdout, sys.stderr):  # a lone surrogate in a name must print, not raise mid-output
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    args = sys.argv[1:] if argv is None else argv
    try:
        command = typer.main.get_command(build_app(_commands_needed(args)))
        with promoting():  # the command owns its process: big reads leave no young objects to sweep again
            code = command.main(args=args, prog_name="gltf-physics", standalone_mode=False)
    except typer.TyperException as e:  # typer's own click raises its errors as these; usage errors exit with 2
        if e.exit_code != _USAGE:
            raise
        if type(e).__name__ == "NoArgsIsHelpError":  # bare `gltf-physics`: the help, as click shows it
            e.show()
            raise SystemExit(0) from None
        sys.stderr.write(usage_line(e, args, COMMANDS) + "\n")
        raise SystemExit(2) from None
    except typer.Abort:
        raise SystemExit(130) from None
    raise SystemExit(code if isinstance(code, int) else 0)


__all__ = ["COMMANDS", "app", "build_app", "main"]
__dir__ = listing(__name__, __all__)
