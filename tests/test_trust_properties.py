"""Property tests whose strategies reach the hard cases: node matrices that are singular, sheared, with parallel
columns or a wrong last row; joint axis lists too long, repeated or out of range; integers beyond a double's
range anywhere a number is read; velocities, gravity factors, masses and sizes near the float limits.

Two properties over every generated document:
- nothing escapes: validation never raises; reading, converting and a simulation's build and first step raise
  only the one-line errors (GltfError, SimulationError);
- the validator sees what the runtime refuses: when the build or first step refuses the document, the report
  has an error at the very pointer the refusal names.

The number of examples is ``GLTF_PHYSICS_PROPERTY_EXAMPLES`` (default 150 per test; 20,000 for a long run).
"""

from __future__ import annotations

import copy
import math
import os
from functools import cache
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gltf_physics.dialects import read_scene
from gltf_physics.dialects.common.portable_joints import swap_is_exact, swapped
from gltf_physics.geometry.limits import _clearly_fine, _placed
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.errors import GltfError
from gltf_physics.model import Box, Capsule, Cylinder, Sphere
from gltf_physics.sim import World
from gltf_physics.sim.errors import SimulationError
from gltf_physics.validation import Severity, validate
from mutation import base_documents, key_paths
from validate_docs import joint1, joint2, khr, omi4, vehicle

