"""What a behaviour graph asks of the running physics, engine-agnostic (docs/behaviour.md).

The KHR physics specification's nodes for KHR_interactivity (``rigid_body/applyImpulse``,
``rigid_body/applyPointImpulse``, ``rigid_body/rayCast``, ``event/rigid_body_trigger*``) need four primitives of
every engine: an impulse at the centre of mass, an impulse at a world point, the closest ray-segment hit and
per-collider trigger events. This module holds their engine-free parts: the hit record, the argument checks, the
collision-filter rule a ray obeys, and the per-collider trigger log.

A ray with ``collisionFilterIndex`` *f* (≥ 0) behaves as a collider with filter *f* would: it hits a collider
only where the two filters interact (``sim/filters.py``, D-7). A negative index (the node's default −1) is no
filter: every solid collider. Triggers are never hit (the node intersects "colliders").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..model import CollisionFilter
from .errors import SimulationError
from .filters import collide
from .triggers import OverlapCounter


@dataclass(frozen=True)
class RayHit:
    """The closest hit of a ray segment: the collider's ``node``, the world ``point``, the world unit ``normal``
    (pointing out of the hit shape) and ``fraction`` along the segment (0 at its start, 1 at its end)."""

    node: int
    point: tuple[float, float, float]
    normal: tuple[float, float, float]
    fraction: float


def vec3(value: Any, what: str, node: int | None = None) -> tuple[float, float, float]:
    """``value`` as 3 finite floats, or a SimulationError naming ``what``."""
    try:
        v = tuple(float(x) for x in value)
    except (TypeError, ValueError):
        v = ()
    if len(v) != 3 or not all(math.isfinite(x) for x in v):
        raise SimulationError(f"{what} needs 3 finite numbers, got {value!r}", node=node)
    return v  # type: ignore[return-value]


def ray_filter(filters: list[CollisionFilter], index: int | None) -> CollisionFilter | None:
    """The filter a ray casts with: ``None`` for no filter (``index`` None or negative).

    Raises SimulationError for an index past the document's collision filters.
    """
    if index is None or index < 0:
        return None
    if index >= len(filters):
        raise SimulationError(f"collisionFilterIndex {index} names no collision filter "
                              f"(the file has {len(filters)})")
    return filters[index]


def ray_allows(ray: CollisionFilter | None, filters: list[CollisionFilter], key: int | None) -> bool:
    """Does a ray with filter ``ray`` see a collider whose filter is ``filters[key]`` (``key`` None: none)?"""
    if ray is None:
        return True
    other = filters[key] if key is not None and 0 <= key < len(filters) else None
    return collide(ray, other)


class ColliderTriggerLog(OverlapCounter):
    """Trigger events per (trigger node, collider node), as the KHR graph events define them.

    ``events`` holds ``{"time", "event": "enter"|"exit", "trigger", "collider", "motion"}`` (``motion`` the node of
    the collider's motion, −1 when it has none). A collider touching a trigger through several shape pairs (a
    compound trigger's members) enters on the first and exits with the last. The World's own body-level events
    (``TriggerTracker``) are kept apart and unchanged.
    """

    def update(self, time: float, trigger: int, collider: int, motion: int, started: bool) -> None:
        """Count one shape pair starting (``started``) or stopping to overlap."""
        self._count(time, (trigger, collider), started, {"trigger": trigger, "collider": collider, "motion": motion})


class BodyQueries:
    """The behaviour-graph calls of an engine's world (``sim/engine.py``), each handed to its engine's queries
    module, which ``_queries()`` gives (``sim/rapier/queries.py``, ``sim/mujoco/queries.py``): the wrappers
    written once for both engines."""

    def _queries(self) -> Any:
        raise NotImplementedError

    def apply_impulse(self, node: int, linear: Any, angular: Any = (0.0, 0.0, 0.0)) -> None:
        """World linear and angular impulses on a dynamic body node, now."""
        self._queries().apply_impulse(self, node, linear, angular)

    def apply_point_impulse(self, node: int, impulse: Any, point: Any) -> None:
        """A world impulse at a world point on a dynamic body node, now."""
        self._queries().apply_point_impulse(self, node, impulse, point)

    def ray_cast(self, start: Any, end: Any, filter_index: int | None = None) -> RayHit | None:
        """The closest solid collider on the world segment ``start``→``end``, or None."""
        return self._queries().ray_cast(self, start, end, filter_index)

    def velocities(self, node: int) -> tuple[Any, Any]:
        """World linear and angular velocity of a body node now."""
        return self._queries().velocities(self, node)
