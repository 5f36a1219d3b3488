"""Joints ↔ Blender rigid-body constraints (imports bpy).

A Blender constraint ties its two objects at the constraint object's world frame; a hinge turns about that
frame's Z axis, a slider, piston and motor act along or about its X axis, a generic constraint limits each of
the six axes. A glTF joint's frame A is placed there (its axes as the same physical directions, see
:mod:`.axes`), turned so that the joint's free axis is the one Blender uses.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import bpy
import numpy as np

from ..gltf.transforms import matrix_to_quat, quat_to_matrix
from ..model import DriveMode, DriveType, Joint, JointDrive, JointLimit, Pose
from .axes import frame_to_blender, frame_to_gltf

AXES = "xyz"
# Rotations taking Blender's constraint axis (Z for a hinge, X for the others) onto joint axis 0, 1, 2.
_TO_Z = [np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]), np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]]), np.eye(3)]
_TO_X = [np.eye(3), np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]]), np.array([[0, 0, -1], [0, 1, 0], [1, 0, 0]])]


def _pose(p: Pose) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = quat_to_matrix(p.rotation)
    m[:3, 3] = p.translation
    return m


def _locked(limits: tuple[JointLimit, ...], kind: str) -> tuple[set[int], dict[int, JointLimit]]:
    """(axes held at 0, other single-axis limits) of one kind (``linear`` or ``angular``)."""
    locked: set[int] = set()
    ranged: dict[int, JointLimit] = {}
    for lim in limits:
        axes = lim.linear_axes if kind == "linear" else lim.angular_axes
        if len(axes) != 1:
            if len(axes) > 1 and lim.min == lim.max == 0 and math.isinf(lim.stiffness):
                locked.update(axes)
            continue
        if lim.min == lim.max == 0 and math.isinf(lim.stiffness):
            locked.add(axes[0])
        else:
            ranged[axes[0]] = lim
    return locked, ranged


def classify(joint: Joint) -> tuple[str, int]:
    """Blender's constraint type for ``joint`` and the joint axis its constraint axis stands for."""
    lin, lin_r = _locked(joint.limits, "linear")
    ang, ang_r = _locked(joint.limits, "angular")
    coupled = any(len(lim.linear_axes) + len(lim.angular_axes) > 1 and not (lim.min == lim.max == 0)
                  for lim in joint.limits)
    soft = any(not math.isinf(lim.stiffness) for lim in joint.limits)
    every = {0, 1, 2}
    if coupled or soft:
        return "GENERIC_SPRING" if soft else "GENERIC", 0
    if lin == every and ang == every:
        return "FIXED", 0
    if lin == every and not ang and not ang_r:
        return "POINT", 0
    if lin == every and len(ang) == 2 and set(ang_r) <= every - ang:
        return "HINGE", (every - ang).pop()
    if ang == every and len(lin) == 2 and set(lin_r) <= every - lin:
        return "SLIDER", (every - lin).pop()
    free = every - lin
    if len(lin) == 2 and ang == lin and set(lin_r) | set(ang_r) <= free:
        return "PISTON", free.pop()
    return "GENERIC", 0


def blender_constraints(joint: Joint, world: list[np.ndarray], objects: dict[int, Any], collection: Any,
                        anchor: Callable[[int | None, np.ndarray], Any]) -> tuple[list[Any], list[str]]:
    """The constraint object(s) for ``joint`` (a second one, a motor, for a velocity drive) and the losses;
    ``anchor(node, frame)`` gives the object a side without a body holds on to."""
    losses: list[str] = []
    fa = (world[joint.body_a] if joint.body_a is not None else np.eye(4)) @ _pose(joint.frame_a)
    fb = (world[joint.body_b] if joint.body_b is not None else np.eye(4)) @ _pose(joint.frame_b)
    for f in (fa, fb):  # a scaled body scales where its frame sits, not the frame's axes
        f[:3, :3] /= np.linalg.norm(f[:3, :3], axis=0)
    a = objects.get(joint.body_a) if joint.body_a is not None else anchor(joint.node if joint.node >= 0 else None,
                                                                             fa)
    b = objects.get(joint.body_b) if joint.body_b is not None else anchor(joint.connected_node, fb)
    name = _name(joint, objects, a, b)
    if not np.allclose(fa, fb, atol=1e-6):
        losses.append(f"{name}: frames A and B differ at rest; Blender ties both at frame A")
    kind, axis = classify(joint)
    # Blender users tie the moving object to the still one (object1 still): a joint read the other way round is
    # turned back, its limits negated (the motion of A seen from B is the reverse of B's from A: exact for one
    # free axis, to first order for a generic joint with several).
    flip = _still(b) and not _still(a)
    if flip:
        a, b = b, a
    made = [_constraint(name, kind, axis, fa, a, b, joint, collection, flip)]
    for d in joint.drives:
        if d.velocity_target is not None and (d.position_target is None or d.stiffness == 0):  # a velocity drive
            made.append(_motor(f"{name}.motor", d, fa, a, b, collection, -1.0 if flip else 1.0))
        elif kind != "GENERIC_SPRING":
            losses.append(f"{name}: a {d.type.value} position drive on axis {d.axis} has no Blender counterpart")
    return made, losses


