"""The KHR reader on small hand-built documents: detection, defaults per generation, joint frames, D-rules."""

from __future__ import annotations

import math
from typing import Any

import pytest

from gltf_physics.dialects import read_scene
from gltf_physics.dialects.khr_physics import rigid_bodies as khr_rigid_bodies
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.errors import GltfError
from gltf_physics.model import (
    Box,
    Capsule,
    CombineMode,
    Cylinder,
    MeshShape,
    Motion,
    MotionType,
    PhysicsMaterial,
    PhysicsScene,
    Plane,
    Sphere,
)

KRB = "KHR_physics_rigid_bodies"
H = math.sqrt(0.5)


def gen3_doc(nodes: list[dict[str, Any]], doc_ext: dict[str, Any] | None = None,
             shapes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    gltf: dict[str, Any] = {"asset": {"version": "2.0"}, "extensionsUsed": [KRB], "nodes": nodes,
                            "extensions": {KRB: doc_ext or {}}}
    if shapes is not None:
        gltf["extensionsUsed"].append("KHR_implicit_shapes")
        gltf["extensions"]["KHR_implicit_shapes"] = {"shapes": shapes}
    return gltf


def read(gltf: dict[str, Any]) -> PhysicsScene:
    return read_scene(Document(json=gltf))


def krb(**parts: Any) -> dict[str, Any]:
    return {"extensions": {KRB: parts}}


# ---------------------------------------------------------------- detection

def test_detect_ids_keyed_by_the_extensions_present() -> None:
    node_geometry = gen3_doc([krb(collider={"geometry": {"node": 0}})])
    assert khr_rigid_bodies.detect(node_geometry) == {KRB: "gen3-implicit-shapes"}
    mesh_geometry = gen3_doc([krb(collider={"geometry": {"mesh": 0, "convexHull": True}})],
                             shapes=[{"type": "box", "box": {}}])
    assert khr_rigid_bodies.detect(mesh_geometry) == {KRB: "gen4-geometry-mesh",
                                                      "KHR_implicit_shapes": "gen4-geometry-mesh"}
    gen1 = {"extensionsUsed": [KRB, "KHR_collision_shapes"],
            "extensions": {"KHR_collision_shapes": {"shapes": [{"type": "sphere", "sphere": {}}]}},
            "nodes": [krb(collider={"shape": 0})]}
    assert khr_rigid_bodies.detect(gen1) == {KRB: "gen1-collision-shapes",
                                             "KHR_collision_shapes": "gen1-collision-shapes"}
    gen2 = {"extensionsUsed": [KRB, "KHR_collision_shapes"],
            "extensions": {"KHR_collision_shapes": {"shapes": [{"type": "mesh", "mesh": {"mesh": 0}}]}}}
    assert khr_rigid_bodies.detect(gen2)["KHR_collision_shapes"] == "gen2-collision-shapes-mesh"
    gen0 = {"nodes": [{"extensions": {"KHR_rigid_bodies": {"motion": {}}}}]}  # found on a node, not listed
    assert khr_rigid_bodies.detect(gen0) == {"KHR_rigid_bodies": "gen0-khr-rigid-bodies"}
    omi_only = {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body"]}
    assert khr_rigid_bodies.detect(omi_only) == {}


# ---------------------------------------------------------------- shapes

def test_implicit_shape_defaults_and_missing_sub_object() -> None:
    shapes = [{"type": "sphere"}, {"type": "box", "box": {}}, {"type": "capsule", "capsule": {}},
              {"type": "cylinder", "cylinder": {}}, {"type": "plane", "plane": {}},
              {"type": "plane", "plane": {"sizeX": 2, "sizeZ": 3, "doubleSided": True}}]
    nodes = [krb(collider={"geometry": {"shape": i}}) for i in range(len(shapes))]
    scene = read(gen3_doc(nodes, shapes=shapes))
    assert [c.shape for c in scene.colliders] == [
        Sphere(0.5), Box((1.0, 1.0, 1.0)), Capsule(0.5, 0.25, 0.25), Cylinder(0.5, 0.25, 0.25),
        Plane(None, None, False), Plane(2.0, 3.0, True)]
    first = "/extensions/KHR_implicit_shapes/shapes/0"
    assert [(n.code, n.pointer) for n in scene.notes] == [("GEN-5", first)]  # D-2
    assert scene.colliders[0].shape.pointer == first


def test_gen0_and_gen1_shape_defaults_and_mesh_shapes() -> None:
    shapes = [{"type": "capsule", "capsule": {"radiusTop": 0.4}},
              {"type": "cylinder", "cylinder": {"height": 2}},
              {"type": "convex", "convex": {"mesh": 1}}, {"type": "trimesh", "trimesh": {"mesh": 0}}]
    gltf = {"extensionsUsed": ["KHR_rigid_bodies", "KHR_collision_shapes"], "meshes": [{}, {}],
            "extensions": {"KHR_collision_shapes": {"shapes": shapes}},
            "nodes": [{"extensions": {"KHR_rigid_bodies": {"collider": {"shape": i}}}} for i in range(4)]}
    assert [c.shape for c in read(gltf).colliders] == [
        Capsule(0.5, 0.25, 0.4), Cylinder(2.0, 0.25, 0.25), MeshShape(convex=True, mesh=1),
        MeshShape(convex=False, mesh=0)]


def test_gen2_mesh_shape_keeps_skin_weights_and_hull_flag() -> None:
    shapes = [{"type": "mesh", "mesh": {"mesh": 0, "skin": 0, "weights": [0.25, 0.75]},
               "extensions": {KRB: {"convexHull": True}}},
              {"type": "mesh", "mesh": {"mesh": 0, "useNodeWeights": True}}]
    gltf = {"extensionsUsed": [KRB, "KHR_collision_shapes"], "meshes": [{}], "skins": [{"joints": [0]}],
            "extensions": {"KHR_collision_shapes": {"shapes": shapes}},
            "nodes": [krb(collider={"shape": 0}), krb(trigger={"shape": 1})]}
    scene = read(gltf)
    assert scene.generations[KRB] == "gen2-collision-shapes-mesh"
    assert scene.colliders[0].shape == MeshShape(convex=True, mesh=0, skin=0, weights=(0.25, 0.75))
    assert scene.triggers[0].shape == MeshShape(convex=False, mesh=0, use_node_weights=True)


def test_geometry_node_and_2026_geometry_mesh() -> None:
    nodes = [krb(motion={}, collider={"geometry": {"node": 1, "convexHull": True}}), {"mesh": 0},
             krb(trigger={"geometry": {"mesh": 0}})]
    scene = read({**gen3_doc(nodes), "meshes": [{}]})
    assert scene.generations == {KRB: "gen4-geometry-mesh"}
    assert scene.colliders[0].shape == MeshShape(convex=True, node=1)
    assert scene.triggers[0].shape == MeshShape(convex=False, mesh=0)
    assert scene.triggers[0].body is None


def test_shape_index_outside_the_array_is_an_error_with_pointer() -> None:
    gltf = gen3_doc([krb(collider={"geometry": {"shape": 3}})], shapes=[{"type": "box", "box": {}}])
    with pytest.raises(GltfError) as err:
        read(gltf)
    assert err.value.pointer == "/nodes/0/extensions/KHR_physics_rigid_bodies/collider/geometry/shape"


# ---------------------------------------------------------------- motion, bodies, materials

def test_motion_defaults_gen1_on_computed_gen0_schema_defaults() -> None:
    gen3 = read(gen3_doc([krb(motion={"isKinematic": True, "linearVelocity": [1, 2, 3]})]))
    assert gen3.bodies[0].motion == Motion(type=MotionType.KINEMATIC, mass=None, center_of_mass=None,
                                           inertia_diagonal=None, linear_velocity=(1.0, 2.0, 3.0))
    gen0 = read({"nodes": [{"extensions": {"KHR_rigid_bodies": {"motion": {"mass": 0}}}}]})
    # the spec: gen0 inertia absent meant [1,1,1]; mass 0 is infinite in every generation (KRB-11).
    assert gen0.bodies[0].motion == Motion(type=MotionType.DYNAMIC, mass=math.inf,
                                           center_of_mass=(0.0, 0.0, 0.0), inertia_diagonal=(1.0, 1.0, 1.0))


def test_equal_motions_share_one_object_but_unequal_spellings_do_not() -> None:
    """The reader builds one Motion per distinct motion JSON; 1, 1.0 and true, or -0.0 and 0.0, are distinct."""
    motions = [{"mass": 2.0}, {"mass": 2.0}, {"mass": True}, {"mass": 1}, {"mass": 1.0},
               {"gravityFactor": -0.0}, {"gravityFactor": 0.0}]
    scene = read(gen3_doc([krb(motion=m) for m in motions]))
    got = [b.motion for b in scene.bodies]
    assert got[0] is got[1]
    assert got[2].mass is None and got[3].mass == 1.0 and got[4].mass == 1.0  # a bool is not a number
    assert [math.copysign(1.0, m.gravity_factor) for m in got[5:]] == [-1.0, 1.0]


def test_body_is_the_nearest_motion_ancestor_or_none() -> None:
    nodes = [
        {"children": [1], **krb(motion={"mass": 2})},   # 0: body
        {"children": [2]},                               # 1: plain node
        {"children": [3], **krb(collider={"geometry": {"shape": 0}})},  # 2: part of body 0
        krb(motion={}, collider={"geometry": {"shape": 0}}),            # 3: its own body (nested motion)
        krb(collider={"geometry": {"shape": 0}}),                       # 4: static
    ]
    scene = read(gen3_doc(nodes, shapes=[{"type": "sphere", "sphere": {"radius": 1}}]))
    assert [(c.node, c.body) for c in scene.colliders] == [(2, 0), (3, 3), (4, None)]
    assert [b.node for b in scene.bodies] == [0, 3]


def test_gen0_uppercase_combine_modes_and_absent_modes() -> None:
    mats = [{"staticFriction": 0.1, "dynamicFriction": 0.2, "restitution": 0.3,
             "frictionCombine": "MINIMUM", "restitutionCombine": "MAXIMUM"}, {}]
    scene = read({"extensionsUsed": ["KHR_rigid_bodies"],
                  "extensions": {"KHR_rigid_bodies": {"physicsMaterials": mats}}, "nodes": []})
    assert scene.materials == [
        PhysicsMaterial(0.1, 0.2, 0.3, CombineMode.MINIMUM, CombineMode.MAXIMUM),
        PhysicsMaterial(0.6, 0.6, 0.0, None, None),  # D-12: absent combine ⇒ None (does not vote)
    ]


def test_filters_and_material_indices() -> None:
    doc_ext = {"physicsMaterials": [{}, {"restitution": 1}],
               "collisionFilters": [{"collisionSystems": ["a"], "notCollideWithSystems": ["b", "c"]}]}
    nodes = [krb(collider={"geometry": {"shape": 0}, "physicsMaterial": 1, "collisionFilter": 0})]
    scene = read(gen3_doc(nodes, doc_ext, shapes=[{"type": "box", "box": {}}]))
    c = scene.colliders[0]
    assert (c.material, c.filter) == (1, 0)
    f = scene.filters[0]
    assert f.collision_systems == ("a",)
    assert (f.collide_with_systems, f.not_collide_with_systems) == ((), ("b", "c"))


def test_triggers_simple_and_compound() -> None:
    nodes = [{"children": [1, 2], **krb(motion={}, trigger={"nodes": [1, 2]})},
             krb(trigger={"geometry": {"shape": 0}, "collisionFilter": 0}),
             krb(trigger={"geometry": {"shape": 0}})]
    scene = read(gen3_doc(nodes, {"collisionFilters": [{}]}, shapes=[{"type": "sphere", "sphere": {}}]))
    assert [(t.node, t.nodes, t.body, t.filter) for t in scene.triggers] == [
        (0, (1, 2), 0, None), (1, None, 0, 0), (2, None, 0, None)]


# ---------------------------------------------------------------- joints

def joint_doc() -> dict[str, Any]:
    """Body A (node 0) rotated 90° about Y, joint node two levels down under a rotated plain node;
    connectedNode under a static, rotated parent; a second joint sits on A's own node."""
    nodes = [
        {"translation": [1, 2, 3], "rotation": [0, H, 0, H], "children": [1],
         **krb(motion={}, joint={"connectedNode": 4, "joint": 1})},
        {"translation": [0, 1, 0], "rotation": [0, 0, H, H], "children": [2]},
        {"translation": [1, 0, 0], **krb(joint={"connectedNode": 4, "joint": 0, "enableCollision": True})},
        {"translation": [0, 5, 0], "rotation": [H, 0, 0, H], "children": [4]},
        {"translation": [0, 0, 1]},
    ]
    joints = [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0},
                          {"angularAxes": [1], "max": 0.5, "stiffness": 100, "damping": 2}],
               "drives": [{"type": "angular", "mode": "force", "axis": 1, "velocityTarget": 1, "damping": 3,
                           "maxForce": -1}]},
              {"limits": [{"linearAxes": [0], "stiffness": -5}]}]
    return gen3_doc(nodes, {"physicsJoints": joints})


