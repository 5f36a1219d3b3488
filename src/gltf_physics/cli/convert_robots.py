"""`gltf-physics convert robot.urdf|scene.xml OUT.gltf|.glb --to khr|omi`: a robot description into glTF (or,
with OUT .xml and --to mjcf, into MJCF through the same model)."""

from __future__ import annotations

from pathlib import Path

from .common import UsageError
from .options import suffix


def robot_in(src: Path, dst: Path, to: str | None, report: Path | None, *, floating_base: bool,
             package_dirs: list[Path]) -> list[str]:
    """Read the URDF or MJCF ``src``, write its glTF (or MJCF) and the loss report together; the summary lines."""
    from .messages import loss_lines

    urdf = src.suffix.lower() == ".urdf"
    if not urdf and (floating_base or package_dirs):
        raise UsageError("--floating-base and --package-dir apply to a URDF IN only")
    options = {"floating_base": floating_base, "package_dirs": package_dirs} if urdf else {}
    kind = "URDF" if urdf else "MuJoCo MJCF"
    if to == "mjcf" or dst.suffix.lower() == ".xml":
        losses = _to_mjcf(src, dst, to, report, options)
        return [f"wrote {dst} (MuJoCo MJCF, from {kind})", *loss_lines(losses, report)]
    suffix("OUT", dst, [".gltf", ".glb"], "the output of a robot file")
    if to not in ("khr", "omi"):
        raise UsageError(f"{src}: reading a robot needs --to khr or --to omi (the glTF physics family to write)")
    from ..api import save_converted
    from ..formats.imports import import_to_gltf

    doc, losses = import_to_gltf(src, to, **options)
    save_converted(doc, dst, report, source=src, target=to, losses=losses)  # both files, or neither
    return [f"wrote {dst} (physics in the newest {to.upper()} form, from {kind})", *loss_lines(losses, report)]


def _to_mjcf(src: Path, dst: Path, to: str | None, report: Path | None, options: dict) -> list[dict[str, str]]:
    """The robot's model written by our MJCF writer: OUT .xml with --to mjcf."""
    from ..api import loss_report_output
    from ..formats.imports import import_scene
    from ..formats.mjcf.write import to_mjcf
    from ..gltf.files import Output, write_all

    if to != "mjcf" or dst.suffix.lower() != ".xml":
        raise UsageError(f"{dst}: MJCF output needs OUT ending in .xml and --to mjcf")
    scene = import_scene(src, **options)
    result = to_mjcf(scene, model_name=src.stem)
    losses = [{"code": n.code, "pointer": n.pointer, "message": n.message} for n in scene.notes] + result.losses
    outputs = [Output(dst, [result.xml.encode("utf-8")])]
    if report is not None:
        outputs.append(loss_report_output(report, source=src, target="mjcf", losses=losses))
    write_all(outputs)  # both files, or neither
    return losses
