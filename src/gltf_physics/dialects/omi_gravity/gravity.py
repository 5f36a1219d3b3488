"""OMI_physics_gravity (one generation, ``gen1``; docs/semantics.md).

Document level: the world gravity (``scene.world_gravity``). Node level: a gravity field of one ``type`` with
its keyed sub-object. Reading is lenient:

- a missing sub-object means that type's defaults (GEN-5, D-2), noted as GRAV-7; a missing ``shaped`` object
  leaves the field without a shape;
- ``line.points`` is a flat number[] read as xyz triples; a length that is not a multiple of 3 or under 6 is
  noted (GRAV-4) and only complete triples are kept;
- ``shaped.shape`` is resolved through ``ctx.omi_shapes`` (filled by the OMI core reader, which runs first);
  -1 ⇒ None (GEN-3, D-1); if no OMI shapes were read the index cannot be resolved: noted (GEN-2), shape None;
- a field without a known ``type`` or a numeric ``gravity`` is noted (GRAV-2) and skipped; a document-level
  object without ``gravity`` is noted (GRAV-1) and keeps 9.81 m/s² with its direction;
- a non-integer ``priority`` is noted (GRAV-6) and kept as the number given (it only orders fields).

Writing (both target families: gravity has no KHR counterpart, docs/interop.md): the sub-object is always
written, defaults inside it omitted, ``line.points`` always (schema-required). A ``shaped`` shape goes into
the output's ``OMI_physics_shape.shapes`` through ``omi_shape.add_shape`` (shared with the body writer, equal
shapes share an entry); a shape without an OMI form (a plane) is a loss.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...model import GravityField, GravityType, Shape, WorldGravity
from ...model.gravity import DOWN
from ...model.shapes import Vec3
from ..common.context import ExtIndex, ReadContext, WriteContext, index, num, to_float, vec
from ..omi_physics.shape import add_shape
from ..registry import OMI_GRAVITY_FAMILY, OMI_PHYSICS_GRAVITY

EXT = OMI_PHYSICS_GRAVITY
EXTENSIONS: tuple[str, ...] = OMI_GRAVITY_FAMILY.extensions
GEN = "gen1"

_TYPES = {t.value: t for t in GravityType}


def detect(gltf: dict[str, Any], index: ExtIndex | None = None) -> dict[str, str]:
    index = index or ExtIndex(gltf)
    return {EXT: GEN} if EXT in index.used or index.present(EXT) else {}


# ---------------------------------------------------------------------------------------------- reading


def read(ctx: ReadContext) -> None:
    world = ctx.index.doc(EXT)
    if world is not None:
        ctx.scene.world_gravity = _read_world(ctx, world)
    for i, ext in ctx.index.nodes_with(EXT):
        field = _read_field(ctx, i, ext)
        if field is not None:
            ctx.scene.gravity_fields.append(field)


def _read_world(ctx: ReadContext, obj: dict[str, Any]) -> WorldGravity:
    pointer = f"/extensions/{EXT}"
    if not _is_number(obj.get("gravity")):
        ctx.note("GRAV-1", f"{pointer}/gravity", "world 'gravity' missing or not a number; 9.81 m/s² assumed")
    direction = _vec3(obj, "direction", DOWN)
    return WorldGravity(gravity=num(obj, "gravity", 9.81), direction=direction, pointer=pointer)


def _read_field(ctx: ReadContext, node: int, ext: dict[str, Any]) -> GravityField | None:
    pointer = f"/nodes/{node}/extensions/{EXT}"
    raw = ext.get("type")
    kind = _TYPES.get(raw) if isinstance(raw, str) else None
    if kind is None:
        ctx.note("GRAV-2", f"{pointer}/type", f"gravity type {ext.get('type')!r} unknown; field ignored")
        return None
    if not _is_number(ext.get("gravity")):
        ctx.note("GRAV-2", f"{pointer}/gravity", "'gravity' missing or not a number; field ignored")
        return None
    sub = ext.get(kind.value)
    if not isinstance(sub, dict):
        ctx.note(
            "GRAV-7",
            f"{pointer}/{kind.value}",
            f"'{kind.value}' sub-object missing; its defaults are used (GEN-5, D-2)",
        )
        sub = {}
    specific = _SUB_READERS[kind](ctx, sub, f"{pointer}/{kind.value}")
    return GravityField(
        node=node,
        type=kind,
        gravity=to_float(ext["gravity"]),
        priority=_priority(ctx, ext, pointer),
        replace=_flag(ext, "replace"),
        stop=_flag(ext, "stop"),
        pointer=pointer,
        **specific,
    )


def _priority(ctx: ReadContext, ext: dict[str, Any], pointer: str) -> int:
    value = num(ext, "priority", 0.0)
    if not value.is_integer():
        ctx.note("GRAV-6", f"{pointer}/priority", f"priority {value} is not an integer; kept as given")
        return value  # type: ignore[return-value]  # only used to order fields
    return int(value)


def _directional(ctx: ReadContext, sub: dict[str, Any], pointer: str) -> dict[str, Any]:
    return {"direction": _vec3(sub, "direction", DOWN)}


def _point(ctx: ReadContext, sub: dict[str, Any], pointer: str) -> dict[str, Any]:
    return {"unit_distance": num(sub, "unitDistance", 0.0)}


def _circle(ctx: ReadContext, sub: dict[str, Any], pointer: str) -> dict[str, Any]:
    """disc (filled) and torus (edge): a circle in local XZ."""
    return {"radius": num(sub, "radius", 1.0), "unit_distance": num(sub, "unitDistance", 0.0)}


def _line(ctx: ReadContext, sub: dict[str, Any], pointer: str) -> dict[str, Any]:
    flat = sub.get("points")
    numbers = [to_float(v) for v in flat if _is_number(v)] if isinstance(flat, list) else []
    if not isinstance(flat, list) or len(numbers) != len(flat) or len(numbers) % 3 or len(numbers) < 6:
        ctx.note(
            "GRAV-4",
            f"{pointer}/points",
            "'points' must be a flat list of numbers, a multiple of 3 and at least 6; "
            "complete xyz triples kept",
        )
    triples = tuple((numbers[k], numbers[k + 1], numbers[k + 2]) for k in range(0, len(numbers) - 2, 3))
    return {"points": triples, "unit_distance": num(sub, "unitDistance", 0.0)}


def _shaped(ctx: ReadContext, sub: dict[str, Any], pointer: str) -> dict[str, Any]:
    return {"shape": _shape(ctx, sub, pointer), "unit_distance": num(sub, "unitDistance", 0.0)}


def _shape(ctx: ReadContext, sub: dict[str, Any], pointer: str) -> Shape | None:
    value = sub.get("shape")
    if value is None or value == -1 or ctx.omi_shapes:
        k = index(sub, "shape", len(ctx.omi_shapes), ctx, pointer)  # -1 ⇒ None with a GEN-3 note
        return None if k is None else ctx.omi_shapes[k]
    ctx.note(
        "GEN-2",
        f"{pointer}/shape",
        f"shape {value!r} cannot be resolved: no OMI_physics_shape shapes were read",
    )
    return None


_SUB_READERS: dict[GravityType, Callable[[ReadContext, dict[str, Any], str], dict[str, Any]]] = {
    GravityType.DIRECTIONAL: _directional,
    GravityType.POINT: _point,
    GravityType.DISC: _circle,
    GravityType.TORUS: _circle,
    GravityType.LINE: _line,
    GravityType.SHAPED: _shaped,
}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _vec3(obj: dict[str, Any], key: str, default: Vec3) -> Vec3:
    x, y, z = vec(obj, key, default)
    return (x, y, z)


def _flag(obj: dict[str, Any], key: str) -> bool:
    return obj.get(key) is True


# ---------------------------------------------------------------------------------------------- writing


def write(ctx: WriteContext) -> None:
    world = ctx.scene.world_gravity
    if world is not None:
        out: dict[str, Any] = {"gravity": world.gravity}
        _put(out, "direction", list(world.direction), list(DOWN))
        ctx.set_doc_ext(EXT, out)
    for field in ctx.scene.gravity_fields:
        ctx.set_node_ext(field.node, EXT, _field_json(ctx, field))


def _field_json(ctx: WriteContext, f: GravityField) -> dict[str, Any]:
    out: dict[str, Any] = {"type": f.type.value, "gravity": f.gravity}
    _put(out, "priority", f.priority, 0)
    _put(out, "replace", f.replace, False)
    _put(out, "stop", f.stop, False)
    out[f.type.value] = _sub_json(ctx, f)  # always written (GEN-5, D-2)
    return out


def _sub_json(ctx: WriteContext, f: GravityField) -> dict[str, Any]:
    sub: dict[str, Any] = {}
    if f.type is GravityType.DIRECTIONAL:
        _put(sub, "direction", list(f.direction), list(DOWN))
        return sub
    if f.type in (GravityType.DISC, GravityType.TORUS):
        _put(sub, "radius", f.radius, 1.0)
    elif f.type is GravityType.LINE:
        sub["points"] = [c for p in f.points for c in p]
    elif f.type is GravityType.SHAPED:
        k = _shape_index(ctx, f)
        if k is not None:
            sub["shape"] = k
    _put(sub, "unitDistance", f.unit_distance, 0.0)
    return sub


def _shape_index(ctx: WriteContext, f: GravityField) -> int | None:
    """The shape's index in the output's OMI_physics_shape array, shared with the body writer's shapes."""
    k = None if f.shape is None else add_shape(ctx, f.shape)
    if k is None:
        what = "no shape" if f.shape is None else f"a shape with no OMI form ({type(f.shape).__name__})"
        pointer = f"/nodes/{f.node}/extensions/{EXT}/shaped/shape"
        ctx.loss("GRAV-2", pointer, f"shaped gravity has {what}; written without 'shape'")
    return k


def _put(out: dict[str, Any], key: str, value: Any, default: Any) -> None:
    if value != default:
        out[key] = value
