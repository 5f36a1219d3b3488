"""The `gltf-physics` command (DESIGN §4): a thin typer layer over the library, one module per command.

Every command turns expected failures (unreadable or unsafe input, bad options) into one line on stderr
naming the file and the JSON pointer or byte offset, and exit code 2. Set GLTF_PHYSICS_DEBUG=1 to see
tracebacks of unexpected errors.
"""

from __future__ import annotations

import sys

import typer

from . import convert, info, simulate, validate, view

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="Read, validate, convert and simulate physics in glTF files.")
# Registration order is the order `--help` lists the commands in.
app.command()(info.info)
app.command()(validate.validate)
app.command()(convert.convert)
app.command()(simulate.simulate)
app.command()(view.view)


def main() -> None:
    """Run the command line."""
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate in a name must print, not raise mid-output
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    app()


__all__ = ["app", "main"]
