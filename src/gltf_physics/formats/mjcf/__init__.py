"""MuJoCo MJCF out: the physics model as an MJCF file (:func:`gltf_physics.formats.mjcf.write.to_mjcf`)."""

from __future__ import annotations

from pathlib import Path


def write_file(src: Path, dst: Path, report: Path | None) -> list[dict[str, str]]:
    """The glTF file ``src``'s physics as the MJCF file ``dst``, and with ``report`` the loss report (target
    ``mjcf``): both files, or neither. The registered writer of :mod:`gltf_physics.formats`; returns the losses
    (what the reader settled leniently first)."""
    from ...api import load, loss_report_output, read_scene
    from ...gltf.files import Output, write_all
    from .write import to_mjcf

    scene = read_scene(load(src))
    result = to_mjcf(scene, model_name=src.stem)
    settled = [{"code": n.code, "pointer": n.pointer, "message": f"read leniently: {n.message}"} for n in scene.notes]
    losses = settled + result.losses
    outputs = [Output(dst, [result.xml.encode("utf-8")])]
    if report is not None:
        outputs.append(loss_report_output(report, source=src, target="mjcf", losses=losses))
    write_all(outputs)  # both files, or neither
    return losses


__all__ = ["write_file"]
