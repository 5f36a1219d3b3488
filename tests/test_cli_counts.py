"""`validate`'s counts match what it printed, a hint counts as a hint, and `--strict` fails on warnings only (a
hint says a valid file will likely not behave as meant; it is no warning of the file's validity)."""

from __future__ import annotations

import re

import pytest

from conftest import fixture_path
from gltf_physics.cli import main

JOINT_TYPES = "KHR_physics_rigid_bodies/gen3-implicit-shapes/JointTypes/JointTypes.glb"
ROPE = "OMI_physics_joint/gen2-physicsJoints/hanging_rope.gltf"
SEVERITIES = ("error", "warning", "info", "hint")


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


def printed_counts(lines: list[str], path: object) -> dict[str, int]:
    """Message lines of ``path`` by the severity word each starts with (counted independently of the summary)."""
    words = [line[len(f"{path}: "):].split(" ", 1)[0] for line in lines[:-1]]
    return {s: words.count(s) for s in SEVERITIES}


def summary_counts(line: str) -> dict[str, int]:
    found = dict((word.rstrip("s"), int(n)) for n, word in re.findall(r"(\d+) (\w+)", line.split("(", 1)[1]))
    return {s: found[s] for s in SEVERITIES}


def test_joint_types_hints_are_counted_as_hints_and_pass_strict(capsys) -> None:
    path = fixture_path(JOINT_TYPES)
    code, out, err = cli(capsys, "validate", path, "--strict")
    lines = out.splitlines()
    assert (code, err) == (0, "")
    assert lines[-1] == f"{path}: valid (0 errors, 0 warnings, 0 infos, 3 hints)"
    assert printed_counts(lines, path) == summary_counts(lines[-1]) == {"error": 0, "warning": 0, "info": 0,
                                                                         "hint": 3}


def test_strict_still_fails_on_a_warning_beside_a_hint(capsys) -> None:
    path = fixture_path(ROPE)  # SHAPE-10 (the old capsule form: a warning) and HINT-SAG (a hint)
    code, out, _ = cli(capsys, "validate", path, "--strict")
    lines = out.splitlines()
    assert code == 1
    assert lines[-2:] == [f"{path}: valid (0 errors, 1 warning, 0 infos, 1 hint)",
                          f"{path}: fails --strict (1 warning)"]
    assert printed_counts(lines[:-1], path) == summary_counts(lines[-2])
    assert cli(capsys, "validate", path)[0] == 0
