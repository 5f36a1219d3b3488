"""Friction and restitution of a contact pair, as the specs combine them (docs/semantics.md, D-12).

The one statement of the rule: the runtime's contact hooks and the writers' choice of explicit modes both use it.

Friction and restitution combine separately. Precedence: either side ``average`` ⇒ mean; else either
``minimum`` ⇒ min; else either ``maximum`` ⇒ max; else ``multiply`` ⇒ product. A side without a mode does not
vote; when neither side gives one, ``average`` (D-12). A collider without a material uses the default
(0.6, 0.6, 0.0, no mode; docs/semantics.md).
"""

from __future__ import annotations

from .bodies import CombineMode, PhysicsMaterial

DEFAULT_MATERIAL = PhysicsMaterial()
PRECEDENCE = (CombineMode.AVERAGE, CombineMode.MINIMUM, CombineMode.MAXIMUM, CombineMode.MULTIPLY)


def combine_mode(a: CombineMode | None, b: CombineMode | None) -> CombineMode:
    """The mode a contact uses (D-12: a side without a mode does not vote; average when neither gives one)."""
    for mode in PRECEDENCE:
        if mode in (a, b):
            return mode
    return CombineMode.AVERAGE  # D-12: neither side votes


def combine(mode: CombineMode, x: float, y: float) -> float:
    """Two coefficients combined by ``mode``."""
    if mode is CombineMode.AVERAGE:
        return (x + y) / 2
    if mode is CombineMode.MINIMUM:
        return min(x, y)
    if mode is CombineMode.MAXIMUM:
        return max(x, y)
    return x * y


def pair_coefficients(a: PhysicsMaterial, b: PhysicsMaterial) -> tuple[float, float, float]:
    """(static friction, dynamic friction, restitution) of a contact between materials ``a`` and ``b``."""
    f = combine_mode(a.friction_combine, b.friction_combine)
    r = combine_mode(a.restitution_combine, b.restitution_combine)
    return (combine(f, a.static_friction, b.static_friction),
            combine(f, a.dynamic_friction, b.dynamic_friction),
            combine(r, a.restitution, b.restitution))
