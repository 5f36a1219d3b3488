"""Start-up: each command imports only what it needs — numpy not for `--help`, the physics engine only
for simulate, matplotlib only for `view --png`, pyarrow and Dask only for batch and sweep. (The CPU seconds this
saves are measured by bench/cli.py; here the imports themselves are asserted.)"""

from __future__ import annotations

import subprocess
import sys

from gltf_physics.cli import COMMANDS
from scale_helpers import ball, env, write

HEAVY = ["dask", "distributed", "matplotlib", "numpy", "pyarrow", "rapier3d"]
PROBE = """
import runpy, sys
sys.argv = ["gltf-physics", *sys.argv[1:]]
try:
    runpy.run_module("gltf_physics", run_name="__main__")
except SystemExit:
    pass
print(" ".join(sorted({m.split(".")[0] for m in sys.modules} & set(WATCHED))), file=sys.stderr)
print(" ".join(sorted(m for m in sys.modules if m.rpartition(".")[::2] in COMMANDS)), file=sys.stderr)
"""


def loaded(*args: str, watched: list[str] = HEAVY) -> tuple[str, str]:
    """The top-level modules of ``watched`` the command loads, and the command modules (``cli/<name>.py``)."""
    commands = [("gltf_physics.cli", name.replace("-", "_")) for name in COMMANDS]  # blender-extension
    probe = PROBE.replace("WATCHED", repr(watched)).replace("COMMANDS", repr(commands))
    result = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, env=env(),
                            timeout=120)
    lines = result.stderr.splitlines()
    assert len(lines) >= 2, result.stderr
    return lines[-2], lines[-1]


def heavy_modules(*args: str) -> str:
    return loaded(*args)[0]


def test_help_and_info_load_neither_the_engine_nor_dask(tmp_path):
    tiny = str(write(tmp_path / "tiny.gltf", ball()))
    assert heavy_modules("--help") == ""
    assert heavy_modules("batch", "--help") == ""
    assert heavy_modules("info", tiny) == "numpy"
    assert heavy_modules("validate", tiny) == "numpy"
    assert heavy_modules("simulate", tiny, "--duration", "0.1") == "numpy rapier3d"
    # matplotlib: --png only; the engine only for the run view embeds by default (none with --simulate 0)
    assert heavy_modules("view", tiny, "--simulate", "0", "--out", str(tmp_path / "page.html")) == "numpy"


def test_rich_pydantic_and_other_commands_stay_out_of_start_up(tmp_path):
    # typer 0.29 coerces every option value through a pydantic TypeAdapter (+0.13 s CPU a command): pyproject.toml
    # pins typer < 0.29. rich is for tables and progress bars; each command imports only its own module.
    import typer

    assert (0, 28) <= tuple(int(p) for p in typer.__version__.split(".")[:2]) < (0, 29), (
        f"typer {typer.__version__} is outside pyproject.toml's range (>=0.28,<0.29): pip install -e .")
    tiny = str(write(tmp_path / "tiny.gltf", ball()))
    watched = ["numpy", "pydantic", "rich"]
    assert loaded("batch", "--help", watched=watched) == ("", "gltf_physics.cli.batch")
    assert loaded("sweep", "--help", watched=watched) == ("", "gltf_physics.cli.sweep")
    assert loaded("info", tiny, "--json", watched=watched) == ("numpy", "gltf_physics.cli.info")
    assert loaded("info", tiny, watched=watched) == ("numpy", "gltf_physics.cli.info")  # plain-text table (cli/plain)
    every = " ".join(sorted(f"gltf_physics.cli.{name.replace('-', '_')}" for name in COMMANDS))
    assert loaded("--help", watched=watched) == ("", every)  # `--help` lists every command


def test_the_package_imports_lazily():
    code = ("import sys, gltf_physics as gp; before = {m.split('.')[0] for m in sys.modules}; "
            "gp.validate; import gltf_physics.scale, gltf_physics.validation; "
            "print(sorted(before & set(HEAVY)), callable(gp.validate), callable(gp.batch), gp.batch.__module__)"
            ).replace("HEAVY", repr(HEAVY))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env(), timeout=120)
    assert result.stdout == "[] True True gltf_physics.scale\n", result.stderr
