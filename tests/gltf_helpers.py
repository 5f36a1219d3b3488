"""Independent readers for the container tests: parse files with struct/json, not with the code under test."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any


def glb_chunks(path: Path) -> tuple[bytes, bytes | None]:
    """(raw JSON chunk data incl. padding, raw BIN chunk data incl. padding or None) of a GLB file."""
    data = path.read_bytes()
    magic, version, length = struct.unpack_from("<4sII", data)
    assert (magic, version, length) == (b"glTF", 2, len(data))
    json_len, json_type = struct.unpack_from("<II", data, 12)
    assert json_type == 0x4E4F534A
    json_chunk = data[20:20 + json_len]
    pos = 20 + json_len
    bin_chunk = None
    if pos < len(data):
        bin_len, bin_type = struct.unpack_from("<II", data, pos)
        assert bin_type == 0x004E4942
        bin_chunk = data[pos + 8:pos + 8 + bin_len]
        assert pos + 8 + bin_len == len(data)
    return json_chunk, bin_chunk


def raw_json(path: Path) -> Any:
    if path.suffix == ".glb":
        return json.loads(glb_chunks(path)[0])
    return json.loads(path.read_text(encoding="utf-8"))


def same_json(a: Any, b: Any) -> bool:
    """Equal values *and* key order (dumps of dicts follow insertion order)."""
    return json.dumps(a) == json.dumps(b)


def write_gltf(folder: Path, gltf: Any, name: str = "asset.gltf",
               files: dict[str, bytes] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for rel, data in (files or {}).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    path = folder / name
    path.write_text(json.dumps(gltf) if not isinstance(gltf, str) else gltf, encoding="utf-8")
    return path


def make_glb(json_bytes: bytes, bin_bytes: bytes | None = None) -> bytes:
    """A GLB built by hand (spaces/zeros padding), for the hostile-input tests."""
    json_bytes += b" " * (-len(json_bytes) % 4)
    body = struct.pack("<II", len(json_bytes), 0x4E4F534A) + json_bytes
    if bin_bytes is not None:
        bin_bytes += b"\0" * (-len(bin_bytes) % 4)
        body += struct.pack("<II", len(bin_bytes), 0x004E4942) + bin_bytes
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body
