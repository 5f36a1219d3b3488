"""Robots that behave: every robot of the test packages converts, validates with --strict and runs 5 s on both
joint paths with finite state; tiny multibody links stay finite (sim/rapier/armature.py); URDF masses equal
MuJoCo's compile of the same file (formats/urdf/inertia.py: fixed links merged, a massless fixed base static).

The robots run at 60 Hz for 5 s each. dm_control's ``dog`` and ``humanoid_CMU`` (the two largest suite models,
about 10 s of this file's time between them) are left out of the 5 s runs to keep the file near 30 s on one
core; PyBullet's ``humanoid.urdf`` (a ``<capsule>`` geometry, which is not URDF), ``biped2d_pybullet.urdf`` (the
number ``-1.57.``), ``husky.urdf`` (xacro ``$(optenv …)``), ``bike.urdf`` and ``diff_ring.urdf`` are not readable
URDF and are refused with one line (the CLI tests check that form).
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from robot_data import close, need, pybullet_urdf, quiet_mujoco, suite_xml, tensor_of

need("yourdfpy")
need("trimesh")

import gltf_physics as gp  # noqa: E402
from gltf_physics.sim.errors import SimulationError  # noqa: E402

URDFS = ["kuka_iiwa/model.urdf", "kuka_iiwa/model_free_base.urdf", "r2d2.urdf", "quadruped/minitaur.urdf",
         "quadruped/quadruped.urdf", "quadruped/vision60.urdf", "quadruped/spirit40.urdf", "laikago/laikago.urdf",
         "laikago/laikago_toes.urdf", "a1/a1.urdf", "aliengo/aliengo.urdf", "mini_cheetah/mini_cheetah.urdf",
         "franka_panda/panda.urdf", "xarm/xarm6_robot.urdf", "racecar/racecar.urdf", "cartpole.urdf",
         "pendulum5.urdf", "pr2_gripper.urdf", "TwoJointRobot_w_fixedJoints.urdf"]
SUITE = ["acrobot", "ball_in_cup", "cartpole", "cheetah", "finger", "fish", "hopper", "humanoid", "lqr",
         "manipulator", "pendulum", "point_mass", "quadruped", "reacher", "stacker", "swimmer", "walker"]
# The URDFs above MuJoCo compiles (laikago has a massless moving link MuJoCo refuses; panda and xarm name their
# meshes by package:// paths MuJoCo does not resolve; TwoJointRobot and mini_cheetah break A + B >= C). Compared
# fixed only: pendulum5 and cartpole (a free joint would put more than 6 dofs on one body), kuka (a massless base
# cannot float).
FIXED_ONLY = ("cartpole.urdf", "pendulum5.urdf", "kuka_iiwa/model.urdf")
MUJOCO = ["kuka_iiwa/model.urdf", "kuka_iiwa/model_free_base.urdf", "r2d2.urdf", "quadruped/minitaur.urdf",
          "quadruped/quadruped.urdf", "quadruped/vision60.urdf", "quadruped/spirit40.urdf", "a1/a1.urdf",
          "aliengo/aliengo.urdf", "racecar/racecar.urdf", "cartpole.urdf", "pendulum5.urdf", "pr2_gripper.urdf"]


@cache
def _glb(source: str, floating: bool, folder: str) -> Path:
    """The robot converted to KHR and saved as .glb (once per session)."""
    path = pybullet_urdf(source) if source.endswith(".urdf") else suite_xml(source)
    options = {"floating_base": True} if floating else {}
    doc, _ = gp.import_to_gltf(path, "khr", **options)
    out = Path(folder) / f"{source.replace('/', '_')}{'.free' if floating else ''}.glb"
    gp.save(doc, out)
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("robots"))


def _finite_run(scene: gp.PhysicsScene, articulations: bool) -> gp.World:
    world = gp.World(scene, rate=60, articulations=articulations)
    world.run(5.0)
    _, translations, rotations = world.poses()
    assert world.step_count == 300
    assert np.isfinite(translations).all() and np.isfinite(rotations).all()
    return world


@pytest.mark.parametrize("source", URDFS + SUITE)
def test_every_robot_validates_strict_and_runs_5s_on_both_joint_paths(source: str, folder: str) -> None:
    if not source.endswith(".urdf"):
        need("mujoco")
    out = _glb(source, False, folder)
    report = gp.validate(gp.load(out))
    assert [(m.code, m.pointer) for m in report.messages if m.severity in ("error", "warning")] == []
    scene = gp.read_scene(gp.load(out))
    for articulations in (True, False):
        _finite_run(scene, articulations)


def test_a_static_base_passes_validate_strict_on_the_cli(tmp_path: Path) -> None:
    """KUKA iiwa's base has mass 0 (PyBullet's static base): written static, not KHR mass 0 (KRB-11)."""
    out = tmp_path / "kuka.glb"
    run = [sys.executable, "-m", "gltf_physics"]
    assert subprocess.run([*run, "convert", str(pybullet_urdf("kuka_iiwa/model.urdf")), str(out), "--to", "khr"],
                          capture_output=True, cwd=tmp_path).returncode == 0
    check = subprocess.run([*run, "validate", "--strict", str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "0 errors, 0 warnings" in check.stdout


# -- masses against MuJoCo's compile of the same URDF ---------------------------------------------------------------
def _mujoco(path: Path, floating: bool) -> object:
    mujoco = need("mujoco")
    with quiet_mujoco():
        spec = mujoco.MjSpec.from_file(str(path))
        if floating:
            spec.worldbody.first_body().add_freejoint()
        return spec.compile()


@pytest.mark.parametrize("source", MUJOCO)
def test_masses_equal_mujocos_compile_of_the_urdf(source: str, folder: str) -> None:
    """Fixed base: every body MuJoCo keeps (its fusestatic merges fixed links; a base welded to the world is
    the world's) has our body's mass; with a free base (where MuJoCo takes one) the two sets of bodies are the
    same, with equal masses, centres of mass and inertia tensors, to 1e-6 relative."""
    path = pybullet_urdf(source)
    for floating in (False, True):
        if floating and source in FIXED_ONLY:
            continue
        model = _mujoco(path, floating)
        scene = gp.read_scene(gp.load(_glb(source, floating, folder)))
        nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
        ours = {nodes[b.node]["name"]: b.motion for b in scene.bodies if b.motion.type != "static"}
        theirs = {model.body(i).name: i for i in range(1, model.nbody)}  # type: ignore[attr-defined]
        assert set(theirs) <= set(ours)
        if floating:
            assert set(theirs) == set(ours)
        for name, i in theirs.items():
            m = ours[name]
            assert close(m.mass, model.body_mass[i]), name  # type: ignore[attr-defined, arg-type]
            if floating:
                w, x, y, z = model.body_iquat[i]  # type: ignore[attr-defined]
                assert close(m.center_of_mass, model.body_ipos[i]), name  # type: ignore[attr-defined, arg-type]
                assert close(tensor_of(m.inertia_diagonal, m.inertia_orientation),  # type: ignore[arg-type]
                             tensor_of(tuple(model.body_inertia[i]), (x, y, z, w))), name  # type: ignore[attr-defined]
        if floating:
            total = sum(float(model.body_mass[i]) for i in theirs.values())  # type: ignore[attr-defined]
            assert close(sum(m.mass for m in ours.values()), total)  # type: ignore[misc]


def test_a_massless_base_takes_the_mass_of_the_link_fixed_to_it(tmp_path: Path) -> None:
    """The URDF spec: a link without <inertial> has no mass; a fixed child carrying the robot's mass makes the
    body's mass (ANYmal's base / base_inertia layout), its centre of mass where that child puts it."""
    path = tmp_path / "base.urdf"
    path.write_text("""<robot name="r"><link name="base">
      <collision><geometry><box size="1 1 1"/></geometry></collision></link>
      <link name="base_inertia"><inertial><origin xyz="0.1 0 0"/><mass value="5"/>
        <inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/></inertial></link>
      <link name="battery"><inertial><origin xyz="0 0 -0.2"/><mass value="3"/>
        <inertia ixx="0.5" ixy="0" ixz="0" iyy="0.5" iyz="0" izz="0.5"/></inertial></link>
      <joint name="j1" type="fixed"><parent link="base"/><child link="base_inertia"/><origin xyz="0 0.2 0"/></joint>
      <joint name="j2" type="fixed"><parent link="base"/><child link="battery"/></joint></robot>""")
    scene = gp.from_urdf(path, floating_base=True)
    (body,) = scene.bodies
    assert body.motion.mass == 8.0  # not 1000 kg/m³ × 1 m³ from its collider
    assert close(body.motion.center_of_mass, np.array([5 * 0.1, 5 * 0.2, 3 * -0.2]) / 8)  # type: ignore[arg-type]
    # parallel axis: the two parts' offsets from the common centre
    c = np.array([0.0625, 0.125, -0.075])
    want = np.diag([1.0, 2.0, 3.0]) + np.diag([0.5, 0.5, 0.5])
    for m, p in ((5, np.array([0.1, 0.2, 0.0])), (3, np.array([0.0, 0.0, -0.2]))):
        d = p - c
        want += m * (d @ d * np.eye(3) - np.outer(d, d))
    assert close(tensor_of(body.motion.inertia_diagonal, body.motion.inertia_orientation), want)  # type: ignore[arg-type]
    assert {n.code for n in scene.notes} == {"URDF-9"}


# -- tiny links -------------------------------------------------------------------------------------------------------
def _inertial(mass: float, inertia: float) -> str:
    return (f'<inertial><mass value="{mass}"/><inertia ixx="{inertia}" ixy="0" ixz="0" iyy="{inertia}" iyz="0" '
            f'izz="{inertia}"/></inertial>')


def _revolute(name: str, parent: str, child: str, xyz: str, axis: str) -> str:
    return (f'<joint name="{name}" type="revolute"><parent link="{parent}"/><child link="{child}"/>'
            f'<origin xyz="{xyz}"/><axis xyz="{axis}"/><limit lower="-2" upper="2" effort="80" velocity="10"/>'
            '<dynamics damping="0.5"/></joint>')


def _quadruped(ratio: float) -> str:
    """A 10 kg trunk on a floor, four legs: thigh (2 kg), a mount ``ratio`` times lighter between two coaxial
    knee joints, shank (1 kg), and a sensor of 0.001 kg, 1e-6 kg·m² on a joint of its own."""
    parts = ['<robot name="q"><link name="world"/>',
             f'<link name="ground">{_inertial(1.0, 1.0)}<collision><origin xyz="0 0 -0.5"/>'
             '<geometry><box size="20 20 1"/></geometry></collision></link>',
             '<joint name="bolt" type="fixed"><parent link="world"/><child link="ground"/></joint>',
             '<joint name="free" type="floating"><parent link="world"/><child link="trunk"/><origin xyz="0 0 0.65"/>'
             '</joint>',
             f'<link name="trunk">{_inertial(10.0, 0.1)}<collision><geometry><box size="0.6 0.3 0.1"/></geometry>'
             '</collision></link>']
    for k, (x, y) in enumerate([(0.3, 0.15), (0.3, -0.15), (-0.3, 0.15), (-0.3, -0.15)]):
        parts += [f'<link name="thigh{k}">{_inertial(2.0, 1e-2)}<collision><origin xyz="0 0 -0.15"/>'
                  '<geometry><box size="0.05 0.05 0.3"/></geometry></collision></link>',
                  _revolute(f"hip{k}", "trunk", f"thigh{k}", f"{x} {y} 0", "0 1 0"),
                  f'<link name="mount{k}">{_inertial(2.0 / ratio, 1e-2 / ratio)}</link>',
                  _revolute(f"mount{k}_joint", f"thigh{k}", f"mount{k}", "0 0 -0.3", "0 1 0"),
                  f'<link name="shank{k}">{_inertial(1.0, 5e-3)}<collision><origin xyz="0 0 -0.15"/>'
                  '<geometry><sphere radius="0.03"/></geometry></collision></link>',
                  _revolute(f"knee{k}", f"mount{k}", f"shank{k}", "0 0 0", "0 1 0"),
                  f'<link name="sensor{k}">{_inertial(1e-3, 1e-6)}</link>',
                  _revolute(f"sensor{k}_joint", f"shank{k}", f"sensor{k}", "0 0 -0.3", "1 0 0")]
    return "\n".join([*parts, "</robot>"])


def _armed(world: gp.World) -> set[str]:
    """The joints the run's notes name (their URDF names)."""
    return {line.split("@name='")[1].split("'")[0] for line in world.notes()}


