"""OMI core writer: the newest OMI (shape gen4, body gen4, joint gen2), round trips and losses."""

from __future__ import annotations

import copy
import dataclasses
import math
from typing import Any

import pytest

from conftest import all_fixture_files, fixture_path
from gltf_physics.dialects.common.context import ReadContext, WriteContext
from gltf_physics.dialects.omi_physics import body as omi_body
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.io import load
from gltf_physics.model import (
    Body,
    Box,
    Capsule,
    Collider,
    CombineMode,
    Joint,
    JointLimit,
    MeshShape,
    Motion,
    MotionType,
    PhysicsMaterial,
    PhysicsScene,
    Plane,
    Sphere,
    Trigger,
)

OMI_FIXTURES = [f for f in all_fixture_files() if f.startswith("OMI_") or f == "<fixtures-missing>"]


def read(gltf: dict[str, Any]) -> PhysicsScene:
    ctx = ReadContext.for_document(Document(json=gltf))
    omi_body.read(ctx)
    return ctx.scene


def write(scene: PhysicsScene, gltf: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """The writer alone, on a copy stripped of the family's extensions (as write_scene prepares it)."""
    out = copy.deepcopy(gltf)
    for holder in [out, *out.get("nodes", [])]:
        for name in omi_body.EXTENSIONS:
            (holder.get("extensions") or {}).pop(name, None)
    out["extensionsUsed"] = [e for e in out.get("extensionsUsed", []) if e not in omi_body.EXTENSIONS]
    ctx = WriteContext(gltf=out, scene=scene, family="omi")
    omi_body.write(ctx)
    return out, ctx.losses


def close(a: Any, b: Any) -> bool:
    """Equality of model values with float tolerance (frames pass through matrices on the way)."""
    if dataclasses.is_dataclass(a) and type(a) is type(b):
        return all(close(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a) if f.compare)
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, (int, float)) and not (math.isinf(a) or math.isinf(b)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return bool(a == b)


def expected_joint(j: Joint, scene: PhysicsScene) -> Joint:
    """What the writer promises: mixed limits split (D-4); a joint dynamic only on side B swapped."""
    limits: list[JointLimit] = []
    for lim in j.limits:
        for lin, ang in (
            [(lim.linear_axes, ()), ((), lim.angular_axes)]
            if lim.linear_axes and lim.angular_axes
            else [(lim.linear_axes, lim.angular_axes)]
        ):
            limits.append(dataclasses.replace(lim, linear_axes=lin, angular_axes=ang))
    j = dataclasses.replace(j, limits=tuple(limits))
    kind = {b.node: b.motion.type for b in scene.bodies}
    if kind.get(j.body_a) != MotionType.DYNAMIC and kind.get(j.body_b) == MotionType.DYNAMIC:
        flipped = tuple(dataclasses.replace(lim, min=-lim.max, max=-lim.min) for lim in j.limits)
        j = dataclasses.replace(
            j, body_a=j.body_b, frame_a=j.frame_b, body_b=j.body_a, frame_b=j.frame_a, limits=flipped
        )
    return j


@pytest.mark.parametrize("relative", OMI_FIXTURES)
def test_round_trip_through_the_newest_form(relative: str) -> None:
    doc = load(fixture_path(relative))
    first = read(doc.json)
    out, _ = write(first, doc.json)
    second = read(out)
    for part in ("bodies", "colliders", "triggers", "materials", "filters"):
        assert close(getattr(second, part), getattr(first, part)), part
    assert close(second.joints, [expected_joint(j, first) for j in first.joints])
    # The written form says gen4 / gen2 to the detector, whatever generation came in.
    gens = omi_body.detect(out)
    expected = {}
    if first.colliders or first.triggers:
        expected["OMI_physics_shape"] = "gen4-tapered"
    if first.bodies or first.colliders or first.triggers:
        expected["OMI_physics_body"] = "gen4-materials"
    if first.joints:
        expected["OMI_physics_joint"] = "gen2-physicsJoints"
    assert gens == expected
    # A second pass changes nothing: the newest form is a fixed point (no new nodes, same extensions).
    again, _ = write(second, out)
    assert len(again["nodes"]) == len(out["nodes"])
    assert again.get("extensions") == out.get("extensions")
    assert [n.get("extensions") for n in again["nodes"]] == [n.get("extensions") for n in out["nodes"]]


def test_seed_collider_file_written_as_newest_json() -> None:
    doc = load(fixture_path("OMI_physics_body/gen1-type-omi-collider/complex/two_boxes.gltf"))
    out, losses = write(read(doc.json), doc.json)
    assert losses == []
    assert out["extensions"] == {
        "OMI_physics_shape": {"shapes": [{"type": "box", "box": {}}]},  # deduplicated
        "OMI_physics_body": {},  # the document-level object always comes
    }
    assert [n.get("extensions") or None for n in out["nodes"]] == [
        None,
        {"OMI_physics_body": {"motion": {"type": "static"}}},  # mass 1.0 is OMI's default: omitted
        {"OMI_physics_body": {"collider": {"shape": 0}}},
        {"OMI_physics_body": {"trigger": {"nodes": [4]}}},  # D-3: explicit members
        {"OMI_physics_body": {"trigger": {"shape": 0}}},
    ]
    assert sorted(out["extensionsUsed"]) == ["OMI_physics_body", "OMI_physics_shape"]


def test_capsule_written_mid_height_with_both_radii() -> None:
    doc = load(fixture_path("OMI_collider/gen1/capsule_collider.gltf"))
    out, _ = write(read(doc.json), doc.json)
    assert out["extensions"]["OMI_physics_shape"]["shapes"] == [
        {"type": "capsule", "capsule": {"height": 1.0, "radiusBottom": 0.5, "radiusTop": 0.5}}
    ]


def test_rigid_body_motion_json() -> None:
    doc = load(fixture_path("OMI_physics_body/gen1-type-shape/complex/rigid_with_velocity.gltf"))
    out, _ = write(read(doc.json), doc.json)
    assert out["nodes"][0]["extensions"]["OMI_physics_body"] == {
        "motion": {
            "type": "dynamic",
            "linearVelocity": [1.0, 2.0, 3.0],
            "angularVelocity": [4.0, 5.0, 6.0],
        }
    }


def _scene(**parts: Any) -> tuple[PhysicsScene, dict[str, Any]]:
    gltf = {
        "nodes": [{"name": "A", "children": [1]}, {"name": "B"}],
        "scenes": [{"nodes": [0]}],
        "meshes": [{}],
    }
    return PhysicsScene(**parts), gltf


def test_infinite_and_computed_mass_have_no_omi_form() -> None:
    inf_body = Body(
        node=0,
        motion=Motion(type=MotionType.DYNAMIC, mass=math.inf, inertia_diagonal=(math.inf, 2.0, math.inf)),
    )
    scene, gltf = _scene(bodies=[inf_body])
    out, losses = write(scene, gltf)
    assert out["nodes"][0]["extensions"]["OMI_physics_body"]["motion"] == {
        "type": "kinematic",
        "inertiaDiagonal": [1e9, 2.0, 1e9],
    }
    assert [x.code for x in losses] == ["KRB-11", "KRB-11"]

    # KHR computed mass and centre of mass: the runtime's values (docs/semantics.md: density 1000 kg/m³). A 0.5 m
    # sphere weighs 1000·4/3·π·0.125 = 523.599 kg; its centre is node B's origin, 2 m above A's.
    computed = Body(node=0, motion=Motion(type=MotionType.DYNAMIC, mass=None, center_of_mass=None))
    scene, gltf = _scene(bodies=[computed], colliders=[Collider(node=1, shape=Sphere(), body=0)])
    gltf["nodes"][1]["translation"] = [0.0, 2.0, 0.0]
    out, losses = write(scene, gltf)
    motion = out["nodes"][0]["extensions"]["OMI_physics_body"]["motion"]
    assert motion["type"] == "dynamic"
    assert motion["mass"] == pytest.approx(523.5988, abs=1e-4)
    assert motion["centerOfMass"] == pytest.approx([0.0, 2.0, 0.0], abs=1e-12)
    assert [x.code for x in losses] == ["KRB-11"]  # the density is the runtime's choice; the centre is exact


def test_equal_shapes_are_shared_and_minus_one_never_written() -> None:
    scene, gltf = _scene(
        colliders=[
            Collider(node=0, shape=Box(size=(1, 2, 3)), pointer="/a"),
            Collider(node=1, shape=Box(size=(1, 2, 3)), pointer="/b"),
        ],
        triggers=[Trigger(node=1, shape=MeshShape(convex=False, mesh=0))],
    )
    out, _ = write(scene, gltf)
    assert out["extensions"]["OMI_physics_shape"]["shapes"] == [
        {"type": "box", "box": {"size": [1, 2, 3]}},
        {"type": "trimesh", "trimesh": {"mesh": 0}},
    ]
    assert out["nodes"][1]["extensions"]["OMI_physics_body"] == {
        "collider": {"shape": 0},
        "trigger": {"shape": 1},
    }
    assert "-1" not in str(out)


def test_second_collider_on_a_node_gets_a_child_node() -> None:
    scene, gltf = _scene(
        colliders=[Collider(node=1, shape=Sphere(radius=1.0)), Collider(node=1, shape=Capsule())]
    )
    out, losses = write(scene, gltf)
    assert out["nodes"][1]["children"] == [2]
    assert out["nodes"][2]["name"] == "BCollider"
    assert out["nodes"][2]["extensions"]["OMI_physics_body"] == {"collider": {"shape": 1}}
    assert losses == []


def test_plane_becomes_a_thin_box_below_the_plane() -> None:
    scene, gltf = _scene(colliders=[Collider(node=0, shape=Plane(size_x=4.0))])
    out, losses = write(scene, gltf)
    assert [x.code for x in losses] == ["SHAPE-2"]
    child = out["nodes"][2]
    assert child["translation"] == [0.0, -0.05, 0.0]
    assert out["extensions"]["OMI_physics_shape"]["shapes"] == [
        {"type": "box", "box": {"size": [4.0, 0.1, 1000.0]}}
    ]


def test_materials_and_filters_written_without_defaults() -> None:
    from gltf_physics.model import CollisionFilter

    scene, gltf = _scene(
        materials=[
            PhysicsMaterial(
                static_friction=0.9,
                friction_combine=CombineMode.AVERAGE,
                restitution_combine=CombineMode.MAXIMUM,
            ),
            PhysicsMaterial(friction_combine=None, restitution_combine=CombineMode.AVERAGE),
        ],
        filters=[CollisionFilter(collision_systems=("a",), collide_with_systems=("b", "c"))],
        colliders=[Collider(node=0, shape=Sphere(), material=1, filter=0)],
    )
    out, losses = write(scene, gltf)
    assert out["extensions"]["OMI_physics_body"] == {
        "physicsMaterials": [  # both modes on every material (D-12: material 1's friction mode
            # did not vote; no other material gives one, so 'average' is the outcome it had)
            {"staticFriction": 0.9, "frictionCombine": "average", "restitutionCombine": "maximum"},
            {"frictionCombine": "average", "restitutionCombine": "average"}],
        "collisionFilters": [{"collisionSystems": ["a"], "collideWithSystems": ["b", "c"]}],
    }
    assert out["nodes"][0]["extensions"]["OMI_physics_body"]["collider"] == {
        "shape": 0,
        "physicsMaterial": 1,
        "collisionFilter": 0,
    }
    assert losses == []
    # Materials_Restitution's pattern: no mode (0.0), 'maximum' (0.95), no mode (0.2), all in use. Material 2
    # combined with 0 by average and with 1 by maximum: no single explicit mode keeps both (D-12 loss).
    scene.materials[:] = [PhysicsMaterial(restitution=0.0), PhysicsMaterial(restitution=0.95,
                          restitution_combine=CombineMode.MAXIMUM), PhysicsMaterial(restitution=0.2, pointer="/m2")]
    scene.colliders[:] = [Collider(node=0, shape=Sphere(), material=i) for i in range(3)]
    _, losses = write(scene, gltf)
    assert [(x.code, x.pointer) for x in losses] == [("D-12", "/m2")]
    assert omi_body.detect(out)["OMI_physics_body"] == "gen4-materials"


def _per_body(scene: PhysicsScene, world: list, body: Body) -> tuple[Any, tuple[float, ...]] | None:
    """The per-body formulas the OMI writer used before its bulk table: the reference."""
    import numpy as np

    from gltf_physics.dialects.omi_physics.mass import is_finite
    from gltf_physics.geometry.frames import body_frame
    from gltf_physics.geometry.mass import body_mass_properties
    from gltf_physics.geometry.placement import colliders_by_body, document_mesh_source
    from gltf_physics.gltf.transforms import affine_inverse

    doc = scene.document
    with np.errstate(all="ignore"):
        mp = body_mass_properties(scene, body, 1000.0, document_mesh_source(doc), world=world,
                                  colliders=colliders_by_body(scene).get(body.node, []))
    if not is_finite(mp):
        return None
    point = body_frame(world[body.node]) @ np.array([*mp.center_of_mass, 1.0])
    local = (affine_inverse(world[body.node]) @ point)[:3]
    return mp, tuple(0.0 if abs(c) <= 1e-6 else float(c) for c in local)


def _rotated_bodies() -> Document:
    """Bodies under rotated, scaled and sheared parents, with children colliders: frames that are not identity."""
    ext = "KHR_physics_rigid_bodies"
    nodes: list[dict[str, Any]] = []
    for i in range(40):
        parent = len(nodes)
        nodes.append({"rotation": [0.0, math.sin(i * 0.1), 0.0, math.cos(i * 0.1)], "scale": [1.0, 1.0 + i % 3, 1.0],
                      "translation": [i * 1.7, 0.3, -i / 3], "children": [parent + 1]})
        nodes.append({"translation": [0.1, 0.2 * i, 0.0], "rotation": [0.6, 0.0, 0.0, 0.8], "children": [parent + 2],
                      "extensions": {ext: {"motion": {} if i % 2 else {"mass": 2.0},
                                           "collider": {"geometry": {"shape": i % 2}}}}})
        nodes.append({"translation": [0.3, 0.0, 0.1], "scale": [1.0, 2.0, 0.5],
                      "extensions": {ext: {"collider": {"geometry": {"shape": 0}}}}})
    return Document(json={
        "asset": {"version": "2.0"}, "extensionsUsed": [ext, "KHR_implicit_shapes"],
        "scenes": [{"nodes": list(range(0, len(nodes), 3))}], "nodes": nodes,
        "extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [0.5, 0.7, 0.9]}},
                                                           {"type": "sphere", "sphere": {"radius": 0.3}}]}}})


@pytest.mark.parametrize("source", [*all_fixture_files(), "<rotated-bodies>"])
def test_bulk_body_masses_are_the_per_body_numbers_bit_for_bit(source: str) -> None:
    """The writer's bulk mass table (stacked NumPy, shared results) gives exactly the per-body numbers."""
    from gltf_physics.dialects import read_scene
    from gltf_physics.dialects.omi_physics.mass import BodyMasses
    from gltf_physics.geometry.placement import colliders_by_body, document_mesh_source
    from gltf_physics.gltf.transforms import world_matrices

    doc = _rotated_bodies() if source == "<rotated-bodies>" else load(fixture_path(source))
    scene = read_scene(doc)
    world = world_matrices(doc.json)
    table = BodyMasses(scene, world, 1000.0, document_mesh_source(doc), colliders_by_body(scene))
    bulk = table.measure(scene.bodies)
    for body, got in zip(scene.bodies, bulk, strict=True):
        want = _per_body(scene, world, body)
        assert repr(got) == repr(want), body.pointer
