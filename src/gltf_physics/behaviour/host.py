"""What a running graph needs from the world around it: the Object Model, logging, animations and physics.

``Host`` is a protocol; :class:`BaseHost` gives every optional call a body that refuses it with a GraphError, so a
host implements only what it supports (the document host, ``doc_host.py``, has no physics; the physics host adds
the ``rigid_body/*`` calls).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .errors import GraphError


@dataclass(frozen=True)
class RayHit:
    """The closest hit of a ray cast: the glTF node hit, the fraction of start→end, the point and the normal."""

    node: int
    fraction: float
    point: tuple[float, float, float]
    normal: tuple[float, float, float]


class Host(Protocol):
    """The calls a :class:`~gltf_physics.behaviour.run.GraphRunner` makes into its environment."""

    def get_pointer(self, pointer: str) -> Any:
        """The value at an Object Model pointer (raises GraphError when it cannot be read)."""

    def set_pointer(self, pointer: str, value: Any) -> None:
        """Write an Object Model pointer (raises GraphError when it is read-only or unknown)."""

    def pointer_type(self, pointer: str) -> str | None:
        """The Object Model type of ``pointer`` (``float3``…), or None when the host does not support it."""

    def log(self, message: str) -> None:
        """A ``debug/log`` line."""

    def animation_duration(self, animation: int) -> float:
        """The animation's length T (its samplers' largest input time); GraphError when it does not exist."""

    def apply_animation(self, animation: int, time: float) -> None:
        """Set every property ``animation`` targets to its value at effective time ``time`` (in [0, T])."""

    def start_animation(self, animation: int, start: float, end: float, speed: float) -> None:
        """The graph started ``animation`` (from ``start`` to ``end`` seconds at ``speed``); the runner times it."""

    def stop_animation(self, animation: int) -> None:
        """The graph stopped ``animation`` where it is."""

    def stop_animation_at(self, animation: int, time: float) -> None:
        """The graph will stop ``animation`` when it reaches ``time``."""

    def apply_impulse(self, node: int, impulse: tuple[float, float, float]) -> None:
        """Apply a world-space linear impulse at the centre of mass of the body on ``node``."""

    def apply_point_impulse(self, node: int, impulse: tuple[float, float, float],
                            point: tuple[float, float, float]) -> None:
        """Apply a world-space impulse at a world-space point of the body on ``node``."""

    def ray_cast(self, start: tuple[float, float, float], end: tuple[float, float, float],
                 filter_index: int) -> RayHit | None:
        """The closest hit between ``start`` and ``end`` honouring collision filter ``filter_index`` (-1: none)."""


def _unsupported(what: str) -> GraphError:
    return GraphError(f"{what} is not supported by this host")


class BaseHost:
    """Default bodies for every Host call: the Object Model ones and physics refuse, logs are kept in ``lines``."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def get_pointer(self, pointer: str) -> Any:
        """Refuses: no Object Model."""
        raise _unsupported(f"reading {pointer}")

    def set_pointer(self, pointer: str, value: Any) -> None:
        """Refuses: no Object Model."""
        raise _unsupported(f"writing {pointer}")

    def pointer_type(self, pointer: str) -> str | None:
        """No pointer is supported."""
        return None

    def log(self, message: str) -> None:
        """Keeps the line."""
        self.lines.append(message)

    def animation_duration(self, animation: int) -> float:
        """Refuses: no animations (animation/start takes its err flow)."""
        raise _unsupported(f"animation {animation}")

    def apply_animation(self, animation: int, time: float) -> None:
        """Refuses: no animations."""
        raise _unsupported(f"animation {animation}")

    def start_animation(self, animation: int, start: float, end: float, speed: float) -> None:
        """Nothing to do: the runner times the animation."""

    def stop_animation(self, animation: int) -> None:
        """Nothing to do."""

    def stop_animation_at(self, animation: int, time: float) -> None:
        """Nothing to do."""

    def apply_impulse(self, node: int, impulse: tuple[float, float, float]) -> None:
        """Refuses: no physics."""
        raise _unsupported("rigid_body/applyImpulse")

    def apply_point_impulse(self, node: int, impulse: tuple[float, float, float],
                            point: tuple[float, float, float]) -> None:
        """Refuses: no physics."""
        raise _unsupported("rigid_body/applyPointImpulse")

    def ray_cast(self, start: tuple[float, float, float], end: tuple[float, float, float],
                 filter_index: int) -> RayHit | None:
        """Refuses: no physics."""
        raise _unsupported("rigid_body/rayCast")
