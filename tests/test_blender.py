"""The Blender add-on (gltf_physics.blender) on Blender itself (the bpy package): every fixture imported through
Blender's glTF importer with counts equal to `info --json`'s, values checked against the files' own JSON, and
scenes built in Blender exported (KHR and OMI), validated and imported back with the same settings."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from blender_scenes import body, clear, constraint, need_bpy
from conftest import FIXTURES, all_fixture_files, fixture_path

bpy = need_bpy()

import gltf_physics as gp  # noqa: E402 - after the bpy check
import gltf_physics.blender as gpb  # noqa: E402
from gltf_physics.blender.importer import PROXY  # noqa: E402
from gltf_physics.summary import summarize  # noqa: E402

REL = 1e-6


@pytest.fixture(scope="module")
def blender() -> Any:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    gpb.enable()
    return bpy


@pytest.fixture
def empty(blender: Any) -> Any:
    clear(bpy)
    return bpy.context.scene


def _counted() -> tuple[int, int, int]:
    """(rigid bodies, collider shapes, constraints other than motors) in the open Blender scene, read from
    Blender's own data: a compound parent is one body, its rigid-body children its shapes."""
    objs = list(bpy.context.scene.objects)
    child = {o.name for o in objs if o.parent is not None and o.parent.rigid_body is not None
             and o.parent.rigid_body.collision_shape == "COMPOUND"}
    bodies = sum(1 for o in objs if o.rigid_body is not None and o.name not in child)
    shapes = sum(1 for o in objs if o.rigid_body is not None and o.rigid_body.collision_shape != "COMPOUND")
    joints = sum(1 for o in objs if o.rigid_body_constraint is not None and o.rigid_body_constraint.type != "MOTOR")
    return bodies, shapes, joints


@pytest.mark.parametrize("relative", all_fixture_files())
def test_every_fixture_imports_with_infos_counts(empty: Any, relative: str) -> None:
    path = fixture_path(relative)
    doc = gp.load(path)
    counts = summarize(doc, gp.read_scene(doc))["counts"]  # what `info --json` prints
    gpb.import_file(path)
    bodies = sum(counts["bodies"].values()) + counts["staticColliders"]
    assert _counted() == (bodies, counts["colliders"], counts["joints"])


def _richest_per_generation() -> list[str]:
    """One file per extension generation folder (the largest, the one with the most in it)."""
    files = [f for f in all_fixture_files() if f != "<fixtures-missing>"]
    if not files:
        return ["<fixtures-missing>"]
    best: dict[str, str] = {}
    for f in files:
        folder = "/".join(f.split("/")[:2])
        size = (FIXTURES / f).stat().st_size
        if folder not in best or size > (FIXTURES / best[folder]).stat().st_size:
            best[folder] = f
    return sorted(best.values())


KEPT_COUNTS = ("colliders", "joints", "triggers", "vehicles", "wheels", "seats", "gravity_fields")


@pytest.mark.parametrize("family", ["khr", "omi"])
@pytest.mark.parametrize("relative", _richest_per_generation())
def test_an_imported_fixture_exports_its_physics_back(empty: Any, tmp_path: Path, relative: str,
                                                      family: str) -> None:
    path = fixture_path(relative)
    before = gp.read_scene(gp.load(path))
    gpb.import_file(path)
    result = gpb.export_file(tmp_path / "out.glb", family=family)
    assert result.report.num_errors == 0, [m.message for m in result.report.messages if int(m.severity) == 0]
    after = gp.read_scene(gp.load(tmp_path / "out.glb"))
    moving = [sum(b.motion.type != "static" for b in s.bodies) for s in (before, after)]
    assert moving[0] == moving[1]
    for key in KEPT_COUNTS:
        assert len(getattr(after, key)) == len(getattr(before, key)), key


def _by_name(name: str) -> Any:
    return bpy.data.objects[name]


