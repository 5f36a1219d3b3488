"""The mass of a body made of URDF links: a link and every link fixed to it (MuJoCo's ``fusestatic`` and
PyBullet's merged fixed links compile them into one body).

The URDF specification reads a link without ``<inertial>`` (or with mass 0) as having no mass of its own; the
body's mass, centre of mass and inertia are then those of the links that carry mass, summed about their common
centre of mass (the parallel-axis theorem).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np


def link_inertia(link: Any, frame: np.ndarray) -> tuple[float, np.ndarray, np.ndarray] | None:
    """(mass, centre of mass, inertia tensor about that centre) of ``link``'s ``<inertial>`` in the axes of
    ``frame`` (the link's frame in the body's, 4×4); ``None`` for a link without mass."""
    inertial = link.inertial
    if inertial is None or not inertial.mass:
        return None
    origin = frame @ (np.eye(4) if inertial.origin is None else np.asarray(inertial.origin, dtype=float))
    tensor = np.asarray(inertial.inertia if inertial.inertia is not None else np.zeros((3, 3)), dtype=float)
    return float(inertial.mass), origin[:3, 3].copy(), origin[:3, :3] @ tensor @ origin[:3, :3].T


Part = tuple[float, np.ndarray, np.ndarray]  # mass, centre of mass, inertia tensor about it


def combined(parts: Iterable[Part | None]) -> Part | None:
    """The mass, centre of mass and inertia tensor (about that centre) of rigidly joined parts; ``None`` when
    no part has mass (a part of ``None`` has none). One part is returned as it is (no rounding from dividing
    its mass out again)."""
    items = [p for p in parts if p is not None and p[0] > 0]
    if not items:
        return None
    if len(items) == 1:
        return items[0]
    mass = sum(m for m, _, _ in items)
    com = sum(m * c for m, c, _ in items) / mass
    tensor = np.zeros((3, 3))
    for m, c, inertia in items:
        d = c - com
        tensor += inertia + m * (float(d @ d) * np.eye(3) - np.outer(d, d))
    return float(mass), com, tensor
