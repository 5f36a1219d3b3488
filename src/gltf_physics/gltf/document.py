"""The glTF document: the plain JSON dict plus its binary buffers (docs/architecture.md).

Holding the JSON as parsed (key order, nulls, empty objects, extras, unknown extensions) is what makes
load → save lossless. ``buffers[i]`` are the bytes of ``json["buffers"][i]``, read at load so errors surface
early: at least ``byteLength`` of them (an external file may be longer and is rewritten whole; a GLB BIN
chunk is kept without its padding). A buffer entry without ``uri`` is the GLB BIN chunk when it is buffer 0;
where the others go on save is decided by :mod:`gltf_physics.gltf.io`. ``len(buffers)`` must equal the
number of JSON buffers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Document:
    """A loaded glTF: ``json`` is the plain JSON dict exactly as parsed, ``buffers`` the binary buffers' bytes.

    ``gp.load`` returns one and ``gp.save`` writes one back (losslessly: key order, extras and unknown
    extensions survive). ``path`` is where it was loaded from, ``is_glb`` whether it was a .glb.

    Example:
        >>> doc = gp.load("examples/tumbling_boxes.gltf")
        >>> doc.json["nodes"][1]["name"], doc.is_glb
        ('BoxA', False)
    """

    json: dict[str, Any]
    buffers: list[bytes] = field(default_factory=list)
    path: Path | None = None  # where it was loaded from (resolves relative URIs of images on re-save)
    is_glb: bool = False

    @property
    def name(self) -> str:
        """The file it came from, or ``<memory>``; used in messages."""
        return str(self.path) if self.path else "<memory>"
