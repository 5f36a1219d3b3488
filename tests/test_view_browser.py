"""The viewer page in a real browser: Debian's chromium (headless, SwiftShader WebGL) driven by playwright.

For one fixture of each family the page loads with no console error and no request outside itself, shows one
overlay per collider and simple trigger (hand-counted from the files), plays and pauses, and draws a
picture that is not blank. A hand-made run checks that bodies follow the recorded poses and that triggers
light up between their enter and exit events. Without chromium/playwright these tests skip, except under
CI=true, where that is a failure (the CI script installs both).
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import fixture_path
from gltf_physics.dialects import read_scene
from gltf_physics.gltf.io import load
from gltf_physics.view.bake import frames_json
from gltf_physics.view.page import write_page

CHROMIUM = "/usr/bin/chromium"
# SwiftShader gives WebGL without a GPU; the rest keeps the browser from calling home.
ARGS = ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
READY = "() => window.gltfPhysicsViewer && (window.gltfPhysicsViewer.ready || window.gltfPhysicsViewer.error)"

# (fixture, colliders + simple triggers, joints, wheels, gravity volumes), counted by hand in each file.
FAMILIES = [
    ("OMI_physics_body/gen4-materials/triggers/triggers.gltf", 5, 0, 0, 0),  # 2 colliders, 3 simple triggers
    ("OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf", 4, 3, 0, 0),  # bar + 3 balls, 3 joints
    ("KHR_physics_rigid_bodies/gen3-implicit-shapes/ShapeTypes/ShapeTypes.gltf", 16, 0, 0, 0),  # 14 + 2
    ("OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf", 6, 0, 4, 0),  # 2 boxes, 4 seat triggers
    ("OMI_physics_gravity/gen1/ramp/ramp_gravity.glb", 2, 0, 0, 1),  # ramp mesh, 1 shaped-gravity trigger
]


def _launch() -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed")
    if not Path(CHROMIUM).is_file() or shutil.which(CHROMIUM) is None:
        _unavailable(f"{CHROMIUM} not found (apt-get install -y chromium)")
    return sync_playwright


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_playwright = _launch()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


class Page:
    """A loaded viewer page with its console errors and the URLs it requested."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.page = browser.new_page(viewport={"width": 800, "height": 500})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)
        self.page.wait_for_function(READY, timeout=30_000)

    def state(self, key: str) -> Any:
        return self.page.evaluate(f"window.gltfPhysicsViewer[{key!r}]")

    def call(self, expr: str) -> Any:
        return self.page.evaluate(f"window.gltfPhysicsViewer.{expr}")

    def frames_later(self, n: int) -> None:
        """Wait until the render loop has drawn ``n`` more frames (state read after a redraw, not a sleep)."""
        start = self.state("framesRendered")
        self.page.wait_for_function(f"() => window.gltfPhysicsViewer.framesRendered >= {start + n}")

    def outside_requests(self) -> list[str]:
        return [u for u in self.requests if u != self.url and not u.startswith(("data:", "blob:"))]

    def distinct_colours(self) -> int:
        from matplotlib.image import imread

        png = self.page.locator("#gp-view canvas").screenshot()
        img = (imread(io.BytesIO(png), format="png")[:, :, :3] * 255).astype(np.uint8)
        return len(np.unique(img.reshape(-1, 3), axis=0))


@pytest.fixture
def open_page(browser) -> Iterator[Any]:
    """Opens viewer pages, closed after the test: an open page keeps rendering and slows the rest."""
    pages: list[Page] = []

    def opener(path: Path) -> Page:
        pages.append(Page(browser, path))
        return pages[-1]

    yield opener
    for p in pages:
        p.page.close()


@pytest.mark.parametrize(("fixture", "overlays", "joints", "wheels", "gravity"), FAMILIES,
                         ids=[f[0].split("/")[0] for f in FAMILIES])
def test_fixture_page_loads_counts_plays_and_draws(open_page, tmp_path, fixture, overlays, joints, wheels,
                                                   gravity):
    doc = load(fixture_path(fixture))
    scene = read_scene(doc)
    assert len(scene.colliders) + sum(1 for t in scene.triggers if t.shape is not None) == overlays
    page = open_page(write_page(tmp_path / "view.html", doc, scene))
    assert page.state("error") is None
    assert page.state("colliderOverlays") == overlays
    assert (page.state("jointOverlays"), page.state("wheelOverlays"), page.state("gravityOverlays")) == (
        joints, wheels, gravity)
    # Playing: the clock moves on.
    t0 = page.state("time")
    page.page.wait_for_function(f"() => window.gltfPhysicsViewer.time > {t0} + 0.05")
    # Paused: it stops, however many frames are drawn.
    page.call("pause()")
    page.frames_later(1)
    t1 = page.state("time")
    page.frames_later(5)
    assert page.state("playing") is False and page.state("time") == t1
    assert page.distinct_colours() > 30  # a blank canvas is one colour
    assert page.errors == []
    assert page.outside_requests() == []