def test_joint_frames_number_by_number() -> None:
    scene = read(joint_doc())
    on_a, nested = scene.joints  # node order: node 0's joint, then node 2's
    # Frame A of node 2 in body 0: plain node 1 at (0,1,0) turned 90° about Z moves (1,0,0) to (0,1,0),
    # so (0,2,0) with rotation (0,0,√½,√½); A's own world rotation must not enter.
    assert (nested.node, nested.body_a, nested.connected_node, nested.body_b) == (2, 0, 4, None)
    assert nested.frame_a.translation == pytest.approx((0.0, 2.0, 0.0), abs=1e-12)
    assert nested.frame_a.rotation == pytest.approx((0.0, 0.0, H, H), abs=1e-12)
    # Frame B is in world space (no motion above node 4): (0,5,0) + Rx(90°)·(0,0,1) = (0,4,0).
    assert nested.frame_b.translation == pytest.approx((0.0, 4.0, 0.0), abs=1e-12)
    assert nested.frame_b.rotation == pytest.approx((H, 0.0, 0.0, H), abs=1e-12)
    assert nested.enable_collision is True
    # A joint on the motion node itself: frame A is the identity.
    assert on_a.frame_a.translation == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    assert on_a.frame_a.rotation == pytest.approx((0.0, 0.0, 0.0, 1.0), abs=1e-12)
    assert on_a.enable_collision is False


