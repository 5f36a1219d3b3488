"""Core glTF checks: one broken document per check family with the exact code, severity and
JSON pointer we report — the Khronos glTF-Validator's own spelling. ``test_khronos_reports_the_same`` runs the
same table through the Khronos validator: each row is what it says too.
"""

from __future__ import annotations

import copy
import json
import math
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core_docs import DATA, as_document, base, mutated, write
from gltf_physics.gltf.document import Document
from gltf_physics.validation import Severity, validate, validate_file
from gltf_physics.validation.gltf.codes import CORE_CODES
from khronos_batch import khronos_messages
from mutation import key_paths

E, W = Severity.ERROR, Severity.WARNING
PBR = "/materials/0/pbrMetallicRoughness"
PRIM = "/meshes/0/primitives/0"
Mut = Callable[[dict[str, Any]], Any]


def put(path: str, value: Any) -> Mut:
    """Set the value at a JSON pointer (the parent must exist; one past an array's end appends)."""
    def run(g: dict[str, Any]) -> None:
        *parents, last = path.strip("/").split("/")
        holder: Any = g
        for key in parents:
            holder = holder[int(key)] if isinstance(holder, list) else holder[key]
        if isinstance(holder, list) and int(last) == len(holder):
            holder.append(value)
        else:
            holder[int(last) if isinstance(holder, list) else last] = value
    return run


def drop(path: str) -> Mut:
    def run(g: dict[str, Any]) -> None:
        *parents, last = path.strip("/").split("/")
        holder: Any = g
        for key in parents:
            holder = holder[int(key)] if isinstance(holder, list) else holder[key]
        del holder[int(last) if isinstance(holder, list) else last]
    return run


def both(*muts: Mut) -> Mut:
    def run(g: dict[str, Any]) -> None:
        for m in muts:
            m(g)
    return run


