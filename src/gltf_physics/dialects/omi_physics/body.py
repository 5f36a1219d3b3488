"""The OMI core physics family: OMI_collider, OMI_physics_shape, OMI_physics_body, OMI_physics_joint.

Entry point of the family (``detect``, ``read``, ``write``). Every generation is read (README.md lists them);
the newest is written (shape gen4, body gen4, joint gen2; ``omi_write``).

Generation detection decides from content. Where the content fits several generations:

- body ``type`` with only static/kinematic/trigger: gen1-type and gen2-type-dynamic read the same; the
  earliest consistent with the file is taken, which is always gen1-type (OMI_collider and gen1/gen2 shapes
  all coexisted with it).
- body ``motion``/``collider``/``trigger``: gen4-materials when a gen4-only key is present
  (physicsMaterials, collisionFilters, physicsMaterial/collisionFilter references, gravityFactor), when the
  shapes are gen4, when the joints are gen2 (merged the same day as body gen4), or when OMI_vehicle_* is used
  (2025); gen3-motion when the shapes are gen3 (capsule or cylinder ``radius``) or the joints are the
  seed form; otherwise gen4 (nothing distinguishes them, and the newest reading is the one a gen4
  writer's output must get back).
- shapes with only boxes, spheres and meshes: gen3-subjson when the body is gen3-motion, else gen4-tapered.
"""

from __future__ import annotations

from typing import Any

from ...model import Body, Collider, CollisionFilter, CombineMode, PhysicsMaterial, Shape, Trigger
from ..common.context import ExtIndex, ReadContext, WriteContext, array, index, node_ext, num
from ..registry import OMI_PHYSICS_BODY, OMI_PHYSICS_FAMILY
from . import collider as omi_collider
from . import joint as omi_joint
from . import shape as omi_shape
from .motion import motion

COLLIDER_EXT = omi_collider.COLLIDER_EXT
SHAPE_EXT = omi_shape.SHAPE_EXT
BODY_EXT = OMI_PHYSICS_BODY
JOINT_EXT = omi_joint.JOINT_EXT
EXTENSIONS: tuple[str, ...] = OMI_PHYSICS_FAMILY.extensions

TYPE_GEN1, TYPE_GEN2 = "gen1-type", "gen2-type-dynamic"
MOTION_GEN3, MOTION_GEN4 = "gen3-motion", "gen4-materials"
MOTION_KEYS = ("motion", "collider", "trigger")


# ---------------------------------------------------------------- detection


def _body_exts(index: ExtIndex) -> list[dict[str, Any]]:
    return [e for _, e in index.nodes_with(BODY_EXT)]


def _has_gen4_keys(index: ExtIndex, bodies: list[dict[str, Any]]) -> bool:
    doc = index.doc(BODY_EXT) or {}
    if "physicsMaterials" in doc or "collisionFilters" in doc:
        return True
    for e in bodies:
        motion, collider, trigger = e.get("motion"), e.get("collider"), e.get("trigger")
        if isinstance(motion, dict) and "gravityFactor" in motion:
            return True
        if isinstance(collider, dict) and ("physicsMaterial" in collider or "collisionFilter" in collider):
            return True
        if isinstance(trigger, dict) and "collisionFilter" in trigger:
            return True
    return False


def _uses_vehicles(index: ExtIndex) -> bool:
    """OMI_vehicle_* appeared 2025-01-03, after body gen4 (2024-11-29)."""
    return any(e.startswith("OMI_vehicle_") for e in index.used)


def detect(gltf: dict[str, Any], index: ExtIndex | None = None) -> dict[str, str]:
    """Extension → generation id (README.md's table) for the family's extensions present in the file.

    ``index`` is the document's :class:`~.base.ExtIndex` when the caller already has one.
    """
    index = index or ExtIndex(gltf)
    found: dict[str, str] = {}
    if index.present(COLLIDER_EXT):
        found[COLLIDER_EXT] = "gen1"
    joint_gen = omi_joint.detect(gltf, index)
    bodies = _body_exts(index)
    type_era = any("type" in e for e in bodies)
    node_level = bool(index.nodes_with(SHAPE_EXT))
    shape_present = index.present(SHAPE_EXT)
    shape_gen = omi_shape.content_generation(gltf, node_level or type_era) if shape_present else None
    body_gen = None
    if type_era:
        kinds = {t for e in bodies if isinstance(t := e.get("type"), str)}
        body_gen = (
            TYPE_GEN1 if kinds & {"rigid", "character", "vehicle"} or "dynamic" not in kinds else TYPE_GEN2
        )
    elif index.present(BODY_EXT):
        if (
            _has_gen4_keys(index, bodies)
            or shape_gen == omi_shape.GEN4_TAPERED
            or joint_gen == omi_joint.GEN2
            or _uses_vehicles(index)
        ):
            body_gen = MOTION_GEN4
        elif shape_gen == omi_shape.GEN3_SUBJSON or joint_gen == omi_joint.GEN1:
            body_gen = MOTION_GEN3
        else:
            body_gen = MOTION_GEN4
    if shape_present:
        found[SHAPE_EXT] = shape_gen or (
            omi_shape.GEN3_SUBJSON if body_gen == MOTION_GEN3 else omi_shape.GEN4_TAPERED
        )
    if body_gen is not None:
        found[BODY_EXT] = body_gen
    if joint_gen is not None:
        found[JOINT_EXT] = joint_gen
    return found


