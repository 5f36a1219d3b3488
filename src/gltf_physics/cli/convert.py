"""`gltf-physics convert`: lossless re-save, or conversion to the newest OMI or KHR form."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import clean_errors, out
from .options import choice, suffix


@clean_errors
def convert(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    dst: Annotated[Path, typer.Argument(metavar="OUT")],
    to: Annotated[str | None, typer.Option(
        metavar="omi|khr", help="Target family: omi or khr. Without it: a lossless re-save.")] = None,
    report: Annotated[Path | None, typer.Option(metavar="FILE.json",
                                                help="Write the loss report (JSON) here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
) -> None:
    """Re-save IN as OUT (.gltf or .glb by extension), or convert its physics to the newest OMI or KHR form.

    Example: gltf-physics convert scene.glb scene.khr.gltf --to khr --report losses.json
    """
    from ..api import convert as convert_doc
    from ..api import load, read_scene, save, write_loss_report
    from .messages import convert_summary

    suffix("OUT", dst, [".gltf", ".glb"], "the output")
    if to is not None:
        choice("--to", to, ["omi", "khr"])
    doc = load(src)
    scene = read_scene(doc)
    losses: list[dict[str, str]] = []
    if to is not None:
        doc, losses = convert_doc(doc, to=to)  # type: ignore[arg-type]  # checked above
    save(doc, dst)
    if report is not None:
        write_loss_report(report, source=src, target=to, losses=losses)
    if not quiet:
        for line in convert_summary(src, dst, to, scene, losses, report):
            out.print(line)
