"""A picture of the viewer page at a chosen time, taken by a headless chromium (`view --png OUT --at S`).

WebGL in a headless browser without a GPU needs SwiftShader (``--use-angle=swiftshader
--enable-unsafe-swiftshader``): a plain headless screenshot is a blank canvas. The page opens at a time given
in its address (``page.html#t=2.5``: the run there, paused; ``&still``: without the side panel), so the
screenshot shows that moment whatever the browser's time budget. The same command works by hand:

    chromium --headless --use-angle=swiftshader --enable-unsafe-swiftshader --window-size=1000,700 \\
        --virtual-time-budget=10000 --screenshot=scene.png 'file:///path/scene.html#t=2.5&still'
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..gltf.files import Output, write_all

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
ENV = "GLTF_PHYSICS_CHROMIUM"  # the browser to use, when it is not on PATH under a usual name
FLAGS = ["--headless", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--hide-scrollbars",
         # nothing to call home for: a screenshot of a self-contained page
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-default-apps", "--mute-audio"]
SIZE = (1000, 700)  # pixels
BUDGET_MS = 10_000  # virtual time for the page to parse the glTF and draw; a still page goes idle, so it passes at once
TIMEOUT = 120.0  # seconds of real time


class NoBrowser(FileNotFoundError):
    """No chromium to render with (a FileNotFoundError: the CLI reports it in one line, exit 2)."""


class BrowserFailed(OSError):
    """The browser ran but wrote no picture (an OSError: one line, exit 2)."""


def find_chromium() -> str | None:
    """The browser: ``$GLTF_PHYSICS_CHROMIUM``, else the first of the usual names on PATH."""
    chosen = os.environ.get(ENV)
    if chosen:
        return shutil.which(chosen) or (chosen if Path(chosen).is_file() else None)
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)


def screenshot(page_html: str, out: Path, at: float, *, size: tuple[int, int] = SIZE,
               browser: str | None = None) -> Path:
    """Write ``out`` (PNG, atomically): the page ``page_html`` at ``at`` seconds of its run, without the side
    panel. Raises NoBrowser without a chromium, BrowserFailed when the browser fails."""
    exe = browser or find_chromium()
    if exe is None:
        raise NoBrowser(f"no chromium found to render the page (install chromium or set {ENV})")
    with tempfile.TemporaryDirectory(prefix="gltf-physics-png-") as tmp:
        folder = Path(tmp)
        page, shot = folder / "page.html", folder / "shot.png"
        page.write_text(page_html, encoding="utf-8")
        args = [exe, *FLAGS, f"--window-size={size[0]},{size[1]}", f"--virtual-time-budget={BUDGET_MS}",
                f"--user-data-dir={folder / 'profile'}", f"--screenshot={shot}", f"{page.as_uri()}#t={at!r}&still"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # chromium refuses to run as root inside its sandbox
        done = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT, check=False)
        if done.returncode != 0 or not shot.is_file():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1][:300]
            raise BrowserFailed(f"{Path(exe).name} could not take the screenshot (exit {done.returncode}): {last}")
        write_all([Output(out, (shot.read_bytes(),))])
    return out
