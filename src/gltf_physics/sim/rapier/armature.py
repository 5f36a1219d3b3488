"""Armature on the joints of tiny multibody links: what keeps Rapier's reduced-coordinate solve finite when a
link weighs a millionth of its tree (hips, flanges, sensor mounts of real URDFs).

Why: Rapier's multibody joints have no armature by default, and a multibody's velocity solve goes through an LU
factorisation of its dense augmented mass matrix (``Multibody::inv_augmented_mass``) in 32-bit floats. Where
two joint axes are separated only by a tiny link (a hip between two actuators at one point, a mount between
two coaxial joints), the tree's generalized mass matrix has a block ``[[A + a, A], [A, A]]`` whose conditioning
is ``A / a``: a link of 1e-8 of the tree's largest inertia makes it singular to f32 precision, and the solve
returns NaN within a few steps (measured on a synthetic quadruped: finite at 1e6 : 1, non-finite from 1e7 : 1;
``--joints impulse`` was unaffected). Armature ``ε`` on the joint coordinates next to such a link (its own
joint and its children's) bounds that conditioning by ``A / ε``: reflected rotor inertia, as MuJoCo's
``armature``, here ``FLOOR`` of the tree's largest principal inertia (angular coordinates) or mass (linear).
The joints that get armature are listed in the world's ``notes`` (a loss: those joints accelerate as if
``ε`` more inertia sat on them).
"""

from __future__ import annotations

import math
from typing import Any

FLOOR = 1e-4  # a link lighter than this fraction of its tree's heaviest is tiny; ε is this fraction of the largest


def steady_tiny_links(rw: Any) -> list[tuple[int, str]]:
    """Armature on the coordinates next to every tiny link of every multibody of ``rw``; the (joint index,
    message) of each joint that got some."""
    by_body = {b.b.handle: (k, b) for k, b in rw.joints.built.items() if b.multibody is not None}
    if not by_body:
        return []
    trees: dict[int, Any] = {}
    for handle in by_body:
        link = rw.multibody_joints.rigid_body_link(handle)
        if link is not None:
            trees.setdefault(link.multibody.index, link.multibody)
    notes: list[tuple[int, str]] = []
    for index in trees.values():
        notes += _steady(rw, rw.multibody_joints.get_multibody(index), by_body)
    return notes


def _steady(rw: Any, mb: Any, by_body: dict[Any, tuple[int, Any]]) -> list[tuple[int, str]]:
    links = [mb.get_link(i) for i in range(mb.num_links)]
    weights = {}
    for link in links:
        mp = rw.mass_of.get(rw.node_of.get(link.rigid_body))
        if mp is not None and math.isfinite(mp.mass) and all(math.isfinite(v) for v in mp.inertia_diagonal):
            weights[link.link_id] = (mp.mass, min(mp.inertia_diagonal))
    if not weights:
        return []
    heaviest = max(m for m, _ in weights.values())
    largest = max(max(rw.mass_of[rw.node_of[links[i].rigid_body]].inertia_diagonal) for i in weights)
    tiny = {i for i, (m, inertia) in weights.items() if m < FLOOR * heaviest or inertia < FLOOR * largest}
    if not tiny:
        return []
    armature = list(mb.armature())
    notes = []
    for link in links:
        if link.is_root() or not (link.link_id in tiny or link.parent_id in tiny) or link.rigid_body not in by_body:
            continue
        k, built = by_body[link.rigid_body]
        free = [kind for kind in ("linear", "angular") for a in range(3) if (kind, a) not in built.plan.locked]
        added = []
        for offset, kind in enumerate(free):
            eps = FLOOR * (largest if kind == "angular" else heaviest)
            dof = link.assembly_id + offset
            if armature[dof] < eps:
                armature[dof] = eps
                added.append(f"{eps:.3g} {'kg·m²' if kind == 'angular' else 'kg'}")
        if added:
            notes.append((k, f"armature {', '.join(added)} on its coordinates: a link it moves weighs under "
                             f"{FLOOR:g} of its tree's heaviest (Rapier's f32 multibody solve needs it)"))
    mb.set_armature(armature)
    return notes
