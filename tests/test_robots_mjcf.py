"""MuJoCo MJCF in (formats/mjcf/read*): dm_control's suite models converted to KHR and OMI and checked against
MuJoCo's own compiled model (counts, names, masses, inertias, ranges, gains), the round trip through our MJCF
writer, a hand-written model for each mapping rule, and passive runs against MuJoCo on the original.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from robot_data import close, compiled, need, node_names, quiet_mujoco, suite_xml, tensor_of

mujoco = need("mujoco")

import gltf_physics as gp  # noqa: E402
from gltf_physics.gltf.errors import GltfError  # noqa: E402

SUITE = ["cartpole", "acrobot", "pendulum", "humanoid", "cheetah", "walker"]
FREE, BALL, SLIDE, HINGE = 0, 1, 2, 3


def _converted(name: str, to: str, tmp_path: Path) -> gp.PhysicsScene:
    doc, _ = gp.import_to_gltf(suite_xml(name), to)
    out = tmp_path / f"{name}.{to}.glb"
    gp.save(doc, out)
    return gp.read_scene(gp.load(out))


def _expected(model: object) -> dict[str, int]:
    """Counts from the compiled model: moving bodies, colliding geoms, one joint per jointed or welded body,
    degrees of freedom (hinge/slide 1, ball 3), drives (joints with an actuator, damping or spring)."""
    m = model
    moving = [i for i in range(1, m.nbody) if m.body_weldid[i] != 0]  # type: ignore[attr-defined]
    jointed = [i for i in moving if not any(m.jnt_type[j] == FREE for j in range(  # type: ignore[attr-defined]
        m.body_jntadr[i], m.body_jntadr[i] + m.body_jntnum[i]))]  # type: ignore[attr-defined]
    dofs = sum(1 if t in (SLIDE, HINGE) else 3 if t == BALL else 0 for t in m.jnt_type)  # type: ignore[attr-defined]
    actuated = {int(m.actuator_trnid[a][0]) for a in range(m.nu)}  # type: ignore[attr-defined]
    driven = [j for j in range(m.njnt) if m.jnt_type[j] in (SLIDE, HINGE) and (  # type: ignore[attr-defined]
        j in actuated or m.dof_damping[m.jnt_dofadr[j]] > 0 or m.jnt_stiffness[j] > 0)]  # type: ignore[attr-defined]
    colliding = [g for g in range(m.ngeom) if m.geom_contype[g] or m.geom_conaffinity[g]]  # type: ignore[attr-defined]
    return {"bodies": len(moving), "colliders": len(colliding), "joints": len(jointed), "dofs": dofs,
            "drives": len(driven)}


def _free_dofs(joint: object) -> int:
    """Axes a joint leaves free: 6 minus the axes locked at min = max."""
    locked = sum(len(lim.linear_axes) + len(lim.angular_axes) for lim in joint.limits  # type: ignore[attr-defined]
                 if lim.min == lim.max)
    return 6 - locked


@pytest.mark.parametrize("to", ["khr", "omi"])
@pytest.mark.parametrize("name", SUITE)
def test_counts_names_and_validity(name: str, to: str, tmp_path: Path) -> None:
    model = compiled(suite_xml(name))
    scene = _converted(name, to, tmp_path)
    moving = [b for b in scene.bodies if b.motion.type != "static"]  # OMI adds a static world side (JOINT-3)
    got = {"bodies": len(moving), "colliders": len(scene.colliders), "joints": len(scene.joints),
           "dofs": sum(_free_dofs(j) for j in scene.joints), "drives": sum(len(j.drives) for j in scene.joints)}
    assert got == _expected(model)
    names = node_names(scene.document.json)  # type: ignore[union-attr]
    assert all(model.body(i).name in names for i in range(model.nbody))
    report = gp.validate(gp.load(tmp_path / f"{name}.{to}.glb"))
    assert [m.code for m in report.messages if m.severity == "error"] == []


@pytest.mark.parametrize("name", SUITE)
def test_masses_and_inertias_equal_mujocos(name: str, tmp_path: Path) -> None:
    model = compiled(suite_xml(name))
    scene = _converted(name, "khr", tmp_path)
    nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
    by_name = {nodes[b.node]["name"]: b.motion for b in scene.bodies}
    for i in range(1, model.nbody):
        m = by_name[model.body(i).name]
        w, x, y, z = model.body_iquat[i]
        assert close(m.mass, model.body_mass[i])  # type: ignore[arg-type]
        assert close(m.center_of_mass, model.body_ipos[i])  # type: ignore[arg-type]
        assert close(m.inertia_diagonal, model.body_inertia[i])  # type: ignore[arg-type]
        assert close(tensor_of(m.inertia_diagonal, m.inertia_orientation),  # type: ignore[arg-type]
                     tensor_of(tuple(model.body_inertia[i]), (x, y, z, w)))


def _ranges(scene: gp.PhysicsScene) -> list[tuple[float, float]]:
    return sorted((lim.min, lim.max) for j in scene.joints for lim in j.limits
                  if len(lim.linear_axes) + len(lim.angular_axes) == 1 and lim.min != lim.max)


def _signless(pairs: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Each range as (lo, hi) or (−hi, −lo), whichever is smaller: a frame axis may point against the joint's."""
    return sorted(min((lo, hi), (-hi, -lo)) for lo, hi in pairs)


