"""The one error a behaviour graph raises: a message and the JSON pointer of the node (or value) at fault."""

from __future__ import annotations


class GraphError(Exception):
    """A graph cannot be read, checked or run: ``message`` is one line, ``pointer`` names the node or value
    (``/extensions/KHR_interactivity/graphs/G/nodes/N/...``; empty when it concerns the whole extension)."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pointer = pointer

    def __str__(self) -> str:
        return f"{self.pointer}: {self.message}" if self.pointer else self.message
