"""`sweep`: parameter specs, a 200-run projectile sweep against discrete kinematics, and byte-identical
Parquet whatever the worker count.

Rapier 0.36 integrates 4 internal substeps per step (h = dt/4, see test_sim_world): from velocity (vx, vy) and
gravity factor f, after t seconds a free body is at x = x0 + vx·t, y = y0 + vy·t − f·g·(t² + t·h)/2.
"""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from gltf_physics.scale.cluster import open_client
from gltf_physics.scale.specs import SpecError, parse, plan
from gltf_physics.scale.sweep_driver import sweep
from scale_helpers import MOTION, ball, cli, write

G, H = 9.81, 1 / 240
VELOCITY, FACTOR = f"{MOTION}/linearVelocity", f"{MOTION}/gravityFactor"


@pytest.fixture(scope="module")
def client():
    with open_client(workers=2) as c:
        yield c


def test_specs_parse_and_reject():
    assert parse("uniform(0, 5)") == parse("uniform(0,5)")
    assert [s.kind for s in parse("[uniform(0,5), 2, grid(-1, 1, 3)]")] == ["uniform", "const", "grid"]
    assert parse("choice([1,0,0], [0,1,0])").args == ([1, 0, 0], [0, 1, 0])
    assert parse("choice(true, false)").args == (True, False)
    assert parse("-2.5").args == (-2.5,)
    for bad, message in [("uniform(1)", "uniform takes two finite numbers"), ("foo(1,2)", "unknown spec foo()"),
                         ("grid(0,1,0)", "grid(a,b,n) takes two finite numbers and a whole n ≥ 1"),
                         ("uniform(2,1)", "uniform(a,b) needs a ≤ b"), ("normal(0,-1)", "normal(mu,sigma) needs "
                                                                                         "sigma ≥ 0"),
                         ('__import__("os")', "unknown spec __import__()")]:
        with pytest.raises(SpecError) as info:
            parse(bad)
        assert str(info.value) == f"{bad!r}: {message}"


def test_grids_combine_as_a_product_and_draws_depend_on_seed_and_run_only():
    p = plan({"/a": "grid(0,1,2)", "/b": "[grid(10,30,3), uniform(0,1), 7]", "/c": "choice(1,2,3)"}, None)
    assert p.runs == 6  # 2 × 3 grid points, one pass by default
    points = [(p.values(5, r)["/a"], p.values(5, r)["/b"][0]) for r in range(7)]
    assert points == [(0.0, 10.0), (0.0, 20.0), (0.0, 30.0), (1.0, 10.0), (1.0, 20.0), (1.0, 30.0), (0.0, 10.0)]
    assert all(p.values(5, r)["/b"][2] == 7 and p.values(5, r)["/c"] in (1, 2, 3) for r in range(6))
    # a run's values are a function of (seed, run): asking in another order changes nothing
    forward = [p.values(5, r) for r in range(6)]
    assert [p.values(5, r) for r in reversed(range(6))][::-1] == forward
    assert [p.values(6, r) for r in range(6)] != forward


def test_200_projectiles_follow_discrete_kinematics_and_parquet_is_the_same_for_1_and_2_workers(client, tmp_path):
    scene = write(tmp_path / "ball.gltf", ball((1.0, 2.0, 3.0)))
    vary = {VELOCITY: "[uniform(-5,5), uniform(0,5), 0]", FACTOR: "uniform(0,2)"}
    two = sweep(scene, vary, 200, client, duration=1.0, seed=11, out=tmp_path / "two.parquet",
                trajectories=tmp_path / "two_traj.parquet")
    sweep(scene, vary, 200, duration=1.0, seed=11, workers=1, out=tmp_path / "one.parquet",
          trajectories=tmp_path / "one_traj.parquet")
    assert (tmp_path / "two.parquet").read_bytes() == (tmp_path / "one.parquet").read_bytes()
    assert (tmp_path / "two_traj.parquet").read_bytes() == (tmp_path / "one_traj.parquet").read_bytes()
    assert two.column_names == ["run", VELOCITY, FACTOR, "node", "name", "tx", "ty", "tz", "qx", "qy", "qz", "qw",
                                "events"]
    rows = two.to_pylist()
    assert [r["run"] for r in rows] == list(range(200))
    t = 1.0
    for r in rows:
        (vx, vy, vz), f = r[VELOCITY], r[FACTOR]
        assert vz == 0 and -5 <= vx <= 5 and 0 <= vy <= 5 and 0 <= f <= 2
        assert (r["node"], r["name"], r["events"]) == (0, "ball", 0)
        assert r["tx"] == pytest.approx(1.0 + vx * t, abs=1e-3)
        assert r["ty"] == pytest.approx(2.0 + vy * t - f * G * (t * t + t * H) / 2, abs=1e-3)
        assert r["tz"] == pytest.approx(3.0, abs=1e-6)
        assert (r["qx"], r["qy"], r["qz"], r["qw"]) == (0.0, 0.0, 0.0, 1.0)
    traj = pq.read_table(tmp_path / "two_traj.parquet")
    assert traj.column_names == ["run", "time", "node", "name", "tx", "ty", "tz", "qx", "qy", "qz", "qw"]
    assert traj.num_rows == 200 * 61  # t = 0 and after each of 60 steps
    last = traj.filter(pq.ParquetFile(tmp_path / "two_traj.parquet").read().column("time").to_numpy() == 1.0)
    assert last.column("ty").to_pylist() == two.column("ty").to_pylist()


def test_node_transforms_apply_before_the_world_is_built(client, tmp_path):
    scene = write(tmp_path / "ball.gltf", ball((1.0, 2.0, 3.0)))
    table = sweep(scene, {"/nodes/0/translation": "[grid(0,4,3), 10, choice(-1)]", FACTOR: 0}, None, client,
                  duration=0.5)
    assert [(r["run"], r["/nodes/0/translation"], r["tx"], r["ty"], r["tz"]) for r in table.to_pylist()] == [
        (0, [0.0, 10, -1], 0.0, 10.0, -1.0), (1, [2.0, 10, -1], 2.0, 10.0, -1.0), (2, [4.0, 10, -1], 4.0, 10.0, -1.0)]


def test_sweep_cli_writes_runs_and_rejects_bad_specs(tmp_path):
    scene = write(tmp_path / "ball.gltf", ball())
    out = str(tmp_path / "r.parquet")
    bad = cli("sweep", str(scene), "--vary", f"{MOTION}/linearVelocty=uniform(0,1)", "--out", out)
    assert bad.returncode == 2
    assert bad.stderr == (f"{scene}: {MOTION}/linearVelocty: 'linearVelocty' is not settable at runtime "
                          "(settable: linearVelocity, angularVelocity, gravityFactor, mass)\n")
    bad = cli("sweep", str(scene), "--vary", f"{FACTOR}=unifrm(0,1)", "--out", str(tmp_path / "r.parquet"))
    assert (bad.returncode, bad.stderr) == (2, f"{scene}: 'unifrm(0,1)': unknown spec unifrm()\n")
    assert not (tmp_path / "r.parquet").exists()
    good = cli("sweep", str(scene), "--vary", f"{FACTOR}=grid(0,2,3)", "--duration", "0.5", "--workers", "1",
               "--out", str(tmp_path / "r.jsonl"))
    assert good.returncode == 0, good.stderr
    assert good.stdout == f"3 rows (3 runs) written to {tmp_path / 'r.jsonl'}\n"
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 3
