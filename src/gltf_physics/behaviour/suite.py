"""Runs one official KHR_interactivity test asset (glTF-Test-Assets-Interactivity layout): the graph on the
document host, ticked at 60 Hz for the duration the graph announces through its ``test/onStart`` event, then
each sub-test's result variable compared with its expected value."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..gltf.io import load
from .doc_host import DocumentHost
from .read import read_interactivity
from .run import GraphRunner
from .values import to_json

RATE = 60.0
MAX_SECONDS = 30.0


@dataclass
class SubResult:
    """One sub-test: its name, whether it passed, the expected and the actual value."""

    name: str
    passed: bool
    expected: Any
    actual: Any


def _close(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual or (expected == actual and type(expected) is type(actual))
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        if math.isnan(expected) or math.isnan(actual):
            return math.isnan(expected) and math.isnan(actual)
        if math.isinf(expected) or math.isinf(actual):
            return expected == actual
        return abs(expected - actual) <= 1e-4 * max(1.0, abs(expected))
    if expected is None or isinstance(expected, str):
        return expected == actual
    return False


def _expected_values(raw: list[Any]) -> list[Any]:
    return [float(x) if isinstance(x, str) else x for x in raw]  # "NaN"/"Infinity" spelled as strings


def verdict(runner: GraphRunner) -> str | None:
    """The graph's own verdict: the last of its ``test/onSuccess`` / ``test/onFailed`` events ("success",
    "failed"), or None when it sent neither."""
    names = {"test/onSuccess": "success", "test/onFailed": "failed"}
    said = [names[runner.graph.events[e].id] for e, _ in runner.sent  # type: ignore[index]
            if runner.graph.events[e].id in names]
    return said[-1] if said else None


def run_test(glb: Path, spec_json: Path) -> tuple[list[SubResult], GraphRunner]:
    """Run ``glb`` and judge it with its ``test-Json`` description."""
    document = load(glb)
    interactivity = read_interactivity(document.json)
    if interactivity is None or not interactivity.graphs:
        raise ValueError(f"{glb} has no KHR_interactivity graph")
    runner = GraphRunner(interactivity.graphs[interactivity.default], DocumentHost(document.json, document))
    runner.start()
    duration = 0.0
    step = 1.0 / RATE
    t = 0.0
    while t < MAX_SECONDS and not runner.stopped:
        runner.tick(t, step)
        for event, values in runner.sent:
            if runner.graph.events[event].id == "test/onStart":
                d = values.get("expectedDuration", 0.0)
                duration = max(duration, d if isinstance(d, float) and math.isfinite(d) else 0.0)
        if t > duration + 0.5:
            break
        t += step
    spec = json.loads(Path(spec_json).read_text())
    results = []
    for test in spec.get("tests", []):
        for sub in test.get("subTests", []):
            expected = _expected_values(sub.get("expectedResultValue", []))
            try:
                actual = to_json(runner.variable(sub["resultVarName"]))
            except Exception:
                actual = None
            passed = actual is not None and len(actual) == len(expected) and all(
                _close(e, a) for e, a in zip(expected, actual, strict=True))
            results.append(SubResult(sub.get("name", ""), passed, expected, actual))
    return results, runner
