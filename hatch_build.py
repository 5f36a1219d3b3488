"""Hatch build hook: build the browser viewer's bundle while installing from source.

`gltf-physics view` inlines ``src/gltf_physics/viewer_dist/viewer.js``, which is build output (git-ignored)
made from ``viewer/`` by esbuild. When the bundle is missing — a fresh clone, ``pip install .`` or
``pip install -e .`` — this hook runs the locked npm build (``npm ci`` then ``npm run build``), so the wheel,
the sdist and an editable install all carry it. An sdist already carries the bundle, so installing from one
needs no npm. Without npm the install still succeeds, and says how to build the viewer later.

Set ``GLTF_PHYSICS_SKIP_VIEWER_BUILD=1`` to skip the npm build (a wheel made then has no viewer).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

BUNDLE = Path("src", "gltf_physics", "viewer_dist", "viewer.js")
VIEWER = Path("viewer")
BUILD_HINT = "cd viewer && npm ci && npm run build"


class ViewerBuildHook(BuildHookInterface):
    """Runs the viewer's locked npm build before a wheel, editable wheel or sdist is made, if needed."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Build the bundle when it is missing and the viewer's sources are here (a source tree, not an sdist)."""
        root = Path(self.root)
        if (root / BUNDLE).is_file():
            return
        if not (root / VIEWER / "package-lock.json").is_file():
            self.app.display_warning(f"gltf-physics: {BUNDLE} is missing and there is no viewer/ to build it from;"
                                     " `gltf-physics view` will not work from this build")
            return
        if os.environ.get("GLTF_PHYSICS_SKIP_VIEWER_BUILD"):
            self.app.display_warning("gltf-physics: GLTF_PHYSICS_SKIP_VIEWER_BUILD is set: the viewer is not built")
            return
        npm = shutil.which("npm")
        if npm is None:
            self.app.display_warning(
                "gltf-physics: npm was not found, so the browser viewer was not built; everything but "
                f"`gltf-physics view` works. Install Node.js (with npm), then run `{BUILD_HINT}` or reinstall.")
            return
        self.app.display_info(f"gltf-physics: building the browser viewer ({BUILD_HINT})")
        for args in (["ci", "--no-audit", "--no-fund"], ["run", "build"]):
            done = subprocess.run([npm, *args], cwd=root / VIEWER, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"gltf-physics: `npm {' '.join(args)}` in viewer/ failed "
                                   f"(exit {done.returncode}):\n{done.stdout}\n{done.stderr}")
        if not (root / BUNDLE).is_file():
            raise RuntimeError(f"gltf-physics: the viewer build finished but {BUNDLE} is missing")
