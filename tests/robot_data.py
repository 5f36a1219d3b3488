"""Robots for the import tests, read from installed packages (the ``test`` extra): PyBullet's ``pybullet_data``
URDFs and dm_control's suite MJCF models. Never copied into the project.

A missing package skips the test with a reason, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest


def need(module: str) -> ModuleType:
    """The module, or a skip naming it (a failure under CI=true)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"{module} is not installed (pip install 'gltf-physics[robots,mujoco,test]')")


def pybullet_urdf(relative: str) -> Path:
    """A URDF inside the installed ``pybullet_data``."""
    data = need("pybullet_data")
    path = Path(data.getDataPath()) / relative
    if not path.is_file():
        pytest.fail(f"pybullet_data has no {relative}")
    return path


def suite_xml(name: str) -> Path:
    """A dm_control suite model (``cartpole``, ``humanoid``…)."""
    dm_control = need("dm_control")
    return Path(dm_control.__file__).parent / "suite" / f"{name}.xml"


# -- an independent reading of a URDF (ElementTree, not yourdfpy) -------------------------------------------
def urdf_tree(path: Path) -> ET.Element:
    """The URDF's XML root, parsed by the standard library."""
    return ET.parse(path).getroot()


def rpy_matrix(rpy: str | None) -> np.ndarray:
    """URDF roll-pitch-yaw (fixed axes X, Y, Z) → 3×3."""
    r, p, y = (float(v) for v in (rpy or "0 0 0").split())
    cx, sx, cy, sy, cz, sz = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return rz @ ry @ rx


def urdf_inertia(link: ET.Element) -> tuple[float, np.ndarray, np.ndarray] | None:
    """(mass, centre of mass, inertia tensor in link axes) of a ``<link>``'s ``<inertial>``, or None."""
    inertial = link.find("inertial")
    if inertial is None or inertial.find("mass") is None:
        return None
    origin = inertial.find("origin")
    xyz = np.array([float(v) for v in ((origin.get("xyz") if origin is not None else None) or "0 0 0").split()])
    rot = rpy_matrix(origin.get("rpy") if origin is not None else None)
    i = inertial.find("inertia")
    a = {k: float(i.get(k, 0.0)) for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")} if i is not None else {}
    tensor = np.array([[a.get("ixx", 0), a.get("ixy", 0), a.get("ixz", 0)],
                       [a.get("ixy", 0), a.get("iyy", 0), a.get("iyz", 0)],
                       [a.get("ixz", 0), a.get("iyz", 0), a.get("izz", 0)]], dtype=float)
    return float(inertial.find("mass").get("value")), xyz, rot @ tensor @ rot.T  # type: ignore[union-attr]


def tensor_of(diagonal: tuple[float, ...], orientation: tuple[float, ...]) -> np.ndarray:
    """R·diag(d)·Rᵀ of a principal diagonal and its xyzw orientation."""
    from gltf_physics.gltf.transforms import quat_to_matrix

    r = quat_to_matrix(orientation)
    return r @ np.diag(diagonal) @ r.T


def close(a: np.ndarray | float, b: np.ndarray | float, rel: float = 1e-6) -> bool:
    """Equal within ``rel`` of the larger magnitude (of the whole array)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    scale = max(float(np.abs(a).max(initial=0)), float(np.abs(b).max(initial=0)), 1e-300)
    return bool(np.abs(a - b).max(initial=0) <= rel * scale)


def node_names(doc_json: dict) -> dict[str, int]:
    """Node name → index (the first of a name)."""
    out: dict[str, int] = {}
    for i, node in enumerate(doc_json.get("nodes", [])):
        out.setdefault(node.get("name"), i)
    return out


@contextlib.contextmanager
def quiet_mujoco() -> Iterator[None]:
    """MuJoCo's warnings dropped while inside (it would append them to a MUJOCO_LOG.TXT in the working folder:
    the suite's walker still uses a deprecated attribute)."""
    mujoco = need("mujoco")
    previous = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(lambda text: None)
    try:
        yield
    finally:
        mujoco.set_mju_user_warning(previous)


def compiled(path: Path) -> object:
    """``mujoco.MjModel`` of an MJCF or URDF file, compiled quietly."""
    mujoco = need("mujoco")
    with quiet_mujoco():
        return mujoco.MjModel.from_xml_path(str(path))
