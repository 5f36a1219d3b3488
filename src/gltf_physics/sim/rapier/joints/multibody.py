"""Joint trees on Rapier's multibody links (``articulations.py`` builds the links).

Joints of a whole tree whose rows are all native on Rapier's multibody links go there instead of impulse joints
(limits, soft limits and drives on the joint coordinate with the articulated inertia): :func:`_tree_joints` picks
them, :func:`_child_on_b` turns a world-anchored joint to hang from its fixed side, :func:`_articulate` inserts
one link. ``JointDriver(articulate=False)`` turns it off.
"""

from __future__ import annotations

import math
from typing import Any

from ....dialects.common import portable_joints
from ....gltf.transforms import quat_multiply
from ....model.joints import Joint
from .. import articulations
from .common import _Built, _canon, _conj, _frame_world, _iso, _measure
from .rows import _side


def _link_coords(rw: Any, b: _Built, p: Any) -> list[float] | None:
    """The joint coordinates (free axes, Rapier's order) of B relative to A now; None when the multibody
    could not start from this state: a body moving (a link starts from the generalized velocity 0) or a
    ball joint turned (its coordinate is a rotation, not a metric)."""
    for side in (b.a, b.b):
        rb = rw.bodies[side.handle]
        if rb.is_dynamic and (any(v != 0.0 for v in rb.linvel.to_tuple())
                              or any(v != 0.0 for v in rb.angvel.to_tuple())):
            return None
    fa, fb = _frame_world(rw, b.a), _frame_world(rw, b.b)
    free = [(k, a) for k in ("linear", "angular") for a in range(3) if (k, a) not in p.locked]
    if sum(k == "angular" for k, _ in free) == 3:
        q = _canon(quat_multiply(_conj(fa.rotation), fb.rotation))
        if 2.0 * math.atan2(math.sqrt(q[0] ** 2 + q[1] ** 2 + q[2] ** 2), q[3]) > 1e-9:
            return None
        return [_measure(k, (a,), fa, fb)[0] if k == "linear" else 0.0 for k, a in free]
    return [_measure(k, (a,), fa, fb)[0] for k, a in free]


def _tree_joints(rw: Any, joints: list[Joint]) -> set[int]:
    """Indices of the joints that may go on multibodies: those of every connected structure (bodies linked
    by joints; the world and fixed bodies split per joint) whose joints are all native on a multibody link
    and whose parent links (side A) form a forest. A structure with a loop or with any other joint stays on
    impulse joints as a whole: measured, an impulse joint on a multibody link placed away from coordinate 0
    saw stale link state on the first step (rapier3d 0.36) and threw a loop-closed chain apart."""
    parent_of: dict[Any, Any] = {}
    ok: dict[int, bool] = {}
    union: dict[Any, Any] = {}

    def find(h: Any) -> Any:
        while union.get(h, h) != h:
            h = union[h]
        return h

    sides: dict[int, tuple[Any, Any]] = {}
    for index, joint in enumerate(joints):
        if joint.body_a is None and joint.body_b is None:
            continue
        a = _side(rw, joint.body_a, joint.frame_a, joint.node if joint.node >= 0 else None)
        b = _side(rw, joint.body_b, joint.frame_b, joint.connected_node)
        if a.handle == b.handle:
            continue
        dyn = [h for h in (a.handle, b.handle) if rw.bodies[h].is_dynamic]
        for h in dyn:
            union.setdefault(h, h)
        if len(dyn) == 2:
            union[find(dyn[0])] = find(dyn[1])
        p = articulations.plan(joint)
        good = (p is not None and rw.bodies[b.handle].is_dynamic and not rw.bodies[a.handle].is_kinematic
                and b.handle not in parent_of and _link_coords(rw, _Built(joint, a, b), p) is not None)
        if good:
            parent_of[b.handle] = a.handle if rw.bodies[a.handle].is_dynamic else None
        ok[index] = good
        sides[index] = (a.handle, b.handle)
    bad_roots = {find(h) for i, good in ok.items() if not good
                 for h in sides[i] if rw.bodies[h].is_dynamic}
    for start in parent_of:  # a cycle of parents is a loop
        seen, h = set(), start
        while h is not None and h not in seen:
            seen.add(h)
            h = parent_of.get(h)
        if h is not None:
            bad_roots.add(find(start))
    return {i for i, good in ok.items() if good and find(sides[i][1]) not in bad_roots}


def _child_on_b(rw: Any, j: Joint) -> Joint:
    """The joint seen from its moving side when side A moves and side B is the world or a static body, and the
    two views are the same constraint (the swap DIGEST §10 allows, ``portable_joints``): the articulation
    planner takes the connected side (B) as the moving child, and writers put a world-anchored joint on its
    moving side (issue 12)."""
    def moving(node: int | None) -> bool:
        handle = rw.handle_of.get(node) if node is not None else None
        return handle is not None and rw.bodies[handle].is_dynamic

    def fixed(node: int | None) -> bool:
        handle = rw.handle_of.get(node) if node is not None else None
        return handle is None or not (rw.bodies[handle].is_dynamic or rw.bodies[handle].is_kinematic)

    if moving(j.body_a) and fixed(j.body_b) and portable_joints.swap_is_exact(j):
        return portable_joints.swapped(j)
    return j


def _articulate(driver: Any, index: int, built: _Built) -> bool:
    """Put the joint on a multibody link when it is native there (``articulations.py``); else False."""
    p = articulations.plan(built.joint)
    if p is None:
        return False
    rw, parent, child = driver.rw, built.a.handle, built.b.handle
    if parent == rw.ground:  # the world: a fixed root of its own (the ground's frame is the world's)
        if not articulations.attachable(rw, None, child):
            return False
        if index not in driver._roots:
            driver._roots[index] = articulations.new_root(rw)
        parent = driver._roots[index]
    elif not articulations.attachable(rw, parent, child):
        return False
    coords = _link_coords(rw, built, p)
    if coords is None:
        return False
    handle = rw.multibody_joints.insert(
        parent, child, articulations.build(p, built.joint, _iso(built.a.frame), _iso(built.b.frame)), True)
    if handle is None:
        return False
    articulations.place(rw, handle, coords)
    built.multibody, built.plan = handle, p
    driver.soft.add(handle, p)
    return True