def _still(obj: Any) -> bool:
    rb = getattr(obj, "rigid_body", None)
    return rb is not None and rb.type == "PASSIVE" and not rb.kinematic


def _name(joint: Joint, objects: dict[int, Any], a: Any, b: Any) -> str:
    host = objects.get(joint.node) if joint.node >= 0 else None
    base = host.name if host is not None else f"{getattr(a, 'name', 'world')}-{getattr(b, 'name', 'world')}"
    return f"{base}.joint"


def _empty(name: str, frame: np.ndarray, collection: Any) -> Any:
    from mathutils import Matrix

    obj = bpy.data.objects.new(name, None)
    obj.empty_display_type = "ARROWS"
    obj.empty_display_size = 0.25
    collection.objects.link(obj)
    obj.matrix_world = Matrix([list(map(float, row)) for row in frame])
    return obj


def ensure_world() -> None:
    """The scene's rigid-body world with its body and constraint collections, made if missing."""
    scene = bpy.context.scene
    if scene.rigidbody_world is None:
        with bpy.context.temp_override(scene=scene):
            bpy.ops.rigidbody.world_add()
    world = scene.rigidbody_world
    if world.collection is None:
        world.collection = bpy.data.collections.new("RigidBodyWorld")
    if world.constraints is None:
        world.constraints = bpy.data.collections.new("RigidBodyConstraints")


def add_constraint(obj: Any, kind: str) -> Any:
    """A rigid-body constraint of ``kind`` on ``obj`` (linked into the world's constraint collection)."""
    ensure_world()
    bpy.context.scene.rigidbody_world.constraints.objects.link(obj)
    obj.rigid_body_constraint.type = kind
    return obj.rigid_body_constraint


def _turned(frame: np.ndarray, kind: str, axis: int) -> np.ndarray:
    """``frame`` (glTF world) turned so Blender's constraint axis lies on joint ``axis``, in Blender's world."""
    turn = np.eye(4)
    if kind == "HINGE":
        turn[:3, :3] = _TO_Z[axis]
    elif kind in ("SLIDER", "PISTON", "MOTOR"):
        turn[:3, :3] = _TO_X[axis]
    return frame_to_blender(frame @ turn)


def _constraint(name: str, kind: str, axis: int, frame: np.ndarray, a: Any, b: Any, joint: Joint,
                collection: Any, flip: bool = False) -> Any:
    obj = _empty(name, _turned(frame, kind, axis), collection)
    c = add_constraint(obj, kind)
    c.object1, c.object2 = a, b
    c.disable_collisions = not joint.enable_collision
    lin, lin_r = _locked(joint.limits, "linear")
    ang, ang_r = _locked(joint.limits, "angular")
    if kind == "HINGE" and axis in ang_r:
        c.use_limit_ang_z = True
        c.limit_ang_z_lower, c.limit_ang_z_upper = _clamped(ang_r[axis], flip)
    elif kind in ("SLIDER", "PISTON"):
        if axis in lin_r:
            c.use_limit_lin_x = True
            c.limit_lin_x_lower, c.limit_lin_x_upper = _clamped(lin_r[axis], flip)
        if kind == "PISTON" and axis in ang_r:
            c.use_limit_ang_x = True
            c.limit_ang_x_lower, c.limit_ang_x_upper = _clamped(ang_r[axis], flip)
    elif kind in ("GENERIC", "GENERIC_SPRING"):
        _generic(c, joint, lin, lin_r, ang, ang_r, flip)
    return obj


def _clamped(lim: JointLimit, flip: bool = False) -> tuple[float, float]:
    """The limit's range as Blender holds it (finite; negated when the sides were swapped)."""
    big = 1e6
    lo, hi = (-lim.max, -lim.min) if flip else (lim.min, lim.max)
    return max(lo, -big), min(hi, big)


