"""The GLB container (glTF 2.0 the spec): 12-byte header, a JSON chunk, an optional BIN chunk.

Reading checks every declared length against the real file size *before* reading the bytes, so a hostile
header cannot make us allocate; errors carry the byte offset. Unknown chunk types after BIN are skipped
(spec: clients ignore them) and are not written back.
"""

from __future__ import annotations

import struct
from typing import BinaryIO

from .errors import GltfError

MAGIC = b"glTF"
VERSION = 2
CHUNK_JSON = 0x4E4F534A
CHUNK_BIN = 0x004E4942
HEADER = struct.Struct("<4sII")
CHUNK_HEADER = struct.Struct("<II")


def parse(stream: BinaryIO, size: int) -> tuple[bytes, bytes | None]:
    """``(json_bytes, bin_bytes or None)`` of a GLB whose file is ``size`` bytes long."""
    head = _read(stream, 0, HEADER.size, size)
    magic, version, length = HEADER.unpack(head)
    if magic != MAGIC:
        raise GltfError("not a GLB file (magic is not 'glTF')", offset=0)
    if version != VERSION:
        raise GltfError(f"unsupported GLB version {version} (only 2)", offset=4)
    if length > size:
        raise GltfError(f"truncated GLB: header declares {length} bytes, file has {size}", offset=size)
    if length < size:
        raise GltfError(f"GLB header declares {length} bytes but the file has {size}", offset=8)
    json_bytes: bytes | None = None
    bin_bytes: bytes | None = None
    pos = HEADER.size
    while pos < length:
        chunk_length, chunk_type = CHUNK_HEADER.unpack(_read(stream, pos, CHUNK_HEADER.size, length))
        start = pos + CHUNK_HEADER.size
        if chunk_length > length - start:
            raise GltfError(f"chunk of {chunk_length} bytes runs past the end of the file ({length} bytes)",
                            offset=pos)
        if json_bytes is None:
            if chunk_type != CHUNK_JSON:
                raise GltfError(f"first chunk must be JSON, found type 0x{chunk_type:08x}", offset=pos + 4)
            if chunk_length == 0:
                raise GltfError("empty JSON chunk", offset=pos)
            json_bytes = _read(stream, start, chunk_length, length)
        elif chunk_type == CHUNK_BIN:
            if bin_bytes is not None:
                raise GltfError("second BIN chunk (only one is allowed)", offset=pos + 4)
            bin_bytes = _read(stream, start, chunk_length, length)
        elif chunk_type == CHUNK_JSON:
            raise GltfError("second JSON chunk (only one is allowed)", offset=pos + 4)
        pos = start + chunk_length
    if json_bytes is None:
        raise GltfError("GLB has no JSON chunk", offset=HEADER.size)
    return json_bytes, bin_bytes


def _read(stream: BinaryIO, offset: int, count: int, end: int) -> bytes:
    if offset + count > end:
        raise GltfError(f"truncated GLB: {count} bytes needed at byte {offset}, only {end - offset} left",
                        offset=end)
    stream.seek(offset)
    data = stream.read(count)
    if len(data) != count:  # the file shrank under us
        raise GltfError("truncated GLB while reading", offset=offset + len(data))
    return data


def pad4(length: int) -> int:
    return (4 - length % 4) % 4


def build(json_bytes: bytes, bin_bytes: bytes | None) -> list[bytes]:
    """The GLB as a list of byte strings to write in order (avoids copying a big BIN chunk once more).

    JSON is padded with spaces and BIN with zeros to 4-byte boundaries, as the spec requires.
    """
    json_pad = b" " * pad4(len(json_bytes))
    parts = [b"", CHUNK_HEADER.pack(len(json_bytes) + len(json_pad), CHUNK_JSON), json_bytes, json_pad]
    if bin_bytes is not None:
        bin_pad = b"\x00" * pad4(len(bin_bytes))
        parts += [CHUNK_HEADER.pack(len(bin_bytes) + len(bin_pad), CHUNK_BIN), bin_bytes, bin_pad]
    total = HEADER.size + sum(len(p) for p in parts)
    parts[0] = HEADER.pack(MAGIC, VERSION, total)
    return parts
