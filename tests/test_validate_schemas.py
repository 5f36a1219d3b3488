"""Cross-check against the official JSON schemas (test time only, docs/architecture.md): wherever a fixture's extension
object fails its generation's schema, the validator reports at least a warning at that pointer (or at a
prefix or inside it). Known schema defects (the spec) are listed and excluded with the reason."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4, DRAFT202012

from conftest import FIXTURES, all_fixture_files, fixture_path
from gltf_physics.gltf.io import load
from gltf_physics.validation import Severity, validate

SCHEMAS = FIXTURES.parent / "specs" / "schemas"

# Core glTF schemas the extension schemas refer to but the snapshot does not hold: permissive stand-ins,
# except glTFid, whose meaning (an integer ≥ 0) the GEN-3 rule is about.
STUBS = {"glTFProperty.schema.json": {}, "glTFChildOfRootProperty.schema.json": {},
         "glTFid.schema.json": {"type": "integer", "minimum": 0}}

# Fixture folder generation → schema folder generation, where the names differ (sub-era suffixes).
GEN_ALIASES = {"gen1-type-omi-collider": "gen1-type", "gen1-type-shape": "gen1-type",
               "gen1-constraints-omi-collider": "gen1-constraints", "gen1-2023-type-era": "gen1"}

# Families whose fixtures hold several extensions of the same generation.
FAMILY = {"OMI_vehicle": ("OMI_vehicle_body", "OMI_vehicle_wheel", "OMI_vehicle_thruster",
                          "OMI_vehicle_hover_thruster"),
          "KHR_physics_rigid_bodies": ("KHR_physics_rigid_bodies", "KHR_collision_shapes",
                                       "KHR_implicit_shapes"),
          "KHR_rigid_bodies": ("KHR_rigid_bodies", "KHR_collision_shapes")}

# Schema defects named in the specifications: the schema, not the file, is wrong; the validator rightly says nothing.
DEFECTS = {
    ("OMI_physics_joint", "gen2-physicsJoints", "doc"): "doc schema requires 'constraints' (the spec)",
    ("KHR_rigid_bodies", "gen0-khr-rigid-bodies", "doc"): "physicsJointLimits items are one limit",
    ("OMI_physics_shape", "gen1-flat", "doc"): "draft-04 schema uses 'const', which draft-04 ignores: its "
                                               "oneOf branches overlap, rejecting capsules, hulls, trimeshes",
    ("OMI_vehicle_thruster", "gen1-current", "doc"): "gen1 schema types maxGimbal as an array",
    ("OMI_vehicle_hover_thruster", "gen1-current", "doc"): "gen1 schema types maxGimbal as an array",
}


# Files the snapshot holds under a newer name than the one a sibling schema refers to (renames).
RENAMED = {
    ("OMI_physics_joint", "gen1-constraints"): {"joint_constraint.schema.json":
                                                "glTF.OMI_physics_joint.joint_constraint.schema.json"},
    ("OMI_physics_shape", "gen2-subjson-nodeext"): {"shape.schema.json":
                                                    "glTF.OMI_physics_shape.shape.schema.json"},
}


@cache
def _registry(ext: str, gen: str) -> tuple[Registry, dict[str, Any]]:
    folder = SCHEMAS / ext / gen
    resources = []
    files: dict[str, Any] = {}
    for name, stub in STUBS.items():
        resources.append((name, DRAFT202012.create_resource(stub)))
    for path in sorted(folder.glob("*.json")):
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            continue  # listed in DEFECTS
        spec = DRAFT4 if "draft-04" in schema.get("$schema", "") else DRAFT202012
        files[path.name] = schema
        resource = Resource.from_contents(schema, default_specification=spec)
        resources.append((path.name, resource))
        if isinstance(schema.get("$id"), str) and schema["$id"] != path.name:
            # a file named differently from its $id (KHR gen1 collider, the spec) is found by its $id too
            resources.append((schema["$id"], resource))
        if not path.name.endswith(".schema.json"):  # referenced as .schema.json (the spec defect)
            resources.append((path.name.removesuffix(".json") + ".schema.json", resource))
    by_name = dict(resources)
    for old, new in RENAMED.get((ext, gen), {}).items():
        resources.append((old, by_name[new]))
    return Registry().with_resources(resources), files


def _schema_errors(ext: str, gen: str, level: str, value: Any) -> list[str]:
    registry, files = _registry(ext, gen)
    name = f"{'glTF' if level == 'doc' else 'node'}.{ext}.schema.json"
    if name not in files:
        return []
    schema = files[name]
    cls = jsonschema.validators.validator_for(schema)
    validator = cls(schema, registry=registry)
    try:
        return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(value)]
    except Exception as exc:  # an unresolvable $ref is a schema defect: report it as a failure to list
        return [f"schema unusable: {exc!r}"]


def _objects(gltf: dict[str, Any]) -> Iterator[tuple[str, str, str, Any]]:
    """(extension, level, pointer, value) of every extension object on the document and its nodes."""
    for name, value in (gltf.get("extensions") or {}).items():
        yield name, "doc", f"/extensions/{name}", value
    for i, node in enumerate(gltf.get("nodes") or []):
        for name, value in (node.get("extensions") or {}).items():
            yield name, "node", f"/nodes/{i}/extensions/{name}", value


def _generation(relative: str, ext: str) -> str | None:
    family, gen = relative.split("/")[:2]
    if ext != family and ext not in FAMILY.get(family, ()):
        return None
    gen = GEN_ALIASES.get(gen, gen)
    return gen if (SCHEMAS / ext / gen).is_dir() else None


def _covered(report_pointers: list[str], pointer: str) -> bool:
    return any(p == pointer or p.startswith(pointer + "/") or pointer.startswith(p + "/")
               for p in report_pointers)


@pytest.mark.parametrize("relative", all_fixture_files())
def test_schema_rejections_are_reported(relative: str) -> None:
    path = fixture_path(relative)
    if not SCHEMAS.is_dir():
        pytest.skip(f"schemas not found at {SCHEMAS}")
    doc = load(path)
    report = validate(doc)
    pointers = [m.pointer for m in report.messages if m.severity <= Severity.WARNING]
    missed = []
    for ext, level, pointer, value in _objects(doc.json):
        gen = _generation(relative, ext)
        if gen is None or (ext, gen, level) in DEFECTS:
            continue
        errors = _schema_errors(ext, gen, level, value)
        if errors and not _covered(pointers, pointer):
            missed.append((pointer, errors[:3]))
    assert missed == []


def test_the_cross_check_sees_real_rejections() -> None:
    """The harness itself works: the schema rejects a motion without type, and the validator reports it."""
    relative = "OMI_physics_body/gen4-materials/triggers/triggers.gltf"
    doc = load(fixture_path(relative))
    value = doc.json["nodes"][4]["extensions"]["OMI_physics_body"]
    errors = _schema_errors("OMI_physics_body", "gen4-materials", "node", value)
    assert any("'type' is a required property" in e for e in errors)
    report = validate(doc)
    assert ("BODY-2", "/nodes/4/extensions/OMI_physics_body/motion") in {(m.code, m.pointer)
                                                                         for m in report.messages}


def test_known_schema_defects_are_real() -> None:
    """Each listed defect really makes the schema reject an official example (so the exclusion is needed)."""
    cases = {
        ("OMI_physics_joint", "gen2-physicsJoints"): "OMI_physics_joint/gen2-physicsJoints/simple_joint.gltf",
        ("OMI_vehicle_thruster", "gen1-current"):
            "OMI_vehicle/gen1-current/OMI_vehicle_thruster/rocket_ship.gltf",
    }
    for (ext, gen), relative in cases.items():
        doc = load(fixture_path(relative))
        assert _schema_errors(ext, gen, "doc", doc.json["extensions"][ext]) != []
