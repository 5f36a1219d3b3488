"""The runtime's one error type."""

from __future__ import annotations


class SimulationError(Exception):
    """The simulation cannot go on or cannot do what was asked; ``node`` names the node at fault, if any.

    Raised for a non-finite body state (DESIGN §3 "Numerical failure": never written out as NaN), an
    unsupported ``set`` pointer, or a value of the wrong shape.
    """

    def __init__(self, message: str, *, node: int | None = None, pointer: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.node = node
        self.pointer = pointer

    def __str__(self) -> str:
        where = [self.pointer] if self.pointer else []
        return ": ".join([*where, self.message])
