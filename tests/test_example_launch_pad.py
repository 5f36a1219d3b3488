"""The shipped behaviour-graph example (examples/launch_pad.gltf, written by tools/make_launch_pad_example.py).

The ball (0.5 kg, radius 0.25) starts at y = 3 over a trigger zone whose top is y = 0.4: it falls h = 2.35 m and
enters at t = √(2h/g) = 0.692 s: the trigger event, then (a step later) the graph's impulse of 8 N·s up,
Δv = J/m = 16 m/s.
Without the graph it comes to rest on the pad (top y = 0.2) at y = 0.45. The sweeper turns at 1 rad/s about +Y,
set by the graph on every tick.
"""

from __future__ import annotations

import csv
import json
import math
import runpy
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT
from gltf_physics.cli import main
from gltf_physics.sim import World

LAUNCH_PAD = ROOT / "examples" / "launch_pad.gltf"
GENERATOR = runpy.run_path(str(ROOT / "tools" / "make_launch_pad_example.py"))
G, RATE, MASS = 9.81, 60.0, 0.5
BALL, SIDE_BALL, SWEEPER, ZONE = GENERATOR["BALL"], GENERATOR["SIDE_BALL"], GENERATOR["SWEEPER"], GENERATOR["ZONE"]
LOG_POINTER = "/extensions/KHR_interactivity/graphs/0/nodes/2"


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


Rows = dict[int, list[dict[str, float]]]


def simulate(capsys, tmp_path: Path, *extra: str, said: str = "") -> tuple[Rows, list[dict]]:
    """The trace (node → rows, every step) and the events of a 6 s run; ``said``: its exact stderr."""
    trace, events = tmp_path / "t.csv", tmp_path / "e.jsonl"
    code, _, err = cli(capsys, "simulate", LAUNCH_PAD, "--duration", "6", "--events", events, "--trace", trace,
                       *extra)
    assert (code, err) == (0, said)
    rows: dict[int, list[dict[str, float]]] = {}
    for row in csv.DictReader(trace.open()):
        rows.setdefault(int(row["node"]), []).append({k: float(v) for k, v in row.items() if k != "name"})
    return rows, [json.loads(line) for line in events.read_text().splitlines()]


def test_the_generator_writes_the_shipped_file_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "launch_pad.gltf"
    assert GENERATOR["main"]([str(out)]) == 0  # no losses
    assert out.read_bytes() == LAUNCH_PAD.read_bytes()
    assert len(LAUNCH_PAD.read_bytes()) < 5000  # a few KB


def test_the_launch_pad_validates_strictly(capsys) -> None:
    code, out, _ = cli(capsys, "validate", LAUNCH_PAD, "--strict")
    assert (code, out) == (0, f"{LAUNCH_PAD}: valid (0 errors, 0 warnings, 0 infos, 0 hints)\n")


def test_the_ball_is_launched_when_it_reaches_the_zone(capsys, tmp_path: Path) -> None:
    rows, events = simulate(capsys, tmp_path, said=f"{LAUNCH_PAD}: behaviour graph ran: 4 log lines\n")
    enter = events[0]
    assert {k: enter[k] for k in ("event", "trigger", "node")} == {"event": "enter", "trigger": ZONE, "node": BALL}
    fall = 3.0 - 0.25 - 0.4  # the ball's bottom to the zone's top
    assert 0 <= enter["time"] - math.sqrt(2 * fall / G) < 1 / RATE  # the first step that finds it inside
    logs = [e for e in events if e["event"] == "log"]
    assert len(logs) == 4  # launched four times in 6 s
    assert logs[0] == {"time": pytest.approx(enter["time"] + 1 / RATE), "event": "log",
                       "message": f"launched node {BALL}", "pointer": LOG_POINTER}
    assert all(e["message"] == f"launched node {BALL}" for e in logs)
    # Velocity from the trace's steps (semi-implicit Euler: Δy/dt is the step's end velocity). Across the launch
    # step it jumps by J/m and gains the step's gravity, -g·dt.
    ball = rows[BALL]
    k = next(i for i, r in enumerate(ball) if r["time"] == pytest.approx(logs[0]["time"]))
    ys = np.array([r["ty"] for r in ball])
    earlier, before, after = np.diff(ys[k - 2:k + 2]) * RATE
    assert before - earlier == pytest.approx(-G / RATE, abs=1e-3)  # in free fall up to the launch
    assert after - before + G / RATE == pytest.approx(8.0 / MASS, abs=1e-3)  # Δv = J/m = 16 m/s
    assert after > 0  # leaving upwards


def test_without_the_graph_the_ball_rests_on_the_pad(capsys, tmp_path: Path) -> None:
    rows, events = simulate(capsys, tmp_path, "--no-graph")
    assert [(e["event"], e["node"]) for e in events] == [("enter", BALL)]  # entered once, never launched
    assert rows[BALL][-1]["ty"] == pytest.approx(0.2 + 0.25, abs=1e-3)  # on the pad's top
    assert (rows[SWEEPER][-1]["qy"], rows[SWEEPER][-1]["qw"]) == (0.0, 1.0)  # nothing turns it


def test_the_sweeper_turns_at_its_rate(capsys, tmp_path: Path) -> None:
    rows, _ = simulate(capsys, tmp_path, said=f"{LAUNCH_PAD}: behaviour graph ran: 4 log lines\n")
    for row in rows[SWEEPER][60::60]:  # once a second
        half = GENERATOR["SWEEP"] * row["time"] / 2
        q = np.array([row["qx"], row["qy"], row["qz"], row["qw"]])
        assert abs(q @ [0.0, math.sin(half), 0.0, math.cos(half)]) == pytest.approx(1.0, abs=1e-6)
        assert (row["tx"], row["ty"], row["tz"]) == (-2.5, pytest.approx(0.3), 0.0)  # turning in place


def test_a_click_lobs_the_side_ball_onto_the_pad() -> None:
    world = World.from_file(LAUNCH_PAD)
    world.step()
    # A click on the side ball (a child of "Balls", whose onSelect hears it) from a camera above and behind it:
    # the impulse is PUSH along the ray's level heading (-Z) and HOP up, whatever the ray's slope.
    world.select(SIDE_BALL, point=(0.0, 0.25, 2.75), origin=(0.0, 3.25, 6.75))
    velocity = np.array(world.get(f"/nodes/{SIDE_BALL}/extensions/KHR_physics_rigid_bodies/motion/linearVelocity"))
    assert velocity == pytest.approx([0.0, GENERATOR["HOP"] / MASS, -GENERATOR["PUSH"] / MASS], abs=1e-4)
    world.select(GENERATOR["GROUND"], point=(1.0, 0.0, 1.0), origin=(1.0, 5.0, 5.0))  # not under "Balls": nothing
    world.run(0.6)  # the lob's flight, 2·3/g = 0.61 s, lands it in the zone: launched before the falling ball
    assert [line.message for line in world.graph.logs] == [f"launched node {SIDE_BALL}"]
    assert not world.graph.errors
