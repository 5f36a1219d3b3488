"""Edits of the glTF container that adding physics needs: physics-only meshes, collider nodes, re-parenting.

A physics-only mesh is an ordinary glTF mesh (POSITION and indices, triangles) that no node's ``mesh``
names, so a viewer never draws it; only a collider's geometry points at it. Its bytes are appended to
buffer 0 (the GLB BIN chunk, or the buffer a .gltf embeds or names), 4-byte aligned, so the output keeps
one buffer; a document without buffers gets one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..gltf.document import Document
from ..gltf.hierarchy import parents
from ..gltf.jsontext import copy_json
from ..gltf.transforms import affine_inverse, decompose, world_matrices

ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963
FLOAT, UNSIGNED_SHORT, UNSIGNED_INT = 5126, 5123, 5125


class Editor:
    """A copy of a document to add meshes and nodes to; :meth:`document` returns the result."""

    def __init__(self, doc: Document) -> None:
        self.source = doc
        self.json: dict[str, Any] = copy_json(doc.json)
        self.buffers = list(doc.buffers)
        self._tail: bytearray | None = None  # buffer 0's bytes when something was appended

    # -- meshes

    def add_mesh(self, vertices: np.ndarray, triangles: np.ndarray, name: str) -> int:
        """Append a physics-only triangle mesh (float32 positions, uint16/uint32 indices); returns its index."""
        v = np.ascontiguousarray(vertices, dtype=np.float32)
        t = np.asarray(triangles, dtype=np.int64).reshape(-1)
        index_type, index_dtype = (UNSIGNED_SHORT, np.uint16) if len(v) <= 65535 else (UNSIGNED_INT, np.uint32)
        position = self._accessor(v.tobytes(), ARRAY_BUFFER, {
            "componentType": FLOAT, "count": len(v), "type": "VEC3",
            "min": [float(x) for x in v.min(axis=0)], "max": [float(x) for x in v.max(axis=0)]})
        indices = self._accessor(t.astype(index_dtype).tobytes(), ELEMENT_ARRAY_BUFFER, {
            "componentType": index_type, "count": len(t), "type": "SCALAR"})
        meshes = self.json.setdefault("meshes", [])
        meshes.append({"name": name, "primitives": [{"attributes": {"POSITION": position}, "indices": indices,
                                                     "mode": 4}]})
        return len(meshes) - 1

    def _accessor(self, data: bytes, target: int, accessor: dict[str, Any]) -> int:
        offset = self._append(data)
        views = self.json.setdefault("bufferViews", [])
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(data), "target": target})
        accessors = self.json.setdefault("accessors", [])
        accessors.append({"bufferView": len(views) - 1, "byteOffset": 0, **accessor})
        return len(accessors) - 1

    def _append(self, data: bytes) -> int:
        if self._tail is None:
            buffers = self.json.setdefault("buffers", [])
            if not buffers:
                buffers.append({"byteLength": 0})
                self.buffers.append(b"")
            self._tail = bytearray(self.buffers[0][: int(buffers[0].get("byteLength", 0))])
        self._tail.extend(b"\0" * (-len(self._tail) % 4))
        offset = len(self._tail)
        self._tail.extend(data)
        self.json["buffers"][0]["byteLength"] = len(self._tail)
        return offset

    # -- nodes

    def node(self, index: int) -> dict[str, Any]:
        """The node ``index`` of the copy."""
        return self.json["nodes"][index]

    def name(self, index: int) -> str:
        """The node's name, or ``node<index>``."""
        name = self.node(index).get("name")
        return name if isinstance(name, str) and name else f"node{index}"

    def add_child(self, parent: int, name: str, matrix: np.ndarray | None = None) -> int:
        """Append a node under ``parent`` with the pose ``matrix`` (rigid; identity when ``None``)."""
        node: dict[str, Any] = {"name": name}
        if matrix is not None:
            t, q, _ = decompose(matrix)
            if any(abs(x) > 0 for x in t):
                node["translation"] = [float(x) for x in t]
            if abs(q[3]) < 1.0:
                node["rotation"] = [float(x) for x in q]
        nodes = self.json["nodes"]
        nodes.append(node)
        self.node(parent).setdefault("children", []).append(len(nodes) - 1)
        return len(nodes) - 1

    def reparent(self, node: int, parent: int) -> None:
        """Move ``node`` under ``parent`` keeping its world pose (its local transform becomes a matrix)."""
        world = world_matrices(self.json)
        old = parents(self.json)[node]
        local = affine_inverse(world[parent]) @ world[node]
        if old is not None:
            self.node(old)["children"].remove(node)
            if not self.node(old)["children"]:
                del self.node(old)["children"]
        else:
            for scene in self.json.get("scenes", []):
                if node in scene.get("nodes", []):
                    scene["nodes"].remove(node)
        self.node(parent).setdefault("children", []).append(node)
        held = self.node(node)
        for key in ("translation", "rotation", "scale", "matrix"):
            held.pop(key, None)
        if not np.allclose(local, np.eye(4), atol=1e-12):
            held["matrix"] = [float(x) for x in local.T.reshape(-1)]  # glTF matrices are column-major

    def document(self) -> Document:
        """The edited document (new buffer bytes included)."""
        buffers = list(self.buffers)
        if self._tail is not None:
            buffers[0] = bytes(self._tail)
        return Document(json=self.json, buffers=buffers, path=self.source.path, is_glb=self.source.is_glb)
