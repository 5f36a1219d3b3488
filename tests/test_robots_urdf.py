"""URDF robots in (formats/urdf): PyBullet's own robots converted to KHR and OMI, checked against an independent
reading of the URDF (ElementTree) and against MuJoCo's compile of the same URDF; mesh paths kept inside their
roots; the CLI.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from robot_data import (
    close,
    compiled,
    need,
    node_names,
    pybullet_urdf,
    quiet_mujoco,
    rpy_matrix,
    tensor_of,
    urdf_inertia,
    urdf_tree,
)

need("yourdfpy")
need("trimesh")

import gltf_physics as gp  # noqa: E402
from gltf_physics.gltf.errors import GltfError  # noqa: E402

ROBOTS = ["kuka_iiwa/model.urdf", "r2d2.urdf", "quadruped/minitaur.urdf", "franka_panda/panda.urdf"]


def _converted(relative: str, to: str, tmp_path: Path, **options: object) -> tuple[gp.PhysicsScene, list[dict]]:
    """The robot written as .glb and read back, as a user's tool would see it, and the losses."""
    doc, losses = gp.import_to_gltf(pybullet_urdf(relative), to, **options)
    out = tmp_path / f"{Path(relative).stem}.{to}.glb"
    gp.save(doc, out)
    return gp.read_scene(gp.load(out)), losses


def _child(joint: object) -> str:
    return joint.find("child").get("link")  # type: ignore[attr-defined]


def _parent(joint: object) -> str:
    return joint.find("parent").get("link")  # type: ignore[attr-defined]


def _fixed_groups(root: object) -> dict[str, list[str]]:
    """Each body's links from the XML: a link and the links fixed to it (transitively), keyed by the first."""
    joints = root.findall("joint")  # type: ignore[attr-defined]
    parent = {_child(j): _parent(j) for j in joints if j.get("type") == "fixed"}
    groups: dict[str, list[str]] = {}
    for link in root.findall("link"):  # type: ignore[attr-defined]
        owner = link.get("name")
        while owner in parent:
            owner = parent[owner]
        groups.setdefault(owner, []).append(link.get("name"))
    return groups


def _group_mass(root: object, group: list[str]) -> float:
    links = {link.get("name"): link for link in root.findall("link")}  # type: ignore[attr-defined]
    return sum((urdf_inertia(links[n]) or (0.0,))[0] for n in group)


def _expected(path: Path, floating: bool = False) -> dict[str, int]:
    """Counts from the XML: bodies (a link and the links fixed to it are one body; a fixed base without mass is
    static), collisions, joints (floating ones are no constraint; one more fixes a root that has mass), drives
    (effort or damping)."""
    root = urdf_tree(path)
    links = {link.get("name"): link for link in root.findall("link")}
    joints = root.findall("joint")
    groups = _fixed_groups(root)
    base = next(n for n in groups if n not in {_child(j) for j in joints})
    static = not floating and _group_mass(root, groups[base]) == 0.0
    driven = 0
    for j in joints:
        if j.get("type") not in ("revolute", "continuous", "prismatic"):
            continue
        limit, dyn = j.find("limit"), j.find("dynamics")
        effort = float(limit.get("effort", "inf")) if limit is not None else math.inf
        damping = float(dyn.get("damping", 0)) if dyn is not None else 0.0
        driven += effort > 0 and (math.isfinite(effort) or damping > 0)
    constrained = [j for j in joints if j.get("type") not in ("floating", "fixed")]
    return {"bodies": len(groups) - static, "colliders": sum(len(x.findall("collision")) for x in links.values()),
            "joints": len(constrained) + (0 if floating or static else 1), "drives": driven, "links": len(links)}


@pytest.mark.parametrize("to", ["khr", "omi"])
@pytest.mark.parametrize("relative", ROBOTS)
def test_counts_names_and_validity(relative: str, to: str, tmp_path: Path) -> None:
    scene, _ = _converted(relative, to, tmp_path)
    want = _expected(pybullet_urdf(relative))
    moving = [b for b in scene.bodies if b.motion.type != "static"]  # OMI adds a static world side (JOINT-3)
    got = {"bodies": len(moving), "colliders": len(scene.colliders), "joints": len(scene.joints),
           "drives": sum(len(j.drives) for j in scene.joints)}
    assert got == {k: want[k] for k in got}
    names = node_names(scene.document.json)  # type: ignore[union-attr]
    for link in urdf_tree(pybullet_urdf(relative)).findall("link"):
        assert link.get("name") in names  # every link is a node named as in the URDF
    report = gp.validate(gp.load(tmp_path / f"{Path(relative).stem}.{to}.glb"))
    assert [m.code for m in report.messages if m.severity == "error"] == []


