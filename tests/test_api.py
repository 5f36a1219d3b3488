"""The public Python API as the README shows it."""

from __future__ import annotations

import importlib

import gltf_physics as gp
from conftest import ROOT

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"


def test_validate_stays_the_function_after_the_subpackage_is_imported() -> None:
    importlib.import_module("gltf_physics.validation.rules")
    report = gp.validate(gp.load(EXAMPLE))
    assert report.num_errors == 0


def test_readme_flow_on_the_example() -> None:
    doc = gp.load(EXAMPLE)
    scene = gp.read_scene(doc)
    assert [b.node for b in scene.bodies] == [0, 1, 2, 3, 5, 7]
    newest, losses = gp.convert(doc, to="khr")
    assert "KHR_physics_rigid_bodies" in newest.json["extensionsUsed"]
    assert all(set(loss) == {"code", "pointer", "message"} for loss in losses)
    world = gp.World(scene, rate=60)
    world.set("/nodes/3/extensions/OMI_physics_body/motion/gravityFactor", 0.0)
    world.run(1.0)
    translation, _ = world.pose(3)
    assert list(translation) == [1.5, 4.0, 0.0]  # no gravity on the ball: it stays put
    state = world.snapshot()
    world.step()
    after = world.pose(1)[0].copy()
    world.restore(state)
    world.step()
    assert list(world.pose(1)[0]) == list(after)  # restore replays the same step exactly
