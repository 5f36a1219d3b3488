"""One call for the common case: the options of ``gltf-physics add`` as keyword arguments."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal

from ..gltf.document import Document
from .builder import AddResult, Builder
from .conventions import Which
from .decompose import Settings


def add_physics(doc: Document, *, to: Literal["khr", "omi"] = "khr",
                bodies: Iterable[tuple[str, str | None]] = (), colliders: Iterable[tuple[str, str | None]] = (),
                mass: float | None = None, density: float | None = None,
                friction: tuple[float, float] | None = None, restitution: float | None = None,
                conventions: Which = "auto", joints: Iterable[tuple[str, str, str] | tuple[str, str, str, str]] = (),
                decomposition: Settings | None = None, progress: Callable[[str], None] | None = None,
                ground: bool = False) -> AddResult:
    """``doc`` with bodies and colliders added, in the newest ``to`` form, and the fit report.

    ``bodies``: (kind, selector or None) pairs; ``colliders``: (shape, selector or None) pairs; with neither,
    every root node with a mesh below it becomes a dynamic body with ``auto`` colliders (unless the node names
    follow a convention); colliders without bodies make each root holding one a body (the table in
    docs/tutorials/add-physics.md). ``ground``: a static ground under the model. ``joints``: (node A, node B,
    kind[, axis]). ``mass`` (kg, each new body) or ``density`` (kg/m³ over the colliders' volume).
    ``progress``: called with a line before each step that can take long (a decomposition).

    Example:
        >>> result = add_physics(gp.load("Duck.gltf"), colliders=[("hull", None)])
        >>> result.colliders[0].shape, round(result.colliders[0].fitness.volume_ratio, 3)
        ('convex', 1.0)
    """
    b = Builder(doc, decomposition=decomposition, conventions=conventions, progress=progress)
    for kind, selector in bodies:
        b.body(selector, kind, mass)
    if mass is not None and not bodies:
        b.body(None, "dynamic", mass)
    for shape, selector in colliders:
        b.collider(selector, shape)
    if friction is not None or restitution is not None:
        s, d = friction or (0.6, 0.6)
        b.material(s, d, restitution or 0.0)
    if density is not None:
        b.density(density)
    for a, c, kind, *axis in joints:
        b.joint(a, c, kind, *axis)
    if ground:
        b.ground()
    return b.build(to)
