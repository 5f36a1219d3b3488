"""The per-step controllers beside the joint driver: gravity volumes, thrusters, vehicles (DIGEST §11).

``build_controllers(rw, scene)`` returns the controllers a scene needs (none for a scene without gravity
volumes or vehicles, so such scenes step exactly as before); ``RapierWorld.step`` calls each one's
``before_step(dt)`` before every engine step.

Controllers push continuous forces through one :class:`Forces` hub: Rapier keeps a body's user force until
it is reset, and integrates it like its own gravity (per solver substep, after the step's mass update), so a
force is the exact way to add an acceleration — an impulse is applied once, before the substeps (a larger
discretisation bias), and is lost before the first step (Rapier's inverse mass is computed by a step). The
hub clears last step's forces on the bodies it touched before the controllers add this step's, in this
order: gravity, then vehicles (thrusters, wheels: the ray-cast controller reads the velocities).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import rapier3d as rp

from ...model.scene import PhysicsScene


class Forces:
    """Per-step force accumulator over Rapier's persistent user forces."""

    def __init__(self, rw: Any) -> None:
        self.rw = rw
        self.touched: set[rp.RigidBodyHandle] = set()
        self.turned: set[rp.RigidBodyHandle] = set()  # bodies given a torque (or an off-centre force)
        self.controllers: list[Any] = []

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

    def add_many(self, handles: list[rp.RigidBodyHandle], forces: np.ndarray) -> None:
        """World forces (N, 3) at the centres of mass, one per body, for this step (computed in bulk)."""
        bodies = self.rw.bodies
        for h, f in zip(handles, forces.tolist(), strict=True):
            bodies[h].add_force(f, True)
        self.touched.update(handles)

    def before_step(self, dt: float) -> None:
        bodies = self.rw.bodies
        for handle in self.touched:
            b = bodies.get(handle)
            if b is not None:
                b.reset_forces(False)
                if handle in self.turned:
                    b.reset_torques(False)
        self.touched.clear()
        self.turned.clear()
        for c in self.controllers:
            c.before_step(dt)


def build_controllers(rw: Any, scene: PhysicsScene) -> list[Any]:
    hub = Forces(rw)
    if scene.gravity_fields:
        from .gravity import GravityVolumes

        hub.controllers.append(GravityVolumes(rw, scene, hub))
    if scene.vehicles or scene.wheels or scene.thrusters or scene.hover_thrusters:
        try:
            from .vehicles import VehicleDriver
        except ImportError:  # pragma: no cover - only while vehicles.py is being written
            VehicleDriver = None
        if VehicleDriver is not None:
            hub.controllers.append(VehicleDriver(rw, scene, hub))
    return [hub] if hub.controllers else []


def controller_of(rw: Any, kind: type) -> Any:
    """The controller of class ``kind`` in ``rw`` (None when the scene has none)."""
    for hub in getattr(rw, "controllers", []):
        for c in hub.controllers:
            if isinstance(c, kind):
                return c
    return None


CONTROLLED = ("vehicle", "wheel", "thruster", "hover", "gravity")


def set_controlled(rw: Any, kind: str, index: int, name: str, value: Any) -> None:
    """Apply a runtime pointer of a controlled part (``dialects.pointers`` kinds in ``CONTROLLED``)."""
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


def node_matrix(rw: Any, node: int) -> Any:
    """Current world matrix (4×4) of any node: moved with its nearest body, else as in the file."""
    import numpy as np

    from ...gltf.transforms import quat_to_matrix
    from ...model.mass import body_frame
    from .thrusters import nearest_body

    body = nearest_body(rw, node)
    if body is None:
        return rw._world_m[node]
    t, q = rw.pose(body)
    now = np.eye(4)
    now[:3, :3] = quat_to_matrix(q)
    now[:3, 3] = t
    return now @ np.linalg.inv(body_frame(rw._world_m[body])) @ rw._world_m[node]
