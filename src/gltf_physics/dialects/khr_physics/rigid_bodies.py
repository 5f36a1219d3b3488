"""The KHR physics family, every generation (docs/semantics.md).

- gen0 ``KHR_rigid_bodies`` + ``KHR_collision_shapes`` (2023-08..11): collider/trigger ``shape`` indices,
  ``physicsJointLimits``, node ``joint.jointLimits``, spring names, UPPERCASE combine modes, schema defaults
  mass 1 / inertia [1,1,1].
- gen1 ``KHR_physics_rigid_bodies`` + ``KHR_collision_shapes``: ``convex``/``trimesh`` shapes, drives.
- gen2: ``mesh`` shapes with a shape-level ``convexHull`` flag.
- gen3 + ``KHR_implicit_shapes``: collider/trigger ``geometry {shape | node, convexHull}``; planes.
- gen4 (2026 revision): ``geometry {mesh, convexHull}`` — the form :func:`write` emits (docs/semantics.md).
"""

from __future__ import annotations

import math
from typing import Any

from ...model import (
    IDENTITY_QUAT,
    ZERO3,
    Body,
    Collider,
    CollisionFilter,
    CombineMode,
    MeshShape,
    Motion,
    MotionType,
    PhysicsMaterial,
    Shape,
    Trigger,
)
from ..common.context import ExtIndex, PendingJoint, ReadContext, WriteContext, array, index, num, to_float, vec
from ..registry import KHR_PHYSICS_FAMILY, KHR_RIGID_BODIES
from .shapes import BODIES_EXT, COLLISION_SHAPES, IMPLICIT_SHAPES, read_shapes

GEN0_EXT = KHR_RIGID_BODIES
EXTENSIONS: tuple[str, ...] = KHR_PHYSICS_FAMILY.extensions

GEN0 = "gen0-khr-rigid-bodies"
GEN1 = "gen1-collision-shapes"
GEN2 = "gen2-collision-shapes-mesh"
GEN3 = "gen3-implicit-shapes"
GEN4 = "gen4-geometry-mesh"


# ---------------------------------------------------------------- detection

def _present(index: ExtIndex) -> set[str]:
    """Extension names of this family the document uses (listed, or found on the document or a node)."""
    return {name for name in EXTENSIONS if name in index.used or index.named(name)}


def _node_parts(index: ExtIndex, body_ext: str) -> list[dict[str, Any]]:
    """Every collider/trigger object of ``body_ext`` on the nodes."""
    parts = []
    for _, ext in index.nodes_with(body_ext):  # the two keys unrolled: this runs once per physics node
        collider, trigger = ext.get("collider"), ext.get("trigger")
        if isinstance(collider, dict):
            parts.append(collider)
        if isinstance(trigger, dict):
            parts.append(trigger)
    return parts


def _generation(index: ExtIndex, present: set[str]) -> str:
    if GEN0_EXT in present:
        return GEN0
    parts = _node_parts(index, BODIES_EXT)
    geometries = False
    for p in parts:  # one pass: any geometry object, and the first with a mesh decides gen4
        g = p.get("geometry")
        if isinstance(g, dict):
            if "mesh" in g:
                return GEN4
            geometries = True
    if IMPLICIT_SHAPES in present or geometries:
        return GEN3
    if any(isinstance(s, dict) and (s.get("type") == "mesh" or BODIES_EXT in _object(s.get("extensions")))
           for s in array(index.doc(COLLISION_SHAPES), "shapes")):
        return GEN2
    if COLLISION_SHAPES in present or any("shape" in p for p in parts):
        return GEN1
    return GEN3  # a bare KHR_physics_rigid_bodies with neither shapes nor geometry: read as the PR form


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def detect(gltf_json: dict[str, Any], index: ExtIndex | None = None) -> dict[str, str]:
    """Extension name → generation id (README.md's table) for the body and the shape extension present."""
    index = index or ExtIndex(gltf_json)
    present = _present(index)
    if not present:
        return {}
    gen = _generation(index, present)
    return {name: gen for name in EXTENSIONS if name in present}


# ---------------------------------------------------------------- reading

