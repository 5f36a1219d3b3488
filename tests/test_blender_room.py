"""The Blender room without Blender: `import gltf_physics.blender` needs no bpy, only blender/ imports bpy, the
kept-objects codec round-trips, the axes are Blender's glTF IO's, and the extension zip is well formed."""

from __future__ import annotations

import ast
import base64
import hashlib
import io
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import numpy as np
import pytest

import gltf_physics as gp
from conftest import ROOT, fixture_path
from gltf_physics.blender import axes, extension, keep

SRC = ROOT / "src" / "gltf_physics"
BPY_BOUND = {"addon.py", "exporter.py", "importer.py", "joints.py"}


def test_the_package_imports_without_bpy() -> None:
    code = ("import sys; sys.modules['bpy'] = None; import gltf_physics.blender as gpb; "
            "from gltf_physics.blender import axes, keep, extension; "
            "print(sorted(gpb.__all__), 'bpy' in sys.modules and sys.modules['bpy'] is not None)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "['ADDON', 'LAST', 'disable', 'enable', 'export_file', 'import_file'] False", \
        done.stderr


def _imports_bpy(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text())):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        if any(n in ("bpy", "addon_utils", "mathutils") or n.startswith(("bpy.", "mathutils.")) for n in names):
            return True
    return False


def test_only_the_blender_room_imports_bpy() -> None:
    importing = {p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py") if _imports_bpy(p)}
    # __init__.py imports bpy only inside enable()/import_file()/export_file(), never at import time
    assert importing == {f"blender/{n}" for n in BPY_BOUND} | {"blender/__init__.py"}
    init = ast.parse((SRC / "blender" / "__init__.py").read_text())
    assert not any(isinstance(n, ast.Import | ast.ImportFrom) and any(a.name == "bpy" for a in n.names)
                   for n in init.body)


def test_kept_objects_come_back_with_new_node_numbers() -> None:
    scene = gp.read_scene(gp.load(fixture_path("OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf")))
    names = {i: f"obj{i}" for i in range(100)}
    text = keep.encode(scene, names.get)
    shift = {f"obj{i}": i + 7 for i in range(100)}  # the exporter numbers nodes its own way
    back = gp.PhysicsScene()
    assert keep.decode(text, back, shift.get) == []
    assert [w.node - 7 for w in back.wheels] == [w.node for w in scene.wheels]
    assert [(s.back, s.foot, s.knee) for s in back.seats] == [(s.back, s.foot, s.knee) for s in scene.seats]
    assert [v.pilot_seat - 7 for v in back.vehicles] == [v.pilot_seat for v in scene.vehicles]
    assert [t.node - 7 for t in back.triggers] == [t.node for t in scene.triggers]
    assert [t.shape for t in back.triggers] == [t.shape for t in scene.triggers]
    assert back.wheels[0].radius == scene.wheels[0].radius and len(back.wheels) == 4


def test_a_kept_object_whose_node_is_gone_is_named() -> None:
    scene = gp.read_scene(gp.load(fixture_path("OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf")))
    text = keep.encode(scene, lambda n: f"obj{n}")
    dropped = keep.decode(text, gp.PhysicsScene(), lambda name: None)
    assert dropped[0].startswith("trigger: object 'obj")


def test_axes_are_the_gltf_io_conversion() -> None:
    # Blender's glTF IO: glTF (x, y, z) is Blender (x, -z, y), a +90° turn about X
    assert axes.to_blender_vector((1, 2, 3)) == (1, -3, 2)
    assert axes.to_gltf_vector(axes.to_blender_vector((1, 2, 3))) == (1, 2, 3)
    turn = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]])
    assert np.array_equal(axes.C[:3, :3], turn) and np.linalg.det(turn) == 1
    m = np.eye(4)
    m[:3, 3] = (1, 2, 3)
    assert np.allclose(axes.node_to_blender(m)[:3, 3], (1, -3, 2))
    assert np.allclose(axes.node_to_gltf(axes.node_to_blender(m)), m)


def _fake_fetch(requirement: str, tags: tuple[str, ...], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / f"{requirement.replace('==', '-')}-cp311-cp311-{tags[0]}.whl"
    wheel.write_bytes(b"wheel for " + tags[0].encode())
    return wheel


def test_the_extension_zip_lists_its_wheels_per_platform(tmp_path: Path) -> None:
    made = extension.build(tmp_path / "ext.zip", ("linux-x64", "windows-x64"), fetch=_fake_fetch)
    with zipfile.ZipFile(made.path) as z:
        manifest = tomllib.loads(z.read("blender_manifest.toml").decode())
        names = set(z.namelist())
        own = z.read(f"wheels/gltf_physics-{gp.__version__}-py3-none-any.whl")
    assert manifest["id"] == "gltf_physics" and manifest["type"] == "add-on"
    assert manifest["blender_version_min"] == "4.2.0"
    assert manifest["platforms"] == ["linux-x64", "windows-x64"]
    assert sorted(w.removeprefix("./") for w in manifest["wheels"]) == sorted(made.wheels)
    assert {f"wheels/{Path(w).name}" for w in made.wheels} <= names and "__init__.py" in names
    assert sum("scipy" in w for w in made.wheels) == 2  # one per platform
    with zipfile.ZipFile(io.BytesIO(own)) as wheel:
        record = wheel.read(f"gltf_physics-{gp.__version__}.dist-info/RECORD").decode().splitlines()
        for row in record[:-1]:
            name, digest, size = row.split(",")
            data = wheel.read(name)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert int(size) == len(data)
        assert "gltf_physics/blender/addon.py" in wheel.namelist()


def test_an_unknown_platform_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "gltf_physics", "blender-extension", str(tmp_path / "x.zip"),
                           "--platform", "amiga"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "unknown platform 'amiga'" in done.stderr
    assert not (tmp_path / "x.zip").exists()


def test_the_extension_must_be_a_zip(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as done:
        from gltf_physics.cli import main

        main(["blender-extension", str(tmp_path / "x.tar")])
    assert done.value.code == 2