def _generic(c: Any, joint: Joint, lin: set[int], lin_r: dict[int, JointLimit], ang: set[int],
             ang_r: dict[int, JointLimit], flip: bool) -> None:
    for kind, locked, ranged in (("lin", lin, lin_r), ("ang", ang, ang_r)):
        for i, a in enumerate(AXES):
            if i in locked:
                setattr(c, f"use_limit_{kind}_{a}", True)
                setattr(c, f"limit_{kind}_{a}_lower", 0.0)
                setattr(c, f"limit_{kind}_{a}_upper", 0.0)
            elif i in ranged:
                lim = ranged[i]
                setattr(c, f"use_limit_{kind}_{a}", True)
                lo, hi = _clamped(lim, flip)
                setattr(c, f"limit_{kind}_{a}_lower", lo)
                setattr(c, f"limit_{kind}_{a}_upper", hi)
                if c.type == "GENERIC_SPRING" and not math.isinf(lim.stiffness):
                    setattr(c, f"use_spring{'_ang' if kind == 'ang' else ''}_{a}", True)
                    setattr(c, f"spring_stiffness{'_ang' if kind == 'ang' else ''}_{a}", lim.stiffness)
                    setattr(c, f"spring_damping{'_ang' if kind == 'ang' else ''}_{a}", lim.damping)


def _motor(name: str, d: JointDrive, frame: np.ndarray, a: Any, b: Any, collection: Any, sign: float) -> Any:
    obj = _empty(name, _turned(frame, "MOTOR", d.axis), collection)
    c = add_constraint(obj, "MOTOR")
    c.object1, c.object2 = a, b
    if d.type is DriveType.ANGULAR:
        c.use_motor_ang, c.motor_ang_target_velocity = True, sign * d.velocity_target
        c.motor_ang_max_impulse = min(d.max_force, 1e6)
    else:
        c.use_motor_lin, c.motor_lin_target_velocity = True, sign * d.velocity_target
        c.motor_lin_max_impulse = min(d.max_force, 1e6)
    return obj


# -- Blender → glTF


def joint_of(obj: Any, node_of: Any, world: list[np.ndarray]) -> tuple[Joint | None, list[str]]:
    """The glTF joint for the constraint on ``obj`` (``node_of``: object → node index; ``world``: the exported
    nodes' glTF world matrices), and the Bullet-only settings it drops."""
    c = obj.rigid_body_constraint
    losses = [f"{obj.name}: {what} has no glTF counterpart" for what, on in (
        ("breaking threshold", c.use_breaking), ("solver iteration override", c.use_override_solver_iterations),
        ("a disabled constraint", not c.enabled)) if on]
    na = node_of(c.object1) if c.object1 is not None else None
    nb = node_of(c.object2) if c.object2 is not None else None
    m = np.array(obj.matrix_world, dtype=float)
    m[:3, :3] /= np.linalg.norm(m[:3, :3], axis=0)  # the frame, not the empty's display size
    frame = frame_to_gltf(m)
    fa = _local(frame, na, world)
    fb = _local(frame, nb, world)
    limits, drives = _limits(c), _drives(c)
    if c.type == "GENERIC_SPRING" and c.spring_type == "SPRING1":
        losses.append(f"{obj.name}: Blender's SPRING1 spring model is written as a plain spring")
    j = Joint(body_a=na, frame_a=fa, body_b=nb, frame_b=fb, limits=limits, drives=drives,
              enable_collision=not c.disable_collisions)
    return j, losses


def _local(frame: np.ndarray, node: int | None, world: list[np.ndarray]) -> Pose:
    w = world[node] if node is not None else np.eye(4)
    w = w.copy()
    w[:3, :3] /= np.linalg.norm(w[:3, :3], axis=0)
    rel = np.linalg.inv(w) @ frame
    t = tuple(float(x) for x in rel[:3, 3])
    q = tuple(float(x) for x in matrix_to_quat(rel[:3, :3]))
    return Pose(_clean(t), _clean(q))


def _clean(v: tuple[float, ...]) -> Any:
    return tuple(0.0 if abs(x) < 1e-12 else x for x in v)


def _lock(kind: str, axes: tuple[int, ...]) -> JointLimit:
    return JointLimit(linear_axes=axes, min=0.0, max=0.0) if kind == "lin" else \
        JointLimit(angular_axes=axes, min=0.0, max=0.0)