@pytest.mark.parametrize("name", ["cheetah", "humanoid", "cartpole"])
def test_joint_ranges_equal_mujocos(name: str, tmp_path: Path) -> None:
    model = compiled(suite_xml(name))
    scene = _converted(name, "khr", tmp_path)
    want = [tuple(float(v) for v in model.jnt_range[j]) for j in range(model.njnt)
            if model.jnt_limited[j] and model.jnt_type[j] in (SLIDE, HINGE)]
    assert len(want) >= 1
    assert np.allclose(_signless(_ranges(scene)), _signless(want), rtol=0, atol=1e-12)  # type: ignore[arg-type]


# -- round trip through our MJCF writer ------------------------------------------------------------------------
def _gains(model: object, original: bool) -> list[tuple[float, float, float]]:
    """Per driven joint: (stiffness, damping, force limit) acting on the joint coordinate."""
    m = model
    out = []
    for j in range(m.njnt):  # type: ignore[attr-defined]
        if m.jnt_type[j] not in (SLIDE, HINGE):  # type: ignore[attr-defined]
            continue
        kp = float(m.jnt_stiffness[j]) if original else 0.0  # type: ignore[attr-defined]
        kv = float(m.dof_damping[m.jnt_dofadr[j]]) if original else 0.0  # type: ignore[attr-defined]
        limit, acted = math.inf, False
        for a in range(m.nu):  # type: ignore[attr-defined]
            if int(m.actuator_trnid[a][0]) != j:  # type: ignore[attr-defined]
                continue
            acted = True
            gear, gain, bias = m.actuator_gear[a][0], m.actuator_gainprm[a], m.actuator_biasprm[a]  # type: ignore[attr-defined]
            if m.actuator_biastype[a] == 1:  # type: ignore[attr-defined]
                kp += -bias[1] * gear * gear
                kv += -bias[2] * gear * gear
            if m.actuator_forcelimited[a]:  # type: ignore[attr-defined]
                limit = min(limit, abs(gear) * float(np.abs(m.actuator_forcerange[a]).max()))  # type: ignore[attr-defined]
            if m.actuator_biastype[a] == 0 and m.actuator_ctrllimited[a]:  # type: ignore[attr-defined]
                limit = min(limit, abs(gear * gain[0]) * float(np.abs(m.actuator_ctrlrange[a]).max()))  # type: ignore[attr-defined]
        if acted or kp or kv:
            out.append((round(kp, 9), round(kv, 9), limit))
    return sorted(out)


