"""Every command of README.md's "A tour" block exits 0, run in order from a fresh folder holding ``examples/``.

The block is parsed from the README itself (a command per line, the ``#`` comment cut). The tour names three
inputs no checkout ships; they are made here and substituted: ``model.glb`` (a plain model: a crate and a ball,
written by ``author_meshes`` as ``model.gltf``), ``robot.urdf`` (``r2d2.urdf`` of the installed ``pybullet_data``)
and ``assets/`` (a folder holding the tour's own ``boxes.khr.glb``). Two sizes are cut to keep the test short:
``sweep --runs 100`` runs 2, ``--workers 4`` is 1. ``view --live`` serves until Ctrl-C: it must print its
address, and stop on SIGINT with exit 0.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from author_meshes import box, document, write
from conftest import ROOT

NEEDS = ["pxr", "mujoco", "yourdfpy", "pybullet_data", "trimesh", "coacd", "dask", "pyarrow", "websockets"]
FENCE = re.compile(r"^## A tour\n+```\n(.*?)^```", flags=re.MULTILINE | re.DOTALL)
SUBSTITUTE = [(" model.glb ", " model.gltf "), ("'assets/**/*.glb'", "'assets/*.glb'"), ("--runs 100", "--runs 2"),
              ("--workers 4", "--workers 1")]


def tour() -> list[str]:
    """The tour's commands, in order, without their comments."""
    found = FENCE.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert found is not None, "README.md has no '## A tour' block"
    commands = []
    for line in found.group(1).splitlines():
        command = re.sub(r"\s+#\s.*$", "", line).strip()
        if command:
            commands.append(command)
    return commands


def test_the_tour_is_parsed_from_the_readme() -> None:
    commands = tour()
    assert all(c.startswith("gltf-physics ") for c in commands)
    assert "gltf-physics compare examples/tumbling_boxes.gltf" in commands
    assert len(commands) >= 13


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                                    os.environ.get("PYTHONPATH")]))}
    env["MPLBACKEND"] = "Agg"
    return env


def _inputs(folder: Path) -> None:
    shutil.copytree(ROOT / "examples", folder / "examples")
    write(folder / "model.gltf", document([("Crate", box(0.6, 0.4, 0.5)), ("Lid", box(0.6, 0.05, 0.5))],
                                          [{"name": "Crate", "mesh": 0, "translation": [0, 1, 0]},
                                           {"name": "Lid", "mesh": 1, "translation": [0, 2, 0]}]))


def _argv(command: str) -> list[str]:
    import shlex

    import pybullet_data

    robot = Path(pybullet_data.getDataPath()) / "r2d2.urdf"  # read in place: its meshes sit beside it
    for old, new in [*SUBSTITUTE, (" robot.urdf ", f" {shlex.quote(str(robot))} ")]:
        command = command.replace(old, new)
    return [sys.executable, "-m", "gltf_physics", *shlex.split(command)[1:]]


def _live(argv: list[str], folder: Path) -> tuple[int, str]:
    """Start the live server, wait for its address, stop it as Ctrl-C does."""
    proc = subprocess.Popen([*argv, "--port", "0"], cwd=folder, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()  # blocks until the server says where it listens (or exits)
    url = re.match(r"live at (http://\S+) ", line)
    assert url, line
    assert urllib.request.urlopen(url[1], timeout=60).status == 200  # it serves the page: then Ctrl-C
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, line + out + err


def test_every_tour_command_exits_0(tmp_path: Path) -> None:
    missing = [m for m in NEEDS if importlib.util.find_spec(m) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the tour needs {missing}")
        pytest.skip(f"the tour needs {missing} (optional extras)")
    _inputs(tmp_path)
    for command in tour():
        argv = _argv(command)
        if "assets/" in command:
            (tmp_path / "assets").mkdir(exist_ok=True)
            shutil.copy(tmp_path / "boxes.khr.glb", tmp_path / "assets" / "boxes.khr.glb")
        if "--live" in argv:
            code, output = _live(argv, tmp_path)
            assert code == 0 and output.startswith("live at http://127.0.0.1:"), output
            continue
        done = subprocess.run(argv, cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300,
                              check=False)
        assert done.returncode == 0, f"{command}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
    for written in ("boxes.khr.glb", "boxes.usda", "boxes.xml", "settled.gltf", "trace.csv", "model.physics.glb",
                    "robot.glb", "results.parquet", "runs.parquet", "examples/tumbling_boxes.html"):
        assert (tmp_path / written).is_file(), written
    assert (tmp_path / "examples" / "tumbling_boxes.gltf").read_bytes() == \
        (ROOT / "examples" / "tumbling_boxes.gltf").read_bytes()  # the tour never writes over its input
