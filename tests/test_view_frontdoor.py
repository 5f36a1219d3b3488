"""The viewer's first frame is on the bodies that move; `view --png --at S` pictures the page at S seconds with a
headless chromium (SwiftShader WebGL), the page opening there from its address (``#t=S&still``). Without
chromium (or playwright) these skip, except under CI=true."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from gltf_physics.view import headless
from test_view_browser import Page, browser  # noqa: F401  (browser: the module's fixture)

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"


def chromium() -> str:
    found = headless.find_chromium()
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no chromium (apt-get install -y chromium)")
        pytest.skip("no chromium (apt-get install -y chromium)")
    return found


def gltf_physics(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gltf_physics", *map(str, args)], capture_output=True, text=True,
                          timeout=300, check=False, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_first_frame_is_on_the_moving_bodies_not_a_huge_floor(browser, tmp_path: Path) -> None:  # noqa: F811
    doc = json.loads(EXAMPLE.read_text())
    doc["nodes"][0]["translation"] = [60.0, -0.5, 0.0]  # a 200 m floor, off to one side
    doc["extensions"]["OMI_physics_shape"]["shapes"][0]["box"]["size"] = [200, 1, 200]
    path = tmp_path / "floor.gltf"
    path.write_text(json.dumps(doc))
    done = gltf_physics("view", path, "--out", tmp_path / "floor.html", "--simulate", "1", "-q")
    assert done.returncode == 0, done.stderr
    page = Page(browser, tmp_path / "floor.html")
    try:
        page.call("pause()")
        page.call("seek(0)")
        page.frames_later(2)
        assert page.state("framed") == "moving"
        width = page.page.evaluate("document.querySelector('#gp-view canvas').clientWidth")
        box_a, ball = page.call("nodeScreenPosition(1)"), page.call("nodeScreenPosition(3)")
        # BoxA (x = -1.5) and the Ball (x = 1.5) are 3 m apart: framed on what moves (their paths over the run and
        # the floor's strip within the margin of them) they are a good part of the view apart; framed on the
        # 200 m floor they would be a few pixels (3 / 200 of the width) apart.
        assert abs(ball[0] - box_a[0]) > 0.1 * width
        assert all(0 <= p[0] <= width for p in (box_a, ball))
    finally:
        page.page.close()


def test_png_at_a_moment_is_the_page_at_that_time(tmp_path: Path) -> None:
    exe = chromium()
    shot = tmp_path / "boxes.png"
    done = gltf_physics("view", EXAMPLE, "--png", shot, "--at", "1", "--simulate", "3")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"wrote {shot} (at t = 1 s of a run of 3 s, 180 steps: 4 moving bodies, 3 trigger events)\n"
    assert png_size(shot) == headless.SIZE
    # The same address in a plain headless chromium: the page opens paused at 1 s without its side panel.
    page = tmp_path / "boxes.html"
    assert gltf_physics("view", EXAMPLE, "--out", page, "--simulate", "3", "-q").returncode == 0
    dom = subprocess.run([exe, *headless.FLAGS, "--no-sandbox", f"--virtual-time-budget={headless.BUDGET_MS}",
                          f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", f"{page.as_uri()}#t=1&still"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert '<span id="gp-time">1.00 / 3.00 s</span>' in dom
    assert '<div id="gp-side" style="display: none;">' in dom
    assert 'data-framed="moving"' in dom
    assert "0.817 s LandingZone (#8) starts touching Ball (#3)" in dom  # the trigger is the subject


@pytest.mark.parametrize(("args", "message"), [
    (["--at", "1"], "--at 1: needs --png OUT.png (the picture of that moment)"),
    (["--png", "x.png", "--at", "4", "--simulate", "3"],
     "--at 4: after the end of the run (3 s); --simulate 4 runs that long"),
    (["--png", "x.png", "--at", "-1"], "--at -1: the moment to picture in seconds must be ≥ 0"),
])
def test_png_at_errors(tmp_path: Path, args: list[str], message: str) -> None:
    done = gltf_physics("view", EXAMPLE, *args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message + "\n")


def test_png_at_without_a_browser_says_so(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(headless.ENV, str(tmp_path / "no-such-browser"))
    done = gltf_physics("view", EXAMPLE, "--png", tmp_path / "x.png", "--at", "1", "--simulate", "2")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("--at 1: no chromium found to render the page (install chromium or set "
                           "GLTF_PHYSICS_CHROMIUM); without --at a browserless preview is drawn\n")
    done = gltf_physics("view", EXAMPLE, "--png", tmp_path / "x.png", "--simulate", "1")
    assert done.returncode == 0 and png_size(tmp_path / "x.png") == (800, 600)  # the matplotlib preview
