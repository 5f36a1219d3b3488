"""The KHR physics dialect on every official KHR fixture (gen0 KHR_rigid_bodies … gen3 KHR_implicit_shapes).

Every expectation below was counted by hand from the fixture JSON (node extensions, shapes arrays), not taken
from the reader's output.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter

import pytest

from conftest import all_fixture_files, fixture_path
from gltf_physics.api import load
from gltf_physics.dialects import read_scene, write_scene
from gltf_physics.gltf.document import Document
from gltf_physics.model import (
    Capsule,
    Cylinder,
    JointLimit,
    MeshShape,
    MotionType,
    PhysicsScene,
    Shape,
    shape_kind,
)
from test_convert import close, normalised, same_contacts

G0 = "KHR_rigid_bodies/gen0-khr-rigid-bodies"
G1 = "KHR_physics_rigid_bodies/gen1-collision-shapes"
G2 = "KHR_physics_rigid_bodies/gen2-collision-shapes-mesh"
G3 = "KHR_physics_rigid_bodies/gen3-implicit-shapes"

GEN0 = {"KHR_rigid_bodies": "gen0-khr-rigid-bodies", "KHR_collision_shapes": "gen0-khr-rigid-bodies"}
GEN1 = {"KHR_physics_rigid_bodies": "gen1-collision-shapes", "KHR_collision_shapes": "gen1-collision-shapes"}
GEN2 = {"KHR_physics_rigid_bodies": "gen2-collision-shapes-mesh",
        "KHR_collision_shapes": "gen2-collision-shapes-mesh"}
GEN3 = {"KHR_physics_rigid_bodies": "gen3-implicit-shapes", "KHR_implicit_shapes": "gen3-implicit-shapes"}

# (bodies by type, colliders by shape kind, static colliders, simple/compound triggers, joints, materials,
#  filters)
FILTERING = ({"dynamic": 4}, {"box": 8, "convex": 2}, 5, (0, 0), 0, 1, 3)
FRICTION = ({"dynamic": 2}, {"box": 3}, 1, (0, 0), 0, 3, 1)
RESTITUTION = ({"dynamic": 2}, {"box": 1, "sphere": 2}, 1, (0, 0), 0, 3, 1)
SHAPES = ({"dynamic": 9}, {"box": 1, "capsule": 2, "cylinder": 6, "convex": 2, "trimesh": 2, "sphere": 1}, 1,
          (2, 0), 0, 1, 1)
JOINTS_OLD = ({"dynamic": 9, "kinematic": 3}, {"box": 16}, 4, (0, 0), 9, 1, 1)  # gen0 and gen1 JointTypes
JOINTS_NEW = ({"dynamic": 11, "kinematic": 3}, {"box": 20}, 6, (0, 0), 11, 1, 1)
MOTION = ({"dynamic": 7}, {"box": 1, "capsule": 1, "cylinder": 1, "convex": 5, "trimesh": 2},
          3, (0, 0), 0, 1, 1)

EXPECTED = {
    f"{G0}/JointTypes/JointTypes.gltf": (GEN0, *JOINTS_OLD),
    f"{G0}/ShapeTypes/ShapeTypes.gltf": (GEN0, *SHAPES),
    f"{G1}/Filtering/Filtering.gltf": (GEN1, *FILTERING),
    f"{G1}/JointTypes/JointTypes.gltf": (GEN1, *JOINTS_OLD),
    f"{G1}/Materials_Friction/Materials_Friction.gltf": (GEN1, *FRICTION),
    f"{G1}/Materials_Restitution/Materials_Restitution.gltf": (GEN1, *RESTITUTION),
    f"{G1}/ShapeTypes/ShapeTypes.gltf": (GEN1, *SHAPES),
    f"{G1}/Triggers/Triggers.gltf": (GEN1, {"dynamic": 1}, {"box": 1, "convex": 1}, 1, (3, 1), 0, 2, 1),
    f"{G2}/JointTypes/JointTypes.gltf": (GEN2, {"dynamic": 1, "kinematic": 1}, {"box": 2, "convex": 1}, 1,
                                         (0, 0), 1, 1, 1),
    f"{G2}/ShapeTypes/ShapeTypes.gltf": (GEN2, *SHAPES),
    f"{G2}/Triggers/Triggers.gltf": (GEN2, {"dynamic": 1}, {"box": 1, "convex": 1}, 1, (3, 0), 0, 2, 1),
    f"{G3}/Filtering/Filtering.gltf": (GEN3, *FILTERING),
    f"{G3}/JointTypes/JointTypes.gltf": (GEN3, *JOINTS_NEW),
    f"{G3}/JointTypes/JointTypes.glb": (GEN3, *JOINTS_NEW),
    f"{G3}/Materials_Friction/Materials_Friction.gltf": (GEN3, *FRICTION),
    f"{G3}/Materials_Restitution/Materials_Restitution.gltf": (GEN3, *RESTITUTION),
    f"{G3}/MotionProperties/MotionProperties.gltf": (GEN3, *MOTION),
    f"{G3}/ShapeTypes/ShapeTypes.gltf": (GEN3, *SHAPES),
    f"{G3}/ShapeTypes/ShapeTypes.glb": (GEN3, *SHAPES),
    f"{G3}/Triggers/Triggers.gltf": (GEN3, {"dynamic": 1}, {"box": 1, "convex": 1}, 1, (3, 0), 0, 2, 1),
}

KHR_FIXTURES = [f for f in all_fixture_files() if f.startswith("KHR")] or ["<fixtures-missing>"]


def read(relative: str) -> tuple[Document, PhysicsScene]:
    doc = load(fixture_path(relative))
    return doc, read_scene(doc)


def test_every_khr_fixture_has_an_expectation() -> None:
    fixture_path(f"{G3}/ShapeTypes/ShapeTypes.gltf")  # skip (or fail under CI) without fixtures
    assert sorted(KHR_FIXTURES) == sorted(EXPECTED)


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_generation_and_counts(relative: str) -> None:
    gens, bodies, colliders, static, (simple, compound), joints, materials, filters = EXPECTED[relative]
    _, scene = read(relative)
    assert scene.generations == gens
    assert Counter(b.motion.type.value for b in scene.bodies) == Counter(bodies)
    assert Counter(shape_kind(c.shape) for c in scene.colliders) == Counter(colliders)
    assert sum(c.body is None for c in scene.colliders) == static
    assert sum(t.nodes is None for t in scene.triggers) == simple
    assert sum(t.nodes is not None for t in scene.triggers) == compound
    assert len(scene.joints) == joints
    assert len(scene.materials) == materials
    assert len(scene.filters) == filters
    assert scene.notes == []


def test_motion_properties_infinite_mass_and_inertia() -> None:
    _, scene = read(f"{G3}/MotionProperties/MotionProperties.gltf")
    wheel = scene.body(15).motion  # Wheel_InfiniteMassFiniteInertia: mass 0, inertia [0, 1, 0]
    assert wheel.mass == math.inf  # KRB-11, D-5
    assert wheel.inertia_diagonal == (math.inf, 1.0, math.inf)
    assert wheel.gravity_factor == 0.0
    box = scene.body(18).motion  # InfInertiaBox: mass 1, inertia [0, 0, 0]
    assert box.mass == 1.0
    assert box.inertia_diagonal == (math.inf, math.inf, math.inf)
    toy = scene.body(3).motion  # WobbyToy_ModifiedCOM: absent inertia ⇒ computed
    assert toy.center_of_mass == (0.0, -0.3499999940395355, 0.0)
    assert toy.inertia_diagonal is None
    assert [scene.body(n).motion.gravity_factor for n in (7, 9, 11, 13)] == [-0.5] * 4
    shapes = {c.node: c.shape for c in scene.colliders}
    assert shapes[3] == Capsule(height=0.5497999787330627, radius_bottom=0.3889999985694885, radius_top=0.25)
    assert shapes[16] == Cylinder(height=2.3964407444000244, radius_bottom=1.1922439336776733, radius_top=0.0)
    assert shapes[15] == MeshShape(convex=False, node=14)  # geometry.node, convexHull false
    assert shapes[18] == MeshShape(convex=True, node=17)


def test_gen1_motion_without_mass_is_computed_and_gen0_keeps_schema_defaults() -> None:
    _, gen1 = read(f"{G1}/ShapeTypes/ShapeTypes.gltf")
    _, gen0 = read(f"{G0}/ShapeTypes/ShapeTypes.gltf")
    # Both files write "mass": 1 only; gen0's schema defaults fill inertia and centre of mass.
    assert gen1.body(0).motion.inertia_diagonal is None
    assert gen1.body(0).motion.center_of_mass is None
    assert gen0.body(0).motion.inertia_diagonal == (1.0, 1.0, 1.0)
    assert gen0.body(0).motion.center_of_mass == (0.0, 0.0, 0.0)
    assert gen0.body(0).motion.mass == gen1.body(0).motion.mass == 1.0


def test_compound_trigger_and_compound_body() -> None:
    _, scene = read(f"{G1}/Triggers/Triggers.gltf")
    compound = [t for t in scene.triggers if t.nodes is not None]
    assert [(t.node, t.nodes, t.body) for t in compound] == [(7, (4, 5), None)]
    _, shapes = read(f"{G1}/ShapeTypes/ShapeTypes.gltf")
    # DynamicCompound (node 11) carries the wheels two levels down and the chassis; headlights are triggers.
    assert sorted(c.node for c in shapes.colliders if c.body == 11) == [2, 3, 5, 6, 8]
    assert sorted(t.node for t in shapes.triggers if t.body == 11) == [9, 10]


def test_gen2_mesh_shapes_take_the_hull_flag_from_the_shape_extension() -> None:
    _, scene = read(f"{G2}/ShapeTypes/ShapeTypes.gltf")
    shapes = {c.node: c.shape for c in scene.colliders}
    assert shapes[12] == MeshShape(convex=True, mesh=9)  # shapes[6]: convexHull true
    assert shapes[14] == MeshShape(convex=False, mesh=11)  # shapes[8]: no extension ⇒ triangle mesh


def test_gen0_spring_names_and_per_joint_frames() -> None:
    _, scene = read(f"{G1}/JointTypes/JointTypes.gltf")
    prismatic = next(j for j in scene.joints if j.node == 21)
    assert (prismatic.body_a, prismatic.body_b, prismatic.connected_node) == (22, 20, 19)
    assert prismatic.frame_a.translation == pytest.approx((0.0, 0.0, -0.3216426372528076), abs=1e-12)
    # connectedNode 19 sits at x = -0.00306… under Cube.006 scaled 0.72 in x: frames are metric (scale-free).
    assert prismatic.frame_b.translation == pytest.approx((-0.0030608177185058594 * 0.7199999690055847, 0, 0),
                                                          abs=1e-12)
    assert prismatic.enable_collision is False
    ball = next(j for j in scene.joints if j.node == 2)
    assert (ball.body_a, ball.body_b, ball.enable_collision) == (5, None, True)  # Cube (node 1) is static


def limits_by_settings(scene: PhysicsScene) -> dict[int, tuple[JointLimit, ...]]:
    return {j.settings_index: j.limits for j in scene.joints if j.settings_index is not None}


def test_joint_types_of_gen0_gen1_gen3_encode_equal_limits() -> None:
    _, gen0 = read(f"{G0}/JointTypes/JointTypes.gltf")
    _, gen1 = read(f"{G1}/JointTypes/JointTypes.gltf")
    _, gen3 = read(f"{G3}/JointTypes/JointTypes.gltf")
    g0, g1, g3 = limits_by_settings(gen0), limits_by_settings(gen1), limits_by_settings(gen3)
    assert sorted(g1) == list(range(8)) and sorted(g3) == list(range(10)) and sorted(g0) == list(range(9))
    for k in range(8):  # gen3 keeps gen1's eight settings in order and adds two driven joints (8, 9)
        assert g1[k] == g3[k]
    # gen0 gives the second ball-and-socket joint its own (identical) entry, shifting the rest by one.
    assert g0[0] == g0[1] == g1[0]
    for k in range(1, 8):
        assert g0[k + 1] == g1[k]
    quarter = 0.7853981852531433
    assert g1[7] == (  # LimitedHinge: pinned, swings ±45° about Z only
        JointLimit(linear_axes=(0,), min=0.0, max=0.0), JointLimit(linear_axes=(2,), min=0.0, max=0.0),
        JointLimit(linear_axes=(1,), min=0.0, max=0.0), JointLimit(angular_axes=(0,), min=0.0, max=0.0),
        JointLimit(angular_axes=(2,), min=-quarter, max=quarter),
        JointLimit(angular_axes=(1,), min=0.0, max=0.0),
    )
    assert all(lim.stiffness == math.inf and lim.damping == 0.0 for lims in g1.values() for lim in lims)


def test_gen3_drives() -> None:
    _, scene = read(f"{G3}/JointTypes/JointTypes.gltf")
    (motor,) = next(j for j in scene.joints if j.settings_index == 8).drives
    assert (motor.type.value, motor.mode.value, motor.axis) == ("angular", "acceleration", 2)
    assert (motor.position_target, motor.velocity_target, motor.stiffness, motor.damping) == (
        0.0, -1.5700000524520874, 0.0, 1.0)
    assert motor.max_force == math.inf
    (spring,) = next(j for j in scene.joints if j.settings_index == 9).drives
    assert (spring.type.value, spring.mode.value, spring.axis, spring.position_target, spring.stiffness) == (
        "linear", "force", 1, 1.2000000476837158, 10.0)


def test_kinematic_velocity_is_kept() -> None:
    _, scene = read(f"{G0}/JointTypes/JointTypes.gltf")
    m = scene.body(39).motion
    assert m.type is MotionType.KINEMATIC
    assert m.angular_velocity == (0.4000000059604645, 0.0, -1.5707963705062866)


def _node_to_mesh(shape: Shape | None, doc: Document) -> Shape | None:
    """The one change the newest writer makes: a single-mesh geometry node becomes its mesh."""
    if isinstance(shape, MeshShape) and shape.node is not None:
        return dataclasses.replace(shape, node=None, mesh=doc.json["nodes"][shape.node]["mesh"])
    return shape


@pytest.mark.parametrize("relative", KHR_FIXTURES)
def test_newest_form_round_trip(relative: str) -> None:
    doc, scene = read(relative)
    out, losses = write_scene(scene, doc, "khr")
    again = read_scene(out)
    # Every material gets explicit modes; Materials_Restitution has a pair no mode keeps (D-12).
    lossy = "Materials_Restitution" in relative
    assert [x.code for x in losses] == (["D-12"] if lossy else [])
    assert "KHR_physics_rigid_bodies" in out.json["extensionsUsed"]
    assert not {"KHR_rigid_bodies", "KHR_collision_shapes"} & set(out.json["extensionsUsed"])
    assert again.bodies == scene.bodies
    assert again.colliders == [dataclasses.replace(c, shape=_node_to_mesh(c.shape, doc))
                               for c in scene.colliders]
    assert again.triggers == [dataclasses.replace(t, shape=_node_to_mesh(t.shape, doc))
                              for t in scene.triggers]
    assert lossy or same_contacts(scene, again)  # modes spelled out, every pair's coefficients kept
    assert again.filters == scene.filters
    # Joints written from their moving side where exact, full linear locks per axis: equal once
    # both are put in one form (test_convert.normalised).
    assert close(normalised(again, out).joints, normalised(scene, doc).joints)
    assert again.notes == []
    meshes = [c for c in again.colliders + again.triggers if isinstance(c.shape, MeshShape)]  # type: ignore[operator]
    assert all(c.shape.node is None for c in meshes)
    if meshes:
        assert again.generations["KHR_physics_rigid_bodies"] == "gen4-geometry-mesh"
