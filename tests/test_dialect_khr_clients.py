"""Files the KHR Blender add-on (v0.6, eoineoineoin/glTF_Physics_Blender_Exporter 4b69895+) exports
read and validate with no errors.

The files are written here by hand in the exporter's output shape (read from its exporter, not copied):
mesh colliders as ``geometry: {"convexHull": <bool>, "mesh": <mesh>}`` on the object's own node (always with
the flag), primitives as ``geometry: {"shape": i}`` (capsules and cylinders of a Z-up export on an extra
"physicsAlignmentNode" child turned +90° about X), an ACTIVE body as ``motion`` with its ``mass`` always
written, a PASSIVE one as a collider without motion, every material with all three values and a combine mode
wherever it is not "average", joints on a "jointSpaceA" child of object 1 connected to a "jointSpaceB"
child of object 2 — a passive object 2 is a joint to the world —, Blender's joint types as limits over
axes in glTF order (Blender X, Y, Z → 0, 2, 1) with a 3-axis linear lock in one limit, drives with every
field.
"""

from __future__ import annotations

import base64
import json
import math
import struct
from pathlib import Path
from typing import Any

import pytest

from gltf_physics.api import convert, load
from gltf_physics.dialects import read_scene
from gltf_physics.model import CombineMode, JointLimit, MeshShape, MotionType
from gltf_physics.validation import Severity, validate
from test_convert import assert_same_model, read

KRB, KIS = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
H = math.sqrt(0.5)


def cube_buffer() -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    """A unit cube mesh (8 float32 positions, 36 uint16 indices) as a data URI, its views and accessors."""
    corners = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    indices = [i for a, b, c, d in quads for i in (a, b, c, a, c, d)]
    data = b"".join(struct.pack("<3f", *p) for p in corners) + struct.pack(f"<{len(indices)}H", *indices)
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": 96}, {"buffer": 0, "byteOffset": 96, "byteLength": 72}]
    accessors = [{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
                  "min": [-0.5] * 3, "max": [0.5] * 3},
                 {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}]
    return uri, views, accessors


def blender_export() -> dict[str, Any]:
    uri, views, accessors = cube_buffer()
    nodes = [
        {"name": "Ground", "mesh": 0, "scale": [10.0, 0.2, 10.0],  # PASSIVE, Mesh shape: no motion
         "children": [5], "extensions": {KRB: {"collider": {"geometry": {"convexHull": False, "mesh": 0},
                                                            "physicsMaterial": 0}}}},
        {"name": "Crate", "mesh": 0, "translation": [0.0, 3.0, 0.0], "children": [4],  # ACTIVE, Convex Hull
         "extensions": {KRB: {"motion": {"mass": 1.0},
                              "collider": {"geometry": {"convexHull": True, "mesh": 0}, "physicsMaterial": 1}}}},
        {"name": "Ball", "translation": [3.0, 2.0, 0.0], "children": [3],  # ACTIVE, Capsule, Z-up export
         "extensions": {KRB: {"motion": {"mass": 2.0, "gravityFactor": 0.5}}}},
        {"name": "physicsAlignmentNode", "rotation": [H, 0.0, 0.0, H],
         "extensions": {KRB: {"collider": {"geometry": {"shape": 0}, "physicsMaterial": 1}}}},
        {"name": "jointSpaceA", "translation": [0.0, 1.0, 0.0],
         "extensions": {KRB: {"joint": {"connectedNode": 5, "joint": 0}}}},
        {"name": "jointSpaceB", "translation": [0.0, 20.0, 0.0]},  # under the passive ground: to the world
    ]
    hinge = {"limits": [{"linearAxes": [0, 2, 1], "min": 0.0, "max": 0.0},
                        {"angularAxes": [0, 2], "min": 0.0, "max": 0.0},
                        {"angularAxes": [1], "min": -0.5, "max": 0.5}],
             "drives": [{"type": "angular", "mode": "force", "axis": 1, "positionTarget": 0.0,
                         "velocityTarget": 1.0, "stiffness": 0.0, "damping": 20.0}]}
    return {
        "asset": {"version": "2.0", "generator": "Khronos glTF Blender I/O"},
        "extensionsUsed": [KRB, KIS], "scene": 0, "scenes": [{"nodes": [0, 1, 2]}], "nodes": nodes,
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "accessors": accessors, "bufferViews": views, "buffers": [{"byteLength": 168, "uri": uri}],
        "extensions": {
            KRB: {"physicsMaterials": [
                {"staticFriction": 0.5, "dynamicFriction": 0.5, "restitution": 0.0, "frictionCombine": "minimum"},
                {"staticFriction": 0.9, "dynamicFriction": 0.9, "restitution": 0.4,
                 "restitutionCombine": "maximum"}],
                  "physicsJoints": [hinge]},
            KIS: {"shapes": [{"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.25,
                                                             "radiusBottom": 0.25}}]},
        },
    }


