"""Run the Khronos glTF-Validator (tools/khronos-validator, npm) over many files in one node process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

TOOL = ROOT / "tools" / "khronos-validator"


def require_khronos() -> None:
    """Skip (fail under CI) when node or the npm package is missing."""
    if shutil.which("node") is None or not (TOOL / "node_modules" / "gltf-validator").is_dir():
        reason = "the Khronos validator is not installed (cd tools/khronos-validator && npm ci)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


def khronos_messages(files: list[Path]) -> dict[Path, list[dict]]:
    """file → the Khronos validator's messages ({code, severity, pointer}) for every file, in one run."""
    require_khronos()
    r = subprocess.run(["node", str(TOOL / "validate_many.mjs")], input=json.dumps([str(f) for f in files]),
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    out = {}
    for line in r.stdout.splitlines():
        row = json.loads(line)
        out[Path(row["file"])] = row["messages"]
    assert len(out) == len(files)
    return out
