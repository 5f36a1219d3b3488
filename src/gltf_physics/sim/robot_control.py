"""Driving a robot by joint name: drive targets set, joint positions and velocities read, on any engine.

A joint's name is its glTF node's name, which the URDF and MJCF converters set to the source's joint name (an
MJCF joint named as its body is ``NAME_joint``). A joint on a static base is written from its moving side (the
writers swap it so that tools which need a moving side A can build it), on its attachment node
``NAME_attachment``: it is found by ``NAME`` too, its coordinate negated back so values keep the source's
sense.

A joint's coordinate is the axis its drive acts on or, without a drive, its one free axis (a hinge's twist, a
slider's offset: the KHR limit metric of docs/semantics.md); joints with no single coordinate (fixed, ball,
free, planar without a drive) are not listed. Targets go through the same per-joint edits as Object Model
pointers (``World.set``): a position drive (stiffness > 0) takes a position target, a velocity drive a velocity
target; :func:`set_gains` turns a drive into a PD servo (a position drive) or back. Positions are measured from
the joint's two frames now (``Engine.node_matrix``), velocities as their rate over the last step (``World``
keeps the positions before each step once the joint API is in use) or, before any step, from the two bodies'
velocities (``Engine.point_velocity``), so both engines answer alike.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..gltf.transforms import matrix_to_quat
from ..model import PhysicsScene
from ..model.joints import Joint
from .errors import SimulationError

_SUFFIXES = (("_attachment", -1.0),)


@dataclass(frozen=True)
class Coordinate:
    """One joint coordinate: the model joint, its axis kind (``linear``/``angular``) and index, the drive on
    it (index into ``joint.drives``, or ``None``) and the sign that gives the source's sense."""

    joint: int
    kind: str
    axis: int
    drive: int | None
    sign: float = 1.0


def coordinates(scene: PhysicsScene) -> dict[str, Coordinate]:
    """Joint name → its coordinate, for every joint of ``scene`` with one (see the module docstring)."""
    nodes = scene.document.json.get("nodes", []) if scene.document is not None else []
    wanted: list[tuple[str, str, Coordinate]] = []  # (name wanted, the node's own name, coordinate)
    for k, j in enumerate(scene.joints):
        name = nodes[j.node].get("name") if 0 <= j.node < len(nodes) else None
        coord = _coordinate(k, j)
        if not isinstance(name, str) or coord is None:
            continue
        suffix = next((x for x in _SUFFIXES if name.endswith(x[0]) and len(name) > len(x[0])), None)
        if suffix is None:
            wanted.append((name, name, coord))
        else:
            flipped = Coordinate(coord.joint, coord.kind, coord.axis, coord.drive, coord.sign * suffix[1])
            wanted.append((name.removesuffix(suffix[0]), name, flipped))
    counts = Counter(w for w, _, _ in wanted)
    out: dict[str, Coordinate] = {}
    for want, own, coord in wanted:  # a short name taken twice: each joint under its node's own name
        key = want if counts[want] == 1 else own
        out.setdefault(key, coord if key == want or want == own else _plain(coord, scene.joints[coord.joint]))
    return out


def _plain(flipped: Coordinate, j: Joint) -> Coordinate:
    return Coordinate(flipped.joint, flipped.kind, flipped.axis, flipped.drive, 1.0)


def _coordinate(k: int, j: Joint) -> Coordinate | None:
    if j.drives:
        d = j.drives[0]
        return Coordinate(k, str(getattr(d.type, "value", d.type)), d.axis, 0)
    locked = set()
    for lim in j.limits:
        if lim.min == 0.0 and lim.max == 0.0 and math.isinf(lim.stiffness):
            locked.update(("linear", a) for a in lim.linear_axes)
            locked.update(("angular", a) for a in lim.angular_axes)
    free = [(kind, a) for kind in ("linear", "angular") for a in range(3) if (kind, a) not in locked]
    return Coordinate(k, free[0][0], free[0][1], None) if len(free) == 1 else None


def find(coords: Mapping[str, Coordinate], name: str) -> Coordinate:
    """The coordinate of joint ``name``; SimulationError naming some of the joints there are."""
    c = coords.get(name)
    if c is None:
        known = ", ".join(sorted(coords)[:8]) or "none"
        raise SimulationError(f"no joint named {name!r} with one coordinate (joints: {known}"
                              f"{', …' if len(coords) > 8 else ''})")
    return c


