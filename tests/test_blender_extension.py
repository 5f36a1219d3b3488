"""`gltf-physics blender-extension`: the zip installs into a fresh Blender session (the bpy package, Blender's own
extension installer) and Blender's glTF import and export operators carry physics from it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from blender_scenes import need_bpy
from conftest import fixture_path

need_bpy()

import gltf_physics as gp  # noqa: E402 - after the bpy check
from gltf_physics.cli import main  # noqa: E402

SESSION = r"""
import json, sys
import bpy
done = bpy.ops.extensions.package_install_files(filepath=sys.argv[1], repo="user_default", enable_on_install=True)
import gltf_physics
bpy.ops.import_scene.gltf(filepath=sys.argv[2])
bodies = sum(1 for o in bpy.context.scene.objects if o.rigid_body is not None and o.get("gltf_physics_proxy") is None)
joints = sum(1 for o in bpy.context.scene.objects
             if o.rigid_body_constraint is not None and o.rigid_body_constraint.type != "MOTOR")
bpy.ops.export_scene.gltf(filepath=sys.argv[3], export_format="GLTF_SEPARATE")
print("RESULT " + json.dumps({"install": sorted(done), "addons": list(bpy.context.preferences.addons.keys()),
                              "package": gltf_physics.__file__, "bodies": bodies, "joints": joints}))
"""


def test_the_extension_installs_and_its_operators_carry_physics(tmp_path: Path) -> None:
    zip_path = tmp_path / "gltf_physics.zip"
    with pytest.raises(SystemExit) as done:
        main(["blender-extension", str(zip_path), "--quiet"])
    assert done.value.code == 0
    source = fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/JointTypes/JointTypes.gltf")
    out = tmp_path / "out.gltf"
    home = tmp_path / "blender-user"  # a fresh Blender: its own config, scripts and extensions
    env = {**os.environ, "BLENDER_USER_RESOURCES": str(home)}
    env.pop("PYTHONPATH", None)  # the add-on must come from the zip's wheel, not from this checkout
    run = subprocess.run([sys.executable, "-c", SESSION, str(zip_path), str(source), str(out)], env=env,
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    line = next((x for x in run.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line is not None, run.stderr[-3000:]
    result = json.loads(line[len("RESULT "):])
    assert result["install"] == ["FINISHED"]
    assert "bl_ext.user_default.gltf_physics" in result["addons"]
    site = home / "extensions" / ".local" / "lib" / "python3.11" / "site-packages"
    assert (site / "gltf_physics" / "blender" / "addon.py").is_file()  # the wheel was installed
    assert (site / "scipy").is_dir()
    assert (result["bodies"], result["joints"]) == (20, 11)  # JointTypes: 14 moving + 6 static, 11 joints
    written = json.loads(out.read_text())
    assert written["extensionsUsed"][:2] == ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"]
    scene = gp.read_scene(gp.load(out))
    assert (len(scene.bodies), len(scene.joints)) == (14, 11)
