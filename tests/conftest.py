"""Shared test helpers: where the official fixtures are (GLTF_PHYSICS_FIXTURES, default ../shared/fixtures).

Absent fixtures skip the conformance tests with a reason, except under CI=true, where absence fails.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the property tests on a fixed sequence of examples, so a green build is reproducible;
# locally they explore new examples every run.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")

# The Ctrl-C tests send SIGINT to the commands they start. A job a script starts in the background (`cmd &`,
# nohup) begins with SIGINT ignored, and every child would inherit that across exec and never see the Ctrl-C:
# the children get the default disposition back, as a terminal's foreground job has.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(os.environ.get("GLTF_PHYSICS_FIXTURES", ROOT.parent / "shared" / "fixtures")).resolve()


def fixtures_available() -> bool:
    return FIXTURES.is_dir()


def fixture_path(relative: str) -> Path:
    """The path of one fixture file; skips (or fails under CI) when the fixtures are absent."""
    if not fixtures_available():
        if os.environ.get("CI") == "true":
            pytest.fail(f"fixtures not found at {FIXTURES} (set GLTF_PHYSICS_FIXTURES)")
        pytest.skip(f"fixtures not found at {FIXTURES}")
    path = FIXTURES / relative
    assert path.is_file(), f"missing fixture {relative}"
    return path


def all_fixture_files() -> list[str]:
    """Every .gltf/.glb under the fixtures, relative, sorted (empty when absent: see fixture_path)."""
    if not fixtures_available():
        return ["<fixtures-missing>"]
    return sorted(str(p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*") if p.suffix in (".gltf", ".glb"))
