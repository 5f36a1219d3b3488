"""`gltf-physics convert`: lossless re-save, conversion to the newest OMI or KHR form, OpenUSD out and in, MJCF out.

Every output path is checked before any work, and the converted file and its loss report appear together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .common import UsageError, clean_errors, out
from .options import choice, suffix
from .overwrite import Source, refuse_overwrite

_USD = (".usd", ".usda", ".usdc")


@clean_errors
def convert(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    dst: Annotated[Path, typer.Argument(metavar="OUT")],
    to: Annotated[str | None, typer.Option(
        metavar="omi|khr|mjcf",
        help="Target: omi or khr (OUT .gltf/.glb, or IN .usd*), mjcf (OUT .xml). Without it: a lossless re-save; "
             "a USD OUT needs none.")] = None,
    report: Annotated[Path | None, typer.Option(metavar="FILE.json",
                                                help="Write the loss report (JSON) here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
    in_place: Annotated[bool, typer.Option("--in-place", help="Allow OUT to be IN (replace the input).")] = False,
    floating_base: Annotated[bool, typer.Option(
        "--floating-base", help="URDF IN: the root link falls free (default: fixed to the world, as an arm).")] = False,
    package_dir: Annotated[list[Path] | None, typer.Option(
        metavar="DIR", help="URDF IN: a folder holding package:// packages (repeatable).")] = None,
) -> None:
    """Re-save IN as OUT (.gltf or .glb by extension), convert its physics to the newest OMI or KHR form, convert
    to / from OpenUSD UsdPhysics (OUT or IN .usda/.usdc/.usd; extra [usd]), write MuJoCo MJCF (OUT .xml,
    --to mjcf), or read a robot: IN .urdf (extra [robots]) or MuJoCo .xml (extra [mujoco]) with --to khr|omi
    (or --to mjcf: through the same model).

    \b
    Example: gltf-physics convert scene.glb scene.khr.gltf --to khr --report losses.json
    """
    from ..gltf.files import check_writable

    if to is not None:
        choice("--to", to, ["omi", "khr", "mjcf"])
    refuse_overwrite([Source(src)], [("OUT", dst), ("--report", report)], may_replace="OUT" if in_place else None)
    check_writable(dst, "OUT")
    if report is not None:
        check_writable(report, "--report")
    if src.suffix.lower() in (".urdf", ".xml", ".mjcf"):  # robots in
        from .convert_robots import robot_in

        lines = robot_in(src, dst, to, report, floating_base=floating_base, package_dirs=package_dir or [])
    elif to == "mjcf" or dst.suffix.lower() == ".xml":
        lines = _to_mjcf(src, dst, to, report)
    elif src.suffix.lower() in _USD or dst.suffix.lower() in _USD:
        lines = _usd(src, dst, to, report)
    else:
        lines = _gltf(src, dst, to, report)
    if not quiet:
        for line in lines:
            out.print(line)


def _gltf(src: Path, dst: Path, to: str | None, report: Path | None) -> list[str]:
    """glTF → glTF: a lossless re-save, or the physics rewritten in the newest OMI or KHR form."""
    from ..api import convert as convert_doc
    from ..api import load, read_scene, save_converted
    from .messages import convert_summary

    suffix("OUT", dst, [".gltf", ".glb", ".usda", ".usdc", ".usd", ".xml"], "the output")
    doc = load(src)
    scene = read_scene(doc)
    losses: list[dict[str, str]] = []
    if to is not None:
        doc, losses = convert_doc(doc, to=to)  # type: ignore[arg-type]  # checked above
    save_converted(doc, dst, report, source=src, target=to, losses=losses)  # both files, or neither
    return convert_summary(src, dst, to, scene, losses, report)


def _to_mjcf(src: Path, dst: Path, to: str | None, report: Path | None) -> list[str]:
    """IN's physics as MuJoCo MJCF (formats/mjcf.py); the losses go to --report."""
    from ..api import load, loss_report_output, read_scene
    from ..formats.mjcf.write import to_mjcf
    from ..gltf.files import Output, write_all
    from .messages import loss_lines

    if to != "mjcf" or dst.suffix.lower() != ".xml":
        raise UsageError(f"{dst}: MJCF output needs OUT ending in .xml and --to mjcf")
    scene = read_scene(load(src))
    result = to_mjcf(scene, model_name=src.stem)
    settled = [{"code": n.code, "pointer": n.pointer, "message": f"read leniently: {n.message}"} for n in scene.notes]
    losses = settled + result.losses
    outputs = [Output(dst, [result.xml.encode("utf-8")])]
    if report is not None:
        outputs.append(loss_report_output(report, source=src, target="mjcf", losses=losses))
    write_all(outputs)  # both files, or neither
    return [f"wrote {dst} (MuJoCo MJCF)", *loss_lines(losses, report)]


def _usd(src: Path, dst: Path, to: str | None, report: Path | None) -> list[str]:
    """glTF → USD (OUT .usd*) or USD → glTF (IN .usd*, with --to)."""
    from ..api import load, save_converted, write_loss_report
    from ..formats import usd
    from .messages import loss_lines

    losses: list[Any]
    try:
        if dst.suffix.lower() in _USD:
            if src.suffix.lower() in _USD:
                raise UsageError(f"{src}: USD → USD is not a conversion; IN must be .gltf or .glb")
            if to is not None:
                raise UsageError("--to names a glTF family; it does not apply to USD output")
            losses = usd.to_usd(load(src), dst)
            if report is not None:
                write_loss_report(report, source=src, target="usd", losses=losses)
            return [f"wrote {dst} (OpenUSD UsdPhysics)", *loss_lines(losses, report)]
        suffix("OUT", dst, [".gltf", ".glb"], "the output of a USD input")
        if to is None:
            raise UsageError(f"{src}: reading USD needs --to khr or --to omi (the glTF physics family to write)")
        doc, losses = usd.usd_to_gltf(src, to)
        save_converted(doc, dst, report, source=src, target=to, losses=losses)  # both files, or neither
        return [f"wrote {dst} (physics in the newest {to.upper()} form, from OpenUSD)", *loss_lines(losses, report)]
    except usd.MissingExtraError as exc:
        raise UsageError(str(exc)) from None
