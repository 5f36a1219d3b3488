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
    to: Annotated[str | None, typer.Option(
        help="Target: omi or khr (OUT .gltf/.glb), mjcf (OUT .xml). Without it: lossless re-save.")] = None,
    report: Annotated[Path | None, typer.Option(help="Write the loss report (JSON) here.")] = None,
) -> None:
    """Re-save IN as OUT (.gltf or .glb by extension), or convert its physics to the newest OMI or KHR form."""
    from ..api import convert as convert_doc
    from ..api import load, save_converted
    from ..gltf.files import check_writable

    check_writable(dst, "OUT")
    if report is not None:
        check_writable(report, "--report")
    if to == "mjcf" or dst.suffix.lower() == ".xml":
        _to_mjcf(src, dst, to, report)
        return
    if dst.suffix.lower() not in (".gltf", ".glb"):
        raise UsageError(f"{dst}: OUT must end in .gltf or .glb")
    if to not in (None, "omi", "khr"):
        raise UsageError(f"--to must be omi or khr, not {to!r}")
    doc = load(src)
    losses: list[dict[str, str]] = []
    if to is not None:
        doc, losses = convert_doc(doc, to=to)
    save_converted(doc, dst, report, source=src, target=to, losses=losses)  # both files, or neither


def _to_mjcf(src: Path, dst: Path, to: str | None, report: Path | None) -> None:
    """IN's physics as MuJoCo MJCF (formats/mjcf.py); the losses go to --report."""
    from ..api import load, loss_report_output, read_scene
    from ..formats.mjcf import to_mjcf
    from ..gltf.files import Output, write_all

    if to != "mjcf" or dst.suffix.lower() != ".xml":
        raise UsageError(f"{dst}: MJCF output needs OUT ending in .xml and --to mjcf")
    scene = read_scene(load(src))
    result = to_mjcf(scene, model_name=src.stem)
    settled = [{"code": n.code, "pointer": n.pointer, "message": f"read leniently: {n.message}"} for n in scene.notes]
    outputs = [Output(dst, [result.xml.encode("utf-8")])]
    if report is not None:
        outputs.append(loss_report_output(report, source=src, target="mjcf", losses=settled + result.losses))
    write_all(outputs)  # both files, or neither