# ---------------------------------------------------------------- reading


def read(ctx: ReadContext) -> None:
    gens = ctx.generations(EXTENSIONS, detect)
    if not gens:
        return
    shape_gen = gens.get(SHAPE_EXT)
    shapes = omi_shape.read_shapes(ctx, shape_gen) if shape_gen else []
    if shape_gen:
        ctx.omi_shapes = shapes
    elif COLLIDER_EXT in gens:
        ctx.omi_shapes = [s for s, _ in omi_collider.read_collider_shapes(ctx)]
    type_era = gens.get(BODY_EXT) in (TYPE_GEN1, TYPE_GEN2)
    if type_era or COLLIDER_EXT in gens or ctx.index.nodes_with(SHAPE_EXT):
        omi_collider.read(ctx, shapes, shape_gen)
    _read_motion_era(ctx, shapes)
    joint_gen = gens.get(JOINT_EXT)
    if joint_gen:
        owners = ctx.nearest_table({b.node for b in ctx.scene.bodies})
        omi_joint.read(ctx, joint_gen, owners.__getitem__)


class _Resources:
    """gen4 physicsMaterials and collisionFilters: where this file's index 0 lands in the scene lists, and
    how many the file has (read once, not per collider)."""

    def __init__(self, ctx: ReadContext) -> None:
        doc = ctx.index.doc(BODY_EXT) or {}
        base = f"/extensions/{BODY_EXT}"
        self.material0, self.filter0 = len(ctx.scene.materials), len(ctx.scene.filters)
        materials, filters = array(doc, "physicsMaterials"), array(doc, "collisionFilters")
        self.n_materials, self.n_filters = len(materials), len(filters)
        for k, m in enumerate(materials):
            ctx.scene.materials.append(
                _material(ctx, m if isinstance(m, dict) else {}, f"{base}/physicsMaterials/{k}")
            )
        for k, f in enumerate(filters):
            f = f if isinstance(f, dict) else {}
            ctx.scene.filters.append(
                CollisionFilter(
                    collision_systems=_strings(f, "collisionSystems"),
                    collide_with_systems=_strings(f, "collideWithSystems"),
                    not_collide_with_systems=_strings(f, "notCollideWithSystems"),
                    pointer=f"{base}/collisionFilters/{k}",
                )
            )

    def material(self, ctx: ReadContext, obj: dict[str, Any], pointer: str) -> int | None:
        if "physicsMaterial" not in obj:
            return None
        k = index(obj, "physicsMaterial", self.n_materials, ctx, pointer)
        return None if k is None else self.material0 + k

    def filter(self, ctx: ReadContext, obj: dict[str, Any], pointer: str) -> int | None:
        if "collisionFilter" not in obj:
            return None
        k = index(obj, "collisionFilter", self.n_filters, ctx, pointer)
        return None if k is None else self.filter0 + k


def _read_motion_era(ctx: ReadContext, shapes: list[Shape | None]) -> None:
    """gen3/gen4: ``motion``/``collider``/``trigger`` on nodes; ownership by BODY-10."""
    resources = _Resources(ctx)
    exts = [(i, e) for i, e in ctx.index.nodes_with(BODY_EXT) if "motion" in e or "collider" in e
            or "trigger" in e]
    bodies = ctx.scene.bodies
    for i, e in exts:
        m = e.get("motion")
        if isinstance(m, dict):
            pointer = f"/nodes/{i}/extensions/{BODY_EXT}"
            bodies.append(Body(node=i, motion=motion(ctx, m, f"{pointer}/motion"), pointer=pointer))
    motion_nodes = {b.node for b in bodies}
    owners = ctx.nearest_table(motion_nodes)  # BODY-10, one pass over the hierarchy
    for i, e in exts:
        collider, trigger = e.get("collider"), e.get("trigger")
        if isinstance(collider, dict):
            pointer = f"/nodes/{i}/extensions/{BODY_EXT}/collider"
            _collider(ctx, i, collider, pointer, owners[i], shapes, resources)
        if isinstance(trigger, dict):
            pointer = f"/nodes/{i}/extensions/{BODY_EXT}/trigger"
            _trigger(ctx, i, trigger, pointer, owners[i], shapes, resources, motion_nodes)


def _strings(obj: dict[str, Any], key: str) -> tuple[str, ...]:
    return tuple(s for s in array(obj, key) if isinstance(s, str))


