"""The readers' contract on malformed JSON: ``read_scene`` returns a scene (lenient reads carry a ReadNote) or
raises ``GltfError`` with the JSON pointer of the offending value; nothing else escapes. ``info``'s summary
never crashes either. A property test mutates the in-test documents and the small fixtures; the explicit cases
below are the crashes fuzzing found (one per fix), each pinned to its exact pointer or value."""

from __future__ import annotations

import copy
import json
import math
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gltf_physics.dialects import read_scene
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.errors import GltfError
from gltf_physics.gltf.hierarchy import ancestors, nearest_marked, nearest_strict
from gltf_physics.model import MeshShape, PhysicsScene
from gltf_physics.summary import summarize
from mutation import LONE_SURROGATE, base_documents, key_paths
from validate_docs import (
    KHR,
    KIS,
    OB,
    SH,
    as_doc,
    ext,
    finish,
    gravity,
    joint1,
    joint2,
    khr,
    omi4,
    omi_collider,
    omi_gen3,
    omi_old,
    put,
    vehicle,
)

PATH_ROOTS = ("extensions", "extensionsUsed", "nodes", "meshes", "skins", "scenes")  # what the readers look at


@cache
def _bases() -> list[tuple[dict[str, Any], list[bytes]]]:
    return base_documents((omi_collider, omi_old, omi4, omi_gen3, joint1, joint2, khr, gravity, vehicle), 200_000)


HUGE = 10**400  # a valid JSON integer no double can hold
# Wrong types where numbers, indices or objects are expected, and bad numbers.
WRONG = ["x", [], {}, None, True, False, [1, 2], {"type": 3}, [None], ["x"], [{}]]
NUMBERS = [-1, -2, 10**9, 2**63, 1.5, math.nan, math.inf, -math.inf, 1e308, HUGE, -HUGE, [math.nan] * 3,
           [HUGE] * 3, 1e30, -1e-9, [1e30] * 3, [0.0] * 4, LONE_SURROGATE]  # absurd, degenerate, text






def _descendants(nodes: list[Any], node: int) -> list[int]:
    out, stack, seen = [], [node], {node}
    while stack:
        n = stack.pop()
        kids = nodes[n].get("children") if isinstance(nodes[n], dict) else None
        for c in kids if isinstance(kids, list) else []:
            if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(nodes) and c not in seen:
                seen.add(c)
                out.append(c)
                stack.append(c)
    return out


