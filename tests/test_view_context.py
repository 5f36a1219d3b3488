"""The viewer a newcomer meets, in Debian's chromium: a page made with no options plays
a run, the follow camera keeps a falling car in frame, the ground grid and gravity arrows are there, the side
panel fits an 800 × 600 window, and events and bodies are named. Pages are made by the real command.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import fixture_path
from test_view_browser import Page, browser  # noqa: F401  (browser: the module's fixture)

TRIGGERS = "OMI_physics_body/gen4-materials/triggers/triggers.gltf"  # body node 4 "Cube" falls from y = 5
CAR = "OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf"  # body node 0, no ground: falls 20 m in 2 s
RAMP = "OMI_physics_gravity/gen1/ramp/ramp_gravity.glb"  # one shaped (box) gravity volume
PENDULUM = "OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf"  # static TopBody #1, 3 joints
MOTION = "KHR_physics_rigid_bodies/gen3-implicit-shapes/MotionProperties/MotionProperties.gltf"  # long pointers


def make_page(fixture: str, out: Path, *options: str) -> Path:
    """`gltf-physics view FIXTURE --out OUT -q [options]`, as a user runs it."""
    done = subprocess.run([sys.executable, "-m", "gltf_physics", "view", str(fixture_path(fixture)), "--out",
                           str(out), "-q", *options], capture_output=True, text=True, timeout=300, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    return out


@pytest.fixture
def opened(browser) -> Page:  # noqa: F811
    pages: list[Page] = []

    def opener(path: Path, width: int = 800, height: int = 500) -> Page:
        page = Page(browser, path)
        page.page.set_viewport_size({"width": width, "height": height})
        pages.append(page)
        return page

    yield opener
    for p in pages:
        p.page.close()


def canvas_pixels(page: Page) -> np.ndarray:
    from matplotlib.image import imread

    png = page.page.locator("#gp-view canvas").screenshot()
    return (imread(io.BytesIO(png), format="png")[:, :, :3] * 255).astype(np.uint8)


def test_a_page_made_with_no_options_plays_a_run(opened, tmp_path: Path) -> None:
    page = opened(make_page(TRIGGERS, tmp_path / "t.html"))
    assert page.state("baked") is True and page.state("duration") == 5.0 and page.state("playing") is True
    page.page.wait_for_function("() => window.gltfPhysicsViewer.time > 0.05")
    page.call("pause()")  # hold still while the two are read together
    first, before = page.call("nodeScreenPosition(4)"), canvas_pixels(page)
    page.call("play()")
    page.page.wait_for_function("() => window.gltfPhysicsViewer.time > 0.5")
    page.call("pause()")
    page.frames_later(1)
    second, after = page.call("nodeScreenPosition(4)"), canvas_pixels(page)
    # The cube falls (5 m → resting on the floor): it moves down the screen, and the picture changes.
    assert second[1] - first[1] > 20
    assert np.count_nonzero(np.any(before != after, axis=2)) > 200
    assert page.errors == []


def test_follow_camera_keeps_a_falling_car_in_frame(opened, tmp_path: Path) -> None:
    page = opened(make_page(CAR, tmp_path / "car.html"))
    size = page.page.evaluate("[...(r => [r.width, r.height])(document.querySelector('#gp-view canvas')"
                              ".getBoundingClientRect())]")
    page.call("pause()")
    page.call("seek(2.0)")
    page.frames_later(2)
    x, free_y, _ = page.call("nodeScreenPosition(0)")
    assert 0 <= free_y <= size[1]  # the page frames the whole run (view/framing.py): the car is in view
    # Select the car in the panel, then press Follow: the camera keeps it in view.
    page.page.click(".gp-item[data-node='0']")
    page.page.click("#gp-follow")
    assert page.state("followedNode") == 0
    page.frames_later(2)
    for t in (0.5, 1.0, 2.0):
        page.call(f"seek({t})")
        page.frames_later(2)
        x, y, _ = page.call("nodeScreenPosition(0)")
        assert 0 <= x <= size[0] and 0 <= y <= size[1], (t, x, y)
    assert abs(y - size[1] / 2) < abs(free_y - size[1] / 2)  # followed, the car at 2 s sits nearer the middle
    page.page.click("#gp-follow")
    assert page.state("followedNode") is None
    assert page.errors == []


def test_ground_grid_and_gravity_arrows_are_drawn(opened, tmp_path: Path) -> None:
    page = opened(make_page(RAMP, tmp_path / "ramp.html"))
    assert page.state("grid") is True
    assert page.page.evaluate("window.gltfPhysicsViewer.gravityOverlays") == 1
    assert page.state("gravityArrows") == 6  # one onto each face of the shaped volume's box
    assert page.errors == []


def test_side_panel_fits_800_by_600_and_wraps_long_paths(opened, tmp_path: Path) -> None:
    page = opened(make_page(MOTION, tmp_path / "motion.html"), 800, 600)
    page.frames_later(2)
    dims = page.page.evaluate("""() => {
        const side = document.getElementById('gp-side');
        const view = document.getElementById('gp-view');
        return {doc: document.documentElement.scrollWidth, sideScroll: side.scrollWidth,
                sideClient: side.clientWidth, side: side.getBoundingClientRect().width,
                view: view.getBoundingClientRect().width,
                messages: document.querySelectorAll('.gp-message').length};
    }""")
    assert dims["messages"] == 3
    assert dims["doc"] <= 800  # no horizontal scroll bar on the page
    assert dims["sideScroll"] <= dims["sideClient"]  # nothing in the panel overflows sideways
    assert dims["side"] <= 0.3 * 800 and dims["view"] >= 0.7 * 800 - 2


def test_events_and_bodies_are_named(opened, tmp_path: Path) -> None:
    page = opened(make_page(TRIGGERS, tmp_path / "t.html"))
    events = page.page.locator(".gp-event").all_inner_texts()
    # The trigger is the subject (a trigger carried onto a static collider must not read as the ground moving).
    assert events[:2] == ["0.417 s Standalone (#10) starts touching Cube (#4)",
                          "0.417 s Triggers (#12) starts touching Cube (#4)"]
    page = opened(make_page(PENDULUM, tmp_path / "p.html"))
    bodies = page.page.locator(".gp-item[data-node]").all_inner_texts()
    assert bodies[0] == "TopBody (#1) — static"  # no mass for a static body
    assert bodies[1] == "Ball1 (#6) — dynamic, 1 kg"
    assert page.state("jointOverlays") == 3
    assert page.page.evaluate("window.gltfPhysicsViewer.seatOverlays") == 0
