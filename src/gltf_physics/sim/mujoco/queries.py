"""The behaviour-graph primitives on MuJoCo (``sim/queries.py``): impulses, ray casts, body poses and velocities.

An impulse is a generalized impulse: ``mj_applyFT`` turns the world impulse (and its moment about the body's
centre of mass, or the point's) into joint space, and the velocities change at once by M⁻¹ of it
(``mj_solveM``), which for a free body is Δv = J/m and Δω = I⁻¹ (r × J) exactly. A ray is ``mj_ray`` over the
solid geoms (trigger geoms are in their own group, left out); geoms the ray's collision filter does not meet
are moved to that group for the cast and put back. Positions and vectors are turned between glTF's Y-up world and
the MJCF's Z-up one here.
"""

from __future__ import annotations

from typing import Any

import mujoco
import numpy as np

from ...formats.mjcf.write import TRIGGER_GROUP
from ..errors import SimulationError
from ..queries import RayHit, ray_allows, ray_filter, vec3

# The MujocoWorld of sim/mujoco/world.py, which imports this module: named, not imported (no import circle).
MujocoWorld = Any

_R = np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]])  # glTF (Y-up) → MJCF (Z-up), as in world.py
_SOLID_GROUPS = np.array([1 if g != TRIGGER_GROUP else 0 for g in range(6)], dtype=np.uint8)


def _dynamic(mw: MujocoWorld, node: int) -> int:
    body = mw.handle_of.get(node)
    if body is None or node not in mw.mass_of or node in mw._mocap:
        raise SimulationError(f"node {node} is not a dynamic body", node=node)
    return int(body)


def _impulse(mw: MujocoWorld, body: int, j: np.ndarray, torque: np.ndarray, point: np.ndarray) -> None:
    m, d = mw.model, mw.data
    qfrc = np.zeros(m.nv)
    mujoco.mj_applyFT(m, d, _R @ j, _R @ torque, point, body, qfrc)
    dv = np.zeros(m.nv)
    mujoco.mj_solveM(m, d, dv.reshape(1, -1), qfrc.reshape(1, -1))
    d.qvel[:] += dv
    mujoco.mj_forward(m, d)


def apply_impulse(mw: MujocoWorld, node: int, linear: Any, angular: Any = (0.0, 0.0, 0.0)) -> None:
    """A world linear impulse at the centre of mass and a world angular impulse on a dynamic body, now."""
    lin, ang = np.asarray(vec3(linear, "linearImpulse", node)), np.asarray(vec3(angular, "angularImpulse", node))
    body = _dynamic(mw, node)
    _impulse(mw, body, lin, ang, mw.data.xipos[body].copy())


def apply_point_impulse(mw: MujocoWorld, node: int, impulse: Any, point: Any) -> None:
    """A world impulse at a world point on a dynamic body, now."""
    j, p = np.asarray(vec3(impulse, "impulse", node)), np.asarray(vec3(point, "position", node))
    body = _dynamic(mw, node)
    _impulse(mw, body, j, np.zeros(3), _R @ p)


def ray_cast(mw: MujocoWorld, start: Any, end: Any, filter_index: int | None = None) -> RayHit | None:
    """The closest solid geom on the segment ``start``→``end`` (glTF world), as its collider's node, or None."""
    a, b = np.asarray(vec3(start, "rayStart")), np.asarray(vec3(end, "rayEnd"))
    ray_f = ray_filter(mw.scene.filters, filter_index)
    if not np.any(b - a):
        return None
    m, d = mw.model, mw.data
    hidden: list[int] = []
    if ray_f is not None:
        hidden = [g for g, key in mw.solid_filter.items() if not ray_allows(ray_f, mw.scene.filters, key)]
    saved = m.geom_group[hidden].copy()
    m.geom_group[hidden] = TRIGGER_GROUP
    geom = np.array([-1], dtype=np.int32)
    normal = np.zeros(3)
    try:
        x = mujoco.mj_ray(m, d, _R @ a, _R @ (b - a), _SOLID_GROUPS, 1, -1, geom, normal)
    finally:
        m.geom_group[hidden] = saved
    if x < 0 or x > 1 or int(geom[0]) not in mw.collider_node:
        return None
    n = _R.T @ normal
    length = float(np.linalg.norm(n))
    unit = tuple((n / length).tolist()) if length > 0 else (0.0, 0.0, 0.0)
    return RayHit(mw.collider_node[int(geom[0])], tuple((a + x * (b - a)).tolist()), unit, float(x))  # type: ignore[arg-type]


def velocities(mw: MujocoWorld, node: int) -> tuple[np.ndarray, np.ndarray]:
    """glTF-world linear velocity of the centre of mass and angular velocity of a body node now."""
    if node not in mw.handle_of:
        raise SimulationError(f"node {node} is not a body", node=node)
    res = np.zeros(6)
    mujoco.mj_objectVelocity(mw.model, mw.data, mujoco.mjtObj.mjOBJ_BODY, int(mw.handle_of[node]), res, 0)
    return _R.T @ res[3:], _R.T @ res[:3]


def set_pose(mw: MujocoWorld, node: int, translation: Any, rotation: Any, mj_quat: Any) -> None:
    """Move a body node's body to a world pose now: a free body's joint position, a mocap body's target."""
    if node not in mw.handle_of:
        raise SimulationError(f"node {node} is not a body", node=node)
    t = _R @ np.asarray(vec3(translation, "translation", node))
    q = mj_quat(np.asarray([float(v) for v in rotation]))
    m, d, body = mw.model, mw.data, int(mw.handle_of[node])
    if node in mw._mocap:
        d.mocap_pos[mw._mocap[node]], d.mocap_quat[mw._mocap[node]] = t, q
    else:
        jnt = int(m.body_jntadr[body])
        if jnt < 0 or m.jnt_type[jnt] != mujoco.mjtJoint.mjJNT_FREE:
            raise SimulationError(f"node {node} is jointed: its pose is not set on MuJoCo", node=node)
        adr = int(m.jnt_qposadr[jnt])
        d.qpos[adr:adr + 3], d.qpos[adr + 3:adr + 7] = t, q
    mujoco.mj_forward(m, d)
