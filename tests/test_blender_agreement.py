"""Behaviour agrees: scenes built in Blender, simulated by Blender's own rigid-body world (Bullet, baked headless
frame by frame) and, exported through the add-on, by gltf-physics' World on Rapier.

Both run at the same internal rate: Blender at 24 frames/s with 10 substeps a frame, the World at 240 Hz. Poses
are compared at every Blender frame, Blender's Z-up read against glTF's Y-up. Tolerances (docs/blender.md has the
table with the measured values):

- free fall, before contact: 1 mm of height; landing (first frame within 1 cm of rest): the same frame;
- a stack of three 1 m boxes, 2 s: each box within 5 mm of where it started, in both, and of each other;
- a pendulum (point constraint, 1 m, from horizontal), 2 s: swing angle within 0.06 rad;
- a hinged flap (a door on a horizontal hinge), 2 s: angle within 0.06 rad;
- a slider tilted 30° with limits ±0.5 m, 2 s: inside its limits (5 mm) in both, end points within 5 mm.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from blender_scenes import bake, body, clear, constraint, need_bpy

bpy = need_bpy()

import gltf_physics as gp  # noqa: E402 - after the bpy check
import gltf_physics.blender as gpb  # noqa: E402

FPS, SUBSTEPS = 24, 10
FRAMES = 49  # 2 s after frame 1


@pytest.fixture(scope="module")
def blender() -> object:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    gpb.enable()
    return bpy


@pytest.fixture
def scene(blender: object) -> object:
    clear(bpy)
    bpy.context.scene.render.fps = FPS
    return bpy.context.scene


def _both(objs: list, path: Path) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(Blender's baked locations, the World's) of ``objs`` at every frame, both in Blender's axes."""
    world = bpy.context.scene.rigidbody_world
    world.substeps_per_frame, world.solver_iterations = SUBSTEPS, 10
    result = gpb.export_file(path)
    assert result.report.num_errors == 0, [m.message for m in result.report.messages]
    blender = {k: np.array(v) for k, v in bake(bpy, FRAMES, objs).items()}
    sim = gp.World.from_file(path, rate=FPS * SUBSTEPS)
    nodes = {n.get("name"): i for i, n in enumerate(gp.load(path).json["nodes"])}
    ours: dict[str, list] = {o.name: [] for o in objs}
    for _ in range(FRAMES):
        for o in objs:
            t, _q = sim.pose(nodes[o.name])
            ours[o.name].append((t[0], -t[2], t[1]))  # glTF Y-up → Blender Z-up
        sim.run(1 / FPS)
    return blender, {k: np.array(v) for k, v in ours.items()}


def _ground() -> None:
    body(bpy, "Ground", (10, 10, 1), (0, 0, -0.5), kind="PASSIVE")


def test_free_fall_lands_on_the_same_frame(scene: object, tmp_path: Path) -> None:
    _ground()
    cube = body(bpy, "Cube", (1, 1, 1), (0, 0, 5))
    b, g = _both([cube], tmp_path / "fall.gltf")
    zb, zg = b["Cube"][:, 2], g["Cube"][:, 2]
    assert np.abs(zb[:20] - zg[:20]).max() < 1e-3  # before contact (analytic landing: frame 23)
    land_b, land_g = int(np.argmax(zb < 0.51)), int(np.argmax(zg < 0.51))
    assert land_b == land_g == round(math.sqrt(2 * 4.5 / 9.81) * FPS)
    assert abs(zb[-1] - 0.5) < 5e-3 and abs(zg[-1] - 0.5) < 5e-3


def test_a_stack_stands_in_both(scene: object, tmp_path: Path) -> None:
    _ground()
    boxes = [body(bpy, f"Box{i}", (1, 1, 1), (0, 0, 0.5 + i)) for i in range(3)]
    b, g = _both(boxes, tmp_path / "stack.gltf")
    for o in boxes:
        assert np.abs(b[o.name][-1] - b[o.name][0]).max() < 5e-3, o.name
        assert np.abs(g[o.name][-1] - g[o.name][0]).max() < 5e-3, o.name
        assert np.abs(b[o.name] - g[o.name]).max() < 5e-3, o.name


