"""Joint settings (limits and drives) JSON shared by KHR ``physicsJoints`` and OMI gen2 ``physicsJoints``.

OMI gen2 mirrors KHR field for field (the spec), so both families read and write one form here. What
still differs between them is a :class:`Family`: the rule ids the notes carry, KHR gen0's spring spelling
and missing drives, whether a non-object drive is noted, and whether a drive's targets are written paired
with their gains (KRB-9 is KHR's schema ``dependencies``; OMI has no such rule).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...model import DriveMode, DriveType, JointDrive, JointLimit
from .context import ReadContext, array, finite_or_omit, num, to_float

JointSettings = tuple[tuple[JointLimit, ...], tuple[JointDrive, ...]]


@dataclass(frozen=True)
class Family:
    """How one family spells and checks the shared joint settings."""

    negative_rule: str  # note code for a negative stiffness/maxForce read as ∞ (D-15)
    drive_rule: str  # note code for a drive without type/mode/axis (KRB-8 / JOINT-8)
    axes_rule: str  # note code for a limit axis that is not 0, 1 or 2, or repeated (KRB-6 / JOINT-5)
    note_non_object_drive: bool  # OMI notes a drive that is not an object; KHR skips it silently
    paired_targets: bool  # KRB-9 + D-11 on writing; OMI writes each field on its own
    stiffness_key: str = "stiffness"
    damping_key: str = "damping"
    drives: bool = True  # KHR gen0 has no drives


# ---------------------------------------------------------------- reading


def read_settings(ctx: ReadContext, items: Any, pointer: str, family: Family) -> list[JointSettings]:
    """Every entry of a ``physicsJoints`` array (``pointer`` is the array's) as (limits, drives)."""
    if not isinstance(items, list):
        return []
    return [read_one(ctx, item, f"{pointer}/{i}", family) for i, item in enumerate(items)]


def read_one(ctx: ReadContext, obj: Any, pointer: str, family: Family) -> JointSettings:
    obj = obj if isinstance(obj, dict) else {}
    limits = array(obj, "limits")
    drives = array(obj, "drives") if family.drives else []
    read_limits = (
        _limit(ctx, lim, f"{pointer}/limits/{i}", family) for i, lim in enumerate(limits) if isinstance(lim, dict)
    )
    read_drives = (_drive(ctx, d, f"{pointer}/drives/{i}", family) for i, d in enumerate(drives))
    return tuple(read_limits), tuple(d for d in read_drives if d is not None)


def axes(obj: dict[str, Any], key: str, ctx: ReadContext | None = None, pointer: str = "",
         rule: str = "JOINT-5") -> tuple[int, ...]:
    """The integer entries of ``obj[key]``, as written (other entries are the validator's business). Entries
    that are not distinct axes 0, 1 or 2 are kept — the simulation refuses them, the writers pass them on —
    with a note under ``rule`` when a ``ctx`` is given, so a conversion's loss report names them."""
    out = tuple(a for a in array(obj, key) if isinstance(a, int) and not isinstance(a, bool))
    if ctx is not None and (len(set(out)) != len(out) or not set(out) <= {0, 1, 2}):
        ctx.note(rule, f"{pointer}/{key}", f"'{key}' {_clip(list(out))} are not distinct axes 0, 1 or 2")
    return out


def _clip(entries: list[Any]) -> str:
    text = repr(entries)
    return text if len(text) <= 60 else text[:57] + "..."


def _infinite_if_negative(ctx: ReadContext, obj: dict[str, Any], key: str, pointer: str, rule: str) -> float:
    """Absent ⇒ ∞; negative ⇒ ∞ with a note (JOINT-7, D-15)."""
    value = num(obj, key, math.inf)
    if value < 0:
        suffix = "" if rule == "D-15" else " (D-15)"
        ctx.note(rule, f"{pointer}/{key}", f"negative '{key}' read as infinite{suffix}")
        return math.inf
    return value


def _limit(ctx: ReadContext, obj: dict[str, Any], pointer: str, family: Family) -> JointLimit:
    return JointLimit(
        linear_axes=axes(obj, "linearAxes", ctx, pointer, family.axes_rule),
        angular_axes=axes(obj, "angularAxes", ctx, pointer, family.axes_rule),
        min=num(obj, "min", -math.inf),
        max=num(obj, "max", math.inf),
        stiffness=_infinite_if_negative(ctx, obj, family.stiffness_key, pointer, family.negative_rule),
        damping=num(obj, family.damping_key, 0.0),
        pointer=pointer,
    )


def _drive(ctx: ReadContext, obj: Any, pointer: str, family: Family) -> JointDrive | None:
    if not isinstance(obj, dict):
        if not family.note_non_object_drive:
            return None
        obj = {}  # noted below as a drive without type/mode
    try:
        kind, mode = DriveType(obj.get("type")), DriveMode(obj.get("mode"))
    except ValueError:
        ctx.note(family.drive_rule, pointer, "drive type/mode missing or not understood; drive ignored")
        return None
    axis = obj.get("axis")
    if isinstance(axis, bool) or not isinstance(axis, int):
        ctx.note(family.drive_rule, f"{pointer}/axis", "drive has no integer 'axis'; drive ignored")
        return None
    return JointDrive(
        type=kind,
        mode=mode,
        axis=axis,
        max_force=_infinite_if_negative(ctx, obj, "maxForce", pointer, family.negative_rule),
        position_target=_optional(obj, "positionTarget"),
        velocity_target=_optional(obj, "velocityTarget"),
        stiffness=num(obj, "stiffness", 0.0),
        damping=num(obj, "damping", 0.0),
        pointer=pointer,
    )


def _optional(obj: dict[str, Any], key: str) -> float | None:
    """A target is absent (None: no spring / no motor) unless it is a number."""
    v = obj.get(key)
    return to_float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


# ---------------------------------------------------------------- writing (the newest form)


def split_limits(limits: tuple[JointLimit, ...]) -> tuple[JointLimit, ...]:
    """A limit listing both axis kinds becomes two limits with the same range (D-4, KRB-6, JOINT-5)."""
    out: list[JointLimit] = []
    for lim in limits:
        if lim.linear_axes and lim.angular_axes:
            out.append(JointLimit(linear_axes=lim.linear_axes, min=lim.min, max=lim.max,
                                  stiffness=lim.stiffness, damping=lim.damping))
            out.append(JointLimit(angular_axes=lim.angular_axes, min=lim.min, max=lim.max,
                                  stiffness=lim.stiffness, damping=lim.damping))
        else:
            out.append(lim)
    return tuple(out)


def settings_json(limits: tuple[JointLimit, ...], drives: tuple[JointDrive, ...], family: Family) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if limits:
        out["limits"] = [_limit_json(lim) for lim in limits]
    if drives:
        out["drives"] = [_drive_json(d, family.paired_targets) for d in drives]
    return out


def _limit_json(lim: JointLimit) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if lim.linear_axes:
        out["linearAxes"] = list(lim.linear_axes)
    if lim.angular_axes:
        out["angularAxes"] = list(lim.angular_axes)
    # Absent min/max = unbounded, absent stiffness = hard. A seed limit's 0/0 range and damping 1.0 are
    # explicit numbers in the model, so they are written (the defaults changed in gen2, docs/interop.md).
    for key, value in (("min", lim.min), ("max", lim.max), ("stiffness", lim.stiffness)):
        if (v := finite_or_omit(value)) is not None:
            out[key] = v
    if lim.damping != 0.0:
        out["damping"] = lim.damping
    return out


def _drive_json(d: JointDrive, paired: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"type": d.type.value, "mode": d.mode.value, "axis": d.axis}
    if (f := finite_or_omit(d.max_force)) is not None:
        out["maxForce"] = f
    if paired:
        out.update(_paired_targets(d))
        return out
    for key, value in (("positionTarget", d.position_target), ("velocityTarget", d.velocity_target)):
        if value is not None:
            out[key] = value
    for key, value in (("stiffness", d.stiffness), ("damping", d.damping)):
        if value != 0.0:
            out[key] = value
    return out


def _paired_targets(d: JointDrive) -> dict[str, Any]:
    """KRB-9: positionTarget⇔stiffness and velocityTarget⇔damping travel together."""
    out: dict[str, Any] = {}
    if d.position_target is not None:
        out["positionTarget"] = d.position_target
        out["stiffness"] = d.stiffness
    velocity = d.velocity_target
    if velocity is None and d.position_target is not None and d.damping != 0.0:
        velocity = 0.0  # D-11: a position drive's damping acts towards velocity 0
    if velocity is not None:
        out["velocityTarget"] = velocity
        out["damping"] = d.damping
    return out
