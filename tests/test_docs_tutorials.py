"""Every tutorial runs as written: its ``console`` commands and its ``python`` blocks, in order, from a fresh
folder holding the repository's ``examples/`` (the tutorials tell the reader to run them from the repository's
root, and use only the shipped example and what earlier commands wrote).

``sh`` and ``text`` blocks are not run: they show output, or need something a test cannot give (a server that runs
until Ctrl-C, a browser). Each command and block must exit 0. A tutorial whose optional extra is missing skips,
except under CI=true.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

TUTORIALS = ROOT / "docs" / "tutorials"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", flags=re.MULTILINE | re.DOTALL)
# The modules a tutorial needs beyond the base install.
NEEDS = {"convert-for-engine": ["pxr"], "robots": ["mujoco"], "batch-and-sweep": ["dask", "pyarrow"],
         "add-physics": ["trimesh", "coacd"], "robot-control": ["yourdfpy", "trimesh", "pybullet_data"]}


def steps(page: Path) -> list[tuple[str, str]]:
    """The runnable steps of a page in order: ("console", one command) or ("python", one block)."""
    found: list[tuple[str, str]] = []
    for lang, body in FENCE.findall(page.read_text(encoding="utf-8")):
        if lang == "console":  # `$ ` starts a command; a line ending in a backslash continues on the next
            command: list[str] = []
            for line in body.splitlines():
                if line.startswith("$ ") or (command and command[-1].endswith("\\")):
                    command.append(line.removeprefix("$ "))
                if command and not command[-1].endswith("\\"):
                    found.append(("console", "\n".join(command)))
                    command = []
        elif lang == "python":
            found.append(("python", body))
    return found


def pages() -> list[str]:
    return sorted(p.stem for p in TUTORIALS.glob("*.md") if p.stem != "index")


def test_commands_continue_over_backslashed_lines(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```console\n$ a --x \\\n    --y\noutput\n$ b\n```\n```sh\nc\n```\n", encoding="utf-8")
    assert steps(page) == [("console", "a --x \\\n    --y"), ("console", "b")]


def test_every_tutorial_has_runnable_steps() -> None:
    assert pages() == ["add-physics", "batch-and-sweep", "convert-for-engine", "interactive-asset", "robot-control",
                       "robots", "simulate-and-plot", "validate-library", "view-and-share"]
    for name in pages():
        assert any(kind == "console" for kind, _ in steps(TUTORIALS / f"{name}.md")), name


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                                    os.environ.get("PYTHONPATH")]))}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["MPLBACKEND"] = "Agg"
    return env


@pytest.mark.parametrize("name", pages())
def test_tutorial_runs_as_written(name: str, tmp_path: Path) -> None:
    missing = [m for m in NEEDS.get(name, []) if importlib.util.find_spec(m) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} needs {missing}")
        pytest.skip(f"{name} needs {missing} (an optional extra)")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    # `gltf-physics` is this checkout's command line, whatever the environment has installed.
    prelude = f'gltf-physics() {{ "{sys.executable}" -m gltf_physics "$@"; }}\n'
    for i, (kind, text) in enumerate(steps(TUTORIALS / f"{name}.md")):
        if kind == "console":
            args = ["bash", "-c", prelude + text]
        else:
            script = tmp_path / f"step_{i}.py"
            script.write_text(text, encoding="utf-8")
            args = [sys.executable, str(script)]
        done = subprocess.run(args, cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300,
                              check=False)
        assert done.returncode == 0, f"{name} step {i} ({kind}): {text[:200]}\n{done.stdout[-1500:]}\n" \
                                     f"{done.stderr[-3000:]}"
    # No tutorial writes over its input.
    assert (tmp_path / "examples" / "tumbling_boxes.gltf").read_bytes() == \
        (ROOT / "examples" / "tumbling_boxes.gltf").read_bytes()


def test_readme_python_runs_as_written(tmp_path: Path) -> None:
    blocks = [body for lang, body in FENCE.findall((ROOT / "README.md").read_text(encoding="utf-8"))
              if lang == "python"]
    assert len(blocks) == 1
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    # The robot the block drives, converted as the README says: PyBullet's A1 (an installed test package).
    import pybullet_data

    urdf = Path(pybullet_data.getDataPath()) / "a1" / "a1.urdf"
    made = subprocess.run([sys.executable, "-m", "gltf_physics", "convert", str(urdf), "a1.glb", "--to", "khr", "-q"],
                          cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300, check=False)
    assert made.returncode == 0, made.stderr[-3000:]
    script = tmp_path / "readme.py"
    script.write_text(blocks[0], encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=_env(), capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "boxes.khr.gltf").is_file()
    assert "'event': 'enter', 'trigger': 8, 'node': 3" in done.stdout  # the ball reaches the landing zone
    knee = float(done.stdout.splitlines()[-1])  # FR_upper_joint after one step towards 0.8 rad from its start
    assert 0.0 < knee < 0.8
