"""`simulate` and `view` say the validator's hints that predict an odd run (one line each on stderr); `view
--ground` adds a static ground under the scene for the run and the page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import ROOT, fixture_path
from gltf_physics.cli import main

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
CAR = "OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf"
ROPE = "OMI_physics_joint/gen2-physicsJoints/hanging_rope.gltf"
BOX = "OMI_physics_body/gen4-materials/basic/dynamic_box.gltf"
NO_GROUND = ("hint HINT-NO-GROUND /nodes/0/extensions/OMI_vehicle_body: vehicle on node 0: no collider lies below "
             "any of its 4 wheel(s) (within 1000 m): it falls forever; add ground under it")
SAG = ("hint HINT-SAG /extensions/OMI_physics_joint/physicsJoints/0/limits/0: joint on node 4: soft limit of "
       "stiffness 0.3 N/m carries 3 kg against gravity: it sags m·g/k = 98.1 m (over 0.1 m); a stiffness of at "
       "least 294.3 N/m holds it within 0.1 m, no stiffness makes it hard")


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


def page_data(path: Path) -> dict:
    m = re.search(r'<script type="application/json" id="gltf-physics-data">(.*?)</script>', path.read_text(), re.S)
    assert m is not None
    return json.loads(m.group(1))


def heights(bake: dict, node: int) -> list[float]:
    """The node's world y in every frame of the page's run."""
    k, n = bake["nodes"].index(node), len(bake["nodes"])
    return [bake["translations"][(f * n + k) * 3 + 1] for f in range(bake["frames"])]


FALLS = ("hint HINT-NO-GROUND /nodes/0/extensions/OMI_physics_body: dynamic body on node 0: the scene has no "
         "static or kinematic collider to land on: it falls forever; add ground under it")


@pytest.mark.parametrize(("fixture", "hint"), [(CAR, NO_GROUND), (ROPE, SAG), (BOX, FALLS)])
def test_simulate_says_the_hints_that_predict_an_odd_run(capsys, fixture: str, hint: str) -> None:
    path = fixture_path(fixture)
    code, out, err = cli(capsys, "simulate", path, "--duration", "0.5")
    assert (code, err) == (0, f"{path}: {hint}\n")
    assert out.startswith("simulated 0.5 s of ")
    assert cli(capsys, "simulate", path, "--duration", "0.5", "--quiet") == (0, "", "")


def test_a_scene_without_such_hints_prints_none(capsys) -> None:
    assert cli(capsys, "simulate", EXAMPLE, "--duration", "0.5")[2] == ""  # JointTypes' HINT-JOINT-SIDE is no such


def test_view_says_them_too_and_ground_silences_no_ground(capsys, tmp_path: Path) -> None:
    path, page = fixture_path(CAR), tmp_path / "car.html"
    code, _, err = cli(capsys, "view", path, "--out", page, "--simulate", "2")
    assert (code, err) == (0, f"{path}: {NO_GROUND}\n")
    assert heights(page_data(page)["bake"], 0)[-1] < -15  # falls forever: ½·9.81·2² = 19.6 m
    code, _, err = cli(capsys, "view", path, "--out", page, "--simulate", "2", "--ground")
    assert (code, err) == (0, "")
    data = page_data(page)
    ground = len(data["gltf"]["nodes"]) - 1
    assert data["gltf"]["nodes"][ground]["name"] == "gltf-physics ground"
    # Its plane (y = -0.6) is the wheels' reach: centres at y = 0 less radius 0.35 and travel 0.25.
    assert data["gltf"]["nodes"][ground]["translation"] == pytest.approx([0.0, -0.6, 0.1])
    (plane,) = [c for c in data["overlay"]["colliders"] if c["node"] == ground]
    assert (plane["node"], plane["kind"], plane["shape"]["type"]) == (ground, "static", "plane")
    # The car settles on its springs over the ground's top face (y = -0.6): 0.37 m below its start.
    assert heights(data["bake"], 0)[-1] == pytest.approx(-0.369, abs=0.01)
    assert json.loads(path.read_text())["nodes"][-1]["name"] != "gltf-physics ground"  # the file is untouched


def test_view_ground_catches_a_lone_falling_box(capsys, tmp_path: Path) -> None:
    page = tmp_path / "box.html"
    assert cli(capsys, "view", fixture_path(BOX), "--out", page, "--simulate", "2", "--ground")[0] == 0
    # The box's lowest point is the ground's top: it rests where it started.
    assert heights(page_data(page)["bake"], 0)[-1] == pytest.approx(0.0, abs=0.01)