@pytest.mark.parametrize("name", ["cheetah", "cartpole", "humanoid"])
def test_round_trip_through_our_mjcf_writer(name: str, tmp_path: Path) -> None:
    from gltf_physics.formats.mjcf.write import to_mjcf

    original = compiled(suite_xml(name))
    back = mujoco.MjModel.from_xml_string(to_mjcf(_converted(name, "khr", tmp_path)).xml)
    names = [back.body(i).name for i in range(back.nbody)]
    for i in range(1, original.nbody):
        k = next(n for n, b in enumerate(names) if b.rsplit("_", 1)[0] == original.body(i).name)
        assert close(back.body_mass[k], original.body_mass[i])
        assert close(back.body_inertia[k], original.body_inertia[i])
    limited = [tuple(float(v) for v in back.jnt_range[j]) for j in range(back.njnt) if back.jnt_limited[j]]
    want = [tuple(float(v) for v in original.jnt_range[j]) for j in range(original.njnt) if original.jnt_limited[j]]
    assert np.allclose(_signless(limited), _signless(want), rtol=0, atol=1e-9)  # type: ignore[arg-type]
    assert _gains(back, original=False) == _gains(original, original=True)


# -- every mapping rule on one small hand-written model -----------------------------------------------------
RULES = """<mujoco model="rules">
  <compiler angle="radian"/>
  <option gravity="0 0 -3"/>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 .1"/>
    <body name="base" pos="0 0 1">
      <joint name="slide_x" type="slide" axis="1 0 0" range="-0.5 0.25" damping="2"/>
      <geom name="base_box" type="box" size=".1 .2 .3" mass="2" friction="0.9"/>
      <body name="arm" pos="0 0 .5">
        <joint name="hinge_y" type="hinge" axis="0 -1 0" range="-1 0.5" stiffness="7" springref="0.25"/>
        <geom name="arm_capsule" type="capsule" fromto="0 0 0 0 0 .4" size=".05" mass="1" contype="2" conaffinity="2"/>
        <body name="hand" pos="0 0 .4">
          <joint name="wrist" type="ball" range="0 0.7"/>
          <geom name="hand_sphere" type="sphere" size=".06" mass=".5"/>
          <site name="tip"/>
        </body>
      </body>
    </body>
    <body name="free_box" pos="1 0 1">
      <freejoint/>
      <geom name="free_geom" type="box" size=".1 .1 .1" mass="1"/>
    </body>
  </worldbody>
  <contact><exclude body1="base" body2="free_box"/></contact>
  <actuator>
    <position name="servo" joint="slide_x" kp="50" kv="3" forcerange="-20 20"/>
    <velocity name="spin" joint="hinge_y" kv="4" gear="2"/>
  </actuator>
  <sensor><jointpos joint="hinge_y"/></sensor>
  <keyframe><key name="start" qpos="0.1 0.2 1 0 0 0 0 1 1 1 0 0 0" ctrl="0.2 0.5"/></keyframe>
</mujoco>
"""


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    path = tmp_path / "rules.xml"
    path.write_text(RULES)
    return path


def _joint(scene: gp.PhysicsScene, name: str) -> object:
    nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
    return next(j for j in scene.joints if nodes[j.node]["name"] == name)


def test_rules_drives_from_actuators_springs_and_keyframe(rules: Path) -> None:
    scene = gp.from_mjcf(rules, keyframe="start")
    (servo,) = _joint(scene, "slide_x").drives  # type: ignore[attr-defined]
    # position kp 50 kv 3 + joint damping 2; target ctrl 0.2 minus the start qpos 0.1; force range 20
    assert (servo.type.value, servo.axis, servo.stiffness, servo.damping) == ("linear", 0, 50.0, 5.0)
    assert servo.position_target == pytest.approx(0.1, abs=1e-15) and servo.velocity_target == 0.0
    assert servo.max_force == 20.0
    (spin,) = _joint(scene, "hinge_y").drives  # type: ignore[attr-defined]
    # velocity kv 4 gear 2: damping 16, target 0.5 / 2; spring 7 about 0.25, less the start 0.2 (frame X is the
    # joint's own axis, −Y: no sign change)
    assert (spin.stiffness, spin.damping) == (7.0, 16.0)
    assert spin.position_target == pytest.approx(0.25 - 0.2) and spin.velocity_target == pytest.approx(0.25)


