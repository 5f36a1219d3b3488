"""The public Python API, re-exported by ``gltf_physics``: thin functions over the layers of DESIGN §1."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Literal

from .dialects import read_scene, write_scene
from .gltf.document import Document
from .gltf.io import load as _load
from .gltf.io import save as _save
from .model import PhysicsScene

__all__ = ["Document", "PhysicsScene", "convert", "load", "read_scene", "save"]


def load(path: str | Path) -> Document:
    """Load a .gltf or .glb; raises GltfError (with file and JSON pointer or byte offset) on bad input."""
    return _load(Path(path))


def save(doc: Document, path: str | Path) -> None:
    """Save atomically as .gltf or .glb (by extension); load → save is lossless."""
    _save(doc, Path(path))


def convert(doc: Document, to: Literal["omi", "khr"]) -> tuple[Document, list[dict[str, str]]]:
    """The document with its physics rewritten in the newest OMI or KHR form, and the list of losses."""
    scene = read_scene(doc)
    out, losses = write_scene(scene, doc, to)
    return out, [asdict(loss) for loss in losses]
