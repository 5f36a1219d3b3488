"""A small, complete, valid glTF for the core-validation tests: one indexed triangle with a material, a camera,
an animated node, a (unused) skin, a (unused) texture with its image and sampler, all data in one embedded buffer.

``mutated(fn)`` gives a copy changed by ``fn``; ``as_document`` / ``write`` make it loadable in memory or on disk.
"""

from __future__ import annotations

import base64
import copy
import json
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gltf_physics.gltf.document import Document

# Buffer layout: positions 0..36, indices 36..42 (+2 padding), times 44..52, translations 52..76.
POSITIONS = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
INDICES = struct.pack("<3H", 0, 1, 2) + b"\0\0"
TIMES = struct.pack("<2f", 0, 1)
TRANSLATIONS = struct.pack("<6f", 0, 0, 0, 0, 1, 0)
DATA = POSITIONS + INDICES + TIMES + TRANSLATIONS


def _png() -> bytes:
    """A 1×1 grey PNG (so the Khronos validator's image decoder accepts the image)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0\x80")) + \
        chunk(b"IEND", b"")


def _uri(mime: str, data: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


def base() -> dict[str, Any]:
    """The valid document (both validators report no error on it)."""
    return {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1, 2]}],
        "nodes": [{"mesh": 0, "translation": [0, 0, 0]}, {"camera": 0, "rotation": [0, 0, 0, 1]},
                  {"children": [3]}, {"name": "joint"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0, "mode": 4}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [1, 0.5, 0.5, 1], "metallicFactor": 0},
                       "emissiveFactor": [0, 0, 0], "alphaMode": "OPAQUE"}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"},
            {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC3"},
        ],
        "bufferViews": [{"buffer": 0, "byteLength": 36, "target": 34962},
                        {"buffer": 0, "byteOffset": 36, "byteLength": 6, "target": 34963},
                        {"buffer": 0, "byteOffset": 44, "byteLength": 8},
                        {"buffer": 0, "byteOffset": 52, "byteLength": 24}],
        "buffers": [{"byteLength": len(DATA), "uri": _uri("application/octet-stream", DATA)}],
        "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
                        "samplers": [{"input": 2, "output": 3, "interpolation": "LINEAR"}]}],
        "cameras": [{"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1, "zfar": 100}}],
        "skins": [{"joints": [3]}],
        "textures": [{"sampler": 0, "source": 0}],
        "images": [{"uri": _uri("image/png", _png())}],
        "samplers": [{"magFilter": 9729, "minFilter": 9987, "wrapS": 10497, "wrapT": 33071}],
    }


def mutated(fn: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    gltf = copy.deepcopy(base())
    fn(gltf)
    return gltf


def as_document(gltf: dict[str, Any]) -> Document:
    """In memory, with the embedded buffer's bytes (as the loader would give them)."""
    return Document(json=gltf, buffers=[DATA] if gltf.get("buffers") else [])


def write(gltf: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path
