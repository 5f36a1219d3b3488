"""Writing node animations (the simulation's ``--bake``): one clip of LINEAR translation/rotation channels.

All key data goes into ONE new buffer appended to the document, without a ``uri``. Where it ends up is decided
by :func:`~.io.save` (see its module docstring): if it is buffer 0 (the document had no buffers) it becomes
the GLB BIN chunk or ``<stem>.bin``; otherwise it is embedded as a base64 ``data:`` uri. Layout: the shared
time keys, then every translation track, then every rotation track, each a float32 block (4-byte aligned),
built with NumPy in one pass — no Python loop per key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from . import bounds
from .document import Document
from .errors import GltfError
from .layout import FLOAT, is_int

Track = tuple[np.ndarray | None, np.ndarray | None]


def add_node_animation(doc: Document, name: str, times: Any, tracks: Mapping[int, Track]) -> int:
    """Append an animation driving each ``tracks`` node; returns the new animation's index.

    ``times`` (N,) seconds, strictly increasing; ``tracks[node] = (translations (N,3), rotations (N,4) xyzw)``
    (either may be ``None`` to leave that path unanimated). Values are stored as float32.
    """
    keys = _times(times)
    translations, rotations = _tracks(doc, tracks, len(keys))
    gltf = doc.json
    buffers = _list(gltf, "buffers")
    if len(buffers) != len(doc.buffers):
        raise GltfError(f"{len(buffers)} buffers in the JSON but {len(doc.buffers)} byte strings",
                        pointer="/buffers")
    views, accessors = _list(gltf, "bufferViews"), _list(gltf, "accessors")
    animations = _list(gltf, "animations")
    buffer_index = len(buffers)
    blocks = [keys.tobytes()]
    view_of: dict[str, int] = {}
    offset = 0
    for label, block in (("time", keys), ("translation", translations[1]), ("rotation", rotations[1])):
        if block is None:
            continue
        data = block.tobytes()
        view_of[label] = len(views)
        views.append({"buffer": buffer_index, "byteOffset": offset, "byteLength": len(data)})
        if label != "time":
            blocks.append(data)
        offset += len(data)
    payload = b"".join(blocks)
    buffers.append({"byteLength": len(payload)})
    doc.buffers.append(payload)

    n = len(keys)
    time_accessor = len(accessors)
    accessors.append({"bufferView": view_of["time"], "componentType": FLOAT, "count": n, "type": "SCALAR",
                      "min": [float(keys[0])], "max": [float(keys[-1])]})
    samplers: list[dict[str, Any]] = []
    channels: list[dict[str, Any]] = []
    for path, (nodes, _), type_, size in (("translation", translations, "VEC3", 12),
                                              ("rotation", rotations, "VEC4", 16)):
        for k, node in enumerate(nodes):
            accessors.append({"bufferView": view_of[path], "byteOffset": k * n * size, "componentType": FLOAT,
                              "count": n, "type": type_})
            channels.append({"sampler": len(samplers), "target": {"node": node, "path": path}})
            samplers.append({"input": time_accessor, "interpolation": "LINEAR", "output": len(accessors) - 1})
    animations.append({"name": name, "channels": channels, "samplers": samplers})
    return len(animations) - 1


def _times(times: Any) -> np.ndarray:
    keys = np.asarray(times, dtype=np.float64)
    if keys.ndim != 1 or len(keys) == 0:
        raise ValueError("times must be a non-empty 1-D array")
    keys32 = keys.astype("<f4")
    if not np.all(np.isfinite(keys32)) or np.any(np.diff(keys32) <= 0):
        raise ValueError("times must be finite and strictly increasing (also as float32)")
    return keys32


def _tracks(doc: Document, tracks: Mapping[int, Track],
            n: int) -> tuple[tuple[list[int], np.ndarray | None], tuple[list[int], np.ndarray | None]]:
    """``((nodes, (B,N,3) float32), (nodes, (B,N,4) float32))`` in ascending node order."""
    node_count = len(bounds.array(doc.json, "nodes"))
    if not tracks:
        raise ValueError("an animation needs at least one track")
    paths: tuple[tuple[list[int], list[np.ndarray]], ...] = (([], []), ([], []))
    for node in sorted(tracks):
        if not is_int(node) or not 0 <= node < node_count:
            raise ValueError(f"track for node {node!r}, but the document has {node_count} nodes")
        for (nodes, arrays), values, width in zip(paths, tracks[node], (3, 4), strict=True):
            if values is None:
                continue
            array = np.asarray(values, dtype=np.float64)
            if array.shape != (n, width) or not np.all(np.isfinite(array)):
                raise ValueError(f"node {node}: expected finite ({n}, {width}) values, got {array.shape}")
            nodes.append(node)
            arrays.append(array)
    return tuple((nodes, np.stack(arrays).astype("<f4") if arrays else None)  # type: ignore[return-value]
                 for nodes, arrays in paths)


def _list(gltf: dict[str, Any], key: str) -> list[Any]:
    value = gltf.setdefault(key, [])
    if not isinstance(value, list):
        raise GltfError(f"'{key}' must be an array", pointer=f"/{key}")
    return value
