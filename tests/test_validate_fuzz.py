"""The validator never raises: fixtures and in-test documents mutated at random (deleted keys, wrong types,
out-of-range indices, NaN, huge numbers) always give a report whose dict is plain JSON."""

from __future__ import annotations

import copy
import json
import math
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gltf_physics.validation import Report, validate
from mutation import LONE_SURROGATE, base_documents, key_paths
from validate_docs import as_doc, gravity, joint1, joint2, khr, omi4, omi_collider, omi_old, vehicle

PATH_ROOTS = ("extensions", "nodes", "meshes", "accessors", "extensionsUsed")  # the physics-relevant parts


@cache
def _bases() -> list[tuple[dict[str, Any], list[bytes]]]:
    return base_documents((omi_collider, omi_old, omi4, joint1, joint2, khr, gravity, vehicle), 400_000)


BAD_VALUES = [None, True, "x", -1, 10**9, -(10**9), 1.5, math.nan, math.inf, -math.inf, 1e308, [], {}, [1, 2],
              {"type": 3}, [math.nan] * 3, 2**63,
              1e30, [1e30] * 3, [1e300] * 3, [-1.0] * 3, LONE_SURROGATE]  # absurd and degenerate sizes, bad text






def _mutate(gltf: dict[str, Any], path: tuple[Any, ...], action: int, bad: Any) -> None:
    holder: Any = gltf
    for key in path[:-1]:
        holder = holder[key]
    key = path[-1]
    if action == 0 and isinstance(holder, dict):
        del holder[key]
    elif action == 1 and isinstance(holder[key], int) and not isinstance(holder[key], bool):
        holder[key] = holder[key] + 1000  # out of range
    else:
        holder[key] = copy.deepcopy(bad)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_documents_never_raise(data: st.DataObject) -> None:
    bases = _bases()
    gltf, buffers = bases[data.draw(st.integers(0, len(bases) - 1), label="base")]
    gltf = copy.deepcopy(gltf)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        paths = key_paths(gltf, PATH_ROOTS, 40)
        if not paths:
            break
        path = paths[data.draw(st.integers(0, len(paths) - 1), label="path")]
        action, bad = data.draw(st.integers(0, 2), label="action"), data.draw(st.sampled_from(BAD_VALUES))
        _mutate(gltf, path, action, bad)
    doc = as_doc(gltf)
    doc.buffers = list(buffers)
    report = validate(doc)
    assert isinstance(report, Report)
    # The checkers themselves cope with the input: none of them had to be stopped by the runner's guard.
    assert not [m.message for m in report.messages if "checks stopped early" in m.message]
    json.dumps(report.to_dict(), default=str)
    assert report.to_text().splitlines()[-1].startswith("<memory>: ")
