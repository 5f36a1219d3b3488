"""`gltf-physics convert robot.urdf|scene.xml OUT.gltf|.glb --to khr|omi`: a robot description into glTF."""

from __future__ import annotations

from pathlib import Path

from .common import UsageError
from .options import suffix


def robot_in(src: Path, dst: Path, to: str | None, report: Path | None, *, floating_base: bool,
             package_dirs: list[Path]) -> list[str]:
    """Read the URDF or MJCF ``src``, write its glTF (and the loss report) together; the summary lines."""
    from ..api import save_converted
    from ..formats.imports import import_to_gltf
    from .messages import loss_lines

    suffix("OUT", dst, [".gltf", ".glb"], "the output of a robot file")
    if to not in ("khr", "omi"):
        raise UsageError(f"{src}: reading a robot needs --to khr or --to omi (the glTF physics family to write)")
    if src.suffix.lower() != ".urdf" and (floating_base or package_dirs):
        raise UsageError("--floating-base and --package-dir apply to a URDF IN only")
    options = {"floating_base": floating_base, "package_dirs": package_dirs} if src.suffix.lower() == ".urdf" else {}
    doc, losses = import_to_gltf(src, to, **options)
    save_converted(doc, dst, report, source=src, target=to, losses=losses)  # both files, or neither
    kind = "URDF" if src.suffix.lower() == ".urdf" else "MuJoCo MJCF"
    return [f"wrote {dst} (physics in the newest {to.upper()} form, from {kind})", *loss_lines(losses, report)]