def _material(ctx: ReadContext, m: dict[str, Any], pointer: str) -> PhysicsMaterial:
    return PhysicsMaterial(
        static_friction=num(m, "staticFriction", 0.6),
        dynamic_friction=num(m, "dynamicFriction", 0.6),
        restitution=num(m, "restitution", 0.0),
        friction_combine=_combine(ctx, m, "frictionCombine", pointer),
        restitution_combine=_combine(ctx, m, "restitutionCombine", pointer),
        pointer=pointer,
    )


def _combine(ctx: ReadContext, m: dict[str, Any], key: str, pointer: str) -> CombineMode:
    """OMI's text default is ``average`` (the spec), so an absent mode is an explicit average here."""
    v = m.get(key, "average")
    if isinstance(v, str) and v in _COMBINE_MODES:
        return _COMBINE_MODES[v]
    ctx.note("BODY-9", f"{pointer}/{key}", f"combine mode {v!r} not understood; read as average")
    return CombineMode.AVERAGE


_COMBINE_MODES = {m.value: m for m in CombineMode}


def _shape(ctx: ReadContext, obj: dict[str, Any], pointer: str, shapes: list[Shape | None]) -> Shape | None:
    k = index(obj, "shape", len(shapes), ctx, pointer)  # -1 ⇒ absent with a GEN-3 note (D-1)
    return shapes[k] if k is not None else None


def _collider(
    ctx: ReadContext,
    node: int,
    obj: dict[str, Any],
    pointer: str,
    owner: int | None,
    shapes: list[Shape | None],
    resources: _Resources,
) -> None:
    if "shape" not in obj:
        return  # `"collider": {}` groups descendant colliders into one compound: no collider of its own
    shape = _shape(ctx, obj, pointer, shapes)
    if shape is None:
        return
    ctx.scene.colliders.append(
        Collider(
            node=node,
            shape=shape,
            body=owner,
            material=resources.material(ctx, obj, pointer),
            filter=resources.filter(ctx, obj, pointer),
            pointer=pointer,
        )
    )


def _trigger(
    ctx: ReadContext,
    node: int,
    obj: dict[str, Any],
    pointer: str,
    owner: int | None,
    shapes: list[Shape | None],
    resources: _Resources,
    motion_nodes: set[int],
) -> None:
    shape = _shape(ctx, obj, pointer, shapes) if "shape" in obj else None
    nodes = _member_nodes(ctx, obj, pointer)
    implicit = False
    if shape is None and nodes is None:
        # D-3: the pre-2024-02-29 `"trigger": {}` combines the descendant triggers (BODY-5).
        ctx.note(
            "BODY-5",
            pointer,
            "trigger has neither 'shape' nor 'nodes'; read as a compound of the descendant triggers (D-3)",
        )
        nodes, implicit = _descendant_triggers(ctx, node, motion_nodes), True
    elif shape is not None and nodes is not None:
        ctx.note("BODY-5", pointer, "trigger has both 'shape' and 'nodes'")
    ctx.scene.triggers.append(
        Trigger(
            node=node,
            shape=shape,
            nodes=nodes,
            body=owner,
            filter=resources.filter(ctx, obj, pointer),
            implicit=implicit,
            pointer=pointer,
        )
    )


def _member_nodes(ctx: ReadContext, obj: dict[str, Any], pointer: str) -> tuple[int, ...] | None:
    v = obj.get("nodes")
    if v is None:
        return None
    n = len(ctx.nodes)
    good = tuple(k for k in v if _is_index(k, n)) if isinstance(v, list) else ()
    if not isinstance(v, list) or len(good) != len(v):
        ctx.note("BODY-7", f"{pointer}/nodes", "invalid entries in 'nodes' ignored")
    return good


def _is_index(value: Any, length: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < length


def _descendant_triggers(ctx: ReadContext, node: int, motion_nodes: set[int]) -> tuple[int, ...]:
    """Descendants with their own ``trigger.shape``, not crossing a nested motion (an independent body)."""
    out: list[int] = []
    stack = list(reversed(_children(ctx, node)))
    seen = {node}
    while stack:
        n = stack.pop()
        if n in seen or n in motion_nodes:
            continue
        seen.add(n)
        body = node_ext(ctx.nodes[n], BODY_EXT)
        trig = body.get("trigger") if body is not None else None
        if isinstance(trig, dict) and "shape" in trig:
            out.append(n)
        stack.extend(reversed(_children(ctx, n)))
    return tuple(out)


def _children(ctx: ReadContext, node: int) -> list[int]:
    n = len(ctx.nodes)
    return [c for c in array(ctx.nodes[node], "children") if _is_index(c, n)]


# ---------------------------------------------------------------- writing


def write(ctx: WriteContext) -> None:
    from . import write as omi_write

    omi_write.write(ctx)
