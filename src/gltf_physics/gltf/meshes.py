"""Mesh triangles for collision geometry: positions and index triples of modes 4/5/6 (glTF 2.0 the spec.2.1).

Points and lines (modes 0–3) have no area and are skipped. Triangle strips give
``(v_i, v_{i+1+i%2}, v_{i+2-i%2})`` and fans ``(v_{i+1}, v_{i+2}, v_0)``, as the spec writes them; degenerate
triangles are kept so indices stay exactly what the file says.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

import numpy as np

from . import bounds
from .accessors import read_accessor
from .document import Document
from .errors import GltfError, clip
from .hierarchy import ancestors, parents
from .layout import is_int
from .transforms import local_matrix

TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN = 4, 5, 6


def mesh_triangles(doc: Document, mesh_index: int) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (V, 3) float64 and triangles (T, 3) int64 of a mesh's triangle primitives, concatenated."""
    meshes = bounds.array(doc.json, "meshes")
    if not is_int(mesh_index):  # never "/meshes/None" in a message
        raise GltfError(f"a mesh index is needed, got {clip(repr(mesh_index))}", pointer="/meshes")
    pointer = f"/meshes/{mesh_index}"
    if not 0 <= mesh_index < len(meshes):
        raise GltfError(f"no mesh {mesh_index} (there are {len(meshes)})", pointer=pointer)
    primitives = bounds.obj(meshes[mesh_index], pointer).get("primitives")
    if not isinstance(primitives, list):
        raise GltfError("'primitives' must be an array", pointer=f"{pointer}/primitives")
    all_vertices, all_triangles, base = [], [], 0
    for p, primitive in enumerate(primitives):
        where = f"{pointer}/primitives/{p}"
        found = _primitive(doc, bounds.obj(primitive, where), where)
        if found is None:
            continue
        vertices, triangles = found
        all_vertices.append(vertices)
        all_triangles.append(triangles + base)
        base += len(vertices)
    if not all_vertices:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    return np.concatenate(all_vertices), np.concatenate(all_triangles)


def _primitive(doc: Document, primitive: dict[str, Any],
               pointer: str) -> tuple[np.ndarray, np.ndarray] | None:
    mode = primitive.get("mode", TRIANGLES)
    attributes = primitive.get("attributes")
    if mode not in (TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN) or not is_int(mode):
        return None
    if not isinstance(attributes, dict) or "POSITION" not in attributes:
        return None
    extensions = primitive.get("extensions")
    if isinstance(extensions, dict) and "KHR_draco_mesh_compression" in extensions:
        raise GltfError("Draco-compressed primitives are not supported", pointer=f"{pointer}/extensions")
    positions = read_accessor(doc, _ref(attributes, "POSITION", f"{pointer}/attributes"))
    if positions.ndim != 2 or positions.shape[1] != 3:
        raise GltfError("POSITION must be VEC3", pointer=f"{pointer}/attributes/POSITION")
    if "indices" in primitive:
        indices = read_accessor(doc, _ref(primitive, "indices", pointer))
        if indices.ndim != 1 or indices.dtype.kind != "u":
            raise GltfError("indices must be unsigned integer SCALARs", pointer=f"{pointer}/indices")
        indices = indices.astype(np.int64)
        if len(indices) and int(indices.max()) >= len(positions):
            raise GltfError(f"index {int(indices.max())} ≥ vertex count {len(positions)}",
                            pointer=f"{pointer}/indices")
    else:
        indices = np.arange(len(positions), dtype=np.int64)
    with np.errstate(invalid="ignore"):  # signalling-NaN bit patterns in the file: kept, not warned about
        vertices = positions.astype(np.float64)
    return vertices, triangles_of(indices, mode)


def _ref(holder: dict[str, Any], key: str, pointer: str) -> int:
    value = holder[key]
    if not is_int(value):
        raise GltfError(f"'{key}' must be an accessor index", pointer=f"{pointer}/{key}")
    return value


def triangles_of(indices: np.ndarray, mode: int) -> np.ndarray:
    """(T, 3) vertex indices of a TRIANGLES / TRIANGLE_STRIP / TRIANGLE_FAN index list."""
    n = len(indices)
    if mode == TRIANGLES:
        return indices[: n - n % 3].reshape(-1, 3)
    count = max(n - 2, 0)
    i = np.arange(count)
    if mode == TRIANGLE_STRIP:
        odd = i % 2
        return np.stack([indices[i], indices[i + 1 + odd], indices[i + 2 - odd]], axis=1)
    return np.stack([indices[i + 1], indices[i + 2], np.full(count, indices[0] if n else 0)], axis=1)


def node_triangles(doc: Document, node: int, *, descendants: bool = True,
                   space: Literal["node", "world"] = "node") -> tuple[np.ndarray, np.ndarray]:
    """The node's mesh plus (optionally) its descendants' meshes, in ``node``'s space or in world space.

    Each part is transformed by the product of local matrices along the path (no matrix inverse, so a
    parent/child chain of exact transforms gives exact coordinates). A part whose transform mirrors
    (negative determinant) gets its triangles' winding swapped, so faces keep their outward side.
    """
    nodes = bounds.array(doc.json, "nodes")
    if not is_int(node):  # e.g. a mesh shape that names neither a mesh nor a node
        raise GltfError(f"a node index is needed, got {clip(repr(node))}", pointer="/nodes")
    if not 0 <= node < len(nodes):
        raise GltfError(f"no node {node} (there are {len(nodes)})", pointer=f"/nodes/{node}")
    base = _world_of(doc.json, nodes, node) if space == "world" else np.eye(4)
    all_vertices, all_triangles, offset = [], [], 0
    for n, matrix in _subtree(nodes, node, base, descendants):
        mesh = nodes[n].get("mesh") if isinstance(nodes[n], dict) else None
        if mesh is None:
            continue
        if not is_int(mesh):
            raise GltfError("'mesh' must be a mesh index", pointer=f"/nodes/{n}/mesh")
        vertices, triangles = mesh_triangles(doc, mesh)
        vertices = vertices @ matrix[:3, :3].T + matrix[:3, 3]
        if np.linalg.det(matrix[:3, :3]) < 0:
            triangles = triangles[:, [0, 2, 1]]
        all_vertices.append(vertices)
        all_triangles.append(triangles + offset)
        offset += len(vertices)
    if not all_vertices:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    return np.concatenate(all_vertices), np.concatenate(all_triangles)


def _world_of(gltf: dict[str, Any], nodes: list[Any], node: int) -> np.ndarray:
    """World matrix of ``node``: local matrices multiplied from the root down."""
    matrix = np.eye(4)
    for n in [*reversed(list(ancestors(parents(gltf), node))), node]:
        matrix = matrix @ _local(nodes, n)
    return matrix


def _subtree(nodes: list[Any], node: int, base: np.ndarray,
             descendants: bool) -> Iterator[tuple[int, np.ndarray]]:
    """``(n, matrix from n's space to the target space)`` for ``node`` and, optionally, its descendants in
    depth-first pre-order (each visited once, even under a malformed hierarchy)."""
    stack, seen = [(node, base)], {node}
    while stack:
        n, matrix = stack.pop()
        yield n, matrix
        if not descendants:
            return
        children = nodes[n].get("children") if isinstance(nodes[n], dict) else None
        for c in reversed(children if isinstance(children, list) else []):
            if is_int(c) and 0 <= c < len(nodes) and c not in seen:
                seen.add(c)
                stack.append((c, matrix @ _local(nodes, c)))


def _local(nodes: list[Any], n: int) -> np.ndarray:
    return local_matrix(nodes[n] if isinstance(nodes[n], dict) else {})
