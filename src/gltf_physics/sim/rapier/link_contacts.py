"""Contacts no joint coordinate can act on, dropped before Rapier solves them (multibody links).

On a reduced-coordinate multibody a contact constrains the joint coordinates through its Jacobian row
J = ∂(relative normal velocity at the contact point)/∂q̇, and Rapier gives the contact the effective mass
1/(J·M⁻¹·Jᵀ). Where the touching links' joints cannot move the point along the normal at all — a contact
at a ball joint's pivot, on a hinge's axis, or with its normal across a slider's axis, against a fixed body,
a kinematic one, or the joint's other link — J is zero in exact arithmetic and a few float32 ulps in
practice: the effective mass becomes ~10¹⁴, and the round-off in the contact's separation and anchor drift
(~10⁻⁷ m) is turned into a generalized velocity of tens to thousands of rad/s in one step. This is how the
official ``JointTypes`` sample's ball-joint chain (``enableCollision: true``, the pivots on the touching
faces' corners) became non-finite after ~2.6 s; a hinged door standing on a floor does the same when the
hinge axis is not exactly the floor's normal in float32. Impulse joints never see it: each body keeps its
own six degrees of freedom, so J is never zero.

Such a contact carries nothing the joint does not already hold (the joint forbids that relative motion),
so it is removed from the solver, as articulation solvers do for rows below a minimum response. A row
counts as degenerate when every joint coordinate between the two sides moves the contact point along the
normal by less than :data:`DEGENERATE` m per rad (angular coordinates) or m per m (linear ones). A side
that is a free body (a dynamic body that is no link, or a multibody's free root) has six coordinates of its
own, so its contacts are never degenerate; a fixed or kinematic side has none.

The test runs in a Rapier contact-modification hook on the colliders of the multibody links that meet such
contacts in practice (a hook call costs ~20 µs, see :func:`install`): links jointed straight to a fixed or
kinematic body, and links whose joint enables contacts with their parent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import rapier3d as r

DEGENERATE = 1e-4  # m/rad or m/m: a joint moving the contact point less than this along the normal
# rad (or m): the most joint motion an overlap between a link and the body its joint hangs from (contacts
# enabled) may ask for to be pushed out; a deeper overlap counts as this deep. A file may put the two deep
# inside each other at the joint, where pushing out through a small Jacobian means a huge joint speed
# (measured: a link starting inside the box it is ball-jointed to went non-finite in 0.15 s at Rapier's
# maximum corrective velocity). An overlap a slider can undo by moving is pushed out as before.
MAX_TURN = 0.05  # measured: 0.2 still went non-finite (0.6 s), 0.1 and 0.05 held; a slider pushes out at ≥ 0.05
_UNIT = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


@dataclass(frozen=True)
class Link:
    """One multibody link as the hook sees it: its parent body, anchor and free axes."""

    parent: Any  # the parent body handle (a link, a fixed root, the ground or a kinematic body)
    anchor: tuple[float, float, float]  # the joint's frame B origin in the link body's space
    linear: tuple[tuple[float, float, float], ...]  # free linear axes in the parent body's space
    angular: tuple[tuple[float, float, float], ...]  # free angular axes in the parent body's space


def link_of(parent: Any, frame_a: Any, frame_b: Any, locked: set[tuple[str, int]]) -> Link:
    """The :class:`Link` of a multibody joint: ``frame_a``/``frame_b`` are model Poses in the parent's and the
    link's body space, ``locked`` the plan's locked (kind, axis) pairs."""
    x, y, z, w = frame_a.rotation
    rot = r.Rotation3(w, x, y, z)
    axes = {k: tuple(rot.transform_vector(_UNIT[k]).to_tuple()) for k in range(3)}
    return Link(parent, tuple(frame_b.translation),
                tuple(axes[k] for k in range(3) if ("linear", k) not in locked),
                tuple(axes[k] for k in range(3) if ("angular", k) not in locked))


class LinkContacts:
    """The contact-modification hook removing degenerate solver contacts of multibody links (module docstring).

    ``links`` is read at every call, so a joint rebuilt at run time (``JointDriver.set``) is seen at once:
    ``links()`` returns {link body handle: :class:`Link`} of the links now on multibodies.
    """

    def __init__(self, links: Any) -> None:
        self.links = links
        self.dropped = 0  # solver contacts removed so far (diagnostics and tests)
        self.clamped = 0  # solver contacts whose overlap was limited (MAX_TURN)

    def modify(self, ctx: Any) -> None:
        """Remove the degenerate solver contacts of the pair in ``ctx`` (a ContactModificationContext)."""
        links = self.links()
        h1, h2 = ctx.rigid_body1, ctx.rigid_body2
        if h1 not in links and h2 not in links:
            return
        bodies = ctx.bodies
        c1 = self._chain(bodies, links, h1)
        c2 = self._chain(bodies, links, h2)
        if c1 is None or c2 is None:
            return  # a free side: every contact has a response
        common = next((h for h in c1 if h in c2), None)
        own1 = c1[:c1.index(common)] if common is not None else c1
        own2 = c2[:c2.index(common)] if common is not None else c2
        if not own1 and not own2:
            return
        n = ctx.normal.to_tuple()
        pair = (h1 in links and links[h1].parent == h2) or (h2 in links and links[h2].parent == h1)
        for i in reversed(range(ctx.num_solver_contacts())):
            contact = ctx.solver_contacts[i]
            p = contact.point.to_tuple()
            reach = max(self._reach(bodies, links, h, p, n) for h in (*own1, *own2))
            if reach < DEGENERATE:
                ctx.remove_solver_contact(i)
                self.dropped += 1
            elif pair and contact.dist < -MAX_TURN * reach:
                ctx.set_solver_contact(i, dist=-MAX_TURN * reach)  # see MAX_TURN
                self.clamped += 1

    @staticmethod
    def _chain(bodies: Any, links: dict, handle: Any) -> list[Any] | None:
        """The links from ``handle`` up to its multibody's root (exclusive); ``[]`` for a fixed or kinematic
        body; None when a free body is on the way (a dynamic non-link side or a free root)."""
        out = []
        h = handle
        while h is not None and h in links:
            out.append(h)
            h = links[h].parent
        if h is not None and bodies[h].is_dynamic:
            return None
        return out

    @staticmethod
    def _reach(bodies: Any, links: dict, handle: Any, p: tuple, n: tuple) -> float:
        """How fast link ``handle``'s own joint coordinates can move point ``p`` along ``n``: the largest
        |∂(n·v)/∂q̇| over its free coordinates (m/rad or m/m)."""
        link = links[handle]
        parent_rot = bodies[link.parent].rotation
        reach = 0.0
        for axis in link.linear:
            a = parent_rot.transform_vector(axis).to_tuple()
            reach = max(reach, abs(a[0] * n[0] + a[1] * n[1] + a[2] * n[2]))
        if link.angular:
            c = bodies[handle].position.transform_point(link.anchor).to_tuple()
            d = (p[0] - c[0], p[1] - c[1], p[2] - c[2])
            m = (d[1] * n[2] - d[2] * n[1], d[2] * n[0] - d[0] * n[2], d[0] * n[1] - d[1] * n[0])  # (p − c) × n
            if len(link.angular) == 3:
                return max(reach, math.sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]))
            for axis in link.angular:
                a = parent_rot.transform_vector(axis).to_tuple()
                reach = max(reach, abs(a[0] * m[0] + a[1] * m[1] + a[2] * m[2]))  # n·(a × (p − c))
        return reach


class CombinedHooks:
    """Rapier physics hooks: the degenerate-contact filter first, then the world's own hooks (if any)."""

    def __init__(self, links: LinkContacts, inner: Any) -> None:
        self.link_contacts = links
        self.inner = inner

    def modify_solver_contacts(self, ctx: Any) -> None:
        """Rapier's contact-modification hook: degenerate link contacts out, then the world's own changes."""
        self.link_contacts.modify(ctx)
        if self.inner is not None:
            self.inner.modify_solver_contacts(ctx)

    def filter_contact_pair(self, ctx: Any) -> Any:
        """Rapier's contact pair filter: the world's (all pairs solved when it has none)."""
        return self.inner.filter_contact_pair(ctx) if self.inner is not None else r.SolverFlags.COMPUTE_IMPULSES

    def filter_intersection_pair(self, ctx: Any) -> bool:
        """Rapier's sensor pair filter: the world's (all pairs when it has none)."""
        return self.inner.filter_intersection_pair(ctx) if self.inner is not None else True


