"""Pointers in conversion beyond the graphs: KHR_animation_pointer channels follow a moved physics property (or are
listed, ANIM-POINTER), and the builder moves graph and animation pointers exactly as ``convert`` does (KHRI-12).

Each test converts a small hand-written file and asserts the exact pointers of the converted animations, the
exact loss entries, and that everything else in the animations comes out byte for byte.
"""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import numpy as np

import gltf_physics as gp
from author_meshes import box, document
from behaviour_graphs import T, graph_doc
from gltf_physics.author import Builder

K, OB, OJ = "KHR_physics_rigid_bodies", "OMI_physics_body", "OMI_physics_joint"
AP = "KHR_animation_pointer"
GRAPH = "/extensions/KHR_interactivity/graphs/0"


def motion(node: int, prop: str, ext: str = K) -> str:
    return f"/nodes/{node}/extensions/{ext}/motion/{prop}"


def channel(pointer: str, sampler: int = 0) -> dict[str, Any]:
    return {"sampler": sampler, "target": {"path": "pointer", "extensions": {AP: {"pointer": pointer}}}}


def with_animation(doc: dict[str, Any], pointers: list[str]) -> dict[str, Any]:
    """``doc`` with one animation (two keyframes, one scalar sampler) whose channels aim at ``pointers``, then a
    plain translation channel on node 0 and a pointer channel carrying an unknown extension beside the pointer."""
    times = np.array([0.0, 1.0], "<f4").tobytes()
    values = np.array([1.0, 2.0, 0.0, 0.0, 1.0, 0.0], "<f4").tobytes()
    blob = times + values
    doc["buffers"] = [{"byteLength": len(blob),
                       "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]
    doc["bufferViews"] = [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 24}]
    doc["accessors"] = [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0],
                         "max": [1.0]},
                        {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}]
    unknown = channel(f"/extensions/{K}/physicsMaterials/0/restitution")
    unknown["target"]["extensions"]["EXT_example"] = {"note": [1, 2]}
    unknown["extras"] = {"keep": True}
    doc["animations"] = [{"name": "clip", "samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"}],
                          "channels": [channel(p) for p in pointers]
                          + [{"sampler": 0, "target": {"node": 0, "path": "translation"}}, unknown],
                          "extensions": {"EXT_example": {"clip": "x"}}}]
    doc["extensionsUsed"] = [*doc.get("extensionsUsed", []), AP]
    return doc