# (case id, mutation, (code, severity, pointer) we must report)
CASES: list[tuple[str, Mut, tuple[str, Severity, str]]] = [
    # the three examples of the issue
    ("no asset", drop("/asset"), ("UNDEFINED_PROPERTY", E, "/")),
    ("scene out of range", put("/scene", 5), ("UNRESOLVED_REFERENCE", E, "/scene")),
    ("3-number baseColorFactor", put(f"{PBR}/baseColorFactor", [1, 1, 1]),
     ("ARRAY_LENGTH_NOT_IN_LIST", E, f"{PBR}/baseColorFactor")),
    # asset
    ("no version", drop("/asset/version"), ("UNDEFINED_PROPERTY", E, "/asset")),
    ("version 3.0", put("/asset/version", "3.0"), ("UNKNOWN_ASSET_MAJOR_VERSION", E, "/asset/version")),
    ("version pattern", put("/asset/version", "2"), ("PATTERN_MISMATCH", E, "/asset/version")),
    ("version type", put("/asset/version", 2.0), ("TYPE_MISMATCH", E, "/asset/version")),
    ("minVersion", put("/asset/minVersion", "2.1"), ("ASSET_MIN_VERSION_GREATER_THAN_VERSION", E, "/asset/minVersion")),
    # indices into top-level arrays
    ("negative index", put("/nodes/0/mesh", -1), ("INVALID_INDEX", E, "/nodes/0/mesh")),
    ("fractional index", put("/nodes/0/mesh", 1.5), ("TYPE_MISMATCH", E, "/nodes/0/mesh")),
    ("camera out of range", put("/nodes/1/camera", 3), ("UNRESOLVED_REFERENCE", E, "/nodes/1/camera")),
    ("material out of range", put(f"{PRIM}/material", 1), ("UNRESOLVED_REFERENCE", E, f"{PRIM}/material")),
    ("scene node out of range", put("/scenes/0/nodes", [0, 1, 9]), ("UNRESOLVED_REFERENCE", E, "/scenes/0/nodes/2")),
    ("duplicate scene node", put("/scenes/0/nodes", [0, 0]), ("DUPLICATE_ELEMENTS", E, "/scenes/0/nodes/1")),
    ("empty scene nodes", put("/scenes/0/nodes", []), ("EMPTY_ENTITY", E, "/scenes/0/nodes")),
    ("empty top-level array", put("/samplers", []), ("EMPTY_ENTITY", E, "/samplers")),
    ("top-level not an array", put("/meshes", {}), ("TYPE_MISMATCH", E, "/meshes")),
    ("top-level entry not an object", put("/nodes/3", 7), ("TYPE_MISMATCH", E, "/nodes/3")),
    ("null value", put(f"{PBR}/metallicFactor", None), ("TYPE_MISMATCH", E, f"{PBR}/metallicFactor")),
    # extensions
    ("undeclared extension", put("/nodes/0/extensions", {"EXT_foo": {}}),
     ("UNDECLARED_EXTENSION", E, "/nodes/0/extensions/EXT_foo")),
    ("required but unused", put("/extensionsRequired", ["EXT_foo"]),
     ("UNUSED_EXTENSION_REQUIRED", E, "/extensionsRequired/0")),
    ("extensions not an object", put("/nodes/0/extensions", "x"), ("TYPE_MISMATCH", E, "/nodes/0/extensions")),
    # nodes and scenes
    ("node loop", put("/nodes/3/children", [2]), ("NODE_LOOP", E, "/nodes/2")),
    ("second parent", put("/nodes/0/children", [3]), ("NODE_PARENT_OVERRIDE", E, "/nodes/2/children/0")),
    ("scene lists a child", put("/scenes/0/nodes", [0, 1, 2, 3]), ("SCENE_NON_ROOT_NODE", E, "/scenes/0/nodes/3")),
    ("rotation not unit", put("/nodes/1/rotation", [0, 0, 0, 0.5]), ("ROTATION_NON_UNIT", E, "/nodes/1/rotation")),
    ("rotation out of range", put("/nodes/1/rotation", [0, 0, 0, 2]), ("VALUE_NOT_IN_RANGE", E, "/nodes/1/rotation/3")),
    ("matrix and TRS", put("/nodes/0/matrix", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
     ("NODE_MATRIX_TRS", E, "/nodes/0/matrix")),
    ("translation length", put("/nodes/0/translation", [0, 0]),
     ("ARRAY_LENGTH_NOT_IN_LIST", E, "/nodes/0/translation")),
    ("empty translation", put("/nodes/0/translation", []), ("EMPTY_ENTITY", E, "/nodes/0/translation")),
    ("weights without morphs", put("/nodes/0/weights", [1]), ("NODE_WEIGHTS_INVALID", E, "/nodes/0/weights")),
    # materials (factors' lengths and ranges)
    ("baseColorFactor range", put(f"{PBR}/baseColorFactor", [2, 1, 1, 1]),
     ("VALUE_NOT_IN_RANGE", E, f"{PBR}/baseColorFactor/0")),
    ("baseColorFactor string", put(f"{PBR}/baseColorFactor", [1, "x", 1, 1]),
     ("ARRAY_TYPE_MISMATCH", E, f"{PBR}/baseColorFactor")),
    ("metallicFactor range", put(f"{PBR}/metallicFactor", 1.5), ("VALUE_NOT_IN_RANGE", E, f"{PBR}/metallicFactor")),
    ("emissiveFactor length", put("/materials/0/emissiveFactor", [0, 0, 0, 0]),
     ("ARRAY_LENGTH_NOT_IN_LIST", E, "/materials/0/emissiveFactor")),
    ("alphaMode", put("/materials/0/alphaMode", "GLASS"), ("VALUE_NOT_IN_LIST", W, "/materials/0/alphaMode")),
    ("texture info without index", put(f"{PBR}/baseColorTexture", {}),
     ("UNDEFINED_PROPERTY", E, f"{PBR}/baseColorTexture")),
    # buffers, bufferViews, accessors
    ("buffer without byteLength", drop("/buffers/0/byteLength"), ("UNDEFINED_PROPERTY", E, "/buffers/0")),
    ("bufferView too long", put("/bufferViews/3/byteLength", 28),
     ("BUFFER_VIEW_TOO_LONG", E, "/bufferViews/3/byteLength")),
    ("bufferView buffer", put("/bufferViews/0/buffer", 1), ("UNRESOLVED_REFERENCE", E, "/bufferViews/0/buffer")),
    ("byteStride multiple of 4", put("/bufferViews/0/byteStride", 14),
     ("VALUE_MULTIPLE_OF", E, "/bufferViews/0/byteStride")),
    ("byteStride too small", put("/bufferViews/0/byteStride", 8), ("ACCESSOR_SMALL_BYTESTRIDE", E, "/accessors/0")),
    ("accessor offset alignment", put("/accessors/3/byteOffset", 2),
     ("ACCESSOR_OFFSET_ALIGNMENT", E, "/accessors/3/byteOffset")),
    ("accessor total offset alignment", put("/bufferViews/3/byteOffset", 50),
     ("ACCESSOR_TOTAL_OFFSET_ALIGNMENT", E, "/accessors/3")),
    ("accessor too long", put("/accessors/3/count", 3), ("ACCESSOR_TOO_LONG", E, "/accessors/3")),
    ("accessor count 0", put("/accessors/3/count", 0), ("VALUE_NOT_IN_RANGE", E, "/accessors/3/count")),
    ("accessor without type", drop("/accessors/3/type"), ("UNDEFINED_PROPERTY", E, "/accessors/3")),
    ("componentType unknown", put("/accessors/0/componentType", 5000),
     ("VALUE_NOT_IN_LIST", W, "/accessors/0/componentType")),
    ("componentType type", put("/accessors/0/componentType", "FLOAT"),
     ("TYPE_MISMATCH", E, "/accessors/0/componentType")),
    ("normalized float", put("/accessors/3/normalized", True),
     ("ACCESSOR_NORMALIZED_INVALID", E, "/accessors/3/normalized")),
    ("max length", put("/accessors/0/max", [1, 1]), ("ARRAY_LENGTH_NOT_IN_LIST", E, "/accessors/0/max")),
    ("integer min out of range", put("/accessors/1/min", [-1]), ("INVALID_GL_VALUE", E, "/accessors/1/min")),
    ("integer min fractional", put("/accessors/1/min", [0.5]), ("ARRAY_TYPE_MISMATCH", E, "/accessors/1/min")),
    ("POSITION min mismatch", put("/accessors/0/min", [0, 0, -1]), ("ACCESSOR_MIN_MISMATCH", E, "/accessors/0/min/2")),
    ("POSITION max mismatch", put("/accessors/0/max", [1, 2, 0]), ("ACCESSOR_MAX_MISMATCH", E, "/accessors/0/max/1")),
    # meshes and primitives
    ("POSITION without bounds", drop("/accessors/0/min"),
     ("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", E, f"{PRIM}/attributes/POSITION")),
    ("POSITION format", put(f"{PRIM}/attributes/POSITION", 2),
     ("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", E, f"{PRIM}/attributes/POSITION")),
    ("attribute name", put(f"{PRIM}/attributes/FOO", 0),
     ("MESH_PRIMITIVE_INVALID_ATTRIBUTE", E, f"{PRIM}/attributes/FOO")),
    ("attribute index", put(f"{PRIM}/attributes/NORMAL", 9), ("UNRESOLVED_REFERENCE", E, f"{PRIM}/attributes/NORMAL")),
    ("no attributes", put(f"{PRIM}/attributes", {}), ("EMPTY_ENTITY", E, f"{PRIM}/attributes")),
    ("no primitives", put("/meshes/0/primitives", []), ("EMPTY_ENTITY", E, "/meshes/0/primitives")),
    ("mode", put(f"{PRIM}/mode", 9), ("VALUE_NOT_IN_RANGE", E, f"{PRIM}/mode")),
    ("indices format", put(f"{PRIM}/indices", 2),
     ("MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT", E, f"{PRIM}/indices")),
    ("index out of bounds", put("/accessors/0/count", 2), ("ACCESSOR_INDEX_OOB", E, f"{PRIM}/indices")),
    ("unequal counts", put(f"{PRIM}/attributes/TEXCOORD_0", 2),
     ("MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT", E, f"{PRIM}/attributes/TEXCOORD_0")),
    ("shared vertex view without stride",
     both(put("/accessors/4", {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}),
          put(f"{PRIM}/attributes/NORMAL", 4)),
     ("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", E, f"{PRIM}/attributes/NORMAL")),
    ("normals not unit", both(put("/accessors/4", {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}),
                              put("/bufferViews/0/byteStride", 12), put(f"{PRIM}/attributes/NORMAL", 4)),
     ("ACCESSOR_VECTOR3_NON_UNIT", E, f"{PRIM}/attributes/NORMAL")),
    ("accessor used twice", put(f"{PRIM}/attributes/TEXCOORD_0", 2),
     ("ACCESSOR_USAGE_OVERRIDE", E, "/animations/0/samplers/0/input")),
    ("bufferView target", put("/bufferViews/0/target", 34963),
     ("BUFFER_VIEW_TARGET_OVERRIDE", E, f"{PRIM}/attributes/POSITION")),
    ("element below min", put("/accessors/0/min", [0, 0, 1]),
     ("ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", E, "/accessors/0/min/2")),
    # animations
    ("channel sampler", put("/animations/0/channels/0/sampler", 1),
     ("UNRESOLVED_REFERENCE", E, "/animations/0/channels/0/sampler")),
    ("channel node", put("/animations/0/channels/0/target/node", 9),
     ("UNRESOLVED_REFERENCE", E, "/animations/0/channels/0/target/node")),
    ("channel path", put("/animations/0/channels/0/target/path", "color"),
     ("VALUE_NOT_IN_LIST", W, "/animations/0/channels/0/target/path")),
    ("no channels", put("/animations/0/channels", []), ("EMPTY_ENTITY", E, "/animations/0/channels")),
    ("sampler without input", drop("/animations/0/samplers/0/input"),
     ("UNDEFINED_PROPERTY", E, "/animations/0/samplers/0")),
    ("input format", put("/animations/0/samplers/0/input", 3),
     ("ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", E, "/animations/0/samplers/0/input")),
    ("input without bounds", drop("/accessors/2/max"),
     ("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", E, "/animations/0/samplers/0/input")),
    ("output format", put("/animations/0/channels/0/target/path", "rotation"),
     ("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", E, "/animations/0/channels/0/sampler")),
    ("output count", put("/animations/0/samplers/0/interpolation", "CUBICSPLINE"),
     ("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", E, "/animations/0/channels/0/sampler")),
    ("input min", put("/accessors/2/min", [1]), ("ACCESSOR_MIN_MISMATCH", E, "/accessors/2/min/0")),
    ("animated matrix node", both(put("/animations/0/channels/0/target/node", 3),
                                  put("/nodes/3/matrix", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])),
     ("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", E, "/animations/0/channels/0/target")),
    # images, textures, samplers
    ("texture source", put("/textures/0/source", 1), ("UNRESOLVED_REFERENCE", E, "/textures/0/source")),
    ("texture sampler", put("/textures/0/sampler", -1), ("INVALID_INDEX", E, "/textures/0/sampler")),
    ("wrap mode", put("/samplers/0/wrapS", 5), ("VALUE_NOT_IN_LIST", W, "/samplers/0/wrapS")),
    ("image uri type", put("/images/0/uri", 3), ("TYPE_MISMATCH", E, "/images/0/uri")),
    ("image bufferView without mimeType", put("/images/0", {"bufferView": 2}),
     ("UNSATISFIED_DEPENDENCY", E, "/images/0/bufferView")),
    # skins
    ("skin without joints", drop("/skins/0/joints"), ("UNDEFINED_PROPERTY", E, "/skins/0")),
    ("skin joint", put("/skins/0/joints", [9]), ("UNRESOLVED_REFERENCE", E, "/skins/0/joints/0")),
    ("joints without common root", put("/skins/0/joints", [3, 1]), ("SKIN_NO_COMMON_ROOT", E, "/skins/0/joints")),
    ("skeleton not a root", put("/skins/0/skeleton", 0), ("SKIN_SKELETON_INVALID", E, "/skins/0/skeleton")),
    ("skin on a mesh without joints", put("/nodes/0/skin", 0), ("NODE_SKIN_WITH_NON_SKINNED_MESH", E, "/nodes/0")),
    ("skin IBM format", put("/skins/0/inverseBindMatrices", 3),
     ("SKIN_IBM_INVALID_FORMAT", E, "/skins/0/inverseBindMatrices")),
    # cameras
    ("camera without yfov", drop("/cameras/0/perspective/yfov"), ("UNDEFINED_PROPERTY", E, "/cameras/0/perspective")),
    ("camera type", put("/cameras/0/type", "fisheye"), ("VALUE_NOT_IN_LIST", W, "/cameras/0/type")),
    ("camera znear 0", put("/cameras/0/perspective/znear", 0),
     ("VALUE_NOT_IN_RANGE", E, "/cameras/0/perspective/znear")),
    ("camera zfar ≤ znear", put("/cameras/0/perspective/zfar", 0.05),
     ("CAMERA_ZFAR_LEQUAL_ZNEAR", E, "/cameras/0/perspective")),
    ("orthographic missing", put("/cameras/0/type", "orthographic"), ("UNDEFINED_PROPERTY", E, "/cameras/0")),
]


