"""The public Python API, re-exported by ``gltf_physics``: thin functions over the layers of docs/architecture.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from .dialects import read_scene, write_scene  # noqa: F401  (write_scene: still importable from here)
from .dialects.conversion import write_converted
from .gltf.document import Document
from .gltf.files import Output, write_all
from .gltf.io import load as _load
from .gltf.io import plan_save
from .gltf.io import save as _save
from .model import PhysicsScene

__all__ = ["Document", "PhysicsScene", "convert", "load", "read_scene", "save", "write_loss_report"]


def load(path: str | Path) -> Document:
    """Load a .gltf or .glb as a :class:`Document`: its plain JSON dict (``doc.json``) and binary buffers.

    Raises GltfError (naming the file and the JSON pointer or byte offset) on bad or unsafe input.

    Example:
        >>> doc = gp.load("examples/tumbling_boxes.gltf")
        >>> doc.json["asset"]["version"], doc.json["nodes"][1]["name"]
        ('2.0', 'BoxA')
    """
    return _load(Path(path))


def save(doc: Document, path: str | Path) -> None:
    """Save a :class:`Document` as .gltf or .glb (by the path's extension), atomically; load → save is lossless.

    Example:
        >>> gp.save(gp.load("examples/tumbling_boxes.gltf"), "boxes.glb")  # the same scene as one .glb
    """
    _save(doc, Path(path))


def convert(doc: Document, to: Literal["omi", "khr"]) -> tuple[Document, list[dict[str, str]]]:
    """The document with its physics rewritten in the newest OMI or KHR form, and the list of losses.

    The losses start with what the reader accepted leniently (invalid or ambiguous input it had to settle,
    e.g. a motion without a type read as dynamic): the output commits to that reading. Each entry is
    ``{"code", "pointer", "message"}`` with ``code`` a rule id (docs/rules.md) and ``pointer`` into the input.
    A behaviour graph's pointers to physics properties are rewritten to the target's (docs/behaviour.md), and
    so are ``KHR_animation_pointer`` channels aimed at them; one that cannot follow is kept and listed
    (``KHRI-12``, ``ANIM-POINTER``).

    Example:
        >>> newest, losses = gp.convert(gp.load("JointTypes.glb"), to="omi")  # the KHR sample asset
        >>> sorted({loss["code"] for loss in losses})
        ['D-14', 'JOINT-2', 'JOINT-3']
    """
    scene = read_scene(doc)
    out, losses = write_converted(scene, doc, to)
    settled = [{"code": n.code, "pointer": n.pointer, "message": f"read leniently: {n.message}"}
               for n in scene.notes]
    return out, settled + losses


def write_loss_report(path: str | Path, source: str | Path, target: str | None,
                      losses: list[dict[str, str]]) -> None:
    """Write the conversion loss report as JSON ``{"source", "target", "losses"}``, atomically.

    Example:
        >>> newest, losses = gp.convert(doc, to="khr")
        >>> write_loss_report("losses.json", source="scene.glb", target="khr", losses=losses)
    """
    write_all([loss_report_output(path, source, target, losses)])


def save_converted(doc: Document, path: str | Path, report: str | Path | None = None, *,
                   source: str | Path = "", target: str | None = None,
                   losses: list[dict[str, str]] | None = None) -> None:
    """Save ``doc`` and, with ``report``, its loss report: both files appear together, or neither does."""
    outputs = plan_save(doc, path)
    if report is not None:
        outputs.append(loss_report_output(report, source, target, losses or []))
    write_all(outputs)


def loss_report_output(path: str | Path, source: str | Path, target: str | None,
                       losses: list[dict[str, str]]) -> Output:
    """The loss report as one file to write (see :func:`write_loss_report`)."""
    text = json.dumps({"source": str(source), "target": target, "losses": losses}, indent=2) + "\n"
    return Output(Path(path), [text.encode("utf-8", "replace")])
