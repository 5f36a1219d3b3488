"""Seat frames (OMI_seat, the spec): where a pilot sits, for ``World.seat_frame``. No forces (none specified).

forward = normalize(knee − back); right = normalize((foot − knee) × (knee − back)); spine = forward turned by
``angle`` about right (π/2 by default: straight up from the seat). Points are the seat's node-local back,
knee and foot through the node's current world matrix.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..model.gravity import Seat


def seat_frame(seat: Seat, node_matrix: np.ndarray) -> dict[str, Any]:
    """World ``back``, ``knee``, ``foot`` points and unit ``forward``, ``right``, ``spine`` axes (tuples)."""
    m = np.asarray(node_matrix, dtype=np.float64)
    back, knee, foot = (m[:3, :3] @ np.asarray(p, dtype=np.float64) + m[:3, 3]
                        for p in (seat.back, seat.knee, seat.foot))
    forward = _unit(knee - back)
    right = _unit(np.cross(foot - knee, knee - back))  # SEAT-2: collinear points give a zero axis
    c, s = math.cos(seat.angle), math.sin(seat.angle)
    spine = forward * c + np.cross(right, forward) * s + right * float(right @ forward) * (1 - c)
    return {"back": _t(back), "knee": _t(knee), "foot": _t(foot),
            "forward": _t(forward), "right": _t(right), "spine": _t(spine)}


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-12 else np.zeros(3)


def _t(v: np.ndarray) -> tuple[float, float, float]:
    return (float(v[0]), float(v[1]), float(v[2]))
