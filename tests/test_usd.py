"""OpenUSD UsdPhysics out and in (item 1).

The sweep writes every official fixture as USD and asks usd-core's own physics parser what it finds: the
same rigid bodies, colliders by shape, joints and materials `info` reports. The round trips (KHR → USD → KHR,
OMI → USD → OMI) compare models with the normaliser of tests/test_convert.py; the runs compare poses after
2 s. Unit checks pin the units UsdPhysics prescribes (degrees, per-degree gains) and a hand-written Z-up
USD file shows what a foreign file reads as.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from pxr import Usd, UsdPhysics

from conftest import all_fixture_files, fixture_path
from gltf_physics.api import convert, load, read_scene
from gltf_physics.dialects import PHYSICS_EXTENSIONS as PHYSICS_NAMES
from gltf_physics.formats.usd import from_usd, to_usd, usd_to_gltf
from gltf_physics.gltf.document import Document
from gltf_physics.model import (
    Body,
    Box,
    Collider,
    DriveMode,
    DriveType,
    Joint,
    JointDrive,
    JointLimit,
    Motion,
    PhysicsScene,
    Pose,
    shape_kind,
)
from gltf_physics.summary import summarize
from gltf_physics.validation import validate
from test_convert import assert_same_model, doc_of, family, read

FIXTURES = all_fixture_files()
T = UsdPhysics.ObjectType
SHAPES = {T.CubeShape: "box", T.SphereShape: "sphere", T.CapsuleShape: "capsule", T.Capsule1Shape: "capsule",
          T.CylinderShape: "cylinder", T.Cylinder1Shape: "cylinder", T.PlaneShape: "plane", T.MeshShape: "mesh"}
JOINTS = {T.FixedJoint: "fixed", T.RevoluteJoint: "revolute", T.PrismaticJoint: "prismatic",
          T.SphericalJoint: "spherical", T.DistanceJoint: "distance", T.D6Joint: "generic"}
USD_CODES = {f"USD-{k}" for k in range(1, 14)}
PHYSICS_EXTENSIONS = set(PHYSICS_NAMES)


def parsed(path: Path) -> dict[str, Counter[str]]:
    """What usd-core's UsdPhysics parser finds in a layer: object counts, shapes by kind, joints by type."""
    stage = Usd.Stage.Open(str(path))
    load_range = getattr(UsdPhysics, "UsdPhysicsLoadStageFromPrimRange", None) or UsdPhysics.LoadUsdPhysicsFromRange
    found = load_range(stage, ["/"])
    objects, shapes, joints = Counter(), Counter(), Counter()
    for kind, (paths, descs) in found.items():
        if kind in SHAPES:
            for desc in descs:
                name = SHAPES[kind]
                if name == "mesh":
                    name = "convex" if desc.approximation == "convexHull" else "trimesh"
                shapes[name] += 1
        elif kind in JOINTS:
            joints[JOINTS[kind]] += len(paths)
        else:
            objects[str(kind)] += len(paths)
    return {"objects": objects, "shapes": shapes, "joints": joints}


# ---------------------------------------------------------------------------------------------------
# The sweep: every fixture → USD that usd-core parses into what `info` reports
# ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("relative", FIXTURES)
def test_every_fixture_converts_to_usd_that_usd_physics_reads_as_info_does(relative: str, tmp_path: Path) -> None:
    doc = load(fixture_path(relative))
    scene = read_scene(doc)
    info = summarize(doc, scene)["counts"]
    out = tmp_path / "scene.usda"
    losses = to_usd(doc, out)
    assert {x["code"] for x in losses} <= USD_CODES | {n.code for n in scene.notes}
    got = parsed(out)
    assert got["objects"]["RigidBody"] == sum(info["bodies"].values())
    assert got["shapes"] == Counter(shape_kind(c.shape) for c in scene.colliders)  # triggers are no colliders
    assert sum(got["shapes"].values()) == info["colliders"]
    assert sum(got["joints"].values()) == info["joints"]
    assert got["objects"]["RigidBodyMaterial"] == info["materials"]
    assert got["objects"]["Scene"] == 1


