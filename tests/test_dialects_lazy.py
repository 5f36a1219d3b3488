"""The dialect package imports a family's reader only for documents that name that family:
the extension names it gates on must be exactly the ones each reader reads."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from gltf_physics.dialects import registry
from gltf_physics.dialects.registry import FAMILIES, PHYSICS_EXTENSIONS
from scale_helpers import ball, env, write

SRC = Path(registry.__file__).parents[1]


def test_each_family_module_reads_exactly_its_registry_record() -> None:
    for family in FAMILIES:
        assert family.extensions == family.module().EXTENSIONS, family.key


def test_the_registry_lists_every_physics_extension_once() -> None:
    assert len(set(PHYSICS_EXTENSIONS)) == len(PHYSICS_EXTENSIONS) == 14
    assert [f.key for f in FAMILIES] == ["omi_physics", "khr_physics", "omi_vehicle", "omi_gravity", "omi_seat"]


def _name_literals(path: Path) -> list[tuple[int, str]]:
    """String constants in ``path`` that are exactly an extension name (not prose that mentions one)."""
    names = set(PHYSICS_EXTENSIONS)
    return [(node.lineno, node.value) for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and node.value in names]


def test_no_module_but_the_registry_spells_an_extension_name() -> None:
    spelled = {str(path.relative_to(SRC)): found for path in sorted(SRC.rglob("*.py"))
               if path != Path(registry.__file__) and (found := _name_literals(path))}
    assert spelled == {}


def test_the_registry_spells_each_name_once() -> None:
    text = Path(registry.__file__).read_text()
    for name in PHYSICS_EXTENSIONS:
        assert len(re.findall(rf'"{name}"', text)) == 1, name


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