def khr_doc() -> dict[str, Any]:
    """Two dynamic boxes (nodes 0, 1), a hinge on node 2 under box 0 to node 3 under box 1, one material."""
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
        "nodes": [
            {"name": "box", "children": [2], "extensions": {K: {"motion": {"mass": 2.0}, "collider": {
                "geometry": {"shape": 0}, "physicsMaterial": 0}}}},
            {"name": "arm", "translation": [1.0, 0.0, 0.0], "children": [3], "extensions": {K: {
                "motion": {"mass": 1.0, "linearVelocity": [0.0, 0.0, 0.5]}, "collider": {"geometry": {"shape": 0}}}}},
            {"name": "hinge", "extensions": {K: {"joint": {"connectedNode": 3, "joint": 0}}}},
            {"name": "attach"}],
        "extensionsUsed": [K, "KHR_implicit_shapes"],
        "extensions": {
            K: {"physicsMaterials": [{"staticFriction": 0.5, "dynamicFriction": 0.4, "restitution": 0.1}],
                "physicsJoints": [{"limits": [{"angularAxes": [1, 2], "min": 0.0, "max": 0.0}],
                                   "drives": [{"type": "angular", "mode": "force", "axis": 0, "maxForce": 10.0,
                                               "velocityTarget": 1.0, "damping": 5.0}]}]},
            "KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]}}}


PHYSICS = [motion(0, "mass"), motion(1, "linearVelocity"), f"/extensions/{K}/physicsMaterials/0/staticFriction",
           f"/extensions/{K}/physicsJoints/0/drives/0/velocityTarget", f"/nodes/2/extensions/{K}/joint/enableCollision"]
OTHERS = ["/nodes/1/translation", "/materials/0/pbrMetallicRoughness/baseColorFactor",
          "/nodes/0/extensions/OMI_physics_gravity/gravity", "/nodes/0/extensions/EXT_unknown/motion/mass"]


def convert(doc: dict[str, Any], to: str) -> tuple[dict[str, Any], list[dict[str, str]]]:
    out, losses = gp.convert(gp.Document(json=copy.deepcopy(doc), buffers=[]), to)  # type: ignore[arg-type]
    return out.json, [x for x in losses if x["code"] in ("ANIM-POINTER", "KHRI-12")]


def aimed(doc: dict[str, Any]) -> list[str | None]:
    return [c["target"].get("extensions", {}).get(AP, {}).get("pointer") for c in doc["animations"][0]["channels"]]


def test_khr_to_omi_moves_each_physics_channel_and_back_gives_the_original_animations() -> None:
    doc = with_animation(khr_doc(), PHYSICS + OTHERS)
    omi, losses = convert(doc, "omi")
    assert aimed(omi) == [
        motion(0, "mass", OB), motion(1, "linearVelocity", OB), f"/extensions/{OB}/physicsMaterials/0/staticFriction",
        f"/extensions/{OJ}/physicsJoints/0/drives/0/velocityTarget", f"/nodes/2/extensions/{OJ}/enableCollision",
        *OTHERS, None, f"/extensions/{OB}/physicsMaterials/0/restitution"]
    assert losses == []
    assert omi["animations"][0]["channels"][-1]["target"]["extensions"]["EXT_example"] == {"note": [1, 2]}
    khr, back = convert(omi, "khr")
    assert json.dumps(khr["animations"]) == json.dumps(doc["animations"])  # exactly the original strings
    assert back == []


def test_non_physics_channels_samplers_and_unknown_extensions_are_byte_identical() -> None:
    doc = with_animation(khr_doc(), OTHERS)
    for to in ("omi", "khr"):
        out, losses = convert(doc, to)
        before, after = doc["animations"][0], out["animations"][0]
        assert json.dumps(after["channels"][:-1]) == json.dumps(before["channels"][:-1])
        assert json.dumps({k: v for k, v in after.items() if k != "channels"}) == \
            json.dumps({k: v for k, v in before.items() if k != "channels"})
        last, first = after["channels"][-1], before["channels"][-1]
        assert json.dumps({k: v for k, v in last.items() if k != "target"}) == \
            json.dumps({k: v for k, v in first.items() if k != "target"})  # sampler, extras
        assert list(last["target"]["extensions"]) == [AP, "EXT_example"]
        assert last["target"]["extensions"]["EXT_example"] == {"note": [1, 2]} and last["target"]["path"] == "pointer"
        assert losses == []
        assert AP in out["extensionsUsed"]


def test_a_channel_that_cannot_follow_is_kept_with_one_loss_naming_its_pointer() -> None:
    doc = with_animation(khr_doc(), [motion(0, "mass"), motion(0, "isKinematic")])
    omi, losses = convert(doc, "omi")
    assert aimed(omi)[:2] == [motion(0, "mass", OB), motion(0, "isKinematic")]
    assert losses == [{
        "code": "ANIM-POINTER", "pointer": f"/animations/0/channels/1/target/extensions/{AP}/pointer",
        "message": f"{motion(0, 'isKinematic')}: OMI has no isKinematic pointer (its motion type is a string, "
                   "outside the Object Model); the pointer is kept"}]
    _, same_family = convert(doc, "khr")  # KHR to its newest form: isKinematic stays valid
    assert same_family == []


def test_omi_to_khr_a_static_body_has_no_motion_to_animate() -> None:
    omi, _ = convert(with_animation(khr_doc(), [motion(0, "mass"), motion(1, "mass")]), "omi")
    omi["nodes"][1]["extensions"][OB]["motion"] = {"type": "static"}
    khr, losses = convert(omi, "khr")
    assert aimed(khr)[:2] == [motion(0, "mass"), motion(1, "mass", OB)]
    assert losses == [{
        "code": "ANIM-POINTER", "pointer": f"/animations/0/channels/1/target/extensions/{AP}/pointer",
        "message": f"{motion(1, 'mass', OB)}: node 1 is a static body: KHR has no motion for it; the pointer is kept"}]


def test_a_three_axis_lock_written_per_axis_cannot_be_animated_by_one_channel() -> None:
    doc = khr_doc()
    doc["extensions"][K]["physicsJoints"] = [{"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]}]
    omi, losses = convert(with_animation(doc, [f"/extensions/{K}/physicsJoints/0/limits/0/max"]), "omi")
    assert aimed(omi)[0] == f"/extensions/{OJ}/physicsJoints/0/limits/0/max" and losses == []
    khr, losses = convert(omi, "khr")  # KHR writes the lock per axis: three limits
    assert aimed(khr)[0] == f"/extensions/{OJ}/physicsJoints/0/limits/0/max"
    assert [(x["code"], x["pointer"], x["message"]) for x in losses] == [(
        "ANIM-POINTER", f"/animations/0/channels/0/target/extensions/{AP}/pointer",
        f"/extensions/{OJ}/physicsJoints/0/limits/0/max: the limit was written as 3 one-axis limits; one pointer "
        "cannot set them all; the pointer is kept")]


def test_graph_and_animation_losses_come_after_the_writers_in_that_order() -> None:
    doc = with_animation(khr_doc(), [motion(0, "isKinematic")])
    doc["extensions"]["KHR_interactivity"] = graph_doc([{"op": "pointer/get", "configuration": {
        "pointer": motion(0, "isKinematic"), "type": T["bool"]}}])["extensions"]["KHR_interactivity"]
    _, losses = gp.convert(gp.Document(json=doc, buffers=[]), "omi")
    assert [(x["code"], x["pointer"]) for x in losses][-2:] == [
        ("KHRI-12", f"{GRAPH}/nodes/0/configuration/pointer"),
        ("ANIM-POINTER", f"/animations/0/channels/0/target/extensions/{AP}/pointer")]


def omi_scene_with_graph() -> dict[str, Any]:
    """An OMI file: a dynamic box (node 0), a static ground (node 1), an unbodied crate mesh (node 2), a graph
    reading the box's mass and linear velocity and the ground's mass, and a channel animating the box's mass."""
    gltf = document([("Crate", box(0.4, 0.2, 0.3))], [
        {"name": "box", "extensions": {OB: {"motion": {"type": "dynamic", "mass": 2.0,
                                                       "linearVelocity": [0.0, 0.0, 1.0]}, "collider": {"shape": 0}}}},
        {"name": "ground", "translation": [0.0, -1.0, 0.0],
         "extensions": {OB: {"motion": {"type": "static"}, "collider": {"shape": 0}}}},
        {"name": "Crate", "mesh": 0, "translation": [3.0, 0.0, 0.0]}])
    read = ((motion(0, "mass", OB), "float"), (motion(0, "linearVelocity", OB), "float3"),
            (motion(1, "mass", OB), "float"))
    gets = [{"op": "pointer/get", "configuration": {"pointer": p, "type": T[t]}} for p, t in read]
    gltf["extensions"] = {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]},
                          "KHR_interactivity": graph_doc(gets)["extensions"]["KHR_interactivity"]}
    gltf["extensionsUsed"] = [OB, "OMI_physics_shape", "KHR_interactivity"]
    gltf["animations"] = [{"samplers": [{"input": 0, "output": 0}], "channels": [channel(motion(0, "mass", OB))]}]
    return gltf


def test_the_builder_moves_graph_and_animation_pointers_as_convert_does() -> None:
    gltf = omi_scene_with_graph()
    doc = gp.Document(json=gltf, buffers=[base64.b64decode(gltf["buffers"][0]["uri"].split(",", 1)[1])])
    b = Builder(doc, measure_fit=False)
    b.body("Crate", "dynamic")
    b.collider("Crate", "box")
    result = b.build(to="khr")
    out = result.document.json
    nodes = out["extensions"]["KHR_interactivity"]["graphs"][0]["nodes"]
    assert [n["configuration"]["pointer"]["value"][0] for n in nodes] == [
        "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/mass",
        "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/linearVelocity",
        "/nodes/1/extensions/OMI_physics_body/motion/mass"]
    assert aimed(out) == ["/nodes/0/extensions/KHR_physics_rigid_bodies/motion/mass"]
    kept = {"code": "KHRI-12", "pointer": f"{GRAPH}/nodes/2/configuration/pointer",
            "message": "/nodes/1/extensions/OMI_physics_body/motion/mass: node 1 is a static body: KHR has no "
                       "motion for it; the pointer is kept"}
    assert [x for x in result.losses if x["code"] in ("KHRI-12", "ANIM-POINTER")] == [kept]
    assert out["nodes"][2]["extensions"][K]["motion"] == {}  # the crate became a body beside them
    # the same step as convert: without requests, the builder's losses and pointers are convert's
    plain = Builder(gp.Document(json=omi_scene_with_graph(), buffers=list(doc.buffers))).build(to="khr")
    converted, losses = gp.convert(gp.Document(json=omi_scene_with_graph(), buffers=list(doc.buffers)), "khr")
    assert plain.losses == losses
    assert plain.document.json["extensions"]["KHR_interactivity"] == converted.json["extensions"]["KHR_interactivity"]


def _run(gltf: dict[str, Any], seconds: float = 0.5) -> np.ndarray:
    """Both boxes' final world poses (translation, quaternion) after ``seconds``."""
    buffers = [base64.b64decode(gltf["buffers"][0]["uri"].split(",", 1)[1])] if "buffers" in gltf else []
    world = gp.World(gp.read_scene(gp.Document(json=copy.deepcopy(gltf), buffers=buffers)))
    world.run(seconds)
    return np.array([np.concatenate(world.pose(n)) for n in (0, 1)])


def test_pointer_channels_change_nothing_in_a_run_before_or_after_conversion() -> None:
    # The runtime plays node transform channels only: a pointer channel (moved or not) leaves the run as it was.
    animated = with_animation(khr_doc(), [motion(1, "linearVelocity"), motion(0, "mass")])
    animated["animations"][0]["channels"] = animated["animations"][0]["channels"][:2]  # the pointer channels only
    omi, _ = convert(animated, "omi")
    plain = _run(khr_doc())
    assert plain[1, 2] > 0.2  # the arm's own 0.5 m/s along z carried it: the run moved
    assert np.abs(_run(animated) - plain).max() == 0.0
    assert np.abs(_run(omi) - _run(convert(khr_doc(), "omi")[0])).max() == 0.0
