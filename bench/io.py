"""Load/save speed of the glTF container against pygltflib, measured in the same run.

Builds (in a temporary folder) a 50,000-node document — a 4-ary hierarchy, every node with a name and TRS,
a mesh on every 100th node — whose 10 meshes read from one 50 MB buffer, saved as .gltf (+ .bin) and as .glb.
Then times load and save of both formats with gltf-physics (best of ``--repeat`` runs) and with pygltflib
(``GLTF2().load(path)`` / ``.save(path)``, once: it takes tens of seconds), and prints a table with the
ratios. Note pygltflib's ``.gltf`` save writes the JSON only (its buffer stays where it was); ours also
writes the 50 MB ``.bin`` beside it, as a re-save must.

    python bench/io.py [--nodes 50000] [--megabytes 50] [--repeat 3] [--no-baseline]

Targets (2 cores): load ≤ 0.3 s, save ≤ 0.7 s.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gltf_physics.gltf import Document, load, save


def build(nodes: int, megabytes: int) -> Document:
    meshes = 10
    vertices = megabytes * 1_000_000 // (12 * meshes)
    rng = np.random.default_rng(7)
    data = rng.standard_normal((meshes * vertices, 3)).astype("<f4").tobytes()
    node_list = []
    for i in range(nodes):
        angle = 0.001 * i
        node = {"name": f"node_{i}", "translation": [round(0.01 * i, 6), 1.5, -2.25],
                "rotation": [0.0, float(np.sin(angle / 2)), 0.0, float(np.cos(angle / 2))],
                "scale": [1.0, 1.0, 1.0]}
        children = [c for c in range(4 * i + 1, 4 * i + 5) if c < nodes]
        if children:
            node["children"] = children
        if i % 100 == 0:
            node["mesh"] = (i // 100) % meshes
        node_list.append(node)
    gltf = {
        "asset": {"version": "2.0", "generator": "gltf-physics bench"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": node_list,
        "meshes": [{"primitives": [{"attributes": {"POSITION": m}}]} for m in range(meshes)],
        "accessors": [{"bufferView": 0, "byteOffset": m * vertices * 12, "componentType": 5126,
                       "count": vertices, "type": "VEC3"} for m in range(meshes)],
        "bufferViews": [{"buffer": 0, "byteLength": len(data), "target": 34962}],
        "buffers": [{"byteLength": len(data)}],
    }
    return Document(json=gltf, buffers=[data])


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def ours(src: Path, out: Path, repeat: int) -> tuple[float, float]:
    doc = load(src)
    return best(lambda: load(src), repeat), best(lambda: save(doc, out), repeat)


def pygltflib(src: Path, out: Path) -> tuple[float | None, float | None]:
    """Measured once: tens of seconds per call."""
    try:
        from pygltflib import GLTF2
    except ImportError:  # pip install gltf-physics[bench]
        return None, None
    model = GLTF2().load(src)
    return best(lambda: GLTF2().load(src), 1), best(lambda: model.save(out), 1)


def measure(folder: Path, repeat: int, baseline: bool) -> list[tuple[str, str, float, float | None]]:
    """(format, operation, ours, pygltflib or None) rows.

    Each measurement runs in a function whose objects are gone when it returns: a live 50k-node tree
    from an earlier measurement would slow every later one (the garbage collector walks it).
    """
    (folder / "ours").mkdir()
    (folder / "pygltflib").mkdir()
    results = {}
    for ext in (".gltf", ".glb"):
        results[ext] = ours(folder / f"big{ext}", folder / "ours" / f"out{ext}", repeat)
    rows = []
    for ext in (".gltf", ".glb"):
        theirs: tuple[float | None, float | None] = (None, None)
        if baseline:
            theirs = pygltflib(folder / f"big{ext}", folder / "pygltflib" / f"out{ext}")
        rows += [(ext, "load", results[ext][0], theirs[0]), (ext, "save", results[ext][1], theirs[1])]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--megabytes", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-baseline", action="store_true", help="skip pygltflib (minutes per run)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        doc = build(args.nodes, args.megabytes)
        save(doc, folder / "big.gltf")
        save(doc, folder / "big.glb")
        buffer_mb = len(doc.buffers[0]) / 1e6
        del doc
        json_mb = (folder / "big.gltf").stat().st_size / 1e6
        print(f"{args.nodes} nodes, {buffer_mb:.0f} MB buffer, {json_mb:.1f} MB of JSON; "
              f"gltf-physics best of {args.repeat}, pygltflib once")
        print("| format | operation | gltf-physics (s) | pygltflib (s) | pygltflib / gltf-physics |")
        print("|-|-|-|-|-|")
        for ext, op, ours, theirs in measure(folder, args.repeat, not args.no_baseline):
            other = f"{theirs:.3f}" if theirs is not None else "n/a"
            ratio = f"{theirs / ours:.1f}×" if theirs is not None else "n/a"
            print(f"| {ext} | {op} | {ours:.3f} | {other} | {ratio} |")


if __name__ == "__main__":
    main()
