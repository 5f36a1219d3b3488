"""Shared by the batch and sweep tests: a local Dask cluster, tiny scenes, running the CLI as a process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parent.parent / "src"
KHR = "KHR_physics_rigid_bodies"
MOTION = f"/nodes/0/extensions/{KHR}/motion"


def ball(translation: tuple[float, float, float] = (1.0, 2.0, 3.0), name: str = "ball") -> dict[str, Any]:
    """One free dynamic sphere (KHR gen3), no ground: a projectile."""
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "extensionsUsed": [KHR, "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.1}}]}},
        "nodes": [{"name": name, "translation": list(translation),
                   "extensions": {KHR: {"motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}}}],
    }


def write(path: Path, gltf: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(gltf if isinstance(gltf, str) else json.dumps(gltf), encoding="utf-8")
    return path


def env(**extra: str) -> dict[str, str]:
    """The environment for a child process importing this tree's gltf_physics."""
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), out.get("PYTHONPATH")]))
    out.update(extra)
    return out


def cli(*args: str, **extra_env: str) -> subprocess.CompletedProcess[str]:
    """Run `gltf-physics ARGS` as its own process (a fresh interpreter, as a user would)."""
    return subprocess.run([sys.executable, "-m", "gltf_physics", *args], capture_output=True, text=True,
                          env=env(**extra_env), timeout=300)


def without_seconds(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows minus the wall-clock column (the only one that may differ between runs)."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]
