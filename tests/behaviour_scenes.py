"""Small KHR physics scenes (plain glTF JSON) for the behaviour-physics tests: boxes and spheres with known mass,
a floor, triggers, and a KHR_interactivity graph slot."""

from __future__ import annotations

import copy
from typing import Any

KHR = "KHR_physics_rigid_bodies"


def scene(*, gravity: bool = True) -> dict[str, Any]:
    """An empty KHR scene (shapes and filters added by the helpers below)."""
    doc: dict[str, Any] = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": []}], "nodes": [],
        "extensionsUsed": ["KHR_implicit_shapes", KHR],
        "extensions": {"KHR_implicit_shapes": {"shapes": []}, KHR: {"collisionFilters": []}},
    }
    if not gravity:
        doc["extensions"][KHR]["physicsMaterials"] = []
    return doc


def _shape(doc: dict[str, Any], shape: dict[str, Any]) -> int:
    shapes = doc["extensions"]["KHR_implicit_shapes"]["shapes"]
    shapes.append(copy.deepcopy(shape))
    return len(shapes) - 1


def _node(doc: dict[str, Any], node: dict[str, Any]) -> int:
    doc["nodes"].append(node)
    doc["scenes"][0]["nodes"].append(len(doc["nodes"]) - 1)
    return len(doc["nodes"]) - 1


def box(size: float = 1.0) -> dict[str, Any]:
    """A cube shape of edge ``size``."""
    return {"type": "box", "box": {"size": [size, size, size]}}


def sphere(radius: float = 0.5) -> dict[str, Any]:
    """A sphere shape."""
    return {"type": "sphere", "sphere": {"radius": radius}}


def add_body(doc: dict[str, Any], at: tuple[float, float, float], shape: dict[str, Any], *, mass: float = 2.0,
             inertia: tuple[float, float, float] | None = None, gravity_factor: float | None = None,
             name: str = "", filter_index: int | None = None, kinematic: bool = False) -> int:
    """A dynamic body with one collider on its own node; returns the node index."""
    motion: dict[str, Any] = {"mass": mass}
    if inertia is not None:
        motion["inertiaDiagonal"] = list(inertia)
    if gravity_factor is not None:
        motion["gravityFactor"] = gravity_factor
    if kinematic:
        motion["isKinematic"] = True
    collider: dict[str, Any] = {"geometry": {"shape": _shape(doc, shape)}}
    if filter_index is not None:
        collider["collisionFilter"] = filter_index
    return _node(doc, {"name": name, "translation": list(at),
                       "extensions": {KHR: {"motion": motion, "collider": collider}}})


def add_static(doc: dict[str, Any], at: tuple[float, float, float], shape: dict[str, Any], name: str = "") -> int:
    """A static collider node (no motion)."""
    return _node(doc, {"name": name, "translation": list(at),
                       "extensions": {KHR: {"collider": {"geometry": {"shape": _shape(doc, shape)}}}}})


def add_trigger(doc: dict[str, Any], at: tuple[float, float, float], shape: dict[str, Any],
                name: str = "") -> int:
    """A static trigger node."""
    return _node(doc, {"name": name, "translation": list(at),
                       "extensions": {KHR: {"trigger": {"geometry": {"shape": _shape(doc, shape)}}}}})


def add_filter(doc: dict[str, Any], systems: list[str], *, collide_with: list[str] | None = None,
               not_collide_with: list[str] | None = None) -> int:
    """A KHR collision filter; returns its index."""
    f: dict[str, Any] = {"collisionSystems": systems}
    if collide_with is not None:
        f["collideWithSystems"] = collide_with
    if not_collide_with is not None:
        f["notCollideWithSystems"] = not_collide_with
    filters = doc["extensions"][KHR]["collisionFilters"]
    filters.append(f)
    return len(filters) - 1


def document(doc: dict[str, Any]) -> Any:
    """The gltf_physics Document of ``doc`` (a copy)."""
    from gltf_physics.gltf.document import Document

    return Document(copy.deepcopy(doc))


def world(doc: dict[str, Any], **options: Any) -> Any:
    """A World of ``doc`` (options as World's)."""
    import gltf_physics as gp

    return gp.World(gp.read_scene(document(doc)), **options)