@pytest.fixture()
def exported(tmp_path: Path) -> Path:
    path = tmp_path / "blender.gltf"
    path.write_text(json.dumps(blender_export()), encoding="utf-8")
    return path


def test_blender_export_validates_without_errors_or_warnings(exported: Path) -> None:
    report = validate(load(exported))
    assert [(m.code, m.pointer) for m in report.messages if m.severity <= Severity.WARNING] == []


def test_blender_export_reads_as_meant(exported: Path) -> None:
    scene = read_scene(load(exported))
    assert scene.generations == {KRB: "gen4-geometry-mesh", KIS: "gen4-geometry-mesh"}
    assert [(b.node, b.motion.type, b.motion.mass) for b in scene.bodies] == [
        (1, MotionType.DYNAMIC, 1.0), (2, MotionType.DYNAMIC, 2.0)]
    ground, crate, capsule = scene.colliders
    assert (ground.node, ground.body, ground.shape) == (0, None, MeshShape(convex=False, mesh=0))
    assert (crate.body, crate.shape) == (1, MeshShape(convex=True, mesh=0))
    assert (capsule.node, capsule.body, capsule.material) == (3, 2, 1)
    # The explicit modes are the add-on's; absent ones (its "average" choice) do not vote (D-12).
    assert [(m.friction_combine, m.restitution_combine) for m in scene.materials] == [
        (CombineMode.MINIMUM, None), (None, CombineMode.MAXIMUM)]
    (joint,) = scene.joints
    # A joint to the passive ground: side B has no body, its frame in world space (ground at the origin,
    # scale 10 × 0.2 × 10: the attachment's 20 m offset is 4 m up).
    assert (joint.body_a, joint.body_b) == (1, None)
    assert joint.frame_a.translation == pytest.approx((0.0, 1.0, 0.0))
    assert joint.frame_b.translation == pytest.approx((0.0, 4.0, 0.0))
    assert joint.limits[0] == JointLimit(linear_axes=(0, 2, 1), min=0.0, max=0.0)
    assert joint.drives[0].velocity_target == 1.0 and joint.drives[0].damping == 20.0


def test_blender_export_converts_to_khr_and_back_unchanged(exported: Path) -> None:
    doc = load(exported)
    out, losses = convert(doc, "khr")
    assert losses == []
    assert validate(out).num_errors == 0
    assert_same_model(read(doc), read(out))
    # The modes the add-on left out are written as what keeps every pair (D-12): friction of material 1
    # (none) met 0's minimum, and with itself 0.9 either way; restitution of material 0 (none, 0.0) met 1's
    # maximum (0.4), and with itself 0.0 either way: 'maximum' keeps both.
    mats = out.json["extensions"][KRB]["physicsMaterials"]
    assert [(m["frictionCombine"], m["restitutionCombine"]) for m in mats] == [
        ("minimum", "maximum"), ("minimum", "maximum")]