def set_targets(engine: Any, coords: Mapping[str, Coordinate], stiffness: Mapping[int, float],
                targets: Mapping[str, float]) -> None:
    """Each named joint's drive target: a position for a position drive (``stiffness[joint]`` > 0: the drive's
    stiffness now), else a velocity."""
    edits = []
    for name, value in targets.items():
        c = _driven(coords, name)
        v = _finite(name, "target", value)
        field = "position_target" if stiffness.get(c.joint, 0.0) > 0 else "velocity_target"
        edits.append((c.joint, ("drives", str(c.drive), field), c.sign * v))
    _apply(engine, edits)


def set_gains(engine: Any, coords: Mapping[str, Coordinate], stiffness: dict[int, float],
              gains: Mapping[str, tuple[float, float]]) -> None:
    """Each named joint's drive gains (stiffness, damping): a stiffness > 0 makes it a position drive (a PD
    servo: force = stiffness·(target − q) + damping·(velocity target − q̇)); ``stiffness`` is kept up to date."""
    edits = []
    for name, (kp, kd) in gains.items():
        c = _driven(coords, name)
        kp, kd = _finite(name, "stiffness", kp), _finite(name, "damping", kd)
        if kp < 0 or kd < 0:
            raise SimulationError(f"joint {name!r}: stiffness and damping must be ≥ 0")
        edits += [(c.joint, ("drives", str(c.drive), "stiffness"), kp),
                  (c.joint, ("drives", str(c.drive), "damping"), kd)]
    _apply(engine, edits)
    for joint, path, v in edits:
        if path[2] == "stiffness":
            stiffness[joint] = v


def _driven(coords: Mapping[str, Coordinate], name: str) -> Coordinate:
    c = find(coords, name)
    if c.drive is None:
        raise SimulationError(f"joint {name!r} has no drive")
    return c


def _finite(name: str, what: str, value: Any) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if not math.isfinite(v):
        raise SimulationError(f"joint {name!r}: {what} {value!r} is not a finite number")
    return v


def _apply(engine: Any, edits: list[tuple[int, tuple[str, str, str], float]]) -> None:
    """The per-joint edits of Object Model pointers, after every name and value was checked."""
    if engine.joints is None:
        raise SimulationError("this world simulates no joints")
    for joint, path, v in edits:
        try:
            engine.joints.set(joint, path, v)
        except (KeyError, ValueError) as e:
            raise SimulationError(str(e).strip("'\"")) from None


def position(scene: PhysicsScene, engine: Any, c: Coordinate) -> float:
    """The coordinate now: frame B's offset along, or twist about, frame A's axis."""
    j = scene.joints[c.joint]
    a, b = _frames(engine, j)
    ra = a[:3, :3]
    if c.kind == "linear":
        return c.sign * float(ra[:, c.axis] @ (b[:3, 3] - a[:3, 3]))
    x, y, z, w = matrix_to_quat(ra.T @ b[:3, :3])
    q = (x, y, z)[c.axis]
    return c.sign * 2.0 * math.atan2(q, w) if w >= 0 else c.sign * 2.0 * math.atan2(-q, -w)


def velocity(scene: PhysicsScene, engine: Any, c: Coordinate) -> float:
    """The coordinate's rate now: the two bodies' relative velocity along (or about) frame A's axis."""
    j = scene.joints[c.joint]
    a, b = _frames(engine, j)
    axis = a[:3, c.axis]
    point = b[:3, 3]
    va, wa = _point_velocity(engine, j.body_a, point)
    vb, wb = _point_velocity(engine, j.body_b, point)
    rate = (vb - va) if c.kind == "linear" else (wb - wa)
    return c.sign * float(axis @ rate)


def rate(c: Coordinate, change: float, dt: float) -> float:
    """A coordinate's change over one step of ``dt`` s as a rate; a twist's change taken the short way round."""
    if c.kind == "angular":
        change = (change + math.pi) % (2.0 * math.pi) - math.pi
    return change / dt


def _frames(engine: Any, j: Joint) -> tuple[np.ndarray, np.ndarray]:
    a = _unscaled(engine.node_matrix(j.node))
    b = _unscaled(engine.node_matrix(j.connected_node)) if j.connected_node is not None else None
    if b is None:
        raise SimulationError("a joint without a connected node has no coordinate to read")
    return a, b


def _unscaled(m: np.ndarray) -> np.ndarray:
    out = np.array(m, dtype=float)
    for i in range(3):
        n = float(np.linalg.norm(out[:3, i]))
        if n > 0:
            out[:3, i] /= n
    return out


def _point_velocity(engine: Any, node: int | None, point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(linear velocity of ``point`` carried by the body on ``node``, its angular velocity); zeros for the world
    or a body that does not move."""
    if node is None or node not in engine.handle_of:
        return np.zeros(3), np.zeros(3)
    linear, angular = engine.point_velocity(node, point)
    return np.asarray(linear, dtype=float), np.asarray(angular, dtype=float)
