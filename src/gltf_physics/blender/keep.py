"""What Blender has no counterpart for (triggers, vehicles, wheels, thrusters, gravity, seats), kept as JSON.

The model objects themselves are kept, not their extension JSON: on export they go back into the
:class:`~gltf_physics.model.PhysicsScene` and the dialect writers spell them in the family asked for. Node
indices are kept as Blender object names (indices change between import and export); material and filter
indices as the material or filter itself. No bpy here.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from enum import Enum
from typing import Any

from .. import model

NODE_FIELDS = frozenset({"node", "body", "vehicle", "pilot_seat"})
LIST_NODE_FIELDS = frozenset({"nodes"})
INDEX_FIELDS = {"filter": "filters", "physics_material": "materials", "material": "materials"}
KEPT = ("triggers", "vehicles", "wheels", "thrusters", "hover_thrusters", "gravity_fields", "seats")


def encode(scene: model.PhysicsScene, name_of: Callable[[int], str | None]) -> str:
    """The scene's objects without a Blender counterpart as one JSON text (``name_of``: node → object name)."""
    out: dict[str, Any] = {key: [_value(x, scene, name_of) for x in getattr(scene, key)] for key in KEPT}
    out["world_gravity"] = None if scene.world_gravity is None else _value(scene.world_gravity, scene, name_of)
    return json.dumps(out)


def decode(text: str, scene: model.PhysicsScene, node_of: Callable[[str], int | None]) -> list[str]:
    """Put the kept objects of ``text`` back into ``scene`` (``node_of``: object name → node index); returns
    one line per object dropped because an object it names is gone."""
    data = json.loads(text)
    dropped: list[str] = []
    for key in KEPT:
        for item in data.get(key, []):
            try:
                getattr(scene, key).append(_build(item, scene, node_of))
            except LookupError as e:
                dropped.append(f"{key[:-1].replace('_', ' ')}: {e}")
    if data.get("world_gravity") is not None:
        scene.world_gravity = _build(data["world_gravity"], scene, node_of)
    return dropped


def _value(x: Any, scene: model.PhysicsScene, name_of: Callable[[int], str | None], key: str = "") -> Any:
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        fields = {f.name: _value(getattr(x, f.name), scene, name_of, f.name)
                  for f in dataclasses.fields(x) if f.name not in ("pointer", "settings_index", "implicit")}
        return {"@type": type(x).__name__, **fields}
    if key in NODE_FIELDS and isinstance(x, int):
        return {"object": name_of(x)}
    if key in LIST_NODE_FIELDS and x is not None:
        return [{"object": name_of(n)} for n in x]
    if key in INDEX_FIELDS and isinstance(x, int):
        return _value(getattr(scene, INDEX_FIELDS[key])[x], scene, name_of)
    if isinstance(x, Enum):
        return x.value
    if isinstance(x, tuple):
        return [_value(v, scene, name_of) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return {"float": repr(x)}
    return x


def _build(item: Any, scene: model.PhysicsScene, node_of: Callable[[str], int | None], key: str = "") -> Any:
    if isinstance(item, dict) and "object" in item:
        if item["object"] is None:
            return None
        node = node_of(item["object"])
        if node is None:
            raise LookupError(f"object {item['object']!r} is not exported")
        return node
    if isinstance(item, dict) and "float" in item:
        return float(item["float"])
    if isinstance(item, dict) and "@type" in item:
        cls = getattr(model, item["@type"])
        hints = {f.name: f for f in dataclasses.fields(cls)}
        kwargs = {k: _field(hints[k], _build(v, scene, node_of, k)) for k, v in item.items() if k in hints}
        built = cls(**kwargs)
        if key in INDEX_FIELDS:  # a referenced material or filter goes back into its list
            table = getattr(scene, INDEX_FIELDS[key])
            table.append(built)
            return len(table) - 1
        return built
    if isinstance(item, list):
        return tuple(_build(v, scene, node_of) for v in item)
    return item


def _field(f: dataclasses.Field, value: Any) -> Any:
    """Enums back from their values (the dataclasses are typed by name strings: ``from __future__``)."""
    kind = str(f.type)
    for enum in (model.MotionType, model.CombineMode, model.GravityType, model.DriveType, model.DriveMode):
        if enum.__name__ in kind and isinstance(value, str):
            return enum(value)
    return value
