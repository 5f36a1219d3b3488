"""Collision filters (docs/semantics.md, D-7): the recommended intersection rule, both ways.

does_collide(A, B) = (B.collideWith empty ∨ A.systems ∩ B.collideWith ≠ ∅) ∧ A.systems ∩ B.notCollideWith = ∅;
two colliders interact only if does_collide(A, B) ∧ does_collide(B, A); no filter ⇒ collides with all.

Colliders are grouped into *filter classes* (one per filter used, plus "no filter"); because the relation is
symmetric, a class-by-class table is exact however many systems a file names. The engine maps up to 32
classes to its interaction groups and falls back to a pair-filter hook beyond that.
"""

from __future__ import annotations

from ..model import CollisionFilter

NO_FILTER = CollisionFilter()


def does_collide(a: CollisionFilter, b: CollisionFilter) -> bool:
    sa = set(a.collision_systems)
    if b.collide_with_systems and not sa & set(b.collide_with_systems):
        return False
    return not sa & set(b.not_collide_with_systems)


def collide(a: CollisionFilter | None, b: CollisionFilter | None) -> bool:
    a, b = a or NO_FILTER, b or NO_FILTER
    return does_collide(a, b) and does_collide(b, a)


def class_table(filters: list[CollisionFilter | None]) -> list[list[bool]]:
    """``table[i][j]``: do classes i and j interact (``filters[i]`` is class i's filter, ``None`` = none)."""
    return [[collide(a, b) for b in filters] for a in filters]
