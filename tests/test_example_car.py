"""The shipped vehicle example (examples/car.gltf, written by tools/make_car_example.py) and driving on
`view --ground`'s ground.

The car: 1000 kg, rear-wheel drive 2 × 2000 N (a = 4 m/s²), top speed 20 m/s, on a 2,600 m ground (top y = 0).
Full throttle for 60 s: 5 s to reach 20 m/s (50 m), then 55 s × 20 m/s = 1,100 m: 1,150 m along +Z, less the
suspension's and tyres' slip; resting on its springs the chassis origin stays at radius + 0.3 − sag ≈ 0.53 m.
"""

from __future__ import annotations

import csv
import runpy
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, fixture_path
from gltf_physics.api import load, read_scene
from gltf_physics.cli import main
from gltf_physics.sim import World
from gltf_physics.view.ground import add_ground

CAR = ROOT / "examples" / "car.gltf"
THROTTLE = "/nodes/0/extensions/OMI_vehicle_body/linearActivation"
SIMPLE_CAR = "OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf"


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


def test_the_generator_writes_the_shipped_file_byte_for_byte(tmp_path: Path, capsys) -> None:
    out = tmp_path / "car.gltf"
    generator = runpy.run_path(str(ROOT / "tools" / "make_car_example.py"))
    assert generator["main"]([str(out)]) == 0  # no losses: every part has its extension
    assert out.read_bytes() == CAR.read_bytes()
    assert len(CAR.read_bytes()) < 4096  # a few KB


def test_the_car_validates_strictly(capsys) -> None:
    code, out, _ = cli(capsys, "validate", CAR, "--strict")
    assert (code, out) == (0, f"{CAR}: valid (0 errors, 0 warnings, 0 infos, 0 hints)\n")


def test_a_minute_at_full_throttle_stays_on_the_ground(capsys, tmp_path: Path) -> None:
    trace = tmp_path / "car.csv"
    code, _, err = cli(capsys, "simulate", CAR, "--duration", "60", "--set", f"{THROTTLE}=[0,0,1]",
                       "--trace", trace, "--trace-every", "60")
    assert (code, err) == (0, "")
    rows = list(csv.DictReader(trace.open()))
    assert len(rows) == 61  # one a second
    z = np.array([float(r["tz"]) for r in rows])
    y = np.array([float(r["ty"]) for r in rows[1:]])
    assert z[-1] == pytest.approx(1150.0, rel=0.01)
    assert z[-1] - z[-2] == pytest.approx(20.0, rel=0.01)  # at top speed
    assert np.all(y > 0.5) and np.all(y < 0.56)  # on its wheels all the way: never down to the ground (y = 0)
    assert z[-1] < 1300.0  # still over the ground, whose edge is 1,300 m from the start


def test_on_mujoco_simulate_says_the_vehicle_is_not_simulated(capsys) -> None:
    code, out, _ = cli(capsys, "simulate", CAR, "--duration", "0.1", "--engine", "mujoco")
    assert code == 0
    assert out.splitlines()[0] == (f"{CAR}: not simulated on MuJoCo: 1 vehicle, 4 wheels, 1 seat (MJCF-8: no MuJoCo "
                                   "counterpart); their bodies move as plain rigid bodies")
    assert cli(capsys, "simulate", CAR, "--duration", "0.1")[1].startswith("simulated 0.1 s")  # Rapier: all there


def test_a_minute_driving_on_view_grounds_ground(capsys) -> None:
    # The OMI simple car has no ground: `view --live --ground` adds one; driven for 60 s (rear wheels 2 × 2000 N,
    # no top speed: hundreds of metres) it must still be over it, where the old 11 m box was left within 3 s.
    doc = load(fixture_path(SIMPLE_CAR))
    doc, scene = add_ground(doc, read_scene(doc))
    world = World(scene)
    world.set(THROTTLE, [0, 0, 1])
    heights, along = [], []
    for _ in range(60):
        world.run(1.0)
        (_, y, z), _ = world.pose(0)
        heights.append(y)
        along.append(z)
    assert abs(along[-1]) > 500  # it drove far (past any finite ground the page used to add)
    ground_y = doc.json["nodes"][-1]["translation"][1]  # the plane's height: the wheels' lowest reach at t = 0
    assert min(heights) > ground_y  # the chassis never went under the ground
    assert max(heights) - min(heights) < 0.2  # rolling on its springs, not falling or flying

