"""What a picture of a run frames (view/framing.py): the moving bodies along their whole path and the part of
the static geometry within the margin of it — exact boxes, worked by hand below.

The scene: a ball (radius 0.5) on a dynamic body at (0, 10, 0), a floor box 200 × 1 × 200 whose top is y = 0,
and a wall 1 km away. The run's path takes the ball from y = 10 down to y = 0.5 (resting on the floor).
"""

from __future__ import annotations

import numpy as np
import pytest

from gltf_physics.gltf.document import Document
from gltf_physics.model import Body, Box, Collider, Motion, MotionType, PhysicsScene, Plane, Sphere
from gltf_physics.view.framing import frame_box
from gltf_physics.view.png import GLTF_TO_PLOT, axes_limits, clip_segments, render_png
from test_view_browser import Page, browser  # noqa: F401  (browser: the module's fixture)


def scene(floor: object = None) -> tuple[Document, PhysicsScene]:
    nodes = [{"name": "ball", "translation": [0, 10, 0]}, {"name": "floor", "translation": [0, -0.5, 0]},
             {"name": "wall", "translation": [1000, 0, 0]}]
    doc = Document(json={"nodes": nodes, "scenes": [{"nodes": [0, 1, 2]}], "scene": 0}, buffers=[])
    colliders = [Collider(0, Sphere(0.5), body=0), Collider(1, floor or Box((200.0, 1.0, 200.0))),
                 Collider(2, Box((1.0, 50.0, 1.0)))]
    return doc, PhysicsScene(bodies=[Body(0, Motion(mass=1.0))], colliders=colliders, document=doc)


FALL = {0: np.array([[0.0, y, 0.0] for y in np.linspace(10.0, 0.5, 20)])}


def test_a_fall_frames_the_whole_path_and_the_floor_strip_under_it() -> None:
    doc, s = scene()
    lo, hi = frame_box(doc, s, FALL)
    # moving: the path ± 0.5 → (-0.5, 0, -0.5)..(0.5, 10.5, 0.5); margin max(1, 10.5 / 2) = 5.25;
    # the floor (-100, -1, -100)..(100, 0, 100) clipped to the moving box ± 5.25 → x, z ±5.75, y -1..0;
    # the wall (x 999.5..1000.5) is beyond the margin: left out
    assert lo.tolist() == pytest.approx([-5.75, -1.0, -5.75], abs=1e-12)
    assert hi.tolist() == pytest.approx([5.75, 10.5, 5.75], abs=1e-12)


def test_without_a_run_the_start_pose_is_framed() -> None:
    doc, s = scene()
    lo, hi = frame_box(doc, s)
    # the ball alone: (-0.5, 9.5, -0.5)..(0.5, 10.5, 0.5), margin 1 m: the floor (top y = 0) is 9.5 m below,
    # out of reach, so nothing static is framed
    assert lo.tolist() == pytest.approx([-0.5, 9.5, -0.5], abs=1e-12)
    assert hi.tolist() == pytest.approx([0.5, 10.5, 0.5], abs=1e-12)


def test_an_infinite_plane_is_framed_as_the_level_strip_near_the_bodies() -> None:
    doc, s = scene(floor=Plane())
    doc.json["nodes"][1]["translation"] = [0, -2, 0]
    lo, hi = frame_box(doc, s, FALL)
    # the plane at y = -2 is within 5.25 of the moving box's bottom (y = 0): its strip x, z ±5.75 at y = -2
    assert lo.tolist() == pytest.approx([-5.75, -2.0, -5.75], abs=1e-12)
    assert hi.tolist() == pytest.approx([5.75, 10.5, 5.75], abs=1e-12)


def test_nothing_moving_frames_the_whole_scene() -> None:
    doc, s = scene()
    s.bodies[0] = Body(0, Motion(type=MotionType.STATIC))
    assert frame_box(doc, s, FALL) is None


