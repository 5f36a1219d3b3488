"""The runtime-settable Object Model pointers a scene exposes, spelled as the files spell them.

For interactive tools (the live viewer's tuning panel and vehicle keys): each :class:`Setting` names one pointer
that ``World.set`` accepts (see :mod:`.pointers`), its current value in the file (or the runtime default), the
kind of value, and a sensible range for a slider. Only this package knows the extensions' JSON names, so the
catalogue is built here from the model's own pointers.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ...model import DriveType, MotionType, PhysicsScene
from .pointers import GRAVITY_FIELDS, OMI_GRAVITY, OMI_WHEEL

MAX_BODIES = 40  # a panel of a 1,000-body pile lists the first bodies only (the API takes any pointer)

Kind = Literal["number", "vec3", "bool"]


@dataclass(frozen=True)
class Setting:
    """One settable pointer: ``value`` now (from the file or the runtime default), slider ``low``/``high``,
    ``unit`` (``rad`` values are shown in degrees by the viewer), and the ``node`` it belongs to (for
    highlighting)."""

    pointer: str
    group: str
    label: str
    kind: Kind
    value: Any
    low: float = -10.0
    high: float = 10.0
    unit: str = ""
    node: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The setting as plain JSON (infinities become None)."""
        d = asdict(self)
        d["value"] = _finite(self.value)
        return d


