"""`gltf-physics validate`: the validator report of one or more files."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import clipped, fail


def validate(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...")],
    fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
    strict: Annotated[bool, typer.Option(help="Warnings fail too (exit 1).")] = False,
) -> None:
    """Check every physics rule of the spec digest; exit 0 valid, 1 errors (or warnings with --strict), 2 unreadable."""
    from ..validate import validate_file

    if fmt not in ("text", "json"):
        fail(f"--format must be text or json, not {fmt!r}")
    reports = [validate_file(f) for f in files]
    if fmt == "json":
        body: Any = reports[0].to_dict() if len(reports) == 1 else [r.to_dict() for r in reports]
        sys.stdout.write(json.dumps(body, indent=2) + "\n")
    else:
        for r in reports:  # an unreadable file is an error of the command: its one line goes to stderr
            if r.unreadable:
                sys.stderr.write(clipped(r.to_text().split("\n", 1)[0]) + "\n")
            else:
                sys.stdout.write(r.to_text().rstrip("\n") + "\n")
    raise typer.Exit(max(r.exit_code(strict) for r in reports))
