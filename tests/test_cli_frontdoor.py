"""The first hour's frictions: `info` lists joints and triggers; every error line has one form (``SUBJECT:
what is wrong``: the option and value, the file and pointer, or the mistyped command, with the closest command
suggested)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ROOT, fixture_path
from gltf_physics.cli import main

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
TRIGGERS = "OMI_physics_body/gen4-materials/triggers/triggers.gltf"


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


def test_info_lists_joints_and_triggers(capsys) -> None:
    code, out, _ = cli(capsys, "info", EXAMPLE)
    assert code == 0
    assert [line.rstrip() for line in out.splitlines()[-4:]] == [
        " joint  name      body A  body B   limits  drives",
        " 6      PinJoint  #7 Bob  #5 Post  1       0",
        " trigger  name         shape  on body",
        " 8        LandingZone  box    static"]
    summary = json.loads(cli(capsys, "info", EXAMPLE, "--json")[1])
    assert summary["joints"] == [{"node": 6, "name": "PinJoint", "bodyA": 7, "bodyB": 5, "connectedNode": 4,
                                  "limits": 1, "drives": 0,
                                  "pointer": "/nodes/6/extensions/OMI_physics_joint"}]
    assert summary["triggers"] == [{"node": 8, "name": "LandingZone", "body": None, "shape": "box",
                                    "pointer": "/nodes/8/extensions/OMI_physics_body/trigger"}]


def test_info_names_a_compound_trigger_by_its_parts(capsys) -> None:
    out = cli(capsys, "info", fixture_path(TRIGGERS))[1]
    assert [line.split() for line in out.splitlines()[-5:]] == [
        ["trigger", "name", "shape", "on", "body"], ["6", "ChildA", "convex", "static"],
        ["8", "ChildB", "convex", "static"], ["10", "Standalone", "convex", "static"],
        ["12", "Triggers", "compound", "of", "2", "static"]]


@pytest.mark.parametrize(("args", "message"), [
    # a mistyped command: the closest one, and where the commands are listed (not the typo's --help)
    (["simulte", str(EXAMPLE)], "simulte: no such command; did you mean simulate? (see `gltf-physics --help`)"),
    (["xyzzy"], "xyzzy: no such command (see `gltf-physics --help`)"),
    (["batch", "valdate", str(EXAMPLE)],
     "valdate: no such batch command; did you mean validate? (see `gltf-physics batch --help`)"),
    # options: the option (and the value given) first, as in every other error line
    (["simulate", str(EXAMPLE), "--duratoin", "3"],
     "--duratoin: no such option; did you mean --duration? (see `gltf-physics simulate --help`)"),
    (["view", str(EXAMPLE), "--png"], "--png: needs a value (see `gltf-physics view --help`)"),
    (["batch", "convert", str(EXAMPLE)],
     "--out-dir: missing (a required option; see `gltf-physics batch convert --help`)"),
    (["batch", "simulate", str(EXAMPLE), "--rate", "0"], "--rate 0: the step rate in Hz must be > 0"),
    (["batch", "info", str(EXAMPLE), "--workers", "0"], "--workers 0: the number of worker processes must be ≥ 1"),
    (["batch", "info", str(EXAMPLE), "--workers", "2", "--scheduler", "tcp://h:1"],
     "--workers 2: excludes --scheduler (the cluster there has its own workers)"),
    (["batch", "convert", str(EXAMPLE), "--out-dir", "o", "--to", "usd"], "--to usd: expected omi or khr"),
    (["sweep", str(EXAMPLE), "--vary", "/x=1", "--out", "r.csv"],
     "--out r.csv: the runs table must end in .parquet or .jsonl"),
    (["sweep", str(EXAMPLE), "--vary", "/x=1", "--out", "r.jsonl", "--runs", "0"],
     "--runs 0: the number of runs must be ≥ 1"),
    (["compare", str(EXAMPLE), "--tolerance", "-1"], "--tolerance -1: the position tolerance in metres must be ≥ 0"),
])
def test_error_lines_have_one_form(capsys, args: list[str], message: str) -> None:
    assert cli(capsys, *args) == (2, "", message + "\n")
