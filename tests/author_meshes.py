"""Plain (physics-free) glTF test inputs made with NumPy: boxes, spheres, a torus, an L-shape, a mug.

Each mesh is closed and wound outward unless said otherwise; ``document`` packs meshes and nodes into one
.gltf with an embedded buffer, written here with json/struct, not with the code under test.
"""

from __future__ import annotations

import base64
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

Mesh = tuple[np.ndarray, np.ndarray]


def box(sx: float, sy: float, sz: float, centre: tuple[float, float, float] = (0, 0, 0)) -> Mesh:
    """An axis-aligned box, 8 vertices, 12 outward triangles."""
    v = np.array([[x, y, z] for x in (-.5, .5) for y in (-.5, .5) for z in (-.5, .5)]) * [sx, sy, sz] + centre
    t = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
    return v, t


def revolve(profile: list[tuple[float, float]], segments: int = 32) -> Mesh:
    """A surface of revolution about +Y of the (radius, y) polyline ``profile``, closed by the two ends."""
    rings = []
    for r, y in profile:
        a = np.linspace(0, 2 * math.pi, segments, endpoint=False)
        rings.append(np.c_[r * np.cos(a), np.full(segments, y), -r * np.sin(a)])
    v = np.concatenate(rings)
    tris = []
    for i in range(len(profile) - 1):
        for k in range(segments):
            a, b = i * segments + k, i * segments + (k + 1) % segments
            c, d = a + segments, b + segments
            tris += [[a, b, d], [a, d, c]]
    return v, _outward(v, np.array(tris))


def torus(major: float = 0.4, minor: float = 0.12, segments: int = 24, sides: int = 12) -> Mesh:
    """A torus about +Y (a ring lying flat)."""
    u, w = np.meshgrid(np.linspace(0, 2 * math.pi, segments, endpoint=False),
                       np.linspace(0, 2 * math.pi, sides, endpoint=False), indexing="ij")
    r = major + minor * np.cos(w)
    v = np.c_[(r * np.cos(u)).ravel(), (minor * np.sin(w)).ravel(), (r * np.sin(u)).ravel()]
    tris = []
    for i in range(segments):
        for j in range(sides):
            a, b = i * sides + j, i * sides + (j + 1) % sides
            c, d = ((i + 1) % segments) * sides + j, ((i + 1) % segments) * sides + (j + 1) % sides
            tris += [[a, c, d], [a, d, b]]
    t = np.array(tris)
    centre_ring = np.c_[major * np.cos(u[:, 0]), np.zeros(segments), major * np.sin(u[:, 0])]
    return v, _outward_about(v, t, centre_ring[np.repeat(np.arange(segments), sides)])


def l_shape(size: float = 1.0, thickness: float = 0.3) -> Mesh:
    """An L-shaped prism (a concave solid): the L polygon in the XY plane, extruded by ``thickness`` along Z."""
    outline = [(0, 0), (size, 0), (size, thickness), (thickness, thickness), (thickness, size), (0, size)]
    n = len(outline)
    v = np.array([[x, y, z] for z in (-thickness / 2, thickness / 2) for x, y in outline], dtype=float)
    v -= [size / 2, size / 2, 0]
    back = [[0, k + 1, k] for k in range(1, n - 1)]  # a fan from the corner (it sees every vertex of the L)
    front = [[n, n + k, n + k + 1] for k in range(1, n - 1)]
    sides = [t for k in range(n) for t in ([k, (k + 1) % n, n + (k + 1) % n], [k, n + (k + 1) % n, n + k])]
    return v, _outward_faces(v, np.array(back + front + sides))


def _outward_faces(v: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Wind every triangle like the first side of the closed surface: flip all if the volume came out negative."""
    a, b, c = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
    volume = np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6
    return t if volume > 0 else t[:, [0, 2, 1]]


def mug(radius: float = 0.4, height: float = 0.9, wall: float = 0.06, segments: int = 32) -> Mesh:
    """A cup: an open-topped thick-walled cylinder (outer wall, rim, inner wall, inner floor, outer bottom)."""
    profile = [(0.0, 0.0), (radius, 0.0), (radius, height), (radius - wall, height), (radius - wall, wall),
               (0.0, wall)]
    v, t = _revolve_open(profile, segments)
    return v, t


def _revolve_open(profile: list[tuple[float, float]], segments: int) -> Mesh:
    rings = []
    for r, y in profile:
        a = np.linspace(0, 2 * math.pi, segments, endpoint=False)
        rings.append(np.c_[r * np.cos(a), np.full(segments, y), r * np.sin(a)])
    v = np.concatenate(rings)
    tris = []
    for i in range(len(profile) - 1):
        for k in range(segments):
            a, b = i * segments + k, i * segments + (k + 1) % segments
            tris += [[a, a + segments, b + segments], [a, b + segments, b]]
    return v, np.array(tris)


def _outward(v: np.ndarray, t: np.ndarray) -> np.ndarray:
    return _outward_about(v, t, np.tile(v.mean(axis=0), (len(v), 1)))


def _outward_about(v: np.ndarray, t: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Flip triangles whose normal points towards the centre (of the solid, or of the torus' tube)."""
    a, b, c = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
    n = np.cross(b - a, c - a)
    inward = np.einsum("ij,ij->i", n, a - centres[t[:, 0]]) < 0
    t = t.copy()
    t[inward] = t[inward][:, [0, 2, 1]]
    return t


def document(meshes: list[tuple[str, Mesh]], nodes: list[dict[str, Any]], roots: list[int] | None = None) -> dict:
    """A glTF dict: ``meshes`` (name, (vertices, triangles)) packed in one embedded buffer, the given ``nodes``
    and one scene of ``roots`` (default: every node no other node lists as a child)."""
    blob = bytearray()
    views, accessors, gltf_meshes = [], [], []
    for name, (v, t) in meshes:
        pos = np.asarray(v, dtype="<f4").tobytes()
        idx = np.asarray(t, dtype="<u4").reshape(-1).tobytes()
        for data, target in ((pos, 34962), (idx, 34963)):
            blob.extend(b"\0" * (-len(blob) % 4))
            views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(data), "target": target})
            blob.extend(data)
        vf = np.asarray(v, dtype="<f4")
        accessors.append({"bufferView": len(views) - 2, "componentType": 5126, "count": len(v), "type": "VEC3",
                          "min": vf.min(axis=0).tolist(), "max": vf.max(axis=0).tolist()})
        accessors.append({"bufferView": len(views) - 1, "componentType": 5125, "count": int(np.size(t)),
                          "type": "SCALAR"})
        gltf_meshes.append({"name": name, "primitives": [{"attributes": {"POSITION": len(accessors) - 2},
                                                         "indices": len(accessors) - 1}]})
    children = {c for n in nodes for c in n.get("children", [])}
    roots = roots if roots is not None else [i for i in range(len(nodes)) if i not in children]
    uri = "data:application/octet-stream;base64," + base64.b64encode(bytes(blob)).decode()
    return {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": roots}], "nodes": nodes,
            "meshes": gltf_meshes, "accessors": accessors, "bufferViews": views,
            "buffers": [{"byteLength": len(blob), "uri": uri}]}


def write(path: Path, gltf: dict) -> Path:
    """Write ``gltf`` as a .gltf file."""
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path
