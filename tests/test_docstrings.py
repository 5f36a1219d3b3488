"""Every public name documents itself in one style — a summary line, then an ``Example:``.

`help(gp.World)` and `python -m pydoc gltf_physics.World` are what a newcomer reads first.
"""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

import gltf_physics as gp

PUBLIC = [name for name in gp.__all__ if not name.startswith("__")]  # __version__ is a string
WORLD_MEMBERS = sorted(n for n, _ in inspect.getmembers(gp.World) if not n.startswith("_"))


def _doc(obj: object) -> str:
    return inspect.getdoc(obj) or ""


@pytest.mark.parametrize("name", PUBLIC)
def test_every_exported_name_has_a_docstring_with_an_example(name: str) -> None:
    doc = _doc(getattr(gp, name))
    assert doc.split("\n")[0].strip(), f"gp.{name} has no summary line"
    assert "Example:\n    >>> " in doc, f"gp.{name} has no example"


@pytest.mark.parametrize("name", WORLD_MEMBERS)
def test_every_public_world_method_and_property_has_a_docstring_with_an_example(name: str) -> None:
    doc = _doc(inspect.getattr_static(gp.World, name))
    if isinstance(inspect.getattr_static(gp.World, name), classmethod):
        doc = _doc(getattr(gp.World, name))
    assert doc.split("\n")[0].strip(), f"World.{name} has no summary line"
    assert "Example:\n    >>> " in doc, f"World.{name} has no example"


def test_world_members_checked_are_the_api() -> None:
    # The list above is not empty by accident: the facade's methods and properties, as documented in README.
    assert {"dt", "events", "from_file", "mass_properties", "pose", "poses", "restore", "run", "seat_frame",
            "set", "snapshot", "step", "time"} <= set(WORLD_MEMBERS)


def test_mass_properties_is_typed_and_from_file_spells_out_its_options() -> None:
    hints = inspect.signature(gp.World.mass_properties).return_annotation
    assert hints == "MassProperties | None"
    params = inspect.signature(gp.World.from_file).parameters
    from gltf_physics.sim.world import OPTIONS

    assert [p for p in params if p not in ("path", "unknown")] == list(OPTIONS)
    assert OPTIONS[:7] == ("rate", "substeps", "gravity", "density", "record", "mesh_source", "threads")


def test_pydoc_world_reads_as_a_class_with_its_docstring() -> None:
    text = subprocess.run([sys.executable, "-m", "pydoc", "gltf_physics.World"], capture_output=True, text=True,
                          timeout=120, check=True).stdout
    assert "A running simulation of one physics scene on Rapier, stepped at a fixed rate." in text
    assert "from_file(path: 'str | Path', *, rate: 'float' = 60.0" in text
