"""Mesh triangles: lists, strips, fans, non-indexed primitives, and node subtrees in node/world space."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import pytest

from conftest import fixture_path
from gltf_physics.gltf import Document, GltfError, load, mesh_triangles, node_triangles

# Five vertices on the x axis (x = 0..4), positions followed by the index list 0..4 (uint16, padded).
POSITIONS = struct.pack("<15f", *[c for i in range(5) for c in (float(i), 0.0, 0.0)])
INDICES = struct.pack("<5H", 0, 1, 2, 3, 4) + b"\0\0"


def _mesh_doc(primitives: list[dict[str, Any]], nodes: list[dict[str, Any]] | None = None) -> Document:
    data = POSITIONS + INDICES
    gltf = {
        "buffers": [{"byteLength": len(data)}],
        "bufferViews": [{"buffer": 0, "byteLength": 60}, {"buffer": 0, "byteOffset": 60, "byteLength": 10}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 5},
            {"bufferView": 1, "componentType": 5123, "type": "SCALAR", "count": 5},
            {"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 3},  # first 3 vertices
        ],
        "meshes": [{"primitives": primitives}],
        "nodes": nodes or [{"mesh": 0}],
    }
    return Document(json=gltf, buffers=[data])


def test_triangle_strip_exact_triples() -> None:
    _, triangles = mesh_triangles(_mesh_doc([{"attributes": {"POSITION": 0}, "indices": 1, "mode": 5}]), 0)
    # p_i = (v_i, v_{i+1+i%2}, v_{i+2-i%2}): winding alternates so every face keeps the same side
    assert triangles.tolist() == [[0, 1, 2], [1, 3, 2], [2, 3, 4]]
    assert triangles.dtype == np.int64


def test_triangle_fan_exact_triples() -> None:
    _, triangles = mesh_triangles(_mesh_doc([{"attributes": {"POSITION": 0}, "indices": 1, "mode": 6}]), 0)
    assert triangles.tolist() == [[1, 2, 0], [2, 3, 0], [3, 4, 0]]  # p_i = (v_{i+1}, v_{i+2}, v_0)


def test_non_indexed_triangles_and_strip() -> None:
    doc = _mesh_doc([{"attributes": {"POSITION": 2}}, {"attributes": {"POSITION": 0}, "mode": 5}])
    vertices, triangles = mesh_triangles(doc, 0)
    assert vertices.shape == (8, 3) and vertices.dtype == np.float64
    assert vertices[:, 0].tolist() == [0, 1, 2, 0, 1, 2, 3, 4]
    # the strip's vertices follow the first primitive's 3: offset by 3
    assert triangles.tolist() == [[0, 1, 2], [3, 4, 5], [4, 6, 5], [5, 6, 7]]


def test_points_and_lines_are_skipped() -> None:
    doc = _mesh_doc([{"attributes": {"POSITION": 0}, "mode": 0}, {"attributes": {"POSITION": 0}, "mode": 1},
                     {"attributes": {"POSITION": 0}, "mode": 3}, {"attributes": {"POSITION": 2}, "mode": 4}])
    vertices, triangles = mesh_triangles(doc, 0)
    assert (len(vertices), triangles.tolist()) == (3, [[0, 1, 2]])


def test_index_beyond_vertices_is_an_error() -> None:
    doc = _mesh_doc([{"attributes": {"POSITION": 2}, "indices": 1}])  # indices up to 4, only 3 vertices
    with pytest.raises(GltfError) as info:
        mesh_triangles(doc, 0)
    assert info.value.pointer == "/meshes/0/primitives/0/indices"


def test_bad_mesh_index() -> None:
    with pytest.raises(GltfError) as info:
        mesh_triangles(_mesh_doc([]), 3)
    assert info.value.pointer == "/meshes/3"


# A triangle (1,0,0), (0,1,0), (0,0,1) on a child node: T(0,1,0)·R(180° about z) under a parent
# T(10,0,0)·S(2). R180z maps (x,y,z) → (−x,−y,z), so in the parent's space the corners are
# (−1,1,0), (0,0,0), (0,1,1); in world space ×2 then +10 in x: (8,2,0), (10,0,0), (10,2,2).
TRIANGLE = struct.pack("<9f", 1, 0, 0, 0, 1, 0, 0, 0, 1)


def _hierarchy(child_scale: list[float] | None = None) -> Document:
    child: dict[str, Any] = {"mesh": 0, "translation": [0, 1, 0], "rotation": [0, 0, 1, 0]}
    if child_scale:
        child["scale"] = child_scale
    gltf = {
        "buffers": [{"byteLength": 36}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 3}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"name": "root", "translation": [0, 0, 5], "children": [1]},
                  {"name": "parent", "translation": [10, 0, 0], "scale": [2, 2, 2], "children": [2]}, child],
    }
    return Document(json=gltf, buffers=[TRIANGLE])


def test_node_triangles_in_node_space_exact() -> None:
    vertices, triangles = node_triangles(_hierarchy(), 1)
    assert vertices.tolist() == [[-1, 1, 0], [0, 0, 0], [0, 1, 1]]
    assert triangles.tolist() == [[0, 1, 2]]


def test_node_triangles_in_world_space_exact() -> None:
    vertices, _ = node_triangles(_hierarchy(), 1, space="world")  # root adds +5 in z
    assert vertices.tolist() == [[8, 2, 5], [10, 0, 5], [10, 2, 7]]


def test_node_triangles_own_mesh_only() -> None:
    assert node_triangles(_hierarchy(), 1, descendants=False)[0].shape == (0, 3)
    vertices, _ = node_triangles(_hierarchy(), 2, descendants=False)
    assert vertices.tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]  # node space: the mesh as stored


def test_mirrored_child_swaps_winding() -> None:
    vertices, triangles = node_triangles(_hierarchy(child_scale=[-1, 1, 1]), 1)
    # S(−1,1,1) first: (−1,0,0),(0,1,0),(0,0,1); then R180z and T(0,1,0)
    assert vertices.tolist() == [[1, 1, 0], [0, 0, 0], [0, 1, 1]]
    assert triangles.tolist() == [[0, 2, 1]]


def test_fixture_mesh_triangles_match_its_indices() -> None:
    doc = load(fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/ShapeTypes/ShapeTypes.glb"))
    for m, mesh in enumerate(doc.json["meshes"]):
        vertices, triangles = mesh_triangles(doc, m)
        counts = [doc.json["accessors"][p["indices"]]["count"] for p in mesh["primitives"]]
        assert len(triangles) * 3 == sum(counts)
        assert triangles.min() >= 0 and triangles.max() < len(vertices)
