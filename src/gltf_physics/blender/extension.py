"""The add-on as a Blender 4.2+ extension: one zip with ``blender_manifest.toml``, a small ``__init__.py`` that is
the add-on (it re-exports :mod:`gltf_physics.blender.addon`), and the wheels it needs (no bpy here).

Blender installs an extension's wheels into its own site-packages. The zip carries this package as a wheel made
from the installed files (pure Python) and SciPy's wheel for each platform (its qhull makes the convex hulls);
Blender brings NumPy. Nothing else of the project's dependencies is used inside Blender.
"""

from __future__ import annotations

import base64
import hashlib
import io
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

ID = "gltf_physics"
BLENDER_MIN = "4.2.0"
PYTHON = "3.11"  # Blender 4.2 to 5.0 run Python 3.11
DEPENDENCIES = ("scipy",)
# Blender's platform names → pip's platform tags for binary wheels (Blender 4.2+ needs glibc 2.28 on Linux,
# macOS 11.2 on Apple silicon, 10.15 on Intel)
PLATFORMS = {
    "linux-x64": ("manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_17_x86_64"),
    "linux-arm64": ("manylinux_2_28_aarch64", "manylinux_2_27_aarch64", "manylinux_2_17_aarch64"),
    "windows-x64": ("win_amd64",),
    "macos-arm64": ("macosx_12_0_arm64", "macosx_11_0_arm64"),
    "macos-x64": ("macosx_10_15_x86_64", "macosx_10_14_x86_64"),
}

INIT = '''"""glTF physics for Blender: KHR and OMI rigid bodies, shapes and joints through Blender's own glTF importer
and exporter (the gltf-physics add-on)."""

from gltf_physics.blender.addon import (  # noqa: F401 - what Blender and its glTF IO look for
    draw_export,
    draw_import,
    glTF2ExportUserExtension,
    glTF2ImportUserExtension,
    register,
    unregister,
)
'''


class ExtensionError(Exception):
    """A wheel that could not be made or fetched (the message names it)."""


@dataclass(frozen=True)
class Extension:
    """What :func:`build` wrote: the zip, its manifest text and the wheels inside it."""

    path: Path
    manifest: str
    wheels: tuple[str, ...]


def this_platform() -> str:
    """Blender's name for the platform this Python runs on."""
    plat = sysconfig.get_platform()
    if plat.startswith("linux"):
        return "linux-arm64" if plat.endswith("aarch64") else "linux-x64"
    if plat.startswith("win"):
        return "windows-x64"
    return "macos-arm64" if plat.endswith("arm64") else "macos-x64"


def build(out: Path, platforms: tuple[str, ...] = (), wheels_from: Path | None = None,
          fetch: Callable[[str, tuple[str, ...], Path], Path] | None = None) -> Extension:
    """Write the extension zip to ``out`` for ``platforms`` (default: this one). Dependency wheels come from
    ``wheels_from`` when it holds them, else from ``fetch(requirement, platform_tags, folder)`` (default: pip)."""
    platforms = platforms or (this_platform(),)
    for p in platforms:
        if p not in PLATFORMS:
            raise ExtensionError(f"unknown platform {p!r} (one of {', '.join(PLATFORMS)})")
    from .. import __version__ as version
    own = own_wheel(version)
    files: dict[str, bytes] = {f"wheels/{own[0]}": own[1]}
    with tempfile.TemporaryDirectory() as tmp:
        for dep in DEPENDENCIES:
            requirement = f"{dep}=={metadata.version(dep)}"
            for p in platforms:
                wheel = _found(wheels_from, dep, PLATFORMS[p]) or (fetch or pip_download)(
                    requirement, PLATFORMS[p], Path(tmp) / p)
                files[f"wheels/{wheel.name}"] = wheel.read_bytes()
    manifest = _manifest(version, platforms, sorted(files))
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("blender_manifest.toml", manifest)
        z.writestr("__init__.py", INIT)
        for name in sorted(files):
            z.writestr(name, files[name])
    tmp_out = out.with_name(out.name + ".tmp")
    tmp_out.write_bytes(data.getvalue())
    tmp_out.replace(out)  # atomic: never a half-written zip
    return Extension(out, manifest, tuple(sorted(files)))


def _manifest(version: str, platforms: tuple[str, ...], wheels: list[str]) -> str:
    listed = ",\n".join(f'  "./{w}"' for w in wheels)
    return f'''schema_version = "1.0.0"
id = "{ID}"
version = "{version}"
name = "glTF Physics"
tagline = "Rigid bodies and joints through Blender's glTF importer and exporter"
maintainer = "gltf-physics"
type = "add-on"
tags = ["Import-Export", "Physics"]
blender_version_min = "{BLENDER_MIN}"
license = ["SPDX:MIT"]
platforms = [{", ".join(f'"{p}"' for p in platforms)}]
wheels = [
{listed},
]

[permissions]
files = "Read and write the glTF files you import and export"
'''


def _found(folder: Path | None, dep: str, tags: tuple[str, ...]) -> Path | None:
    if folder is None:
        return None
    for wheel in sorted(folder.glob(f"{dep}-*-cp{PYTHON.replace('.', '')}-*.whl")):
        if any(tag in wheel.name for tag in tags):
            return wheel
    return None


def pip_download(requirement: str, tags: tuple[str, ...], folder: Path) -> Path:
    """``requirement``'s binary wheel for Python 3.11 on one of ``tags``, fetched by pip into ``folder``."""
    name = requirement.split("==")[0]
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
           "--python-version", PYTHON, *(f"--platform={t}" for t in tags), "--dest", str(folder), requirement]
    done = subprocess.run(cmd, capture_output=True, text=True)
    found = sorted(folder.glob(f"{name}-*.whl"))
    if done.returncode != 0 or not found:
        last = (done.stderr.strip().splitlines() or ["no wheel"])[-1]
        raise ExtensionError(f"pip could not fetch {requirement} for {tags[0]}: {last}")
    return found[-1]


def own_wheel(version: str) -> tuple[str, bytes]:
    """This package, as installed, packed as a pure-Python wheel (name, bytes)."""
    root = Path(__file__).resolve().parent.parent  # the gltf_physics package
    dist = f"gltf_physics-{version}.dist-info"
    entries: list[tuple[str, bytes]] = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo"):
            entries.append((f"gltf_physics/{path.relative_to(root).as_posix()}", path.read_bytes()))
    entries.append((f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: gltf-physics\nVersion: {version}\n".encode()))
    entries.append((f"{dist}/WHEEL", b"Wheel-Version: 1.0\nGenerator: gltf-physics\nRoot-Is-Purelib: true\n"
                                     b"Tag: py3-none-any\n"))
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in entries]
    entries.append((f"{dist}/RECORD", ("\n".join([*record, f"{dist}/RECORD,,"]) + "\n").encode()))
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in entries:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # the same bytes for the same files
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, content)
    return f"gltf_physics-{version}-py3-none-any.whl", data.getvalue()


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