def _mutate(gltf: dict[str, Any], data: st.DataObject) -> None:
    action = data.draw(st.sampled_from(["delete", "wrong", "number", "shift", "cycle"]), label="action")
    nodes = gltf.get("nodes")
    if action == "cycle" and isinstance(nodes, list) and nodes:
        # A node becomes a child of one of its own descendants (or of itself).
        top = data.draw(st.integers(0, len(nodes) - 1), label="top")
        below = [top, *_descendants(nodes, top)]
        at = below[data.draw(st.integers(0, len(below) - 1), label="below")]
        if isinstance(nodes[at], dict):
            children = nodes[at].get("children")  # an earlier mutation may have made it a non-list
            nodes[at]["children"] = [*(children[:3] if isinstance(children, list) else []), top]
        return
    paths = key_paths(gltf, PATH_ROOTS, 30)
    path = paths[data.draw(st.integers(0, len(paths) - 1), label="path")]
    holder: Any = gltf
    for key in path[:-1]:
        holder = holder[key]
    key = path[-1]
    if action == "delete" and isinstance(holder, dict):
        del holder[key]
    elif action == "shift" and isinstance(holder[key], int) and not isinstance(holder[key], bool):
        holder[key] += data.draw(st.sampled_from([1000, -1000, 1, -1]), label="shift")  # out of range
    elif action == "number":
        holder[key] = copy.deepcopy(data.draw(st.sampled_from(NUMBERS), label="number"))
    else:
        holder[key] = copy.deepcopy(data.draw(st.sampled_from(WRONG), label="wrong"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_documents_read_or_raise_gltf_error_with_a_pointer(data: st.DataObject) -> None:
    bases = _bases()
    gltf, buffers = bases[data.draw(st.integers(0, len(bases) - 1), label="base")]
    gltf = copy.deepcopy(gltf)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        _mutate(gltf, data)
    doc = Document(json=gltf, buffers=list(buffers))
    try:
        scene = read_scene(doc)
    except GltfError as err:
        assert err.pointer is not None and err.pointer.startswith("/"), (err.pointer, err.message)
        assert err.message and "\n" not in err.message
        return
    assert isinstance(scene, PhysicsScene)
    assert all(note.pointer.startswith("/") for note in scene.notes)
    try:  # `info`: the summary of whatever was read (a mesh it cannot read is a GltfError, one line)
        summary = summarize(doc, scene)
    except GltfError:
        return
    json.dumps(summary)
    assert len(summary["bodies"]) == len(scene.bodies)


@settings(max_examples=200, deadline=None)
@given(parent_of=st.lists(st.one_of(st.none(), st.integers(0, 11)), min_size=1, max_size=12),
       marked=st.sets(st.integers(0, 11)))
def test_nearest_marked_table_equals_the_ancestor_walk(parent_of: list[int | None], marked: set[int]) -> None:
    """The one-pass BODY-10 ownership table gives what walking each node's ancestors gives, cycles included."""
    parent_of = [p if p is not None and p < len(parent_of) else None for p in parent_of]
    table = nearest_marked(parent_of, marked)
    for node in range(len(parent_of)):
        strict = next((a for a in ancestors(parent_of, node) if a in marked), None)
        assert nearest_strict(table, parent_of, node) == strict
        assert table[node] == (node if node in marked else strict)


# ------------------------------------------------------------------ one regression per crash fixed


def _read(gltf: dict[str, Any]) -> PhysicsScene:
    return read_scene(as_doc(gltf))


def _error(gltf: dict[str, Any]) -> GltfError:
    with pytest.raises(GltfError) as caught:
        read_scene(as_doc(gltf))
    return caught.value


def _notes(scene: PhysicsScene) -> list[tuple[str, str]]:
    return [(n.code, n.pointer) for n in scene.notes]


def test_extensions_used_not_an_array() -> None:
    # khr_rigid_bodies detection iterated it (TypeError: 'bool' object is not iterable).
    scene = _read(put(khr(), "/extensionsUsed", True))
    assert _notes(scene) == [("GLTF-TYPE", "/extensionsUsed")]
    assert [b.node for b in scene.bodies] == [0]  # the nodes still say KHR gen3
    assert scene.generations == {KHR: "gen3-implicit-shapes", KIS: "gen3-implicit-shapes"}


def test_nodes_not_an_array() -> None:
    # hierarchy.parents took len() of it (TypeError: object of type 'int' has no len()).
    scene = _read(put(omi4(), "/nodes", 5))
    assert _notes(scene) == [("GLTF-TYPE", "/nodes")]
    assert (scene.bodies, scene.colliders, scene.triggers) == ([], [], [])


def test_meshes_not_an_array() -> None:
    # omi_shape took len() of it (TypeError); now no mesh exists, so the convex shape's index points nowhere.
    gltf = put(omi4(), "/extensions/OMI_physics_shape/shapes/1", {"type": "convex", "convex": {"mesh": 0}})
    err = _error(put(gltf, "/meshes", 3.5))
    assert err.pointer == "/extensions/OMI_physics_shape/shapes/1/convex/mesh"
    assert err.message == "'mesh' index 0 points into an empty or missing array"


def test_document_extensions_not_an_object() -> None:
    # khr_shapes called .get on it (AttributeError: 'float' object has no attribute 'get'). The node-level
    # KHR bodies still read; their shape index now points into no shapes.
    err = _error(put(khr(), "/extensions", 2.5))
    assert err.pointer == "/nodes/0/extensions/KHR_physics_rigid_bodies/collider/geometry/shape"


def test_khr_collision_shapes_not_an_array() -> None:
    # gen2 detection iterated it (TypeError: 'int' object is not iterable).
    gltf = finish({"nodes": [ext(KHR, {"motion": {}}, children=[1]), ext(KHR, {"collider": {"shape": 0}})],
                   "extensions": {"KHR_collision_shapes": {"shapes": 7}}})
    err = _error(gltf)
    assert err.pointer == "/nodes/1/extensions/KHR_physics_rigid_bodies/collider/shape"


def test_khr_gen2_shape_extensions_not_an_object() -> None:
    # The gen2 hull flag lookup called .get on a shape's 'extensions' (AttributeError); detection used `in`.
    gltf = finish({
        "nodes": [ext(KHR, {"motion": {}, "collider": {"shape": 0}})],
        "extensions": {"KHR_collision_shapes": {"shapes": [{"type": "mesh", "mesh": {"mesh": 0},
                                                            "extensions": 7}]}},
        "meshes": [{"primitives": []}],
    })
    scene = _read(gltf)
    assert scene.generations["KHR_collision_shapes"] == "gen2-collision-shapes-mesh"
    shape = scene.colliders[0].shape
    assert isinstance(shape, MeshShape) and shape.convex is False and shape.mesh == 0
    assert shape.pointer == "/extensions/KHR_collision_shapes/shapes/0"


def test_children_not_an_array_under_an_implicit_compound_trigger() -> None:
    # D-3 `"trigger": {}` walks the descendants; a 'children' that is a number was iterated (TypeError).
    gltf = finish({
        "nodes": [ext(OB, {"trigger": {}}, children=[1]), ext(OB, {"trigger": {"shape": 0}}, children=5)],
        "extensions": {SH: {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}},
    })
    scene = _read(gltf)
    assert [(t.node, t.nodes, t.implicit) for t in scene.triggers] == [(0, (1,), True), (1, None, False)]
    assert _notes(scene) == [("BODY-5", "/nodes/0/extensions/OMI_physics_body/trigger")]


def test_gravity_type_not_a_string() -> None:
    # The type lookup hashed it (TypeError: unhashable type: 'dict').
    scene = _read(put(gravity(), "/nodes/1/extensions/OMI_physics_gravity/type", {"line": 1}))
    assert [g.node for g in scene.gravity_fields] == [0]
    assert ("GRAV-2", "/nodes/1/extensions/OMI_physics_gravity/type") in _notes(scene)


def test_integer_beyond_double_range_reads_as_infinite() -> None:
    # float(10**400) raised OverflowError in num()/vec() and the KHR optional numbers.
    omi = _read(put(omi4(), "/nodes/0/extensions/OMI_physics_body/motion/mass", HUGE))
    assert (omi.bodies[0].pointer, omi.bodies[0].motion.mass) == ("/nodes/0/extensions/OMI_physics_body", math.inf)
    k = _read(put(khr(), "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/linearVelocity", [0, -HUGE, 0]))
    assert (k.bodies[0].pointer, k.bodies[0].motion.linear_velocity) == (
        "/nodes/0/extensions/KHR_physics_rigid_bodies/motion", (0.0, -math.inf, 0.0))


def test_integer_beyond_double_range_in_a_joint_node_transform() -> None:
    # Joint frames need world matrices; local_matrix raised OverflowError on such a translation.
    scene = _read(put(joint2(), "/nodes/2/translation", [HUGE, 0, 0]))
    assert [(j.pointer, j.body_a, j.body_b) for j in scene.joints] == [
        ("/nodes/2/extensions/OMI_physics_joint", 0, 3)]
    assert scene.joints[0].frame_a.translation == (0.0, 0.0, 0.0)  # malformed ⇒ identity, like other junk


@pytest.mark.parametrize("bad", [HUGE, math.nan])
def test_non_finite_inertia_tensor(bad: float) -> None:
    # 10**400 raised OverflowError in the tensor's conversion; NaN gave a NaN inertia diagonal, which later
    # crashed `info` (LinAlgError in the principal axes). Both are ignored now, with a note.
    tensor = [1, bad, 0, bad, 1, 0, 0, 0, 1]
    scene = _read(put(omi_old(), "/nodes/0/extensions/OMI_physics_body/inertiaTensor", tensor))
    assert scene.bodies[0].motion.inertia_diagonal is None  # computed from the shapes instead
    assert _notes(scene) == [("BT-2", "/nodes/0/extensions/OMI_physics_body/inertiaTensor")]


def test_cycle_in_children_keeps_the_nearest_body() -> None:
    # 0 → 1 → 2 → 1: the walk up from 2 stops where the cycle closes, and still finds body 0 above it.
    gltf = finish({
        "nodes": [ext(OB, {"motion": {"type": "dynamic"}}, children=[1]),
                  ext(OB, {"collider": {"shape": 0}}, children=[2]),
                  ext(OB, {"collider": {"shape": 0}}, children=[1])],
        "extensions": {SH: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
    })
    scene = _read(gltf)
    assert [(c.pointer, c.body) for c in scene.colliders] == [
        ("/nodes/1/extensions/OMI_physics_body/collider", 0), ("/nodes/2/extensions/OMI_physics_body/collider", 0)]


def test_document_that_is_not_an_object() -> None:
    with pytest.raises(GltfError) as caught:
        read_scene(Document(json=[1, 2], buffers=[]))  # type: ignore[arg-type]
    assert (caught.value.pointer, caught.value.message) == ("", "the glTF JSON must be an object")


def test_info_summary_with_overflowing_shape_size() -> None:
    # The mass of a sphere of radius 1e200 overflows (inf, then a NaN inertia tensor in geometry/; it raised
    # OverflowError once): the row says so.
    doc = as_doc(put(omi4(), "/extensions/OMI_physics_shape/shapes/0", {"type": "sphere",
                                                                       "sphere": {"radius": 1e200}}))
    row = summarize(doc, read_scene(doc))["bodies"][0]
    assert (row["node"], row["mass"]) == (0, "nan")
    assert row["error"].startswith("mass properties cannot be computed: ")


def test_info_summary_with_malformed_top_level_arrays() -> None:
    # summarize listed/len()'d extensionsUsed and nodes as given (TypeError on a number).
    doc = as_doc(put(put(khr(), "/extensionsUsed", 3), "/nodes", {"0": {}}))
    summary = summarize(doc, read_scene(doc))
    assert (summary["extensionsUsed"], summary["counts"]["nodes"], summary["bodies"]) == ([], 0, [])
