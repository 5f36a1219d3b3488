"""OMI core dialects, reading: generation detection, counts per fixture, shapes, bodies, triggers.

Every expectation below was worked out by reading the fixture JSON by hand (nodes, extensions, hierarchy).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

from conftest import fixture_path
from gltf_physics.dialects.common.context import ReadContext
from gltf_physics.dialects.omi_physics import body as omi_body
from gltf_physics.dialects.omi_physics.motion import inertia_from_tensor
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.io import load
from gltf_physics.model import (
    Body,
    Box,
    Capsule,
    Collider,
    CombineMode,
    Cylinder,
    MeshShape,
    Motion,
    MotionType,
    PhysicsScene,
    Sphere,
    Trigger,
    shape_kind,
)


def read_json(gltf: dict[str, Any]) -> PhysicsScene:
    ctx = ReadContext.for_document(Document(json=gltf))
    omi_body.read(ctx)
    return ctx.scene


def read_fixture(relative: str) -> PhysicsScene:
    ctx = ReadContext.for_document(load(fixture_path(relative)))
    omi_body.read(ctx)
    return ctx.scene


B1C, B1S = "OMI_physics_body/gen1-type-omi-collider/", "OMI_physics_body/gen1-type-shape/"
B2, B4 = "OMI_physics_body/gen2-type-dynamic/", "OMI_physics_body/gen4-materials/"
S1, S2 = "OMI_physics_shape/gen1-flat/", "OMI_physics_shape/gen2-subjson-nodeext/"
S3, S4 = "OMI_physics_shape/gen3-subjson/", "OMI_physics_shape/gen4-tapered/"
J1C, J1 = "OMI_physics_joint/gen1-constraints-omi-collider/", "OMI_physics_joint/gen1-constraints/"
J2 = "OMI_physics_joint/gen2-physicsJoints/"
C, B, S, J = "OMI_collider", "OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint"
TYPE_COLLIDER = {C: "gen1", B: "gen1-type"}
TYPE_SHAPE = {S: "gen2-subjson-nodeext", B: "gen1-type"}
FLAT = {S: "gen1-flat", B: "gen1-type"}
NEWEST = {S: "gen4-tapered", B: "gen4-materials"}
GEN3 = {S: "gen3-subjson", B: "gen3-motion"}

# fixture → (detect(), bodies by motion type, colliders by kind, simple triggers, compound triggers, joints)
EXPECTED: dict[str, tuple[dict[str, str], dict[str, int], dict[str, int], int, int, int]] = {
    "OMI_collider/gen1/box_collider.gltf": ({C: "gen1"}, {}, {"box": 1}, 0, 0, 0),
    "OMI_collider/gen1/capsule_collider.gltf": ({C: "gen1"}, {}, {"capsule": 1}, 0, 0, 0),
    "OMI_collider/gen1/cylinder_collider.gltf": ({C: "gen1"}, {}, {"cylinder": 1}, 0, 0, 0),
    "OMI_collider/gen1/hull/convex_hull.gltf": ({C: "gen1"}, {}, {"convex": 1}, 0, 0, 0),
    "OMI_collider/gen1/hull/convex_hull_only.gltf": ({C: "gen1"}, {}, {"convex": 1}, 0, 0, 0),
    "OMI_collider/gen1/sphere_collider.gltf": ({C: "gen1"}, {}, {"sphere": 1}, 0, 0, 0),
    "OMI_collider/gen1/trigger_box.gltf": ({C: "gen1"}, {}, {}, 1, 0, 0),
    "OMI_collider/gen1/trimesh/concave_trimesh.gltf": ({C: "gen1"}, {}, {"trimesh": 1}, 0, 0, 0),
    "OMI_collider/gen1/trimesh/concave_trimesh_only.gltf": ({C: "gen1"}, {}, {"trimesh": 1}, 0, 0, 0),
    # body `type` era with OMI_collider children (BT-5); a trigger body = compound of its shapes
    B1C + "basic/static_box.gltf": (TYPE_COLLIDER, {"static": 1}, {"box": 1}, 0, 0, 0),
    B1C + "basic/trigger_box.gltf": (TYPE_COLLIDER, {}, {}, 1, 1, 0),
    B1C + "basic/trigger_only_body.gltf": (TYPE_COLLIDER, {}, {}, 1, 1, 0),
    B1C + "basic/trigger_only_shape.gltf": (TYPE_COLLIDER, {"static": 1}, {}, 1, 0, 0),
    B1C + "complex/one_collider_trigger.gltf": (TYPE_COLLIDER, {"static": 1}, {"box": 1}, 1, 0, 0),
    B1C + "complex/rigid_with_velocity.gltf": (TYPE_COLLIDER, {"dynamic": 1}, {"sphere": 1}, 0, 0, 0),
    B1C + "complex/two_boxes.gltf": (TYPE_COLLIDER, {"static": 1}, {"box": 1}, 1, 1, 0),
    # body `type` era with node-level OMI_physics_shape (BT-7 nearest ancestor)
    B1S + "basic/static_box.gltf": (TYPE_SHAPE, {"static": 1}, {"box": 1}, 0, 0, 0),
    B1S + "basic/trigger_box.gltf": (TYPE_SHAPE, {}, {}, 1, 1, 0),
    B1S + "complex/indirect_children.gltf": (TYPE_SHAPE, {"kinematic": 3}, {"box": 3}, 3, 2, 0),
    B1S + "complex/rigid_with_velocity.gltf": (TYPE_SHAPE, {"dynamic": 1}, {"sphere": 1}, 0, 0, 0),
    B1S + "complex/static_with_trigger.gltf": (TYPE_SHAPE, {"static": 1}, {"box": 1}, 1, 1, 0),
    B1S + "complex/two_boxes.gltf": (TYPE_SHAPE, {"static": 1}, {"box": 1}, 1, 1, 0),
    # gen2-type-dynamic: only `dynamic` proves gen2; static/kinematic/trigger alone: gen1-type (earliest)
    B2 + "basic/static_box.gltf": (TYPE_SHAPE, {"static": 1}, {"box": 1}, 0, 0, 0),
    B2 + "basic/trigger_box.gltf": (TYPE_SHAPE, {}, {}, 1, 1, 0),
    B2 + "complex/dynamic_with_velocity.gltf": (
        {S: "gen2-subjson-nodeext", B: "gen2-type-dynamic"},
        {"dynamic": 1},
        {"sphere": 1},
        0,
        0,
        0,
    ),
    B2 + "complex/indirect_children.gltf": (TYPE_SHAPE, {"kinematic": 3}, {"box": 3}, 3, 2, 0),
    B2 + "complex/static_with_trigger.gltf": (TYPE_SHAPE, {"static": 1}, {"box": 1}, 1, 1, 0),
    B2 + "complex/two_boxes.gltf": (TYPE_SHAPE, {"static": 1}, {"box": 1}, 1, 1, 0),
    # current
    B4 + "basic/compound_trigger.gltf": (NEWEST, {}, {}, 3, 1, 0),
    B4 + "basic/dynamic_box.gltf": (NEWEST, {"dynamic": 1}, {"box": 1}, 0, 0, 0),
    B4 + "basic/trigger_box.gltf": (NEWEST, {}, {}, 1, 0, 0),
    B4 + "complex/ball_pit.gltf": (NEWEST, {"static": 1, "dynamic": 5}, {"box": 4, "sphere": 5}, 0, 0, 0),
    B4 + "complex/dynamic_with_velocity.gltf": (NEWEST, {"dynamic": 1}, {"sphere": 1}, 0, 0, 0),
    B4 + "complex/indirect_children.gltf": (NEWEST, {"kinematic": 3}, {"box": 3}, 3, 2, 0),
    B4 + "complex/static_body_motion.gltf": (NEWEST, {"static": 1}, {"box": 1}, 0, 0, 0),
    B4 + "complex/static_compound_collider.gltf": (NEWEST, {}, {"box": 1}, 0, 0, 0),
    B4 + "complex/static_with_trigger.gltf": (NEWEST, {"static": 1}, {"box": 1}, 1, 0, 0),
    B4 + "complex/two_boxes.gltf": (NEWEST, {"static": 1}, {"box": 1}, 1, 1, 0),
    B4 + "triggers/triggers.gltf": (NEWEST, {"dynamic": 1}, {"box": 1, "convex": 1}, 3, 1, 0),
    # shapes
    S1 + "box_collider.gltf": (FLAT, {"static": 1}, {"box": 1}, 0, 0, 0),
    S1 + "capsule_collider.gltf": (FLAT, {"static": 1}, {"capsule": 1}, 0, 0, 0),
    S1 + "cylinder_collider.gltf": (FLAT, {"static": 1}, {"cylinder": 1}, 0, 0, 0),
    S1 + "hull/convex_hull.gltf": (FLAT, {"static": 1}, {"convex": 1}, 0, 0, 0),
    S1 + "hull/convex_hull_only.gltf": (FLAT, {"static": 1}, {"convex": 1}, 0, 0, 0),
    S1 + "sphere_collider.gltf": (FLAT, {"static": 1}, {"sphere": 1}, 0, 0, 0),
    S1 + "trimesh/concave_trimesh.gltf": (FLAT, {"static": 1}, {"trimesh": 1}, 0, 0, 0),
    S1 + "trimesh/concave_trimesh_only.gltf": (FLAT, {"static": 1}, {"trimesh": 1}, 0, 0, 0),
    S2 + "box_collider.gltf": (TYPE_SHAPE, {"static": 1}, {"box": 1}, 0, 0, 0),
    S2 + "capsule_collider.gltf": (TYPE_SHAPE, {"static": 1}, {"capsule": 1}, 0, 0, 0),
    S2 + "convex/convex_hull.gltf": (TYPE_SHAPE, {"static": 1}, {"convex": 1}, 0, 0, 0),
    S2 + "convex/convex_hull_only.gltf": (TYPE_SHAPE, {"static": 1}, {"convex": 1}, 0, 0, 0),
    S2 + "cylinder_collider.gltf": (TYPE_SHAPE, {"static": 1}, {"cylinder": 1}, 0, 0, 0),
    S2 + "default_box.gltf": (TYPE_SHAPE, {"static": 1}, {"box": 1}, 0, 0, 0),
    S2 + "sphere_collider.gltf": (TYPE_SHAPE, {"static": 1}, {"sphere": 1}, 0, 0, 0),
    S2 + "trimesh/concave_trimesh.gltf": (TYPE_SHAPE, {"static": 1}, {"trimesh": 1}, 0, 0, 0),
    S2 + "trimesh/concave_trimesh_only.gltf": (TYPE_SHAPE, {"static": 1}, {"trimesh": 1}, 0, 0, 0),
    # gen3 vs gen4: only capsule/cylinder `radius` proves gen3; box/sphere/mesh files read as the newest
    S3 + "box_collider.gltf": (NEWEST, {}, {"box": 1}, 0, 0, 0),
    S3 + "capsule_collider.gltf": (GEN3, {}, {"capsule": 1}, 0, 0, 0),
    S3 + "convex/convex_hull.gltf": (NEWEST, {}, {"convex": 1}, 0, 0, 0),
    S3 + "convex/convex_hull_only.gltf": (NEWEST, {}, {"convex": 1}, 0, 0, 0),
    S3 + "cylinder_collider.gltf": (GEN3, {}, {"cylinder": 1}, 0, 0, 0),
    S3 + "default_box.gltf": (NEWEST, {}, {"box": 1}, 0, 0, 0),
    S3 + "sphere_collider.gltf": (NEWEST, {}, {"sphere": 1}, 0, 0, 0),
    S3 + "trimesh/concave_trimesh.gltf": (NEWEST, {}, {"trimesh": 1}, 0, 0, 0),
    S3 + "trimesh/concave_trimesh_only.gltf": (NEWEST, {}, {"trimesh": 1}, 0, 0, 0),
    S4 + "box_collider.gltf": (NEWEST, {}, {"box": 1}, 0, 0, 0),
    S4 + "capsule_collider.gltf": (NEWEST, {}, {"capsule": 1}, 0, 0, 0),
    S4 + "convex/convex_hull.gltf": (NEWEST, {}, {"convex": 1}, 0, 0, 0),
    S4 + "convex/convex_hull_only.gltf": (NEWEST, {}, {"convex": 1}, 0, 0, 0),
    S4 + "cylinder_collider.gltf": (NEWEST, {}, {"cylinder": 1}, 0, 0, 0),
    S4 + "default_box.gltf": (NEWEST, {}, {"box": 1}, 0, 0, 0),
    S4 + "sphere_collider.gltf": (NEWEST, {}, {"sphere": 1}, 0, 0, 0),
    S4 + "trimesh/concave_trimesh.gltf": (NEWEST, {}, {"trimesh": 1}, 0, 0, 0),
    S4 + "trimesh/concave_trimesh_only.gltf": (NEWEST, {}, {"trimesh": 1}, 0, 0, 0),
    # joints (counts; the joints themselves are in test_dialect_omi_joint.py)
    J1C + "simple_joint.gltf": (
        {**TYPE_COLLIDER, J: "gen1-constraints"},
        {"dynamic": 2, "static": 1},
        {"capsule": 2, "box": 1},
        0,
        0,
        1,
    ),
    J1C + "slider_ball.gltf": (
        {**TYPE_COLLIDER, J: "gen1-constraints"},
        {"dynamic": 1, "static": 1},
        {"box": 1, "sphere": 1},
        0,
        0,
        1,
    ),
    J1C + "weld_joint.gltf": (
        {**TYPE_COLLIDER, J: "gen1-constraints"},
        {"dynamic": 2, "static": 1},
        {"capsule": 2, "box": 1},
        0,
        0,
        1,
    ),
    J1 + "hanging_rope.gltf": (
        {**GEN3, J: "gen1-constraints"},
        {"static": 1, "dynamic": 3},
        {"box": 1, "capsule": 3},
        0,
        0,
        3,
    ),
    J1 + "pendulum_balls.gltf": (
        {**GEN3, J: "gen1-constraints"},
        {"static": 1, "dynamic": 3},
        {"box": 1, "sphere": 3},
        0,
        0,
        3,
    ),
    J1 + "rope_railing.gltf": (
        {**GEN3, J: "gen1-constraints"},
        {"static": 2, "dynamic": 5},
        {"box": 2, "capsule": 5},
        0,
        0,
        6,
    ),
    J1 + "simple_joint.gltf": (
        {**GEN3, J: "gen1-constraints"},
        {"dynamic": 2, "static": 1},
        {"capsule": 2, "box": 1},
        0,
        0,
        1,
    ),
    J1 + "slider_ball.gltf": (
        {**GEN3, J: "gen1-constraints"},
        {"dynamic": 1, "static": 1},
        {"box": 1, "sphere": 1},
        0,
        0,
        1,
    ),
    J1 + "swing_and_slide.gltf": (
        {**GEN3, J: "gen1-constraints"},
        {"dynamic": 1, "static": 1},
        {"box": 1, "sphere": 1},
        0,
        0,
        1,
    ),
    J1 + "weld_joint.gltf": (
        {**GEN3, J: "gen1-constraints"},
        {"dynamic": 2, "static": 1},
        {"capsule": 2, "box": 1},
        0,
        0,
        1,
    ),
    # current joints; capsules still {height, radius} (SHAPE-10) ⇒ shapes gen3, body gen4 (joint gen2 era)
    J2 + "hanging_rope.gltf": (
        {S: "gen3-subjson", B: "gen4-materials", J: "gen2-physicsJoints"},
        {"static": 1, "dynamic": 3},
        {"box": 1, "capsule": 3},
        0,
        0,
        3,
    ),
    J2 + "pendulum_balls.gltf": (
        {**NEWEST, J: "gen2-physicsJoints"},
        {"static": 1, "dynamic": 3},
        {"box": 1, "sphere": 3},
        0,
        0,
        3,
    ),
    J2 + "rope_railing.gltf": (
        {S: "gen3-subjson", B: "gen4-materials", J: "gen2-physicsJoints"},
        {"static": 2, "dynamic": 5},
        {"box": 2, "capsule": 5},
        0,
        0,
        6,
    ),
    J2 + "simple_joint.gltf": (
        {S: "gen3-subjson", B: "gen4-materials", J: "gen2-physicsJoints"},
        {"dynamic": 2, "static": 1},
        {"capsule": 2, "box": 1},
        0,
        0,
        1,
    ),
    J2 + "slider_ball.gltf": (
        {**NEWEST, J: "gen2-physicsJoints"},
        {"dynamic": 1, "static": 1},
        {"box": 1, "sphere": 1},
        0,
        0,
        1,
    ),
    J2 + "swing_and_slide.gltf": (
        {**NEWEST, J: "gen2-physicsJoints"},
        {"dynamic": 1, "static": 1},
        {"box": 1, "sphere": 1},
        0,
        0,
        1,
    ),
    J2 + "weld_joint.gltf": (
        {S: "gen3-subjson", B: "gen4-materials", J: "gen2-physicsJoints"},
        {"dynamic": 2, "static": 1},
        {"capsule": 2, "box": 1},
        0,
        0,
        1,
    ),
    # seats of the type era: an isTrigger collider under a `trigger` body / alone
    "OMI_seat/gen1-2023-type-era/recliner_chair_with_body.gltf": (TYPE_COLLIDER, {}, {}, 1, 1, 0),
    "OMI_seat/gen1-2023-type-era/recliner_chair_with_collider.gltf": ({C: "gen1"}, {}, {}, 1, 0, 0),
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_generation_and_counts(relative: str) -> None:
    gens, bodies, colliders, simple, compound, joints = EXPECTED[relative]
    scene = read_fixture(relative)
    assert omi_body.detect(scene.document.json if scene.document else {}) == gens
    assert dict(Counter(b.motion.type.value for b in scene.bodies)) == bodies
    assert dict(Counter(shape_kind(c.shape) for c in scene.colliders)) == colliders
    assert sum(t.nodes is None for t in scene.triggers) == simple
    assert sum(t.nodes is not None for t in scene.triggers) == compound
    assert len(scene.joints) == joints


def test_every_omi_core_fixture_folder_is_covered() -> None:
    folders = {"/".join(k.split("/")[:2]) for k in EXPECTED}
    assert folders == {
        "OMI_collider/gen1",
        "OMI_physics_body/gen1-type-omi-collider",
        "OMI_physics_body/gen1-type-shape",
        "OMI_physics_body/gen2-type-dynamic",
        "OMI_physics_body/gen4-materials",
        "OMI_physics_shape/gen1-flat",
        "OMI_physics_shape/gen2-subjson-nodeext",
        "OMI_physics_shape/gen3-subjson",
        "OMI_physics_shape/gen4-tapered",
        "OMI_physics_joint/gen1-constraints-omi-collider",
        "OMI_physics_joint/gen1-constraints",
        "OMI_physics_joint/gen2-physicsJoints",
        "OMI_seat/gen1-2023-type-era",
    }


# ---------------------------------------------------------------- shapes


@pytest.mark.parametrize(
    "relative",
    [
        "OMI_collider/gen1/capsule_collider.gltf",  # radius 0.5, total height 2
        S1 + "capsule_collider.gltf",  # same, flat
        S2 + "capsule_collider.gltf",  # capsule{height 2, radius 0.5}
        S3 + "capsule_collider.gltf",  # same
        S4 + "capsule_collider.gltf",  # capsule{height 1, radiusBottom/Top 0.5}
    ],
)
def test_capsule_height_between_cap_centres_in_every_generation(relative: str) -> None:
    # D-8: total height 2 with radius 0.5 ⇒ 2 − 2·0.5 = 1.0 between the hemisphere centres.
    (collider,) = read_fixture(relative).colliders
    assert collider.shape == Capsule(height=1.0, radius_bottom=0.5, radius_top=0.5)


@pytest.mark.parametrize(
    "relative",
    [
        "OMI_collider/gen1/cylinder_collider.gltf",
        S1 + "cylinder_collider.gltf",
        S2 + "cylinder_collider.gltf",
        S3 + "cylinder_collider.gltf",
        S4 + "cylinder_collider.gltf",
    ],
)
def test_cylinder_total_height_in_every_generation(relative: str) -> None:
    (collider,) = read_fixture(relative).colliders
    assert collider.shape == Cylinder(height=2.0, radius_bottom=0.5, radius_top=0.5)


def test_joint_example_capsule_radius_005_height_05_gives_mid_height_04() -> None:
    scene = read_fixture(J2 + "simple_joint.gltf")  # SHAPE-10 gen3-style capsule
    capsule = scene.colliders[0].shape
    assert isinstance(capsule, Capsule)
    assert capsule.height == pytest.approx(0.4, abs=1e-12)
    assert (capsule.radius_bottom, capsule.radius_top) == (0.05, 0.05)


def test_hull_reads_as_convex_mesh() -> None:
    (collider,) = read_fixture(S1 + "hull/convex_hull.gltf").colliders
    assert collider.shape == MeshShape(convex=True, mesh=0)
    assert collider.node == 1 and collider.body == 0


def test_default_box_without_sub_object_reads_defaults_with_note() -> None:
    scene = read_fixture(S4 + "default_box.gltf")
    assert scene.colliders[0].shape == Box(size=(1.0, 1.0, 1.0))
    assert [(n.code, n.pointer) for n in scene.notes] == [
        ("SHAPE-3", "/extensions/OMI_physics_shape/shapes/0")
    ]


def _shape_doc(shape: dict[str, Any], meshes: int = 0) -> dict[str, Any]:
    return {
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
        "meshes": [{}] * meshes,
        "extensions": {"OMI_physics_shape": {"shapes": [shape]}},
        "nodes": [{"extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}}],
    }


def test_gen4_capsule_with_radius_key_keeps_old_total_height_meaning() -> None:
    doc = _shape_doc({"type": "capsule", "capsule": {"height": 2.0, "radius": 0.25}})
    assert read_json(doc).colliders[0].shape == Capsule(
        height=1.5, radius_bottom=0.25, radius_top=0.25
    )  # D-8


def test_capsule_without_radius_key_is_gen4_mid_height() -> None:
    doc = _shape_doc({"type": "capsule", "capsule": {"height": 2.0}})
    assert omi_body.detect(doc)[S] == "gen4-tapered"
    assert read_json(doc).colliders[0].shape == Capsule(height=2.0, radius_bottom=0.5, radius_top=0.5)


def test_tapered_shapes() -> None:
    doc = _shape_doc({"type": "cylinder", "cylinder": {"height": 3.0, "radiusBottom": 0.5, "radiusTop": 0.0}})
    assert read_json(doc).colliders[0].shape == Cylinder(height=3.0, radius_bottom=0.5, radius_top=0.0)


def test_minus_one_mesh_is_absent_with_gen3_note() -> None:
    scene = read_json(_shape_doc({"type": "convex", "convex": {"mesh": -1}}, meshes=1))
    assert scene.colliders[0].shape == MeshShape(convex=True, mesh=None)  # D-1
    assert [(n.code, n.pointer) for n in scene.notes] == [
        ("GEN-3", "/extensions/OMI_physics_shape/shapes/0/convex/mesh")
    ]


def test_omi_shapes_indexed_for_the_gravity_reader() -> None:
    ctx = ReadContext.for_document(load(fixture_path(B4 + "complex/ball_pit.gltf")))
    omi_body.read(ctx)
    assert ctx.omi_shapes == [
        Box(size=(8.0, 0.1, 8.0)),
        Box(size=(0.1, 1.0, 8.0)),
        Box(size=(8.0, 1.0, 0.1)),
        Sphere(radius=0.5),
    ]


# ---------------------------------------------------------------- bodies


def test_inertia_tensor_eigen_decomposition_hand_example() -> None:
    # Rz(45°)·diag(1,2,3)·Rz(45°)ᵀ = [[1.5,-0.5,0],[-0.5,1.5,0],[0,0,3]]: eigenvalue 1 along (1,1,0)/√2.
    diagonal, q = inertia_from_tensor([1.5, -0.5, 0, -0.5, 1.5, 0, 0, 0, 3])  # type: ignore[misc]
    assert diagonal == pytest.approx((1.0, 2.0, 3.0), abs=1e-12)
    s = math.sin(math.pi / 8)
    assert q == pytest.approx((0.0, 0.0, s, math.cos(math.pi / 8)), abs=1e-12)  # +45° about Z, det R = +1


def test_inertia_tensor_diagonal_and_zero() -> None:
    assert inertia_from_tensor([3, 0, 0, 0, 1, 0, 0, 0, 2]) == ((3.0, 1.0, 2.0), (0.0, 0.0, 0.0, 1.0))
    assert inertia_from_tensor([0] * 9) is None  # all zeros ⇒ computed


SEED_BODY = {
    "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
    "extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.25}}]}},
    "nodes": [
        {
            "children": [1],
            "extensions": {
                "OMI_physics_body": {
                    "type": "rigid",
                    "mass": 2.0,
                    "linearVelocity": [1, 0, 0],
                    "inertiaTensor": [2, 0, 0, 0, 3, 0, 0, 0, 4],
                }
            },
        },
        {"extensions": {"OMI_physics_shape": {"shape": 0}}},
    ],
}
NEWEST_BODY = {
    "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
    "extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.25}}]}},
    "nodes": [
        {
            "children": [1],
            "extensions": {
                "OMI_physics_body": {
                    "motion": {
                        "type": "dynamic",
                        "mass": 2.0,
                        "linearVelocity": [1, 0, 0],
                        "inertiaDiagonal": [2, 3, 4],
                    }
                }
            },
        },
        {"extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
    ],
}


def test_seed_rigid_body_reads_equal_to_newest_dynamic_body() -> None:
    seed, newest = read_json(SEED_BODY), read_json(NEWEST_BODY)
    assert omi_body.detect(SEED_BODY) == {S: "gen2-subjson-nodeext", B: "gen1-type"}
    assert omi_body.detect(NEWEST_BODY) == {S: "gen4-tapered", B: "gen4-materials"}
    expected = Body(
        node=0,
        motion=Motion(
            type=MotionType.DYNAMIC,
            mass=2.0,
            center_of_mass=(0.0, 0.0, 0.0),
            inertia_diagonal=(2.0, 3.0, 4.0),
            linear_velocity=(1.0, 0.0, 0.0),
        ),
    )
    assert seed.bodies == newest.bodies == [expected]
    assert seed.colliders == newest.colliders == [Collider(node=1, shape=Sphere(radius=0.25), body=0)]
    assert seed.bodies[0].motion.legacy_type == "rigid"
    assert newest.bodies[0].motion.legacy_type is None


@pytest.mark.parametrize(
    "relative",
    [
        B1C + "complex/rigid_with_velocity.gltf",
        B1S + "complex/rigid_with_velocity.gltf",
        B2 + "complex/dynamic_with_velocity.gltf",
    ],
)
def test_seed_velocity_asset_equals_newest(relative: str) -> None:
    newest = read_fixture(B4 + "complex/dynamic_with_velocity.gltf")
    old = read_fixture(relative)
    assert newest.bodies == [
        Body(
            node=0,
            motion=Motion(
                type=MotionType.DYNAMIC,
                mass=1.0,
                center_of_mass=(0.0, 0.0, 0.0),
                inertia_diagonal=None,
                linear_velocity=(1.0, 2.0, 3.0),
                angular_velocity=(4.0, 5.0, 6.0),
            ),
        )
    ]
    assert newest.colliders == [Collider(node=1, shape=Sphere(radius=0.5), body=0)]
    assert (old.bodies, old.colliders, old.triggers) == (newest.bodies, newest.colliders, newest.triggers)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (B1C + "complex/two_boxes.gltf", B4 + "complex/two_boxes.gltf"),
        (B1S + "complex/two_boxes.gltf", B4 + "complex/two_boxes.gltf"),
        (B1S + "complex/indirect_children.gltf", B4 + "complex/indirect_children.gltf"),
        (B2 + "complex/indirect_children.gltf", B4 + "complex/indirect_children.gltf"),
    ],
)
def test_seed_trigger_body_assets_equal_newest(old: str, new: str) -> None:
    a, b = read_fixture(old), read_fixture(new)
    assert (a.bodies, a.colliders, a.triggers) == (b.bodies, b.colliders, b.triggers)


def test_indirect_children_ownership() -> None:
    # BT-7 / BODY-10: intermediary nodes keep ownership; `trigger: {}` gathers its descendants (D-3).
    scene = read_fixture(B4 + "complex/indirect_children.gltf")
    assert [(c.node, c.body) for c in scene.colliders] == [(2, 1), (7, 5), (11, 11)]
    assert [(t.node, t.nodes, t.body, t.implicit) for t in scene.triggers] == [
        (3, (4,), None, True),
        (4, None, None, False),
        (8, (10,), None, True),
        (10, None, None, False),
        (12, None, None, False),
    ]
    assert [n.code for n in scene.notes] == ["BODY-5", "BODY-5"]


def test_trigger_body_of_type_era_and_istrigger_collider() -> None:
    scene = read_fixture(B1C + "complex/one_collider_trigger.gltf")
    assert scene.colliders == [Collider(node=1, shape=Box(size=(1.0, 1.0, 1.0)), body=0)]
    assert scene.triggers == [
        Trigger(node=2, shape=Sphere(radius=2.0), body=0)
    ]  # isTrigger kept per collider


def test_collider_era_direct_child_rule_vs_shape_era_nearest_ancestor() -> None:
    # Same hierarchy: rigid body 0 → plain node 1 → shape node 2.
    collider_era = {
        "extensions": {"OMI_collider": {"colliders": [{"type": "sphere", "radius": 1}]}},
        "nodes": [
            {"children": [1], "extensions": {"OMI_physics_body": {"type": "rigid"}}},
            {"children": [2]},
            {"extensions": {"OMI_collider": {"collider": 0}}},
        ],
    }
    shape_era = {
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}},
        "nodes": [
            {"children": [1], "extensions": {"OMI_physics_body": {"type": "rigid"}}},
            {"children": [2]},
            {"extensions": {"OMI_physics_shape": {"shape": 0}}},
        ],
    }
    a = read_json(collider_era)
    assert [(c.node, c.body) for c in a.colliders] == [(2, None)]  # BT-5: static
    assert [n.code for n in a.notes] == ["BT-5"]
    b = read_json(shape_era)
    assert [(c.node, c.body) for c in b.colliders] == [(2, 0)]  # BT-7: nearest ancestor


def test_nested_motion_is_an_independent_body() -> None:
    doc = {
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
        "nodes": [
            {"children": [1, 2], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
            {"extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
            {
                "children": [3],
                "extensions": {"OMI_physics_body": {"motion": {"type": "kinematic", "mass": 3}}},
            },
            {"extensions": {"OMI_physics_body": {"collider": {"shape": 0}, "trigger": {"shape": 0}}}},
        ],
    }
    scene = read_json(doc)
    assert [(b.node, b.motion.type, b.motion.mass) for b in scene.bodies] == [
        (0, MotionType.DYNAMIC, 1.0),
        (2, MotionType.KINEMATIC, 3.0),
    ]
    assert [(c.node, c.body) for c in scene.colliders] == [(1, 0), (3, 2)]  # BODY-10
    assert [(t.node, t.body) for t in scene.triggers] == [(3, 2)]


def test_gen4_materials_filters_and_motion_fields() -> None:
    doc = {
        "extensions": {
            "OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]},
            "OMI_physics_body": {
                "physicsMaterials": [
                    {"staticFriction": 0.9, "restitution": 0.5, "restitutionCombine": "maximum"},
                    {},
                ],
                "collisionFilters": [{"collisionSystems": ["player"], "notCollideWithSystems": ["ghost"]}],
            },
        },
        "nodes": [
            {
                "extensions": {
                    "OMI_physics_body": {
                        "motion": {
                            "type": "dynamic",
                            "gravityFactor": 0.5,
                            "inertiaDiagonal": [0, 0, 0],
                            "centerOfMass": [0, 1, 0],
                        },
                        "collider": {"shape": 0, "physicsMaterial": 0, "collisionFilter": 0},
                        "trigger": {"shape": 0, "collisionFilter": 0},
                    }
                }
            }
        ],
    }
    assert omi_body.detect(doc) == {S: "gen4-tapered", B: "gen4-materials"}
    scene = read_json(doc)
    m = scene.bodies[0].motion
    assert (m.gravity_factor, m.inertia_diagonal, m.mass) == (0.5, None, 1.0)  # D-6: zeros ⇒ computed
    assert m.center_of_mass == (0.0, 1.0, 0.0)
    first, second = scene.materials
    assert (first.static_friction, first.dynamic_friction, first.restitution) == (0.9, 0.6, 0.5)
    assert (first.friction_combine, first.restitution_combine) == (CombineMode.AVERAGE, CombineMode.MAXIMUM)
    assert (second.friction_combine, second.restitution_combine) == (CombineMode.AVERAGE, CombineMode.AVERAGE)
    assert scene.filters[0].collision_systems == ("player",)
    assert scene.filters[0].not_collide_with_systems == ("ghost",)
    assert (scene.colliders[0].material, scene.colliders[0].filter, scene.triggers[0].filter) == (0, 0, 0)


def test_motion_without_type_reads_dynamic_with_note() -> None:
    scene = read_fixture(B4 + "triggers/triggers.gltf")  # Cube: motion {"mass": 1}
    assert [(b.node, b.motion.type) for b in scene.bodies] == [(4, MotionType.DYNAMIC)]
    pointer = "/nodes/4/extensions/OMI_physics_body/motion/type"
    assert [(n.code, n.pointer) for n in scene.notes] == [("BODY-2", pointer)]
    assert [(t.node, t.nodes) for t in scene.triggers if t.nodes] == [(12, (6, 8))]


def test_collider_without_shape_is_a_grouping_only() -> None:
    scene = read_fixture(B4 + "complex/static_compound_collider.gltf")
    assert scene.colliders == [Collider(node=1, shape=Box(size=(1.0, 2.0, 3.0)), body=None)]
    assert scene.bodies == []


@pytest.mark.parametrize(
    "body",
    [
        {"type": ["rigid"]},  # not a string (BT-1)
        {"type": "spaceship"},  # not in the enum (BT-1)
        {"type": "rigid", "inertiaTensor": [1, 2]},  # wrong length (BT-2)
    ],
)
def test_malformed_type_era_body_is_noted_not_fatal(body: dict[str, Any]) -> None:
    doc = {"nodes": [{"extensions": {"OMI_physics_body": body}}]}
    scene = read_json(doc)
    assert [n.code for n in scene.notes] == (["BT-2"] if "inertiaTensor" in body else ["BT-1"])
    assert len(scene.bodies) == (1 if "inertiaTensor" in body else 0)


def test_malformed_gen4_resources_are_ignored() -> None:
    doc = {
        "extensions": {"OMI_physics_body": {"physicsMaterials": 3, "collisionFilters": {"a": 1}}},
        "nodes": [
            {"extensions": {"OMI_physics_body": {"motion": {"type": "static"}, "trigger": {"nodes": 7}}}}
        ],
    }
    scene = read_json(doc)
    assert (scene.materials, scene.filters) == ([], [])
    assert [(t.node, t.nodes) for t in scene.triggers] == [(0, ())]
    assert [n.code for n in scene.notes] == ["BODY-7"]
