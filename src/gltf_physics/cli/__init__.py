"""The `gltf-physics` command (DESIGN §4): a thin typer layer over the library, one module per command.

Every command turns expected failures (unreadable or unsafe input, bad options) into one line on stderr
naming the file and the JSON pointer or byte offset, and exit code 2. Set GLTF_PHYSICS_DEBUG=1 to see
tracebacks of unexpected errors.
"""

from __future__ import annotations

import os
import sys

# Before anything imports numpy: OpenBLAS would start a thread per core at import (~0.13 s CPU on every
# command, measured by bench/cli.py) for arrays of a few rows; a user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import typer
from typer._click.exceptions import UsageError as ClickUsageError  # typer 0.26–0.28 carries its own click

from . import batch, common, compare, convert, info, simulate, sweep, validate, view

# Plain help text: typer's rich-formatted help imports rich.markdown and markdown-it (~0.1 s CPU), a third of
# the `--help` start-up budget (issue 14: ≤ 0.25 s).
app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Read, validate, convert and simulate physics in glTF files "
                       "(OMI_physics_* and KHR_physics_rigid_bodies, every generation).")
app.callback()(common.top_level)
# Registration order is the order `--help` lists the commands in.
app.command()(info.info)
app.command()(validate.validate)
app.command()(convert.convert)
app.command()(simulate.simulate)
app.command()(view.view)
app.command()(compare.compare)
app.add_typer(batch.app, name="batch")
app.command()(sweep.sweep)


def main(argv: list[str] | None = None) -> None:
    """Run the command line; a usage error (bad or missing option value) is one line on stderr, exit 2."""
    from .options import usage_line

    for stream in (sys.stdout, sys.stderr):  # a lone surrogate in a name must print, not raise mid-output
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    args = sys.argv[1:] if argv is None else argv
    try:
        code = typer.main.get_command(app).main(args=args, prog_name="gltf-physics", standalone_mode=False)
    except ClickUsageError as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # bare `gltf-physics`: the help, as click shows it
            e.show()
            raise SystemExit(0) from None
        sys.stderr.write(usage_line(e, args) + "\n")
        raise SystemExit(2) from None
    except typer.Abort:
        raise SystemExit(130) from None
    raise SystemExit(code if isinstance(code, int) else 0)


__all__ = ["app", "main"]