def test_rules_limits_ball_free_filters_gravity_and_losses(rules: Path) -> None:
    scene = gp.from_mjcf(rules)
    hinge = _joint(scene, "hinge_y")
    ranged = [(lim.angular_axes, lim.min, lim.max) for lim in hinge.limits if lim.min != lim.max]  # type: ignore[attr-defined]
    assert ranged == [((0,), -1.0, 0.5)]  # about frame X, which is the joint's axis (−Y)
    ball = _joint(scene, "wrist")
    assert [(lim.angular_axes, lim.max) for lim in ball.limits if lim.angular_axes] == [((0, 1, 2), 0.7)]  # type: ignore[attr-defined]
    nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
    assert all(nodes[j.connected_node]["name"] != "free_box_attachment" for j in scene.joints)  # free: no joint
    assert len(scene.joints) == 3
    # contype 2 (the arm) touches only itself-type geoms; base and free_box are excluded from each other
    by_geom = {nodes[c.node]["name"]: scene.filters[c.filter] for c in scene.colliders}  # type: ignore[index]
    arm, base, box, floor = by_geom["arm_capsule"], by_geom["base_box"], by_geom["free_geom"], by_geom["floor"]

    def collide(a: object, b: object) -> bool:  # the recommended rule, both ways (D-7)
        def one(x: object, y: object) -> bool:
            return not y.collide_with_systems or bool(set(x.collision_systems) & set(y.collide_with_systems))  # type: ignore[attr-defined]
        return one(a, b) and one(b, a)

    assert (collide(arm, floor), collide(arm, base), collide(base, box), collide(box, floor)) == (
        False, False, False, True)
    assert scene.world_gravity is not None and scene.world_gravity.vector == pytest.approx((0.0, -3.0, 0.0))
    assert scene.materials[scene.colliders[1].material].dynamic_friction == 0.9  # type: ignore[index]
    codes = sorted({n.code for n in scene.notes})
    assert codes == ["MJCF-IN-4", "MJCF-IN-7", "MJCF-IN-8", "MJCF-IN-9"]  # the site, the sensor, the options
    # the slide's own damping now shares the servo's force limit
    assert [n.pointer for n in scene.notes if n.code == "MJCF-IN-4"] == ["//actuator/*[@name='servo']"]


def test_rules_body_pose_at_the_keyframe(rules: Path) -> None:
    from gltf_physics.gltf.transforms import world_matrices

    scene = gp.from_mjcf(rules, keyframe="start")
    world = world_matrices(scene.document.json)  # type: ignore[union-attr]
    names = node_names(scene.document.json)  # type: ignore[union-attr]
    # slide_x at 0.1: the base moves +0.1 in x (Y-up: x stays x); the free box sits at (0, 1, 1) → (0, 1, -1)
    assert world[names["base"]][:3, 3] == pytest.approx((0.1, 1.0, 0.0))
    assert world[names["free_box"]][:3, 3] == pytest.approx((0.0, 1.0, -1.0))
    with pytest.raises(GltfError, match="no keyframe 'nope'"):
        gp.from_mjcf(rules, keyframe="nope")


