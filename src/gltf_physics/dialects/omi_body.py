"""The OMI core physics family: OMI_collider, OMI_physics_shape, OMI_physics_body, OMI_physics_joint.

Entry point of the family (``detect``, ``read``, ``write``). Every generation is read (DIGEST §0, §2–§5);
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

from ..model import Body, Collider, CollisionFilter, CombineMode, PhysicsMaterial, Shape, Trigger
from . import omi_collider, omi_joint, omi_shape
from .base import ReadContext, WriteContext, doc_ext, index, node_ext, num
from .omi_motion import motion

COLLIDER_EXT = omi_collider.COLLIDER_EXT
SHAPE_EXT = omi_shape.SHAPE_EXT
BODY_EXT = "OMI_physics_body"
JOINT_EXT = omi_joint.JOINT_EXT
EXTENSIONS: tuple[str, ...] = (COLLIDER_EXT, SHAPE_EXT, BODY_EXT, JOINT_EXT)

TYPE_GEN1, TYPE_GEN2 = "gen1-type", "gen2-type-dynamic"
MOTION_GEN3, MOTION_GEN4 = "gen3-motion", "gen4-materials"
MOTION_KEYS = ("motion", "collider", "trigger")


# ---------------------------------------------------------------- detection


def _present(gltf: dict[str, Any], name: str) -> bool:
    return doc_ext(gltf, name) is not None or any(
        node_ext(n, name) is not None for n in gltf.get("nodes") or []
    )


def _body_exts(gltf: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for n in gltf.get("nodes") or [] if (e := node_ext(n, BODY_EXT)) is not None]


def _has_gen4_keys(gltf: dict[str, Any], bodies: list[dict[str, Any]]) -> bool:
    doc = doc_ext(gltf, BODY_EXT) or {}
    if "physicsMaterials" in doc or "collisionFilters" in doc:
        return True
    for e in bodies:
        parts = {k: e.get(k) for k in MOTION_KEYS if isinstance(e.get(k), dict)}
        if "gravityFactor" in (parts.get("motion") or {}):
            return True
        if any(k in (parts.get("collider") or {}) for k in ("physicsMaterial", "collisionFilter")):
            return True
        if "collisionFilter" in (parts.get("trigger") or {}):
            return True
    return False


def _uses_vehicles(gltf: dict[str, Any]) -> bool:
    """OMI_vehicle_* appeared 2025-01-03, after body gen4 (2024-11-29)."""
    used = gltf.get("extensionsUsed")
    return isinstance(used, list) and any(isinstance(e, str) and e.startswith("OMI_vehicle_") for e in used)


def detect(gltf: dict[str, Any]) -> dict[str, str]:
    """Extension → generation id (DIGEST §0) for the family's extensions present in the file."""
    found: dict[str, str] = {}
    if _present(gltf, COLLIDER_EXT):
        found[COLLIDER_EXT] = "gen1"
    joint_gen = omi_joint.detect(gltf)
    bodies = _body_exts(gltf)
    type_era = any("type" in e for e in bodies)
    node_level = any(node_ext(n, SHAPE_EXT) is not None for n in gltf.get("nodes") or [])
    shape_gen = (
        omi_shape.content_generation(gltf, node_level or type_era) if _present(gltf, SHAPE_EXT) else None
    )
    body_gen = None
    if type_era:
        kinds = {t for e in bodies if isinstance(t := e.get("type"), str)}
        body_gen = (
            TYPE_GEN1 if kinds & {"rigid", "character", "vehicle"} or "dynamic" not in kinds else TYPE_GEN2
        )
    elif _present(gltf, BODY_EXT):
        if (
            _has_gen4_keys(gltf, bodies)
            or shape_gen == omi_shape.GEN4_TAPERED
            or joint_gen == omi_joint.GEN2
            or _uses_vehicles(gltf)
        ):
            body_gen = MOTION_GEN4
        elif shape_gen == omi_shape.GEN3_SUBJSON or joint_gen == omi_joint.GEN1:
            body_gen = MOTION_GEN3
        else:
            body_gen = MOTION_GEN4
    if _present(gltf, SHAPE_EXT):
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
    gens = detect(ctx.gltf)
    if not gens:
        return
    shape_gen = gens.get(SHAPE_EXT)
    shapes = omi_shape.read_shapes(ctx, shape_gen) if shape_gen else []
    if shape_gen:
        ctx.omi_shapes = shapes
    elif COLLIDER_EXT in gens:
        ctx.omi_shapes = [s for s, _ in omi_collider.read_collider_shapes(ctx)]
    if gens.get(BODY_EXT) in (TYPE_GEN1, TYPE_GEN2) or COLLIDER_EXT in gens or _has_node_level_shapes(ctx):
        omi_collider.read(ctx, shapes, shape_gen)
    _read_motion_era(ctx, shapes)
    joint_gen = gens.get(JOINT_EXT)
    if joint_gen:
        motion_nodes = {b.node for b in ctx.scene.bodies}
        omi_joint.read(ctx, joint_gen, lambda n: omi_collider.nearest(ctx, n, motion_nodes, strict=False))


def _has_node_level_shapes(ctx: ReadContext) -> bool:
    return any(node_ext(n, SHAPE_EXT) is not None for n in ctx.nodes)


