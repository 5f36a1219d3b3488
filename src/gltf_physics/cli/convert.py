"""`gltf-physics convert`: lossless re-save, or conversion to the newest OMI or KHR form."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import UsageError, clean_errors


@clean_errors
def convert(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    dst: Annotated[Path, typer.Argument(metavar="OUT")],
    to: Annotated[str | None, typer.Option(help="Target family: omi or khr. Without it: lossless re-save.")] = None,
    report: Annotated[Path | None, typer.Option(help="Write the loss report (JSON) here.")] = None,
) -> None:
    """Re-save IN as OUT (.gltf or .glb by extension), or convert its physics to the newest OMI or KHR form."""
    from ..api import convert as convert_doc
    from ..api import load, save_converted
    from ..gltf.files import check_writable

    if dst.suffix.lower() not in (".gltf", ".glb"):
        raise UsageError(f"{dst}: OUT must end in .gltf or .glb")
    if to not in (None, "omi", "khr"):
        raise UsageError(f"--to must be omi or khr, not {to!r}")
    check_writable(dst, "OUT")
    if report is not None:
        check_writable(report, "--report")
    doc = load(src)
    losses: list[dict[str, str]] = []
    if to is not None:
        doc, losses = convert_doc(doc, to=to)
    save_converted(doc, dst, report, source=src, target=to, losses=losses)  # both files, or neither
