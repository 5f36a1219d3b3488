"""Materials and filters on Rapier, with Python contact hooks only where the native behaviour is wrong.

Materials (docs/semantics.md, docs/semantics.md, D-12). Each collider gets its dynamic friction and restitution with a
native combine rule: no mode or ``average`` → AVERAGE, ``minimum`` → MIN, ``maximum`` → MAX, ``multiply`` →
MULTIPLY. Rapier applies the rule of higher rank (max > multiply > min > average) where the specs want
average > minimum > maximum > multiply; a mode-less side ranks lowest, so it never votes, as D-12 wants. For
every pair of materials present, the native result is compared with the spec's (``model.combine``); a pair
needs a hook when they differ or when its static and dynamic friction differ (Rapier has one coefficient).
The hook flag goes on the materials covering those pairs (a greedy cover, fewest colliders first), so a
scene whose materials combine natively runs with no hook at all.

Static friction is used while the tangential speed at the first solver contact is below
:data:`STATIC_SPEED`, dynamic friction above it.

Filters (D-7): see ``sim.filters``. Up to 32 filter classes become interaction groups (membership = own
class bit, filter = bits of the classes it interacts with), exact for any number of systems; beyond 32 the
colliders of restricted classes get a pair-filter hook.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import rapier3d as rp

from ...model import CollisionFilter, CombineMode, PhysicsMaterial
from ...model.combine import DEFAULT_MATERIAL, pair_coefficients
from .. import filters as spec_filters

STATIC_SPEED = 0.01  # m/s: below it a contact counts as at rest (static friction)

_RULES = {
    None: rp.CoefficientCombineRule.AVERAGE,
    CombineMode.AVERAGE: rp.CoefficientCombineRule.AVERAGE,
    CombineMode.MINIMUM: rp.CoefficientCombineRule.MIN,
    CombineMode.MULTIPLY: rp.CoefficientCombineRule.MULTIPLY,
    CombineMode.MAXIMUM: rp.CoefficientCombineRule.MAX,
}
_NATIVE_OPS = {0: lambda x, y: (x + y) / 2, 1: min, 2: lambda x, y: x * y, 3: max}  # by Rapier rule rank
MAX_GROUPS = 32

Coefficients = tuple[float, float, float]


def material_of(materials: Sequence[PhysicsMaterial], index: int | None) -> PhysicsMaterial:
    return materials[index] if index is not None and 0 <= index < len(materials) else DEFAULT_MATERIAL


def native(m: PhysicsMaterial) -> tuple[float, float, rp.CoefficientCombineRule, rp.CoefficientCombineRule]:
    """(friction, restitution, friction rule, restitution rule) a collider of material ``m`` carries."""
    return m.dynamic_friction, m.restitution, _RULES[m.friction_combine], _RULES[m.restitution_combine]


Native = tuple[float, float, rp.CoefficientCombineRule, rp.CoefficientCombineRule]
_RANKED = (rp.CoefficientCombineRule.AVERAGE, rp.CoefficientCombineRule.MIN, rp.CoefficientCombineRule.MULTIPLY,
           rp.CoefficientCombineRule.MAX)  # Rapier's rule rank order (the higher rank wins a pair)
MAX_SEARCH = 6  # material classes searched exhaustively (4^6 rule choices); beyond, the direct mapping


def _native_pair(a: Native, b: Native) -> tuple[float, float]:
    f = _NATIVE_OPS[max(int(a[2]), int(b[2]))](a[0], b[0])
    r = _NATIVE_OPS[max(int(a[3]), int(b[3]))](a[1], b[1])
    return f, r


def _close(x: float, y: float) -> bool:
    return math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-7)


def native_classes(materials: Sequence[PhysicsMaterial], keys: set[int | None],
                   counts: dict[int | None, int] | None = None) -> dict[int | None, Native]:
    """The (friction, restitution, rules) each material class carries in Rapier, chosen so that Rapier's own
    combination gives the spec's result on as many collider pairs as possible (a hook costs
    ~16 µs per contact pair in the binding, so the lever is fewer hooked pairs).

    Per class and per coefficient, any of Rapier's four rules may be used, with the coefficient that makes
    the class's own pair right (x for average/min/max, √x for multiply). Up to :data:`MAX_SEARCH` classes
    every choice is tried, weighting pairs by how many collider pairs they stand for; the direct mapping
    (``native``) wins ties, so scenes that were exact stay as they were. Pairs whose static and dynamic
    friction differ need the hook anyway and do not count.
    """
    ordered = sorted(keys, key=lambda k: -1 if k is None else k)
    mats = {k: material_of(materials, k) for k in ordered}
    direct = {k: native(m) for k, m in mats.items()}
    if len(ordered) > MAX_SEARCH or len(ordered) < 2:
        return direct
    weight = {k: (counts or {}).get(k, 1) for k in ordered}
    pairs = [(ka, kb) for i, ka in enumerate(ordered) for kb in ordered[i:]]
    spec = {p: pair_coefficients(mats[p[0]], mats[p[1]]) for p in pairs}
    live = [p for p in pairs if _close(spec[p][0], spec[p][1])]
    w = {p: weight[p[0]] * weight[p[1]] for p in live}
    best_f = _search(ordered, live, w, {p: spec[p][1] for p in live},
                     {k: mats[k].dynamic_friction for k in ordered}, {k: direct[k][2] for k in ordered})
    best_r = _search(ordered, live, w, {p: spec[p][2] for p in live},
                     {k: mats[k].restitution for k in ordered}, {k: direct[k][3] for k in ordered})
    return {k: (best_f[k][0], best_r[k][0], best_f[k][1], best_r[k][1]) for k in ordered}


def _search(keys: list, pairs: list[tuple], weight: dict[tuple, int], target: dict[tuple, float],
            own: dict, direct_rule: dict) -> dict:
    """Per key (coefficient, rule) maximising the weight of pairs Rapier combines to ``target``."""
    def coefficient(k: Any, rule: rp.CoefficientCombineRule) -> float:
        x = target.get((k, k), own[k])  # the class's own pair fixes its coefficient
        return math.sqrt(max(x, 0.0)) if rule == rp.CoefficientCombineRule.MULTIPLY else x

    def score(rules: dict) -> int:
        total = 0
        for ka, kb in pairs:
            op = _NATIVE_OPS[max(int(rules[ka]), int(rules[kb]))]
            if _close(op(coefficient(ka, rules[ka]), coefficient(kb, rules[kb])), target[(ka, kb)]):
                total += weight[(ka, kb)]
        return total

    best = dict(direct_rule)
    best_score = score(best)
    for choice in itertools.product(_RANKED, repeat=len(keys)):
        rules = dict(zip(keys, choice, strict=True))
        sc = score(rules)
        if sc > best_score:
            best, best_score = rules, sc
    out = {k: (coefficient(k, best[k]), best[k]) for k in keys}
    for k in keys:  # keep the file's own coefficient where the search kept the direct rule
        if best[k] == direct_rule[k] and best[k] != rp.CoefficientCombineRule.MULTIPLY:
            out[k] = (own[k], best[k])
    return out


def hooked_pairs(materials: Sequence[PhysicsMaterial], keys: set[int | None],
                 carried: dict[int | None, Native] | None = None) -> dict[tuple, Coefficients]:
    """Material-key pairs (both orders) whose contacts need the hook, with their spec coefficients.

    ``carried``: what each class carries in Rapier (``native_classes``); default the direct mapping."""
    out: dict[tuple, Coefficients] = {}
    ordered = sorted(keys, key=lambda k: -1 if k is None else k)
    for i, ka in enumerate(ordered):
        for kb in ordered[i:]:
            a, b = material_of(materials, ka), material_of(materials, kb)
            s, d, e = pair_coefficients(a, b)
            na = carried[ka] if carried is not None else native(a)
            nb = carried[kb] if carried is not None else native(b)
            f, r = _native_pair(na, nb)
            if not (_close(s, d) and _close(d, f) and _close(e, r)):
                out[(ka, kb)] = out[(kb, ka)] = (s, d, e)
    return out


def hook_cover(pairs: dict[tuple, Coefficients], counts: dict[int | None, int]) -> set[int | None]:
    """Material keys to flag so every hooked pair has a flagged side: classes hooked with themselves, then
    greedily the side with fewer colliders."""
    flagged: set[int | None] = {ka for ka, kb in pairs if ka == kb}  # a class hooked with itself must be
    for ka, kb in sorted(pairs, key=lambda p: (min(counts[p[0]], counts[p[1]]), str(p))):
        if ka in flagged or kb in flagged:
            continue
        flagged.add(ka if counts[ka] <= counts[kb] else kb)
    return flagged


class FilterClasses:
    """Filter classes of the scene's colliders and their Rapier interaction groups (or a pair table)."""

    def __init__(self, filters: Sequence[CollisionFilter], used: set[int | None]) -> None:
        self.keys = sorted(used, key=lambda k: -1 if k is None else k)
        self.index = {k: i for i, k in enumerate(self.keys)}
        specs = [filters[k] if k is not None and 0 <= k < len(filters) else None for k in self.keys]
        self.table = spec_filters.class_table(specs)
        self.trivial = all(all(row) for row in self.table)  # everything collides: keep Rapier's defaults
        self.use_hook = not self.trivial and len(self.keys) > MAX_GROUPS

    def groups(self, key: int | None) -> rp.InteractionGroups | None:
        if self.trivial or self.use_hook:
            return None
        i = self.index[key]
        mask = sum(1 << j for j, ok in enumerate(self.table[i]) if ok)
        return rp.InteractionGroups(rp.Group(1 << i), rp.Group(mask), rp.InteractionTestMode.AND)

    def needs_pair_hook(self, key: int | None) -> bool:
        return self.use_hook and not all(self.table[self.index[key]])

    def allowed(self, ka: int | None, kb: int | None) -> bool:
        return self.table[self.index[ka]][self.index[kb]]


