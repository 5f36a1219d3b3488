"""One broken/fixed document pair per DIGEST rule id: the broken one yields that code with the rule's
severity, its fixed twin (the valid base) does not. Also: the RULES table covers exactly DIGEST §1–§9."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from conftest import FIXTURES
from gltf_physics.validation import RULES, Severity, validate
from validate_docs import (
    JO,
    KHR,
    KIS,
    OB,
    SH,
    as_doc,
    drop,
    finish,
    gravity,
    joint1,
    joint2,
    khr,
    omi4,
    omi_collider,
    omi_gen3,
    omi_old,
    put,
    vehicle,
)

E, W = Severity.ERROR, Severity.WARNING
VB = "OMI_vehicle_body"
N = "/nodes"
B0 = f"{N}/0/extensions/{OB}"
COL = "/extensions/OMI_collider/colliders/0"
SHP = f"/extensions/{SH}/shapes"
KN = f"/extensions/{KHR}"
GR = "OMI_physics_gravity"

Mut = Callable[[dict[str, Any]], Any]


def both(*muts: Mut) -> Mut:
    def run(g: dict[str, Any]) -> None:
        for m in muts:
            m(g)
    return run


def node(i: int, value: dict[str, Any]) -> Mut:
    return lambda g: put(g, f"{N}/{i}", value)


# (rule id, base builder, mutation that breaks it, expected severity or None for the table's)
CASES: list[tuple[str, Callable[[], dict[str, Any]], Mut, Severity | None]] = [
    # §1
    ("GEN-1", omi4, lambda g: put(g, "/extensionsUsed", []), None),
    ("GEN-2", vehicle, lambda g: put(g, f"{N}/3/extensions/OMI_vehicle_wheel/wheel", 7), None),
    ("GEN-3", omi4, lambda g: put(g, f"{N}/1/extensions/{OB}/collider/physicsMaterial", -1), None),
    ("GEN-5", khr, lambda g: put(g, f"/extensions/{KIS}/shapes/0", {"type": "box"}), None),
    ("GEN-6", khr, lambda g: put(g, f"{N}/0/extensions/{KHR}/motion/linearVelocity", [1, 2]), None),
    # §2 OMI_collider
    ("COL-1", omi_collider, lambda g: put(g, "/extensions/OMI_collider/colliders", []), None),
    ("COL-2", omi_collider, lambda g: put(g, f"{COL}/type", "blob"), None),
    ("COL-3", omi_collider, lambda g: put(g, f"{N}/1/extensions/OMI_collider/collider", 5), None),
    ("COL-4", omi_collider, lambda g: drop(g, f"{COL}/size"), None),
    ("COL-5", omi_collider, lambda g: (put(g, COL, {"type": "hull", "mesh": 0}),
                                       put(g, "/meshes/0/primitives/0/mode", 1)), None),
    ("COL-6", omi_collider, lambda g: put(g, COL, {"type": "hull", "mesh": 1}), None),
    ("COL-7", omi_collider, lambda g: put(g, COL, {"type": "capsule", "radius": 1, "height": 1}), None),
    ("COL-8", omi_collider, lambda g: put(g, f"{N}/1/scale", [2, 2, 2]), None),
    ("COL-9", omi_collider, lambda g: put(g, COL, {"type": "trimesh", "mesh": 0}), None),
    # §3.1
    ("BT-1", omi_old, lambda g: put(g, f"{B0}/type", "flying"), None),
    ("BT-2", omi_old, lambda g: put(g, f"{B0}/inertiaTensor", [1, 2, 0, 0, 1, 0, 0, 0, 1]), None),
    ("BT-3", omi_old, lambda g: drop(g, f"{N}/1/extensions"), None),
    ("BT-5", omi_collider, both(node(0, {"children": [2], "extensions": {OB: {"type": "rigid"}}}),
                                lambda g: g["nodes"].append({"children": [1]})), None),
    ("BT-6", omi_collider, lambda g: put(g, f"{COL}/isTrigger", True), None),
    # §3.2
    ("BODY-2", omi4, lambda g: put(g, f"{B0}/motion/type", "flying"), None),
    ("BODY-3", omi4, lambda g: put(g, f"{B0}/motion/linearVelocity", [1, 2]), None),
    ("BODY-4", omi4, lambda g: put(g, f"{N}/1/extensions/{OB}/collider/shape", 5), None),
    ("BODY-5", omi4, lambda g: put(g, f"{N}/3/extensions/{OB}/trigger", {}), None),
    ("BODY-6", omi4, lambda g: put(g, f"{N}/2/extensions/{OB}/trigger/collisionFilter", 0), None),
    ("BODY-7", omi4, lambda g: put(g, f"{N}/2/extensions/{OB}/trigger/nodes", [1]), None),
    ("BODY-8", omi4, lambda g: put(g, f"/extensions/{OB}/collisionFilters/0",
                                   {"collideWithSystems": ["a"], "notCollideWithSystems": ["b"]}), None),
    ("BODY-9", omi4, lambda g: put(g, f"/extensions/{OB}/physicsMaterials/0/staticFriction", -1), None),
    # §4
    ("SHAPE-1", omi4, lambda g: put(g, SHP, []), None),
    ("SHAPE-2", omi4, lambda g: put(g, f"{SHP}/0/type", "blob"), None),
    ("SHAPE-3", omi4, lambda g: put(g, f"{SHP}/0", {"type": "box"}), None),
    ("SHAPE-4", omi4, lambda g: put(g, f"{SHP}/0/box/size", [0, 1, 1]), None),
    ("SHAPE-5", omi4, lambda g: (put(g, f"{SHP}/0", {"type": "convex", "convex": {"mesh": 0}}),
                                 put(g, "/meshes/0/primitives/0/mode", 1)), None),
    ("SHAPE-6", omi4, lambda g: put(g, f"{SHP}/0", {"type": "convex", "convex": {"mesh": 1}}), None),
    ("SHAPE-7", omi4, lambda g: put(g, f"{SHP}/0", {"type": "capsule", "capsule": {"radiusTop": 0.2}}), None),
    ("SHAPE-8", omi4, lambda g: put(g, f"{N}/1/scale", [1, 2, 1]), None),
    ("SHAPE-9", omi4, lambda g: put(g, f"{SHP}/0", {"type": "trimesh", "trimesh": {"mesh": 0}}), None),
    ("SHAPE-10", omi4, lambda g: put(g, f"{SHP}/0", {"type": "capsule",
                                                     "capsule": {"height": 2, "radius": 0.5}}), None),
    ("SHAPE-11", omi_gen3, lambda g: put(g, f"{SHP}/0/capsule/height", 0.5), None),
    # §5.1
    ("JOINT1-1", joint1, lambda g: put(g, f"/extensions/{JO}/constraints", []), None),
    ("JOINT1-2", joint1, lambda g: put(g, f"/extensions/{JO}/constraints/0", {}), None),
    ("JOINT1-3", joint1, lambda g: put(g, f"/extensions/{JO}/constraints/0/linearAxes", [3]), None),
    ("JOINT1-4", joint1, lambda g: put(g, f"/extensions/{JO}/constraints/0",
                                       {"linearAxes": [0], "lowerLimit": 1, "upperLimit": 0}), None),
    ("JOINT1-5", joint1, lambda g: put(g, f"/extensions/{JO}/constraints/0/stiffness", -1), None),
    ("JOINT1-6", joint1, lambda g: drop(g, f"{N}/0/extensions/{JO}/nodeB"), None),
    ("JOINT1-7", joint1, lambda g: put(g, f"{N}/0/extensions/{JO}/nodeA", 3), None),
    ("JOINT1-8", joint1, lambda g: put(g, f"{N}/1/extensions/{OB}/motion/type", "kinematic"), None),
    ("JOINT1-9", joint1, lambda g: put(g, f"{N}/0/mesh", 0), None),
    # §5.2
    ("JOINT-1", joint2, lambda g: drop(g, f"{N}/2/extensions/{JO}/connectedNode"), None),
    ("JOINT-2", joint2, both(lambda g: put(g, f"{N}/0/children", [1]),
                             lambda g: put(g, f"{N}/3/children", [4, 5, 2])), None),
    ("JOINT-3", joint2, lambda g: put(g, f"{N}/2/extensions/{JO}/connectedNode", 6), None),
    ("JOINT-4", joint2, lambda g: put(g, f"/extensions/{JO}/physicsJoints/0", {}), None),
    ("JOINT-5", joint2, lambda g: put(g, f"/extensions/{JO}/physicsJoints/0/limits/0", {"min": 0}), None),
    ("JOINT-6", joint2, lambda g: put(g, f"/extensions/{JO}/physicsJoints/0/limits/0/min", 1), None),
    ("JOINT-7", joint2, lambda g: put(g, f"/extensions/{JO}/physicsJoints/0/limits/0/stiffness", -1), None),
    ("JOINT-8", joint2, lambda g: drop(g, f"/extensions/{JO}/physicsJoints/0/drives/0/mode"), None),
    # §6
    ("KRB-1", khr, lambda g: put(g, f"{N}/0/extensions/{KHR}/collider/geometry", {}), None),
    ("KRB-2", khr, lambda g: put(g, f"{N}/0/extensions/{KHR}/collider/geometry/shape", 9), None),
    ("KRB-4", khr, lambda g: put(g, f"{N}/2/extensions/{KHR}/trigger/geometry", {"shape": 0}), None),
    ("KRB-5", khr, lambda g: put(g, f"{N}/4/extensions/{KHR}/joint/joint", 9), None),
    ("KRB-6", khr, lambda g: put(g, f"{KN}/physicsJoints/0/limits/0/angularAxes", [1]), None),
    ("KRB-7", khr, lambda g: put(g, f"{KN}/physicsJoints/0/drives/0/stiffness", -1), None),
    ("KRB-8", khr, lambda g: drop(g, f"{KN}/physicsJoints/0/drives/0/axis"), None),
    ("KRB-9", khr, lambda g: drop(g, f"{KN}/physicsJoints/0/drives/0/stiffness"), None),
    ("KRB-10", khr, lambda g: put(g, f"{KN}/collisionFilters/0/notCollideWithSystems", ["b"]), None),
    ("KRB-11", khr, lambda g: put(g, f"{N}/0/extensions/{KHR}/motion/mass", 0), None),
    ("KRB-12", khr, lambda g: put(g, f"{N}/1/scale", [1, 2, 1]), None),
    ("KIS-1", khr, lambda g: put(g, f"/extensions/{KIS}/shapes", []), None),
    ("KIS-2", khr, lambda g: drop(g, f"/extensions/{KIS}/shapes/0/type"), None),
    ("KIS-3", khr, lambda g: put(g, f"/extensions/{KIS}/shapes/1/sphere/radius", 0), None),
    # §7
    ("GRAV-1", gravity, lambda g: drop(g, f"/extensions/{GR}/gravity"), None),
    ("GRAV-2", gravity, lambda g: put(g, f"{N}/0/extensions/{GR}/type", "spiral"), None),
    ("GRAV-3", gravity, lambda g: put(g, f"{N}/2/extensions/{GR}", {"type": "point", "gravity": 1,
                                                                       "point": {}}), None),
    ("GRAV-4", gravity, lambda g: put(g, f"{N}/1/extensions/{GR}/line/points", [0, 0, 0]), None),
    ("GRAV-5", gravity, lambda g: put(g, f"{N}/0/extensions/{GR}/point/unitDistance", -1), None),
    ("GRAV-6", gravity, lambda g: put(g, f"{N}/0/extensions/{GR}/priority", 1.5), None),
    ("GRAV-7", gravity, lambda g: drop(g, f"{N}/0/extensions/{GR}/point"), None),
    # §8
    ("SEAT-1", vehicle, lambda g: drop(g, f"{N}/2/extensions/OMI_seat/knee"), None),
    ("SEAT-2", vehicle, lambda g: put(g, f"{N}/2/extensions/OMI_seat/foot", [0, 0, 1]), None),
    # §9
    ("VBODY-1", vehicle, lambda g: drop(g, f"{N}/0/extensions/{OB}"), None),
    ("VBODY-2", vehicle, lambda g: put(g, f"{N}/0/extensions/{VB}/linearActivation", [2, 0, 0]), None),
    ("VBODY-3", vehicle, lambda g: put(g, f"{N}/0/extensions/{VB}/pilotSeat", 1), None),
    ("WHEEL-1", vehicle, lambda g: put(g, f"{N}/6/extensions", {"OMI_vehicle_wheel": {"wheel": 0}}), None),
    ("WHEEL-2", vehicle, lambda g: put(g, "/extensions/OMI_vehicle_wheel/wheels/0/radius", -1), None),
    ("THR-1", vehicle, lambda g: put(g, f"{N}/6/extensions",
                                     {"OMI_vehicle_thruster": {"thruster": 0}}), None),
    ("HOVER-1", vehicle, lambda g: put(g, f"{N}/6/extensions",
                                       {"OMI_vehicle_hover_thruster": {"hoverThruster": 0}}), None),
    # behaviour graphs: trigger events on node 1 (a collider, no trigger) and twice on trigger node 2
    ("KRBI-1", khr, lambda g: _trigger_graph(g, [1]), None),
    ("KRBI-2", khr, lambda g: _trigger_graph(g, [2, 2]), None),
]


def _trigger_graph(g: dict[str, Any], nodes: list[int]) -> None:
    from gltf_physics.behaviour.build import GraphBuilder

    b = GraphBuilder()
    for n in nodes:
        b.node("event/rigid_body_triggerEntered", configuration={"nodeIndex": n})
    b.attach(g)


def _broken(base: Callable[[], dict[str, Any]], mutate: Mut) -> dict[str, Any]:
    g = copy.deepcopy(base())
    mutate(g)
    if g.get("extensionsUsed"):
        finish(g)  # keep GEN-1 satisfied when a mutation adds an extension
    return g


@pytest.mark.parametrize(("rule", "base", "mutate", "severity"), CASES, ids=[c[0] for c in CASES])
def test_broken_document_reports_rule_and_fixed_twin_does_not(rule: str, base: Callable[[], dict[str, Any]],
                                                              mutate: Mut, severity: Severity | None) -> None:
    fixed = validate(as_doc(base()))
    assert rule not in fixed.codes, fixed.to_text()
    broken = validate(as_doc(_broken(base, mutate)))
    expected = RULES[rule].severity if severity is None else severity
    assert (rule, expected) in {(m.code, m.severity) for m in broken.messages}, broken.to_text()


def test_bases_are_clean() -> None:
    """Every base document is valid: no rule message at all (the fixed twins are the bases). Hints (issue 12,
    validate/hints.py) judge behaviour, not validity, and the minimal bases are not meant as scenes."""
    for base in (omi_collider, omi_old, omi4, omi_gen3, joint1, joint2, khr, gravity, vehicle):
        report = validate(as_doc(base()))
        rules = [m for m in report.messages if not m.code.startswith("HINT-")]
        assert rules == [], (base.__name__, report.to_text())


DIGEST = FIXTURES.parent / "specs" / "DIGEST.md"
PREFIXES = "GEN|COL|BT|BODY|SHAPE|JOINT1|JOINT|KRB|KIS|GRAV|SEAT|VBODY|WHEEL|THR|HOVER"


def _digest_ids() -> set[str]:
    text = DIGEST.read_text(encoding="utf-8")
    return set(re.findall(rf"\b(?:{PREFIXES})-\d+\b", text))


def test_rules_table_is_exactly_the_digest_ids_plus_gltf_codes() -> None:
    if not DIGEST.is_file():
        pytest.skip(f"DIGEST not found at {DIGEST}")
    digest = _digest_ids()
    # the DIGEST's numbered families: KHRI-* (behaviour graphs, cased in test_behaviour_check.py) and KRBI-* (the
    # physics rules of graphs) are the specifications' graph sections, which the DIGEST summarises without numbers
    table = {code for code in RULES if re.fullmatch(rf"(?:{PREFIXES})-\d+", code)}
    assert table == digest
    assert len(digest) == 99


def test_every_checkable_rule_has_a_case_and_informative_ones_none() -> None:
    cased = {c[0] for c in CASES}
    checkable = {code for code, rule in RULES.items()
                 if not rule.informative and not code.startswith(("GLTF-", "KHRI-"))}
    assert cased == checkable
    informative = {code for code, rule in RULES.items() if rule.informative}
    assert informative == {"GEN-4", "GEN-7", "GEN-8", "BT-4", "BT-7", "BODY-1", "BODY-10", "BODY-11",
                           "JOINT1-10", "JOINT1-11", "JOINT-9", "KRB-3", "SEAT-3", "THR-2"}


def test_severities_follow_the_digest_tags() -> None:
    """M → error, S/X → warning, D as §12 decides (hand-picked sample of each tag)."""
    assert RULES["GEN-2"].severity == E  # M
    assert RULES["COL-6"].severity == W  # S
    assert RULES["COL-4"].severity == W  # X
    assert RULES["GEN-3"].severity == W  # X/D, D-1: warn
    assert RULES["KRB-11"].severity == W  # X/D, D-5: schema failure ⇒ warning
    assert RULES["JOINT-7"].severity == E  # X/D, D-15: validator error
    assert RULES["SHAPE-10"].severity == W  # D-8


def test_rules_markdown_lists_every_code() -> None:
    from gltf_physics.validation.rules import rules_markdown

    lines = rules_markdown().splitlines()
    assert lines[:2] == ["| Code | Severity | Rule |", "|-|-|-|"]
    assert len(lines) == 2 + len(RULES)
    gen4 = "| GEN-4 | informative | Reusable objects live in a document-level array; nodes refer by index. |"
    assert gen4 in lines
    assert "| KRB-11 | warning |" in "\n".join(lines)
