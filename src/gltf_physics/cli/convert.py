"""`gltf-physics convert`: lossless re-save, conversion to the newest OMI or KHR form, or OpenUSD out and in."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import UsageError, clean_errors

_USD = (".usd", ".usda", ".usdc")


@clean_errors
def convert(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    dst: Annotated[Path, typer.Argument(metavar="OUT")],
    to: Annotated[str | None, typer.Option(help="Target family: omi or khr. Without it: lossless re-save. "
                                                "Required when IN is USD.")] = None,
    report: Annotated[Path | None, typer.Option(help="Write the loss report (JSON) here.")] = None,
) -> None:
    """Re-save IN as OUT (.gltf or .glb by extension), convert its physics to the newest OMI or KHR form, or
    convert to / from OpenUSD UsdPhysics (OUT or IN .usda/.usdc/.usd; needs the extra: pip install
    'gltf-physics[usd]')."""
    from ..api import convert as convert_doc
    from ..api import load, save, write_loss_report

    if to not in (None, "omi", "khr"):
        raise UsageError(f"--to must be omi or khr, not {to!r}")
    if src.suffix.lower() in _USD or dst.suffix.lower() in _USD:
        return _usd(src, dst, to, report)
    if dst.suffix.lower() not in (".gltf", ".glb"):
        raise UsageError(f"{dst}: OUT must end in .gltf, .glb, .usda, .usdc or .usd")
    doc = load(src)
    losses: list[dict[str, str]] = []
    if to is not None:
        doc, losses = convert_doc(doc, to=to)
    save(doc, dst)
    if report is not None:
        write_loss_report(report, source=src, target=to, losses=losses)
    return None


def _usd(src: Path, dst: Path, to: str | None, report: Path | None) -> None:
    """glTF → USD (OUT .usd*) or USD → glTF (IN .usd*, with --to)."""
    from ..api import load, save, write_loss_report
    from ..formats import usd

    try:
        if dst.suffix.lower() in _USD:
            if src.suffix.lower() in _USD:
                raise UsageError(f"{src}: USD → USD is not a conversion; IN must be .gltf or .glb")
            if to is not None:
                raise UsageError("--to names a glTF family; it does not apply to USD output")
            losses = usd.to_usd(load(src), dst)
            target = "usd"
        else:
            if dst.suffix.lower() not in (".gltf", ".glb"):
                raise UsageError(f"{dst}: OUT must end in .gltf or .glb when IN is USD")
            if to is None:
                raise UsageError(f"{src}: reading USD needs --to khr or --to omi (the glTF physics family to write)")
            doc, losses = usd.usd_to_gltf(src, to)
            save(doc, dst)
            target = to
    except usd.MissingExtraError as exc:
        raise UsageError(str(exc)) from None
    if report is not None:
        write_loss_report(report, source=src, target=target, losses=losses)