def test_joint_types_are_the_typed_usd_joints_where_exact(tmp_path: Path) -> None:
    # KHR JointTypes (gen3), 11 joints, read by hand from its physicsJoints: 0–1 linear locks only (ball
    # joints), 2, 3, 8 and 9 (driven) a free or ranged angular axis with the rest locked (hinges), 4 and 10
    # (driven) one ranged linear axis (sliders), 6 everything locked (weld); 5 (linear ranges on three axes)
    # and 7 (two angular ranges) are no typed joint: generic joints with one LimitAPI per axis.
    out = tmp_path / "joints.usda"
    to_usd(load(fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/JointTypes/JointTypes.gltf")), out)
    assert parsed(out)["joints"] == Counter(spherical=2, revolute=4, prismatic=2, fixed=1, generic=2)
    stage = Usd.Stage.Open(str(out))
    hinge = UsdPhysics.RevoluteJoint(stage.GetPrimAtPath("/World/Physics/Joints/RevoluteJoint_8"))
    # angular [2] in [-π/4, π/4] rad about Z: USD says degrees
    assert (hinge.GetAxisAttr().Get(), hinge.GetLowerLimitAttr().Get(), hinge.GetUpperLimitAttr().Get()) == \
        ("Z", -45.0, 45.0)


def test_tapered_shapes_are_capsule_1_and_cylinder_1(tmp_path: Path) -> None:
    out = tmp_path / "shapes.usda"
    to_usd(load(fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/ShapeTypes/ShapeTypes.gltf")), out)
    stage = Usd.Stage.Open(str(out))
    types = Counter(p.GetTypeName() for p in stage.Traverse() if p.HasAPI(UsdPhysics.CollisionAPI))
    assert types["Capsule_1"] >= 1 and types["Cylinder_1"] >= 1


# ---------------------------------------------------------------------------------------------------
# Round trips: the model comes back equal; the runs come back the same
# ---------------------------------------------------------------------------------------------------

def through_usd(relative: str, tmp_path: Path) -> tuple[Document, Document, list[dict[str, str]]]:
    """(newest form of the fixture in its own family, the same after glTF → USD → glTF, losses of both steps)."""
    here = family(relative)
    newest, _ = convert(doc_of(relative), here)  # type: ignore[arg-type]
    out = tmp_path / ("scene.usdc" if relative.endswith(".glb") else "scene.usda")  # both layer formats
    losses = to_usd(doc_of(relative), out)
    back, back_losses = usd_to_gltf(out, here)
    return newest, back, losses + back_losses


@pytest.mark.parametrize("relative", FIXTURES)
def test_round_trip_through_usd_keeps_the_model(relative: str, tmp_path: Path) -> None:
    # Exact (to float32 precision, 1e-6) even where a loss is listed: what UsdPhysics cannot say rides in
    # the gltfPhysics namespace, and the loss report says a USD consumer does not see it.
    here = family(relative)
    newest, back, _ = through_usd(relative, tmp_path)
    assert_same_model(read(newest, resolve_mass=here == "khr"), read(back, resolve_mass=here == "khr"))
    assert validate(back).num_errors == 0
    # Lights, cameras, extras and other non-physics extensions come back; render materials do not (USD-10).
    others = {e for e in newest.json.get("extensionsUsed", []) if e not in PHYSICS_EXTENSIONS}
    assert set(back.json.get("extensionsUsed", [])) - PHYSICS_EXTENSIONS == others - {"KHR_materials_clearcoat"}
    assert back.json.get("extensions", {}).keys() - PHYSICS_EXTENSIONS == \
        newest.json.get("extensions", {}).keys() - PHYSICS_EXTENSIONS
    assert [n.get("extras") for n in back.json["nodes"][:len(newest.json["nodes"])]] == \
        [n.get("extras") for n in newest.json["nodes"]]


# Every fixture with moving bodies runs the same within 0 mm on this machine (about a minute for all);
# the test keeps a representative tenth: contacts and materials, initial velocities (angular in deg/s),
# computed masses, tapered shapes, filters, every joint type, soft and several-axis limits, vehicles.
SAME_MOTION = [
    "OMI_physics_body/gen4-materials/complex/ball_pit.gltf",
    "OMI_physics_body/gen1-type-shape/complex/rigid_with_velocity.gltf",
    "KHR_physics_rigid_bodies/gen3-implicit-shapes/ShapeTypes/ShapeTypes.gltf",
    "KHR_physics_rigid_bodies/gen3-implicit-shapes/Filtering/Filtering.gltf",
    "KHR_physics_rigid_bodies/gen3-implicit-shapes/Materials_Friction/Materials_Friction.gltf",
    "KHR_physics_rigid_bodies/gen3-implicit-shapes/JointTypes/JointTypes.gltf",
    "OMI_physics_joint/gen2-physicsJoints/slider_ball.gltf",
    "OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf",
    "OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf",
]


@pytest.mark.parametrize("relative", SAME_MOTION)
def test_round_trip_through_usd_moves_the_same(relative: str, tmp_path: Path) -> None:
    from gltf_physics.gltf.transforms import world_matrices
    from gltf_physics.sim.world import World

    newest, back, _ = through_usd(relative, tmp_path)
    worlds = [World(read_scene(d), rate=60) for d in (newest, back)]
    for w in worlds:
        w.run(2.0)
    assert worlds[0].nodes.tolist() == worlds[1].nodes.tolist() and len(worlds[0].nodes)
    moved = 0.0
    for node in worlds[0].nodes.tolist():
        (a, qa), (b, qb) = worlds[0].pose(node), worlds[1].pose(node)
        assert float(np.linalg.norm(a - b)) <= 1e-3
        assert abs(float(np.dot(qa, qb))) >= math.cos(math.radians(0.5) / 2)  # same orientation within 0.5°
        moved = max(moved, float(np.linalg.norm(a - world_matrices(newest.json)[node][:3, 3])))
    assert moved > 0.01  # something moved: the comparison means something


def test_loss_report_names_what_usd_cannot_say(tmp_path: Path) -> None:
    doc = load(fixture_path("OMI_physics_joint/gen2-physicsJoints/simple_joint.gltf"))
    losses = to_usd(doc, tmp_path / "j.usda")
    # limit linear [0,1,2] 0/0 with stiffness 0.3: a soft ball joint; USD gets three hard locks
    assert [x for x in losses if x["code"] == "USD-7"] == [{
        "code": "USD-7", "pointer": "/nodes/4/extensions/OMI_physics_joint",
        "message": "soft limit on transX, transY, transZ: UsdPhysics limits are hard "
                   "(stiffness/damping kept as gltfPhysics:softLimits)"}]
    motion = load(fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/MotionProperties/MotionProperties.gltf"))
    codes = Counter(x["code"] for x in to_usd(motion, tmp_path / "m.usda"))
    assert codes["USD-3"] == 5 and codes["USD-8"] == 3  # gravityFactor ≠ 1 on 5 bodies; 3 infinite mass/inertia
    car = to_usd(load(fixture_path("OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf")), tmp_path / "c.usda")
    assert Counter(x["code"] for x in car) == Counter({"USD-5": 5, "USD-1": 4, "USD-6": 4, "USD-10": 1})


def test_triggers_are_guide_shapes_without_collision(tmp_path: Path) -> None:
    out = tmp_path / "t.usda"
    losses = to_usd(load(fixture_path("OMI_physics_body/gen4-materials/basic/trigger_box.gltf")), out)
    assert [x["code"] for x in losses] == ["USD-1"]
    stage = Usd.Stage.Open(str(out))
    (prim,) = [p for p in stage.Traverse() if p.GetName() == "trigger"]
    assert (prim.GetTypeName(), prim.HasAPI(UsdPhysics.CollisionAPI)) == ("Cube", False)
    assert prim.GetAttribute("purpose").Get() == "guide"
    assert len(from_usd(out).triggers) == 1  # and back from the gltfPhysics:triggers JSON, not from the shape


def test_losses_reading_usd_point_at_prims(tmp_path: Path) -> None:
    # pendulum_balls (OMI) has three joint nodes under static bodies (JOINT-2, an invalid official file):
    # writing OMI again swaps them, and the report names the USD joint prims.
    out = tmp_path / "p.usd"  # .usd = the binary crate
    to_usd(load(fixture_path("OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf")), out)
    assert out.read_bytes()[:8] == b"PXR-USDC"
    _, losses = usd_to_gltf(out, "omi")
    assert [(x["code"], x["pointer"]) for x in losses] == [
        ("JOINT-2", f"/World/Physics/Joints/GenericJoint_{k}") for k in range(3)]


def test_collision_groups_filter_exactly_the_pairs_the_model_filters(tmp_path: Path) -> None:
    from gltf_physics.formats.usd.write import does_collide

    relative = "KHR_physics_rigid_bodies/gen3-implicit-shapes/Filtering/Filtering.gltf"
    scene = read_scene(load(fixture_path(relative)))
    out = tmp_path / "f.usda"
    to_usd(load(fixture_path(relative)), out)
    stage = Usd.Stage.Open(str(out))
    groups = [UsdPhysics.CollisionGroup(p) for p in stage.Traverse() if p.IsA(UsdPhysics.CollisionGroup)]
    member = {}
    for g in groups:
        query = g.GetCollidersCollectionAPI().ComputeMembershipQuery()
        for p in stage.Traverse():
            if p.HasAPI(UsdPhysics.CollisionAPI) and query.IsPathIncluded(p.GetPath()):
                member[p.GetCustomDataByKey("gltfPhysics")["collider"]] = g
    pairs = 0
    for i, a in enumerate(scene.colliders):
        for j, b in enumerate(scene.colliders):
            fa = scene.filters[a.filter] if a.filter is not None else None
            fb = scene.filters[b.filter] if b.filter is not None else None
            model = does_collide(fa, fb) and does_collide(fb, fa)
            ga, gb = member.get(i), member.get(j)
            filtered = ga is not None and gb is not None and gb.GetPath() in ga.GetFilteredGroupsRel().GetTargets()
            assert model == (not filtered)
            pairs += not model
    assert pairs > 0  # the fixture does filter some pairs


# ---------------------------------------------------------------------------------------------------
# Units UsdPhysics prescribes, on a scene built by hand
# ---------------------------------------------------------------------------------------------------

def hinge_scene() -> PhysicsScene:
    doc = Document(json={"asset": {"version": "2.0"}, "scenes": [{"nodes": [0, 1]}],
                         "nodes": [{"name": "Base", "translation": [0, 1, 0]}, {"name": "Arm"}]})
    scene = PhysicsScene(document=doc)
    scene.bodies = [Body(0, Motion(mass=2.0, angular_velocity=(math.pi, 0.0, 0.0))), Body(1, Motion(mass=0.5))]
    scene.colliders = [Collider(0, Box((1.0, 2.0, 3.0)), body=0), Collider(1, Box((0.5, 0.5, 0.5)), body=1)]
    locks = JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0)
    swing = JointLimit(angular_axes=(0,), min=-math.pi / 4, max=math.pi / 2)
    others = JointLimit(angular_axes=(1, 2), min=0.0, max=0.0)
    drive = JointDrive(DriveType.ANGULAR, DriveMode.FORCE, axis=0, max_force=50.0, position_target=math.pi / 6,
                       velocity_target=1.0, stiffness=10.0, damping=2.0)
    scene.joints = [Joint(0, Pose((0.0, -0.5, 0.0)), 1, Pose((0.0, 0.25, 0.0)), limits=(locks, swing, others),
                          drives=(drive,))]
    return scene


def test_angles_are_degrees_and_angular_gains_per_degree(tmp_path: Path) -> None:
    out = tmp_path / "hinge.usda"
    assert to_usd(hinge_scene(), out) == []
    stage = Usd.Stage.Open(str(out))
    base = stage.GetPrimAtPath("/World/Base")
    assert tuple(UsdPhysics.RigidBodyAPI(base).GetAngularVelocityAttr().Get()) == pytest.approx((180.0, 0, 0))
    assert UsdPhysics.MassAPI(base).GetMassAttr().Get() == 2.0
    cube = stage.GetPrimAtPath("/World/Base/collider")
    assert parsed(out)["shapes"] == Counter(box=2)
    assert tuple(cube.GetAttribute("xformOp:scale").Get()) == (1.0, 2.0, 3.0)  # unit cube × scale = the box
    hinge = UsdPhysics.RevoluteJoint(stage.GetPrimAtPath("/World/Physics/Joints/RevoluteJoint_0"))
    assert (hinge.GetAxisAttr().Get(), hinge.GetLowerLimitAttr().Get(), hinge.GetUpperLimitAttr().Get()) == \
        ("X", -45.0, 90.0)
    drive = UsdPhysics.DriveAPI(hinge.GetPrim(), "angular")
    assert drive.GetTargetPositionAttr().Get() == pytest.approx(30.0)
    assert drive.GetTargetVelocityAttr().Get() == pytest.approx(math.degrees(1.0))
    assert drive.GetStiffnessAttr().Get() == pytest.approx(10.0 * math.pi / 180)  # N·m per degree
    assert drive.GetDampingAttr().Get() == pytest.approx(2.0 * math.pi / 180)
    assert (drive.GetTypeAttr().Get(), drive.GetMaxForceAttr().Get()) == ("force", 50.0)
    assert [str(b) for b in hinge.GetBody0Rel().GetTargets()] == ["/World/Base"]
    # ...and back: the same joint, exactly as written
    back = from_usd(out)
    assert back.joints == hinge_scene().joints
    assert back.bodies == hinge_scene().bodies


FOREIGN = """#usda 1.0
(
    upAxis = "Z"
    metersPerUnit = 1
    kilogramsPerUnit = 1
)
def Xform "Robot"
{
    def PhysicsScene "physicsScene"
    {
        vector3f physics:gravityDirection = (0, 0, -1)
        float physics:gravityMagnitude = 9.81
    }
    def Cylinder "Ground" (prepend apiSchemas = ["PhysicsCollisionAPI"])
    {
        uniform token axis = "Z"
        double height = 0.1
        double radius = 5
    }
    def Cube "Link" (prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI", "PhysicsCollisionAPI"])
    {
        double size = 0.2
        float physics:mass = 3
        double3 xformOp:translate = (0, 0, 1)
        uniform token[] xformOpOrder = ["xformOp:translate"]
        def Sphere "Tip" (prepend apiSchemas = ["PhysicsCollisionAPI"])
        {
            double radius = 0.05
            double3 xformOp:translate = (0.3, 0, 0)
            uniform token[] xformOpOrder = ["xformOp:translate"]
        }
    }
    def PhysicsRevoluteJoint "Hinge" (prepend apiSchemas = ["PhysicsDriveAPI:angular"])
    {
        uniform token physics:axis = "Y"
        rel physics:body1 = </Robot/Link>
        point3f physics:localPos0 = (0, 0, 1)
        point3f physics:localPos1 = (0, 0, 0)
        float physics:lowerLimit = -90
        float physics:upperLimit = 30
        float drive:angular:physics:targetVelocity = 90
        float drive:angular:physics:damping = 1
    }
}
"""


def test_a_foreign_z_up_file_reads_as_y_up_glTF_physics(tmp_path: Path) -> None:
    src = tmp_path / "robot.usda"
    src.write_text(FOREIGN)
    scene = from_usd(src)
    doc = scene.document
    assert doc is not None
    names = [n.get("name") for n in doc.json["nodes"]]
    assert names == ["Robot", "Ground", "Link", "Tip", "Z_up_to_Y_up", "Ground_axisZ"]
    assert doc.json["scenes"][0]["nodes"] == [4]  # one root turns Z-up into Y-up
    assert scene.world_gravity is not None
    assert scene.world_gravity.vector == pytest.approx((0.0, -9.81, 0.0))  # Z down becomes Y down
    assert [(b.node, b.motion.mass) for b in scene.bodies] == [(2, 3.0)]
    kinds = [(c.node, shape_kind(c.shape), c.body) for c in scene.colliders]
    assert kinds == [(5, "cylinder", None), (2, "box", 2), (3, "sphere", 2)]
    assert scene.colliders[1].shape == Box((0.2, 0.2, 0.2))
    (hinge,) = scene.joints
    assert (hinge.body_a, hinge.body_b) == (None, 2)
    # world frame A: USD (0, 0, 1) in a Z-up world is (0, 1, 0) in glTF's Y-up world
    assert hinge.frame_a.translation == pytest.approx((0.0, 1.0, 0.0))
    rot = [lim for lim in hinge.limits if lim.angular_axes == (1,)]
    assert (rot[0].min, rot[0].max) == (pytest.approx(-math.pi / 2), pytest.approx(math.pi / 6))
    (drive,) = hinge.drives
    assert (drive.axis, drive.velocity_target, drive.position_target) == (1, pytest.approx(math.pi / 2), None)
    assert drive.damping == pytest.approx(180 / math.pi)  # 1 N·m·s per degree
    out, losses = usd_to_gltf(src, "khr")
    assert validate(out).num_errors == 0
    assert [x["code"] for x in losses if x["code"].startswith("USD")] == []


HOSTILE = """#usda 1.0
def Xform "World"
{
    def Mesh "Rock" (prepend apiSchemas = ["PhysicsCollisionAPI", "PhysicsRigidBodyAPI"])
    {
        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
        int[] faceVertexCounts = [3, 3, 4]
        int[] faceVertexIndices = [0, 1, 2, 0, 1, 9, 0, 2]
        custom string gltfPhysics:triggers = "[[0, {\\"$type\\": \\"Nope\\"}]]"
    }
    def PhysicsJoint "J" (customData = {dictionary gltfPhysics = {string layout = "not json"}})
    {
        rel physics:body0 = </World/Rock>
        rel physics:body1 = </World/Missing>
    }
    def PhysicsJoint "Gear" (prepend apiSchemas = ["PhysicsDriveAPI:spin"])
    {
        rel physics:body0 = </World/Rock>
    }
}
"""


def test_a_hostile_usd_file_reads_with_notes_and_writes_valid_gltf(tmp_path: Path) -> None:
    src = tmp_path / "hostile.usda"
    src.write_text(HOSTILE)
    scene = from_usd(src)
    notes = sorted((n.code, n.pointer, n.message.split(" (")[0].split(":")[0]) for n in scene.notes)
    assert notes == [
        ("USD-12", "/World/Gear", "drive 'spin'"),
        ("USD-12", "/World/J", "unreadable gltfPhysics joint data"),
        ("USD-12", "/World/Missing", "a joint body that does not exist"),
        ("USD-12", "/World/Rock", "mesh faces with indices past its points or index list"),
        ("USD-12", "/World/Rock", "unreadable gltfPhysics"),
        ("USD-13", "/", "metersPerUnit 0.01, kilogramsPerUnit 1"),  # unauthored: USD's centimetres
    ]
    assert scene.triggers == []
    assert scene.document is not None
    assert scene.document.json["meshes"][0]["primitives"][0]["attributes"] == {"POSITION": 0}
    (rock,) = scene.colliders
    assert (rock.node, rock.body) == (1, 1)
    out, _ = usd_to_gltf(src, "khr")
    assert validate(out).num_errors == 0


# ---------------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------------

def run(*args: str | Path, block_pxr: bool = False) -> subprocess.CompletedProcess[str]:
    prelude = "import sys; sys.modules['pxr'] = None; " if block_pxr else "import sys; "
    code = prelude + "from gltf_physics.cli import main; sys.argv = ['gltf-physics', *sys.argv[1:]]; main()"
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True,
                          timeout=120)


BALL_PIT = "OMI_physics_body/gen4-materials/complex/ball_pit.gltf"


def test_cli_converts_to_usd_and_back(tmp_path: Path) -> None:
    usda, report = tmp_path / "pit.usda", tmp_path / "report.json"
    r = run("convert", fixture_path(BALL_PIT), usda, "--report", report)
    assert r.returncode == 0, r.stderr
    assert json.loads(report.read_text())["target"] == "usd"
    assert parsed(usda)["objects"]["RigidBody"] == 5 + 1  # 5 balls and the static pit
    glb = tmp_path / "pit.glb"
    r = run("convert", usda, glb, "--to", "khr")
    assert r.returncode == 0, r.stderr
    back = load(glb)
    assert validate(back).num_errors == 0
    assert "KHR_physics_rigid_bodies" in back.json["extensionsUsed"]


def test_cli_reading_usd_needs_to(tmp_path: Path) -> None:
    usda = tmp_path / "pit.usda"
    to_usd(load(fixture_path(BALL_PIT)), usda)
    r = run("convert", usda, tmp_path / "x.glb")
    assert (r.returncode, r.stderr) == (2, f"{usda}: reading USD needs --to khr or --to omi "
                                           "(the glTF physics family to write)\n")
    assert not (tmp_path / "x.glb").exists()
    r = run("convert", fixture_path(BALL_PIT), tmp_path / "x.usda", "--to", "khr")
    assert (r.returncode, r.stderr) == (2, "--to names a glTF family; it does not apply to USD output\n")
    assert not (tmp_path / "x.usda").exists()


def test_cli_without_usd_core_names_the_extra(tmp_path: Path) -> None:
    r = run("convert", fixture_path(BALL_PIT), tmp_path / "x.usda", block_pxr=True)
    assert (r.returncode, r.stderr) == (2, "OpenUSD support needs usd-core: pip install 'gltf-physics[usd]'\n")
    assert list(tmp_path.iterdir()) == []


def test_cli_unreadable_usd_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.usda"
    bad.write_text("#usda 1.0\ndef Xform \"A\" {\n")  # unterminated
    r = run("convert", bad, tmp_path / "x.glb", "--to", "omi")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"{bad}: not a readable USD layer")
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "x.glb").exists()