EXAMPLES = int(os.environ.get("GLTF_PHYSICS_PROPERTY_EXAMPLES", "150"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

# Numbers at and beyond the limits: a double's and a float32's largest, integers no double holds, denormals.
HARD_NUMBERS: list[Any] = [10**400, -(10**400), 2**63, 1.7976931348623157e308, 1e308, 3.5e38, 3.4e38, 1e38,
                           1e300, 1e30, 1e20, -1e20, 5e-324, -0.0, 1e-300]


@st.composite
def node_matrices(draw: st.DrawFn) -> list[float]:
    """16 numbers, column-major: every way a matrix is not a plain TRS, and plain ones too."""
    kind = draw(st.sampled_from(["diagonal", "dense", "parallel", "sheared", "last-row", "extreme"]))
    small = st.floats(-4.0, 4.0, allow_nan=False)
    m = np.eye(4)
    if kind == "diagonal":
        m[:3, :3] = np.diag(draw(st.lists(small, min_size=3, max_size=3)))
    elif kind == "dense":
        m[:3, :3] = np.array(draw(st.lists(small, min_size=9, max_size=9))).reshape(3, 3)
    elif kind == "parallel":  # columns that are multiples of one vector: rank 1 (or 0)
        column = np.array(draw(st.lists(small, min_size=3, max_size=3)))
        m[:3, :3] = np.outer(column, draw(st.lists(small, min_size=3, max_size=3)))
    elif kind == "sheared":
        m[:3, :3] = np.eye(3) + np.triu(np.full((3, 3), draw(st.floats(1e-9, 10.0))), 1)
    elif kind == "last-row":
        m[3] = draw(st.sampled_from([(0, 0, 0, 0), (0, 0, 0, 1.0000001), (1e-9, 0, 0, 1), (0, 0, 0, -1)]))
    else:
        m[:3, :3] = np.diag([draw(st.sampled_from([v for v in HARD_NUMBERS if isinstance(v, float)]))
                             for _ in range(3)])
    m[:3, 3] = draw(st.lists(st.one_of(small, st.sampled_from([1e5, -2e5, 1e30])), min_size=3, max_size=3))
    return [float(v) for v in m.T.reshape(16)]


axis_lists = st.lists(st.integers(-1, 4), min_size=0, max_size=6)


@cache
def _bases() -> list[tuple[dict[str, Any], list[bytes]]]:
    return base_documents((omi4, joint1, joint2, khr, vehicle), 60_000)


def _pick(data: st.DataObject, items: list[Any], label: str) -> Any:
    return items[data.draw(st.integers(0, len(items) - 1), label=label)]


def _set(gltf: Any, path: tuple[Any, ...], value: Any) -> None:
    holder = gltf
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value


def _mutate(gltf: dict[str, Any], data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["matrix", "axes", "number", "motion"]), label="kind")
    nodes = gltf.get("nodes") or []
    if kind == "matrix":
        node = _pick(data, nodes, "node") if nodes else None
        if not isinstance(node, dict):
            return
        for key in ("translation", "rotation", "scale"):
            node.pop(key, None)
        node["matrix"] = data.draw(node_matrices(), label="matrix")
        return
    paths = key_paths(gltf, ("extensions", "nodes", "accessors", "meshes"), 30)
    wanted = {"axes": ("linearAxes", "angularAxes", "axis"), "motion": (
        "linearVelocity", "angularVelocity", "gravityFactor", "mass", "inertiaDiagonal", "radius", "size",
        "height", "stiffness", "maxForce")}.get(kind)
    if wanted:
        paths = [p for p in paths if p[-1] in wanted]
    else:
        paths = [p for p in paths if isinstance(_get(gltf, p), (int, float)) and not isinstance(_get(gltf, p), bool)]
    if not paths:
        return
    path = _pick(data, paths, "path")
    old = _get(gltf, path)
    if kind == "axes":
        value: Any = data.draw(axis_lists, label="axes") if path[-1] != "axis" else data.draw(st.integers(-1, 4))
    elif isinstance(old, list):
        value = [data.draw(st.sampled_from(HARD_NUMBERS), label="number") for _ in old]
    else:
        value = data.draw(st.sampled_from(HARD_NUMBERS), label="number")
    _set(gltf, path, value)


def _get(gltf: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        gltf = gltf[key]
    return gltf


def _document(data: st.DataObject) -> Document:
    gltf, buffers = _pick(data, _bases(), "base")
    gltf = copy.deepcopy(gltf)
    for _ in range(data.draw(st.integers(1, 2), label="mutations")):
        _mutate(gltf, data)
    return Document(json=gltf, buffers=list(buffers))


def _refusal(doc: Document) -> str | None:
    """The pointer the runtime names when it refuses the document at read, build or first step; None if it runs.
    Anything but the one-line errors escaping fails the test."""
    try:
        world = World(read_scene(doc))
        world.step()
    except (GltfError, SimulationError) as e:
        assert e.pointer is not None, f"the runtime refused without a pointer: {e}"
        return e.pointer
    return None


@SETTINGS
@given(data=st.data())
def test_what_the_runtime_refuses_the_validator_reports_at_the_same_pointer(data: st.DataObject) -> None:
    doc = _document(data)
    report = validate(doc)  # never raises
    pointer = _refusal(doc)
    if pointer is not None:
        errors = {m.pointer for m in report.messages if m.severity == Severity.ERROR}
        assert pointer in errors, (pointer, report.to_text()[-800:])


@SETTINGS
@given(data=st.data())
def test_reading_and_converting_raise_only_one_line_errors(data: st.DataObject) -> None:
    from gltf_physics.api import convert

    doc = _document(data)
    for target in ("omi", "khr"):
        try:
            convert(doc, to=target)  # type: ignore[arg-type]
        except GltfError as e:
            assert e.pointer is not None and "\n" not in e.message


sizes = st.one_of(st.floats(-1.0, 10.0), st.sampled_from([0.0, math.nan, math.inf, 1e-300, 4e4, 6e4, 1e9]))
shapes = st.one_of(st.builds(Box, st.tuples(sizes, sizes, sizes)), st.builds(Sphere, sizes),
                   st.builds(Capsule, sizes, sizes, sizes), st.builds(Cylinder, sizes, sizes, sizes))


@SETTINGS
@given(st.lists(st.tuples(shapes, node_matrices()), min_size=1, max_size=6))
def test_the_primitive_fast_path_passes_only_what_the_exact_check_passes(cases: list[Any]) -> None:
    """Node matrices of every kind above, not only diagonal ones: a singular, sheared or parallel-column matrix
    must take the exact path."""
    matrices = [np.array(values).reshape(4, 4).T for _, values in cases]
    fine = _clearly_fine([shape for shape, _ in cases], matrices)
    for (shape, _), m, ok in zip(cases, matrices, fine, strict=True):
        if ok:
            assert _placed(shape, m, None, "/nodes/0") is None, (shape, m)


@SETTINGS
@given(data=st.data())
def test_a_joint_read_from_any_axis_list_swaps_sides_without_error(data: st.DataObject) -> None:
    """The joint writers' side swap (where the KHR writer unpacked one axis) on joints read from any axis list."""
    gltf, buffers = _bases()[data.draw(st.integers(0, 2), label="base")]  # omi4, joint1, joint2
    gltf = copy.deepcopy(gltf)
    paths = [p for p in key_paths(gltf, ("extensions", "nodes"), 30) if p[-1] in ("linearAxes", "angularAxes")]
    for path in paths:
        _set(gltf, path, data.draw(axis_lists, label="axes"))
    try:
        scene = read_scene(Document(json=gltf, buffers=list(buffers)))
    except GltfError:
        return
    for joint in scene.joints:
        exact = swap_is_exact(joint)  # raised ValueError on four axes
        valid = all(len(set(a)) == len(a) and set(a) <= {0, 1, 2}
                    for limit in joint.limits for a in (limit.linear_axes, limit.angular_axes))
        assert valid or not exact  # a swap is never called exact on axes that are not distinct 0..2
        swapped(joint)


def _same_placement(a: Any, b: Any) -> bool:
    """Equal kinds, and every number within 1e-9 (relative and absolute): the cache shares a placement between
    relative poses equal to 12 decimals."""
    if a is None or b is None:
        return a is b
    close = {"equal_nan": True, "rtol": 1e-9, "atol": 1e-9}
    return a.kind == b.kind and all(
        np.allclose(np.asarray(x, dtype=float), np.asarray(y, dtype=float), **close) for x, y in (
            (a.translation, b.translation), (a.rotation, b.rotation), (a.params, b.params),
            (a.points if a.points is not None else (), b.points if b.points is not None else ())))


@SETTINGS
@given(st.lists(st.tuples(shapes, node_matrices()), min_size=2, max_size=8), node_matrices())
def test_the_bulk_placement_cache_agrees_with_placing_each_shape(cases: list[Any], body_values: list[float]) -> None:
    """The runtime's batched, cached placement of a body's colliders against placing each one on its own, for
    collider and body matrices of every hard kind (equal shapes repeat, so the cache is hit)."""
    from gltf_physics.geometry.frames import inverse_body_frame
    from gltf_physics.geometry.placement import bulk_placements, colliders_by_body, place_shape
    from gltf_physics.model import Body, Collider, Motion, PhysicsScene

    cases = cases + cases[:2]  # equal shapes at equal poses: what the cache exists for
    world = [np.array(body_values).reshape(4, 4).T] + [np.array(v).reshape(4, 4).T for _, v in cases]
    scene = PhysicsScene(bodies=[Body(node=0, motion=Motion())], colliders=[Collider(node=i + 1, shape=shape, body=0)
                                                           for i, (shape, _) in enumerate(cases)])
    inverse = inverse_body_frame(world[0])
    [bulk] = bulk_placements(scene, [0], inverse[None], world, None, colliders_by_body(scene), {})
    placed = dict(bulk)
    for k, collider in enumerate(scene.colliders):
        exact = place_shape(collider.shape, inverse @ world[collider.node])
        assert _same_placement(placed.get(k), exact), (k, placed.get(k), exact)


@SETTINGS
@given(st.lists(node_matrices(), min_size=2, max_size=6), st.data())
def test_the_bulk_pose_test_decides_only_as_the_exact_test_does(values: list[list[float]], data: Any) -> None:
    """The OMI joint writer's bulk "node already at the joint frame?" test against the per-pair computation, on
    world matrices of every hard kind and frames at, near and far from the true relative pose."""
    from gltf_physics.dialects.common.pose_bulk import clear_matches
    from gltf_physics.gltf.transforms import relative_pose
    from gltf_physics.model import Pose

    world = [np.array(v).reshape(4, 4).T for v in values]
    queries = []
    for _ in range(data.draw(st.integers(1, 8))):
        body = data.draw(st.one_of(st.none(), st.integers(0, len(world) - 1)))
        node = data.draw(st.integers(0, len(world) - 1))
        t, q = relative_pose(world[body] if body is not None else None, world[node])
        nudge = data.draw(st.sampled_from([0.0, 1e-6, 1e-5, 1.0, math.nan]))
        queries.append((body, node, Pose(translation=(t[0] + nudge, t[1], t[2]), rotation=tuple(q))))
    verdicts = clear_matches(world, queries)
    for body, node, frame in queries:
        if (body, node, id(frame)) in verdicts:
            t, q = relative_pose(world[body] if body is not None else None, world[node])
            exact = bool(np.allclose(t, frame.translation, atol=1e-6)) and abs(
                sum(a * b for a, b in zip(q, frame.rotation, strict=True))) > 1.0 - 1e-9
            assert verdicts[(body, node, id(frame))] == exact
