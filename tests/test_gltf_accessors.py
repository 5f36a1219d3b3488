"""Accessor decoding on hand-built buffers: every component type, stride, normalization, sparse, matrices."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from gltf_physics.gltf import Document, GltfError, read_accessor


def _doc(data: bytes, accessors: list[dict], views: list[dict] | None = None) -> Document:
    views = views if views is not None else [{"buffer": 0, "byteLength": len(data)}]
    gltf = {"buffers": [{"byteLength": len(data)}], "bufferViews": views, "accessors": accessors}
    return Document(json=gltf, buffers=[data])


def _acc(ctype: int, type_: str, count: int, **extra: object) -> dict:
    return {"bufferView": 0, "componentType": ctype, "type": type_, "count": count, **extra}


@pytest.mark.parametrize(("ctype", "fmt", "values", "dtype"), [
    (5120, "<3b", (-128, -5, 127), np.int8),
    (5121, "<3B", (0, 200, 255), np.uint8),
    (5122, "<3h", (-32768, -300, 32767), np.int16),
    (5123, "<3H", (0, 60000, 65535), np.uint16),
    (5125, "<3I", (0, 4_000_000_000, 4_294_967_295), np.uint32),
    (5126, "<3f", (-1.5, 0.25, 3.0), np.float32),
])
def test_every_component_type_scalar(ctype: int, fmt: str, values: tuple, dtype: type) -> None:
    data = struct.pack(fmt, *values) + b"\0" * (-struct.calcsize(fmt) % 4)
    result = read_accessor(_doc(data, [_acc(ctype, "SCALAR", 3)]), 0)
    assert result.dtype == dtype
    assert result.shape == (3,)
    assert result.tolist() == list(values)


def test_interleaved_stride_and_offsets() -> None:
    # two vertices of [px py pz | u v] (20 bytes), the view starting 4 bytes into the buffer
    data = b"\xff" * 4 + struct.pack("<5f5f", 1, 2, 3, 0.5, 0.25, 4, 5, 6, 0.75, 1.0)
    views = [{"buffer": 0, "byteOffset": 4, "byteLength": 40, "byteStride": 20}]
    doc = _doc(data, [_acc(5126, "VEC3", 2), _acc(5126, "VEC2", 2, byteOffset=12)], views)
    assert read_accessor(doc, 0).tolist() == [[1, 2, 3], [4, 5, 6]]
    assert read_accessor(doc, 1).tolist() == [[0.5, 0.25], [0.75, 1.0]]


def test_normalized_unsigned_byte_divides_by_255() -> None:
    data = struct.pack("<4B", 0, 51, 255, 0)
    result = read_accessor(_doc(data, [_acc(5121, "VEC3", 1, normalized=True)]), 0)
    assert result.dtype == np.float64
    assert result.tolist() == [[0.0, 0.2, 1.0]]  # 51/255 = 1/5


def test_normalized_short_clamps_at_minus_one() -> None:
    data = struct.pack("<4h", -32768, -32767, 32767, 0)
    result = read_accessor(_doc(data, [_acc(5122, "VEC4", 1, normalized=True)]), 0)
    assert result.tolist() == [[-1.0, -1.0, 1.0, 0.0]]  # max(c/32767, -1)


def test_normalized_byte_and_unsigned_short() -> None:
    data = struct.pack("<2b2H", -128, 127, 65535, 0)
    doc = _doc(data, [_acc(5120, "VEC2", 1, normalized=True), _acc(5123, "VEC2", 1, byteOffset=2,
                                                                     normalized=True)])
    assert read_accessor(doc, 0).tolist() == [[-1.0, 1.0]]
    assert read_accessor(doc, 1).tolist() == [[1.0, 0.0]]


def test_mat2_unsigned_byte_columns_are_padded() -> None:
    # MAT2 of bytes: each 2-byte column is padded to 4 bytes → 8 bytes per element
    data = bytes([1, 2, 99, 99, 3, 4, 99, 99, 5, 6, 99, 99, 7, 8, 99, 99])
    result = read_accessor(_doc(data, [_acc(5121, "MAT2", 2)]), 0)
    assert result.tolist() == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_mat3_short_columns_are_padded() -> None:
    # MAT3 of shorts: each 6-byte column is padded to 8 bytes → 24 bytes per element
    data = b"".join(struct.pack("<3hh", 3 * c + 1, 3 * c + 2, 3 * c + 3, -999) for c in range(3))
    result = read_accessor(_doc(data, [_acc(5122, "MAT3", 1)]), 0)
    assert result.tolist() == [[1, 2, 3, 4, 5, 6, 7, 8, 9]]


def test_mat3_byte_and_mat4_float() -> None:
    mat3 = bytes([1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0])  # 3-byte columns padded to 4
    mat4 = struct.pack("<16f", *range(16))
    data = mat3 + mat4
    doc = _doc(data, [_acc(5120, "MAT3", 1), _acc(5126, "MAT4", 1, byteOffset=12)])
    assert read_accessor(doc, 0).tolist() == [[1, 2, 3, 4, 5, 6, 7, 8, 9]]
    assert read_accessor(doc, 1).tolist() == [list(range(16))]


def test_sparse_substitution_over_a_buffer_view() -> None:
    base = struct.pack("<5H", 1, 2, 3, 4, 5) + b"\0\0"
    indices = struct.pack("<2B", 1, 3) + b"\0\0"
    values = struct.pack("<2H", 20, 40)
    data = base + indices + values
    views = [{"buffer": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 12, "byteLength": 4},
             {"buffer": 0, "byteOffset": 16, "byteLength": 4}]
    acc = _acc(5123, "SCALAR", 5, sparse={"count": 2, "indices": {"bufferView": 1, "componentType": 5121},
                                          "values": {"bufferView": 2}})
    assert read_accessor(_doc(data, [acc], views), 0).tolist() == [1, 20, 3, 40, 5]


def test_sparse_without_buffer_view_starts_from_zeros() -> None:
    data = struct.pack("<I3f", 2, 1.5, -2.0, 3.0)
    views = [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 12}]
    acc = {"componentType": 5126, "type": "VEC3", "count": 4,
           "sparse": {"count": 1, "indices": {"bufferView": 0, "componentType": 5125},
                      "values": {"bufferView": 1}}}
    result = read_accessor(_doc(data, [acc], views), 0)
    assert result.tolist() == [[0, 0, 0], [0, 0, 0], [1.5, -2.0, 3.0], [0, 0, 0]]


def test_sparse_normalized_values_are_normalized_after_substitution() -> None:
    data = struct.pack("<B", 0) + b"\0\0\0" + struct.pack("<B", 255) + b"\0\0\0"
    views = [{"buffer": 0, "byteLength": 1}, {"buffer": 0, "byteOffset": 4, "byteLength": 1}]
    acc = {"componentType": 5121, "type": "SCALAR", "count": 2, "normalized": True,
           "sparse": {"count": 1, "indices": {"bufferView": 0, "componentType": 5121},
                      "values": {"bufferView": 1}}}
    assert read_accessor(_doc(data, [acc], views), 0).tolist() == [1.0, 0.0]


def test_sparse_index_out_of_range() -> None:
    data = struct.pack("<B", 7) + b"\0\0\0" + struct.pack("<f", 1.0)
    views = [{"buffer": 0, "byteLength": 1}, {"buffer": 0, "byteOffset": 4, "byteLength": 4}]
    acc = {"componentType": 5126, "type": "SCALAR", "count": 3,
           "sparse": {"count": 1, "indices": {"bufferView": 0, "componentType": 5121},
                      "values": {"bufferView": 1}}}
    with pytest.raises(GltfError) as info:
        read_accessor(_doc(data, [acc], views), 0)
    assert info.value.pointer == "/accessors/0/sparse/indices"


def test_result_is_a_writable_copy() -> None:
    data = struct.pack("<2f", 1, 2)
    doc = _doc(data, [_acc(5126, "SCALAR", 2)])
    result = read_accessor(doc, 0)
    result[0] = 9
    assert read_accessor(doc, 0).tolist() == [1.0, 2.0]


def test_edited_document_is_rechecked() -> None:
    doc = _doc(struct.pack("<2f", 1, 2), [_acc(5126, "SCALAR", 2)])
    doc.json["accessors"][0]["count"] = 3
    with pytest.raises(GltfError) as info:
        read_accessor(doc, 0)
    assert info.value.pointer == "/accessors/0"


@pytest.mark.parametrize("index", [-1, 1, True, "0"])
def test_bad_accessor_index(index: object) -> None:
    with pytest.raises(GltfError) as info:
        read_accessor(_doc(b"\0" * 4, [_acc(5126, "SCALAR", 1)]), index)  # type: ignore[arg-type]
    assert info.value.pointer == f"/accessors/{index}"
