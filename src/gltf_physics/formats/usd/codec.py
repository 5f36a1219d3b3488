"""JSON for the model objects UsdPhysics cannot say (triggers, vehicles, seats, gravity volumes, some limits).

They are kept under the ``gltfPhysics:`` namespace as JSON strings so our own reader gives back the same
model. Every dataclass is ``{"$type": ClassName, field: value…}`` and every enum ``{"$enum": Class, "v": value}``;
lists read back as tuples (the model's sequences are tuples); infinities use JSON's ``Infinity``. The
``pointer`` fields (where the source file put a thing) are not kept: they point into a file that is gone.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from typing import Any

from ... import model

_CLASSES: dict[str, type] = {
    name: obj for name in model.__all__ if isinstance(obj := getattr(model, name), type)
    and (dataclasses.is_dataclass(obj) or issubclass(obj, Enum))
}


def encode(value: Any) -> str:
    """A model object (or a list of them) as one JSON string."""
    return json.dumps(_plain(value), separators=(",", ":"))


def decode(text: str) -> Any:
    """The model object (or tuple of them) :func:`encode` wrote; raises ``ValueError`` on foreign JSON."""
    return _revive(json.loads(text))


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"$type": type(value).__name__}
        for f in dataclasses.fields(value):
            if f.name != "pointer":
                out[f.name] = _plain(getattr(value, f.name))
        return out
    if isinstance(value, Enum):
        return {"$enum": type(value).__name__, "v": value.value}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _revive(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_revive(v) for v in value)
    if not isinstance(value, dict):
        return value
    if "$enum" in value:
        return _class(value["$enum"])(value["v"])
    cls = _class(value.get("$type"))
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: _revive(v) for k, v in value.items() if k in names})


def _class(name: Any) -> Any:
    if name not in _CLASSES:
        raise ValueError(f"not a gltf-physics model type: {name!r}")
    return _CLASSES[name]