def _ours(gltf: dict[str, Any]) -> set[tuple[str, Severity, str]]:
    return {(m.code, m.severity, m.pointer) for m in validate(as_document(gltf)).messages}


def test_base_is_valid() -> None:
    assert validate(as_document(base())).messages == []


@pytest.mark.parametrize(("case", "mutation", "expected"), CASES, ids=[c[0] for c in CASES])
def test_core_check(case: str, mutation: Mut, expected: tuple[str, Severity, str]) -> None:
    code, severity, _ = expected
    assert CORE_CODES[code][0] == severity  # the table's severity is the Khronos validator's
    assert expected in _ours(mutated(mutation))


def test_only_core_codes_on_core_mutations() -> None:
    """Core mutations of a physics-free document give only core codes (no GLTF-…/physics rule leaks)."""
    for _, mutation, _ in CASES:
        assert {code for code, _, _ in _ours(mutated(mutation))} <= set(CORE_CODES)


def test_the_three_issue_examples_are_invalid_from_a_file(tmp_path: Path) -> None:
    """Through validate_file, as the CLI sees them: each one is 'invalid', never 'valid'."""
    for i, (_, mutation, expected) in enumerate(CASES[:3]):
        report = validate_file(write(mutated(mutation), tmp_path / f"{i}.gltf"))
        assert report.exit_code() == 1
        assert expected in {(m.code, m.severity, m.pointer) for m in report.messages}


