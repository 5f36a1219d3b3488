"""Static partners of joint sides without a body (JOINT-9): the colliders a joint must be able to keep apart.

A joint side without a body is the world, but its file node may sit among static colliders (a door frame, a
wall); for ``enableCollision`` false to keep the jointed body out of them, those colliders hang on one fixed
body per partner group (a position in the hierarchy), which the joint driver then uses as that side
(``rw.joint_anchor``), frame relative to it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import rapier3d as rp

from ...geometry.frames import body_frame
from ...gltf.hierarchy import ancestors, parents
from ...gltf.transforms import matrix_to_quat


def joint_partners(rw: Any) -> dict[int, int]:
    """JOINT-9 for joint sides without a body: static collider node → its partner group node.

    A side's partner group is the nearest ancestor-or-self of the side's node whose subtree holds a
    static (body None, not animated) collider; those colliders hang on one fixed body per group
    (:func:`partner_parent`) so the joint's contact exclusion reaches them. A group inside another merges
    into the outer one (a collider has one body). Fills ``joint_anchor`` (side node → (fixed body
    handle, group node)) for the joint driver. Scenes without such joints change nothing.
    """
    rw.joint_anchor = {}
    nodes = rw.doc_json.get("nodes") or []
    statics = {c.node for c in rw.scene.colliders if c.body is None and 0 <= c.node < len(nodes)
               and (rw.animation is None or not rw.animation.animated_within(c.node))}
    sides = [s for s in _bodiless_sides(rw) if 0 <= s < len(nodes)]
    if not statics or not sides:
        return {}
    parent_of = parents(rw.doc_json)
    covered: set[int] = set()  # nodes whose subtree (self included) holds a static collider
    for c in statics:
        covered.add(c)
        covered.update(ancestors(parent_of, c))
    side_group = {s: next((a for a in (s, *ancestors(parent_of, s)) if a in covered), None) for s in sides}
    groups = {g for g in side_group.values() if g is not None}

    def outer(node: int) -> int | None:  # the outermost group at or above node
        found = None
        for a in (node, *ancestors(parent_of, node)):
            if a in groups:
                found = a
        return found

    for side, group in side_group.items():
        if group is not None:
            top = outer(group)
            rw.joint_anchor[side] = (partner_body(rw, top), top)  # type: ignore[arg-type]
    return {c: g for c in statics if (g := outer(c)) is not None}


def _bodiless_sides(rw: Any) -> list[int]:
    """The node of every joint side without a body (a node that is not a body, or the side's node)."""
    out = []
    for j in rw.scene.joints:
        for body, node in ((j.body_a, j.node), (j.body_b, j.connected_node)):
            if body is not None and body in rw.handle_of:
                continue
            side = body if body is not None else node
            if side is not None:
                out.append(side)
    return out


def partner_body(rw: Any, group: int) -> rp.RigidBodyHandle:
    """The one fixed body of a partner group, at the group node's world pose without scale."""
    handle = rw._partner.get(group)
    if handle is None:
        frame = body_frame(rw._world_m[group])
        builder = rp.RigidBody.fixed().position((tuple(frame[:3, 3]), matrix_to_quat(frame[:3, :3])))
        handle = rw._partner[group] = rw.world.add_body(builder)
    return handle


def partner_parent(rw: Any, group: int, node: int) -> tuple[rp.RigidBodyHandle, np.ndarray]:
    """A static collider of a partner group: on the group's fixed body, pose relative to it."""
    return partner_body(rw, group), np.linalg.inv(body_frame(rw._world_m[group])) @ rw._world_m[node]