def test_limit_and_drive_defaults_and_negative_values() -> None:
    scene = read(joint_doc())
    on_a, nested = scene.joints
    pin, swing = nested.limits
    assert (pin.linear_axes, pin.min, pin.max, pin.stiffness, pin.damping) == (
        (0, 1, 2), 0.0, 0.0, math.inf, 0.0)
    assert (swing.angular_axes, swing.min, swing.max, swing.stiffness, swing.damping) == (
        (1,), -math.inf, 0.5, 100.0, 2.0)
    (drive,) = nested.drives
    assert (drive.max_force, drive.position_target, drive.velocity_target, drive.damping) == (
        math.inf, None, 1.0, 3.0)  # D-15: negative maxForce ⇒ unlimited
    (loose,) = on_a.limits
    assert (loose.min, loose.max, loose.stiffness) == (-math.inf, math.inf, math.inf)  # D-15
    assert sorted(n.code for n in scene.notes) == ["D-15", "D-15"]


def test_gen0_joint_limits_and_spring_names() -> None:
    gltf = {"extensions": {"KHR_rigid_bodies": {"physicsJointLimits": [
        {"limits": [{"angularAxes": [2], "min": -1, "max": 1, "springConstant": 50, "springDamping": 4}]}]}},
        "nodes": [{"children": [1], "extensions": {"KHR_rigid_bodies": {"motion": {}}}},
                  {"extensions": {"KHR_rigid_bodies": {"joint": {"connectedNode": 2, "jointLimits": 0}}}},
                  {}]}
    (joint,) = read(gltf).joints
    (lim,) = joint.limits
    assert (lim.angular_axes, lim.min, lim.max, lim.stiffness, lim.damping) == ((2,), -1.0, 1.0, 50.0, 4.0)
    assert (joint.body_a, joint.body_b, joint.drives) == (0, None, ())
