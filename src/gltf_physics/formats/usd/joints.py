"""Which UsdPhysics joint a model joint is, and back (no ``pxr`` here: plain data both ways).

A model joint is a list of limits (each over one or several axes of frame B relative to frame A) and drives.
UsdPhysics has typed joints that lock implied degrees of freedom (Fixed, Revolute, Prismatic, Spherical,
Distance) and a generic joint with one ``LimitAPI``/``DriveAPI`` per degree of freedom (``transX``…``rotZ``,
plus ``distance``). :func:`joint_spec` splits a model joint into per-DOF ranges (a several-axis lock
``min = max = 0`` is the same as one lock per axis, a soft one close to one spring per axis), a distance
(linear over all three axes) and a cone (angular over two axes), picks the typed joint when it says exactly
that, and keeps what USD cannot say (soft limits' stiffness and damping, other several-axis limits, repeated
axes) for the ``gltfPhysics:`` namespace. ``layout`` records how the model grouped its limits, so
:func:`model_limits` regroups the per-DOF values USD stores into the same limits (the values always come from
USD, the grouping from the hint).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ...model import DriveType, Joint, JointDrive, JointLimit

TRANS = ("transX", "transY", "transZ")
ROT = ("rotX", "rotY", "rotZ")
AXES = ("X", "Y", "Z")


def dof_name(angular: bool, axis: int) -> str:
    return (ROT if angular else TRANS)[axis]


@dataclass
class JointSpec:
    """A joint as UsdPhysics sees it. Ranges are SI (metres, radians); the writer converts to degrees."""

    kind: str = "generic"  # fixed | revolute | prismatic | spherical | distance | generic
    axis: int = 0  # revolute / prismatic / spherical cone axis
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)  # dof → (low, high)
    soft: dict[str, tuple[float, float]] = field(default_factory=dict)  # dof → (stiffness, damping)
    distance: tuple[float, float] | None = None
    cone: tuple[int, float, float] | None = None  # (axis about which, min, max)
    drives: dict[str, JointDrive] = field(default_factory=dict)  # dof → drive
    extra_limits: list[JointLimit] = field(default_factory=list)
    extra_drives: list[JointDrive] = field(default_factory=list)
    layout: list[list[Any]] = field(default_factory=list)


def is_soft(spec: JointSpec, name: str) -> bool:
    """A spring limit (finite stiffness); damping alone does nothing to a hard limit (docs/semantics.md)."""
    return name in spec.soft and not math.isinf(spec.soft[name][0])


def _locks(spec: JointSpec, names: tuple[str, ...]) -> bool:
    return all(spec.ranges.get(n) == (0.0, 0.0) and not is_soft(spec, n) for n in names)


def _free(spec: JointSpec, names: tuple[str, ...]) -> bool:
    return not any(n in spec.ranges for n in names)


def joint_spec(joint: Joint) -> JointSpec:
    """The UsdPhysics form of ``joint``: its typed joint where exact, else the generic one."""
    spec = JointSpec()
    for limit in joint.limits:
        for part in _split(limit):
            _add_limit(spec, part)
    for drive in joint.drives:
        name = dof_name(drive.type is DriveType.ANGULAR, drive.axis)
        if name in spec.drives:
            spec.extra_drives.append(drive)
        else:
            spec.drives[name] = drive
    spec.kind, spec.axis = _kind(spec)
    if spec.kind == "generic" and spec.cone is not None:  # the generic joint has no cone: keep it aside
        spec.extra_limits.append(_cone_limit(spec.cone))
        spec.layout = [["extra", len(spec.extra_limits) - 1] if e[0] == "cone" else e for e in spec.layout]
        spec.cone = None
    return spec


def _split(limit: JointLimit) -> list[JointLimit]:
    """D-4: a limit over both axis kinds is two limits."""
    if limit.linear_axes and limit.angular_axes:
        return [JointLimit(linear_axes=limit.linear_axes, min=limit.min, max=limit.max, stiffness=limit.stiffness,
                           damping=limit.damping),
                JointLimit(angular_axes=limit.angular_axes, min=limit.min, max=limit.max, stiffness=limit.stiffness,
                           damping=limit.damping)]
    return [limit]


def _add_limit(spec: JointSpec, limit: JointLimit) -> None:
    angular = bool(limit.angular_axes)
    axes = limit.angular_axes or limit.linear_axes
    names = [dof_name(angular, a) for a in axes]
    hard = math.isinf(limit.stiffness) and limit.stiffness > 0
    if len(set(names)) != len(names) or any(n in spec.ranges for n in names):
        return _extra(spec, limit)
    # A several-axis lock (min = max = 0) is one lock per axis; a soft one is one spring per axis (the same
    # restoring force for the linear ball lock, close for the angular ones): USD sees hard locks (USD-7).
    if len(names) == 1 or (limit.min == 0.0 and limit.max == 0.0):
        for n in names:
            spec.ranges[n] = (limit.min, limit.max)
            if limit.stiffness != math.inf or limit.damping != 0.0:  # kept aside, for an exact round trip
                spec.soft[n] = (limit.stiffness, limit.damping)
        spec.layout.append(["dofs", names])
    elif hard and limit.damping == 0.0 and not angular and len(names) == 3 and spec.distance is None:
        spec.distance = (limit.min, limit.max)
        spec.layout.append(["distance"])
    elif hard and limit.damping == 0.0 and angular and len(names) == 2 and spec.cone is None and limit.min <= 0.0:
        spec.cone = (3 - sum(axes), limit.min, limit.max)
        spec.layout.append(["cone"])
    else:
        _extra(spec, limit)
    return None


def _extra(spec: JointSpec, limit: JointLimit) -> None:
    spec.extra_limits.append(limit)
    spec.layout.append(["extra", len(spec.extra_limits) - 1])


def _cone_limit(cone: tuple[int, float, float]) -> JointLimit:
    axis, lo, hi = cone
    return JointLimit(angular_axes=tuple(a for a in range(3) if a != axis), min=lo, max=hi)


def _kind(spec: JointSpec) -> tuple[str, int]:
    drives = set(spec.drives)
    if spec.extra_drives:
        return "generic", 0
    if spec.distance is None and spec.cone is None:
        if _locks(spec, TRANS + ROT) and not drives:
            return "fixed", 0
        for k in range(3):
            others = tuple(n for n in ROT if n != ROT[k])
            if _locks(spec, TRANS + others) and drives <= {ROT[k]}:
                return "revolute", k
            others = tuple(n for n in TRANS if n != TRANS[k])
            if _locks(spec, ROT + others) and drives <= {TRANS[k]}:
                return "prismatic", k
    if spec.distance is None and not drives and _locks(spec, TRANS) and _free(spec, ROT):
        return "spherical", spec.cone[0] if spec.cone else 0
    if spec.cone is None and not drives and spec.distance is not None and _free(spec, TRANS + ROT):
        return "distance", 0
    return "generic", 0


def default_layout(spec: JointSpec) -> list[list[Any]]:
    """How a joint read from a foreign USD file groups its limits (the docs/semantics.md hinge/slider forms)."""
    lay: list[list[Any]] = []
    if spec.kind in ("fixed", "revolute", "spherical"):
        lay.append(["dofs", list(TRANS)])
    if spec.kind in ("fixed", "prismatic"):
        if spec.kind == "prismatic":
            lay.append(["dofs", [n for n in TRANS if n != TRANS[spec.axis]]])
            lay.append(["dofs", [TRANS[spec.axis]]])
        lay.append(["dofs", list(ROT)])
    if spec.kind == "revolute":
        lay.append(["dofs", [ROT[spec.axis]]])
        lay.append(["dofs", [n for n in ROT if n != ROT[spec.axis]]])
    if spec.kind == "generic":
        lay += [["dofs", [n]] for n in TRANS + ROT]
    lay += [["distance"], ["cone"]]
    lay += [["extra", k] for k in range(len(spec.extra_limits))]
    return lay


def model_limits(spec: JointSpec) -> tuple[JointLimit, ...]:
    """The model limits of a spec read from USD, grouped as ``spec.layout`` says (else the default layout)."""
    out: list[JointLimit] = []
    used: set[str] = set()
    for entry in spec.layout or default_layout(spec):
        out += _entry_limits(spec, entry, used)
    for name in TRANS + ROT:  # values USD has that the layout did not mention (an edited file)
        if name in spec.ranges and name not in used:
            out += _entry_limits(spec, ["dofs", [name]], used)
    return tuple(out)


def _entry_limits(spec: JointSpec, entry: list[Any], used: set[str]) -> list[JointLimit]:
    if entry[0] == "distance":
        return [] if spec.distance is None else [JointLimit(linear_axes=(0, 1, 2), min=spec.distance[0],
                                                            max=spec.distance[1])]
    if entry[0] == "cone":
        return [] if spec.cone is None else [_cone_limit(spec.cone)]
    if entry[0] == "extra":
        k = int(entry[1])
        return [spec.extra_limits[k]] if 0 <= k < len(spec.extra_limits) else []
    names = [n for n in entry[1] if n in spec.ranges and n not in used]
    values = {(spec.ranges[n], spec.soft.get(n)) for n in names}
    if len(values) != 1 or (len(names) > 1 and next(iter(values))[0] != (0.0, 0.0)):  # not one lock: per DOF
        return [lim for n in names for lim in _entry_limits(spec, ["dofs", [n]], used)] if len(names) > 1 \
            else []
    used.update(names)
    (lo, hi), soft = values.pop()
    stiffness, damping = soft if soft is not None else (math.inf, 0.0)
    angular = names[0] in ROT
    axes = tuple((ROT if angular else TRANS).index(n) for n in names)
    return [JointLimit(linear_axes=() if angular else axes, angular_axes=axes if angular else (), min=lo, max=hi,
                       stiffness=stiffness, damping=damping)]


def implied_ranges(kind: str, axis: int) -> dict[str, tuple[float, float]]:
    """The DOFs a typed USD joint locks (a reader adds the free axis' own limit)."""
    if kind == "fixed":
        return {n: (0.0, 0.0) for n in TRANS + ROT}
    if kind in ("revolute", "spherical"):
        locked = TRANS + (tuple(n for n in ROT if n != ROT[axis]) if kind == "revolute" else ())
        return {n: (0.0, 0.0) for n in locked}
    if kind == "prismatic":
        return {n: (0.0, 0.0) for n in ROT + tuple(n for n in TRANS if n != TRANS[axis])}
    return {}