@pytest.mark.parametrize("relative", ROBOTS)
def test_mass_and_inertia_equal_the_urdf(relative: str, tmp_path: Path) -> None:
    """Each body weighs what its links weigh (the link and those fixed to it, summed from the XML); where one
    link carries the body's mass, its centre of mass and inertia tensor are that link's."""
    scene, _ = _converted(relative, "khr", tmp_path)
    names = {scene.document.json["nodes"][b.node]["name"]: b for b in scene.bodies}  # type: ignore[union-attr]
    tree = urdf_tree(pybullet_urdf(relative))
    links = {link.get("name"): link for link in tree.findall("link")}
    checked = 0
    for owner, group in _fixed_groups(tree).items():
        body = names.get(owner)
        massive = [n for n in group if (urdf_inertia(links[n]) or (0.0,))[0] > 0]
        if body is None:  # PyBullet's static base: no mass anywhere on it
            assert massive == [] and owner not in {_child(j) for j in tree.findall("joint")}
            continue
        assert close(body.motion.mass, _group_mass(tree, group))  # type: ignore[arg-type]
        if massive == [owner]:
            _, com, tensor = urdf_inertia(links[owner])  # type: ignore[misc]
            m = body.motion
            assert close(m.center_of_mass, com)  # type: ignore[arg-type]
            assert close(tensor_of(m.inertia_diagonal, m.inertia_orientation), tensor)  # type: ignore[arg-type]
            checked += 1
    assert checked >= 5


def test_mass_and_inertia_equal_mujocos_compile_of_the_urdf(tmp_path: Path) -> None:
    """MuJoCo reads the same URDF (fixing its root into the world): masses, centres of mass and inertia tensors
    of every moving link agree within 1e-6 relative."""
    need("mujoco")
    path = pybullet_urdf("kuka_iiwa/model.urdf")
    model = compiled(path)
    scene, _ = _converted("kuka_iiwa/model.urdf", "khr", tmp_path)
    names = {scene.document.json["nodes"][b.node]["name"]: b for b in scene.bodies}  # type: ignore[union-attr]
    for i in range(1, model.nbody):
        m = names[model.body(i).name].motion
        w, x, y, z = model.body_iquat[i]
        assert close(m.mass, model.body_mass[i])  # type: ignore[arg-type]
        assert close(m.center_of_mass, model.body_ipos[i])  # type: ignore[arg-type]
        assert close(tensor_of(m.inertia_diagonal, m.inertia_orientation),  # type: ignore[arg-type]
                     tensor_of(tuple(model.body_inertia[i]), (x, y, z, w)))
    assert model.nbody - 1 == 7


@pytest.mark.parametrize("relative", ["kuka_iiwa/model.urdf", "quadruped/minitaur.urdf"])
def test_joint_limits_equal_the_urdf(relative: str, tmp_path: Path) -> None:
    scene, _ = _converted(relative, "khr", tmp_path)
    nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
    by_name = {}
    for j in scene.joints:  # a joint on a static base is written from its moving side: on its attachment node
        by_name[nodes[j.node]["name"].removesuffix("_attachment") if j.node >= 0 else None] = j
    seen = 0
    for joint in urdf_tree(pybullet_urdf(relative)).findall("joint"):
        limit = joint.find("limit")
        if joint.get("type") not in ("revolute", "prismatic") or limit is None:
            continue
        j = by_name.get(joint.get("name"))
        if j is None:  # the OMI/KHR writer may name it differently only when it made new nodes; ours did not
            pytest.fail(f"joint {joint.get('name')} not found by name")
        kind = "angular_axes" if joint.get("type") == "revolute" else "linear_axes"
        ranged = [lim for lim in j.limits if getattr(lim, kind) == (0,) and lim.min != lim.max]
        if limit.get("lower") is None and limit.get("upper") is None:  # unlimited, as PyBullet and MuJoCo read it
            assert ranged == []
        else:
            assert [(lim.min, lim.max) for lim in ranged] == [(float(limit.get("lower", -math.inf)),
                                                               float(limit.get("upper", math.inf)))]
        effort = float(limit.get("effort", 0))
        if effort > 0:
            assert [d.max_force for d in j.drives] == [effort]
        seen += 1
    assert seen >= 7


