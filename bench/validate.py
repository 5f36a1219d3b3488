"""Validator speed on a 50,000-node physics document (target: validate() ≤ 1 s on 2 cores).

Builds the document in memory (OMI gen4 and KHR gen3 variants: 12,500 dynamic bodies, each with two collider
children and a trigger child), then times each pass and the whole ``validate()``, with ``json.loads`` of the
same document as the in-process baseline. Run: ``python bench/validate.py [--nodes N]``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from gltf_physics.dialects import read_scene
from gltf_physics.gltf.document import Document
from gltf_physics.validation import runner, semantic, validate
from gltf_physics.validation.gltf import checks as gltf_checks

OB, SH = "OMI_physics_body", "OMI_physics_shape"
KHR, KIS = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"


def omi_document(groups: int) -> dict[str, Any]:
    nodes: list[dict[str, Any]] = []
    for g in range(groups):
        base = len(nodes)
        nodes.append({"translation": [g % 100, g // 100, 0], "children": [base + 1, base + 2, base + 3],
                      "extensions": {OB: {"motion": {"type": "dynamic", "mass": 2}}}})
        nodes.append({"extensions": {OB: {"collider": {"shape": 0, "physicsMaterial": 0}}}})
        nodes.append({"translation": [0, 1, 0], "extensions": {OB: {"collider": {"shape": 1}}}})
        nodes.append({"extensions": {OB: {"trigger": {"shape": 1}}}})
    return {"asset": {"version": "2.0"}, "extensionsUsed": [OB, SH], "nodes": nodes,
            "scenes": [{"nodes": list(range(0, len(nodes), 4))}],
            "extensions": {SH: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}},
                                           {"type": "sphere", "sphere": {"radius": 0.5}}]},
                           OB: {"physicsMaterials": [{"staticFriction": 0.5}]}}}


def khr_document(groups: int) -> dict[str, Any]:
    nodes: list[dict[str, Any]] = []
    for g in range(groups):
        base = len(nodes)
        nodes.append({"translation": [g % 100, g // 100, 0], "children": [base + 1, base + 2, base + 3],
                      "extensions": {KHR: {"motion": {"mass": 2}}}})
        nodes.append({"extensions": {KHR: {"collider": {"geometry": {"shape": 0}, "physicsMaterial": 0}}}})
        nodes.append({"translation": [0, 1, 0],
                      "extensions": {KHR: {"collider": {"geometry": {"shape": 1}}}}})
        nodes.append({"extensions": {KHR: {"trigger": {"geometry": {"shape": 1}}}}})
    return {"asset": {"version": "2.0"}, "extensionsUsed": [KHR, KIS], "nodes": nodes,
            "scenes": [{"nodes": list(range(0, len(nodes), 4))}],
            "extensions": {KIS: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}},
                                            {"type": "sphere", "sphere": {"radius": 0.5}}]},
                           KHR: {"physicsMaterials": [{"staticFriction": 0.5, "dynamicFriction": 0.5}]}}}


def best_of(fn: Callable[[], Any], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def structural(gltf: dict[str, Any]) -> None:
    emit = runner._Collector()
    for _, checker in runner.STRUCTURAL:
        checker(gltf, emit)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=50_000)
    args = parser.parse_args()
    groups = args.nodes // 4
    print(f"{'document':<10} {'phase':<22} {'seconds':>9} {'× json.loads':>13}")
    for name, build in (("OMI gen4", omi_document), ("KHR gen3", khr_document)):
        gltf = build(groups)
        text = json.dumps(gltf)
        doc = Document(json=gltf, buffers=[])
        report = validate(doc)
        assert report.messages == [], report.to_text()[:2000]  # the benchmark document is valid
        scene = read_scene(doc)
        baseline = best_of(lambda t=text: json.loads(t))
        rows = [
            ("json.loads (baseline)", baseline),
            ("structural pass", best_of(lambda g=gltf: structural(g))),
            ("  of which core glTF", best_of(lambda g=gltf: gltf_checks.check(g, runner._Collector()))),
            ("read_scene (readers)", best_of(lambda d=doc: read_scene(d))),
            ("semantic pass", best_of(lambda s=scene, g=gltf: semantic.check(s, g, runner._Collector()))),
            ("validate() total", best_of(lambda d=doc: validate(d))),
        ]
        for phase, seconds in rows:
            print(f"{name:<10} {phase:<22} {seconds:9.3f} {seconds / baseline:13.1f}")
        print(f"{name:<10} {'nodes':<22} {len(gltf['nodes']):9d}")


if __name__ == "__main__":
    main()
