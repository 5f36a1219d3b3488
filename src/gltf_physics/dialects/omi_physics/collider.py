"""The body ``type`` era (gen1/gen2 of the spec): OMI_collider and node-level OMI_physics_shape.

Bodies carry ``type`` (static/kinematic/character/rigid/vehicle/dynamic/trigger); shapes sit on nodes via
``OMI_collider: {collider}`` or ``OMI_physics_shape: {shape}`` and belong to a body by position:

- BT-5 (OMI_collider, and gen1-flat OMI_physics_shape, both before 2023-08-10): a shape belongs to the body on
  its own node or its **direct parent**; elsewhere it is static.
- BT-7 (OMI_physics_shape from 2023-08-10: the gen1-type fixtures at 0b4f73b already nest shapes under
  intermediary nodes): the body on its own node or the **nearest ancestor** body.

A ``trigger`` body has no motion; the shapes it owns become triggers and, when they sit on descendants, the
body node becomes a compound trigger of them (``implicit``), which is how the newest examples converted
these files (``"trigger": {}`` on the former trigger body). A collider's own ``isTrigger`` is kept per
collider (BT-6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...model import Body, Collider, Shape, Trigger
from ..common.context import ReadContext, array
from ..registry import OMI_COLLIDER, OMI_PHYSICS_BODY
from . import shape as omi_shape
from .motion import LEGACY_TYPES, legacy_motion

COLLIDER_EXT = OMI_COLLIDER
BODY_EXT = OMI_PHYSICS_BODY


def read_collider_shapes(ctx: ReadContext) -> list[tuple[Shape | None, bool]]:
    """OMI_collider document colliders by index: (shape, isTrigger)."""
    out: list[tuple[Shape | None, bool]] = []
    for i, c in enumerate(array(ctx.index.doc(COLLIDER_EXT), "colliders")):
        pointer = f"/extensions/{COLLIDER_EXT}/colliders/{i}"
        shape = omi_shape.read_shape(ctx, c, pointer, "omi-collider")  # capsule height is total (COL-7)
        out.append((shape, isinstance(c, dict) and c.get("isTrigger") is True))
    return out


@dataclass(frozen=True)
class _Placed:
    node: int
    shape: Shape
    trigger: bool
    direct_only: bool  # BT-5
    pointer: str


def read(ctx: ReadContext, shapes: list[Shape | None], shape_gen: str | None) -> None:
    trigger_bodies = _read_bodies(ctx)
    placed = _placed_shapes(ctx, shapes, shape_gen)
    motion_nodes = {b.node for b in ctx.scene.bodies}
    owners = ctx.nearest_table(motion_nodes | trigger_bodies)
    members: dict[int, list[int]] = {t: [] for t in trigger_bodies}
    for p in placed:
        owner = _owner(ctx, p, owners)
        if owner in trigger_bodies:
            body = nearest(ctx, owner, motion_nodes, strict=True)
            ctx.scene.triggers.append(Trigger(node=p.node, shape=p.shape, body=body, pointer=p.pointer))
            if owner != p.node:
                members[owner].append(p.node)
        elif p.trigger:
            ctx.scene.triggers.append(Trigger(node=p.node, shape=p.shape, body=owner, pointer=p.pointer))
        else:
            ctx.scene.colliders.append(Collider(node=p.node, shape=p.shape, body=owner, pointer=p.pointer))
    for t, nodes in members.items():
        _compound(ctx, t, nodes, motion_nodes)
    ctx.scene.triggers.sort(key=lambda tr: tr.node)  # document order (stable within a node)


def _read_bodies(ctx: ReadContext) -> set[int]:
    """Bodies with motion go into the scene; the nodes of ``trigger`` bodies are returned."""
    triggers: set[int] = set()
    for i, ext in ctx.index.nodes_with(BODY_EXT):
        if "type" not in ext:
            continue
        pointer = f"/nodes/{i}/extensions/{BODY_EXT}"
        kind = ext.get("type")
        if not isinstance(kind, str):
            ctx.note("BT-1", f"{pointer}/type", f"body type {kind!r} is not a string; body ignored")
        elif kind == "trigger":
            triggers.add(i)
        elif kind in LEGACY_TYPES:
            ctx.scene.bodies.append(Body(node=i, motion=legacy_motion(ctx, ext, pointer), pointer=pointer))
        else:
            ctx.note("BT-1", f"{pointer}/type", f"body type {kind!r} is not understood; body ignored")
    return triggers


def _placed_shapes(ctx: ReadContext, shapes: list[Shape | None], shape_gen: str | None) -> list[_Placed]:
    colliders = read_collider_shapes(ctx) if ctx.index.doc(COLLIDER_EXT) is not None else []
    on_node = {COLLIDER_EXT: dict(ctx.index.nodes_with(COLLIDER_EXT)),
               omi_shape.SHAPE_EXT: dict(ctx.index.nodes_with(omi_shape.SHAPE_EXT))}
    out: list[_Placed] = []
    for i in sorted(on_node[COLLIDER_EXT].keys() | on_node[omi_shape.SHAPE_EXT].keys()):  # node order
        c = on_node[COLLIDER_EXT].get(i)
        if c is not None:
            pointer = f"/nodes/{i}/extensions/{COLLIDER_EXT}/collider"
            k = _index(ctx, c.get("collider"), len(colliders), pointer, "COL-3")
            if k is not None and colliders[k][0] is not None:
                shape, is_trigger = colliders[k]
                out.append(_Placed(i, shape, is_trigger, True, pointer))  # type: ignore[arg-type]
        s = on_node[omi_shape.SHAPE_EXT].get(i)
        if s is not None:
            pointer = f"/nodes/{i}/extensions/{omi_shape.SHAPE_EXT}/shape"
            k = _index(ctx, s.get("shape"), len(shapes), pointer, "GEN-2")
            if k is not None and shapes[k] is not None:
                out.append(_Placed(i, shapes[k], False, shape_gen == omi_shape.GEN1_FLAT, pointer))  # type: ignore[arg-type]
    return out


def _index(ctx: ReadContext, value: Any, length: int, pointer: str, code: str) -> int | None:
    if value == -1:
        ctx.note("GEN-3", pointer, "-1 read as absent (D-1)")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < length:
        ctx.note(code, pointer, f"index {value!r} is not valid; shape ignored")
        return None
    return value


def _owner(ctx: ReadContext, p: _Placed, owners: list[int | None]) -> int | None:
    """``owners``: each node's nearest body node, itself included (a :meth:`ReadContext.nearest_table`)."""
    owner = owners[p.node]
    if not p.direct_only:
        return owner  # BT-7
    if owner is not None and owner in (p.node, ctx.parent_of[p.node]):
        return owner
    if owner is not None:
        ctx.note(
            "BT-5", p.pointer, "collider is not a direct child of its body; read as static (OMI_collider era)"
        )
    return None


def nearest(ctx: ReadContext, node: int, candidates: set[int], strict: bool) -> int | None:
    """The node itself (unless ``strict``) or its nearest ancestor that is in ``candidates``."""
    if not strict and node in candidates:
        return node
    return next((a for a in ctx.ancestors(node) if a in candidates), None)


def _compound(ctx: ReadContext, node: int, members: list[int], motion_nodes: set[int]) -> None:
    """A trigger body whose shapes sit below it is one compound trigger of them (docs/interop.md, D-3)."""
    pointer = f"/nodes/{node}/extensions/{BODY_EXT}"
    own_shape = any(t.node == node for t in ctx.scene.triggers)
    if not members:
        if not own_shape:
            ctx.note("BT-3", pointer, "trigger body owns no shape; it detects nothing")
        return
    if own_shape:
        ctx.note(
            "BODY-5",
            pointer,
            "trigger body has a shape on its own node and below it; the shapes "
            "below are read as separate triggers",
        )
        return
    body = nearest(ctx, node, motion_nodes, strict=True)
    ctx.scene.triggers.append(
        Trigger(node=node, nodes=tuple(sorted(members)), body=body, implicit=True, pointer=pointer)
    )