def test_a_file_mujoco_cannot_compile_is_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    bad = tmp_path / "bad.xml"
    bad.write_text("<mujoco><worldbody><body><joint type='hinge'/></body></worldbody></mujoco>")
    run = subprocess.run([sys.executable, "-m", "gltf_physics", "convert", str(bad), str(tmp_path / "o.glb"), "--to",
                          "khr"], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert run.stderr.startswith(f"{bad}: MuJoCo cannot compile it") and not (tmp_path / "o.glb").exists()


# -- behaviour: passive runs against MuJoCo on the original ---------------------------------------------------
def _tilted(model: object, tilt: float) -> np.ndarray:
    """qpos0 with every hinge turned by ``tilt`` (inside its range): at the reference pose nothing moves."""
    qpos = np.array(model.qpos0)  # type: ignore[attr-defined]
    for j in range(model.njnt):  # type: ignore[attr-defined]
        if model.jnt_type[j] == HINGE:  # type: ignore[attr-defined]
            qpos[model.jnt_qposadr[j]] += tilt  # type: ignore[attr-defined]
    return qpos


def _com_paths(name: str, duration: float, every: float, substeps: int = 4, timestep: float | None = None,
               servo_kp: float | None = None, targets: list[float] | None = None) -> dict[str, np.ndarray]:
    """Centres of mass (T, B, 3), Z-up, of MuJoCo on the original and of gltf-physics on Rapier and on MuJoCo.

    ``servo_kp``: the file's motors become position servos (kp, kv 1) holding ``targets`` from a keyframe, which
    also holds the tilted start."""
    from gltf_physics.dialects import write_scene
    from gltf_physics.formats.mjcf.read_model import read_model
    from gltf_physics.formats.robot_scene import Z_UP_TO_Y_UP
    from gltf_physics.gltf.transforms import quat_to_matrix

    model = compiled(suite_xml(name))
    qpos = _tilted(model, 0.3)
    if servo_kp is not None:
        with quiet_mujoco():
            spec = mujoco.MjSpec.from_file(str(suite_xml(name)))
            for actuator in spec.actuators:
                actuator.set_to_position(kp=servo_kp, kv=1.0)
            spec.add_key(name="hold", qpos=list(qpos), ctrl=list(targets or []))
            model = spec.compile()
    imported = read_model(model, name, qpos=qpos) if servo_kp is None else read_model(model, name, keyframe=0)
    scene = gp.read_scene(write_scene(imported, imported.document, "khr")[0])
    if timestep is not None:
        model.opt.timestep = timestep
    data = mujoco.MjData(model)
    data.qpos[:] = qpos
    if servo_kp is not None:
        mujoco.mj_resetDataKeyframe(model, data, 0)
    mujoco.mj_forward(model, data)
    per = round(every / model.opt.timestep)
    steps = round(duration / every)
    ref = [data.xipos[1:].copy()]
    for _ in range(steps):
        for _ in range(per):
            mujoco.mj_step(model, data)
        ref.append(data.xipos[1:].copy())
    out = {"reference": np.asarray(ref), "qpos": data.qpos.copy()}
    back = quat_to_matrix(Z_UP_TO_Y_UP).T
    nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
    bodies = {nodes[b.node]["name"]: b for b in scene.bodies}
    order = [bodies[model.body(i).name] for i in range(1, model.nbody)]
    for engine in ("rapier", "mujoco"):
        world = gp.World(scene, rate=1 / every, substeps=substeps, engine=engine)
        path = []
        for k in range(steps + 1):
            if k:
                world.step()
            row = []
            for b in order:
                t, q = world.pose(b.node)
                row.append(back @ (t + quat_to_matrix(q) @ np.asarray(b.motion.center_of_mass)))
            path.append(row)
        out[engine] = np.asarray(path)
    return out


def _max_error(paths: dict[str, np.ndarray], engine: str, until: int | None = None) -> float:
    return float(np.linalg.norm(paths[engine][:until] - paths["reference"][:until], axis=2).max())


def test_pendulum_swings_as_in_mujoco() -> None:
    """A damped pendulum started 0.3 rad from upright, 2 s: within 1 cm of MuJoCo run at a fine step (the
    file's own 0.02 s Euler step is itself 4 cm off that)."""
    paths = _com_paths("pendulum", 2.0, 0.01, timestep=0.0025)
    assert float(np.linalg.norm(paths["reference"][-1] - paths["reference"][0], axis=1).max()) > 0.5  # it fell
    assert _max_error(paths, "rapier") < 0.01
    assert _max_error(paths, "mujoco") < 0.01


def test_chains_agree_with_mujoco_on_the_original() -> None:
    """Cart-pole (2 s) and the double pendulum acrobot (chaotic: 0.5 s tight, 2 s loose), started tilted."""
    cart = _com_paths("cartpole", 2.0, 0.01)
    assert _max_error(cart, "rapier") < 0.005 and _max_error(cart, "mujoco") < 0.005
    acro = _com_paths("acrobot", 2.0, 0.01)
    assert _max_error(acro, "rapier", 51) < 0.002 and _max_error(acro, "mujoco", 51) < 0.002
    assert _max_error(acro, "rapier") < 0.05 and _max_error(acro, "mujoco") < 0.05


def test_compiler_warnings_go_to_the_loss_report_not_a_log_file(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.xml"
    path.write_text('<mujoco><compiler settotalmass="2"/><worldbody><body name="b"><freejoint/>'
                    '<geom size=".1"/></body></worldbody></mujoco>')
    monkeypatch.chdir(tmp_path)
    scene = gp.from_mjcf(path)
    warned = [n.message for n in scene.notes if n.message.startswith("MuJoCo's compiler warned")]
    assert len(warned) == 1 and "settotalmass" in warned[0]
    assert not (tmp_path / "MUJOCO_LOG.TXT").exists()
    assert scene.bodies[0].motion.mass == pytest.approx(2.0)  # what MuJoCo compiled


def test_position_servos_hold_their_keyframe_targets_as_in_mujoco() -> None:
    """The pendulum's and the acrobot's motors turned into position servos (kp 40 / 20, kv 1) holding targets from
    a keyframe, from the tilted start: within 1 cm of MuJoCo on the original over 2 s for the pendulum (at a fine
    step), over 1 s for the acrobot (its free shoulder falls: chaotic after that)."""
    pendulum = _com_paths("pendulum", 2.0, 0.01, timestep=0.0025, servo_kp=40.0, targets=[0.5])
    acrobot = _com_paths("acrobot", 2.0, 0.01, servo_kp=20.0, targets=[0.6])
    # the inverted pendulum settles where kp·(θ − 0.5) = m·g·l·sin θ (1 kg at 0.5 m): θ ≈ 0.565
    assert float(pendulum["qpos"][0]) == pytest.approx(0.565, abs=0.01)
    for engine in ("rapier", "mujoco"):
        assert _max_error(pendulum, engine) < 0.01, engine
        assert _max_error(acrobot, engine, 101) < 0.01, engine


@pytest.mark.parametrize("name", ["humanoid", "cheetah"])
def test_every_geom_sits_where_mujoco_puts_it(name: str) -> None:
    """World pose of each geom's node (turned back to Z-up) equals MuJoCo's geom_xpos / geom_xmat at qpos0; round
    shapes and planes carry a +90° turn about X (glTF's +Y is MuJoCo's +Z)."""
    from gltf_physics.formats.robot_scene import Y_TO_Z, Z_UP_TO_Y_UP
    from gltf_physics.gltf.transforms import quat_to_matrix, world_matrices

    model = compiled(suite_xml(name))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    scene = gp.from_mjcf(suite_xml(name))
    world = world_matrices(scene.document.json)  # type: ignore[union-attr]
    names = node_names(scene.document.json)  # type: ignore[union-attr]
    back = quat_to_matrix(Z_UP_TO_Y_UP).T
    bodies = {model.body(i).name for i in range(model.nbody)}
    for g in range(model.ngeom):
        geom = model.geom(g).name
        node = world[names[geom + "_geom" if geom in bodies else geom]]  # cheetah's torso geom is named torso too
        local = quat_to_matrix(Y_TO_Z) if model.geom_type[g] in (0, 3, 5) else np.eye(3)  # plane, capsule, cylinder
        assert np.allclose(back @ node[:3, 3], data.geom_xpos[g], rtol=0, atol=1e-12)
        assert np.allclose(back @ node[:3, :3], data.geom_xmat[g].reshape(3, 3) @ local, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["humanoid", "cartpole"])
def test_converted_robots_pass_the_khronos_validator(name: str, tmp_path: Path) -> None:
    from test_output_khronos import errors, khronos_report

    _converted(name, "khr", tmp_path)
    report = khronos_report(tmp_path / f"{name}.khr.glb")
    assert errors(report) == [] and report["issues"]["numWarnings"] == 0


def test_mesh_geoms_use_the_compiled_vertices_as_convex_colliders(tmp_path: Path) -> None:
    """A mesh asset given by its vertices: MuJoCo compiles it (recentred, its hull's faces); the glTF mesh holds
    those vertices and faces, drawn and used as a convex collider, placed by the compiled geom pose."""
    path = tmp_path / "mesh.xml"
    path.write_text("""<mujoco><asset><mesh name="wedge" vertex="0 0 0  1 0 0  0 1 0  0 0 1  1 1 0  1 0 1"/></asset>
      <worldbody><body name="b" pos="0 0 1"><freejoint/><geom name="w" type="mesh" mesh="wedge" rgba="1 0 0 1"/>
      </body></worldbody></mujoco>""")
    model = compiled(path)
    scene = gp.from_mjcf(path)
    doc = scene.document.json  # type: ignore[union-attr]
    (collider,) = scene.colliders
    assert collider.shape.convex and doc["nodes"][collider.node]["mesh"] == collider.shape.mesh  # type: ignore[union-attr]
    prim = doc["meshes"][collider.shape.mesh]["primitives"][0]  # type: ignore[union-attr]
    positions = doc["accessors"][prim["attributes"]["POSITION"]]
    assert positions["count"] == model.mesh_vertnum[0]
    assert np.allclose(positions["min"], model.mesh_vert.min(axis=0), atol=1e-6)
    assert doc["accessors"][prim["indices"]]["count"] == 3 * model.mesh_facenum[0]
    assert doc["materials"][prim["material"]]["pbrMetallicRoughness"]["baseColorFactor"] == [1.0, 0.0, 0.0, 1.0]


def test_connect_and_weld_equalities_become_ball_and_fixed_joints(tmp_path: Path) -> None:
    """A connect's anchor (in body1's frame) is where both joint frames start; a weld locks all six axes."""
    from gltf_physics.gltf.transforms import world_matrices

    path = tmp_path / "eq.xml"
    path.write_text("""<mujoco><worldbody>
      <body name="a" pos="0 0 1"><freejoint/><geom size=".1" mass="1"/></body>
      <body name="b" pos="1 0 1"><freejoint/><geom size=".1" mass="1"/></body>
      <body name="c" pos="2 0 1"><freejoint/><geom size=".1" mass="1"/></body></worldbody>
      <equality><connect name="pin" body1="a" body2="b" anchor="0.5 0 0"/><weld name="glue" body1="c" body2="b"/>
      </equality></mujoco>""")
    scene = gp.from_mjcf(path)
    doc = scene.document.json  # type: ignore[union-attr]
    world = world_matrices(doc)
    joints = {doc["nodes"][j.node]["name"]: j for j in scene.joints}
    pin, glue = joints["pin"], joints["glue"]
    # both frames of the pin at the anchor: 0.5 m along x from a, i.e. (0.5, 0, 1) → Y-up (0.5, 1, 0)
    assert world[pin.node][:3, 3] == pytest.approx((0.5, 1.0, 0.0))
    assert world[pin.connected_node][:3, 3] == pytest.approx((0.5, 1.0, 0.0))  # type: ignore[index]
    assert [lim.linear_axes for lim in pin.limits] == [(0, 1, 2)]  # free rotation
    assert sorted((lim.linear_axes, lim.angular_axes) for lim in glue.limits) == [((), (0, 1, 2)), ((0, 1, 2), ())]
    assert [n.code for n in scene.notes if n.code == "MJCF-IN-5"] == ["MJCF-IN-5"]  # the weld's start-pose note
