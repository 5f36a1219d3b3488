"""Seconds per operation against document size: every operation must grow at most linearly with nodes.

Builds in memory a KHR physics document of N nodes (groups of ten bodies under a plain node, each body a
box or sphere collider on itself, every fifth body with a child collider, a joint between neighbouring bodies
of a group, one static ground), then times: load (from a saved .gltf), info (read + summary), validate,
convert to OMI and to KHR, view's page build, World build, a 0.1 s run (6 steps, bodies asleep: the per-step
cost is not what this measures) and the final-pose save. The last column is the seconds of the largest size
divided by the smallest, over the node ratio: ≈1 is linear, ≫1 is worse.

    python bench/scale.py [--sizes 1000,10000,50000,200000] [--only convert-omi,info]

Targets (2 shared cores): linear growth; 50k-node convert and info ≤ 2 s.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gltf_physics.api import convert, load, read_scene, save
from gltf_physics.gltf.document import Document
from gltf_physics.sim import World, write_final_pose
from gltf_physics.summary import summarize
from gltf_physics.validation import validate

KHR, KIS = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"


def build(nodes: int) -> Document:
    """A KHR document of about ``nodes`` nodes (see the module docstring)."""
    out: list[dict[str, Any]] = [{"name": "ground", "translation": [0, -1, 0],
                                  "extensions": {KHR: {"collider": {"geometry": {"shape": 2}}}}}]
    roots = [0]
    while len(out) < nodes:
        group = len(out)
        out.append({"name": f"group_{group}", "translation": [float(group % 100) * 3.0, 0.0,
                                                              float(group // 100) * 3.0], "children": []})
        roots.append(group)
        previous = None
        for k in range(10):
            body = len(out)
            ext: dict[str, Any] = {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": k % 2}}}
            out.append({"name": f"body_{body}", "translation": [0.0, 0.6 * k, 0.0], "extensions": {KHR: ext}})
            out[group]["children"].append(body)
            if k % 5 == 4:
                out[body]["children"] = [len(out)]
                out.append({"name": f"part_{body}", "translation": [0.3, 0, 0],
                            "extensions": {KHR: {"collider": {"geometry": {"shape": 1}}}}})
            if previous is not None:
                out[body].setdefault("children", []).append(len(out))
                out.append({"name": f"joint_{body}", "extensions": {KHR: {"joint": {
                    "joint": 0, "connectedNode": previous}}}})
            previous = body
    gltf = {
        "asset": {"version": "2.0", "generator": "gltf-physics bench/scale.py"},
        "extensionsUsed": [KHR, KIS],
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": out,
        "extensions": {
            KIS: {"shapes": [{"type": "box", "box": {"size": [0.5, 0.5, 0.5]}},
                             {"type": "sphere", "sphere": {"radius": 0.25}},
                             {"type": "box", "box": {"size": [1000, 1, 1000]}}]},
            KHR: {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 1.0}]}]},
        },
    }
    return Document(json=gltf)


def operations(doc: Document, folder: Path) -> dict[str, Callable[[], object]]:
    path = folder / "scene.gltf"
    save(doc, path)
    state: dict[str, Any] = {}

    def world() -> None:
        state["world"] = World(read_scene(doc))

    def run() -> None:
        state["world"].run(0.1)

    def view_page() -> None:
        from gltf_physics.view.page import build_page  # imported late: the viewer bundle may be absent

        build_page(doc, read_scene(doc))

    return {
        "load": lambda: load(path),
        "info": lambda: summarize(doc, read_scene(doc)),
        "validate": lambda: validate(doc),
        "convert-omi": lambda: convert(doc, "omi"),
        "convert-khr": lambda: convert(doc, "khr"),
        "view-page": view_page,
        "world": world,
        "run-0.1s": run,
        "final-pose": lambda: save(write_final_pose(state["world"], doc), folder / "pose.gltf"),
    }


def timed(fn: Callable[[], object]) -> float:
    gc.collect()
    start = time.process_time()  # CPU seconds: the machine is shared, wall time is noise
    try:
        fn()
    except Exception as exc:  # a missing optional part (the viewer bundle) must not stop the table
        print(f"    ({type(exc).__name__}: {str(exc)[:80]})")
        return float("nan")
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,50000,200000")
    parser.add_argument("--only", default="", help="comma-separated operation names")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows: dict[str, list[float]] = {}
    for n in sizes:
        doc = build(n)
        with tempfile.TemporaryDirectory() as tmp:
            for name, fn in operations(doc, Path(tmp)).items():
                if args.only and name not in args.only.split(","):
                    continue
                rows.setdefault(name, []).append(timed(fn))
        print(f"  {len(doc.json['nodes'])} nodes done", flush=True)
    header = f"{'operation':<12}" + "".join(f"{n:>10,}" for n in sizes) + "   growth/linear"
    print(header)
    print("-" * len(header))
    for name, secs in rows.items():
        growth = (secs[-1] / secs[0]) / (sizes[-1] / sizes[0]) if len(secs) > 1 and secs[0] > 0 else float("nan")
        print(f"{name:<12}" + "".join(f"{s:>10.3f}" for s in secs) + f"   {growth:>8.2f}")


if __name__ == "__main__":
    main()
