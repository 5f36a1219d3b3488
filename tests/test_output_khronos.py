"""What gltf-physics writes passes the Khronos glTF-Validator (npm `gltf-validator`) and our own validator.

Covers the runtime's outputs (final pose and baked animation) and conversions. The Khronos
validator runs through tools/khronos-validator (installed by `.ci/run`); absent, the test skips, except under CI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import gltf_physics as gp
from conftest import ROOT, fixture_path
from gltf_physics.sim import World, bake, write_final_pose
from gltf_physics.validation import validate

TOOL = ROOT / "tools" / "khronos-validator"


def khronos_report(path: Path) -> dict:
    if shutil.which("node") is None or not (TOOL / "node_modules" / "gltf-validator").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail("the Khronos validator is not installed (cd tools/khronos-validator && npm ci)")
        pytest.skip("the Khronos validator is not installed (cd tools/khronos-validator && npm ci)")
    r = subprocess.run(["node", str(TOOL / "validate.mjs"), str(path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def errors(report: dict) -> list[str]:
    return [f"{m['code']} {m.get('pointer', '')}" for m in report["issues"]["messages"] if m["severity"] == 0]


SCENES = [
    str(ROOT / "examples" / "tumbling_boxes.gltf"),
    "OMI_physics_body/gen4-materials/complex/ball_pit.gltf",
    "KHR_physics_rigid_bodies/gen3-implicit-shapes/ShapeTypes/ShapeTypes.glb",
    "OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf",
]


def _path(scene: str) -> Path:
    return Path(scene) if scene.startswith("/") else fixture_path(scene)


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: Path(s).name)
@pytest.mark.parametrize("suffix", [".gltf", ".glb"])
def test_baked_and_final_pose_outputs_have_zero_errors(scene: str, suffix: str, tmp_path: Path) -> None:
    doc = gp.load(_path(scene))
    # pendulum_balls is an official example with JOINT-2 errors of its own: outputs must add none.
    input_errors = validate(doc).num_errors
    world = World(gp.read_scene(doc), record=True)
    world.run(0.5)
    for name, out in (("baked", bake(world.recording, doc)), ("final", write_final_pose(world, doc))):
        target = tmp_path / f"{name}{suffix}"
        gp.save(out, target)
        assert errors(khronos_report(target)) == []
        assert validate(gp.load(target)).num_errors == input_errors
    baked = gp.load(tmp_path / f"baked{suffix}")
    assert len(baked.json["animations"]) == len(doc.json.get("animations", [])) + 1


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: Path(s).name)
@pytest.mark.parametrize("target", ["omi", "khr"])
def test_converted_outputs_have_zero_khronos_errors(scene: str, target: str, tmp_path: Path) -> None:
    out, _ = gp.convert(gp.load(_path(scene)), to=target)
    path = tmp_path / "converted.glb"
    gp.save(out, path)
    assert errors(khronos_report(path)) == []
