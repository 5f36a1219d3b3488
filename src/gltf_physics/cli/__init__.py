"""The `gltf-physics` command (DESIGN §4): a thin typer layer over the library, one module per command.

Every command turns expected failures (unreadable or unsafe input, bad options) into one line on stderr
naming the file and the JSON pointer or byte offset, and exit code 2. Set GLTF_PHYSICS_DEBUG=1 to see
tracebacks of unexpected errors.
"""

from __future__ import annotations

import typer

from . import batch, convert, info, simulate, sweep, validate, view

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="Read, validate, convert and simulate physics in glTF files.")
# Registration order is the order `--help` lists the commands in.
app.command()(info.info)
app.command()(validate.validate)
app.command()(convert.convert)
app.command()(simulate.simulate)
app.command()(view.view)
app.add_typer(batch.app, name="batch")
app.command()(sweep.sweep)


def main() -> None:
    """Run the command line."""
    app()


__all__ = ["app", "main"]
