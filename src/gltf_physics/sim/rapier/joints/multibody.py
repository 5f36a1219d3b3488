"""Joint trees on Rapier's multibody links (``articulations.py`` builds the links).

Joints of a whole tree whose rows are all native on Rapier's multibody links go there instead of impulse joints
(limits, soft limits and drives on the joint coordinate with the articulated inertia): :func:`_plan_trees` picks
and orients them (``articulations.plan_trees``), :func:`_child_on_b` turns a world-anchored joint to hang from its
fixed side where no tree takes it, :func:`_articulate` inserts one link. ``JointDriver(articulate=False)`` turns it off.

**A start outside a hard bound.** A file may start a joint outside its range (PyBullet's A1: its zero pose puts
the knees 0.92 rad above theirs). Rapier's multibody limit corrects that within one step with no speed cap
(measured on the A1 at 60 Hz: the knees turned 0.92 rad in one step and threw the falling trunk 4 cm), where
an impulse joint's limit pushes back at the world's maximum corrective velocity (3 rad/s). Such a link starts at
the bound instead (:func:`_start_inside`, after the whole tree is built, so the links below it move with it),
with no velocity from the move, and ``World.notes()`` says so. A link rebuilt at run time (a limit edit) is
not moved.
"""

from __future__ import annotations

import math
from typing import Any

from ....dialects.common import portable_joints
from ....gltf.transforms import quat_multiply
from ....model.joints import Joint
from .. import articulations, link_velocities
from .common import _Built, _canon, _conj, _frame_world, _iso, _measure
from .rows import _side


def _link_coords(rw: Any, b: _Built, p: Any) -> list[float]:
    """The joint coordinates (free axes, Rapier's order) of B relative to A now: a free axis's offset or
    twist, and a ball's rotation vector (a new link's ball starts unturned; Rapier turns it by a displacement
    given as a rotation vector in frame A). Moving bodies are fine: the new link takes their motion
    (``link_velocities.py``)."""
    fa, fb = _frame_world(rw, b.a), _frame_world(rw, b.b)
    free = [(k, a) for k in ("linear", "angular") for a in range(3) if (k, a) not in p.locked]
    if sum(k == "angular" for k, _ in free) == 3:
        q = _canon(quat_multiply(_conj(fa.rotation), fb.rotation))
        s = math.sqrt(q[0] ** 2 + q[1] ** 2 + q[2] ** 2)
        scale = 2.0 * math.atan2(s, q[3]) / s if s > 1e-12 else 2.0
        return [_measure(k, (a,), fa, fb)[0] if k == "linear" else q[a] * scale for k, a in free]
    return [_measure(k, (a,), fa, fb)[0] for k, a in free]


def _plan_trees(rw: Any, joints: list[Joint]) -> articulations.TreePlan:
    """``articulations.plan_trees`` over this world's bodies: each joint's two Rapier bodies, and whether a
    joint built with given sides fits a multibody link (native there, body B dynamic; a link starts from any
    present state: ``_link_coords``, ``link_velocities.py``)."""
    def sides(j: Joint) -> tuple[Any, Any]:
        return (_side(rw, j.body_a, j.frame_a, j.node if j.node >= 0 else None),
                _side(rw, j.body_b, j.frame_b, j.connected_node))

    ends: list[tuple[Any, Any] | None] = []
    for j in joints:
        a, b = sides(j) if j.body_a is not None or j.body_b is not None else (None, None)
        ends.append(None if a is None or b is None or a.handle == b.handle else (a.handle, b.handle))

    def fits(j: Joint, _a: Any, b_handle: Any) -> bool:
        return articulations.plan(j) is not None and rw.bodies[b_handle].is_dynamic

    bodies = rw.bodies
    return articulations.plan_trees(joints, ends, lambda h: bodies[h].is_dynamic, fits,
                                    portable_joints.swap_is_exact, portable_joints.swapped)