def _range(kind: str, axis: int, lo: float, hi: float, stiffness: float = math.inf,
           damping: float = 0.0) -> JointLimit:
    if kind == "lin":
        return JointLimit(linear_axes=(axis,), min=lo, max=hi, stiffness=stiffness, damping=damping)
    return JointLimit(angular_axes=(axis,), min=lo, max=hi, stiffness=stiffness, damping=damping)


def _limits(c: Any) -> tuple[JointLimit, ...]:
    t = c.type
    if t == "FIXED":
        return (_lock("lin", (0, 1, 2)), _lock("ang", (0, 1, 2)))
    if t == "POINT":
        return (_lock("lin", (0, 1, 2)),)
    if t == "HINGE":
        out = [_lock("lin", (0, 1, 2)), _lock("ang", (0, 1))]
        if c.use_limit_ang_z:
            out.append(_range("ang", 2, c.limit_ang_z_lower, c.limit_ang_z_upper))
        return tuple(out)
    if t == "SLIDER":
        out = [_lock("lin", (1, 2)), _lock("ang", (0, 1, 2))]
        if c.use_limit_lin_x:
            out.append(_range("lin", 0, c.limit_lin_x_lower, c.limit_lin_x_upper))
        return tuple(out)
    if t == "PISTON":
        out = [_lock("lin", (1, 2)), _lock("ang", (1, 2))]
        if c.use_limit_lin_x:
            out.append(_range("lin", 0, c.limit_lin_x_lower, c.limit_lin_x_upper))
        if c.use_limit_ang_x:
            out.append(_range("ang", 0, c.limit_ang_x_lower, c.limit_ang_x_upper))
        return tuple(out)
    if t in ("GENERIC", "GENERIC_SPRING"):
        return tuple(_generic_limits(c))
    return ()  # MOTOR: no limits, only its drive


def _generic_limits(c: Any) -> list[JointLimit]:
    out: list[JointLimit] = []
    for kind in ("lin", "ang"):
        for i, a in enumerate(AXES):
            if not getattr(c, f"use_limit_{kind}_{a}"):
                continue
            lo, hi = getattr(c, f"limit_{kind}_{a}_lower"), getattr(c, f"limit_{kind}_{a}_upper")
            stiffness, damping = math.inf, 0.0
            suffix = "_ang" if kind == "ang" else ""
            if c.type == "GENERIC_SPRING" and getattr(c, f"use_spring{suffix}_{a}"):
                stiffness = getattr(c, f"spring_stiffness{suffix}_{a}")
                damping = getattr(c, f"spring_damping{suffix}_{a}")
            out.append(_range(kind, i, lo, hi, stiffness, damping))
    return out


def _drives(c: Any) -> tuple[JointDrive, ...]:
    if c.type != "MOTOR":
        return ()
    out = []
    if c.use_motor_ang:
        out.append(JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 0, max_force=c.motor_ang_max_impulse,
                              velocity_target=c.motor_ang_target_velocity, damping=1e6))
    if c.use_motor_lin:
        out.append(JointDrive(DriveType.LINEAR, DriveMode.FORCE, 0, max_force=c.motor_lin_max_impulse,
                              velocity_target=c.motor_lin_target_velocity, damping=1e6))
    return tuple(out)


def merge_motors(joints: list[Joint], world: list[np.ndarray]) -> list[Joint]:
    """Blender keeps a motor as a constraint of its own; a motor between the same two bodies as another joint
    becomes that joint's drive, on the joint axis it lies along (else it stays a joint of its own)."""
    out = [j for j in joints if j.limits or not j.drives]
    for m in (j for j in joints if not j.limits and j.drives):
        host = next((j for j in out if {j.body_a, j.body_b} == {m.body_a, m.body_b} and j is not m), None)
        if host is None:
            out.append(m)
            continue
        coords = _frame_world(host, world)[:3, :3].T @ _frame_world(m, world)[:3, 0]
        k = int(np.argmax(np.abs(coords)))
        if abs(coords[k]) < 1 - 1e-6:
            out.append(m)
            continue
        sign = float(np.sign(coords[k])) * (1.0 if host.body_a == m.body_a else -1.0)  # reversed sides: reversed
        drives = tuple(replace(d, axis=k, velocity_target=sign * d.velocity_target) for d in m.drives
                       if d.velocity_target is not None)
        out[out.index(host)] = replace(host, drives=host.drives + drives)
    return out


def _frame_world(j: Joint, world: list[np.ndarray]) -> np.ndarray:
    w = (world[j.body_a] if j.body_a is not None else np.eye(4)) @ _pose(j.frame_a)
    w[:3, :3] /= np.linalg.norm(w[:3, :3], axis=0)
    return w