def test_masses_and_frictions_equal_the_files(empty: Any) -> None:
    path = fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/Materials_Friction/Materials_Friction.gltf")
    gltf = json.loads(path.read_text())
    materials = gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsMaterials"]
    gpb.import_file(path)
    checked = 0
    for node in gltf["nodes"]:
        ext = node.get("extensions", {}).get("KHR_physics_rigid_bodies", {})
        if "motion" in ext:
            assert _by_name(node["name"]).rigid_body.mass == pytest.approx(ext["motion"]["mass"], rel=REL)
        if "collider" in ext:
            proxy = next(o for o in bpy.data.objects if o.get("gltf_physics_node") == node["name"])
            want = materials[ext["collider"]["physicsMaterial"]]
            assert proxy.rigid_body.friction == pytest.approx(want["staticFriction"], rel=REL, abs=1e-12)
            assert proxy.rigid_body.restitution == pytest.approx(want["restitution"], abs=1e-12)
            checked += 1
    assert checked == 3


def test_a_thousand_kilogram_car_keeps_its_mass_seats_and_wheels(empty: Any, tmp_path: Path) -> None:
    path = fixture_path("OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf")
    gpb.import_file(path)
    assert _by_name("SimpleCar").rigid_body.mass == pytest.approx(1000, rel=REL)
    before = gp.read_scene(gp.load(path))
    out = gpb.export_file(tmp_path / "car.gltf", family="omi")
    assert out.report.num_errors == 0
    after = gp.read_scene(gp.load(tmp_path / "car.gltf"))
    for key in ("vehicles", "wheels", "seats", "triggers"):
        assert len(getattr(after, key)) == len(getattr(before, key)) > 0, key
    assert [w.radius for w in after.wheels] == [w.radius for w in before.wheels]


def test_joint_limits_and_axes_equal_the_files(empty: Any) -> None:
    path = fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/JointTypes/JointTypes.gltf")
    gltf = json.loads(path.read_text())
    joints = gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"]
    gpb.import_file(path)
    cons = [o for o in bpy.context.scene.objects if o.rigid_body_constraint is not None]
    hinges = [o for o in cons if o.rigid_body_constraint.type == "HINGE" and o.rigid_body_constraint.use_limit_ang_z]
    sliders = [o for o in cons if o.rigid_body_constraint.type == "SLIDER"]
    # The file's one limited hinge (joint 7: angular axis 2 within ±45°) and its two sliders (joints 3 and 9).
    want = next(lim for lim in joints[7]["limits"] if lim.get("angularAxes") == [2])
    assert len(hinges) == 1
    c = hinges[0].rigid_body_constraint
    assert (c.limit_ang_z_lower, c.limit_ang_z_upper) == pytest.approx((want["min"], want["max"]), rel=REL)
    ranges = sorted((s.rigid_body_constraint.limit_lin_x_lower, s.rigid_body_constraint.limit_lin_x_upper)
                    for s in sliders)
    wanted = sorted((lim["min"], lim["max"]) for j in (3, 9) for lim in joints[j]["limits"]
                    if lim.get("linearAxes") == [1])
    assert np.allclose(ranges, wanted, rtol=REL, atol=0)
    # Joint 8's drive (stiffness 0, velocity −1.57 rad/s about axis 2) is a Blender motor about the same axis.
    motors = [o for o in cons if o.rigid_body_constraint.type == "MOTOR"]
    assert len(motors) == 1 and motors[0].rigid_body_constraint.use_motor_ang
    drive = joints[8]["drives"][0]
    assert abs(motors[0].rigid_body_constraint.motor_ang_target_velocity) == pytest.approx(
        abs(drive["velocityTarget"]), rel=REL)
    # The hinge turns about the joint node's +Z, which Blender's glTF importer puts on its −Y (Y-up → Z-up).
    node = next(i for i, n in enumerate(gltf["nodes"])
                if n.get("extensions", {}).get("KHR_physics_rigid_bodies", {}).get("joint", {}).get("joint") == 7)
    world = gp.read_scene(gp.load(path)).node_world()[node]
    z = world[:3, :3] @ np.array([0.0, 0.0, 1.0])
    axis = np.array(hinges[0].matrix_world.to_3x3().col[2].normalized())
    assert axis == pytest.approx(np.array([z[0], -z[2], z[1]]) / np.linalg.norm(z), abs=1e-6)


# -- scenes built in Blender, exported and imported back


