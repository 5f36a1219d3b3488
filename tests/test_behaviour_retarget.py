"""Graphs in conversion: pointers to physics properties follow them to the target family, or are listed (KHRI-12).

Each test converts a small hand-written file with ``gltf_physics.convert`` and asserts the exact pointers of the
converted graph, the exact loss lines, and (independently of the rewriting) that a rewritten pointer names, in
the output JSON, the value the original pointer named in the input.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from behaviour_graphs import T, graph_doc, inline
from gltf_physics import api
from gltf_physics.gltf.document import Document

K, OB, OJ = "KHR_physics_rigid_bodies", "OMI_physics_body", "OMI_physics_joint"
GRAPH = "/extensions/KHR_interactivity/graphs/0"


def motion(node: int | str, prop: str, ext: str = K) -> str:
    return f"/nodes/{node}/extensions/{ext}/motion/{prop}"


def setter(pointer: str, type_name: str, *value: Any, out: int | None = None) -> dict[str, Any]:
    node: dict[str, Any] = {"op": "pointer/set", "configuration": {"pointer": pointer, "type": T[type_name]},
                            "values": {"value": inline(type_name, *value)}}
    if out is not None:
        node["flows"] = {"out": out}
    return node


def chain(*setters: tuple[Any, ...]) -> list[dict[str, Any]]:
    """event/onStart, then each (pointer, type, value…) set in turn."""
    n = len(setters)
    return [{"op": "event/onStart", "flows": {"out": 1}}] + [
        setter(p, t, *v, out=i + 2 if i + 1 < n else None) for i, (p, t, *v) in enumerate(setters)]


def khr_doc(nodes: list[dict[str, Any]], joints: list[dict[str, Any]] | None = None,
            joint_settings: list[int] | None = None) -> dict[str, Any]:
    """Two dynamic boxes (nodes 0, 1), each with a joint node below box 0 (nodes 2, 4, …) connected to an
    attachment below box 1, using ``joint_settings[i]`` (default: one joint on settings 0), one material, and
    the graph ``nodes``."""
    doc = graph_doc(nodes)
    settings = joint_settings if joint_settings is not None else [0]
    box0_children = [2 + 2 * i for i in range(len(settings))]
    gltf_nodes: list[dict[str, Any]] = [
        {"name": "box", "children": box0_children,
         "extensions": {K: {"motion": {"mass": 2.0}, "collider": {"geometry": {"shape": 0}, "physicsMaterial": 0}}}},
        {"name": "arm", "translation": [1.0, 0.0, 0.0], "children": [3 + 2 * i for i in range(len(settings))],
         "extensions": {K: {"motion": {"mass": 1.0, "linearVelocity": [0.0, 0.0, 0.5]},
                            "collider": {"geometry": {"shape": 0}}}}},
    ]
    for i, s in enumerate(settings):
        gltf_nodes += [{"name": f"hinge{i}", "extensions": {K: {"joint": {"connectedNode": 3 + 2 * i, "joint": s}}}},
                       {"name": f"attach{i}"}]
    doc["nodes"] = gltf_nodes
    doc["scenes"] = [{"nodes": [0, 1]}]
    doc["extensionsUsed"] = ["KHR_interactivity", K, "KHR_implicit_shapes"]
    doc["extensions"][K] = {
        "physicsMaterials": [{"staticFriction": 0.5, "dynamicFriction": 0.4, "restitution": 0.1}],
        "physicsJoints": joints if joints is not None else [HINGE]}
    doc["extensions"]["KHR_implicit_shapes"] = {"shapes": [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]}
    return doc


HINGE = {"limits": [{"angularAxes": [1, 2], "min": 0.0, "max": 0.0}],
         "drives": [{"type": "angular", "mode": "force", "axis": 0, "maxForce": 10.0, "velocityTarget": 1.0,
                     "damping": 5.0}]}


def convert(doc: dict[str, Any], to: str) -> tuple[dict[str, Any], list[dict[str, str]]]:
    out, losses = api.convert(Document(json=copy.deepcopy(doc)), to)  # type: ignore[arg-type]
    return out.json, [loss for loss in losses if loss["code"] == "KHRI-12"]


def pointers(doc: dict[str, Any]) -> list[str]:
    nodes = doc["extensions"]["KHR_interactivity"]["graphs"][0]["nodes"]
    return [n["configuration"]["pointer"]["value"][0] for n in nodes if "configuration" in n]


def at(doc: dict[str, Any], pointer: str) -> Any:
    value: Any = doc
    for part in pointer[1:].split("/"):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


SETS = (
    (motion(0, "mass"), "float", 3.0),
    (motion(0, "gravityFactor"), "float", 0.5),
    (motion(1, "linearVelocity"), "float3", 1.0, 0.0, 0.0),
    (f"/extensions/{K}/physicsJoints/0/drives/0/velocityTarget", "float", 2.0),
    (f"/extensions/{K}/physicsMaterials/0/staticFriction", "float", 0.9),
    (f"/nodes/2/extensions/{K}/joint/enableCollision", "bool", True),
)


def test_khr_to_omi_rewrites_every_physics_pointer_and_back_gives_the_original_graph() -> None:
    doc = khr_doc(chain(*SETS))
    omi, losses = convert(doc, "omi")
    assert pointers(omi) == [
        motion(0, "mass", OB),
        motion(0, "gravityFactor", OB),
        motion(1, "linearVelocity", OB),
        f"/extensions/{OJ}/physicsJoints/0/drives/0/velocityTarget",
        f"/extensions/{OB}/physicsMaterials/0/staticFriction",
        f"/nodes/2/extensions/{OJ}/enableCollision",
    ]
    assert losses == []
    # independent of the rewriting: each rewritten pointer names the value the original named
    for before, after in zip(pointers(doc), pointers(omi), strict=True):
        if "gravityFactor" not in before and "enableCollision" not in before:  # absent (defaults) in both
            assert at(omi, after) == at(doc, before), (before, after)
    khr, back_losses = convert(omi, "khr")
    assert khr["extensions"]["KHR_interactivity"] == doc["extensions"]["KHR_interactivity"]
    assert back_losses == []


def test_a_pointer_without_counterpart_is_kept_with_exactly_one_loss_naming_the_graph_node() -> None:
    doc = khr_doc(chain((motion(0, "mass"), "float", 3.0), (motion(0, "isKinematic"), "bool", True)))
    omi, losses = convert(doc, "omi")
    assert pointers(omi) == [motion(0, "mass", OB), motion(0, "isKinematic")]
    assert losses == [{
        "code": "KHRI-12", "pointer": f"{GRAPH}/nodes/2/configuration/pointer",
        "message": f"{motion(0, 'isKinematic')}: OMI has no isKinematic pointer (its motion type is a string, "
                   "outside the Object Model); the pointer is kept"}]
    _, same_family = convert(doc, "khr")  # KHR to KHR: isKinematic stays valid, nothing to list
    assert same_family == []


def test_template_pointers_are_rewritten_with_their_parameters_kept() -> None:
    draft = khr_doc([{"op": "pointer/get", "configuration": {"pointer": motion("{nodeIndex}", "mass"),
                                                             "type": T["float"]},
                      "values": {"nodeIndex": inline("int", 0)}}])
    current = khr_doc([{"op": "pointer/get", "configuration": {
        "pointer": f"/extensions/{K}/physicsJoints/[j]/drives/[d]/velocityTarget", "type": T["float"]},
        "values": {"j": inline("int", 0), "d": inline("int", 0)}}])
    assert pointers(convert(draft, "omi")[0]) == [motion("{nodeIndex}", "mass", OB)]
    assert pointers(convert(current, "omi")[0]) == [f"/extensions/{OJ}/physicsJoints/[j]/drives/[d]/velocityTarget"]
    assert convert(draft, "omi")[1] == convert(current, "omi")[1] == []


def test_graphs_without_physics_pointers_are_untouched_byte_for_byte() -> None:
    nodes = chain(("/nodes/0/translation", "float3", 1.0, 2.0, 3.0), ("/nodes/{n}/rotation", "float4", 0, 0, 0, 1),
                  ("/extensions/KHR_lights_punctual/lights/0/intensity", "float", 2.0),
                  ("/nodes/0/extensions/OMI_vehicle_body/maxSpeed", "float", 4.0))
    doc = khr_doc(nodes)
    text = json.dumps(doc["extensions"]["KHR_interactivity"])
    for to in ("omi", "khr"):
        out, losses = convert(doc, to)
        assert json.dumps(out["extensions"]["KHR_interactivity"]) == text
        assert losses == []


def test_the_writers_index_maps_are_followed_or_the_loss_listed() -> None:
    # settings 0 unused, 1 used: KHR writes the used one as physicsJoints/0
    doc = khr_doc(chain((f"/extensions/{K}/physicsJoints/1/drives/0/damping", "float", 7.0)),
                  joints=[{"limits": [{"linearAxes": [0], "min": -1.0, "max": 1.0}]}, HINGE], joint_settings=[1])
    out, losses = convert(doc, "khr")
    assert pointers(out) == [f"/extensions/{K}/physicsJoints/0/drives/0/damping"] and losses == []
    assert at(out, pointers(out)[0]) == 5.0
    # two equal settings are written as one: setting one would change both joints
    doc = khr_doc(chain((f"/extensions/{K}/physicsJoints/1/drives/0/damping", "float", 7.0)),
                  joints=[HINGE, copy.deepcopy(HINGE)], joint_settings=[0, 1])
    out, losses = convert(doc, "omi")
    assert pointers(out) == [f"/extensions/{K}/physicsJoints/1/drives/0/damping"]
    assert [(x["pointer"], x["message"].split(": ", 1)[1]) for x in losses] == [
        (f"{GRAPH}/nodes/1/configuration/pointer",
         "settings 1 and 0 were written as one entry; setting it would change them all; the pointer is kept")]


def test_a_limit_the_writer_splits_and_a_value_a_swap_negates_are_listed() -> None:
    lock = {"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]}
    doc = khr_doc(chain((f"/extensions/{K}/physicsJoints/0/limits/0/max", "float", 0.1)), joints=[lock])
    omi, losses = convert(doc, "omi")  # OMI keeps the 3-axis lock as one limit
    assert pointers(omi) == [f"/extensions/{OJ}/physicsJoints/0/limits/0/max"] and losses == []
    khr, losses = convert(omi, "khr")  # KHR writes it per axis (portable form): three limits
    assert pointers(khr) == pointers(omi)
    assert [x["message"].split(": ", 1)[1] for x in losses] == [
        "the limit was written as 3 one-axis limits; one pointer cannot set them all; the pointer is kept"]
    # a joint whose dynamic body is on the connected side: OMI writes it from that side, negating the target
    doc = khr_doc(chain((f"/extensions/{K}/physicsJoints/0/drives/0/velocityTarget", "float", 2.0),
                        (f"/extensions/{K}/physicsJoints/0/drives/0/damping", "float", 7.0),
                        (f"/nodes/2/extensions/{K}/joint/enableCollision", "bool", True)))
    doc["nodes"][0]["extensions"][K]["motion"] = {"isKinematic": True}
    omi, losses = convert(doc, "omi")
    assert pointers(omi) == [f"/extensions/{K}/physicsJoints/0/drives/0/velocityTarget",
                             f"/extensions/{OJ}/physicsJoints/0/drives/0/damping",
                             f"/nodes/3/extensions/{OJ}/enableCollision"]  # the joint now lives on node 3
    assert omi["nodes"][3]["extensions"][OJ]["connectedNode"] == 2
    assert [x["message"].split(": ", 1)[1] for x in losses] == [
        "the joint on node 2 was written from its other side: 'velocityTarget' changes sign there (a pointer "
        "cannot negate a value); the pointer is kept"]


def test_the_cli_report_lists_the_graph_loss(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from gltf_physics.cli import app

    src = tmp_path / "graph.gltf"
    src.write_text(json.dumps(khr_doc(chain((motion(0, "isKinematic"), "bool", True)))))
    result = CliRunner().invoke(app, ["convert", str(src), str(tmp_path / "out.gltf"), "--to", "omi",
                                      "--report", str(tmp_path / "losses.json")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "losses.json").read_text())
    assert [x["pointer"] for x in report["losses"] if x["code"] == "KHRI-12"] == [
        f"{GRAPH}/nodes/1/configuration/pointer"]
    assert "KHRI-12" in result.output


def test_read_only_lengths_follow_while_the_count_is_kept() -> None:
    gets = [{"op": "pointer/get", "configuration": {"pointer": f"/extensions/{K}/{name}.length", "type": T["int"]}}
            for name in ("physicsMaterials", "physicsJoints")]
    omi, losses = convert(khr_doc(gets), "omi")
    assert pointers(omi) == [f"/extensions/{OB}/physicsMaterials.length", f"/extensions/{OJ}/physicsJoints.length"]
    assert losses == []
    # an unused settings entry is not written: the count changes
    doc = khr_doc(gets, joints=[HINGE, {"limits": [{"linearAxes": [0], "min": 0.0, "max": 1.0}]}])
    omi, losses = convert(doc, "omi")
    assert pointers(omi) == [f"/extensions/{OB}/physicsMaterials.length", f"/extensions/{K}/physicsJoints.length"]
    assert [(x["pointer"], x["message"]) for x in losses] == [
        (f"{GRAPH}/nodes/1/configuration/pointer", f"/extensions/{K}/physicsJoints.length: the joint settings were "
         "renumbered, merged, split or dropped: their count changed; the pointer is kept")]


def test_omi_to_khr_a_static_body_has_no_motion_pointer() -> None:
    omi, _ = convert(khr_doc(chain((motion(0, "mass"), "float", 3.0), (motion(1, "mass"), "float", 4.0),
                                   (motion("{nodeIndex}", "angularVelocity"), "float3", 0.0, 1.0, 0.0))), "omi")
    omi["nodes"][1]["extensions"][OB]["motion"] = {"type": "static"}
    khr, losses = convert(omi, "khr")
    assert pointers(khr) == [motion(0, "mass"), motion(1, "mass", OB), motion("{nodeIndex}", "angularVelocity")]
    assert [(x["pointer"], x["message"]) for x in losses] == [
        (f"{GRAPH}/nodes/2/configuration/pointer",
         f"{motion(1, 'mass', OB)}: node 1 is a static body: KHR has no motion for it; the pointer is kept"),
        (f"{GRAPH}/nodes/3/configuration/pointer",
         f"{motion('{nodeIndex}', 'angularVelocity', OB)}: static bodies 1 have no KHR motion: for them the pointer "
         f"names nothing; rewritten as {motion('{nodeIndex}', 'angularVelocity')}")]
