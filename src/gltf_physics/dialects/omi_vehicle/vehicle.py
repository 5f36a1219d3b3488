"""OMI_vehicle_body / _wheel / _thruster / _hover_thruster: every generation in, gen2 out (docs/interop.md).

Generations (README.md's table): ``gen1-current`` (``current*`` ratios, wheel ``maxForce``, no change rates) and
``gen2-target`` (``target*`` ratios, wheel ``maxPropulsionForce``, change rates, braking, linear gimbal
adjustment).
The four extensions changed together in one pull request, so one generation is detected per file.

Decisions documented here:

- A file with no generation-specific key reads as gen2 (most example assets: vehicle bodies, thruster
  ``maxForce``/``maxGimbal``, wheel ``radius``/``maxSteeringAngle`` are spelled alike in both). gen2 is the
  current text, and the two are indistinguishable; the only consequence is that such a gen1 file gets gen2's
  rate-limited steering/gimbal defaults (1 rad/s) instead of gen1's instant behaviour.
- A file mixing both spellings reads as gen2; the reader accepts either spelling of each field, the gen2 name
  winning when both are given.
- gen1 has no change rates: they read as -1 (instant), which is how gen1 behaved (docs/interop.md). gen1 has no
  braking and no linear gimbal adjustment either: those take the gen2 defaults.
- ``linearDampeners`` absent ⇒ true: the default since 2025-12-07 (ca1d836), under which both gen1-current
  fixture sets were written; a file from before that date cannot be told apart.
- gen1 schemas type ``maxGimbal`` as an array: a number or a 1-/2-item array is accepted; two different items
  keep the larger (the model has one angle) with a D-17 note.
- ``physicsMaterial`` indexes OMI_physics_body or KHR materials (whichever family the file uses); -1 ⇒ None
  (GEN-3, D-1). Its range is left to the validator, which knows both material lists.

Writing: the gen2 form for both target families (these extensions have no KHR counterpart, docs/interop.md; the
nodes stay where they are). Defaults are omitted except ``linearDampeners`` (its default changed) and change
rates meaning "instant" (gen2's steering/gimbal default is not instant), which are written explicitly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...gltf.hierarchy import nearest_strict
from ...model import HoverThruster, Thruster, Vehicle, Wheel
from ...model.bodies import ZERO3
from ...model.shapes import Vec3
from ..common.context import ExtIndex, ReadContext, WriteContext, array, index, num, to_float, vec
from ..registry import (
    OMI_VEHICLE_BODY,
    OMI_VEHICLE_FAMILY,
    OMI_VEHICLE_HOVER_THRUSTER,
    OMI_VEHICLE_THRUSTER,
    OMI_VEHICLE_WHEEL,
)

BODY = OMI_VEHICLE_BODY
WHEEL = OMI_VEHICLE_WHEEL
THRUSTER = OMI_VEHICLE_THRUSTER
HOVER = OMI_VEHICLE_HOVER_THRUSTER
EXTENSIONS: tuple[str, ...] = OMI_VEHICLE_FAMILY.extensions

GEN1 = "gen1-current"
GEN2 = "gen2-target"

# settings extension -> (document-level array key, node-level index key)
_KEYS: dict[str, tuple[str, str]] = {
    WHEEL: ("wheels", "wheel"),
    THRUSTER: ("thrusters", "thruster"),
    HOVER: ("hoverThrusters", "hoverThruster"),
}

# Keys that exist in one generation only (schemas gen1-current at ca1d836, gen2-target at 89d328b).
_GEN1_KEYS: dict[str, frozenset[str]] = {
    WHEEL: frozenset({"currentForceRatio", "currentSteeringRatio", "maxForce"}),
    THRUSTER: frozenset({"currentForceRatio", "currentGimbalRatio"}),
    HOVER: frozenset({"currentHoverRatio", "currentForceRatio", "currentGimbalRatio"}),
}
_GEN2_KEYS: dict[str, frozenset[str]] = {
    WHEEL: frozenset(
        {
            "targetPropulsionForceRatio",
            "targetSteeringRatio",
            "maxPropulsionForce",
            "brakingForce",
            "propulsionForceChangeRate",
            "steeringChangeRate",
        }
    ),
    THRUSTER: frozenset(
        {
            "targetForceRatio",
            "targetGimbalRatio",
            "forceChangeRate",
            "gimbalChangeRate",
            "linearGimbalAdjustRatio",
        }
    ),
    HOVER: frozenset(
        {
            "targetHoverRatio",
            "targetGimbalRatio",
            "hoverEnergyChangeRate",
            "gimbalChangeRate",
            "linearGimbalAdjustRatio",
        }
    ),
}

INSTANT = -1.0  # a negative change rate: the value changes at once


# ---------------------------------------------------------------------------------------------- detection


def detect(gltf: dict[str, Any], index: ExtIndex | None = None) -> dict[str, str]:
    index = index or ExtIndex(gltf)
    present = [name for name in EXTENSIONS if name in index.used or index.present(name)]
    if not present:
        return {}
    gen = generation(gltf, index)
    return {name: gen for name in present}


def generation(gltf: dict[str, Any], index: ExtIndex | None = None) -> str:
    """``gen1-current`` only when a gen1-only key is found and no gen2-only key (see module notes)."""
    index = index or ExtIndex(gltf)
    gen1 = gen2 = False
    for name in _KEYS:
        for obj in _settings_objects(index, name):
            keys = obj.keys()
            gen2 = gen2 or bool(_GEN2_KEYS[name] & keys)
            gen1 = gen1 or bool(_GEN1_KEYS[name] & keys) or isinstance(obj.get("maxGimbal"), list)
    return GEN1 if gen1 and not gen2 else GEN2


def _settings_objects(index: ExtIndex, name: str) -> list[dict[str, Any]]:
    return [o for o in array(index.doc(name), _KEYS[name][0]) if isinstance(o, dict)]


# ---------------------------------------------------------------------------------------------- reading


def read(ctx: ReadContext) -> None:
    gen = next(iter(ctx.generations(EXTENSIONS, detect).values()), GEN2)
    carriers: set[int] = set()
    for i, ext in ctx.index.nodes_with(BODY):
        carriers.add(i)
        ctx.scene.vehicles.append(_read_vehicle(ctx, i, ext))
    ctx.scene.wheels.extend(_read_parts(ctx, WHEEL, gen, carriers, _wheel_settings, Wheel))
    ctx.scene.thrusters.extend(_read_parts(ctx, THRUSTER, gen, carriers, _thruster_settings, Thruster))
    ctx.scene.hover_thrusters.extend(_read_parts(ctx, HOVER, gen, carriers, _hover_settings, HoverThruster))


def _read_vehicle(ctx: ReadContext, node: int, ext: dict[str, Any]) -> Vehicle:
    pointer = f"/nodes/{node}/extensions/{BODY}"
    return Vehicle(
        node=node,
        linear_activation=_vec3(ext, "linearActivation"),
        angular_activation=_vec3(ext, "angularActivation"),
        gyro_torque=_vec3(ext, "gyroTorque"),
        max_speed=num(ext, "maxSpeed", -1.0),
        pilot_seat=index(ext, "pilotSeat", len(ctx.nodes), ctx, pointer),
        angular_dampeners=_flag(ext, "angularDampeners", True),
        linear_dampeners=_flag(ext, "linearDampeners", True),  # default since 2025-12-07, see module notes
        use_throttle=_flag(ext, "useThrottle", False),
        pointer=pointer,
    )


Settings = Callable[[ReadContext, dict[str, Any], str, str], dict[str, Any]]


def _read_parts(
    ctx: ReadContext, name: str, gen: str, carriers: set[int], parse: Settings, make: Callable[..., Any]
) -> list[Any]:
    """Wheels / thrusters / hover thrusters: document-level settings, referenced by index from nodes."""
    array_key, node_key = _KEYS[name]
    raw = array(ctx.index.doc(name), array_key)
    # Parse each settings object once, so its notes are not repeated per node that uses it.
    settings = [
        parse(ctx, o if isinstance(o, dict) else {}, f"/extensions/{name}/{array_key}/{k}", gen)
        for k, o in enumerate(raw)
    ]
    parts = []
    nodes_with = ctx.index.nodes_with(name)
    vehicles = ctx.nearest_table(carriers) if nodes_with and carriers else None
    for i, ext in nodes_with:
        pointer = f"/nodes/{i}/extensions/{name}"
        if node_key not in ext:
            ctx.note("GEN-2", pointer, f"'{node_key}' index missing; node ignored")
            continue
        k = index(ext, node_key, len(settings), ctx, pointer)
        if k is None:
            continue
        parts.append(
            make(
                node=i,
                vehicle=_vehicle_of(ctx, i, vehicles),
                settings_index=k,
                pointer=pointer,
                **settings[k],
            )
        )
    return parts


def _vehicle_of(ctx: ReadContext, node: int, vehicles: list[int | None] | None) -> int | None:
    """The nearest strict ancestor carrying OMI_vehicle_body (WHEEL-1, THR-1, HOVER-1); ``vehicles`` is the
    nearest-carrier table of every node (None when the file has no vehicle body)."""
    return None if vehicles is None else nearest_strict(vehicles, ctx.parent_of, node)


def _wheel_settings(ctx: ReadContext, obj: dict[str, Any], pointer: str, gen: str) -> dict[str, Any]:
    # gen2 name first, gen1 name as fallback (the spec's conversion table).
    return {
        "target_propulsion_force_ratio": _either(obj, "targetPropulsionForceRatio", "currentForceRatio", 0.0),
        "target_steering_ratio": _either(obj, "targetSteeringRatio", "currentSteeringRatio", 0.0),
        "max_propulsion_force": _either(obj, "maxPropulsionForce", "maxForce", 0.0),
        "max_steering_angle": num(obj, "maxSteeringAngle", 0.0),
        "physics_material": _material(ctx, obj, pointer),
        "radius": num(obj, "radius", 0.25),
        "width": num(obj, "width", 0.125),
        "suspension_damping_compression": num(obj, "suspensionDampingCompression", 2000.0),
        "suspension_damping_rebound": num(obj, "suspensionDampingRebound", 2000.0),
        "suspension_stiffness": num(obj, "suspensionStiffness", 20000.0),
        "suspension_travel": num(obj, "suspensionTravel", 0.25),
        "braking_force": num(obj, "brakingForce", -1.0),
        "propulsion_force_change_rate": num(obj, "propulsionForceChangeRate", INSTANT),
        "steering_change_rate": num(obj, "steeringChangeRate", INSTANT if gen == GEN1 else 1.0),
    }


def _thruster_settings(ctx: ReadContext, obj: dict[str, Any], pointer: str, gen: str) -> dict[str, Any]:
    return {
        "max_force": num(obj, "maxForce", 0.0),
        "target_force_ratio": _either(obj, "targetForceRatio", "currentForceRatio", 0.0),
        "target_gimbal_ratio": _gimbal_ratio(obj),
        "max_gimbal": _max_gimbal(ctx, obj, pointer),
        "gimbal_change_rate": num(obj, "gimbalChangeRate", INSTANT if gen == GEN1 else 1.0),
        "force_change_rate": num(obj, "forceChangeRate", INSTANT),
        "linear_gimbal_adjust_ratio": num(obj, "linearGimbalAdjustRatio", 0.0),
    }


def _hover_settings(ctx: ReadContext, obj: dict[str, Any], pointer: str, gen: str) -> dict[str, Any]:
    # gen1: the README says currentHoverRatio, the gen1 schema currentForceRatio (the spec).
    gen1_ratio = _either(obj, "currentHoverRatio", "currentForceRatio", 0.0)
    return {
        "max_hover_energy": num(obj, "maxHoverEnergy", 0.0),
        "target_hover_ratio": num(obj, "targetHoverRatio", gen1_ratio),
        "target_gimbal_ratio": _gimbal_ratio(obj),
        "max_gimbal": _max_gimbal(ctx, obj, pointer),
        "gimbal_change_rate": num(obj, "gimbalChangeRate", INSTANT if gen == GEN1 else 1.0),
        "hover_energy_change_rate": num(obj, "hoverEnergyChangeRate", INSTANT),
        "linear_gimbal_adjust_ratio": num(obj, "linearGimbalAdjustRatio", 0.5),
    }


def _either(obj: dict[str, Any], new: str, old: str, default: float) -> float:
    return num(obj, new, num(obj, old, default))


def _gimbal_ratio(obj: dict[str, Any]) -> tuple[float, float]:
    x, y = vec(obj, "targetGimbalRatio", vec(obj, "currentGimbalRatio", (0.0, 0.0)))
    return (x, y)


def _max_gimbal(ctx: ReadContext, obj: dict[str, Any], pointer: str) -> float:
    """A number, or the gen1 schema's array form (1 or 2 numbers)."""
    value = obj.get("maxGimbal")
    if not isinstance(value, list):
        return num(obj, "maxGimbal", 0.0)
    items = [to_float(v) for v in value if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if not items or len(items) != len(value) or len(items) > 2:
        return 0.0
    if len(set(items)) > 1:
        ctx.note(
            "D-17",
            f"{pointer}/maxGimbal",
            f"maxGimbal {value} has two different angles; read as the larger, {max(items)}",
        )
    return max(items)


def _material(ctx: ReadContext, obj: dict[str, Any], pointer: str) -> int | None:
    value = obj.get("physicsMaterial")
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        return None
    if value == -1:
        ctx.note("GEN-3", f"{pointer}/physicsMaterial", "'physicsMaterial': -1 read as absent; omit it")
        return None
    if value < 0:
        ctx.note("GEN-2", f"{pointer}/physicsMaterial", f"'physicsMaterial' {value} is negative; ignored")
        return None
    return value


def _vec3(obj: dict[str, Any], key: str) -> Vec3:
    x, y, z = vec(obj, key, ZERO3)
    return (x, y, z)


def _flag(obj: dict[str, Any], key: str, default: bool) -> bool:
    value = obj.get(key)
    return value if isinstance(value, bool) else default


# ---------------------------------------------------------------------------------------------- writing


def write(ctx: WriteContext) -> None:
    for vehicle in ctx.scene.vehicles:
        ctx.set_node_ext(vehicle.node, BODY, _vehicle_json(vehicle))
    _write_parts(ctx, WHEEL, ctx.scene.wheels, _wheel_json)
    _write_parts(ctx, THRUSTER, ctx.scene.thrusters, _thruster_json)
    _write_parts(ctx, HOVER, ctx.scene.hover_thrusters, _hover_json)


def _write_parts(
    ctx: WriteContext, name: str, parts: list[Any], to_json: Callable[[Any], dict[str, Any]]
) -> None:
    """Equal settings are shared; parts are visited in their file settings order so indices stay stable."""
    if not parts:
        return
    array_key, node_key = _KEYS[name]
    settings: list[dict[str, Any]] = []
    for part in sorted(parts, key=lambda p: (p.settings_index is None, p.settings_index or 0)):
        entry = to_json(part)
        if entry not in settings:
            settings.append(entry)
        ctx.set_node_ext(part.node, name, {node_key: settings.index(entry)})
    ctx.set_doc_ext(name, {array_key: settings})


def _vehicle_json(v: Vehicle) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _put(out, "linearActivation", list(v.linear_activation), list(ZERO3))
    _put(out, "angularActivation", list(v.angular_activation), list(ZERO3))
    _put(out, "gyroTorque", list(v.gyro_torque), list(ZERO3))
    _put(out, "maxSpeed", v.max_speed, -1.0)
    if v.pilot_seat is not None:
        out["pilotSeat"] = v.pilot_seat
    _put(out, "angularDampeners", v.angular_dampeners, True)
    out["linearDampeners"] = v.linear_dampeners  # default was false before 2025-12-07: always explicit
    _put(out, "useThrottle", v.use_throttle, False)
    return out


def _wheel_json(w: Wheel) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _put(out, "targetPropulsionForceRatio", w.target_propulsion_force_ratio, 0.0)
    _put(out, "targetSteeringRatio", w.target_steering_ratio, 0.0)
    _put(out, "maxPropulsionForce", w.max_propulsion_force, 0.0)
    _put(out, "maxSteeringAngle", w.max_steering_angle, 0.0)
    if w.physics_material is not None:
        out["physicsMaterial"] = w.physics_material
    _put(out, "radius", w.radius, 0.25)
    _put(out, "width", w.width, 0.125)
    _put(out, "suspensionDampingCompression", w.suspension_damping_compression, 2000.0)
    _put(out, "suspensionDampingRebound", w.suspension_damping_rebound, 2000.0)
    _put(out, "suspensionStiffness", w.suspension_stiffness, 20000.0)
    _put(out, "suspensionTravel", w.suspension_travel, 0.25)
    _put(out, "brakingForce", w.braking_force, -1.0)
    _put_rate(out, "propulsionForceChangeRate", w.propulsion_force_change_rate, INSTANT)
    _put_rate(out, "steeringChangeRate", w.steering_change_rate, 1.0)
    return out


def _thruster_json(t: Thruster) -> dict[str, Any]:
    out: dict[str, Any] = {"maxForce": t.max_force}  # required
    _put(out, "targetForceRatio", t.target_force_ratio, 0.0)
    _put(out, "targetGimbalRatio", list(t.target_gimbal_ratio), [0.0, 0.0])
    _put(out, "maxGimbal", t.max_gimbal, 0.0)
    _put_rate(out, "gimbalChangeRate", t.gimbal_change_rate, 1.0)
    _put_rate(out, "forceChangeRate", t.force_change_rate, INSTANT)
    _put(out, "linearGimbalAdjustRatio", t.linear_gimbal_adjust_ratio, 0.0)
    return out


def _hover_json(h: HoverThruster) -> dict[str, Any]:
    out: dict[str, Any] = {"maxHoverEnergy": h.max_hover_energy}  # required
    _put(out, "targetHoverRatio", h.target_hover_ratio, 0.0)
    _put(out, "targetGimbalRatio", list(h.target_gimbal_ratio), [0.0, 0.0])
    _put(out, "maxGimbal", h.max_gimbal, 0.0)
    _put_rate(out, "gimbalChangeRate", h.gimbal_change_rate, 1.0)
    _put_rate(out, "hoverEnergyChangeRate", h.hover_energy_change_rate, INSTANT)
    _put(out, "linearGimbalAdjustRatio", h.linear_gimbal_adjust_ratio, 0.5)
    return out


def _put(out: dict[str, Any], key: str, value: Any, default: Any) -> None:
    if value != default:
        out[key] = value


def _put_rate(out: dict[str, Any], key: str, value: float, default: float) -> None:
    """Change rates: any negative value means "instant". Written unless the gen2 default says the same:
    gen2's steering/gimbal default (1.0) is not instant, so gen1's instant behaviour needs an explicit -1
    there (docs/interop.md); an instant force/energy rate is gen2's default (-1) and is left out."""
    if (value < 0) != (default < 0) or (value >= 0 and value != default):
        out[key] = value