def _build() -> None:
    body(bpy, "Ground", (10, 10, 1), (0, 0, -0.5), kind="PASSIVE", friction=0.8)
    body(bpy, "Crate", (1, 0.5, 0.25), (0, 0, 2), mass=2.5, friction=0.3, restitution=0.4)
    body(bpy, "Ball", (0.6, 0.6, 0.6), (2, 0, 2), shape="SPHERE", mass=0.7)
    body(bpy, "Pill", (0.4, 0.4, 1.2), (4, 0, 2), shape="CAPSULE", mass=1.5)
    body(bpy, "Can", (0.5, 0.5, 0.8), (6, 0, 2), shape="CYLINDER")
    body(bpy, "Cone", (0.5, 0.5, 0.8), (8, 0, 2), shape="CONE")
    kin = body(bpy, "Lift", (1, 1, 0.2), (-2, 0, 1))
    kin.rigid_body.kinematic = True
    layered = body(bpy, "Layered", (0.5, 0.5, 0.5), (-4, 0, 2))
    layered.rigid_body.collision_collections = [i in (0, 3) for i in range(20)]
    anchor = body(bpy, "Anchor", (0.2, 0.2, 0.2), (0, 4, 3), kind="PASSIVE")
    arms = [body(bpy, f"Arm{i}", (0.3, 0.3, 0.3), (2 * i, 4, 2)) for i in range(6)]
    hinge = constraint(bpy, "Hinge", "HINGE", anchor, arms[0], (0, 4, 3), (math.pi / 2, 0, 0))
    c = hinge.rigid_body_constraint
    c.use_limit_ang_z, c.limit_ang_z_lower, c.limit_ang_z_upper = True, -0.5, 1.0
    slider = constraint(bpy, "Slider", "SLIDER", anchor, arms[1], (2, 4, 2), (0, 0.3, 0))
    c = slider.rigid_body_constraint
    c.use_limit_lin_x, c.limit_lin_x_lower, c.limit_lin_x_upper = True, -0.25, 0.75
    constraint(bpy, "Fixed", "FIXED", anchor, arms[2], (4, 4, 2))
    constraint(bpy, "Point", "POINT", anchor, arms[3], (6, 4, 2.5))
    generic = constraint(bpy, "Generic", "GENERIC", anchor, arms[4], (8, 4, 2), (0.1, 0.2, 0.3))
    c = generic.rigid_body_constraint
    c.use_limit_lin_x, c.limit_lin_x_lower, c.limit_lin_x_upper = True, -0.1, 0.2
    c.use_limit_ang_y, c.limit_ang_y_lower, c.limit_ang_y_upper = True, -0.3, 0.4
    c.use_limit_lin_z, c.limit_lin_z_lower, c.limit_lin_z_upper = True, 0.0, 0.0
    piston = constraint(bpy, "Piston", "PISTON", anchor, arms[5], (10, 4, 2))
    c = piston.rigid_body_constraint
    c.use_limit_lin_x, c.limit_lin_x_lower, c.limit_lin_x_upper = True, 0.0, 0.5


BODY_KEYS = ("type", "kinematic", "mass", "friction", "restitution")
LIMITS = ("limit_lin_x_lower", "limit_lin_x_upper", "limit_lin_z_lower", "limit_lin_z_upper",
          "limit_ang_y_lower", "limit_ang_y_upper", "limit_ang_z_lower", "limit_ang_z_upper")


def _settings() -> dict[str, Any]:
    """Every rigid body's and constraint's settings, by the object the user made (a body's shape is its own or,
    after an import, its proxy child's)."""
    out: dict[str, Any] = {}
    for o in bpy.context.scene.objects:
        if o.get(PROXY):
            continue
        rb = o.rigid_body
        if rb is not None:
            shape_obj = o
            if rb.collision_shape == "COMPOUND":
                shape_obj = next(ch for ch in o.children if ch.rigid_body is not None)
            out[o.name] = {**{k: getattr(rb, k) for k in BODY_KEYS}, "shape": shape_obj.rigid_body.collision_shape,
                           "size": tuple(shape_obj.dimensions), "at": tuple(o.matrix_world.translation),
                           "collections": tuple(rb.collision_collections)}
        c = o.rigid_body_constraint
        if c is not None:
            key = f"{c.type}:{'-'.join(sorted((c.object1.name, c.object2.name)))}"  # a writer may swap the sides
            m = o.matrix_world.normalized()
            out[key] = {"pivot": tuple(m.translation), "limits": {k: getattr(c, k) for k in LIMITS
                                                                  if getattr(c, "use_" + k.rsplit("_", 1)[0])},
                        "axes": tuple(tuple(m.to_3x3().col[i]) for i in (0, 2)), "collide": c.disable_collisions}
    return out


