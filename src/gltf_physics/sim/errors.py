"""The runtime's one error type."""

from __future__ import annotations

import json
import re

# Python's own words for a failed number conversion, e.g. "could not convert string to float: 'heavy'".
_NOT_A_NUMBER = re.compile(r"could not convert string to float: (.*)|(?:float|int)\(\) argument must be .*")


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
        # A message that already starts with the pointer (the resolver names it) is not prefixed again.
        where = [self.pointer] if self.pointer and not self.message.startswith(self.pointer) else []
        return ": ".join([*where, self.message])


def value_reason(exc: Exception, value: object) -> str:
    """A user's words for why ``value`` could not be applied: never Python's conversion text or a bare key repr."""
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    if _NOT_A_NUMBER.fullmatch(text):
        return f"expected a number, not {json.dumps(value, ensure_ascii=False)}"
    return text
