"""Re-make the viewer pictures of the README and the documentation (docs/view-*.png): one page per extension
family, made the way a user makes it (`gltf-physics view IN`, default run), shot in Debian's chromium.

    GLTF_PHYSICS_FIXTURES=/path/to/fixtures python tools/docs_screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(os.environ.get("GLTF_PHYSICS_FIXTURES", ROOT.parent / "shared" / "fixtures"))
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
READY = "() => window.gltfPhysicsViewer && (window.gltfPhysicsViewer.ready || window.gltfPhysicsViewer.error)"
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


def main(out_dir: Path) -> None:
    from playwright.sync_api import sync_playwright

    out_dir.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        for name, fixture, at, follow in SHOTS:
            page_path = Path(tmp) / f"{name}.html"
            # Run from the asset's folder with its bare name, as a user would: the page's panel shows the path
            # it was given, and a picture must not carry this machine's folders.
            source = FIXTURES / fixture
            subprocess.run([sys.executable, "-m", "gltf_physics", "view", source.name, "--out", str(page_path),
                            "-q"], check=True, cwd=source.parent, env=env)
            page = browser.new_page(viewport={"width": 800, "height": 500})
            page.goto(page_path.as_uri(), wait_until="commit")
            page.wait_for_function(READY, timeout=120_000)
            page.evaluate("window.gltfPhysicsViewer.pause()")
            if follow is not None:
                page.evaluate(f"window.gltfPhysicsViewer.follow({follow})")
            page.evaluate(f"window.gltfPhysicsViewer.seek({at})")
            start = page.evaluate("window.gltfPhysicsViewer.framesRendered")
            page.wait_for_function(f"() => window.gltfPhysicsViewer.framesRendered >= {start + 3}")
            page.screenshot(path=str(out_dir / f"view-{name}.png"))
            page.close()
            print(out_dir / f"view-{name}.png")
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs")
