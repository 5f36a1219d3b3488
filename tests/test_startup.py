"""Start-up (issue 14): each command imports only what it needs — numpy not for `--help`, the physics engine only
for simulate, matplotlib only for `view --png`, pyarrow and Dask only for batch and sweep. (The CPU seconds this
saves are measured by bench/cli.py; here the imports themselves are asserted.)"""

from __future__ import annotations

import subprocess
import sys

from scale_helpers import ball, env, write

HEAVY = ["dask", "distributed", "matplotlib", "numpy", "pyarrow", "rapier3d"]
PROBE = """
import runpy, sys
sys.argv = ["gltf-physics", *sys.argv[1:]]
try:
    runpy.run_module("gltf_physics", run_name="__main__")
except SystemExit:
    pass
print(" ".join(sorted({m.split(".")[0] for m in sys.modules} & set(HEAVY))), file=sys.stderr)
""".replace("HEAVY", repr(HEAVY))


def heavy_modules(*args: str) -> str:
    result = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env(),
                            timeout=120)
    return result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""


def test_help_and_info_load_neither_the_engine_nor_dask(tmp_path):
    tiny = str(write(tmp_path / "tiny.gltf", ball()))
    assert heavy_modules("--help") == ""
    assert heavy_modules("batch", "--help") == ""
    assert heavy_modules("info", tiny) == "numpy"
    assert heavy_modules("validate", tiny) == "numpy"
    assert heavy_modules("simulate", tiny, "--duration", "0.1") == "numpy rapier3d"
    # matplotlib: --png only; the engine only for the run view embeds by default (none with --simulate 0)
    assert heavy_modules("view", tiny, "--simulate", "0", "--out", str(tmp_path / "page.html")) == "numpy"


def test_the_package_imports_lazily():
    code = ("import sys, gltf_physics as gp; before = {m.split('.')[0] for m in sys.modules}; "
            "gp.validate; import gltf_physics.batch, gltf_physics.validate; "
            "print(sorted(before & set(HEAVY)), callable(gp.validate), callable(gp.batch), gp.batch.__module__)"
            ).replace("HEAVY", repr(HEAVY))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env(), timeout=120)
    assert result.stdout == "[] True True gltf_physics.batch\n", result.stderr