def test_refused_file_names_the_core_error(tmp_path: Path) -> None:
    """A file the loader refuses stays unreadable (exit 2) and also names the Khronos-spelled error."""
    report = validate_file(write(mutated(put("/bufferViews/0/buffer", 1)), tmp_path / "bad.gltf"))
    assert report.unreadable and report.exit_code() == 2
    assert [(m.code, m.pointer) for m in report.messages] == [("GLTF-UNREADABLE", "/bufferViews/0/buffer"),
                                                              ("UNRESOLVED_REFERENCE", "/bufferViews/0/buffer")]


# Rows where our errors are a strict subset of the Khronos validator's, and why.
PARTIAL = {
    "top-level entry not an object": "Khronos also reports every reference to the non-object node as unresolved "
                                     "and the skin's joints as lacking a common root; we report the entry once",
    "skin joint": "Khronos also reports SKIN_NO_COMMON_ROOT for a skin whose only joint is unresolved; we check "
                  "the roots of resolvable joints only",
}


def _errors(messages: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(m["code"], m["pointer"]) for m in messages if m["severity"] == 0}


def test_khronos_reports_the_same(tmp_path: Path) -> None:
    """The oracle: for every row the Khronos validator reports the same code, severity and pointer, and the very
    same set of errors (but for the PARTIAL rows, where ours is a subset)."""
    files = [write(mutated(m), tmp_path / f"{i}.gltf") for i, (_, m, _) in enumerate(CASES)]
    files.append(write(base(), tmp_path / "base.gltf"))
    reports = khronos_messages(files)
    assert [m for m in reports[files[-1]] if m["severity"] <= 1] == []
    for (case, mutation, (code, severity, pointer)), f in zip(CASES, files, strict=False):
        theirs = reports[f]
        assert (code, int(severity), pointer) in {(m["code"], m["severity"], m["pointer"]) for m in theirs}, case
        ours = {(c, p) for c, s, p in _ours(mutated(mutation)) if s == Severity.ERROR}
        if case in PARTIAL:
            assert ours < _errors(theirs), case
        else:
            assert ours == _errors(theirs), case


