"""Without the [scale] extra, `batch` and `sweep` say which pip command adds it: one line, exit 2 (the extra's
modules made unimportable in a fresh interpreter, as if never installed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
GRAVITY = "/nodes/3/extensions/OMI_physics_body/motion/gravityFactor"


def without(modules: list[str], folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`gltf-physics ARGS` in a fresh interpreter where ``modules`` cannot be imported (None in sys.modules makes
    every import of them raise ModuleNotFoundError, as for a package that is not installed), run in ``folder``."""
    code = ("import sys\n"
            f"for name in {modules!r}:\n    sys.modules[name] = None\n"
            "from gltf_physics.cli import main\n"
            f"main({list(args)!r})\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=folder,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})


@pytest.mark.parametrize(("missing", "args", "message"), [
    (["pyarrow"], ["batch", "validate", str(EXAMPLE)], "batch needs the [scale] extra (pyarrow is not installed)"),
    (["distributed"], ["batch", "info", str(EXAMPLE)], "batch needs the [scale] extra (distributed is not installed)"),
    (["pyarrow", "dask", "distributed"],
     ["sweep", str(EXAMPLE), "--vary", f"{GRAVITY}=grid(0,1,2)", "--out", "runs.parquet"],
     "sweep needs the [scale] extra (pyarrow is not installed)"),
])
def test_batch_and_sweep_without_the_scale_extra_print_the_pip_command(missing: list[str], args: list[str],
                                                                       message: str, tmp_path: Path) -> None:
    r = without(missing, tmp_path, *args)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", f"{message}: pip install 'gltf-physics[scale]'\n")
    assert not (tmp_path / "runs.parquet").exists()
