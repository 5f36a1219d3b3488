"""Run-time edits of simulated joints (``World.set`` on a joint pointer → ``JointDriver.set``).

``field`` is a tuple of model names:

- ``("drives", i, name)``, name ∈ position_target, velocity_target, stiffness, damping, max_force
  (``None`` clears a target);
- ``("limits", i, name)``, name ∈ min, max, stiffness, damping (the joint's Rapier rows are rebuilt);
- ``("enable_collision",)`` with a bool.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ....model.joints import Joint
from .. import articulations
from .common import _Built
from .springs import _live

DRIVE_FIELDS = ("position_target", "velocity_target", "stiffness", "damping", "max_force")
LIMIT_FIELDS = ("min", "max", "stiffness", "damping")


def _seen_from_b(joint: Joint, field_path: tuple[Any, ...], value: Any) -> tuple[tuple[Any, ...], Any]:
    """A run-time change of a flipped joint's value, as the flipped joint holds it: a one-axis range's min
    and max exchange and change sign, drive targets change sign (``portable_joints.swapped``)."""
    kind, name = field_path[0], str(field_path[-1])
    if kind == "limits" and name in ("min", "max"):
        limit = joint.limits[int(field_path[1])]
        if len(limit.linear_axes) + len(limit.angular_axes) == 1:
            other = "max" if name == "min" else "min"
            return (*field_path[:-1], other), 0.0 - float(value)
    if kind == "drives" and name in ("position_target", "velocity_target") and value is not None:
        return field_path, 0.0 - float(value)
    return field_path, value


def _wake(rw: Any, b: _Built) -> None:
    for side in (b.a, b.b):
        rb = rw.bodies[side.handle]
        if rb.is_dynamic:
            rb.wake_up(True)


def apply_edit(driver: Any, joint_index: int, field_path: tuple[Any, ...], value: Any) -> None:
    """``JointDriver.set``: change a drive or limit value of a model joint at run time (names: module docstring).

    Raises ``KeyError`` for a joint that is not simulated, ``ValueError`` for an unknown field.
    """
    b = driver.built.get(joint_index)
    if b is None:
        raise KeyError(f"joint {joint_index} is not simulated")
    if joint_index in driver.flipped:  # built from its other side: the file's values seen from there
        field_path, value = _seen_from_b(b.joint, field_path, value)
    kind = field_path[0]
    if kind == "drives":
        i, name = int(field_path[1]), str(field_path[2])
        if name not in DRIVE_FIELDS:
            raise ValueError(f"unknown drive field {name!r} (one of {', '.join(DRIVE_FIELDS)})")
        drives = list(b.joint.drives)
        drives[i] = dataclasses.replace(drives[i], **{name: None if value is None else float(value)})
        b.joint = dataclasses.replace(b.joint, drives=tuple(drives))
        if b.multibody is not None:
            articulations.set_drive(driver.rw, b.multibody, b.plan, b.joint, i)
            _wake(driver.rw, b)
            return
        driver._invalidate()  # the springs' rates back in their records first
        if not _live(b.springs[i]):
            b.springs[i].prev = None  # was not measured while inert (see _live)
        b.springs[i].drive = drives[i]
        _wake(driver.rw, b)
    elif kind == "limits":
        i, name = int(field_path[1]), str(field_path[2])
        if name not in LIMIT_FIELDS:
            raise ValueError(f"unknown limit field {name!r} (one of {', '.join(LIMIT_FIELDS)})")
        limits = list(b.joint.limits)
        limits[i] = dataclasses.replace(limits[i], **{name: float(value)})
        driver._rebuild(joint_index, dataclasses.replace(b.joint, limits=tuple(limits)))
    elif kind == "enable_collision":
        driver._rebuild(joint_index, dataclasses.replace(b.joint, enable_collision=bool(value)))
    else:
        raise ValueError(f"unknown joint field {field_path!r}")
