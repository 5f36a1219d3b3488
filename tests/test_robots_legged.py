"""Legged robots against MuJoCo on the original (bench/legged.py; the table in docs/robots.md): the goal is the
root body within 2 cm + 25 % of how far MuJoCo moved it over the first 0.3 s of a passive fall onto the floor.

Met (measured, distance / allowed, m): on Rapier's default (multibody) path the ant 0.026 / 0.050, the
half-cheetah 0.038 / 0.064, the hopper 0.089 / 0.100, the walker 0.030 / 0.091, the humanoid 0.013 / 0.101;
on impulse joints 0.020, 0.036, 0.089, 0.030, 0.013; MuJoCo running the glTF 0.023, 0.012, 0.083, 0.026, 0.014.
Not met, so not asserted here: the Laikago quadruped URDF, 0.273 (Rapier), 0.195 (impulse joints), 0.172
(MuJoCo on the glTF) against 0.092 allowed. MuJoCo collides the convex hull of its chassis's V-HACD
decomposition, which holds the four upper legs' hulls 5.2–8.3 cm deep at the start; how an engine pushes such
an overlap out decides the run (MuJoCo against itself with those four pairs excluded: 0.135 m apart at 0.3 s).
With the four pairs kept apart on both sides (``laikago-apart``) the goal is met: 0.029, 0.019, 0.027 against
0.069 allowed. Without any self-collision all three engines are within 4 mm of MuJoCo over 0.3 s.

Also: every body of dm_control's suite models is a node of the converted glTF under its MuJoCo name, and every
body that moves is a body of the trace under that name (bodies welded to the world are static nodes, which the
trace, a record of moving bodies, leaves out).
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from robot_data import need, quiet_mujoco

mujoco = need("mujoco")
need("dm_control")
need("pybullet_data")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import gltf_physics as gp  # noqa: E402
import legged  # noqa: E402

MET = {"rapier": ("ant", "half-cheetah", "hopper", "walker", "humanoid", "laikago-apart"),
       "rapier-impulse": ("ant", "half-cheetah", "hopper", "walker", "humanoid", "laikago-apart"),
       "mujoco": ("ant", "half-cheetah", "hopper", "walker", "humanoid", "laikago-apart")}


@cache
def _case(name: str) -> legged.Case:
    with quiet_mujoco():
        return legged.case(name)


@cache
def _moved(name: str) -> tuple[float, np.ndarray]:
    ref = legged.reference(_case(name), legged.SHORT)
    return float(np.linalg.norm(ref - ref[0], axis=1).max()), ref


@pytest.mark.parametrize(("engine", "name"), [(e, n) for e, names in MET.items() for n in names])
def test_legged_models_meet_the_goal_over_the_first_0_3_s(engine: str, name: str) -> None:
    moved, ref = _moved(name)
    assert moved > 0.1  # it fell and moved: the goal is not met by standing still
    got = legged.converted(_case(name), legged.SHORT, engine)
    assert float(np.linalg.norm(got - ref, axis=1).max()) <= legged.goal(moved)


def _suite_models() -> list[str]:
    folder = Path(need("dm_control").__file__).parent / "suite"
    return sorted(p.stem for p in folder.glob("*.xml"))


@pytest.mark.parametrize("name", _suite_models())
def test_every_body_is_found_by_its_mujoco_name(name: str) -> None:
    folder = Path(need("dm_control").__file__).parent / "suite"
    with quiet_mujoco():
        model = mujoco.MjModel.from_xml_path(str(folder / f"{name}.xml"))
        scene = gp.from_mjcf(folder / f"{name}.xml")
    nodes = [n.get("name") for n in scene.document.json["nodes"]]  # type: ignore[union-attr]
    named = [model.body(i).name for i in range(model.nbody) if model.body(i).name]
    assert [b for b in named if b not in nodes] == []
    world = gp.World(scene, rate=100, record=True)
    moving = [model.body(i).name for i in range(1, model.nbody) if model.body(i).name and model.body_weldid[i]]
    traced = set(world.recording.names)  # type: ignore[union-attr]
    assert [b for b in moving if b not in traced] == []