@dataclass(frozen=True)
class VehicleControls:
    """Keyboard driving of one vehicle body through its own pointers: throttle along +Z (linear activation),
    steering about +Y (angular activation, + = left), brake through the linear dampeners (DIGEST §11)."""

    node: int
    pilot_seat: int | None
    linear_activation: str
    angular_activation: str
    linear_dampeners: str
    dampeners_default: bool
    wheels: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The controls as plain JSON."""
        return asdict(self)


def settable(scene: PhysicsScene, max_bodies: int = MAX_BODIES,
             masses: dict[int, float] | None = None) -> list[Setting]:
    """Every pointer of the scene a live tool can set, grouped: drives and limits, vehicles, wheels, gravity
    volumes, then body motion (of the first ``max_bodies`` dynamic bodies). ``masses``: body node → the mass the
    runtime uses, shown for a body whose file gives none (computed from its colliders)."""
    out: list[Setting] = []
    out += _joints(scene)
    out += _vehicles(scene)
    out += _wheels(scene)
    out += _gravity(scene)
    out += _bodies(scene, max_bodies, masses or {})
    return out


def vehicle_controls(scene: PhysicsScene) -> list[VehicleControls]:
    """The drivable vehicles: every vehicle body (its pilot seat shown, its wheels listed)."""
    return [VehicleControls(v.node, v.pilot_seat, f"{v.pointer}/linearActivation", f"{v.pointer}/angularActivation",
                            f"{v.pointer}/linearDampeners", bool(v.linear_dampeners),
                            [w.node for w in scene.wheels if w.vehicle == v.node])
            for v in scene.vehicles if v.pointer]


def _joints(scene: PhysicsScene) -> list[Setting]:
    out: list[Setting] = []
    seen: set[str] = set()
    for j in scene.joints:
        for d in j.drives:
            if not d.pointer or d.pointer in seen:
                continue  # joints sharing settings share the pointer: listed once
            seen.add(d.pointer)
            angular = d.type is DriveType.ANGULAR
            span, unit = (math.pi, "rad") if angular else (2.0, "m")
            group = f"drive {d.pointer.rsplit('/', 3)[-3]}/{d.pointer.rsplit('/', 1)[-1]} ({d.type.value} "\
                    f"axis {'XYZ'[d.axis] if 0 <= d.axis < 3 else d.axis})"
            out.append(Setting(f"{d.pointer}/positionTarget", group, "position target", "number",
                               d.position_target or 0.0, -span, span, unit, j.node))
            vunit = "rad/s" if angular else "m/s"
            out.append(Setting(f"{d.pointer}/velocityTarget", group, "velocity target", "number",
                               d.velocity_target or 0.0, -10.0, 10.0, vunit, j.node))
            out.append(Setting(f"{d.pointer}/stiffness", group, "stiffness", "number", d.stiffness, 0.0,
                               max(1000.0, 10 * d.stiffness), "", j.node))
            out.append(Setting(f"{d.pointer}/damping", group, "damping", "number", d.damping, 0.0,
                               max(100.0, 10 * d.damping), "", j.node))
            out.append(Setting(f"{d.pointer}/maxForce", group, "max force", "number", d.max_force, 0.0,
                               1e4, "", j.node))
        for lim in j.limits:
            if not lim.pointer or lim.pointer in seen:
                continue
            seen.add(lim.pointer)
            angular = bool(lim.angular_axes)
            span, unit = (math.pi, "rad") if angular else (5.0, "m")
            group = f"limit {lim.pointer.rsplit('/', 3)[-3]}/{lim.pointer.rsplit('/', 1)[-1]}"
            out.append(Setting(f"{lim.pointer}/min", group, "min", "number", lim.min, -span, span, unit, j.node))
            out.append(Setting(f"{lim.pointer}/max", group, "max", "number", lim.max, -span, span, unit, j.node))
    return out


def _vehicles(scene: PhysicsScene) -> list[Setting]:
    out: list[Setting] = []
    for v in scene.vehicles:
        if not v.pointer:
            continue
        group = f"vehicle #{v.node}"
        out += [Setting(f"{v.pointer}/linearActivation", group, "linear activation", "vec3",
                        list(v.linear_activation), -1.0, 1.0, "", v.node),
                Setting(f"{v.pointer}/angularActivation", group, "angular activation", "vec3",
                        list(v.angular_activation), -1.0, 1.0, "", v.node),
                Setting(f"{v.pointer}/maxSpeed", group, "max speed", "number", v.max_speed, -1.0, 50.0, "m/s",
                        v.node),
                Setting(f"{v.pointer}/linearDampeners", group, "linear dampeners", "bool", v.linear_dampeners,
                        node=v.node),
                Setting(f"{v.pointer}/angularDampeners", group, "angular dampeners", "bool", v.angular_dampeners,
                        node=v.node)]
    return out


def _wheels(scene: PhysicsScene) -> list[Setting]:
    out: list[Setting] = []
    seen: set[int] = set()
    for w in scene.wheels:
        if w.settings_index is None or w.settings_index in seen:
            continue
        seen.add(w.settings_index)
        base = f"/extensions/{OMI_WHEEL}/wheels/{w.settings_index}"
        group = f"wheel settings {w.settings_index}"
        out += [Setting(f"{base}/maxPropulsionForce", group, "max propulsion force", "number",
                        w.max_propulsion_force, 0.0, max(10_000.0, 2 * w.max_propulsion_force), "N", w.node),
                Setting(f"{base}/maxSteeringAngle", group, "max steering angle", "number", w.max_steering_angle,
                        0.0, math.pi / 2, "rad", w.node),
                Setting(f"{base}/brakingForce", group, "braking force", "number", w.braking_force, -1.0,
                        10_000.0, "N", w.node)]
    return out


def _gravity(scene: PhysicsScene) -> list[Setting]:
    out: list[Setting] = []
    for g in scene.gravity_fields:
        base = f"/nodes/{g.node}/extensions/{OMI_GRAVITY}"
        out.append(Setting(f"{base}/{GRAVITY_FIELDS['gravity']}", f"gravity volume #{g.node}", "gravity", "number",
                           g.gravity, -30.0, 30.0, "m/s²", g.node))
    return out


def _bodies(scene: PhysicsScene, max_bodies: int, masses: dict[int, float]) -> list[Setting]:
    out: list[Setting] = []
    dynamic = [b for b in scene.bodies if b.motion.type is MotionType.DYNAMIC and b.pointer]
    for b in dynamic[:max_bodies]:
        m, group = b.motion, f"body #{b.node}"
        mass = m.mass if m.mass is not None else masses.get(b.node, 1.0)
        mass = mass if math.isfinite(mass) and mass > 0 else 1.0
        out += [Setting(f"{b.pointer}/gravityFactor", group, "gravity factor", "number", m.gravity_factor, -2.0,
                        4.0, "", b.node),
                Setting(f"{b.pointer}/mass", group, "mass", "number", mass, 0.01, max(10.0, 10 * mass), "kg",
                        b.node),
                Setting(f"{b.pointer}/linearVelocity", group, "linear velocity", "vec3", [0.0, 0.0, 0.0], -10.0,
                        10.0, "m/s", b.node),
                Setting(f"{b.pointer}/angularVelocity", group, "angular velocity", "vec3", [0.0, 0.0, 0.0], -10.0,
                        10.0, "rad/s", b.node)]
    return out


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value