def _angle(p: np.ndarray, pivot: tuple[float, float, float]) -> np.ndarray:
    """The swing angle in the XZ plane, from hanging straight down."""
    return np.arctan2(p[:, 0] - pivot[0], -(p[:, 2] - pivot[2]))


def test_a_pendulum_swings_alike(scene: object, tmp_path: Path) -> None:
    anchor = body(bpy, "Anchor", (0.1, 0.1, 0.1), (0, 0, 3), kind="PASSIVE")
    bob = body(bpy, "Bob", (0.2, 0.2, 0.2), (1, 0, 3))
    pivot = constraint(bpy, "Pivot", "POINT", anchor, bob, (0, 0, 3))
    pivot.rigid_body_constraint.disable_collisions = True
    b, g = _both([bob], tmp_path / "pendulum.gltf")
    ab, ag = _angle(b["Bob"], (0, 0, 3)), _angle(g["Bob"], (0, 0, 3))
    assert ab[0] == pytest.approx(math.pi / 2) and ag[0] == pytest.approx(math.pi / 2)
    assert ab.min() < -1.5 and ag.min() < -1.5  # it swung through to the other side in both
    assert np.abs(ab - ag).max() < 0.06


def test_a_hinged_flap_swings_alike(scene: object, tmp_path: Path) -> None:
    frame = body(bpy, "Frame", (0.1, 0.1, 0.1), (0, 0, 3), kind="PASSIVE")
    door = body(bpy, "Door", (1.0, 0.6, 0.05), (0.5, 0, 3), mass=5.0)
    hinge = constraint(bpy, "Hinge", "HINGE", frame, door, (0, 0, 3), rotation=(math.pi / 2, 0, 0))  # Z → −Y
    hinge.rigid_body_constraint.disable_collisions = True
    b, g = _both([door], tmp_path / "door.gltf")
    ab, ag = _angle(b["Door"], (0, 0, 3)), _angle(g["Door"], (0, 0, 3))
    assert ab.min() < -1.4 and ag.min() < -1.4
    assert np.abs(ab - ag).max() < 0.06
    assert np.abs(b["Door"][:, 1]).max() < 1e-3 and np.abs(g["Door"][:, 1]).max() < 1e-3  # stays in its plane


def test_a_slider_stays_in_its_limits(scene: object, tmp_path: Path) -> None:
    rail = body(bpy, "Rail", (0.1, 0.1, 0.1), (0, 0, 3), kind="PASSIVE")
    cart = body(bpy, "Cart", (0.2, 0.2, 0.2), (0, 0, 3))
    tilt = math.radians(30)
    slider = constraint(bpy, "Slide", "SLIDER", rail, cart, (0, 0, 3), rotation=(0, tilt, 0))  # X down the slope
    c = slider.rigid_body_constraint
    c.disable_collisions = True
    c.use_limit_lin_x, c.limit_lin_x_lower, c.limit_lin_x_upper = True, -0.5, 0.5
    b, g = _both([cart], tmp_path / "slider.gltf")
    axis = np.array([math.cos(tilt), 0.0, -math.sin(tilt)])
    for track in (b["Cart"], g["Cart"]):
        travel = (track - [0, 0, 3]) @ axis
        off_axis = np.linalg.norm((track - [0, 0, 3]) - np.outer(travel, axis), axis=1)
        assert travel.max() < 0.5 + 5e-3 and travel.min() > -5e-3
        assert travel[-1] == pytest.approx(0.5, abs=5e-3)  # slid down to its limit and stayed
        assert off_axis.max() < 5e-3
    assert np.abs(b["Cart"][-1] - g["Cart"][-1]).max() < 5e-3
