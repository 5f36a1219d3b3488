"""The dialect package imports a family's reader only for documents that name that family (issue 14 start-up):
the extension names it gates on must be exactly the ones each reader reads."""

from __future__ import annotations

import importlib
import subprocess
import sys

from gltf_physics.dialects import FAMILIES, PHYSICS_EXTENSIONS
from gltf_physics.dialects.common.checks import PHYSICS_EXTENSIONS as CHECKED
from scale_helpers import ball, env, write


def test_each_family_gates_on_exactly_the_extensions_its_module_reads() -> None:
    for name, names in FAMILIES.items():
        module = importlib.import_module(f"gltf_physics.dialects.{name}")
        assert names == module.EXTENSIONS, name


def test_the_writers_strip_every_extension_the_checkers_know() -> None:
    assert sorted(PHYSICS_EXTENSIONS) == sorted(CHECKED)
    assert len(set(PHYSICS_EXTENSIONS)) == len(PHYSICS_EXTENSIONS) == 14


PROBE = """
import sys
import gltf_physics as gp
gp.read_scene(gp.load(sys.argv[1]))
print(" ".join(sorted(m.removeprefix("gltf_physics.dialects.") for m in sys.modules
                     if m.startswith("gltf_physics.dialects."))))
"""


def test_reading_a_khr_file_imports_no_omi_reader_and_no_writer(tmp_path) -> None:
    tiny = write(tmp_path / "tiny.gltf", ball())
    loaded = subprocess.run([sys.executable, "-c", PROBE, str(tiny)], capture_output=True, text=True, env=env(),
                            timeout=120, check=True).stdout.split()
    assert "khr_physics.rigid_bodies" in loaded
    assert [m for m in loaded if m.startswith("omi_") or m.endswith(".write")] == []
