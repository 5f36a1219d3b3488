"""`gltf-physics validate`: the validator report of files, or of every .gltf/.glb under a directory."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import clipped, fail

SUFFIXES = (".gltf", ".glb")


def validate(
    files: Annotated[list[Path], typer.Argument(metavar="FILE_OR_DIR...")],
    fmt: Annotated[str, typer.Option("--format", metavar="text|json",
                                     help="Report format: text (one line per message) or json.")] = "text",
    strict: Annotated[bool, typer.Option(help="Warnings fail too (exit 1).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Text: print only each file's verdict line (and the "
                                                              "total), not its messages.")] = False,
) -> None:
    """Check every physics rule of the specifications; exit 0 valid, 1 errors (or warnings with --strict), 2 unreadable.

    A directory is searched recursively for .gltf and .glb files, and a total line follows.

    Example: gltf-physics validate scene.glb assets/ --strict
    """
    from ..validation import validate_file
    from .messages import strict_failure, validate_total

    if fmt not in ("text", "json"):
        fail(f"--format {fmt}: expected text or json")
    paths = list(_expand(files))
    if not paths:
        fail(f"{', '.join(map(str, files))}: no .gltf or .glb files found")
    reports = [validate_file(f) for f in paths]
    if fmt == "json":
        body: Any = reports[0].to_dict() if len(reports) == 1 and not files[0].is_dir() else [
            r.to_dict() for r in reports]
        sys.stdout.write(json.dumps(body, indent=2) + "\n")
    else:
        lines = []
        for r in reports:
            if r.unreadable:  # an unreadable file is an error of the command: its one line goes to stderr
                sys.stderr.write(clipped(r.to_text().split("\n", 1)[0]) + "\n")
                continue
            text = r.to_text().rstrip("\n")
            lines.append(text.rsplit("\n", 1)[-1] if quiet else text)  # the verdict is the last line
            if strict and not r.num_errors and r.num_warnings:
                lines.append(strict_failure(r.uri, r.num_warnings))
        if len(reports) > 1 or any(f.is_dir() for f in files):
            lines.append(validate_total(reports, strict))
        if lines:
            sys.stdout.write("\n".join(lines) + "\n")
    raise typer.Exit(max(r.exit_code(strict) for r in reports))


def _expand(paths: list[Path]) -> Iterator[Path]:
    """Files as given; directories walked recursively (sorted) for .gltf and .glb files."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())
        else:
            yield path
