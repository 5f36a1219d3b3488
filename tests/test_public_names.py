"""Every package says what it exports: ``__all__`` names that resolve (lazily where the package imports on
use), a ``dir()`` that lists them before first use (tab completion), and every module importable by its
dotted name."""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import subprocess
import sys

import pytest

import gltf_physics
from scale_helpers import env

MODULES = sorted(m.name for m in pkgutil.walk_packages(gltf_physics.__path__, "gltf_physics.")
                 if not m.name.endswith("__main__"))
PACKAGES = ["gltf_physics", *sorted(m.name for m in pkgutil.walk_packages(gltf_physics.__path__, "gltf_physics.")
                                    if m.ispkg)]
EXPORTING = [p for p in PACKAGES if "__all__" in vars(importlib.import_module(p))]


# The Blender add-on's bpy-bound modules import Blender (the bpy package): checked where it is installed, and
# always under CI (which installs it); tests/test_blender_room.py checks the rest of the room without it.
NEEDS_BPY = {"gltf_physics.blender.addon", "gltf_physics.blender.exporter", "gltf_physics.blender.importer",
             "gltf_physics.blender.joints"}


def test_every_module_imports_by_its_dotted_name() -> None:
    assert len(MODULES) > 150
    no_bpy = importlib.util.find_spec("bpy") is None and os.environ.get("CI") != "true"
    for name in MODULES:
        if no_bpy and name in NEEDS_BPY:
            continue
        assert importlib.import_module(name).__name__ == name


def test_the_packages_that_name_their_api() -> None:
    # The extension families (dialects/*) and the engines (sim/rapier, sim/mujoco) are reached through their
    # registries and the runtime, not by name from outside.
    assert sorted(set(PACKAGES) - set(EXPORTING)) == [
        "gltf_physics.dialects.common", "gltf_physics.dialects.khr_physics", "gltf_physics.dialects.omi_gravity",
        "gltf_physics.dialects.omi_physics", "gltf_physics.dialects.omi_seat", "gltf_physics.dialects.omi_vehicle",
        "gltf_physics.sim.mujoco", "gltf_physics.sim.rapier"]


@pytest.mark.parametrize("package", EXPORTING)
def test_all_resolves_and_dir_lists_it(package: str) -> None:
    module = importlib.import_module(package)
    names = list(module.__all__)
    assert len(names) == len(set(names))
    for name in names:
        assert getattr(module, name) is not None, name
    assert set(names) <= set(dir(module))


@pytest.mark.parametrize("package", ["gltf_physics", "gltf_physics.geometry", "gltf_physics.model",
                                     "gltf_physics.gltf", "gltf_physics.view", "gltf_physics.cli"])
def test_dir_lists_lazy_names_before_first_use(package: str) -> None:
    code = f"import {package} as p; print(sorted(set(p.__all__) - set(dir(p))))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env(), timeout=120)
    assert result.stdout == "[]\n", result.stderr
