"""`gltf-physics blender-extension`: the Blender add-on as an extension zip (drag it onto Blender 4.2+)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import UsageError, clean_errors, out
from .options import suffix


@clean_errors
def blender_extension(
    out_file: Annotated[Path, typer.Argument(metavar="OUT.zip", help="The extension zip to write.")],
    platforms: Annotated[list[str] | None, typer.Option(
        "--platform", metavar="P", help="A Blender platform to carry wheels for: linux-x64, linux-arm64, "
        "windows-x64, macos-arm64, macos-x64 (repeatable; default: this machine's).")] = None,
    wheels: Annotated[Path | None, typer.Option(
        "--wheels", metavar="DIR", help="A folder with the dependency wheels (else pip fetches them).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
) -> None:
    """Write the Blender add-on (glTF import/export with physics) as a Blender 4.2+ extension zip.

    \b
    Example: gltf-physics blender-extension gltf_physics.zip --platform linux-x64 --platform windows-x64
    """
    from ..blender.extension import ExtensionError, build

    suffix("OUT.zip", out_file, [".zip"], "the extension")
    if wheels is not None and not wheels.is_dir():
        raise UsageError(f"--wheels {wheels}: not a folder")
    try:
        made = build(out_file, tuple(platforms or ()), wheels)
    except ExtensionError as e:
        raise UsageError(f"{out_file}: {e}") from None
    if not quiet:
        out.print(f"wrote {out_file} ({len(made.wheels)} wheels: {', '.join(Path(w).name for w in made.wheels)})")
