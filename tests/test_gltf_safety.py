"""Hostile inputs: each is refused with a GltfError naming the exact JSON pointer or byte offset."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest

from conftest import fixture_path
from gltf_helpers import make_glb, write_gltf
from gltf_physics.gltf import Document, GltfError, load, save

ASSET = {"version": "2.0"}


def _refused(path: Path) -> GltfError:
    with pytest.raises(GltfError) as info:
        load(path)
    assert info.value.file == str(path)
    return info.value


def _buffer_uri(tmp_path: Path, uri: str) -> GltfError:
    (tmp_path / "outside.bin").write_bytes(b"secret!!")
    path = write_gltf(tmp_path / "asset", {"asset": ASSET, "buffers": [{"uri": uri, "byteLength": 8}]},
                      files={"inside.bin": b"12345678"})
    return _refused(path)


@pytest.mark.parametrize("uri", [
    "/etc/passwd",
    "../outside.bin",
    "sub/../../outside.bin",
    "%2e%2e/outside.bin",
    "%2E%2E%2Foutside.bin",
    "%252e%252e/outside.bin",
    "..%5coutside.bin",
    "..\\outside.bin",
    "file:///etc/passwd",
    "file:outside.bin",
    "http://example.com/a.bin",
    "https://example.com/a.bin",
    "ftp://example.com/a.bin",
    "C:/Windows/a.bin",
    "C:\\Windows\\a.bin",
    "//server/share/a.bin",
    "%2fetc/passwd",
    "inside.bin\x00.png",
    "inside.bin%00.png",
    "",
])
def test_unsafe_buffer_uri_refused(uri: str, tmp_path: Path) -> None:
    assert _buffer_uri(tmp_path, uri).pointer == "/buffers/0/uri"


def test_dot_segments_inside_the_folder_are_fine(tmp_path: Path) -> None:
    path = write_gltf(tmp_path, {"buffers": [{"uri": "./sub/../inside.bin", "byteLength": 8}]},
                      files={"inside.bin": b"12345678"})
    assert load(path).buffers == [b"12345678"]


def test_symlink_out_of_the_folder_refused(tmp_path: Path) -> None:
    (tmp_path / "outside.bin").write_bytes(b"secret!!")
    folder = tmp_path / "asset"
    folder.mkdir()
    os.symlink(tmp_path / "outside.bin", folder / "link.bin")
    path = write_gltf(folder, {"buffers": [{"uri": "link.bin", "byteLength": 8}]})
    error = _refused(path)
    assert error.pointer == "/buffers/0/uri"
    assert "outside" in error.message


def test_unsafe_image_uri_refused_at_load(tmp_path: Path) -> None:
    path = write_gltf(tmp_path, {"images": [{"uri": "tex.png"}, {"uri": "../../etc/shadow"}]})
    assert _refused(path).pointer == "/images/1/uri"


def test_unsafe_uri_in_memory_document_refused_on_save_nothing_written(tmp_path: Path) -> None:
    doc = Document(json={"buffers": [{"uri": "../escape.bin", "byteLength": 1}]}, buffers=[b"x"])
    out = tmp_path / "out"
    with pytest.raises(GltfError) as info:
        save(doc, out / "a.gltf")
    assert info.value.pointer == "/buffers/0/uri"
    assert not out.exists() and not (tmp_path / "escape.bin").exists()


def test_bad_base64_data_uri(tmp_path: Path) -> None:
    path = write_gltf(tmp_path, {"buffers": [{"uri": "data:application/octet-stream;base64,@@@@",
                                              "byteLength": 3}]})
    assert _refused(path).pointer == "/buffers/0/uri"


def test_data_uri_shorter_than_byte_length(tmp_path: Path) -> None:
    path = write_gltf(tmp_path, {"buffers": [{"uri": "data:application/octet-stream;base64,AAAA",
                                              "byteLength": 4}]})
    error = _refused(path)
    assert error.pointer == "/buffers/0/byteLength"
    assert "only 3 bytes" in error.message


def test_huge_byte_length_fails_before_reading(tmp_path: Path) -> None:
    gltf = {"buffers": [{"uri": "b.bin", "byteLength": 10**15}]}
    path = write_gltf(tmp_path, gltf, files={"b.bin": b"1234"})
    error = _refused(path)
    assert error.pointer == "/buffers/0/byteLength"
    assert "has 4 bytes" in error.message


def test_buffer_without_uri_in_gltf(tmp_path: Path) -> None:
    path = write_gltf(tmp_path, {"buffers": [{"byteLength": 4}]})
    assert _refused(path).pointer == "/buffers/0"


# ------------------------------------------------------------------ JSON shape


@pytest.mark.parametrize(("text", "pointer"), [
    ("[1, 2]", ""),
    ('"text"', ""),
    ("null", ""),
    ('{"buffers": {}}', "/buffers"),
    ('{"buffers": [5]}', "/buffers/0"),
    ('{"buffers": [{"uri": "a.bin"}]}', "/buffers/0"),
    ('{"buffers": [{"byteLength": "4", "uri": "a.bin"}]}', "/buffers/0/byteLength"),
    ('{"buffers": [{"byteLength": 0, "uri": "a.bin"}]}', "/buffers/0/byteLength"),
    ('{"buffers": [{"byteLength": 4, "uri": 7}]}', "/buffers/0/uri"),
    ('{"bufferViews": 3}', "/bufferViews"),
    ('{"bufferViews": [{"buffer": 0, "byteLength": 4}]}', "/bufferViews/0/buffer"),
    ('{"accessors": [null]}', "/accessors/0"),
    ('{"accessors": [{"componentType": 5126, "type": "VEC3", "count": 1, "bufferView": true}]}',
     "/accessors/0/bufferView"),
    ('{"images": [{"uri": ["x"]}]}', "/images/0/uri"),
    ('{"images": [{"bufferView": 2}]}', "/images/0/bufferView"),
])
def test_wrong_json_types_are_errors_not_tracebacks(text: str, pointer: str, tmp_path: Path) -> None:
    assert _refused(write_gltf(tmp_path, text)).pointer == pointer


def test_json_syntax_error_has_line_and_column(tmp_path: Path) -> None:
    path = write_gltf(tmp_path, '{\n  "asset": {"version": "2.0"},\n  "nodes": [1,, 2]\n}')
    error = _refused(path)
    assert "line 3 column 15" in error.message
    assert error.offset == 47  # byte of the second comma: 2 + 31 bytes of lines 1-2, then 14


def test_json_nan_refused(tmp_path: Path) -> None:
    assert "NaN is not a JSON number" in _refused(write_gltf(tmp_path, '{"a": NaN}')).message


def test_json_nested_too_deeply(tmp_path: Path) -> None:
    assert "nested too deeply" in _refused(write_gltf(tmp_path, "[" * 100_000 + "]" * 100_000)).message


def test_json_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "x.gltf"
    path.write_bytes(b'{"name": "\xff"}')
    assert _refused(path).offset == 10


def test_empty_and_missing_files(tmp_path: Path) -> None:
    (tmp_path / "empty.gltf").write_bytes(b"")
    assert _refused(tmp_path / "empty.gltf").offset == 0
    assert "cannot read" in _refused(tmp_path / "nope.gltf").message


# ------------------------------------------------------------------ buffer views and accessors

BIN = bytes(range(48))


def _with_views(tmp_path: Path, views: list, accessors: list | None = None) -> GltfError:
    gltf = {"buffers": [{"uri": "b.bin", "byteLength": 48}], "bufferViews": views,
            "accessors": accessors or []}
    return _refused(write_gltf(tmp_path, gltf, files={"b.bin": BIN}))


def test_buffer_view_outside_buffer(tmp_path: Path) -> None:
    error = _with_views(tmp_path, [{"buffer": 0, "byteOffset": 40, "byteLength": 12}])
    assert error.pointer == "/bufferViews/0"
    assert "[40, 52)" in error.message


@pytest.mark.parametrize("stride", [3, 2, 256, 6])
def test_bad_byte_stride(stride: int, tmp_path: Path) -> None:
    assert _with_views(tmp_path, [{"buffer": 0, "byteLength": 48, "byteStride": stride}]).pointer == \
        "/bufferViews/0/byteStride"


def test_accessor_claiming_10_to_the_12_elements_fails_fast(tmp_path: Path) -> None:
    acc = {"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 10**12}
    error = _with_views(tmp_path, [{"buffer": 0, "byteLength": 48}], [acc])
    assert error.pointer == "/accessors/0"
    assert "need 12000000000000 bytes, bufferView 0 has 48" in error.message


def test_accessor_last_element_one_byte_past_view(tmp_path: Path) -> None:
    # 4 VEC3 floats from byte 4: 4 + 12*3 + 12 = 52 > 48
    acc = {"bufferView": 0, "byteOffset": 4, "componentType": 5126, "type": "VEC3", "count": 4}
    assert _with_views(tmp_path, [{"buffer": 0, "byteLength": 48}], [acc]).pointer == "/accessors/0"


def test_accessor_with_stride_past_view(tmp_path: Path) -> None:
    # stride 16: 16*2 + 12 = 44 fits, 16*3 + 12 = 60 does not
    acc = {"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 4}
    assert _with_views(tmp_path, [{"buffer": 0, "byteLength": 48, "byteStride": 16}], [acc]).pointer == \
        "/accessors/0"


def test_stride_smaller_than_element(tmp_path: Path) -> None:
    acc = {"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 2}
    error = _with_views(tmp_path, [{"buffer": 0, "byteLength": 48, "byteStride": 8}], [acc])
    assert (error.pointer, "smaller than the element size 12" in error.message) == ("/accessors/0", True)


@pytest.mark.parametrize(("acc", "pointer"), [
    ({"componentType": 5126, "type": "VEC3", "count": 0}, "/accessors/0/count"),
    ({"componentType": 5127, "type": "VEC3", "count": 1}, "/accessors/0/componentType"),
    ({"componentType": 5126, "type": "VEC5", "count": 1}, "/accessors/0/type"),
    ({"componentType": 5126, "type": "VEC3", "count": 1, "normalized": 1}, "/accessors/0/normalized"),
    ({"componentType": 5126, "type": "VEC3", "count": 10**12}, "/accessors/0/count"),
    ({"componentType": 5126, "type": "SCALAR", "count": 2, "bufferView": 1}, "/accessors/0/bufferView"),
])
def test_accessor_fields(acc: dict, pointer: str, tmp_path: Path) -> None:
    assert _with_views(tmp_path, [{"buffer": 0, "byteLength": 48}], [acc]).pointer == pointer


@pytest.mark.parametrize(("sparse", "pointer"), [
    ({"count": 3, "indices": {"bufferView": 0, "componentType": 5123},
      "values": {"bufferView": 0, "componentType": 5126}}, "/accessors/0/sparse/count"),
    ({"count": 2, "indices": {"bufferView": 0, "byteOffset": 46, "componentType": 5123},
      "values": {"bufferView": 0}}, "/accessors/0/sparse/indices"),
    ({"count": 2, "indices": {"bufferView": 0, "componentType": 5126},
      "values": {"bufferView": 0}}, "/accessors/0/sparse/indices/componentType"),
    ({"count": 2, "indices": {"bufferView": 0, "componentType": 5121},
      "values": {"bufferView": 0, "byteOffset": 41}}, "/accessors/0/sparse/values"),
    ({"count": 2, "indices": {"bufferView": 0, "componentType": 5121}}, "/accessors/0/sparse/values"),
])
def test_sparse_ranges(sparse: dict, pointer: str, tmp_path: Path) -> None:
    acc = {"componentType": 5126, "type": "VEC2", "count": 2, "sparse": sparse}
    assert _with_views(tmp_path, [{"buffer": 0, "byteLength": 48}], [acc]).pointer == pointer


# ------------------------------------------------------------------ GLB container


def _glb(tmp_path: Path, data: bytes) -> GltfError:
    path = tmp_path / "x.glb"
    path.write_bytes(data)
    return _refused(path)


def test_glb_wrong_version(tmp_path: Path) -> None:
    data = bytearray(make_glb(b"{}"))
    data[4] = 1
    assert _glb(tmp_path, bytes(data)).offset == 4


def test_glb_truncated_names_file_size(tmp_path: Path) -> None:
    data = fixture_path("OMI_physics_gravity/gen1/ramp/ramp_gravity.glb").read_bytes()
    error = _glb(tmp_path, data[:5000])
    assert (error.offset, "truncated" in error.message) == (5000, True)


def test_glb_header_length_shorter_than_file(tmp_path: Path) -> None:
    assert _glb(tmp_path, make_glb(b"{}") + b"junk").offset == 8


def test_glb_chunk_longer_than_file(tmp_path: Path) -> None:
    data = bytearray(make_glb(b"{}"))
    data[12:16] = struct.pack("<I", 10**9)
    assert _glb(tmp_path, bytes(data)).offset == 12


def test_glb_first_chunk_not_json(tmp_path: Path) -> None:
    data = bytearray(make_glb(b"{}"))
    data[16:20] = struct.pack("<I", 0x004E4942)
    assert _glb(tmp_path, bytes(data)).offset == 16


def test_glb_header_only_and_partial_chunk_header(tmp_path: Path) -> None:
    assert _glb(tmp_path, struct.pack("<4sII", b"glTF", 2, 12)).offset == 12
    assert _glb(tmp_path, struct.pack("<4sII", b"glTF", 2, 16) + b"\0\0\0\0").offset == 16


def test_glb_json_error_offset_counts_from_file_start(tmp_path: Path) -> None:
    error = _glb(tmp_path, make_glb(b'{"a": tru}'))
    assert ("line 1 column 7" in error.message, error.offset) == (True, 26)


def test_glb_uri_less_buffer_without_bin_chunk(tmp_path: Path) -> None:
    assert _glb(tmp_path, make_glb(json.dumps({"buffers": [{"byteLength": 4}]}).encode())).pointer == \
        "/buffers/0"


def test_glb_bin_chunk_shorter_than_byte_length(tmp_path: Path) -> None:
    data = make_glb(json.dumps({"buffers": [{"byteLength": 9}]}).encode(), b"12345678")
    assert _glb(tmp_path, data).pointer == "/buffers/0/byteLength"


def test_glb_second_bin_chunk(tmp_path: Path) -> None:
    data = make_glb(b'{"buffers": [{"byteLength": 4}]}', b"1234")
    extra = struct.pack("<II", 4, 0x004E4942) + b"5678"
    data = struct.pack("<4sII", b"glTF", 2, len(data) + len(extra)) + data[12:] + extra
    assert _glb(tmp_path, data).offset == len(data) - 12 + 4


@pytest.mark.parametrize(("key", "value"), [("nodes", 5), ("meshes", {}), ("extensionsUsed", "KHR_x"),
                                            ("extensions", [])])
def test_top_level_types_checked_at_load(key: str, value: object, tmp_path: Path) -> None:
    assert _refused(write_gltf(tmp_path, {key: value})).pointer == f"/{key}"
