"""Write a scene as the newest OMI: OMI_physics_shape gen4, OMI_physics_body gen4, OMI_physics_joint gen2.

Defaults the reader infers are omitted (mass 1.0 included), except where a default changed across
generations (capsule height meaning, joint limit range and damping: written). What OMI cannot say is
written as the nearest thing it can and recorded as a Loss:

- infinite mass (KHR ``mass: 0``, KRB-11): a dynamic body becomes ``kinematic`` (KHR's own meaning of
  infinite mass: unmoved by contacts, keeps its velocity), mass 1.0;
- computed mass (KHR absent): the mass the runtime computes, density ``DENSITY`` over the collider volumes
  (docs/semantics.md; docs/interop.md), written with a Loss since the density is an engine
  choice;
- computed centre of mass (KHR absent): OMI reads an absent one as the node origin, so the centre the
  colliders give is written (geometry alone fixes it: no loss);
- infinite inertia components (KRB-11): written as ``HUGE_INERTIA`` kg·m²;
- a combine mode the source left absent (KHR: does not vote, D-12): every material is written with both
  modes (``combine_modes``: the mode keeping every pair's outcome; OMI's own absent mode is a voting
  ``average``); a pair no explicit mode can keep is the loss;
- a plane (KHR): a ``PLANE_THICKNESS`` box, ``PLANE_EXTENT`` wide where the plane is infinite, on a new child
  node lowered so its top face is the plane.

Conservative output: the document-level ``OMI_physics_body`` object is always written (``{}``
when the file has no materials or filters) whenever nodes carry the extension.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...geometry.mass import MassProperties
from ...geometry.placement import colliders_by_body, document_mesh_source
from ...gltf.document import Document
from ...gltf.errors import GltfError
from ...model import Body, Capsule, Cylinder, Motion, MotionType, Plane, Shape, Sphere
from ...model import Box as BoxShape
from ..common.combine_modes import explicit_modes, loss_message
from ..common.context import WriteContext
from ..registry import OMI_PHYSICS_BODY
from . import joint as omi_joint
from . import shape as omi_shape
from .mass import BodyMasses, Measured

BODY_EXT = OMI_PHYSICS_BODY
HUGE_INERTIA = 1.0e9
PLANE_THICKNESS = 0.1
PLANE_EXTENT = 1000.0
_IMPLICIT = (BoxShape, Sphere, Capsule, Cylinder)  # shapes whose JSON is a pure function of the object
DENSITY = 1000.0  # kg/m³: the runtime's density for computed KHR masses (docs/semantics.md)


def write(ctx: WriteContext) -> None:
    w = _Writer(ctx)
    w.resources()
    for body, measured in zip(ctx.scene.bodies, w.measure(), strict=True):
        w.ext(body.node)["motion"] = w.motion(body, measured)
    for c in ctx.scene.colliders:
        data: dict[str, Any] = {}
        if c.material is not None:
            data["physicsMaterial"] = c.material
        if c.filter is not None:
            data["collisionFilter"] = c.filter
        w.shaped(c.node, "collider", c.shape, data, c.body, c.pointer)
    for t in ctx.scene.triggers:
        w.trigger(t)
    ctx.set_node_exts(BODY_EXT, sorted(w.exts.items()))
    if w.exts and ctx.gltf.get("extensions", {}).get(BODY_EXT) is None:
        ctx.set_doc_ext(BODY_EXT, {})  # always present: readers look it up unconditionally
    world = w.world_if_current()
    omi_joint.write(ctx, world, w.parent_of if world is not None else None)


class _Writer:
    def __init__(self, ctx: WriteContext) -> None:
        self.ctx = ctx
        self.exts: dict[int, dict[str, Any]] = {}
        self.parent_of: list[int | None] = ctx.parents()
        self.motion_nodes = {b.node for b in ctx.scene.bodies}
        self._shape_indices: dict[int, tuple[Shape, int | None]] = {}  # id → (the shape, kept alive; its index)
        self._world: list[np.ndarray] | None = None

    def ext(self, node: int) -> dict[str, Any]:
        return self.exts.setdefault(node, {})

    def owner(self, node: int) -> int | None:
        if node in self.motion_nodes:  # a body's own collider: no walk, no set
            return node
        n: int | None = node
        seen: set[int] = set()
        while n is not None and n not in seen:
            if n in self.motion_nodes:
                return n
            seen.add(n)
            n = self.parent_of[n]
        return None

    def child(self, parent: int, suffix: str, translation: tuple[float, float, float] | None = None) -> int:
        name = (self.ctx.gltf["nodes"][parent].get("name") or f"Node{parent}") + suffix
        node: dict[str, Any] = {"name": name}
        if translation is not None:
            node["translation"] = list(translation)
        i = self.ctx.add_node(node, parent)
        self.parent_of.append(parent)
        return i

    # -- document resources

    def resources(self) -> None:
        doc: dict[str, Any] = {}
        if self.ctx.scene.materials:
            materials, broken = explicit_modes(self.ctx.scene)
            for b in broken:
                self.ctx.loss("D-12", self.ctx.scene.materials[b.material].pointer, loss_message(b))
            doc["physicsMaterials"] = [self.material(m) for m in materials]
        if self.ctx.scene.filters:
            doc["collisionFilters"] = [_filter(f) for f in self.ctx.scene.filters]
        if doc:
            self.ctx.set_doc_ext(BODY_EXT, doc)

    def material(self, m: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value, default in (
            ("staticFriction", m.static_friction, 0.6),
            ("dynamicFriction", m.dynamic_friction, 0.6),
            ("restitution", m.restitution, 0.0),
        ):
            if value != default:
                out[key] = value
        for key, attr in (("frictionCombine", "friction_combine"), ("restitutionCombine", "restitution_combine")):
            mode = getattr(m, attr)
            if mode is not None:  # set on every material by explicit_modes: written even when 'average'
                out[key] = mode.value
        return out

    # -- bodies

    def motion(self, body: Body, measured: Measured | None) -> dict[str, Any]:
        """``measured``: from :meth:`measure`."""
        m = body.motion
        out: dict[str, Any] = {"type": m.type.value}
        computed = measured[0] if measured is not None else None
        mass = self.mass(body, computed)
        if mass != 1.0:
            out["mass"] = mass
        if m.mass is not None and math.isinf(m.mass) and m.type == MotionType.DYNAMIC:
            out["type"] = MotionType.KINEMATIC.value
        com = m.center_of_mass if measured is None else measured[1]
        if com is not None and any(com):  # a float is true when != 0.0 (NaN too): no generator per body
            out["centerOfMass"] = list(com)
        if m.inertia_diagonal is not None:
            out["inertiaDiagonal"] = self.inertia(body, m)
            if m.inertia_orientation != (0.0, 0.0, 0.0, 1.0):
                out["inertiaOrientation"] = list(m.inertia_orientation)
        for key, v in (("linearVelocity", m.linear_velocity), ("angularVelocity", m.angular_velocity)):
            if any(v):
                out[key] = list(v)
        if m.gravity_factor != 1.0:
            out["gravityFactor"] = m.gravity_factor
        return out

    def mass(self, body: Body, computed: MassProperties | None) -> float:
        m = body.motion.mass
        if m is None:
            value = computed.mass if computed is not None else 1.0
            self.ctx.loss(
                "KRB-11",
                body.pointer,
                f"computed mass has no OMI form; {value:.6g} kg written (density {DENSITY:g} kg/m³ "
                "over the collider volumes, as the runtime computes it)"
                if computed is not None
                else "computed mass has no OMI form and the shapes could not be measured; mass 1.0 written",
            )
            return value
        if math.isinf(m):
            self.ctx.loss(
                "KRB-11",
                body.pointer,
                "infinite mass has no OMI form; written as a kinematic body of mass 1.0"
                if body.motion.type == MotionType.DYNAMIC
                else "infinite mass has no OMI form; mass 1.0 written",
            )
            return 1.0
        return m

    def world(self) -> list[np.ndarray]:
        if self._world is None:
            self._world = self.ctx.world_matrices()
        return self._world

    def world_if_current(self) -> list[np.ndarray] | None:
        """The world matrices when computed and no node was added since (the joint writer's to reuse)."""
        nodes = self.ctx.gltf.get("nodes")
        if self._world is None or not isinstance(nodes, list) or len(nodes) != len(self._world):
            return None
        return self._world

    def measure(self) -> list[Measured | None]:
        """For each body: what the runtime computes for a KHR body without mass or centre of mass (docs/semantics.md),
        as (mass properties, centre in node space); ``None`` when not needed or not measurable. All bodies at
        once: a few NumPy calls per document, not per body."""
        scene = self.ctx.scene
        needed = [i for i, b in enumerate(scene.bodies) if b.motion.mass is None or b.motion.center_of_mass is None]
        out: list[Measured | None] = [None] * len(scene.bodies)
        if not needed:
            return out
        try:
            doc = scene.document or Document(json=self.ctx.gltf)
            masses = BodyMasses(scene, self.world(), DENSITY, document_mesh_source(doc), colliders_by_body(scene),
                                self.ctx.world_stack())
        except (GltfError, ValueError, IndexError):  # mesh data missing or unreadable: no measurement
            return out
        for i, measured in zip(needed, masses.measure([scene.bodies[i] for i in needed]), strict=True):
            out[i] = measured
        return out

    def inertia(self, body: Body, m: Motion) -> list[float]:
        d = list(m.inertia_diagonal or ())
        if any(math.isinf(c) for c in d):
            self.ctx.loss(
                "KRB-11", body.pointer, f"infinite inertia has no OMI form; {HUGE_INERTIA:g} kg·m² written"
            )
        return [HUGE_INERTIA if math.isinf(c) else c for c in d]

    # -- colliders and triggers

    def shaped(
        self, node: int, key: str, shape: Shape, data: dict[str, Any], body: int | None, pointer: str
    ) -> None:
        if isinstance(shape, Plane):
            self.ctx.loss("SHAPE-2", pointer, "OMI has no plane; written as a thin box on a new child node")
            node = self.child(node, "Plane", (0.0, -PLANE_THICKNESS / 2, 0.0))
            shape = BoxShape(
                size=(shape.size_x or PLANE_EXTENT, PLANE_THICKNESS, shape.size_z or PLANE_EXTENT)
            )
        index = self.shape_index(shape)
        if index is None:
            return
        ext = self.ext(node)
        if key in ext:  # one collider / trigger per node in OMI: extra ones get a child node
            node = self.child(node, key.capitalize())
            ext = self.ext(node)
        ext[key] = {"shape": index, **data}
        self.check_owner(node, body, pointer)

    def shape_index(self, shape: Shape) -> int | None:
        """``omi_shape.add_shape``, once per shape object for the implicit kinds (the readers share one object
        between the colliders that use one file shape; its JSON key was rebuilt per collider). By identity, not
        equality: equal values may still be written differently (1 and 1.0, 0.0 and -0.0)."""
        if not isinstance(shape, _IMPLICIT):  # mesh shapes may report a loss each time: not memoised
            return omi_shape.add_shape(self.ctx, shape)
        known = self._shape_indices.get(id(shape))
        if known is None or known[0] is not shape:
            known = self._shape_indices[id(shape)] = (shape, omi_shape.add_shape(self.ctx, shape))
        return known[1]

    def check_owner(self, node: int, body: int | None, pointer: str) -> None:
        if self.owner(node) != body:
            self.ctx.loss(
                "BODY-10",
                pointer,
                f"the shape belonged to {body if body is not None else 'no body'}, "
                f"but OMI assigns node {node} to its nearest motion ({self.owner(node)})",
            )

    def trigger(self, t: Any) -> None:
        data: dict[str, Any] = {}
        if t.filter is not None:
            data["collisionFilter"] = t.filter
        if t.nodes is None:
            if t.shape is not None:
                self.shaped(t.node, "trigger", t.shape, data, t.body, t.pointer)
            return
        if not t.nodes:
            self.ctx.loss("BODY-5", t.pointer, "compound trigger without member triggers dropped")
            return
        if data:
            self.ctx.loss("BODY-6", t.pointer, "a 'nodes' trigger cannot carry a collision filter; dropped")
        out: dict[str, Any] = {"nodes": list(t.nodes)}  # D-3: explicit members, also for the old `{}` form
        if t.shape is not None and (index := omi_shape.add_shape(self.ctx, t.shape)) is not None:
            out["shape"] = index
        self.ext(t.node)["trigger"] = out
        self.check_owner(t.node, t.body, t.pointer)


def _filter(f: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, v in (
        ("collisionSystems", f.collision_systems),
        ("collideWithSystems", f.collide_with_systems),
        ("notCollideWithSystems", f.not_collide_with_systems),
    ):
        if v:
            out[key] = list(v)
    return out
