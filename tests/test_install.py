"""Installing from source gives a working viewer: no manual npm step.

A clean copy of the repository (its tracked and unignored files: no viewer_dist/, no node_modules/) is
installed with plain `pip install .` into a fresh venv; the hatch build hook (hatch_build.py) runs the locked
npm build, and the installed `gltf-physics view` writes a page that draws in Debian's chromium. Needs npm and
network access to PyPI and the npm registry (pip's and npm's caches make reruns quick); without npm or chromium
it skips, except under CI=true.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, fixture_path
from test_view_browser import Page, _unavailable, browser  # noqa: F401  (browser: the module's fixture)

FIXTURE = "OMI_physics_body/gen4-materials/triggers/triggers.gltf"
BUNDLE = Path("gltf_physics", "viewer_dist", "viewer.js")


def _clean_copy(dst: Path) -> Path:
    """The repository as a fresh clone would have it, plus uncommitted edits: git's unignored files only."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=False)
    if listed.returncode != 0:
        _unavailable("not a git checkout: cannot tell source files from build output")
    for name in filter(None, listed.stdout.decode().split("\0")):
        src = ROOT / name
        if src.is_file():
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / name)
    return dst


def test_pip_install_builds_the_viewer_and_view_draws(browser, tmp_path: Path) -> None:  # noqa: F811
    if shutil.which("npm") is None:
        _unavailable("npm not found: the build hook needs it")
    repo = _clean_copy(tmp_path / "repo")
    assert not (repo / "src" / BUNDLE).exists() and not (repo / "viewer" / "node_modules").exists()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)  # the installed package, not this checkout
    done = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(repo)], env=env, capture_output=True,
                          text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert (site / BUNDLE).stat().st_size > 100_000  # three.js and the viewer, bundled

    page_path = tmp_path / "triggers.html"
    shown = subprocess.run([str(venv / "bin" / "gltf-physics"), "view", str(fixture_path(FIXTURE)),
                            "--out", str(page_path)], env=env, capture_output=True, text=True, timeout=300,
                           check=False)
    assert shown.returncode == 0, shown.stderr
    # Simulated by default: 5 s at 60 Hz, the one dynamic body, the triggers it crosses.
    assert shown.stdout == f"wrote {page_path} (a run of 5 s, 300 steps: 1 moving body, 4 trigger events)\n"
    page = Page(browser, page_path)
    try:
        assert page.state("error") is None and page.state("baked") is True and page.state("duration") == 5.0
        assert page.distinct_colours() > 30  # drawn, not blank
        assert page.errors == []
    finally:
        page.page.close()