def _read_motion_era(ctx: ReadContext, shapes: list[Shape | None]) -> None:
    """gen3/gen4: ``motion``/``collider``/``trigger`` on nodes; ownership by BODY-10."""
    materials, filters = _read_doc_resources(ctx)
    exts = [
        (i, e)
        for i, n in enumerate(ctx.nodes)
        if (e := node_ext(n, BODY_EXT)) is not None and any(k in e for k in MOTION_KEYS)
    ]
    for i, e in exts:
        if isinstance(e.get("motion"), dict):
            pointer = f"/nodes/{i}/extensions/{BODY_EXT}"
            ctx.scene.bodies.append(
                Body(node=i, motion=motion(ctx, e["motion"], f"{pointer}/motion"), pointer=pointer)
            )
    motion_nodes = {b.node for b in ctx.scene.bodies}
    for i, e in exts:
        pointer = f"/nodes/{i}/extensions/{BODY_EXT}"
        owner = omi_collider.nearest(ctx, i, motion_nodes, strict=False)  # BODY-10
        if isinstance(e.get("collider"), dict):
            _collider(ctx, i, e["collider"], f"{pointer}/collider", owner, shapes, materials, filters)
        if isinstance(e.get("trigger"), dict):
            _trigger(ctx, i, e["trigger"], f"{pointer}/trigger", owner, shapes, filters, motion_nodes)


def _read_doc_resources(ctx: ReadContext) -> tuple[int, int]:
    """gen4 physicsMaterials and collisionFilters; returns the scene-list offsets of this file's index 0."""
    doc = doc_ext(ctx.gltf, BODY_EXT) or {}
    base = f"/extensions/{BODY_EXT}"
    m0, f0 = len(ctx.scene.materials), len(ctx.scene.filters)
    for k, m in enumerate(_array(doc, "physicsMaterials")):
        ctx.scene.materials.append(
            _material(ctx, m if isinstance(m, dict) else {}, f"{base}/physicsMaterials/{k}")
        )
    for k, f in enumerate(_array(doc, "collisionFilters")):
        f = f if isinstance(f, dict) else {}
        ctx.scene.filters.append(
            CollisionFilter(
                collision_systems=_strings(f, "collisionSystems"),
                collide_with_systems=_strings(f, "collideWithSystems"),
                not_collide_with_systems=_strings(f, "notCollideWithSystems"),
                pointer=f"{base}/collisionFilters/{k}",
            )
        )
    return m0, f0


def _array(obj: dict[str, Any], key: str) -> list[Any]:
    v = obj.get(key)
    return v if isinstance(v, list) else []


def _strings(obj: dict[str, Any], key: str) -> tuple[str, ...]:
    v = obj.get(key)
    return tuple(s for s in v if isinstance(s, str)) if isinstance(v, list) else ()


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
    """OMI's text default is ``average`` (DIGEST §3.2), so an absent mode is an explicit average here."""
    v = m.get(key, "average")
    try:
        return CombineMode(v)
    except ValueError:
        ctx.note("BODY-9", f"{pointer}/{key}", f"combine mode {v!r} not understood; read as average")
        return CombineMode.AVERAGE


def _shape(ctx: ReadContext, obj: dict[str, Any], pointer: str, shapes: list[Shape | None]) -> Shape | None:
    k = index(obj, "shape", len(shapes), ctx, pointer)  # -1 ⇒ absent with a GEN-3 note (D-1)
    return shapes[k] if k is not None else None


def _resource(ctx: ReadContext, obj: dict[str, Any], key: str, offset: int, pointer: str) -> int | None:
    doc = doc_ext(ctx.gltf, BODY_EXT) or {}
    array = _array(doc, "physicsMaterials" if key == "physicsMaterial" else "collisionFilters")
    k = index(obj, key, len(array), ctx, pointer)
    return None if k is None else offset + k


def _collider(
    ctx: ReadContext,
    node: int,
    obj: dict[str, Any],
    pointer: str,
    owner: int | None,
    shapes: list[Shape | None],
    materials: int,
    filters: int,
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
            material=_resource(ctx, obj, "physicsMaterial", materials, pointer),
            filter=_resource(ctx, obj, "collisionFilter", filters, pointer),
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
    filters: int,
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
            filter=_resource(ctx, obj, "collisionFilter", filters, pointer),
            implicit=implicit,
            pointer=pointer,
        )
    )


def _member_nodes(ctx: ReadContext, obj: dict[str, Any], pointer: str) -> tuple[int, ...] | None:
    v = obj.get("nodes")
    if v is None:
        return None
    good = (
        tuple(n for n in v if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < len(ctx.nodes))
        if isinstance(v, list)
        else ()
    )
    if not isinstance(v, list) or len(good) != len(v):
        ctx.note("BODY-7", f"{pointer}/nodes", "invalid entries in 'nodes' ignored")
    return good


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
        trig = (node_ext(ctx.nodes[n], BODY_EXT) or {}).get("trigger")
        if isinstance(trig, dict) and "shape" in trig:
            out.append(n)
        stack.extend(reversed(_children(ctx, n)))
    return tuple(out)


def _children(ctx: ReadContext, node: int) -> list[int]:
    kids = ctx.nodes[node].get("children") if isinstance(ctx.nodes[node], dict) else None
    return [
        c for c in kids or [] if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(ctx.nodes)
    ]


# ---------------------------------------------------------------- writing


def write(ctx: WriteContext) -> None:
    from . import omi_write

    omi_write.write(ctx)
