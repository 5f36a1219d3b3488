"""Driving a robot by joint name (sim/robot_control.py, World.set_targets / set_gains / joint_positions /
joint_velocities) on both engines, checked against MuJoCo's own joint state; the stand-up tutorial run as written
with the heights it states."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gltf_physics as gp
from conftest import ROOT
from gltf_physics.gltf.transforms import quat_multiply
from gltf_physics.sim import robot_control
from gltf_physics.sim.errors import SimulationError
from robot_data import need, pybullet_urdf

ARM = """<mujoco><option gravity="0 0 0"/><worldbody>
  <body name="upper" pos="0 0 1"><joint name="shoulder" type="hinge" axis="0 1 0" damping="4"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
    <body name="lower" pos="0.5 0 0"><joint name="elbow" type="hinge" axis="0 1 0" damping="1"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.04"/></body></body></worldbody>
  <actuator><position name="s" joint="shoulder" kp="60"/><position name="e" joint="elbow" kp="20"/></actuator>
</mujoco>"""
# The shoulder hangs from the world: written from its moving side (on its attachment node), so the MJCF the MuJoCo
# engine compiles turns it the other way; joint_positions keeps the source's sense.
SENSE = np.array([-1.0, 1.0])


@pytest.fixture(scope="module")
def arm(tmp_path_factory: pytest.TempPathFactory) -> gp.PhysicsScene:
    need("mujoco")
    path = tmp_path_factory.mktemp("arm") / "arm.xml"
    path.write_text(ARM)
    doc, _ = gp.import_to_gltf(path, "khr")
    return gp.read_scene(doc)


@pytest.mark.parametrize("engine", ["rapier", "mujoco"])
def test_position_targets_by_name_are_reached_on_both_engines(arm: gp.PhysicsScene, engine: str) -> None:
    world = gp.World(arm, rate=240, engine=engine)
    assert world.joint_positions() == pytest.approx({"shoulder": 0.0, "elbow": 0.0}, abs=1e-12)
    world.set_targets({"shoulder": 0.5, "elbow": -0.8})
    world.run(4.0)
    q = world.joint_positions()
    assert abs(q["shoulder"] - 0.5) < 0.01 and abs(q["elbow"] + 0.8) < 0.01
    assert max(abs(v) for v in world.joint_velocities().values()) < 0.05  # settled
    if engine == "mujoco":  # the positions read from the joint frames are MuJoCo's own joint coordinates
        data = world.engine.data  # type: ignore[attr-defined]
        assert np.allclose([q["shoulder"], q["elbow"]], data.qpos[:2] * SENSE, atol=1e-6)


def test_velocities_from_the_bodies_equal_mujocos_qvel(arm: gp.PhysicsScene) -> None:
    """The bodies' velocities carried to the joint (Engine.point_velocity) give MuJoCo's qvel; the rate over the
    last step (what joint_velocities returns after a step) agrees to the motion's change over one step."""
    world = gp.World(arm, rate=240, engine="mujoco")
    world.set_targets({"shoulder": 1.0, "elbow": -1.0})
    for _ in range(30):
        world.step()
    coords = robot_control.coordinates(arm)
    data = world.engine.data  # type: ignore[attr-defined]
    instant = [robot_control.velocity(arm, world.engine, coords[n]) for n in ("shoulder", "elbow")]
    assert np.allclose(instant, data.qvel[:2] * SENSE, rtol=1e-6, atol=1e-9)
    assert min(abs(v) for v in instant) > 0.3  # it moves
    rates = world.joint_velocities()
    assert np.allclose([rates["shoulder"], rates["elbow"]], data.qvel[:2] * SENSE, rtol=0.05)


def test_bad_names_and_values_change_nothing(arm: gp.PhysicsScene) -> None:
    world = gp.World(arm, rate=240)
    with pytest.raises(SimulationError, match=r"no joint named 'wrist'.*joints: elbow, shoulder"):
        world.set_targets({"shoulder": 0.5, "wrist": 1.0})
    with pytest.raises(SimulationError, match="target nan is not a finite number"):
        world.set_targets({"shoulder": math.nan})
    world.run(0.5)
    assert world.joint_positions() == pytest.approx({"shoulder": 0.0, "elbow": 0.0}, abs=1e-12)  # nor the good one
    with pytest.raises(SimulationError, match="only drive targets can change on MuJoCo"):
        gp.World(arm, rate=240, engine="mujoco").set_gains({"shoulder": (10.0, 1.0)})


def test_a_joint_on_a_static_base_keeps_the_urdfs_sense(tmp_path: Path) -> None:
    """KUKA iiwa's first joint hangs from its static base, written from its moving side (on its attachment node):
    found by its URDF name, and a target of +0.5 rad turns link 1 by +0.5 rad about the URDF's +z (glTF +y)."""
    need("yourdfpy")
    doc, _ = gp.import_to_gltf(pybullet_urdf("kuka_iiwa/model.urdf"), "khr")
    out = tmp_path / "kuka.glb"
    gp.save(doc, out)
    scene = gp.read_scene(gp.load(out))
    world = gp.World(scene, rate=240, gravity=(0.0, 0.0, 0.0))
    link = next(i for i, n in enumerate(scene.document.json["nodes"]) if n.get("name") == "lbr_iiwa_link_1")  # type: ignore[union-attr]
    x0, y0, z0, w0 = world.pose(link)[1]  # the Z-up robot turned Y-up
    assert sorted(world.joint_positions()) == [f"lbr_iiwa_joint_{k}" for k in range(1, 8)]
    world.set_gains({"lbr_iiwa_joint_1": (500.0, 40.0)})
    world.set_targets({"lbr_iiwa_joint_1": 0.5})
    world.run(3.0)
    assert abs(world.joint_positions()["lbr_iiwa_joint_1"] - 0.5) < 0.01
    x, y, z, w = quat_multiply((-x0, -y0, -z0, w0), tuple(world.pose(link)[1]))  # the turn since t = 0, link axes
    assert abs(2 * math.atan2(z, w) - 0.5) < 0.01 and abs(x) < 1e-3 and abs(y) < 1e-3  # about the URDF's +z


def test_the_stand_up_tutorial_raises_the_trunk_to_the_height_it_states(tmp_path: Path) -> None:
    """docs/tutorials/robot-control.md run as written: the trunk lies under 0.1 m after falling limp, and the PD
    loop stands it up to the page's "about 0.29 m" (within 2 cm)."""
    need("yourdfpy")
    need("pybullet_data")
    from test_docs_tutorials import _env, steps

    page = ROOT / "docs" / "tutorials" / "robot-control.md"
    stated = re.search(r"about ([\d.]+) m lying and ([\d.]+) m standing", page.read_text(encoding="utf-8"))
    assert stated is not None
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    prelude = f'gltf-physics() {{ "{sys.executable}" -m gltf_physics "$@"; }}\n'
    printed = ""
    for i, (kind, text) in enumerate(steps(page)):
        if kind == "console":
            args = ["bash", "-c", prelude + text]
        else:
            (tmp_path / f"step_{i}.py").write_text(text, encoding="utf-8")
            args = [sys.executable, str(tmp_path / f"step_{i}.py")]
        done = subprocess.run(args, cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        printed += done.stdout
    got = re.search(r"trunk height: ([\d.]+) m lying, ([\d.]+) m standing", printed)
    assert got is not None, printed
    lying, standing = float(got[1]), float(got[2])
    assert lying < 0.1
    assert abs(lying - float(stated[1])) < 0.02 and abs(standing - float(stated[2])) < 0.02
