"""The report's shape (Khronos glTF-Validator style), text form, exit codes, the GLTF-… codes and the weaker
sub-parts of mixed-tag rules."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

import gltf_physics.dialects as dialects
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.errors import GltfError
from gltf_physics.validation import Severity, validate, validate_file
from gltf_physics.validation.report import Message, Report
from validate_docs import JO, KHR, KIS, OB, as_doc, drop, joint2, khr, omi4, omi_collider, put, vehicle

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


def grounded(g: dict) -> dict:
    """``g`` with a static floor far below: its lone falling body would otherwise draw HINT-NO-GROUND, which
    these tests are not about."""
    g["nodes"].append({"translation": [0, -10, 0], "extensions": {OB: {"collider": {"shape": 0}}}})
    return g


def _pairs(report: Report) -> set[tuple[str, Severity, str]]:
    return {(m.code, m.severity, m.pointer) for m in report.messages}


def test_report_dict_has_the_khronos_shape() -> None:
    g = grounded(omi4())
    put(g, f"/nodes/0/extensions/{OB}/motion/type", "flying")  # BODY-2 error
    put(g, f"/nodes/3/extensions/{OB}/trigger", {})  # BODY-5 warning
    d = validate(as_doc(g), uri="scene.gltf").to_dict()
    assert set(d) == {"uri", "validatorVersion", "unreadable", "issues", "info"}
    assert d["uri"] == "scene.gltf"
    assert d["unreadable"] is False
    issues = d["issues"]
    counts = (issues["numErrors"], issues["numWarnings"], issues["numInfos"], issues["numHints"])
    assert counts == (1, 1, 0, 0)
    assert issues["messages"] == [
        {"code": "BODY-2", "severity": 0, "pointer": f"/nodes/0/extensions/{OB}/motion/type",
         "message": "'type' is 'flying'; expected one of static, kinematic, dynamic"},
        {"code": "BODY-5", "severity": 1, "pointer": f"/nodes/3/extensions/{OB}/trigger",
         "message": "the trigger has neither 'shape' nor 'nodes'; it is read as the compound of its "
                    "descendant triggers (D-3): list them in 'nodes'"},
    ]
    assert d["info"]["extensions"] == ["OMI_physics_body", "OMI_physics_shape"]
    assert d["info"]["counts"]["bodies"] == 1
    assert d["info"]["counts"]["colliders"] == 2  # its own and the floor
    json.dumps(d)  # plain JSON


def test_text_form_is_one_line_per_message_then_the_summary() -> None:
    report = Report(uri="a.gltf", messages=[
        Message("GEN-1", E, "/nodes/0/extensions/OMI_physics_body", "not listed"),
        Message("BODY-5", W, "/nodes/1", "empty trigger"),
    ])
    assert report.to_text().splitlines() == [
        "a.gltf: error GEN-1 /nodes/0/extensions/OMI_physics_body: not listed",
        "a.gltf: warning BODY-5 /nodes/1: empty trigger",
        "a.gltf: invalid (1 error, 1 warning, 0 infos, 0 hints)",
    ]
    assert Report(uri="b.gltf").to_text() == "b.gltf: valid (0 errors, 0 warnings, 0 infos, 0 hints)"


def test_exit_codes() -> None:
    clean = Report(uri="x")
    warned = Report(uri="x", messages=[Message("BODY-5", W, "", "m")])
    failed = Report(uri="x", messages=[Message("BODY-2", E, "", "m")])
    unreadable = Report(uri="x", messages=[Message("GLTF-UNREADABLE", E, "", "m")], unreadable=True)
    assert [r.exit_code(strict=False) for r in (clean, warned, failed, unreadable)] == [0, 0, 1, 2]
    assert [r.exit_code(strict=True) for r in (clean, warned, failed, unreadable)] == [0, 1, 1, 2]


def test_unloadable_file_is_an_unreadable_report(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gltf"
    bad.write_text("{ not json", encoding="utf-8")
    for path in (bad, tmp_path / "missing.gltf"):
        report = validate_file(path)
        assert report.unreadable
        assert [m.code for m in report.messages] == ["GLTF-UNREADABLE"]
        assert report.exit_code(strict=False) == 2
        assert report.to_dict()["unreadable"] is True


def test_validate_file_reads_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "ok.gltf"
    path.write_text(json.dumps(grounded(omi4())), encoding="utf-8")
    report = validate_file(path)
    assert (report.unreadable, report.messages, report.uri) == (False, [], str(path))


def test_gltf_codes() -> None:
    g = omi4()
    put(g, f"/nodes/0/extensions/{OB}/motion/mass", math.nan)
    put(g, f"/nodes/1/extensions/{OB}/collider", 5)
    put(g, "/nodes/2/children", [3, 2])
    assert {("GLTF-NUMBER", E, f"/nodes/0/extensions/{OB}/motion/mass"),
            ("GLTF-TYPE", E, f"/nodes/1/extensions/{OB}/collider"),
            ("NODE_LOOP", E, "/nodes/2")} <= _pairs(validate(as_doc(g)))  # node 2 lists itself
    k = khr()
    put(k, f"/extensions/{KHR}/physicsMaterials/0/restitution", -1)
    pointer = f"/extensions/{KHR}/physicsMaterials/0/restitution"
    assert ("GLTF-VALUE", W, pointer) in _pairs(validate(as_doc(k)))
    c = omi_collider()
    put(c, "/extensions/OMI_collider/colliders/0", {"type": "hull", "mesh": 0})
    drop(c, "/meshes/0/primitives/0/attributes/POSITION")
    assert ("GLTF-MESH", E, "/meshes/0/primitives/0/attributes/POSITION") in _pairs(validate(as_doc(c)))


def test_cycle_is_a_node_loop() -> None:
    g = omi4()
    put(g, "/nodes/3/children", [2])  # 2 → 3 → 2
    assert "NODE_LOOP" in validate(as_doc(g)).codes


def test_not_a_dict_document_never_raises() -> None:
    report = validate(Document(json=[1, 2], buffers=[]))  # type: ignore[arg-type]
    assert [(m.code, m.pointer) for m in report.messages] == [("GLTF-TYPE", "")]


def test_reader_error_becomes_a_message_and_skips_the_semantic_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(doc: Document, index: object = None) -> None:  # read_scene(doc, index)
        raise GltfError("shape index 9 points nowhere", pointer="/nodes/7/extensions/X/collider/shape")

    monkeypatch.setattr(dialects, "read_scene", fail)
    report = validate(as_doc(omi4()))
    assert [(m.code, m.severity, m.pointer) for m in report.messages] == [
        ("GLTF-READ", E, "/nodes/7/extensions/X/collider/shape")]
    assert report.info["counts"] == {}

    def crash(doc: Document) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(dialects, "read_scene", crash)
    assert [m.code for m in validate(as_doc(omi4())).messages] == ["GLTF-READ"]


def test_reader_notes_become_messages_once() -> None:
    """A -1 index is GEN-3: the structural pass and the reader's note give one message, not two."""
    g = omi4()
    put(g, f"/nodes/1/extensions/{OB}/collider/collisionFilter", -1)
    gen3 = [m for m in validate(as_doc(g)).messages if m.code == "GEN-3"]
    pointer = f"/nodes/1/extensions/{OB}/collider/collisionFilter"
    assert [(m.severity, m.pointer) for m in gen3] == [(W, pointer)]