def _times_document(times: list[float]) -> Document:
    """The base with its keyframe times replaced (same byte layout: two floats at byte 44)."""
    gltf = base()
    gltf["accessors"][2].update(min=[min(times)], max=[max(times)])
    data = DATA[:44] + struct.pack("<2f", *times) + DATA[52:]
    return Document(json=gltf, buffers=[data])


def test_keyframe_times_must_increase_and_be_non_negative() -> None:
    decreasing = {(m.code, m.pointer) for m in validate(_times_document([1.0, 0.5])).messages}
    assert ("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", "/accessors/2") in decreasing
    negative = {(m.code, m.pointer) for m in validate(_times_document([-1.0, 0.5])).messages}
    assert negative == {("ACCESSOR_ANIMATION_INPUT_NEGATIVE", "/accessors/2")}


def test_non_finite_float_data_is_an_error() -> None:
    gltf = base()
    data = DATA[:52] + struct.pack("<f", math.nan) + DATA[56:]
    report = validate(Document(json=gltf, buffers=[data]))
    assert [(m.code, m.pointer) for m in report.messages] == [("ACCESSOR_INVALID_FLOAT", "/accessors/3")]


def test_missing_image_file_is_an_io_error(tmp_path: Path) -> None:
    report = validate_file(write(mutated(put("/images/0/uri", "missing.png")), tmp_path / "a.gltf"))
    assert [(m.code, m.pointer) for m in report.messages] == [("IO_ERROR", "/images/0/uri")]


BAD = [None, True, "x", -1, 10**9, 1.5, math.nan, math.inf, 1e308, 2**63, [], {}, [1, 2], [math.nan] * 4, {"a": 1}]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_core_checks_never_stop_early(data: st.DataObject) -> None:
    """Any value anywhere in the core JSON: the core checks report it, never crash (no "stopped early")."""
    gltf = base()
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        paths = key_paths(gltf, tuple(gltf), 8)
        path = paths[data.draw(st.integers(0, len(paths) - 1), label="path")]
        holder: Any = gltf
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = copy.deepcopy(data.draw(st.sampled_from(BAD), label="value"))
    report = validate(as_document(gltf))
    assert not [m.message for m in report.messages if "stopped early" in m.message]
    json.dumps(report.to_dict(), default=str)