def test_frames_put_each_link_where_the_urdf_does(tmp_path: Path) -> None:
    """World pose of every link node (Y-up) turned back to Z-up equals the URDF chain of joint origins."""
    from gltf_physics.formats.robot_scene import Z_UP_TO_Y_UP
    from gltf_physics.gltf.transforms import quat_to_matrix, world_matrices

    path = pybullet_urdf("r2d2.urdf")
    scene, _ = _converted("r2d2.urdf", "khr", tmp_path)
    world = world_matrices(scene.document.json)  # type: ignore[union-attr]
    names = node_names(scene.document.json)  # type: ignore[union-attr]
    turn = np.eye(4)
    turn[:3, :3] = quat_to_matrix(Z_UP_TO_Y_UP).T
    root = urdf_tree(path)
    parent_of = {_child(j): j for j in root.findall("joint")}

    def chain(link: str) -> np.ndarray:
        if link not in parent_of:
            return np.eye(4)
        j = parent_of[link]
        origin = j.find("origin")
        m = np.eye(4)
        m[:3, :3] = rpy_matrix(origin.get("rpy") if origin is not None else None)
        m[:3, 3] = [float(v) for v in ((origin.get("xyz") if origin is not None else None) or "0 0 0").split()]
        return chain(_parent(j)) @ m

    for link in root.findall("link"):
        assert close(turn @ world[names[link.get("name")]], chain(link.get("name")), rel=1e-9)


def test_floating_base_drops_the_world_joint(tmp_path: Path) -> None:
    fixed, _ = _converted("r2d2.urdf", "khr", tmp_path)
    floating, _ = _converted("r2d2.urdf", "khr", tmp_path, floating_base=True)
    assert len(fixed.joints) - len(floating.joints) == 1
    assert len(floating.joints) == _expected(pybullet_urdf("r2d2.urdf"), floating=True)["joints"]


def test_losses_name_what_glTF_cannot_hold() -> None:
    scene = gp.from_urdf(pybullet_urdf("franka_panda/panda.urdf"))
    codes = {n.code for n in scene.notes}
    assert {"URDF-1", "URDF-3", "URDF-9"} <= codes  # velocity limits, the finger mimic joint, fixed links
    mimic = [n for n in scene.notes if n.code == "URDF-3"]
    assert [n.pointer for n in mimic] == ["/robot/joint[@name='panda_finger_joint2']/mimic"]


# -- mesh paths ------------------------------------------------------------------------------------------------
def _robot(folder: Path, mesh: str, name: str = "robot.urdf") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"""<robot name="r"><link name="base"><inertial><mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
      <visual><geometry><mesh filename="{mesh}"/></geometry></visual>
      <collision><geometry><mesh filename="{mesh}"/></geometry></collision></link></robot>""")
    return path


def _stl(path: Path, extents: tuple[float, float, float] = (1.0, 2.0, 3.0)) -> None:
    trimesh = need("trimesh")
    path.parent.mkdir(parents=True, exist_ok=True)
    trimesh.creation.box(extents=extents).export(path)


def test_package_path_resolves_against_the_nearest_folder_of_that_name(tmp_path: Path) -> None:
    _stl(tmp_path / "mypkg" / "meshes" / "part.stl")
    urdf = _robot(tmp_path / "mypkg" / "urdf", "package://mypkg/meshes/part.stl")
    scene = gp.from_urdf(urdf)
    acc = scene.document.json["accessors"][0]  # type: ignore[union-attr]
    assert acc["max"] == [0.5, 1.0, 1.5]  # the box's half extents: that file was read


def test_package_dir_option_and_pybullet_convention(tmp_path: Path) -> None:
    _stl(tmp_path / "elsewhere" / "mypkg" / "part.stl", (2.0, 2.0, 2.0))
    urdf = _robot(tmp_path / "robot", "package://mypkg/part.stl")
    with pytest.raises(GltfError):  # no folder named mypkg above the URDF, none beside it
        gp.from_urdf(urdf)
    scene = gp.from_urdf(urdf, package_dirs=[tmp_path / "elsewhere"])
    assert scene.document.json["accessors"][0]["max"] == [1.0, 1.0, 1.0]  # type: ignore[union-attr]
    _stl(tmp_path / "robot" / "mypkg" / "part.stl", (4.0, 4.0, 4.0))  # PyBullet: package://NAME beside the URDF
    scene = gp.from_urdf(urdf)
    assert scene.document.json["accessors"][0]["max"] == [2.0, 2.0, 2.0]  # type: ignore[union-attr]