# Weaker sub-parts of rules whose table severity is stronger (the specifications mixes tags in one rule).
def test_mixed_tag_rules_use_the_weaker_severity_for_the_weaker_part() -> None:
    g = joint2()
    put(g, f"/extensions/{JO}/physicsJoints/0/limits/0/angularAxes", [0])
    put(g, "/nodes/2/mesh", 0)
    pairs = _pairs(validate(as_doc(g)))
    assert ("JOINT-5", W, f"/extensions/{JO}/physicsJoints/0/limits/0") in pairs  # both kinds: D-4
    assert ("JOINT-2", W, f"/nodes/2/extensions/{JO}") in pairs  # S: joint node carries a mesh

    c = omi_collider()
    put(c, "/extensions/OMI_collider/colliders/0", {"type": "hull", "mesh": 0})
    c["meshes"][0]["primitives"].append(copy.deepcopy(c["meshes"][0]["primitives"][0]))
    assert ("COL-5", W, "/extensions/OMI_collider/colliders/0/mesh") in _pairs(validate(as_doc(c)))

    k = khr()
    put(k, f"/nodes/0/extensions/{KHR}/motion/mass", -2)
    put(k, "/nodes/5/scale", [0, 0, 0])
    put(k, f"/nodes/2/extensions/{KHR}/trigger/collisionFilter", 0)
    pairs = _pairs(validate(as_doc(k)))
    assert ("KRB-11", E, f"/nodes/0/extensions/{KHR}/motion/mass") in pairs
    assert ("KRB-12", INFO) in {(c, s) for c, s, _ in pairs}
    assert ("KRB-4", W, f"/nodes/2/extensions/{KHR}/trigger/collisionFilter") in pairs

    v = vehicle()
    put(v, "/nodes/2/extensions/OMI_seat/knee", [0, 0])
    assert ("SEAT-1", W, "/nodes/2/extensions/OMI_seat/knee") in _pairs(validate(as_doc(v)))


def test_khr_joint_without_any_motion_is_a_warning() -> None:
    k = khr()
    drop(k, f"/nodes/0/extensions/{KHR}/motion")
    pairs = {(m.code, m.severity) for m in validate(as_doc(k)).messages}
    assert ("KRB-5", W) in pairs


def test_zero_size_is_allowed_in_gen1_khr_shapes_but_not_later() -> None:
    """KIS-3: KHR_collision_shapes gen1 minima were inclusive; gen3 prohibits degenerate shapes."""
    k = khr()
    put(k, f"/extensions/{KIS}/shapes/1/sphere/radius", 0)
    assert "KIS-3" in validate(as_doc(k)).codes
    old = {"nodes": [{"extensions": {KHR: {"collider": {"shape": 0}}}}], "extensionsUsed": [KHR,
           "KHR_collision_shapes"],
           "extensions": {"KHR_collision_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0}}]}}}
    assert "KIS-3" not in validate(as_doc(old)).codes
    put(old, "/extensions/KHR_collision_shapes/shapes/0/sphere/radius", -1)
    assert "KIS-3" in validate(as_doc(old)).codes
