"""Writing node animations (the simulation's ``--bake``): one clip of LINEAR translation/rotation channels.

All key data goes into ONE new buffer appended to the document, without a ``uri``. Where it ends up is decided
by :func:`~.io.save` (see its module docstring): if it is buffer 0 (the document had no buffers) it becomes
the GLB BIN chunk or ``<stem>.bin``; otherwise it is embedded as a base64 ``data:`` uri. Layout: the shared
time keys, then every translation track, then every rotation track (nodes ascending), all float32, written
straight into one preallocated array — no Python loop per key, one copy per track.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from . import bounds
from .document import Document
from .errors import GltfError
from .layout import FLOAT, is_int

Track = tuple[Any, Any]  # (translations (N,3) or None, rotations (N,4) xyzw or None)
PATHS = (("translation", "VEC3", 3), ("rotation", "VEC4", 4))


def add_node_animation(doc: Document, name: str, times: Any, tracks: Mapping[int, Track]) -> int:
    """Append an animation driving each ``tracks`` node; returns the new animation's index.

    ``times`` (N,) seconds, strictly increasing; ``tracks[node] = (translations (N,3), rotations (N,4) xyzw)``
    (either may be ``None`` to leave that path unanimated). Values are stored as float32. Bad arguments raise
    ``ValueError`` before the document is touched.
    """
    keys = _times(times)
    nodes_of = _nodes_per_path(doc, tracks)
    payload, blocks = _payload(keys, tracks, nodes_of)
    gltf = doc.json
    buffers = _list(gltf, "buffers")
    if len(buffers) != len(doc.buffers):
        raise GltfError(f"{len(buffers)} buffers in the JSON but {len(doc.buffers)} byte strings",
                        pointer="/buffers")
    views, accessors = _list(gltf, "bufferViews"), _list(gltf, "accessors")
    animations = _list(gltf, "animations")
    buffer_index = len(buffers)
    data = payload.tobytes()
    buffers.append({"byteLength": len(data)})
    doc.buffers.append(data)

    n = len(keys)
    view_of = {}
    for label, (offset, length) in blocks.items():
        view_of[label] = len(views)
        views.append({"buffer": buffer_index, "byteOffset": offset, "byteLength": length})
    time_accessor = len(accessors)
    accessors.append({"bufferView": view_of["time"], "componentType": FLOAT, "count": n, "type": "SCALAR",
                      "min": [float(keys[0])], "max": [float(keys[-1])]})
    samplers: list[dict[str, Any]] = []
    channels: list[dict[str, Any]] = []
    for path, type_, width in PATHS:
        for k, node in enumerate(nodes_of[path]):
            accessors.append({"bufferView": view_of[path], "byteOffset": k * n * width * 4,
                              "componentType": FLOAT, "count": n, "type": type_})
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


def _nodes_per_path(doc: Document, tracks: Mapping[int, Track]) -> dict[str, list[int]]:
    """Ascending nodes animated on each path."""
    node_count = len(bounds.array(doc.json, "nodes"))
    if not tracks:
        raise ValueError("an animation needs at least one track")
    result: dict[str, list[int]] = {path: [] for path, _, _ in PATHS}
    for node in sorted(tracks):
        if not is_int(node) or not 0 <= node < node_count:
            raise ValueError(f"track for node {node!r}, but the document has {node_count} nodes")
        track = tracks[node]
        if len(track) != 2:
            raise ValueError(f"node {node}: a track is (translations, rotations)")
        for (path, _, _), values in zip(PATHS, track, strict=True):
            if values is not None:
                result[path].append(node)
    return result


def _payload(keys: np.ndarray, tracks: Mapping[int, Track],
             nodes_of: dict[str, list[int]]) -> tuple[np.ndarray, dict[str, tuple[int, int]]]:
    """The whole buffer as float32 and ``{label: (byteOffset, byteLength)}`` of its non-empty blocks."""
    n = len(keys)
    sizes = {"time": n, **{path: len(nodes_of[path]) * n * width for path, _, width in PATHS}}
    payload = np.empty(sum(sizes.values()), dtype="<f4")
    blocks, start = {}, 0
    for label, size in sizes.items():
        if size:
            blocks[label] = (start * 4, size * 4)
        start += size
    payload[:n] = keys
    for column, (path, _, width) in enumerate(PATHS):
        if path not in blocks:
            continue
        first = blocks[path][0] // 4
        block = payload[first:first + len(nodes_of[path]) * n * width].reshape(-1, n, width)
        for k, node in enumerate(nodes_of[path]):
            values = np.asarray(tracks[node][column])
            if values.shape != (n, width):
                raise ValueError(f"node {node}: expected ({n}, {width}) {path} values, got {values.shape}")
            block[k] = values
        finite = np.isfinite(block).all(axis=(1, 2))
        if not finite.all():
            node = nodes_of[path][int(np.argmin(finite))]
            raise ValueError(f"node {node}: {path} values must be finite (also as float32)")
    return payload, blocks


def _list(gltf: dict[str, Any], key: str) -> list[Any]:
    value = gltf.setdefault(key, [])
    if not isinstance(value, list):
        raise GltfError(f"'{key}' must be an array", pointer=f"/{key}")
    return value