@pytest.mark.parametrize("mesh", ["package://x/../../etc/passwd", "/etc/passwd", "../../../../../../etc/passwd",
                                  "file:///etc/passwd"])
def test_paths_outside_the_roots_are_refused_before_any_mesh_is_read(mesh: str, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from gltf_physics.formats.urdf import meshes, read

    _stl(tmp_path / "x" / "ok.stl")
    urdf = tmp_path / "x" / "robot.urdf"
    urdf.write_text(f"""<robot name="r"><link name="base">
      <visual><geometry><mesh filename="ok.stl"/></geometry></visual>
      <collision><geometry><mesh filename="{mesh}"/></geometry></collision></link></robot>""")
    opened: list[Path] = []
    monkeypatch.setattr(read, "load_parts", lambda path, *a: opened.append(path) or meshes.load_parts(path, *a))
    with pytest.raises(GltfError, match="leads outside"):
        gp.from_urdf(urdf)
    assert opened == []  # the good mesh before it was not read either
    if not mesh.startswith("package://"):
        return  # the command line once: the same error, one line, exit 2, nothing written

    out = tmp_path / "out.glb"
    run = subprocess.run([sys.executable, "-m", "gltf_physics", "convert", str(urdf), str(out), "--to", "khr"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1 and "leads outside" in run.stderr
    assert str(urdf) in run.stderr and "Traceback" not in run.stderr
    assert not out.exists()


def test_cli_converts_a_urdf_with_its_report(tmp_path: Path) -> None:
    import json

    out, report = tmp_path / "kuka.gltf", tmp_path / "losses.json"
    run = subprocess.run([sys.executable, "-m", "gltf_physics", "convert", str(pybullet_urdf("kuka_iiwa/model.urdf")),
                          str(out), "--to", "omi", "--report", str(report)], capture_output=True, text=True,
                         cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    losses = json.loads(report.read_text())["losses"]
    # the base of mass 0 is static (PyBullet's static base), never an infinite mass (KRB-11)
    assert sorted({loss["code"] for loss in losses}) == ["JOINT-2", "JOINT-3", "URDF-1", "URDF-11"]
    scene = gp.read_scene(gp.load(out))
    assert "OMI_physics_joint" in scene.generations and len(scene.joints) == 7
    bad = subprocess.run([sys.executable, "-m", "gltf_physics", "convert", str(pybullet_urdf("r2d2.urdf")),
                          str(tmp_path / "r.glb")], capture_output=True, text=True, cwd=tmp_path)
    assert bad.returncode == 2 and "--to khr or --to omi" in bad.stderr


def test_arm_swings_as_mujoco_runs_the_same_urdf() -> None:
    """KUKA iiwa, root fixed, under a tilted gravity (at its zero pose it stands balanced), 0.5 s: every link's
    centre of mass within 1 cm of MuJoCo running the URDF itself, on Rapier and on MuJoCo."""
    mujoco = need("mujoco")
    from gltf_physics.formats.robot_scene import Z_UP_TO_Y_UP
    from gltf_physics.gltf.transforms import quat_to_matrix

    path = pybullet_urdf("kuka_iiwa/model.urdf")
    gravity = np.array([3.0, 2.0, -9.81])
    with quiet_mujoco():
        spec = mujoco.MjSpec.from_file(str(path))
        spec.compiler.fusestatic = False  # every link a body, as in the glTF
        # MuJoCo lets the root's child touch the root (filterparent stops at bodies welded to the world); glTF
        # keeps jointed pairs apart (JOINT-9): the same exclusion on both sides
        spec.add_exclude(bodyname1="lbr_iiwa_link_0", bodyname2="lbr_iiwa_link_1")
        model = spec.compile()
    model.opt.timestep = 0.0025
    model.opt.gravity[:] = gravity
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    ref = [data.xipos[2:].copy()]
    for _ in range(50):
        for _ in range(4):
            mujoco.mj_step(model, data)
        ref.append(data.xipos[2:].copy())
    scene = gp.read_scene(gp.import_to_gltf(path, "khr")[0])
    turn = quat_to_matrix(Z_UP_TO_Y_UP)
    nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
    bodies = {nodes[b.node]["name"]: b for b in scene.bodies}
    order = [bodies[model.body(i).name] for i in range(2, model.nbody)]
    assert float(np.linalg.norm(ref[-1] - ref[0], axis=1).max()) > 0.2  # the arm swings
    for engine in ("rapier", "mujoco"):
        world = gp.World(scene, rate=100, substeps=4, engine=engine, gravity=tuple(turn @ gravity))
        worst = 0.0
        for k in range(51):
            if k:
                world.step()
            for b, want in zip(order, ref[k], strict=True):
                t, q = world.pose(b.node)
                com = turn.T @ (t + quat_to_matrix(q) @ np.asarray(b.motion.center_of_mass))
                worst = max(worst, float(np.linalg.norm(com - want)))
        assert worst < 0.01, engine


def test_mesh_colliders_as_triangles(tmp_path: Path) -> None:
    scene, _ = _converted("r2d2.urdf", "khr", tmp_path, mesh_colliders="triangles")
    kinds = {type(c.shape).__name__ + ("-convex" if getattr(c.shape, "convex", False) else "")
             for c in scene.colliders}
    assert "MeshShape" in kinds and "MeshShape-convex" not in kinds  # r2d2's gripper meshes, as they are
    report = gp.validate(gp.load(tmp_path / "r2d2.khr.glb"))
    assert [m.code for m in report.messages if m.severity == "error"] == []


@pytest.mark.parametrize(("text", "message"), [
    ('<robot name="r"><link name="a"></robot>', "not well-formed XML at line 1, column 34"),
    ('<robot name="r"><link name="a"/><link name="b"/></robot>', "the links form 2 trees, not one (roots: a, b)"),
    ('<robot name="r"><link name="a"><visual><geometry><mesh filename="nope.stl"/></geometry></visual></link></robot>',
     "/robot/link[@name='a']/visual[0]: mesh file not found: nope.stl"),
])
def test_bad_urdf_is_one_line_and_writes_nothing(text: str, message: str, tmp_path: Path) -> None:
    urdf, out = tmp_path / "r.urdf", tmp_path / "o.glb"
    urdf.write_text(text)
    run = subprocess.run([sys.executable, "-m", "gltf_physics", "convert", str(urdf), str(out), "--to", "khr"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert (run.returncode, run.stderr) == (2, f"{urdf}: {message}\n")
    assert not out.exists()


def test_converted_urdf_passes_the_khronos_validator(tmp_path: Path) -> None:
    from test_output_khronos import errors, khronos_report

    _converted("r2d2.urdf", "omi", tmp_path)  # DAE-free, STL meshes, primitives, colours
    report = khronos_report(tmp_path / "r2d2.omi.glb")
    assert errors(report) == [] and report["issues"]["numWarnings"] == 0


RULES = """<robot name="rules">
  <material name="red"><color rgba="1 0 0 1"/></material>
  <link name="base"><inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/></inertial>
    <visual><geometry><box size="1 2 3"/></geometry><material name="red"/></visual>
    <collision><origin xyz="0 0 1" rpy="0 0 0"/><geometry><cylinder radius="0.5" length="2"/></geometry></collision>
  </link>
  <link name="wheel"><inertial><origin xyz="0 0 0" rpy="0 0.5 0"/><mass value="1"/>
    <inertia ixx="0.1" ixy="0.01" ixz="0" iyy="0.2" iyz="0" izz="0.3"/></inertial></link>
  <link name="slider"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <link name="sled"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <link name="drone"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <joint name="spin" type="continuous"><parent link="base"/><child link="wheel"/><axis xyz="0 1 0"/>
    <limit effort="5" velocity="3"/><dynamics damping="0.25" friction="0.1"/></joint>
  <joint name="lift" type="prismatic"><parent link="base"/><child link="slider"/><axis xyz="0 0 1"/>
    <origin xyz="1 0 0"/><limit lower="-0.1" upper="0.3" effort="0"/>
    <mimic joint="spin" multiplier="2"/></joint>
  <joint name="glide" type="planar"><parent link="base"/><child link="sled"/><axis xyz="0 0 1"/></joint>
  <joint name="fly" type="floating"><parent link="base"/><child link="drone"/></joint>
  <transmission name="t1"><type>transmission_interface/SimpleTransmission</type>
    <joint name="spin"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
    <actuator name="m1"><mechanicalReduction>1</mechanicalReduction></actuator></transmission>
</robot>
"""


def test_rules_joint_kinds_drives_shapes_and_losses(tmp_path: Path) -> None:
    from gltf_physics.model import Box, Cylinder

    path = tmp_path / "rules.urdf"
    path.write_text(RULES)
    scene = gp.from_urdf(path)
    nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
    joints = {nodes[j.node]["name"]: j for j in scene.joints}
    assert sorted(joints) == ["glide", "lift", "spin", "world_to_base"]  # floating: no joint; the root fixed
    spin, lift, glide = joints["spin"], joints["lift"], joints["glide"]
    assert [(lim.angular_axes, lim.linear_axes) for lim in spin.limits if lim.min != lim.max] == []  # continuous
    (d,) = spin.drives
    assert (d.type.value, d.axis, d.max_force, d.damping, d.velocity_target, d.stiffness) == (
        "angular", 0, 5.0, 0.25, 0.0, 0.0)
    assert [(lim.linear_axes, lim.min, lim.max) for lim in lift.limits if lim.min != lim.max] == [((0,), -0.1, 0.3)]
    assert lift.drives == ()  # effort 0: no drive
    free = sorted((lim.linear_axes, lim.angular_axes) for lim in glide.limits)
    assert free == [((), (1, 2)), ((0,), ())]  # the normal (frame X) locked linearly, rotation only about it
    # the wheel's tensor, rotated by its inertial rpy, is the diagonal turned by the orientation
    wheel = next(b for b in scene.bodies if nodes[b.node]["name"] == "wheel").motion
    tensor = np.array([[0.1, 0.01, 0], [0.01, 0.2, 0], [0, 0, 0.3]])
    rot = rpy_matrix("0 0.5 0")
    assert close(tensor_of(wheel.inertia_diagonal, wheel.inertia_orientation), rot @ tensor @ rot.T)  # type: ignore[arg-type]
    shapes = sorted(type(c.shape).__name__ for c in scene.colliders)
    assert shapes == ["Cylinder"] and scene.colliders[0].shape == Cylinder(height=2.0, radius_bottom=0.5,
                                                                          radius_top=0.5)
    assert not any(isinstance(c.shape, Box) for c in scene.colliders)  # the box is a visual only
    doc = scene.document.json  # type: ignore[union-attr]
    assert [m["pbrMetallicRoughness"]["baseColorFactor"] for m in doc["materials"]] == [[1.0, 0.0, 0.0, 1.0]]
    codes = sorted((n.code, n.pointer) for n in scene.notes)
    assert codes == [("URDF-1", "/robot/joint[@name='lift']"), ("URDF-1", "/robot/joint[@name='spin']/limit"),
                     ("URDF-2", "/robot/joint[@name='spin']/dynamics"), ("URDF-3", "/robot/joint[@name='lift']/mimic"),
                     ("URDF-4", "/robot/transmission[@name='t1']")]


def test_cli_urdf_to_mjcf_through_the_model(tmp_path: Path) -> None:
    """OUT .xml with --to mjcf: our MJCF writer on the imported model; MuJoCo compiles it with the URDF's masses."""
    mujoco = need("mujoco")
    out = tmp_path / "kuka.xml"
    run = subprocess.run([sys.executable, "-m", "gltf_physics", "convert", str(pybullet_urdf("kuka_iiwa/model.urdf")),
                          str(out), "--to", "mjcf"], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    model = mujoco.MjModel.from_xml_path(str(out))
    masses = sorted(round(float(m), 9) for m in model.body_mass[1:] if m > 0)
    assert masses == [0.3, 1.7, 1.8, 2.7, 3.0, 4.0, 4.0] and model.njnt == 7  # the static base weighs nothing


def test_a_world_link_is_the_world_and_floating_base_lets_go(tmp_path: Path) -> None:
    path = tmp_path / "arm.urdf"
    path.write_text("""<robot name="arm"><link name="world"/>
      <link name="base"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
      </inertial></link>
      <joint name="bolt" type="fixed"><parent link="world"/><child link="base"/><origin xyz="0 0 0.5"/></joint>
      </robot>""")
    fixed, floating = gp.from_urdf(path), gp.from_urdf(path, floating_base=True)
    names = node_names(fixed.document.json)  # type: ignore[union-attr]
    assert "world" not in names and len(fixed.bodies) == 1  # the world link is no node, no body
    assert [fixed.document.json["nodes"][j.node]["name"] for j in fixed.joints] == ["bolt"]  # type: ignore[union-attr]
    assert floating.joints == []
