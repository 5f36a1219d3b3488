"""The motion of multibody links across a change of articulation (a joint built or rebuilt while bodies move).

Rapier keeps an articulation's motion in its joint rates q̇, not in its bodies' velocities: a link inserted starts
with rate 0 on its new joint, and a subtree split off by a removed link restarts its root from rest (Rapier gives
the new root a free joint at rate 0). So building or rebuilding a joint between moving bodies would stop them.
:func:`capture` reads the velocities of the bodies concerned before the change (a link's is J·q̇, its Jacobian at
the present pose times the rates Rapier will step from); :func:`restore` gives every articulation that holds one
of them the rates whose link velocities come nearest, in the kinetic-energy metric (minimum of
Σ m|v − v₀|² + (ω − ω₀)ᵀI(ω − ω₀)), and gives bodies outside any articulation theirs back. That is the velocity an
instantaneous joint impulse leaves (it keeps a free structure's linear and angular momentum); velocities that
already fit the joints come back exactly. :func:`set_link_velocity` is the converse edit: one link given a new
velocity (``World.set``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np


def capture(rw: Any, handles: Iterable[Any]) -> dict[Any, np.ndarray]:
    """The velocities (6: linear at the centre of mass, then angular; world frame) of the dynamic bodies among
    ``handles`` and of every link of the articulations they belong to."""
    mbs, bodies = rw.multibody_joints, rw.bodies
    out: dict[Any, np.ndarray] = {}
    for h in handles:
        if h in out:
            continue
        link = mbs.rigid_body_link(h)
        if link is None:
            rb = bodies[h]
            if rb.is_dynamic:
                out[h] = np.array((*rb.linvel.to_tuple(), *rb.angvel.to_tuple()), dtype=np.float64)
            continue
        mb = mbs.get_multibody(link.multibody)
        mb.forward_kinematics(bodies, True)  # Jacobians at the present pose (they are the last step's start's)
        q = np.asarray(mb.generalized_velocity(), dtype=np.float64)
        for i in range(mb.num_links):
            body = mb.get_link(i).rigid_body
            if bodies[body].is_dynamic:
                out[body] = _jacobian(mb, i, len(q)) @ q
    return out


def moving(velocities: dict[Any, np.ndarray]) -> bool:
    """Whether any captured body moves (else there is nothing to restore: a new link starts at rest)."""
    return any(bool(v.any()) for v in velocities.values())


def restore(rw: Any, velocities: dict[Any, np.ndarray]) -> None:
    """Give the bodies of ``velocities`` (from :func:`capture`) their motion back (module docstring). A driven
    root (``joints/driven_roots.py``) needs no exception: its mass, 10⁶ times its links', keeps its own."""
    mbs, bodies = rw.multibody_joints, rw.bodies
    done: set[Any] = set()
    for h, v in velocities.items():
        link = mbs.rigid_body_link(h)
        if link is None:
            _set_body_velocity(bodies[h], v)
            continue
        mb = mbs.get_multibody(link.multibody)
        if mb.root_handle not in done:
            done.add(mb.root_handle)
            _fit(rw, mb, velocities)


def _fit(rw: Any, mb: Any, velocities: dict[Any, np.ndarray]) -> None:
    """One articulation's rates nearest to the captured velocities of its links (weighted least squares)."""
    bodies = rw.bodies
    mb.forward_kinematics(bodies, True)  # a new or split-off dynamic root becomes free here (6 rates at 0)
    q = np.asarray(mb.generalized_velocity(), dtype=np.float64)
    if not len(q):
        return
    jacobians = [_jacobian(mb, i, len(q)) for i in range(mb.num_links)]
    rows, rhs = [], []
    for i, jac in enumerate(jacobians):
        rb = bodies[mb.get_link(i).rigid_body]
        if not rb.is_dynamic:
            continue
        target = velocities.get(mb.get_link(i).rigid_body, jac @ q)  # a link not captured keeps its motion
        w = _metric_root(rb)
        rows.append(w @ jac)
        rhs.append(w @ target)
    q = np.linalg.lstsq(np.vstack(rows), np.concatenate(rhs), rcond=None)[0]
    mb.set_generalized_velocity(q.tolist())
    for i, jac in enumerate(jacobians):  # the bodies read as they will move (Rapier writes them at the step)
        rb = bodies[mb.get_link(i).rigid_body]
        if rb.is_dynamic:
            _set_body_velocity(rb, jac @ q)


def set_link_velocity(rw: Any, handle: Any, body: Any, angular: bool) -> None:
    """Make link ``body`` (child of multibody joint ``handle``) move with the linear or ``angular`` velocity
    its rigid body was just given, as nearly as its joint allows: its coordinate rates solve
    J_link·q̇ = v − J_rest·q̇_rest (least squares) over the rows of the part that was set, J the link's body
    Jacobian (linear at the centre of mass, then angular)."""
    mb, link_id = rw.multibody_joints.get(handle)
    link = mb.get_link(link_id)
    rb = rw.bodies[body]
    qdot = np.asarray(mb.generalized_velocity(), dtype=np.float64)
    jac = _jacobian(mb, link_id, len(qdot))
    cols = slice(link.assembly_id, link.assembly_id + link.ndofs)
    rows = slice(3, 6) if angular else slice(0, 3)
    target = np.array((rb.angvel if angular else rb.linvel).to_tuple())
    rest = qdot.copy()
    rest[cols] = 0.0
    qdot[cols] = np.linalg.lstsq(jac[rows, cols], target - jac[rows] @ rest, rcond=None)[0]
    mb.set_generalized_velocity(qdot.tolist())


def _jacobian(mb: Any, link_id: int, ndofs: int) -> np.ndarray:
    return np.asarray(mb.body_jacobian(link_id), dtype=np.float64).reshape(6, ndofs)


def _metric_root(rb: Any) -> np.ndarray:
    """W with WᵀW the body's kinetic-energy metric: diag(√m) on the linear rows, I_world^½ on the angular."""
    props = rb.mass_properties
    frame = np.asarray((rb.rotation * props.principal_inertia_local_frame).to_matrix(), dtype=np.float64)
    frame = frame.reshape(3, 3)  # row-major
    principal = np.sqrt(np.maximum(np.asarray(props.principal_inertia.to_tuple(), dtype=np.float64), 0.0))
    w = np.zeros((6, 6))
    w[:3, :3] = np.eye(3) * np.sqrt(max(rb.mass, 0.0))
    w[3:, 3:] = frame @ np.diag(principal) @ frame.T
    return w


def _set_body_velocity(rb: Any, v: np.ndarray) -> None:
    rb.linvel = tuple(float(x) for x in v[:3])
    rb.angvel = tuple(float(x) for x in v[3:])