def test_the_matplotlib_preview_frames_that_box(tmp_path) -> None:
    doc, s = scene()
    box = frame_box(doc, s, FALL)
    (x0, x1), (y0, y1), (z0, z1) = axes_limits([np.array(box) @ GLTF_TO_PLOT.T])
    # plot axes x, −z, y (up): a cube of the largest side (11.5) about the box's centre (0, 0, 4.75)
    assert (x0, x1) == pytest.approx((-5.75, 5.75))
    assert (y0, y1) == pytest.approx((-5.75, 5.75))
    assert (z0, z1) == pytest.approx((4.75 - 5.75, 4.75 + 5.75))
    out = render_png(doc, s, tmp_path / "fall.png", FALL, frame=box)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_segments_are_cut_at_the_box_not_dropped() -> None:
    segs = np.array([[[-100.0, 0, 0], [100.0, 0, 0]],  # crosses: cut to x = ±5
                     [[0.0, 0, 0], [0.0, 0, 100]],  # leaves through z = 5
                     [[0.0, 20, 0], [1.0, 20, 0]],  # wholly above: gone
                     [[-100.0, 5, 0], [100.0, 5, 0]]])  # on the top face: kept
    cut = clip_segments(segs, np.array([5.0, 5, 5]), np.array([-5.0, -5, -5]))
    np.testing.assert_allclose(cut, [[[-5, 0, 0], [5, 0, 0]], [[0, 0, 0], [0, 0, 5]], [[-5, 5, 0], [5, 5, 0]]],
                               atol=1e-6)


def test_the_page_at_2_s_frames_the_fall_and_the_floor(browser, tmp_path) -> None:  # noqa: F811
    from gltf_physics.dialects import write_scene
    from gltf_physics.gltf.io import save
    from gltf_physics.view.bake import record, trajectories
    from gltf_physics.view.page import write_page

    doc, s = scene()
    written, _ = write_scene(s, doc, "khr")
    written.json["asset"] = {"version": "2.0"}
    save(written, tmp_path / "fall.gltf")
    run = record(s, 3.0)
    write_page(tmp_path / "fall.html", written, s, bake=run)
    lo, hi = frame_box(doc, s, trajectories(run))
    # the run's path: from y = 10.5 (top of the ball at the start) down to the floor, whose strip is framed
    assert hi[1] == pytest.approx(10.5) and lo[1] == pytest.approx(-1.0)
    page = Page(browser, tmp_path / "fall.html")
    try:
        page.call("pause()")
        page.call("seek(2)")
        page.frames_later(2)
        assert page.state("framed") == "moving"
        np.testing.assert_allclose(page.state("frameBox"), [lo, hi], atol=1e-9)
        width = page.page.evaluate("document.querySelector('#gp-view canvas').clientWidth")
        height = page.page.evaluate("document.querySelector('#gp-view canvas').clientHeight")
        for node in (0, 1):  # the resting ball and the floor's origin (1 m under it) are both in the picture
            x, y, _ = page.call(f"nodeScreenPosition({node})")
            assert 0 <= x <= width and 0 <= y <= height
    finally:
        page.page.close()


def test_a_static_mesh_near_the_run_is_framed_and_a_carried_one_is_not() -> None:
    doc, s = scene()
    # a visual step mesh (no collider) at x = 2..4, y = 0..1 on node 3, and a mesh on node 4 under the ball,
    # 3 m above it (y 12.5..13.5 at the start): it moves with the ball, so it is not static geometry
    doc.json["nodes"] += [{"name": "step", "mesh": 0, "translation": [3, 0.5, 0]},
                          {"name": "skin", "mesh": 0, "translation": [0, 3, 0]}]
    doc.json["nodes"][0]["children"] = [4]
    doc.json["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0}}]}]
    doc.json["accessors"] = [{"count": 8, "componentType": 5126, "type": "VEC3", "min": [-1, -0.5, -7],
                              "max": [1, 0.5, 7]}]
    lo, hi = frame_box(doc, s, FALL)
    # the step's box (2, 0, -7)..(4, 1, 7) is within the margin: cut to z ±5.75 it adds nothing beyond the
    # floor strip there; the carried mesh would have raised the top to 13.5: it stays 10.5
    assert lo.tolist() == pytest.approx([-5.75, -1.0, -5.75], abs=1e-12)
    assert hi.tolist() == pytest.approx([5.75, 10.5, 5.75], abs=1e-12)
    doc.json["nodes"][3]["translation"] = [0, 12.5, 0]  # the step now above the start: y up to 13
    lo, hi = frame_box(doc, s, FALL)
    assert hi.tolist() == pytest.approx([5.75, 13.0, 5.75], abs=1e-12)
