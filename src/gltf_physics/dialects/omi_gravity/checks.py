"""Structural checks of OMI_physics_gravity: the document's gravity and the gravity volumes on nodes."""

from __future__ import annotations

import math
from typing import Any

from ..common.checks import Emit, Json
from ..common.context import ExtIndex
from ..registry import OMI_PHYSICS_GRAVITY, OMI_PHYSICS_SHAPE

GRAVITY_TYPES = ("directional", "point", "disc", "torus", "line", "shaped")


def check(gltf: dict[str, Any], emit: Emit, index: ExtIndex | None = None) -> None:
    """GRAV-* on the document-level gravity and every gravity volume."""
    _gravity(Json(gltf, emit, index))


def _unit(j: Json, o: dict[str, Any], key: str, ptr: str) -> None:
    v = j.numbers(o, key, ptr, 3, "GEN-6")
    if v is not None and abs(math.sqrt(sum(c * c for c in v)) - 1.0) > 1e-3:
        j.emit("GRAV-5", f"{ptr}/{key}", f"direction {v} is not normalized; write a unit vector")


def _gravity(j: Json) -> None:
    doc = j.doc_ext(OMI_PHYSICS_GRAVITY)
    if doc is not None:
        ptr, ext = doc
        if "gravity" not in ext:
            j.emit("GRAV-1", ptr, "the document-level gravity needs 'gravity' (m/s²)")
        j.number(ext, "gravity", ptr)
        _unit(j, ext, "direction", ptr)
    shapes = _omi_shape_count(j)
    for _, ptr, g in j.nodes_with(OMI_PHYSICS_GRAVITY):
        kind = j.enum(g, "type", ptr, GRAVITY_TYPES, "GRAV-2")
        if "gravity" not in g:
            j.emit("GRAV-2", ptr, "the gravity volume needs 'gravity' (m/s², negative repels)")
        j.number(g, "gravity", ptr)
        priority = j.number(g, "priority", ptr)
        if priority is not None and not priority.is_integer():
            j.emit("GRAV-6", f"{ptr}/priority", f"priority {priority:g} should be an integer")
        j.boolean(g, "replace", ptr)
        j.boolean(g, "stop", ptr)
        if kind is not None:
            _gravity_sub(j, g, ptr, kind, shapes)


def _omi_shape_count(j: Json) -> int:
    ext = j.gltf.get("extensions")
    shape = ext.get(OMI_PHYSICS_SHAPE) if isinstance(ext, dict) else None
    return len(shape["shapes"]) if isinstance(shape, dict) and isinstance(shape.get("shapes"), list) else 0


def _gravity_sub(j: Json, g: dict[str, Any], ptr: str, kind: str, shapes: int) -> None:
    if kind not in g:
        j.emit("GRAV-7", ptr, f"gravity of type {kind!r} has no '{kind}' object; defaults are used (D-2), "
               "write it")
        if kind == "line":
            j.emit("GRAV-4", ptr, "a line gravity needs 'points' (at least two xyz points)")
        return
    sub = j.obj(g[kind], f"{ptr}/{kind}")
    if sub is None:
        return
    sptr = f"{ptr}/{kind}"
    if kind == "directional":
        _unit(j, sub, "direction", sptr)
        return
    j.minimum(sub, "unitDistance", sptr, 0.0, "GRAV-5")
    if kind in ("disc", "torus"):
        j.number(sub, "radius", sptr)
    elif kind == "line":
        points = j.numbers(sub, "points", sptr, None, "GRAV-4")
        if "points" not in sub:
            j.emit("GRAV-4", sptr, "a line gravity needs 'points' (at least two xyz points)")
        elif points is not None and (len(points) % 3 or len(points) < 6):
            j.emit("GRAV-4", f"{sptr}/points", f"'points' has {len(points)} numbers; it needs a multiple of "
                                               "3, "
                   "at least 6")
    elif kind == "shaped":
        j.index(sub, "shape", sptr, shapes, "OMI_physics_shape shape", required=True)