def test_baked_run_moves_bodies_and_lights_triggers(open_page, tmp_path):
    # triggers.gltf: body node 4 (dynamic); simple triggers 6, 8, 10; compound trigger 12 = 6 + 8.
    doc = load(fixture_path("OMI_physics_body/gen4-materials/triggers/triggers.gltf"))
    scene = read_scene(doc)
    rate, frames = 60.0, 61  # 1 s: the body falls from y = 5 at 2 m/s, straight down
    t = [np.array([[0.0, 5.0 - 2.0 * k / rate, 0.0]]) for k in range(frames)]
    q = [np.array([[0.0, 0.0, 0.0, 1.0]])] * frames
    events = [{"time": 0.2, "event": "enter", "trigger": 12, "node": 4},
              {"time": 0.3, "event": "enter", "trigger": 10, "node": 4},
              {"time": 0.4, "event": "exit", "trigger": 10, "node": 4},
              {"time": 0.6, "event": "exit", "trigger": 12, "node": 4}]
    bake = frames_json([4], rate, t, q, events)
    page = open_page(write_page(tmp_path / "run.html", doc, scene, bake=bake))
    assert page.state("baked") is True and page.state("duration") == 1.0
    page.call("pause()")
    page.call("seek(0.5)")
    page.frames_later(2)
    assert page.state("time") == 0.5
    assert np.allclose(page.call("nodeWorldPosition(4)"), [0.0, 4.0, 0.0], atol=1e-5)
    # Collider 1 (in collider order: node 2 static box, node 4 the body) is on the body's node.
    assert np.allclose(page.call("colliderWorldPosition(1)"), [0.0, 4.0, 0.0], atol=1e-5)
    # At 0.5 s the compound (parts 6, 8) is occupied; trigger 10 exited at 0.4 and still flashes (0.3 s).
    assert page.state("activeTriggers") == [6, 8, 10]
    assert page.state("firedEvents") == 3
    page.call("seek(0.35)")
    page.frames_later(2)
    assert page.state("activeTriggers") == [6, 8, 10]
    page.call("seek(1.0)")
    page.frames_later(2)
    assert page.state("activeTriggers") == []  # the last event (0.6 s) is more than 0.3 s old
    assert np.allclose(page.call("nodeWorldPosition(4)"), [0.0, 3.0, 0.0], atol=1e-5)
    assert page.errors == []


def test_simulated_page_follows_the_run(open_page, tmp_path):
    # --simulate: the page carries the runtime's run; the body sits where the run put it at each time.
    doc = load(fixture_path("OMI_physics_body/gen4-materials/triggers/triggers.gltf"))
    path = write_page(tmp_path / "sim.html", doc, read_scene(doc), simulate=1.0)
    page = open_page(path)
    bake = page.page.evaluate("JSON.parse(document.getElementById('gltf-physics-data').textContent).bake")
    assert bake["frames"] == 61 and bake["nodes"] == [4] and page.state("duration") == 1.0
    page.call("pause()")
    page.call("seek(0.5)")
    page.frames_later(2)
    assert np.allclose(page.call("nodeWorldPosition(4)"), bake["translations"][30 * 3:31 * 3], atol=1e-5)
    assert page.errors == []


def test_clicking_a_validator_message_highlights_its_node(open_page, tmp_path):
    doc = load(fixture_path("OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf"))
    report = {"issues": {"messages": [
        {"code": "JOINT-6", "severity": 1, "pointer": "/nodes/6/extensions/x", "message": "hand-made"}]}}
    page = open_page(write_page(tmp_path / "msg.html", doc, read_scene(doc), report=report))
    page.page.click(".gp-message")
    assert page.state("highlightedNode") == 6
    assert page.page.locator(".gp-message.gp-selected").count() == 1
    page.page.click("#gp-play")  # the button toggles: playing → paused
    assert page.state("playing") is False
    assert page.errors == []