class ContactHooks:
    """Rapier physics hooks: spec material combination and (beyond 32 classes) the pair filter.

    ``info[collider handle] = (material key, filter key)``; only colliders carrying hook flags reach here.
    """

    def __init__(self, info: dict[rp.ColliderHandle, tuple[int | None, int | None]],
                 pairs: dict[tuple, Coefficients], classes: FilterClasses) -> None:
        self.info = info
        self.pairs = pairs
        self.classes = classes

    def modify_solver_contacts(self, ctx: rp.ContactModificationContext) -> None:
        coefficients = self.pairs.get((self.info[ctx.collider1][0], self.info[ctx.collider2][0]))
        if coefficients is None:
            return
        static, dynamic, restitution = coefficients
        ctx.restitution = restitution
        if static == dynamic:
            ctx.friction = dynamic
            return
        ctx.friction = static if self._sliding_speed(ctx) < STATIC_SPEED else dynamic

    @staticmethod
    def _sliding_speed(ctx: rp.ContactModificationContext) -> float:
        contacts = ctx.solver_contacts
        if not contacts:
            return 0.0
        p = contacts[0].point
        v = [0.0, 0.0, 0.0]
        for handle, sign in ((ctx.rigid_body1, -1.0), (ctx.rigid_body2, 1.0)):
            if handle is not None:
                u = ctx.bodies[handle].velocity_at_point(p)
                v[0] += sign * u.x
                v[1] += sign * u.y
                v[2] += sign * u.z
        n = ctx.normal
        vn = v[0] * n.x + v[1] * n.y + v[2] * n.z
        tx, ty, tz = v[0] - vn * n.x, v[1] - vn * n.y, v[2] - vn * n.z
        return math.sqrt(tx * tx + ty * ty + tz * tz)

    def filter_contact_pair(self, ctx: rp.PairFilterContext) -> rp.SolverFlags | None:
        if self.classes.allowed(self.info[ctx.collider1][1], self.info[ctx.collider2][1]):
            return rp.SolverFlags.COMPUTE_IMPULSES
        return None

    def filter_intersection_pair(self, ctx: rp.PairFilterContext) -> bool:
        return self.classes.allowed(self.info[ctx.collider1][1], self.info[ctx.collider2][1])
