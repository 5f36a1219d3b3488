"""Explicit combine modes for writers: every material gets both modes, every contact pair keeps its outcome.

D-12: an absent mode does not vote (the other side's mode applies; ``average`` when neither side gives
one), and the precedence is average > minimum > maximum > multiply (docs/semantics.md). Readers disagree on
absent modes (the Babylon loader uses maximum for friction and minimum for restitution; OMI reads absent as
a voting ``average``), so the writers spell every mode out. A set mode is kept as it is. For a material
without one, the written mode is the first of average, minimum, maximum, multiply that gives every pair it
can form the coefficients it had before (pairs are compared by value: ``minimum`` of two equal frictions is
their ``average``). Pairs are formed among the materials colliders and wheels use, the material itself
included, and the default material (0.6, 0.6, 0.0, no mode; docs/semantics.md) when some collider or wheel has none.
Where no mode keeps every pair, the one breaking the fewest is written and each broken pair is reported.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ...model import CombineMode, PhysicsMaterial, PhysicsScene
from ...model.combine import PRECEDENCE, combine, combine_mode

KINDS = ("friction_combine", "restitution_combine")
DEFAULT = PhysicsMaterial()  # a collider without a material (docs/semantics.md): no mode, does not vote
_TOL = 1e-12


@dataclass(frozen=True)
class BrokenPair:
    """A pair of materials (``None``: the default) whose combined ``kind`` coefficients change."""

    material: int
    other: int | None
    kind: str  # "friction_combine" or "restitution_combine"
    before: tuple[float, ...]
    after: tuple[float, ...]


def loss_message(b: BrokenPair) -> str:
    """The loss report's words for a pair no explicit mode keeps (code D-12, at the material's pointer)."""
    key = "frictionCombine" if b.kind == KINDS[0] else "restitutionCombine"
    other = "the default material" if b.other is None else f"material {b.other}"
    return (f"no explicit {key} keeps every pair (an absent mode does not vote, D-12): against {other} the "
            f"combined value becomes {_fmt(b.after)} instead of {_fmt(b.before)}")


def _fmt(values: tuple[float, ...]) -> str:
    return "/".join(f"{v:.6g}" for v in values)


def values(m: PhysicsMaterial, kind: str) -> tuple[float, ...]:
    """The coefficients a mode of ``kind`` combines: both frictions, or the restitution."""
    return (m.static_friction, m.dynamic_friction) if kind == KINDS[0] else (m.restitution,)


def outcome(a: PhysicsMaterial, b: PhysicsMaterial, kind: str) -> tuple[float, ...]:
    """The combined coefficients of ``kind`` for a contact between ``a`` and ``b``."""
    mode = combine_mode(getattr(a, kind), getattr(b, kind))
    return tuple(combine(mode, x, y) for x, y in zip(values(a, kind), values(b, kind), strict=True))


def _same(x: tuple[float, ...], y: tuple[float, ...]) -> bool:
    return all(abs(p - q) <= _TOL * max(1.0, abs(p), abs(q)) for p, q in zip(x, y, strict=True))


def participants(scene: PhysicsScene) -> tuple[list[int], bool]:
    """Indices of the materials colliders and wheels use, and whether the default takes part too."""
    used = [c.material for c in scene.colliders] + [w.physics_material for w in scene.wheels]
    n = len(scene.materials)
    return sorted({i for i in used if i is not None and 0 <= i < n}), any(i is None for i in used)


def explicit_modes(scene: PhysicsScene) -> tuple[list[PhysicsMaterial], list[BrokenPair]]:
    """``scene.materials`` with both modes set, and the pairs whose outcome no explicit mode could keep."""
    mats = list(scene.materials)
    used, with_default = participants(scene)
    broken: list[BrokenPair] = []
    for kind in KINDS:
        before = list(scene.materials)
        partners: list[int | None] = [*used, *([None] if with_default else [])]
        for i in range(len(mats)):
            if getattr(mats[i], kind) is not None:
                continue
            if i not in used:  # forms no pair: the mode it resolves to on its own
                mats[i] = dataclasses.replace(mats[i], **{kind: CombineMode.AVERAGE})
                continue
            mats[i], lost = _choose(i, kind, before, mats, partners)
            broken += lost
    return mats, broken


def _choose(i: int, kind: str, before: list[PhysicsMaterial], now: list[PhysicsMaterial],
            partners: list[int | None]) -> tuple[PhysicsMaterial, list[BrokenPair]]:
    """The mode for material ``i`` that breaks the fewest pairs with the partners decided so far (itself,
    set modes, the default, and materials before ``i``); later materials check their pairs with it."""
    decided = [j for j in partners if j is None or j <= i or getattr(before[j], kind) is not None]
    best: tuple[PhysicsMaterial, list[BrokenPair]] | None = None
    for mode in PRECEDENCE:
        cand = dataclasses.replace(now[i], **{kind: mode})
        lost = []
        for j in decided:
            old_j = DEFAULT if j is None else before[j]
            new_j = cand if j == i else (DEFAULT if j is None else now[j])
            was, will = outcome(before[i], old_j, kind), outcome(cand, new_j, kind)
            if not _same(was, will):
                lost.append(BrokenPair(i, j, kind, was, will))
        if best is None or len(lost) < len(best[1]):
            best = (cand, lost)
        if not lost:
            break
    assert best is not None
    return best
