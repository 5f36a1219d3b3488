"""`compare` (sim/compare.py, cli/compare.py): one asset on Rapier and MuJoCo.

A falling sphere, a pendulum and a block on a slope each differ by at most 2 cm between the engines; the
command prints a row per body and the verdict line, ``--json`` the same numbers.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gltf_physics.cli import app
from gltf_physics.model import Body, Box, Collider, Motion
from gltf_physics.sim import SimulationError
from gltf_physics.sim.compare import compare
from mujoco_scenes import falling_sphere, make, pendulum, save_khr, slope

SCENES = {"falling sphere": falling_sphere, "pendulum": pendulum, "slope": lambda: slope(0.7)}


@pytest.mark.parametrize("name", list(SCENES))
def test_engines_agree_within_two_centimetres(name):
    result = compare(SCENES[name](), ("rapier", "mujoco"), duration=2.0)
    assert result.agree and result.verdict.startswith("agree: rapier, mujoco within 2 cm / 5° over 2 s")
    assert len(result.bodies) == 1
    body = result.bodies[0]
    assert body.engine == "mujoco"
    assert body.max_position <= 0.02 and body.final_position <= body.max_position
    assert body.max_angle <= 5.0


def test_a_sliding_block_is_measured_not_hidden():
    # μ = 0.45 < tan 30°: analytically 2.164 m in 2 s; MuJoCo slides 2.163 m, Rapier 2.181 m (its friction
    # is a little weaker while sliding): compare reports that 2.2 cm at the end of the run, not at the start.
    b = compare(slope(0.45), duration=2.0).bodies[0]
    assert 0.01 < b.final_position == b.max_position < 0.03
    assert b.max_position_time == 2.0


def test_verdict_names_the_worst_body_when_engines_differ():
    result = compare(falling_sphere(), duration=2.0, position_tolerance=1e-9, angle_tolerance=1e-9)
    assert not result.agree
    assert result.verdict.startswith("differ: node 1 'ball' on mujoco is ")


def test_compare_needs_two_engines():
    with pytest.raises(SimulationError, match="two or more different engines"):
        compare(falling_sphere(), ("rapier",))


def test_cli_prints_rows_and_verdict_and_json(tmp_path):
    src = save_khr(pendulum(), tmp_path / "pendulum.gltf")
    runner = CliRunner()
    res = runner.invoke(app, ["compare", str(src), "--duration", "2"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[-1] == "verdict: agree: rapier, mujoco within 2 cm / 5° over 2 s"
    row = next(line.split() for line in lines if line.split()[:3] == ["0", "bob", "mujoco"])
    assert float(row[4]) <= 0.02  # max Δpos (m)
    res = runner.invoke(app, ["compare", str(src), "--duration", "2", "--json"])
    data = json.loads(res.output)
    assert data["agree"] is True and data["engines"] == ["rapier", "mujoco"]
    assert [(b["node"], b["name"]) for b in data["bodies"]] == [(0, "bob")]
    assert data["bodies"][0]["maxPosition"] <= 0.02


def test_cli_missing_extra_is_one_line(tmp_path, monkeypatch):
    import gltf_physics.sim.mujoco.world as mw

    monkeypatch.setattr(mw, "mujoco", None)
    src = save_khr(pendulum(), tmp_path / "pendulum.gltf")
    res = CliRunner().invoke(app, ["compare", str(src)])
    assert res.exit_code == 2
    assert res.output == f"{src}: MuJoCo is not installed: pip install 'gltf-physics[mujoco]'\n"
    res = CliRunner().invoke(app, ["simulate", str(src), "--engine", "mujoco"])
    assert res.exit_code == 2
    assert res.output == f"{src}: MuJoCo is not installed: pip install 'gltf-physics[mujoco]'\n"


def test_simulate_engine_mujoco_writes_the_same_trace_contract(tmp_path):
    src = save_khr(falling_sphere(), tmp_path / "ball.gltf")
    runner = CliRunner()
    for engine in ("rapier", "mujoco"):
        res = runner.invoke(app, ["simulate", str(src), "--engine", engine, "--duration", "0.5",
                                  "--trace", str(tmp_path / f"{engine}.csv")])
        assert res.exit_code == 0, res.output
    rapier = (tmp_path / "rapier.csv").read_text(encoding="utf-8").splitlines()
    mujoco = (tmp_path / "mujoco.csv").read_text(encoding="utf-8").splitlines()
    assert mujoco[0] == rapier[0] == "time,node,name,tx,ty,tz,qx,qy,qz,qw"
    assert len(mujoco) == len(rapier) == 1 + 31
    assert [r.split(",")[:3] for r in mujoco] == [r.split(",")[:3] for r in rapier]
    # free fall for 0.5 s from 2 m: both engines' y agree to the float32 print
    assert float(mujoco[-1].split(",")[4]) == pytest.approx(float(rapier[-1].split(",")[4]), abs=1e-5)
    res = runner.invoke(app, ["simulate", str(src), "--engine", "bullet"])
    assert res.exit_code == 2 and "--engine bullet: expected rapier or mujoco" in res.output


def test_initial_velocities_map_to_the_same_motion():
    # A rotated box with an offset centre of mass, launched moving and tumbling in zero gravity: node-space
    # velocities (D-9) become MuJoCo's free-joint qvel (origin velocity in the world, spin in the body frame).
    q = [0.2, 0.3, 0.1, 0.927]
    n = sum(c * c for c in q) ** 0.5
    motion = Motion(linear_velocity=(1.0, 0.5, 0.0), angular_velocity=(0.3, 2.0, 0.1), center_of_mass=(0.2, 0.0, 0.1))
    scene = make([{"translation": [1, 2, 3], "rotation": [c / n for c in q]}], [Body(0, motion)],
                 [Collider(0, Box((1.0, 0.5, 0.3)), body=0)])
    b = compare(scene, duration=2.0, gravity=(0.0, 0.0, 0.0)).bodies[0]
    assert b.max_position < 0.005 and b.max_angle < 0.5


def test_cli_exits_0_when_the_listed_losses_explain_every_difference(tmp_path):
    # The example's Ball (restitution 0.8, combined by maximum) bounces on Rapier; MuJoCo has no restitution
    # coefficient (MJCF-2), so its ball lands dead: 0.76 m apart at the first bounce's top. BoxB tumbles onto the
    # ground, whose material has a static friction MuJoCo cannot take (MJCF-2): 0.25 m / 67° apart. Each is
    # touched by a listed loss (its own material's, the ground's it lands on): explained, exit 0.
    from conftest import ROOT

    example = ROOT / "examples" / "tumbling_boxes.gltf"
    res = CliRunner().invoke(app, ["compare", str(example)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == (
        "verdict: differ where the listed losses explain it: 2 of 4 bodies past 2 cm / 5° over 2 s, each touched "
        "by a loss (MJCF-2 restitution; MJCF-2 static friction); the farthest: node 3 'Ball' on mujoco is "
        "0.7626 m / 0° from rapier")
    res = CliRunner().invoke(app, ["compare", str(example), "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert (data["agree"], data["explained"]) == (False, True)
    losses = {b["node"]: [(x["code"], x["pointer"].rsplit("/", 1)[1], x["message"].split(":")[0]) for x in b["losses"]]
              for b in data["bodies"]}
    ground = [("MJCF-2", "0", "restitution"), ("MJCF-2", "0", "static friction")]
    assert losses == {1: ground, 2: ground, 3: [("MJCF-2", "1", "restitution"), *ground], 7: []}  # Bob: 2 m up


def test_cli_exits_1_when_a_body_differs_that_no_listed_loss_touches(tmp_path):
    # Bob swings on its pin 2 m above the ground, touching nothing: its 0.04° between the engines is no loss's
    # doing, so past a 0.01° tolerance the verdict names it and the gate fails.
    from conftest import ROOT

    example = ROOT / "examples" / "tumbling_boxes.gltf"
    res = CliRunner().invoke(app, ["compare", str(example), "--angle-tolerance", "0.01"])
    assert res.exit_code == 1, res.output
    assert res.output.splitlines()[-1] == (
        "verdict: differ: node 7 'Bob' on mujoco is 3.677e-06 m / 0.043° from rapier (tolerance 2 cm / 0.01° "
        "over 2 s), and no listed loss touches it")
