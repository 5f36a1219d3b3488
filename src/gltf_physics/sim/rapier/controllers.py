"""The per-step controllers beside the joint driver: gravity volumes, thrusters, vehicles (docs/semantics.md).

``build_controllers(rw, scene)`` returns the controllers a scene needs (none for a scene without gravity
volumes or vehicles, so such scenes step exactly as before); ``RapierWorld.step`` calls each one's
``before_step(dt)`` before every engine step.

Controllers push continuous forces through one :class:`Forces` hub: Rapier keeps a body's user force until
it is reset, and integrates it like its own gravity (per solver substep, after the step's mass update), so a
force is the exact way to add an acceleration — an impulse is applied once, before the substeps (a larger
discretisation bias), and is lost before the first step (Rapier's inverse mass is computed by a step). The
hub clears last step's individual forces (:meth:`Forces.add`: thrusters, vehicle bodies) before the
controllers add this step's, in this order: gravity, then vehicles (thrusters, wheels: the ray-cast controller
reads the velocities). Bulk forces (:meth:`Forces.add_many`: gravity volumes, one force per body on many
bodies) are sent only where they changed, since the force Rapier keeps is then bit for bit the one a reset
and re-add would leave; an unchanged non-zero force still wakes its body, as ``add_force`` would.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import rapier3d as rp

from ...model.scene import PhysicsScene


class Forces:
    """Per-step force accumulator over Rapier's persistent user forces.

    ``fresh`` is True during a step whose world is new (the first step, or the first after a restore): what
    was sent before is unknown then, so every force is sent again.
    """

    def __init__(self, rw: Any) -> None:
        self.rw = rw
        self.touched: set[rp.RigidBodyHandle] = set()  # bodies given individual forces last step
        self.turned: set[rp.RigidBodyHandle] = set()  # bodies given a torque (or an off-centre force)
        self.controllers: list[Any] = []
        self.fresh = True
        self._world: Any = None  # the world the bookkeeping below is about (kept alive: identity, not id())
        self._sent = np.full((len(rw._pose_handles), 3), np.nan)  # bulk force per pose row in Rapier (NaN: none)
        self._bulk_rows = np.zeros(0, dtype=np.intp)  # pose rows given a bulk force last step

    def add(self, handle: rp.RigidBodyHandle, force: Any, point: Any = None, torque: Any = None) -> None:
        """Add a world force (at a world point, else at the centre of mass) and/or torque for this step."""
        b = self.rw.bodies[handle]
        if force is not None:
            f = rp.Vec3(*(float(x) for x in force))
            if point is None:
                b.add_force(f, True)
            else:
                b.add_force_at_point(f, rp.Vec3(*(float(x) for x in point)), True)
                self.turned.add(handle)
        if torque is not None:
            b.add_torque(rp.Vec3(*(float(x) for x in torque)), True)
            self.turned.add(handle)
        self.touched.add(handle)

    def add_many(self, rows: np.ndarray, forces: np.ndarray) -> None:
        """This step's world forces (N, 3) at the centres of mass of the bodies at pose ``rows`` (ascending),
        one call per step (computed in bulk). Replaces the previous call's: bodies left out lose theirs."""
        objects, sent = self.rw.body_objects(), self._sent
        left = np.setdiff1d(self._bulk_rows, rows, assume_unique=True)
        for r in left.tolist():
            objects[r].reset_forces(False)
        sent[left] = np.nan
        # Bitwise comparison: equal float64 bits give an equal float32 force in Rapier (and keep -0.0 apart).
        changed = np.any(forces.view(np.int64) != sent[rows].view(np.int64), axis=1)
        for r, f in zip(rows[changed].tolist(), forces[changed].tolist(), strict=True):
            b = objects[r]
            b.reset_forces(False)
            b.add_force(f, True)
        # add_force wakes a body unless its float32 force is zero; an unchanged force must wake it likewise.
        wake = ~changed & np.any(forces.astype(np.float32) != 0.0, axis=1)
        for r in rows[wake].tolist():
            objects[r].wake_up(True)
        sent[rows] = forces
        self._bulk_rows = rows

    def state(self) -> tuple[Any, ...]:
        """Every controller's own state (holds, ramps, pointer-set settings) for a world snapshot."""
        return tuple(c.state() for c in self.controllers)

    def restore(self, state: tuple[Any, ...]) -> None:
        """Back to a :meth:`state`; the forces are sent again from zero at the next step (``fresh``)."""
        for c, st in zip(self.controllers, state, strict=True):
            c.restore(st)

    def before_step(self, dt: float) -> None:
        """Clear last step's individual forces, then run every controller for the coming engine step."""
        rw = self.rw
        world = rw.world
        self.fresh = world is not self._world
        if self.fresh:
            self._new_world(world)
        bodies, row_of, sent = rw.bodies, rw._row_of, self._sent
        for handle in self.touched:
            b = bodies.get(handle)
            if b is not None:
                b.reset_forces(False)
                if handle in self.turned:
                    b.reset_torques(False)
            row = row_of.get(handle)
            if row is not None:
                sent[row] = np.nan  # its bulk force went with the reset
        self.touched.clear()
        self.turned.clear()
        for c in self.controllers:
            c.before_step(dt)

    def _new_world(self, world: Any) -> None:
        """A restored world carries the user forces of its snapshot: clear them all, so this step's controllers
        set every force from zero, exactly as in the run the snapshot came from."""
        restored = self._world is not None
        self._world = world
        if restored:
            for b in self.rw.body_objects():
                b.reset_forces(False)
                b.reset_torques(False)
        self._sent[:] = np.nan
        self._bulk_rows = np.zeros(0, dtype=np.intp)


def build_controllers(rw: Any, scene: PhysicsScene) -> list[Any]:
    """The controllers ``scene`` needs, under one :class:`Forces` hub (empty: nothing runs per step)."""
    hub = Forces(rw)
    if scene.gravity_fields:
        from .gravity import GravityVolumes

        hub.controllers.append(GravityVolumes(rw, scene, hub))
    if scene.vehicles or scene.wheels or scene.thrusters or scene.hover_thrusters:
        from .vehicles import VehicleDriver

        hub.controllers.append(VehicleDriver(rw, scene, hub))
    return [hub] if hub.controllers else []


def controller_of(rw: Any, kind: type) -> Any:
    """The controller of class ``kind`` in ``rw`` (None when the scene has none)."""
    for hub in getattr(rw, "controllers", []):
        for c in hub.controllers:
            if isinstance(c, kind):
                return c
    return None


def set_controlled(rw: Any, kind: str, index: int, name: str, value: Any) -> None:
    """``RapierWorld.set_controlled``: a runtime pointer of a controlled part (a ``sim.engine.CONTROLLED`` kind)."""
    if kind == "gravity":
        from .gravity import GravityVolumes

        target: Any = controller_of(rw, GravityVolumes)
        if target is None:
            raise ValueError("the scene has no gravity volume")
        target.set_field(index, name, value)
        return
    from .vehicles import VehicleDriver

    driver = controller_of(rw, VehicleDriver)
    if driver is None:
        raise ValueError("the scene has no vehicle, wheel or thruster")
    driver.set(kind, index, name, value)

