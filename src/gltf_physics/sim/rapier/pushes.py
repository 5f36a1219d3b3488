"""A user's push (the live viewer's grab): a world force at a world point on a dynamic body for one step.

Rapier keeps user forces across steps and the controllers (thrusters, wheels) set their own, so a push is added
before each engine step of the step it was asked for and the body's own forces are put back after it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import rapier3d as rp

from ..errors import SimulationError

Held = list[tuple[rp.RigidBody, Any, Any]]  # (body, its own user force, its own user torque)


class Pushes:
    """The pending pushes of one Rapier world (node → (force, world point)), kept for one step."""

    def __init__(self, rw: Any) -> None:
        """``rw``: the RapierWorld (sim/rapier/world.py, which imports this module: not imported back)."""
        self.rw = rw
        self.pending: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def add(self, node: int, force: Any, point: Any) -> None:
        """A world force (N) at a world point on a dynamic body for the next step only."""
        handle = self.rw.handle_of.get(node)
        if handle is None or not self.rw.world.rigid_bodies[handle].is_dynamic:
            raise SimulationError(f"node {node} is not a dynamic body", node=node)
        f, p = np.asarray(force, dtype=float).reshape(3), np.asarray(point, dtype=float).reshape(3)
        if not (np.all(np.isfinite(f)) and np.all(np.isfinite(p))):
            raise SimulationError("a push needs a finite force and point", node=node)
        self.pending[node] = (f, p)

    def apply(self) -> Held:
        """Add the pending pushes as user forces for one engine step; returns what to put back after it."""
        held: Held = []
        for node, (f, p) in self.pending.items():
            b = self.rw.world.rigid_bodies[self.rw.handle_of[node]]
            held.append((b, b.user_force, b.user_torque))
            b.add_force_at_point(rp.Vec3(*f.tolist()), rp.Vec3(*p.tolist()), True)
        if held:
            self.rw._stale = True  # the next pose read reads every body
        return held

    @staticmethod
    def undo(held: Held) -> None:
        """Put each pushed body's own forces back (after the engine step)."""
        for b, force, torque in held:
            b.reset_forces(False)
            b.reset_torques(False)
            b.add_force(force, False)
            b.add_torque(torque, False)
