"""Deterministic mutations of the official fixtures for the differential core-validation test (.gltf, and .glb
re-packed with their own BIN chunk).

Each seed picks a base fixture and one to two edits of its core JSON (a deleted key, an index pushed out of
range, a value of the wrong type or range, an array of the wrong length) and writes the result beside
copies of the fixture's own files, so both validators read the same bytes and resources.
"""

from __future__ import annotations

import copy
import json
import math
import random
import shutil
from pathlib import Path
from typing import Any

from conftest import FIXTURES, all_fixture_files
from gltf_physics.gltf import glb
from mutation import key_paths

CORE_ROOTS = ("asset", "scene", "scenes", "nodes", "meshes", "accessors", "bufferViews", "buffers", "materials",
              "textures", "images", "samplers", "animations", "skins", "cameras", "extensionsUsed",
              "extensionsRequired")
TOP_KEYS = (*CORE_ROOTS, "extensions")
BAD_VALUES: list[Any] = [None, True, "x", -1, 0, 1, 2, 10**6, -0.5, 1.5, 2.0, [], {}, [1, 2], [0.5] * 3,
                         [0.5] * 4, [1, 0, 0, 0], {"x": 1}, math.nan, 1e39]


def _bases() -> list[Path]:
    return [FIXTURES / r for r in all_fixture_files()]


def _read(base: Path) -> tuple[dict[str, Any], bytes | None]:
    """The fixture's JSON, and its BIN chunk when it is a GLB."""
    if base.suffix == ".glb":
        with open(base, "rb") as stream:
            json_bytes, bin_chunk = glb.parse(stream, base.stat().st_size)
        return json.loads(json_bytes), bin_chunk
    return json.loads(base.read_text(encoding="utf-8")), None


def _paths(gltf: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Core key paths: nothing inside extension or extras content (Khronos does not check physics JSON)."""
    out = []
    for p in key_paths(gltf, CORE_ROOTS, 6):
        inner = p[:-1]
        if "extensions" not in inner and "extras" not in inner:
            out.append(p)
    return out


def _edit(gltf: dict[str, Any], rng: random.Random) -> None:
    paths = _paths(gltf)
    action = rng.randrange(7)
    if action == 5 or not paths:  # a top-level key deleted or replaced
        key = rng.choice(TOP_KEYS)
        if key in gltf and rng.random() < 0.5:
            del gltf[key]
        else:
            gltf[key] = copy.deepcopy(rng.choice(BAD_VALUES))
        return
    path = rng.choice(paths)
    holder: Any = gltf
    for key in path[:-1]:
        holder = holder[key]
    key = path[-1]
    value = holder[key]
    if action == 0 and isinstance(holder, dict):
        del holder[key]
    elif action == 1 and isinstance(value, int) and not isinstance(value, bool):
        holder[key] = value + rng.choice((1, 7, 1000, -value - 1))  # out of range, misaligned, negative
    elif action == 2 and isinstance(value, list) and value:
        holder[key] = value[:-1] if rng.random() < 0.5 else [*value, value[-1]]
    elif action == 3 and isinstance(value, (int, float)) and not isinstance(value, bool):
        holder[key] = rng.choice((-value - 1, value * 3 + 1, value + 0.5, 0))
    elif action == 6 and isinstance(value, float):
        holder[key] = value * rng.uniform(0.5, 1.0)  # a plausible number: often still valid (min/max may not be)
    elif action == 6 and isinstance(holder, dict) and key in ("name", "extras", "target", "byteStride"):
        del holder[key]  # an optional key: often still valid
    else:
        holder[key] = copy.deepcopy(rng.choice(BAD_VALUES))


# Node matrices (column-major) on both sides of NODE_MATRIX_NON_TRS: TRS ones (a rotation with a negative
# scale, a scale of 1e-3, a translation), and a shear, parallel columns, a zero column, a zero last row, a last
# row off by 1e-7, and small shears on either side of the 5e-5 bound on the rebuilt matrix's error (1e-3: 5e-4 over
# it; 1e-5: 5e-6 under it — not at the bound itself, where the Khronos validator's float32 arithmetic and our
# float64 may round differently).
_C, _S = math.cos(0.7), math.sin(0.7)
MATRICES: list[list[float]] = [
    [_C, _S, 0, 0, -_S, _C, 0, 0, 0, 0, -2, 0, 1, 2, 3, 1],
    [1e-3, 0, 0, 0, 0, 1e-3, 0, 0, 0, 0, 1e-3, 0, 0, 0, 0, 1],
    [1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
    [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1],
    [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
    [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1.0000001],
    [1, 0, 0, 0, 1e-3, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
    [1, 0, 0, 0, 1e-5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
]


def _matrix_edit(gltf: dict[str, Any], rng: random.Random) -> None:
    """One node's transform replaced by a matrix of :data:`MATRICES`."""
    nodes = gltf.get("nodes")
    if not isinstance(nodes, list) or not nodes:
        return
    node = nodes[rng.randrange(len(nodes))]
    for key in ("translation", "rotation", "scale"):
        node.pop(key, None)
    node["matrix"] = list(rng.choice(MATRICES))


def mutated_documents(count: int, out: Path, matrices: int = 0) -> list[tuple[Path, str]]:
    """``count`` mutated fixtures written under ``out``, then ``matrices`` more whose one edit is a node matrix:
    (path, base fixture relative path)."""
    bases = _bases()
    texts = {b: _read(b) for b in bases}
    made = []
    for seed in range(count + matrices):
        rng = random.Random(seed)
        base = bases[seed % len(bases)]
        source, bin_chunk = texts[base]
        gltf = copy.deepcopy(source)
        if seed >= count:
            _matrix_edit(gltf, rng)
        for _ in range(rng.choice((1, 1, 2)) if seed < count else 0):
            _edit(gltf, rng)
        folder = out / f"b{seed % len(bases)}"
        if not folder.exists():
            folder.mkdir(parents=True)
            for entry in base.parent.iterdir():
                if entry.is_file() and entry.suffix not in (".gltf", ".glb"):
                    shutil.copy(entry, folder / entry.name)
        text = json.dumps(gltf)
        if base.suffix == ".glb":  # the mutated JSON chunk with the fixture's own BIN chunk
            path = folder / f"m{seed}.glb"
            path.write_bytes(b"".join(glb.build(text.encode("utf-8"), bin_chunk)))
        else:
            path = folder / f"m{seed}.gltf"
            path.write_text(text, encoding="utf-8")
        made.append((path, str(base.relative_to(FIXTURES))))
    return made