class _Reader:
    """Reads a document's KHR physics into ``ctx.scene``: node order, then motion/collider/trigger/joint."""

    def __init__(self, ctx: ReadContext, gen: str) -> None:
        self.ctx = ctx
        self.gen = gen
        self.ext = GEN0_EXT if gen == GEN0 else BODIES_EXT
        self.doc = ctx.index.doc(self.ext) or {}
        self.doc_pointer = f"/extensions/{self.ext}"
        self.shape_ext = COLLISION_SHAPES if gen in (GEN0, GEN1, GEN2) else IMPLICIT_SHAPES
        self.shapes = read_shapes(ctx, self.shape_ext)
        # Materials/filters go after any another family already put there, so indices are offset.
        self.material_base = len(ctx.scene.materials)
        self.filter_base = len(ctx.scene.filters)
        self.n_materials = 0
        self.n_filters = 0
        self.motion_nodes: set[int] = set()
        self.owners: list[int | None] = []  # every node's nearest motion node (BODY-10 / docs/semantics.md)
        key = "physicsJointLimits" if gen == GEN0 else "physicsJoints"  # the spec vs the spec
        self.joint_settings = _joint_settings(ctx, self.doc, key, self.doc_pointer, gen == GEN0)
        self.pending: list[PendingJoint] = []  # joints read, built with their frames after every node
        self.motions: dict[str, Motion] = {}  # repr of a motion's JSON → its Motion (see _motion)

    def run(self) -> None:
        self._materials()
        self._filters()
        exts = self.ctx.index.nodes_with(self.ext)
        self.motion_nodes = {i for i, e in exts if isinstance(e.get("motion"), dict)}
        self.owners = self.ctx.nearest_table(self.motion_nodes)
        bodies = self.ctx.scene.bodies
        for i, ext in exts:
            p = f"/nodes/{i}/extensions/{self.ext}"
            get = ext.get  # four plain lookups: a generator here cost more than the lookups (per node)
            motion, collider, trigger, joint = get("motion"), get("collider"), get("trigger"), get("joint")
            if isinstance(motion, dict):
                bodies.append(Body(i, self._motion(motion), pointer=f"{p}/motion"))
            if isinstance(collider, dict):
                self._collider(i, collider, f"{p}/collider")
            if isinstance(trigger, dict):
                self._trigger(i, trigger, f"{p}/trigger")
            if isinstance(joint, dict):
                self._joint(i, joint, f"{p}/joint")
        self.ctx.add_joints(self.pending)

    # -- document resources

    def _materials(self) -> None:
        items = self.doc.get("physicsMaterials")
        for i, m in enumerate(items if isinstance(items, list) else []):
            m = m if isinstance(m, dict) else {}
            p = f"{self.doc_pointer}/physicsMaterials/{i}"
            self.ctx.scene.materials.append(PhysicsMaterial(
                static_friction=num(m, "staticFriction", 0.6),
                dynamic_friction=num(m, "dynamicFriction", 0.6),
                restitution=num(m, "restitution", 0.0),
                friction_combine=self._combine(m, "frictionCombine", p),
                restitution_combine=self._combine(m, "restitutionCombine", p),
                pointer=p,
            ))
            self.n_materials += 1

    def _combine(self, m: dict[str, Any], key: str, pointer: str) -> CombineMode | None:
        """gen0 spells modes in UPPERCASE; absent ⇒ None, which does not vote (D-12)."""
        v = m.get(key)
        if v is None:
            return None
        try:
            return CombineMode(v.lower() if isinstance(v, str) else v)
        except ValueError:
            self.ctx.note("D-12", f"{pointer}/{key}", f"combine mode {v!r} not understood; read as absent")
            return None

    def _filters(self) -> None:
        items = self.doc.get("collisionFilters")
        for i, f in enumerate(items if isinstance(items, list) else []):
            f = f if isinstance(f, dict) else {}
            self.ctx.scene.filters.append(CollisionFilter(
                collision_systems=_strings(f, "collisionSystems"),
                collide_with_systems=_strings(f, "collideWithSystems"),
                not_collide_with_systems=_strings(f, "notCollideWithSystems"),
                pointer=f"{self.doc_pointer}/collisionFilters/{i}",
            ))
            self.n_filters += 1

    # -- node parts

    def _motion(self, m: dict[str, Any]) -> Motion:
        """One Motion object per distinct motion JSON: a big scene's bodies mostly repeat a few motions, and a
        frozen Motion of nine fields costs more to build than the JSON takes to read. Keyed by the
        dict's ``repr``, which, unlike ``==``, tells 1 from 1.0 and True, and -0.0 from 0.0 (they read or
        write differently); the Motion is immutable, so sharing it is safe."""
        key = repr(m)
        motion = self.motions.get(key)
        if motion is None:
            motion = self.motions[key] = self._new_motion(m)
        return motion

    def _new_motion(self, m: dict[str, Any]) -> Motion:
        gen0 = self.gen == GEN0
        # gen0 schema defaults: mass 1, inertia [1,1,1], centre of mass at the origin (absent ≠ computed,
        # the spec); from gen1 on, absent means "computed from the colliders" (None). Each helper runs only for a
        # key present: most motions carry one or two of the eight, and this runs once per body.
        if gen0:
            mass = num(m, "mass", 1.0)
            inertia = vec(m, "inertiaDiagonal", (1.0,) * 3)
            com = vec(m, "centerOfMass", ZERO3)
        else:
            mass = _optional_num(m, "mass") if "mass" in m else None
            inertia = _optional_vec(m, "inertiaDiagonal", 3) if "inertiaDiagonal" in m else None
            com = _optional_vec(m, "centerOfMass", 3) if "centerOfMass" in m else None
        return Motion(
            type=MotionType.KINEMATIC if m.get("isKinematic") is True else MotionType.DYNAMIC,
            mass=math.inf if mass == 0 else mass,  # KRB-11, D-5: 0 = infinite
            center_of_mass=com,  # type: ignore[arg-type]
            inertia_diagonal=None if inertia is None else tuple(  # type: ignore[arg-type]
                math.inf if c == 0 else c for c in inertia),
            inertia_orientation=_vec_if(m, "inertiaOrientation", IDENTITY_QUAT),  # type: ignore[arg-type]
            linear_velocity=_vec_if(m, "linearVelocity", ZERO3),  # type: ignore[arg-type]
            angular_velocity=_vec_if(m, "angularVelocity", ZERO3),  # type: ignore[arg-type]
            gravity_factor=num(m, "gravityFactor", 1.0) if "gravityFactor" in m else 1.0,
        )

    def _body_of(self, node: int) -> int | None:
        """The nearest motion node at or above ``node`` (BODY-10 / docs/semantics.md); None = static."""
        return self.owners[node]

    def _material(self, obj: dict[str, Any], pointer: str) -> int | None:
        if obj.get("physicsMaterial") is None:  # absent: index() would say None too, one call fewer per part
            return None
        i = index(obj, "physicsMaterial", self.n_materials, self.ctx, pointer)
        return None if i is None else self.material_base + i

    def _filter(self, obj: dict[str, Any], pointer: str) -> int | None:
        if obj.get("collisionFilter") is None:
            return None
        i = index(obj, "collisionFilter", self.n_filters, self.ctx, pointer)
        return None if i is None else self.filter_base + i

    def _collider(self, node: int, c: dict[str, Any], pointer: str) -> None:
        g = c.get("geometry")
        s = g.get("shape") if isinstance(g, dict) else None
        if type(s) is int and 0 <= s < len(self.shapes):  # the usual geometry, as _geometry reads it
            shape: Shape | None = self.shapes[s]
        else:
            shape = self._geometry(c, pointer)
        if shape is None:
            return
        # most colliders have neither key: no call for them (this runs once per collider)
        material = self._material(c, pointer) if "physicsMaterial" in c else None
        filter_ = self._filter(c, pointer) if "collisionFilter" in c else None
        self.ctx.scene.colliders.append(Collider(
            node=node, shape=shape, body=self.owners[node], material=material, filter=filter_, pointer=pointer))

    def _trigger(self, node: int, t: dict[str, Any], pointer: str) -> None:
        if "nodes" in t:
            nodes = t.get("nodes") if isinstance(t.get("nodes"), list) else []
            members = tuple(self._node_index(n, f"{pointer}/nodes/{k}") for k, n in enumerate(nodes))
            self.ctx.scene.triggers.append(Trigger(
                node=node, nodes=members, body=self._body_of(node), filter=self._filter(t, pointer),
                pointer=pointer))
            return
        shape = self._geometry(t, pointer)
        if shape is None:
            return
        self.ctx.scene.triggers.append(Trigger(node=node, shape=shape, body=self._body_of(node),
                                               filter=self._filter(t, pointer), pointer=pointer))

    def _node_index(self, value: Any, pointer: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(self.ctx.nodes):
            raise self.ctx.error(pointer, f"node index {value!r} is outside 0..{len(self.ctx.nodes) - 1}")
        return value

    def _geometry(self, obj: dict[str, Any], pointer: str) -> Shape | None:
        """gen0–gen2 ``shape`` index; gen3+ ``geometry {shape | node | mesh, convexHull}`` (KRB-1..3)."""
        geometry = obj.get("geometry")
        if isinstance(geometry, dict):
            return self._geometry_object(geometry, f"{pointer}/geometry")
        if "shape" in obj:
            return self._shape_at(obj, pointer)
        self.ctx.note("KRB-1", pointer, "collider/trigger has no geometry; ignored")
        return None

    def _shape_at(self, obj: dict[str, Any], pointer: str) -> Shape | None:
        i = index(obj, "shape", len(self.shapes), self.ctx, pointer)
        return None if i is None else self.shapes[i]

    def _geometry_object(self, g: dict[str, Any], pointer: str) -> Shape | None:
        convex = g.get("convexHull") is True
        if "shape" in g:
            return self._shape_at(g, pointer)  # KRB-3: convexHull has no effect on implicit shapes
        if "mesh" in g:
            mesh = index(g, "mesh", self.ctx.count("meshes"), self.ctx, pointer)
            return None if mesh is None else MeshShape(convex=convex, mesh=mesh, pointer=pointer)
        if "node" in g:
            node = index(g, "node", len(self.ctx.nodes), self.ctx, pointer)
            return None if node is None else MeshShape(convex=convex, node=node, pointer=pointer)
        self.ctx.note("KRB-1", pointer, "geometry has none of shape/node/mesh; ignored")
        return None

    def _joint(self, node: int, j: dict[str, Any], pointer: str) -> None:
        settings_key = "jointLimits" if self.gen == GEN0 else "joint"
        settings = index(j, settings_key, len(self.joint_settings), self.ctx, pointer)
        connected = index(j, "connectedNode", len(self.ctx.nodes), self.ctx, pointer)
        if settings is None or connected is None:
            self.ctx.note("JOINT-1", pointer, f"joint needs '{settings_key}' and 'connectedNode'; ignored")
            return
        limits, drives = self.joint_settings[settings]
        body_a, body_b = self.owners[node], self.owners[connected]
        fields = {"body_a": body_a, "body_b": body_b, "limits": limits, "drives": drives,
                  "enable_collision": j.get("enableCollision") is True, "node": node,
                  "connected_node": connected, "settings_index": settings, "pointer": pointer}
        self.pending.append((fields, (body_a, node), (body_b, connected)))


def _strings(obj: dict[str, Any], key: str) -> tuple[str, ...]:
    v = obj.get(key)
    return tuple(s for s in v if isinstance(s, str)) if isinstance(v, list) else ()


def _optional_vec(obj: dict[str, Any], key: str, n: int) -> tuple[float, ...] | None:
    """Absent (or malformed) ⇒ None = "the engine computes it" (gen1 from the seed on, the spec)."""
    v = obj.get(key)
    if isinstance(v, list) and len(v) == n and all(_is_number(c) for c in v):
        return tuple(to_float(c) for c in v)
    return None


def _vec_if(obj: dict[str, Any], key: str, default: tuple[float, ...]) -> tuple[float, ...]:
    """:func:`~.base.vec`, with its checks skipped when the key is absent."""
    return vec(obj, key, default) if key in obj else default


def _optional_num(obj: dict[str, Any], key: str) -> float | None:
    v = obj.get(key)
    return to_float(v) if _is_number(v) else None


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def read(ctx: ReadContext) -> None:
    gens = ctx.generations(EXTENSIONS, detect)
    if not gens:
        return
    _Reader(ctx, next(iter(gens.values()))).run()


def _joint_settings(ctx: ReadContext, doc: dict[str, Any], key: str, pointer: str, gen0: bool) -> list[Any]:
    """The document's joint settings (limits, drives) by index; none when it has no ``key``. A file without
    joints then never imports the joint readers and model (`info`'s start-up)."""
    if key not in doc:
        return []
    from . import joints as khr_joints

    return khr_joints.read_settings(ctx, doc, key, pointer, gen0)


def write(ctx: WriteContext) -> None:
    """The newest KHR form (2026 revision, ``geometry.mesh``); see :mod:`.khr_write`."""
    from .write import write_khr  # here: reading (info, validate, simulate) never needs the writer

    write_khr(ctx)