@pytest.mark.parametrize("ratio", [1e3, 1e6, 1e8])
def test_tiny_links_stay_finite_on_both_joint_paths(ratio: float, tmp_path: Path) -> None:
    path = tmp_path / "q.urdf"
    path.write_text(_quadruped(ratio))
    scene = gp.from_urdf(path)
    world = _finite_run(scene, True)
    sensors = {f"sensor{k}_joint" for k in range(4)}  # 1e-6 kg·m² under a trunk of 0.1: below 1e-4 of it
    mounts = {f"{name}{k}{tail}" for k in range(4) for name, tail in (("mount", "_joint"), ("knee", ""))}
    assert _armed(world) == (sensors if ratio < 1e4 else sensors | mounts)
    assert _finite_run(scene, False).notes() == []  # impulse joints need none


def test_without_armature_the_coaxial_tiny_link_goes_non_finite(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The cause: two coaxial joints separated by a link of 1e-8 of the tree's inertia make Rapier's f32
    generalized mass matrix singular; with no armature (FLOOR 0) the run fails, naming a node."""
    from gltf_physics.sim.rapier import armature

    path = tmp_path / "q.urdf"
    path.write_text(_quadruped(1e8))
    monkeypatch.setattr(armature, "FLOOR", 0.0)
    with pytest.raises(SimulationError, match="non-finite"):
        gp.World(gp.from_urdf(path), rate=60).run(5.0)


def test_simulate_prints_the_armature_notes(tmp_path: Path) -> None:
    path, out = tmp_path / "q.urdf", tmp_path / "q.glb"
    path.write_text(_quadruped(1e8))
    run = [sys.executable, "-m", "gltf_physics"]
    assert subprocess.run([*run, "convert", str(path), str(out), "--to", "khr"], capture_output=True,
                          cwd=tmp_path).returncode == 0
    done = subprocess.run([*run, "simulate", str(out), "--duration", "0.5"], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stdout.splitlines() if " note joint " in line]
    assert len(notes) == 12 and all(line.startswith(f"{out}: note joint /nodes/") for line in notes)
    assert "armature 1e-05 kg·m² on its coordinates" in notes[0]


@pytest.mark.parametrize("name", [*(n for n in SUITE if n != "lqr"), "dog", "humanoid_CMU"])
def test_suite_masses_equal_mujocos_compile(name: str, folder: str) -> None:
    """Every moving body of dm_control's suite weighs what MuJoCo compiles, to 1e-6 relative (a body welded to
    the world is static here; ``lqr.xml`` is a template whose bodies dm_control generates: it has none)."""
    from robot_data import compiled

    model = compiled(suite_xml(name))
    scene = gp.read_scene(gp.load(_glb(name, False, folder)))
    nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
    ours = {nodes[b.node]["name"]: b.motion.mass for b in scene.bodies}
    weighed = [i for i in range(1, model.nbody) if model.body_weldid[i] != 0]  # type: ignore[attr-defined]
    assert weighed
    for i in weighed:
        assert close(ours[model.body(i).name], model.body_mass[i]), model.body(i).name  # type: ignore[attr-defined, arg-type]


A1_KNEE = (-2.69653369433, -0.916297857297)  # a1.urdf's *_lower_joint range; its zero pose is 0.92 rad above it


@pytest.mark.parametrize("articulations", [True, False], ids=["multibody", "impulse"])
def test_a1_from_its_file_pose_ends_with_its_knees_inside_their_range(articulations: bool) -> None:
    """PyBullet's A1 starts (every joint at 0, as the URDF reader places it) with its knees 0.92 rad outside
    their range; floating and without a floor it falls for 5 s. Both joint paths bring the knees into the range
    without a kick (the trunk falls as a free body: 1.4 mm in the first 1/60 s step; before, Rapier's multibody
    limit turned the knees 0.92 rad in that step and threw the trunk 16 mm) and stay finite. The multibody path
    starts the knees at their bound and says so in ``World.notes()``; impulse joints push them in at 3 rad/s."""
    scene = gp.from_urdf(pybullet_urdf("a1/a1.urdf"), floating_base=True)
    world = gp.World(scene, rate=60, articulations=articulations)
    names = [n.get("name") for n in scene.document.json["nodes"]]  # type: ignore[union-attr]
    trunk = next(b.node for b in scene.bodies if names[b.node] == "trunk")
    knees = [f"{leg}_lower_joint" for leg in ("FR", "FL", "RR", "RL")]
    lo, hi = A1_KNEE
    at_start = [world.joint_positions()[k] for k in knees]
    assert at_start == pytest.approx([hi] * 4 if articulations else [0.0] * 4, abs=1e-5)
    notes = world.notes()
    assert [n.split(":")[0] for n in notes] == ([f"joint /robot/joint[@name='{k}']" for k in knees]
                                                 if articulations else [])
    assert all("starts 0.916 rad outside its range" in n for n in notes)
    y0 = world.pose(trunk)[0][1]
    world.step()
    assert abs(world.pose(trunk)[0][1] - y0) < 0.003
    for _ in range(299):
        world.step()
    ends = [world.joint_positions()[k] for k in knees]
    assert all(lo - 1e-3 <= q <= hi + 1e-3 for q in ends), ends
