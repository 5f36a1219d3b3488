"""Linear-time operations: a 300,000-node document goes through load, validate, convert both
ways and a 0.1 s simulation. No time is asserted (bench/scale.py prints the seconds per size); the document is
built so that only linear work can finish at all in a test run: 300,000 nodes in a 4-ary hierarchy (names and
transforms on every node, a mesh-less chain 60 deep at the end), with 200 bodies, a static ground and 100 joints
spread over it — a quadratic walk per node, per body or per joint would not end in any reasonable time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gltf_physics.api import convert, load, read_scene, save
from gltf_physics.gltf.document import Document
from gltf_physics.sim import World, write_final_pose
from gltf_physics.validation import validate

KHR, KIS = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
NODES = 300_000


def _document() -> Document:
    nodes: list[dict[str, Any]] = [{"name": f"n{i}", "translation": [0.001 * (i % 1000), 0.0, 0.0]}
                                   for i in range(NODES)]
    for i in range(1, NODES - 160):  # a 4-ary tree, then 100 joint nodes (parented below), then a chain of 60
        nodes[(i - 1) // 4].setdefault("children", []).append(i)
    for i in range(NODES - 60, NODES - 1):
        nodes[i]["children"] = [i + 1]
    nodes[0].setdefault("children", []).append(NODES - 60)
    nodes[0]["extensions"] = {KHR: {"collider": {"geometry": {"shape": 1}}}}  # ground
    bodies = list(range(NODES // 2, NODES // 2 + 200))
    for k, b in enumerate(bodies):
        nodes[b]["translation"] = [float(k % 20), 1.0 + k // 20, 0.0]
        nodes[b]["extensions"] = {KHR: {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}}}
        if k % 2:  # a joint node under every other body, to the body before it
            joint = NODES - 160 + k // 2
            nodes[b].setdefault("children", []).append(joint)
            nodes[joint]["extensions"] = {KHR: {"joint": {"joint": 0, "connectedNode": bodies[k - 1]}}}
    gltf = {"asset": {"version": "2.0"}, "extensionsUsed": [KHR, KIS], "scene": 0, "scenes": [{"nodes": [0]}],
            "nodes": nodes,
            "extensions": {KIS: {"shapes": [{"type": "sphere", "sphere": {"radius": 0.25}},
                                            {"type": "box", "box": {"size": [100, 0.1, 100]}}]},
                           KHR: {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 2}]}]}}}
    return Document(json=gltf)


def test_a_300k_node_document_goes_through_every_stage(tmp_path: Path) -> None:
    save(_document(), tmp_path / "big.gltf")
    doc = load(tmp_path / "big.gltf")
    assert len(doc.json["nodes"]) == NODES
    report = validate(doc)
    assert report.num_errors == 0, report.to_text()[:2000]
    for family in ("omi", "khr"):
        out, _ = convert(doc, family)
        assert len(read_scene(out).bodies) == 200
    world = World(read_scene(doc))
    world.run(0.1)
    assert world.step_count == 6
    posed = write_final_pose(world, doc)
    assert posed.json["nodes"][NODES // 2]["translation"][1] < 1.0  # the first body fell