def _child_on_b(rw: Any, j: Joint) -> Joint:
    """The joint seen from its moving side when side A moves and side B is the world or a static body, and the
    two views are the same constraint (the swap docs/interop.md allows, ``portable_joints``): the articulation
    planner takes the connected side (B) as the moving child, and writers put a world-anchored joint on its
    moving side."""
    def moving(node: int | None) -> bool:
        handle = rw.handle_of.get(node) if node is not None else None
        return handle is not None and rw.bodies[handle].is_dynamic

    def fixed(node: int | None) -> bool:
        handle = rw.handle_of.get(node) if node is not None else None
        return handle is None or not (rw.bodies[handle].is_dynamic or rw.bodies[handle].is_kinematic)

    if moving(j.body_a) and fixed(j.body_b) and portable_joints.swap_is_exact(j):
        return portable_joints.swapped(j)
    return j


def _articulate(driver: Any, index: int, built: _Built, rebuilt: bool = False) -> bool:
    """Put the joint on a multibody link when it is native there (``articulations.py``); else False. The
    link's bodies keep their motion (``link_velocities.py``), unless the joint is ``rebuilt`` (the rebuild gives
    back what the articulation had before the old link was taken out)."""
    p = articulations.plan(built.joint)
    if p is None:
        return False
    rw, parent, child = driver.rw, built.a.handle, built.b.handle
    anchor = None
    if not rw.bodies[parent].is_dynamic:  # the world, a fixed or a kinematic body: a root of its own at its pose
        if not articulations.attachable(rw, None, child):
            return False
        if index not in driver._roots:  # a kinematic anchor's root follows it (driven_roots.py)
            driver._roots[index] = (driver.driven.add(rw, parent) if rw.bodies[parent].is_kinematic
                                    else articulations.fixed_root(rw, parent))
        anchor, parent = parent, driver._roots[index]
    elif not articulations.attachable(rw, parent, child):
        return False
    coords = _link_coords(rw, built, p)
    motion = (link_velocities.capture(rw, (parent, child)) if driver.moving and not rebuilt else {})
    handle = rw.multibody_joints.insert(
        parent, child, articulations.build(p, built.joint, _iso(built.a.frame), _iso(built.b.frame)), True)
    if handle is None:
        return False
    if anchor is not None:  # JOINT-9 between the link and the fixed body's own colliders
        built.parts += articulations.exclude_contacts(rw, anchor, child, built.joint.enable_collision)
    articulations.place(rw, handle, coords)
    if not rebuilt:
        driver.outside += [(index, handle, p, kind, a, q, bound) for kind, a, q, bound in _outside(p, coords)]
    if link_velocities.moving(motion):
        link_velocities.restore(rw, motion)
    built.multibody, built.plan = handle, p
    driver.soft.add(handle, p)
    return True


TOLERANCE = 1e-6  # rad or m: a start this close to a bound is inside it


def _outside(p: Any, coords: list[float]) -> list[tuple[str, int, float, float]]:
    """(kind, axis, coordinate, nearest bound) of each hard bound of plan ``p`` that ``coords`` (the link's free
    coordinates) start outside of; angular bounds as ``articulations.build`` gives them (clipped to ±π)."""
    out = []
    for (kind, a), (lo, hi) in p.bounds.items():
        if (kind, a) in p.locked:
            continue
        if kind == "angular":
            lo, hi = max(lo, -math.pi), min(hi, math.pi)
        q = coords[articulations._free_rank(p, kind, a)]
        if q < lo - TOLERANCE or q > hi + TOLERANCE:
            out.append((kind, a, q, lo if q < lo else hi))
    return out


def _start_inside(rw: Any, outside: list[tuple[Any, ...]]) -> list[tuple[int, str]]:
    """Move each link of ``outside`` (``(index, handle, plan, kind, axis, coordinate, bound)``) to its bound
    (module docstring); returns the notes (joint index, message)."""
    notes = []
    for index, handle, p, kind, a, q, bound in outside:
        mb, link_id = rw.multibody_joints.get(handle)
        k = mb.get_link(link_id).assembly_id + articulations._free_rank(p, kind, a)
        disp = [0.0] * len(mb.generalized_position())
        disp[k] = bound - mb.generalized_position()[k]
        mb.apply_displacements(disp)
        mb.forward_kinematics(rw.bodies, True)
        mb.update_rigid_bodies(rw.bodies, False)
        unit = "rad" if kind == "angular" else "m"
        notes.append((index, f"starts {abs(q - bound):.3g} {unit} outside its range (at {q:.4g} {unit}, bound "
                      f"{bound:.4g}): starts at the bound on Rapier's multibody path (its limit would turn it "
                      "back within one step)"))
    return notes
