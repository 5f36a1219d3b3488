"""Node animations: writing one clip (the simulation's ``--bake``) and reading TRS channels (the runtime).

Writing: one clip of LINEAR translation/rotation channels.

All key data goes into ONE new buffer appended to the document, without a ``uri``. Where it ends up is decided
by :func:`~.io.save` (see its module docstring): if it is buffer 0 (the document had no buffers) it becomes
the GLB BIN chunk or ``<stem>.bin``; otherwise it is embedded as a base64 ``data:`` uri. Layout: the shared
time keys, then every translation track, then every rotation track (nodes ascending), all float32, written
straight into one preallocated array — no Python loop per key, one copy per track.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import bounds
from .accessors import read_accessor
from .document import Document
from .errors import GltfError
from .layout import FLOAT, is_int
from .transforms import decompose, local_matrix, trs_matrix

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


# -- reading ---------------------------------------------------------------------------------------------
# A node's animated TRS channels, sampled at any time. Rotations under LINEAR are slerped (shortest arc, the
# glTF 2.0 the spec rule); CUBICSPLINE is the spec's Hermite spline over (in-tangent, value, out-tangent) key
# triples, rotations normalised afterwards. Before the first key the first value holds, after the last the
# last value holds (no looping). ``weights`` and anything else but translation/rotation/scale are ignored.

WIDTHS = {"translation": 3, "rotation": 4, "scale": 3}
INTERPOLATIONS = ("LINEAR", "STEP", "CUBICSPLINE")


@dataclass(frozen=True)
class Sampler:
    times: np.ndarray  # (N,) float64, non-decreasing
    values: np.ndarray  # (N, w) float64, or (3N, w) for CUBICSPLINE: in-tangent, value, out-tangent per key
    interpolation: str
    rotation: bool = False

    def sample(self, t: float) -> np.ndarray:
        times, cubic = self.times, self.interpolation == "CUBICSPLINE"
        last = len(times) - 1
        if t <= times[0] or last == 0:
            return self._value(0 if t <= times[0] else last)
        if t >= times[last]:
            return self._value(last)
        k = int(np.searchsorted(times, t, side="right")) - 1
        span = float(times[k + 1] - times[k])
        if self.interpolation == "STEP" or span <= 0.0:
            return self._value(k)
        s = (t - float(times[k])) / span
        if cubic:
            v = self.values
            s2, s3 = s * s, s * s * s
            out = ((2 * s3 - 3 * s2 + 1) * v[3 * k + 1] + span * (s3 - 2 * s2 + s) * v[3 * k + 2]
                   + (-2 * s3 + 3 * s2) * v[3 * k + 4] + span * (s3 - s2) * v[3 * k + 3])
            return _unit(out) if self.rotation else out
        a, b = self.values[k], self.values[k + 1]
        return slerp(a, b, s) if self.rotation else a + (b - a) * s

    def _value(self, k: int) -> np.ndarray:
        v = self.values[3 * k + 1] if self.interpolation == "CUBICSPLINE" else self.values[k]
        return _unit(v) if self.rotation else v.copy()


@dataclass
class NodeTracks:
    translation: Sampler | None = None
    rotation: Sampler | None = None
    scale: Sampler | None = None


def slerp(a: np.ndarray, b: np.ndarray, s: float) -> np.ndarray:
    """Spherical interpolation of xyzw quaternions along the shorter arc (nlerp when nearly parallel)."""
    a, b = _unit(a), _unit(b)
    d = float(np.dot(a, b))
    if d < 0.0:
        b, d = -b, -d
    if d > 0.9995:  # sin θ → 0: the chord is the arc to float precision
        return _unit(a + (b - a) * s)
    theta = math.acos(d)
    sin = math.sin(theta)
    return (math.sin((1 - s) * theta) * a + math.sin(s * theta) * b) / sin


def _unit(q: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(q))
    return q / n if n > 0 and math.isfinite(n) else np.array([0.0, 0.0, 0.0, 1.0])


def node_tracks(doc: Document, animation: int | None = 0,
                skipped: list[str] | None = None) -> dict[int, NodeTracks]:
    """TRS samplers of every node animated by animation ``animation`` (``None``: all animations at once,
    the first channel of a node/path wins). A malformed channel (bad index, unreadable accessor, wrong
    counts, non-finite or decreasing keys) is skipped and described in ``skipped``; nothing here raises."""
    gltf = doc.json
    animations = gltf.get("animations")
    if not isinstance(animations, list):
        return {}
    chosen = range(len(animations)) if animation is None else (
        [animation] if 0 <= animation < len(animations) else [])
    nodes = gltf.get("nodes")
    node_count = len(nodes) if isinstance(nodes, list) else 0
    result: dict[int, NodeTracks] = {}
    cache: dict[tuple[int, int, str], Sampler] = {}
    for a in chosen:
        anim = animations[a]
        channels = anim.get("channels") if isinstance(anim, dict) else None
        samplers = anim.get("samplers") if isinstance(anim, dict) else None
        if not isinstance(channels, list) or not isinstance(samplers, list):
            continue
        for c, channel in enumerate(channels):
            where = f"/animations/{a}/channels/{c}"
            try:
                node, path, sampler = _channel(doc, channel, samplers, node_count, a, cache)
            except (GltfError, ValueError, KeyError, TypeError, IndexError) as e:
                if skipped is not None and str(e) != "ignored":
                    skipped.append(f"{where}: {e}")
                continue
            tracks = result.setdefault(node, NodeTracks())
            if getattr(tracks, path) is None:
                setattr(tracks, path, sampler)
    return result


def _channel(doc: Document, channel: Any, samplers: list[Any], node_count: int, a: int,
             cache: dict[tuple[int, int, str], Sampler]) -> tuple[int, str, Sampler]:
    target = channel.get("target") if isinstance(channel, dict) else None
    if not isinstance(target, dict):
        raise ValueError("channel has no target")
    path, node = target.get("path"), target.get("node")
    if path not in WIDTHS:
        raise ValueError("ignored")  # weights, pointer targets: not transforms
    if not is_int(node) or not 0 <= node < node_count:
        raise ValueError(f"target node {node!r} does not exist")
    s = channel.get("sampler")
    if not is_int(s) or not 0 <= s < len(samplers) or not isinstance(samplers[s], dict):
        raise ValueError(f"sampler {s!r} does not exist")
    key = (a, s, path)
    if key not in cache:
        cache[key] = _sampler(doc, samplers[s], path)
    return node, path, cache[key]


def _sampler(doc: Document, sampler: dict[str, Any], path: str) -> Sampler:
    interpolation = sampler.get("interpolation", "LINEAR")
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"unknown interpolation {interpolation!r}")
    times = np.asarray(read_accessor(doc, sampler.get("input")), dtype=np.float64)
    values = np.asarray(read_accessor(doc, sampler.get("output")), dtype=np.float64)
    width = WIDTHS[path]
    if times.ndim != 1 or len(times) == 0:
        raise ValueError("input must be a non-empty SCALAR accessor")
    if not np.isfinite(times).all() or np.any(np.diff(times) < 0):
        raise ValueError("input times must be finite and increasing")
    need = len(times) * (3 if interpolation == "CUBICSPLINE" else 1)
    if values.ndim != 2 or values.shape != (need, width):
        raise ValueError(f"output must hold {need} {width}-vectors for {len(times)} {interpolation} keys, "
                         f"has shape {values.shape}")
    if not np.isfinite(values).all():
        raise ValueError("output values must be finite")
    return Sampler(times, values, interpolation, rotation=path == "rotation")


def node_trs(node: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A node's rest translation, xyzw rotation and scale (a ``matrix`` node is decomposed)."""
    node = node if isinstance(node, dict) else {}
    if isinstance(node.get("matrix"), list):
        t, q, s = decompose(local_matrix(node))
        return np.array(t), np.array(q), np.array(s)
    return (_vec(node.get("translation"), (0.0, 0.0, 0.0)), _vec(node.get("rotation"), (0.0, 0.0, 0.0, 1.0)),
            _vec(node.get("scale"), (1.0, 1.0, 1.0)))


def _vec(value: Any, default: tuple[float, ...]) -> np.ndarray:
    if isinstance(value, list) and len(value) == len(default):
        try:
            v = np.array([float(x) for x in value])
            if np.isfinite(v).all():
                return v
        except (TypeError, ValueError, OverflowError):
            pass
    return np.array(default)


def sample_local(node_json: Any, tracks: NodeTracks | None, t: float) -> np.ndarray:
    """The node's local 4×4 at time ``t``: animated channels sampled, the others at the node's rest TRS."""
    if tracks is None:
        return local_matrix(node_json if isinstance(node_json, dict) else {})
    rest_t, rest_q, rest_s = node_trs(node_json)
    tr = tracks.translation.sample(t) if tracks.translation is not None else rest_t
    q = tracks.rotation.sample(t) if tracks.rotation is not None else rest_q
    s = tracks.scale.sample(t) if tracks.scale is not None else rest_s
    return trs_matrix(tuple(tr), tuple(q), tuple(s))  # type: ignore[arg-type]
