"""From the model's body data to Rapier's: mass properties, locked axes, body frames and solver iterations."""

from __future__ import annotations

import math

import numpy as np
import rapier3d as rp

from ...geometry.frames import body_frame
from ...geometry.mass import MassProperties

SOLVER_SUBSTEP_HZ = 240.0  # Rapier's internal solver substep rate at 60 Hz with its default 4 iterations
_EYE3 = np.eye(3)


def solver_iterations(frequency: float) -> int:
    """Rapier solver substeps per step keeping its internal substep at 1/240 s (the 60 Hz default).

    The fidelity case: a 2 m compound body dropped flat from y = 5 onto a box stood at 60 Hz and
    toppled at 120 Hz. Raw rapier3d does the same: the landing is solved by sequential impulses, the four
    contact points of the flat face got 2,165 / 11,251 / 3,516 / 3,111 N·s at 120 Hz (substep 1/480 s), an
    overshoot that bounced the body 1.7 m/s at restitution 0 and spun it over. Neither filters, hooks nor the
    mass frame take part (the same happens without them). With the solver substep held at 1/240 s it stands
    at 60, 120 and 240 Hz; an uneven impact from greater heights remains Rapier's (it tips raw Rapier at
    60 Hz too).
    """
    return max(1, round(SOLVER_SUBSTEP_HZ / frequency))


def body_frames(world: list[np.ndarray], nodes: list[int]) -> tuple[list[np.ndarray], list[bool]]:
    """``body_frame`` of each node's world matrix, and whether it is plain: a matrix with no rotation or
    scale is its own frame (checked for all nodes at once), so only rotated or scaled nodes pay for a
    decomposition."""
    if not nodes:
        return [], []
    stack = np.stack([world[n] for n in nodes])
    plain = (np.all(stack[:, :3, :3] == _EYE3, axis=(1, 2))
             & np.all(stack[:, 3] == (0.0, 0.0, 0.0, 1.0), axis=1)).tolist()
    return [stack[i] if ok else body_frame(stack[i]) for i, ok in enumerate(plain)], plain


def rapier_mass(mp: MassProperties) -> rp.MassProperties:
    """Rapier treats a zero mass / principal inertia as infinite (its inverse is 0)."""
    mass = 0.0 if math.isinf(mp.mass) else mp.mass
    inertia = tuple(0.0 if math.isinf(v) else v for v in mp.inertia_diagonal)
    return rp.MassProperties(mp.center_of_mass, mass, inertia, mp.inertia_orientation)


def locked_axes(mp: MassProperties) -> rp.LockedAxes | None:
    """The axes an infinite mass or an all-infinite (or all-zero) inertia locks; ``None`` when none."""
    locks = rp.LockedAxes.empty()
    if math.isinf(mp.mass):
        locks = locks | rp.LockedAxes.TRANSLATION_LOCKED
    if all(math.isinf(v) or v == 0 for v in mp.inertia_diagonal):
        locks = locks | rp.LockedAxes.ROTATION_LOCKED
    return None if locks.is_empty() else locks
