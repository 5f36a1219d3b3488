"""KHR joint settings (limits and drives) of every generation, and their newest JSON form.

gen0 (KHR_rigid_bodies): document ``physicsJointLimits[{limits}]`` with ``springConstant``/``springDamping``,
no drives. gen1+ (KHR_physics_rigid_bodies): ``physicsJoints[{limits, drives}]`` with
``stiffness``/``damping`` (DIGEST §6.1, §6.4, §10.2 "Older KHR → gen3").
"""

from __future__ import annotations

import math
from typing import Any

from ..model import DriveMode, DriveType, JointDrive, JointLimit
from .base import ReadContext, finite_or_omit, num, to_float

JointSettings = tuple[tuple[JointLimit, ...], tuple[JointDrive, ...]]


def read_settings(ctx: ReadContext, doc: dict[str, Any], key: str, pointer: str,
                  gen0: bool) -> list[JointSettings]:
    """Every entry of ``doc[key]`` (``physicsJoints`` or gen0 ``physicsJointLimits``) as (limits, drives)."""
    items = doc.get(key)
    if not isinstance(items, list):
        return []
    out: list[JointSettings] = []
    for i, item in enumerate(items):
        p = f"{pointer}/{key}/{i}"
        item = item if isinstance(item, dict) else {}
        limits = item.get("limits") if isinstance(item.get("limits"), list) else []
        drives = item.get("drives") if isinstance(item.get("drives"), list) and not gen0 else []
        read_limits = (_limit(ctx, lim, f"{p}/limits/{j}", gen0) for j, lim in enumerate(limits)
                       if isinstance(lim, dict))
        read_drives = (_drive(ctx, raw, f"{p}/drives/{j}") for j, raw in enumerate(drives))
        out.append((tuple(read_limits), tuple(d for d in read_drives if d is not None)))
    return out


def _axes(obj: dict[str, Any], key: str) -> tuple[int, ...]:
    v = obj.get(key)
    if not isinstance(v, list):
        return ()
    return tuple(a for a in v if isinstance(a, int) and not isinstance(a, bool))


def _non_negative_or_inf(ctx: ReadContext, obj: dict[str, Any], key: str, pointer: str) -> float:
    """Absent ⇒ ∞; negative ⇒ ∞ with a note (JOINT-7, D-15)."""
    value = num(obj, key, math.inf)
    if value < 0:
        ctx.note("D-15", f"{pointer}/{key}", f"negative '{key}' read as infinite")
        return math.inf
    return value


def _limit(ctx: ReadContext, obj: dict[str, Any], pointer: str, gen0: bool) -> JointLimit:
    stiffness_key, damping_key = ("springConstant", "springDamping") if gen0 else ("stiffness", "damping")
    return JointLimit(
        linear_axes=_axes(obj, "linearAxes"),
        angular_axes=_axes(obj, "angularAxes"),
        min=num(obj, "min", -math.inf),
        max=num(obj, "max", math.inf),
        stiffness=_non_negative_or_inf(ctx, obj, stiffness_key, pointer),
        damping=num(obj, damping_key, 0.0),
        pointer=pointer,
    )


def _drive(ctx: ReadContext, obj: Any, pointer: str) -> JointDrive | None:
    if not isinstance(obj, dict):
        return None
    try:
        kind, mode = DriveType(obj.get("type")), DriveMode(obj.get("mode"))
    except ValueError:
        ctx.note("KRB-8", pointer, "drive type/mode missing or not understood; drive ignored")
        return None
    axis = obj.get("axis")
    if isinstance(axis, bool) or not isinstance(axis, int):
        ctx.note("KRB-8", f"{pointer}/axis", "drive has no integer 'axis'; drive ignored")
        return None
    return JointDrive(
        type=kind, mode=mode, axis=axis,
        max_force=_non_negative_or_inf(ctx, obj, "maxForce", pointer),
        position_target=_target(obj, "positionTarget"),
        velocity_target=_target(obj, "velocityTarget"),
        stiffness=num(obj, "stiffness", 0.0),
        damping=num(obj, "damping", 0.0),
        pointer=pointer,
    )


def _target(obj: dict[str, Any], key: str) -> float | None:
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return to_float(v)


# ---------------------------------------------------------------- writing (newest form)

def split_limits(limits: tuple[JointLimit, ...]) -> tuple[JointLimit, ...]:
    """A limit listing both axis kinds becomes two limits with the same range (D-4, KRB-6)."""
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


def settings_json(limits: tuple[JointLimit, ...], drives: tuple[JointDrive, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if limits:
        out["limits"] = [_limit_json(lim) for lim in limits]
    if drives:
        out["drives"] = [_drive_json(d) for d in drives]
    return out


def _limit_json(lim: JointLimit) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if lim.linear_axes:
        out["linearAxes"] = list(lim.linear_axes)
    if lim.angular_axes:
        out["angularAxes"] = list(lim.angular_axes)
    for key, value in (("min", lim.min), ("max", lim.max), ("stiffness", lim.stiffness)):
        if (v := finite_or_omit(value)) is not None:  # absent min/max = unbounded, stiffness = hard
            out[key] = v
    if lim.damping != 0.0:
        out["damping"] = lim.damping
    return out


def _drive_json(d: JointDrive) -> dict[str, Any]:
    out: dict[str, Any] = {"type": d.type.value, "mode": d.mode.value, "axis": d.axis}
    if (f := finite_or_omit(d.max_force)) is not None:
        out["maxForce"] = f
    # KRB-9: positionTarget⇔stiffness and velocityTarget⇔damping travel together.
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