def _same(a: Any, b: Any, where: str = "") -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _same(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, tuple) and a and isinstance(a[0], tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}/{i}")
    elif isinstance(a, float) or (isinstance(a, tuple) and a and isinstance(a[0], float)):
        assert np.allclose(a, b, rtol=REL, atol=1e-6), (where, a, b)
    else:
        assert a == b, (where, a, b)


@pytest.mark.parametrize("family", ["khr", "omi"])
def test_a_scene_built_in_blender_round_trips(empty: Any, tmp_path: Path, family: str) -> None:
    _build()
    before = _settings()
    path = tmp_path / f"built.{family}.glb"
    result = gpb.export_file(path, family=family)
    assert result.report.num_errors == 0, [m.message for m in result.report.messages]
    assert gp.validate(gp.load(path)).num_errors == 0  # the file on disk, read afresh
    scene = gp.read_scene(gp.load(path))
    # 13 moving bodies (OMI: and the anchor, a static body, as OMI joints hold only bodies), 15 shapes, 6 joints
    assert (len(scene.bodies), len(scene.colliders), len(scene.joints)) == (13 + (family == "omi"), 15, 6)
    assert all(m.friction_combine == "multiply" for m in scene.materials)  # Bullet multiplies frictions
    clear(bpy)
    gpb.import_file(path)
    after = _settings()
    _same(before, after)


def test_the_export_report_names_bullet_only_settings(empty: Any, tmp_path: Path) -> None:
    crate = body(bpy, "Crate", (1, 1, 1), (0, 0, 2))
    crate.rigid_body.linear_damping = 0.1
    crate.rigid_body.use_deactivation = True
    result = gpb.export_file(tmp_path / "lossy.gltf")
    assert "Crate: linear damping (Bullet) has no glTF counterpart" in result.losses
    assert "Crate: deactivation (Bullet) has no glTF counterpart" in result.losses


class _Layout:
    """Records what a draw function puts in Blender's layout (there is no UI headless)."""

    def __init__(self, drawn: list) -> None:
        self.drawn = drawn
        self.use_property_split = self.active = True

    def panel(self, idname: str, default_closed: bool = False) -> tuple:
        self.drawn.append(("panel", idname))
        return _Layout(self.drawn), _Layout(self.drawn)

    def prop(self, data: Any, name: str) -> None:
        self.drawn.append(("prop", name, getattr(data, name)))


def test_the_exporter_panel_has_a_physics_section(blender: Any) -> None:
    from io_scene_gltf2 import exporter_extension_layout_draw

    settings = bpy.context.scene.gltf_physics_export
    settings.enabled, settings.family = True, "omi"
    drawn: list = []
    exporter_extension_layout_draw["glTF Physics"](bpy.context, _Layout(drawn))
    assert drawn == [("panel", "GLTF_physics_export"), ("prop", "enabled", True), ("prop", "family", "omi")]


def test_what_blender_cannot_hold_exports_back_unchanged(empty: Any, tmp_path: Path) -> None:
    # centre of mass, inertia, gravity factor and an infinite mass (KHR mass 0) have no Blender setting
    path = fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/MotionProperties/MotionProperties.gltf")
    gpb.import_file(path)
    gpb.export_file(tmp_path / "motion.gltf")
    names = {n["name"]: i for i, n in enumerate(gp.load(path).json["nodes"])}
    before = {names_of: b.motion for b in gp.read_scene(gp.load(path)).bodies
              for names_of in [gp.load(path).json["nodes"][b.node]["name"]]}
    out = gp.load(tmp_path / "motion.gltf")
    after = {out.json["nodes"][b.node]["name"]: b.motion for b in gp.read_scene(out).bodies}
    assert before.keys() == after.keys() and len(before) == 7 and names
    for name, motion in before.items():
        assert after[name] == motion, name
    assert after["Wheel_InfiniteMassFiniteInertia"].mass == math.inf
    assert after["WobbyToy_ModifiedCOM"].center_of_mass == pytest.approx((0, -0.35, 0), abs=1e-7)


