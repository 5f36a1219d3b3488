"""`gltf-physics convert`: lossless re-save, conversion to the newest OMI or KHR form, OpenUSD out and in, MJCF out.

Every output path is checked before any work, and the converted file and its loss report appear together.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import UsageError, clean_errors, out
from .options import choice, one_of, suffix
from .overwrite import Source, refuse_overwrite

if TYPE_CHECKING:
    from ..formats import Reader, Writer


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
    from .. import formats
    from ..gltf.files import check_writable

    if to is not None:
        choice("--to", to, formats.targets())
    refuse_overwrite([Source(src)], [("OUT", dst), ("--report", report)], may_replace="OUT" if in_place else None)
    check_writable(dst, "OUT")
    if report is not None:
        check_writable(report, "--report")
    writer, reader = formats.writer_for(dst, to), formats.reader_for(src)
    try:
        if src.suffix.lower() in formats.robot_suffixes():  # robots in (and out as glTF or MJCF)
            from .convert_robots import robot_in

            lines = robot_in(src, dst, to, report, floating_base=floating_base, package_dirs=package_dir or [])
        elif writer is not None:
            lines = _write(writer, reader, src, dst, to, report)
        elif reader is not None:
            lines = _read(reader, src, dst, to, report)
        else:
            lines = _gltf(src, dst, to, report, formats.output_suffixes())
    except formats.MissingExtraError as exc:
        raise UsageError(str(exc)) from None
    if not quiet:
        for line in lines:
            out.print(line)


def _gltf(src: Path, dst: Path, to: str | None, report: Path | None, suffixes: list[str]) -> list[str]:
    """glTF → glTF: a lossless re-save, or the physics rewritten in the newest OMI or KHR form."""
    from ..api import convert as convert_doc
    from ..api import load, read_scene, save_converted
    from .messages import convert_summary

    suffix("OUT", dst, suffixes, "the output")
    doc = load(src)
    scene = read_scene(doc)
    losses: list[dict[str, str]] = []
    if to is not None:
        doc, losses = convert_doc(doc, to=to)  # type: ignore[arg-type]  # checked above
    save_converted(doc, dst, report, source=src, target=to, losses=losses)  # both files, or neither
    return convert_summary(src, dst, to, scene, losses, report)


def _write(writer: Writer, reader: Reader | None, src: Path, dst: Path, to: str | None,
           report: Path | None) -> list[str]:
    """glTF → another format (``formats.WRITERS``: OUT .usd*, or --to mjcf with OUT .xml)."""
    from .messages import loss_lines

    if writer.target is not None:  # chosen by --to or by OUT: both must say it
        if to != writer.target or dst.suffix.lower() not in writer.suffixes:
            raise UsageError(f"{dst}: {writer.name} output needs OUT ending in {one_of(writer.suffixes)} "
                             f"and --to {writer.target}")
    else:
        if reader is not None:
            verb = "is not a conversion" if reader.name == writer.name else "is not supported"
            raise UsageError(f"{src}: {reader.name} → {writer.name} {verb}; IN must be .gltf or .glb")
        if to is not None:
            raise UsageError(f"--to names a glTF family; it does not apply to {writer.name} output")
    losses = writer.function()(src, dst, report)
    return [f"wrote {dst} ({writer.title})", *loss_lines(losses, report)]


def _read(reader: Reader, src: Path, dst: Path, to: str | None, report: Path | None) -> list[str]:
    """Another format → glTF (``formats.READERS``: IN .usd*), its physics in the newest form --to names."""
    from .. import formats
    from ..api import save_converted
    from .messages import loss_lines

    suffix("OUT", dst, list(formats.GLTF_SUFFIXES), f"the output of a {reader.name} input")
    if to is None:
        raise UsageError(f"{src}: reading {reader.name} needs --to khr or --to omi (the glTF physics family to write)")
    doc, losses = reader.function()(src, to)
    save_converted(doc, dst, report, source=src, target=to, losses=losses)  # both files, or neither
    return [f"wrote {dst} (physics in the newest {to.upper()} form, from {reader.title})", *loss_lines(losses, report)]
