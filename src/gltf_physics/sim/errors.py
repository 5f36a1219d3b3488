"""The runtime's one error type."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..gltf.errors import GltfError

# Python's own words for a failed number conversion, e.g. "could not convert string to float: 'heavy'".
_NOT_A_NUMBER = re.compile(r"could not convert string to float: (.*)|(?:float|int)\(\) argument must be .*")


class SimulationError(Exception):
    """The simulation cannot go on or cannot do what was asked; ``node`` names the node at fault, if any.

    Raised for a non-finite body state (docs/semantics.md: never written out as NaN), an
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


_PASS_THROUGH = (KeyboardInterrupt, SystemExit, GeneratorExit, MemoryError, SimulationError)


@contextmanager
def engine_failures(time: float | None = None) -> Iterator[None]:
    """Turn whatever an engine raises into a ``SimulationError``: one line, the cause chained.

    Engines written in Rust panic with ``pyo3_runtime.PanicException``, which derives from
    ``BaseException`` and so slips past ``except Exception``; their own errors (Rapier's
    ``MeshConversionError``…) are ordinary exceptions. ``sim/preflight.py`` refuses the inputs known to cause
    them; this is the net under it, wrapped around building and stepping only.
    """
    try:
        yield
    except _PASS_THROUGH:
        raise
    except BaseException as exc:  # PanicException is a BaseException (see above)
        if isinstance(exc, GltfError):
            raise
        when = "" if time is None else f" at t = {time:.6g} s"
        raise SimulationError(f"the physics engine failed{when}: {type(exc).__name__}: "
                              f"{first_line(str(exc))}") from exc


def first_line(text: str, limit: int = 200) -> str:
    """The first line of ``text``, cut to ``limit`` characters (error lines stay one short line)."""
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"


def motion_number(value: Any, field: str, node: int) -> float:
    """A run-time ``gravity_factor`` (finite, within ``MAX_SPEED`` in size) or ``mass`` (a number ≥ 0; infinite
    means immovable, D-5) as a float, or a SimulationError naming ``field`` and ``node``: the one check in front
    of both engines' motion setters (MuJoCo ran a NaN gravity factor as if never set)."""
    from ..geometry.limits import MAX_SPEED

    try:
        v = float(value)
    except (TypeError, ValueError):  # the words World.set gives any value that is not a number
        raise SimulationError(f"expected a number, not {json.dumps(value, ensure_ascii=False, default=repr)}",
                              node=node) from None
    if field == "mass":
        if math.isnan(v) or v < 0:
            raise SimulationError(f"mass needs a number ≥ 0, got {value!r}", node=node)
    elif not math.isfinite(v) or abs(v) > MAX_SPEED:
        raise SimulationError(f"{field} needs a finite number within ±{MAX_SPEED:g}, got {value!r}", node=node)
    return v


def finite_vec3(value: Any, field: str, node: int) -> tuple[float, float, float]:
    """``value`` as 3 finite floats within :data:`~gltf_physics.geometry.limits.MAX_SPEED`, or a
    SimulationError naming ``field`` and ``node`` (a velocity set at run time, whatever the engine: the one
    check in front of both engines' velocity setters)."""
    from ..geometry.limits import MAX_SPEED

    try:
        v = tuple(float(x) for x in value)
    except (TypeError, ValueError):
        v = ()
    if len(v) != 3 or not all(math.isfinite(x) for x in v):
        raise SimulationError(f"{field} needs 3 finite numbers, got {value!r}", node=node)
    if max(abs(x) for x in v) > MAX_SPEED:
        raise SimulationError(f"{field} {list(v)} exceeds {MAX_SPEED:g}, beyond what the engines can take",
                              node=node)
    return v  # type: ignore[return-value]