def test_validator_messages_reach_blenders_report(empty: Any, tmp_path: Path, capfd: Any) -> None:
    anchor = body(bpy, "Anchor", (0.2, 0.2, 0.2), (0, 0, 3), kind="PASSIVE")
    arm = body(bpy, "Arm", (0.3, 0.3, 0.3), (1, 0, 3))
    generic = constraint(bpy, "Generic", "GENERIC", anchor, arm, (0, 0, 3))
    generic.rigid_body_constraint.use_limit_lin_x = True
    result = gpb.export_file(tmp_path / "hint.gltf")
    codes = [m.code for m in result.report.messages]
    assert codes  # the validator has something to say about this scene
    printed = capfd.readouterr().out  # Blender prints the operator's report in the background
    assert "glTF physics (khr):" in printed
    for code in codes:
        assert f"{code} " in printed


def test_blenders_gravity_goes_out_and_comes_back(empty: Any, tmp_path: Path) -> None:
    body(bpy, "Crate", (1, 1, 1), (0, 0, 2))
    bpy.context.scene.gravity = (0.0, 0.0, -3.0)  # Blender Z-up: glTF (0, −3, 0)
    gpb.export_file(tmp_path / "moon.gltf")
    scene = gp.read_scene(gp.load(tmp_path / "moon.gltf"))
    assert scene.world_gravity.vector == pytest.approx((0.0, -3.0, 0.0))
    clear(bpy)
    bpy.context.scene.gravity = (0.0, 0.0, -9.81)
    gpb.import_file(tmp_path / "moon.gltf")
    assert tuple(bpy.context.scene.gravity) == pytest.approx((0.0, 0.0, -3.0))


def test_unreadable_physics_imports_the_meshes_and_names_the_pointer(empty: Any, tmp_path: Path,
                                                                     capfd: Any) -> None:
    gltf = {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
            "scene": 0, "scenes": [{"nodes": [0]}],
            "nodes": [{"name": "Lost", "extensions": {"KHR_physics_rigid_bodies": {
                "collider": {"geometry": {"shape": 9}}}}}],  # no shape 9
            "extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}}}
    path = tmp_path / "broken.gltf"
    path.write_text(json.dumps(gltf))
    assert gpb.import_file(path) is None
    assert "Lost" in bpy.data.objects and bpy.data.objects["Lost"].rigid_body is None
    printed = capfd.readouterr().out
    assert ("/nodes/0/extensions/KHR_physics_rigid_bodies/collider/geometry/shape: 'shape' index 9 is outside 0..0; "
            "imported without physics") in printed


def _extents(obj: Any) -> tuple[float, ...]:
    co = np.empty(len(obj.data.vertices) * 3)
    obj.data.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    return tuple((co.max(axis=0) - co.min(axis=0)).tolist())


def test_collision_shapes_have_the_files_sizes(empty: Any) -> None:
    path = fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/ShapeTypes/ShapeTypes.gltf")
    gltf = json.loads(path.read_text())
    shapes = gltf["extensions"]["KHR_implicit_shapes"]["shapes"]
    gpb.import_file(path)
    want = {}  # node name → (Blender shape, extents in Blender's local X, Y, Z: glTF's X, Z, Y)
    for node in gltf["nodes"]:
        geometry = node.get("extensions", {}).get("KHR_physics_rigid_bodies", {}).get("collider", {}).get("geometry")
        if not geometry or "shape" not in geometry:
            continue
        s = shapes[geometry["shape"]]
        p = s[s["type"]]
        if s["type"] == "box":
            want[node["name"]] = ("BOX", (p["size"][0], p["size"][2], p["size"][1]))
        elif s["type"] == "sphere":
            want[node["name"]] = ("SPHERE", (2 * p["radius"],) * 3)
        else:
            r = max(p["radiusBottom"], p["radiusTop"])
            tall = p["height"] + (p["radiusBottom"] + p["radiusTop"] if s["type"] == "capsule" else 0)
            same = p["radiusBottom"] == p["radiusTop"]
            want[node["name"]] = (s["type"].upper() if same else "CONVEX_HULL", (2 * r, 2 * r, tall))
    assert len(want) == 10
    for name, (kind, size) in want.items():
        proxy = next(o for o in bpy.data.objects if o.get("gltf_physics_node") == name)
        assert proxy.rigid_body.collision_shape == kind, name
        assert _extents(proxy) == pytest.approx(size, rel=REL), name