def install(rw: Any, driver: Any, hooks: Any) -> Any:
    """Flag for the contact-modification hook the colliders of the multibody links that meet degenerate
    contacts in practice, and return the hooks the world must use (``hooks`` unchanged when there is none): a
    link jointed straight to a fixed or kinematic body (its own joint is its contacts' whole Jacobian: the
    door on the floor), and a link whose joint enables contacts with its parent (the pair's Jacobian is that
    joint's: JointTypes). Deeper links are left to Rapier: a contact there is degenerate only if every joint up
    to the root is aligned with it (measured: a ball-jointed rope standing straight on a floor, every pivot on
    the contact normal, ran 10 s finite), and the hook costs ~20 µs a contact pair each step (measured: 200
    chain links lying on a floor, 2.45 → 6.48 ms a step with every link flagged). A flagged pair is also
    solved a little differently by Rapier even when the hook changes nothing (the official ``simple_joint``
    sample: the same landing, a different tumble), so nothing else is flagged."""
    now = table(driver)
    flagged = [h for h in now if _rooted(rw, now, h) and now[h].parent not in now]
    flagged += [b.b.handle for b in driver.built.values()
                if b.multibody is not None and b.joint.enable_collision and b.b.handle not in flagged]
    if not flagged:
        return hooks
    flag = r.ActiveHooks.MODIFY_SOLVER_CONTACTS
    for handle in flagged:
        for col in rw.bodies[handle].colliders:
            c = rw.colliders[col]
            c.active_hooks = c.active_hooks | flag

    cache: list[Any] = [None, {}]  # [driver.version it was built at, the table]

    def links() -> dict:
        if cache[0] != driver.version:
            cache[0], cache[1] = driver.version, table(driver)
        return cache[1]

    return CombinedHooks(LinkContacts(links), hooks)


def _rooted(rw: Any, links: dict, handle: Any) -> bool:
    """Whether link ``handle``'s multibody hangs from a fixed or kinematic body."""
    h = handle
    while h in links:
        h = links[h].parent
    return not rw.bodies[h].is_dynamic


def table(driver: Any) -> dict:
    """{link body handle: :class:`Link`} of every joint now on a multibody link."""
    return {b.b.handle: link_of(b.a.handle, b.a.frame, b.b.frame, b.plan.locked)
            for b in driver.built.values() if b.multibody is not None}
