"""Re-make the viewer pictures of the README and the documentation, each made the way a user makes it and shot in
Debian's chromium (SwiftShader WebGL):

- docs/view-*.png: one page per extension family (`gltf-physics view IN`, default run);
- docs/add-before.png, docs/add-after.png: a plain mesh scene, then the same after `gltf-physics add` (`view --png`);
- docs/live-*.png: `gltf-physics view IN --live` driven with playwright: a drag, a car driven with W, the tuning
  panel.

    GLTF_PHYSICS_FIXTURES=/path/to/fixtures python tools/docs_screenshots.py [OUT_DIR] [view|add|live ...]
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the plain meshes and the hinge scene the tests use
FIXTURES = Path(os.environ.get("GLTF_PHYSICS_FIXTURES", ROOT.parent / "shared" / "fixtures"))
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
READY = "() => window.gltfPhysicsViewer && (window.gltfPhysicsViewer.ready || window.gltfPhysicsViewer.error)"
LIVE_READY = ("() => window.gltfPhysicsViewer && (window.gltfPhysicsViewer.error || (window.gltfPhysicsViewer.ready"
              " && window.gltfPhysicsViewer.live && window.gltfPhysicsViewer.live.hello))")
LIVE_VIEWPORT = {"width": 1000, "height": 650}
WAIT_MS = 120_000  # a bound: every wait ends as soon as its condition holds
MAX_BYTES = 150_000  # a bigger picture is stored with a 256-colour palette
CAR = "OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf"
# (picture name, fixture, seconds into the run, body node to follow or None)
SHOTS = [
    ("omi-physics-body", "OMI_physics_body/gen4-materials/triggers/triggers.gltf", 1.0, None),
    ("omi-physics-joint", "OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf", 0.2, None),
    ("khr-physics-rigid-bodies", "KHR_physics_rigid_bodies/gen3-implicit-shapes/ShapeTypes/ShapeTypes.gltf", 2.0,
     None),
    ("omi-vehicle", "OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf", 1.0, 0),  # followed: it falls
    ("omi-physics-gravity", "OMI_physics_gravity/gen1/ramp/ramp_gravity.glb", 2.0, None),
    ("omi-seat", "OMI_seat/gen1/simple_chair_pos_z.gltf", 0.0, None),
]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                                       os.environ.get("PYTHONPATH")]))}


def _cli(*args: str, cwd: Path) -> None:
    subprocess.run([sys.executable, "-m", "gltf_physics", *args], check=True, cwd=cwd, env=_env())


def _save(png: bytes, path: Path) -> None:
    """Write ``png``; a picture over MAX_BYTES is quantised to a 256-colour palette (the docs stay small)."""
    if len(png) > MAX_BYTES:
        from PIL import Image

        buf = io.BytesIO()
        Image.open(io.BytesIO(png)).convert("RGB").quantize(256).save(buf, format="PNG", optimize=True)
        png = buf.getvalue()
    path.write_bytes(png)
    print(path, f"{len(png) // 1000} kB")


def view_shots(browser: Any, out_dir: Path, tmp: Path) -> None:
    """docs/view-*.png: one fixture per extension family, paused at a chosen moment."""
    for name, fixture, at, follow in SHOTS:
        page_path = tmp / f"{name}.html"
        # Run from the asset's folder with its bare name, as a user would: the page's panel shows the path
        # it was given, and a picture must not carry this machine's folders.
        source = FIXTURES / fixture
        _cli("view", source.name, "--out", str(page_path), "-q", cwd=source.parent)
        page = browser.new_page(viewport={"width": 800, "height": 500})
        page.goto(page_path.as_uri(), wait_until="commit")
        page.wait_for_function(READY, timeout=WAIT_MS)
        page.evaluate("window.gltfPhysicsViewer.pause()")
        if follow is not None:
            page.evaluate(f"window.gltfPhysicsViewer.follow({follow})")
        page.evaluate(f"window.gltfPhysicsViewer.seek({at})")
        _drawn(page, 3)
        _save(page.screenshot(), out_dir / f"view-{name}.png")
        page.close()


def plain_scene(folder: Path) -> Path:
    """plain.gltf: a floor, a crate, a ring and an L-shaped bracket held in the air, coloured meshes, no physics."""
    import author_meshes as m

    meshes = [("Floor", m.box(4.0, 0.2, 4.0)), ("Crate", m.box(0.6, 0.4, 0.5)), ("Ring", m.torus()),
              ("Bracket", m.l_shape(0.8, 0.25))]
    tilt = [0.2588190, 0.0, 0.0, 0.9659258]  # 30° about x
    nodes = [{"name": "Floor", "mesh": 0, "translation": [0, -0.1, 0]},
             {"name": "Crate", "mesh": 1, "translation": [-1.1, 0.8, 0.3]},
             {"name": "Ring", "mesh": 2, "translation": [0.0, 1.4, -0.2], "rotation": tilt},
             {"name": "Bracket", "mesh": 3, "translation": [1.1, 1.0, 0.2], "rotation": tilt}]
    gltf = m.document(meshes, nodes)
    colours = [(0.35, 0.37, 0.40), (0.62, 0.42, 0.24), (0.16, 0.62, 0.56), (0.29, 0.47, 0.78)]
    gltf["materials"] = [{"pbrMetallicRoughness": {"baseColorFactor": [*c, 1.0], "metallicFactor": 0.0,
                                                   "roughnessFactor": 0.7}} for c in colours]
    for i, mesh in enumerate(gltf["meshes"]):
        mesh["primitives"][0]["material"] = i
    return m.write(folder / "plain.gltf", gltf)


def add_shots(out_dir: Path, tmp: Path) -> Path:
    """docs/add-before.png and docs/add-after.png; returns the physical file (the live drag plays with it)."""
    plain_scene(tmp)
    _cli("view", "plain.gltf", "--png", "add-before.png", "-q", cwd=tmp)
    _cli("add", "plain.gltf", "physical.gltf", "--body", "static=Floor", "--body", "dynamic=Crate",
         "--body", "dynamic=Ring", "--body", "dynamic=Bracket", "--collider", "auto", "--fast", "--seed", "1",
         cwd=tmp)
    _cli("view", "physical.gltf", "--png", "add-after.png", "--at", "2", "-q", cwd=tmp)
    for name in ("add-before", "add-after"):
        _save((tmp / f"{name}.png").read_bytes(), out_dir / f"{name}.png")
    return tmp / "physical.gltf"


@contextmanager
def live_page(browser: Any, source: Path, *extra: str) -> Iterator[Any]:
    """`gltf-physics view SOURCE --live` (from the file's folder, as a user runs it) and its page, open."""
    proc = subprocess.Popen([sys.executable, "-m", "gltf_physics", "view", source.name, "--live", *extra],
                            cwd=source.parent, env=_env(), stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # "live at URL (Ctrl-C stops)"
        if not line.startswith("live at "):
            raise RuntimeError(f"view --live said {line!r}")
        page = browser.new_page(viewport=LIVE_VIEWPORT)
        page.goto(line.split()[2])
        page.wait_for_function(LIVE_READY, timeout=WAIT_MS)
        if page.evaluate("window.gltfPhysicsViewer.error"):
            raise RuntimeError(page.evaluate("window.gltfPhysicsViewer.error"))
        yield page
        page.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _until(page: Any, condition: str) -> None:
    page.wait_for_function(f"() => {{ const v = window.gltfPhysicsViewer; return {condition}; }}",
                           timeout=WAIT_MS)


def _drawn(page: Any, frames: int) -> None:
    start = page.evaluate("window.gltfPhysicsViewer.framesRendered")
    _until(page, f"v.framesRendered >= {start + frames}")


def _client(page: Any, x: float, y: float, z: float) -> tuple[float, float]:
    px, py = page.evaluate(f"window.gltfPhysicsViewer.live.clientPoint({x}, {y}, {z})")
    return px, py


def live_drag(browser: Any, physical: Path, out: Path) -> None:
    """The crate of the `add` scene grabbed and pulled across the floor: the pull line from the grab point."""
    with live_page(browser, physical) as page:
        _until(page, "v.time >= 2.0")  # everything has landed
        # Paused first, so the picture keeps the spring stretched: the body waits, the page draws the pull.
        page.click("#gp-play")
        _until(page, "v.playing === false")
        x, y, z = page.evaluate("window.gltfPhysicsViewer.nodeWorldPosition(1)")
        grab = (x, y + 0.2, z)  # the crate's top face
        page.mouse.move(*_client(page, *grab))
        _until(page, "v.live.cursor === 'grab'")
        page.mouse.down()
        _until(page, "v.live.grabbing === 1")
        page.mouse.move(*_client(page, x - 0.7, grab[1], z + 0.7), steps=8)  # to the left on screen
        _drawn(page, 3)
        _save(page.screenshot(), out)
        page.mouse.up()


def live_drive(browser: Any, out: Path) -> None:
    """The OMI simple car on the `--ground` ground, W held for two seconds: the chase camera behind it."""
    car = FIXTURES / CAR
    with live_page(browser, car, "--ground") as page:
        _until(page, "v.time >= 1.0")  # dropped onto its wheels
        page.locator("body").focus()
        page.keyboard.down("KeyW")
        _until(page, "v.live.chase === true")
        t = page.evaluate("window.gltfPhysicsViewer.time")
        _until(page, f"v.time >= {t + 1.5}")
        page.keyboard.down("KeyA")  # a left turn for the last half second: the front wheels show it
        _until(page, f"v.time >= {t + 2.0}")
        _drawn(page, 2)
        _save(page.screenshot(), out)
        page.keyboard.up("KeyA")
        page.keyboard.up("KeyW")


def live_tune(browser: Any, tmp: Path, out: Path) -> None:
    """The browser test's hinged arm, its drive's position target slid to 45°: the panel and the turned arm."""
    import live_scenes

    pointer = "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives/0/positionTarget"
    with live_page(browser, live_scenes.hinge(tmp)) as page:
        slider = page.locator(f'input[type=range][data-pointer="{pointer}"]')
        slider.fill("45")
        _until(page, f"v.live.applied.some((a) => a.pointer === {pointer!r})")
        t = page.evaluate("window.gltfPhysicsViewer.time")
        _until(page, f"v.time >= {t + 1.5}")
        page.evaluate("window.gltfPhysicsViewer.live.frameScene()")  # the floor too: the arm's angle reads
        page.mouse.move(*_client(page, 0.0, 1.0, 0.0))
        page.mouse.wheel(0, -800)  # closer, as a user zooms in on the arm
        _drawn(page, 3)
        _save(page.screenshot(), out)


def main(out_dir: Path, groups: set[str]) -> None:
    """Make the pictures of ``groups`` (view, add, live) in ``out_dir``."""
    from playwright.sync_api import sync_playwright

    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as name, sync_playwright() as p:
        tmp = Path(name)
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        if "view" in groups:
            view_shots(browser, out_dir, tmp)
        if groups & {"add", "live"}:
            physical = add_shots(out_dir, tmp)
        if "live" in groups:
            live_drag(browser, physical, out_dir / "live-drag.png")
            live_drive(browser, out_dir / "live-drive.png")
            live_tune(browser, tmp, out_dir / "live-tune.png")
        browser.close()


if __name__ == "__main__":
    words = sys.argv[1:]
    chosen = {w for w in words if w in ("view", "add", "live")}
    folders = [w for w in words if w not in chosen]
    main(Path(folders[0]) if folders else ROOT / "docs", chosen or {"view", "add", "live"})
