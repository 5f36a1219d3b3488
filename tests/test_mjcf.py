"""MJCF out (formats/mjcf.py): every fixture compiles in MuJoCo with the expected counts; the mapping's
pieces (frames, geoms, filters, joints, actuators, losses) checked on small scenes; `convert --to mjcf`.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET

import mujoco
import numpy as np
import pytest
from typer.testing import CliRunner

from conftest import all_fixture_files, fixture_path
from gltf_physics.api import load, read_scene
from gltf_physics.cli import app
from gltf_physics.formats.mjcf.write import to_mjcf
from gltf_physics.geometry.placement import document_mesh_source
from gltf_physics.model import (
    Body,
    Box,
    Capsule,
    Collider,
    CollisionFilter,
    Cylinder,
    DriveMode,
    DriveType,
    JointDrive,
    JointLimit,
    MeshShape,
    Motion,
    MotionType,
    Plane,
    Sphere,
)
from mujoco_scenes import bar_hinge, make, save_khr

# Joint fixtures: (static bodies holding JOINT-9 partner colliders, MuJoCo joints, actuators, equalities).
# Every other fixture: no extra body, one free joint per dynamic body (a ball for an infinite mass), no
# actuator, no equality. JointTypes gen3: ball, ball, hinge, hinge, slide, 3 slides + ball (a
# box-limited free joint), fixed (no joint), 2 hinges, hinge, hinge, slide = 14; a velocity and a
# position drive. OMI soft locks (finite stiffness on min = max) become one spring joint per axis.
JOINT_COUNTS = {
    "KHR_physics_rigid_bodies/gen1-collision-shapes/JointTypes/JointTypes.gltf": (4, 12, 0, 0),
    "KHR_physics_rigid_bodies/gen2-collision-shapes-mesh/JointTypes/JointTypes.gltf": (0, 1, 1, 0),
    "KHR_physics_rigid_bodies/gen3-implicit-shapes/JointTypes/JointTypes.glb": (6, 14, 2, 0),
    "KHR_physics_rigid_bodies/gen3-implicit-shapes/JointTypes/JointTypes.gltf": (6, 14, 2, 0),
    "KHR_rigid_bodies/gen0-khr-rigid-bodies/JointTypes/JointTypes.gltf": (4, 12, 0, 0),
    "OMI_physics_joint/gen1-constraints-omi-collider/simple_joint.gltf": (0, 2, 0, 0),
    "OMI_physics_joint/gen1-constraints-omi-collider/slider_ball.gltf": (0, 6, 0, 0),
    "OMI_physics_joint/gen1-constraints-omi-collider/weld_joint.gltf": (0, 1, 0, 0),
    "OMI_physics_joint/gen1-constraints/hanging_rope.gltf": (0, 12, 0, 0),
    "OMI_physics_joint/gen1-constraints/pendulum_balls.gltf": (0, 18, 0, 0),
    "OMI_physics_joint/gen1-constraints/rope_railing.gltf": (0, 20, 0, 0),
    "OMI_physics_joint/gen1-constraints/simple_joint.gltf": (0, 2, 0, 0),
    "OMI_physics_joint/gen1-constraints/slider_ball.gltf": (0, 6, 0, 0),
    "OMI_physics_joint/gen1-constraints/swing_and_slide.gltf": (0, 6, 0, 0),
    "OMI_physics_joint/gen1-constraints/weld_joint.gltf": (0, 1, 0, 0),
    "OMI_physics_joint/gen2-physicsJoints/hanging_rope.gltf": (0, 12, 0, 0),
    "OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf": (0, 18, 0, 0),
    "OMI_physics_joint/gen2-physicsJoints/rope_railing.gltf": (0, 20, 0, 0),
    "OMI_physics_joint/gen2-physicsJoints/simple_joint.gltf": (0, 5, 0, 0),
    "OMI_physics_joint/gen2-physicsJoints/slider_ball.gltf": (0, 6, 0, 0),
    "OMI_physics_joint/gen2-physicsJoints/swing_and_slide.gltf": (0, 6, 0, 0),
    "OMI_physics_joint/gen2-physicsJoints/weld_joint.gltf": (0, 1, 0, 0),
}


def expected_geoms(scene, col) -> int:
    """One geom per collider, except a static triangle mesh: one prism per triangle with an area."""
    static = col.body is None or scene.body(col.body).motion.type is MotionType.STATIC
    if not (isinstance(col.shape, MeshShape) and not col.shape.convex and static):
        return 1
    points, triangles = document_mesh_source(scene.document)(col.shape)
    a, b, c = (points[triangles[:, k]] for k in range(3))
    return int((np.linalg.norm(np.cross(b - a, c - a), axis=1) > 1e-12).sum())


def gid(m, name: str) -> int:
    return mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, name)


def compiled(scene):
    result = to_mjcf(scene)
    return result, mujoco.MjModel.from_xml_string(result.xml)


@pytest.mark.parametrize("rel", all_fixture_files())
def test_every_fixture_compiles_with_expected_counts(rel):
    scene = read_scene(load(fixture_path(rel)))
    result, m = compiled(scene)
    partners, *joints = JOINT_COUNTS.get(rel, (0, None, 0, 0))
    assert m.nbody == 1 + len(scene.bodies) + partners  # the world + one body per motion (none is animated)
    assert m.ngeom == sum(expected_geoms(scene, c) for c in scene.colliders) + sum(
        t.shape is not None for t in scene.triggers)
    dynamic = [b for b in scene.bodies if b.motion.type is MotionType.DYNAMIC]
    if rel in JOINT_COUNTS:
        assert [m.njnt, m.nu, m.neq] == joints
    else:
        assert (m.njnt, m.nu, m.neq) == (len(dynamic), 0, 0)
        balls = sum(b.motion.mass is not None and math.isinf(b.motion.mass) for b in dynamic)
        assert sorted(m.jnt_type) == [mujoco.mjtJoint.mjJNT_FREE] * (len(dynamic) - balls) + [
            mujoco.mjtJoint.mjJNT_BALL] * balls
    assert all(set(loss) == {"code", "pointer", "message"} and loss["code"].startswith("MJCF-")
               for loss in result.losses)


def test_frames_turn_y_up_into_z_up_and_sizes_are_half_extents():
    scene = make([{"translation": [1, 2, 3]}, {"translation": [0, 0, 0]}], [Body(0, Motion(mass=2.0))],
                 [Collider(0, Box((0.2, 0.4, 0.6)), body=0), Collider(1, Plane())])
    _, m = compiled(scene)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    assert d.xpos[1] == pytest.approx([1, -3, 2])  # glTF (x, y, z) → MJCF (x, −z, y)
    assert m.opt.gravity == pytest.approx([0, 0, -9.81])
    box, plane = gid(m, "collider0"), gid(m, "collider1")
    assert m.geom_size[box] == pytest.approx([0.1, 0.2, 0.3])
    assert m.geom_type[plane] == mujoco.mjtGeom.mjGEOM_PLANE
    assert d.geom_xmat[plane].reshape(3, 3)[:, 2] == pytest.approx([0, 0, 1])  # plane normal = up
    assert m.body_mass[1] == 2.0 and m.opt.timestep == pytest.approx(1 / 240)


def test_round_and_tapered_shapes_and_their_losses():
    scene = make([{"translation": [0, 1, 0]}], [Body(0, Motion())],
                 [Collider(0, Capsule(1.0, 0.2, 0.2), body=0), Collider(0, Cylinder(1.0, 0.3, 0.1), body=0)])
    result, m = compiled(scene)
    assert m.geom_type[0] == mujoco.mjtGeom.mjGEOM_CAPSULE and m.geom_size[0][:2] == pytest.approx([0.2, 0.5])
    assert m.geom_type[1] == mujoco.mjtGeom.mjGEOM_MESH  # tapered: the hull of its tessellation
    assert [(x["code"], x["message"]) for x in result.losses] == [
        ("MJCF-1", "tapered cylinder written as the convex hull of its tessellation (approximate)")]
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    # the capsule's axis (MuJoCo local z) is glTF's +Y, i.e. MJCF world +Z
    assert d.geom_xmat[0].reshape(3, 3)[:, 2] == pytest.approx([0, 0, 1])
    # the mesh stays where its vertices are: its extent along the axis is the cylinder's 1 m
    verts = m.mesh_vert[m.mesh_vertadr[0]:m.mesh_vertadr[0] + m.mesh_vertnum[0]]
    world = verts @ d.geom_xmat[1].reshape(3, 3).T + d.geom_xpos[1]
    assert world[:, 2].min() == pytest.approx(0.5, abs=1e-6) and world[:, 2].max() == pytest.approx(1.5, abs=1e-6)


def test_filters_become_contype_conaffinity_bits_exactly():
    # A collides with nothing of system S; B is in S; C has no filter. A–B never, A–C and B–C yes.
    filters = [CollisionFilter(collision_systems=("A",), not_collide_with_systems=("S",)),
               CollisionFilter(collision_systems=("S",))]
    nodes = [{"translation": [0, 0, 0]}, {"translation": [2, 0, 0]}, {"translation": [4, 0, 0]}]
    scene = make(nodes, [Body(0, Motion()), Body(1, Motion()), Body(2, Motion())],
                 [Collider(0, Sphere(0.5), body=0), Collider(1, Sphere(0.5), body=1), Collider(2, Sphere(0.5), body=2)])
    scene.colliders[0] = Collider(0, Sphere(0.5), body=0, filter=0)
    scene.colliders[1] = Collider(1, Sphere(0.5), body=1, filter=1)
    scene.filters = filters
    _, m = compiled(scene)

    def collides(g1: int, g2: int) -> bool:  # MuJoCo's rule
        return bool(m.geom_contype[g1] & m.geom_conaffinity[g2] or m.geom_contype[g2] & m.geom_conaffinity[g1])

    assert (collides(0, 1), collides(0, 2), collides(1, 2)) == (False, True, True)


def test_hinge_limit_drive_and_keyframe():
    lim = JointLimit(angular_axes=(2,), min=-0.5, max=0.25)
    d = JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 2, max_force=3.0, position_target=0.1,
                   velocity_target=0.5, stiffness=20.0, damping=4.0)
    result, m = compiled(bar_hinge(limit=lim, drive=d))
    assert m.njnt == 1 and m.jnt_type[0] == mujoco.mjtJoint.mjJNT_HINGE
    assert m.jnt_range[0] == pytest.approx([-0.5, 0.25]) and m.jnt_limited[0]
    assert m.jnt_axis[0] == pytest.approx([0, 0, 1]) and m.jnt_pos[0] == pytest.approx([-0.5, 0, 0])
    assert m.nu == 1 and m.actuator_gainprm[0, 0] == 20.0 and m.actuator_biasprm[0, 2] == -4.0
    assert m.actuator_forcerange[0] == pytest.approx([-3.0, 3.0])
    # position actuator: kp(ctrl − q) − kv q̇ = kp(target − q) + kv(v_target − q̇) with ctrl = target + kv·v/kp
    assert m.key_ctrl[0] == pytest.approx([0.1 + 4.0 * 0.5 / 20.0])
    # JOINT-9: the world side has no static colliders, so there is nothing to exclude
    assert ET.fromstring(result.xml).find("contact") is None


def test_gravity_factor_mocap_and_velocity_keyframe():
    nodes = [{"translation": [0, 1, 0]}, {"translation": [0, 2, 0], "rotation": [0, 0.7071068, 0, 0.7071068]}]
    moving = Motion(gravity_factor=0.25, linear_velocity=(1.0, 0, 0), angular_velocity=(0, 2.0, 0))
    scene = make(nodes, [Body(0, moving), Body(1, Motion(type=MotionType.KINEMATIC))],
                 [Collider(0, Sphere(0.5), body=0), Collider(1, Sphere(0.5), body=1)])
    _, m = compiled(scene)
    assert m.body_gravcomp[1] == pytest.approx(0.75)
    assert m.body_mocapid[2] == 0
    # free joint qvel: linear in MJCF world (glTF +x stays +x), angular in the body frame (node space, D-9)
    assert m.key_qvel[0] == pytest.approx([1, 0, 0, 0, 2, 0])


def test_convert_cli_writes_mjcf_and_its_loss_report(tmp_path):
    src = save_khr(bar_hinge(limit=JointLimit(angular_axes=(2,), min=-1.0, max=1.0, stiffness=50.0)),
                   tmp_path / "bar.gltf")
    runner = CliRunner()
    res = runner.invoke(app, ["convert", str(src), str(tmp_path / "bar.xml"), "--to", "mjcf",
                              "--report", str(tmp_path / "r.json")])
    assert res.exit_code == 0, res.output
    m = mujoco.MjModel.from_xml_path(str(tmp_path / "bar.xml"))
    assert (m.nbody, m.njnt, m.ngeom) == (2, 1, 1)
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["target"] == "mjcf"
    assert [x["code"] for x in report["losses"]] == ["MJCF-4"]  # the soft limit is approximate
    # soft limit: MuJoCo's direct solref is per unit inertia: 50 N·m/rad over the bar's I about the hinge
    inertia = (1.0 + 0.01) / 12 + 0.25
    assert -m.jnt_solref[0][0] == pytest.approx(50.0 / inertia)


def test_convert_cli_rejects_mismatched_target(tmp_path):
    src = save_khr(bar_hinge(), tmp_path / "bar.gltf")
    res = CliRunner().invoke(app, ["convert", str(src), str(tmp_path / "bar.xml"), "--to", "khr"])
    assert res.exit_code == 2
    assert res.output.strip().endswith("MJCF output needs OUT ending in .xml and --to mjcf")
    assert not (tmp_path / "bar.xml").exists()


def test_mass_properties_are_the_runtime_ones():
    # 1 × 0.5 × 0.25 box at 1000 kg/m³: 125 kg, I = m/12·(b² + c², a² + c², a² + b²)
    scene = make([{"translation": [0, 1, 0]}], [Body(0, Motion())], [Collider(0, Box((1.0, 0.5, 0.25)), body=0)])
    _, m = compiled(scene)
    assert m.body_mass[1] == pytest.approx(125.0)
    expect = 125 / 12 * np.array([0.25 + 0.0625, 1 + 0.0625, 1 + 0.25])
    assert sorted(m.body_inertia[1]) == pytest.approx(sorted(expect))


def test_joint_to_a_static_collider_excludes_only_its_partner_group():
    # JOINT-9: the bar hangs from node 1 (a static post); enableCollision false keeps bar and post apart,
    # but the ground (node 2, elsewhere in the tree) still collides with the bar.
    scene = bar_hinge()
    scene.document.json["nodes"] += [{"name": "post", "translation": [0, 2, 0]}, {"name": "ground"}]
    scene.colliders += [Collider(1, Box((0.1, 0.1, 0.1))), Collider(2, Plane())]
    joint = scene.joints[0]
    scene.joints[0] = type(joint)(None, joint.frame_a, 0, joint.frame_b, limits=joint.limits, node=1)
    result, _ = compiled(scene)
    root = ET.fromstring(result.xml)
    assert [e.attrib for e in root.findall("contact/exclude")] == [{"body1": "static_1", "body2": "bar_0"}]
    assert root.find("worldbody/body[@name='static_1']/geom").get("name") == "collider1"
    assert root.find("worldbody/geom").get("name") == "collider2"  # the ground stays on the world body
