"""The emitter every structural checker reports through (its own module: the registry names it in its
``Family.check`` signature, and the checkers' shared helpers import the registry's extension names)."""

from __future__ import annotations

from typing import Protocol


class Emit(Protocol):
    """``emit(code, pointer, message, severity=None)`` records one issue (``None``: the rule's own severity)."""

    def __call__(self, code: str, pointer: str, message: str, severity: int | None = None) -> None: ...
