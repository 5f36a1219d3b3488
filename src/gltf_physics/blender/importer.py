"""A :class:`~gltf_physics.model.PhysicsScene` made into Blender rigid bodies and constraints (imports bpy).

The file is read by the project's own readers (:func:`~gltf_physics.dialects.read_scene`); Blender's glTF
importer made one object per node, and ``objects`` maps node index → that object.

Blender sizes a collision shape from the bounds of the object's mesh, so each collider gets a *proxy*: a child
mesh object whose bounds are the shape's, with the shape type set (a proxy is never exported as a node: the
exporter folds it back onto the collider's node). A body's object is the compound parent of its proxies (a node
without a mesh becomes a mesh object with no vertices, as Blender's rigid bodies are mesh objects); a collider
without a body is a passive proxy of its own. Box, cylinder, cone and convex hull embed Blender's margin inside
the bounds; sphere and capsule are all margin; triangle meshes get margin 0: each shape is the file's size.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

import bpy
import numpy as np

from ..geometry.hulls import convex_hull
from ..geometry.tessellation import shape_points
from ..gltf.document import Document
from ..gltf.meshes import mesh_triangles, node_triangles
from ..model import Box, Capsule, Cylinder, MeshShape, MotionType, PhysicsScene, Plane, Sphere
from . import keep
from .axes import C, node_to_blender, to_blender_vector
from .joints import add_constraint, blender_constraints, ensure_world

PROXY = "gltf_physics_proxy"  # custom property: the shape kind of a proxy (marks it)
NODE = "gltf_physics_node"  # custom property on a proxy: the object whose node the collider is on
ANCHOR = "gltf_physics_anchor"  # custom property: a passive object standing for the world in a constraint
OWN_MESH = "gltf_physics_own_mesh"  # custom property on a proxy: its shape is its node's drawn mesh
MASS_SET = "gltf_physics_mass_set"  # custom property: the mass the importer gave Blender
PLANE_SIZE = 1000.0  # an infinite plane's extent in Blender (it has no plane shape)


@dataclass
class ImportResult:
    """What :func:`apply` made: the body objects, the proxies, the constraint objects and the losses."""

    bodies: list[Any] = field(default_factory=list)
    proxies: list[Any] = field(default_factory=list)
    constraints: list[Any] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)


def apply(doc: Document, scene: PhysicsScene, objects: dict[int, Any]) -> ImportResult:
    """Rigid bodies, collision shapes and constraints for ``scene`` on the imported ``objects``."""
    return _Importer(doc, scene, objects).run()


class _Importer:
    def __init__(self, doc: Document, scene: PhysicsScene, objects: dict[int, Any]) -> None:
        self.doc, self.scene, self.objects = doc, scene, objects
        self.world = scene.node_world()
        self.result = ImportResult()
        self.collection = bpy.context.collection
        self.systems = _systems(scene)
        self.meshes: dict[Any, tuple[Any, str]] = {}
        self.static_owners: set[int] = set()

    def run(self) -> ImportResult:
        ensure_world()
        masses = _masses(self.doc, self.scene)
        for body in self.scene.bodies:
            obj = self._mesh_object(body.node)
            if obj is None:
                continue
            self._body(obj, body, masses.get(body.node))
        for c in self.scene.colliders:
            self._collider(c)
        for j in self.scene.joints:
            made, losses = blender_constraints(j, self.world, self.objects, self.collection, self.anchor)
            self.result.constraints += made
            self.result.losses += losses
        if self.scene.world_gravity is not None:  # OMI_physics_gravity's document-level gravity
            bpy.context.scene.gravity = to_blender_vector(self.scene.world_gravity.vector)
        self._keep()
        return self.result

    # -- bodies

    def _mesh_object(self, node: int) -> Any:
        """The node's object as a mesh object (Blender's rigid bodies are meshes): an empty is replaced by a
        mesh object with no vertices, same name, place and children."""
        obj = self.objects.get(node)
        if obj is None or obj.type == "MESH":
            return obj
        name, parent, basis = obj.name, obj.parent, obj.matrix_basis.copy()
        children = list(obj.children)
        users = list(obj.users_collection) or [self.collection]
        obj.name = name + ".replaced"
        mesh_obj = bpy.data.objects.new(name, bpy.data.meshes.new(name))
        for coll in users:
            coll.objects.link(mesh_obj)
        mesh_obj.parent = parent
        mesh_obj.matrix_basis = basis
        for child in children:
            world = child.matrix_world.copy()
            child.parent = mesh_obj
            child.matrix_world = world
        for key, value in obj.items():
            mesh_obj[key] = value
        bpy.data.objects.remove(obj)
        self.objects[node] = mesh_obj
        return mesh_obj

    def _body(self, obj: Any, body: Any, mass: float | None) -> None:
        m = body.motion
        _add_rigid_body(obj, "PASSIVE" if m.type is MotionType.STATIC else "ACTIVE")
        rb = obj.rigid_body
        rb.collision_shape = "COMPOUND"
        rb.kinematic = m.type is MotionType.KINEMATIC
        rb.linear_damping = rb.angular_damping = 0.0  # glTF bodies have no damping
        if m.mass is not None and math.isfinite(m.mass) and m.mass > 0:
            rb.mass = m.mass
        elif m.type is not MotionType.STATIC and mass is not None and math.isfinite(mass) and mass > 0:
            rb.mass = mass  # computed from the shapes (density 1000 kg/m³), as `info` reports it
        obj["gltf_physics_motion"] = json.dumps(keep._value(m, self.scene, lambda n: None))
        obj[MASS_SET] = rb.mass  # unchanged at export: the file's own mass is written (infinite, computed)
        if m.center_of_mass is not None:
            self.result.losses.append(f"{obj.name}: centre of mass kept as a custom property (Blender uses the "
                                      "object origin)")
        self.result.bodies.append(obj)

    # -- colliders

    def _collider(self, c: Any) -> None:
        if self.objects.get(c.node) is None:
            return
        if c.body is None:
            parent = self._static_owner(c.node)
        else:
            owner = self.objects.get(c.body)
            parent = owner if owner is not None and owner.rigid_body is not None else self.objects[c.node]
        host = self.objects[c.node]
        local = np.linalg.inv(self.world[parent_node(self, parent)]) @ self.world[c.node]
        proxy, kind = self._proxy(c.shape, host.name)
        if proxy is None:
            return
        proxy.parent = parent
        proxy.matrix_parent_inverse.identity()
        proxy.matrix_basis = _matrix(node_to_blender(local))
        static = c.body is None
        _add_rigid_body(proxy, "PASSIVE" if static or parent.rigid_body.type == "PASSIVE" else "ACTIVE")
        rb = proxy.rigid_body
        rb.collision_shape = kind
        rb.linear_damping = rb.angular_damping = 0.0
        rb.mesh_source = "BASE"
        if kind == "MESH":
            rb.use_margin, rb.collision_margin = True, 0.0
        proxy[PROXY] = kind
        proxy[NODE] = host.name
        if isinstance(c.shape, MeshShape) and c.shape.mesh is not None and \
                self.doc.json["nodes"][c.node].get("mesh") == c.shape.mesh:
            proxy[OWN_MESH] = True  # the collider is the mesh its node draws: exported as a reference to it
        self._material(proxy, parent, c)
        self._filter(proxy, parent, c)
        self.result.proxies.append(proxy)

    def _static_owner(self, node: int) -> Any:
        """The passive compound holding a static collider: the nearest one already made at or above its node,
        else its node's object made one."""
        parents = self.scene.node_parents()
        n: int | None = node
        while n is not None:
            if n in self.static_owners:
                return self.objects[n]
            n = parents[n]
        obj = self._mesh_object(node)
        _add_rigid_body(obj, "PASSIVE")
        obj.rigid_body.collision_shape = "COMPOUND"
        obj.rigid_body.linear_damping = obj.rigid_body.angular_damping = 0.0
        self.static_owners.add(node)
        self.result.bodies.append(obj)
        return obj

    def anchor(self, node: int | None, frame: np.ndarray) -> Any:
        """What a joint side without a body holds on to: the static collider at or above the joint's node, else
        a new passive anchor at the frame (Blender ties a constraint to two objects, never to the world)."""
        parents = self.scene.node_parents()
        n = node
        while n is not None:
            if n in self.static_owners:
                return self.objects[n]
            n = parents[n]
        obj = bpy.data.objects.new("world anchor", bpy.data.meshes.new("world anchor"))
        self.collection.objects.link(obj)
        obj.matrix_world = _matrix(node_to_blender(frame))
        _add_rigid_body(obj, "PASSIVE")
        obj.rigid_body.collision_collections = [False] * 20
        obj[ANCHOR] = True
        return obj

    def _proxy(self, shape: Any, name: str) -> tuple[Any, str]:
        made = self.meshes.get(shape)
        if made is None:  # one mesh for every collider of the same shape
            verts, faces, kind = self._geometry(shape)
            if verts is None:
                self.result.losses.append(f"{name}: a degenerate collider shape was not made")
                return None, ""
            mesh = bpy.data.meshes.new(f"{name}.collider")
            mesh.from_pydata(verts.tolist(), [], faces.tolist())
            made = self.meshes[shape] = (mesh, kind)
        mesh, kind = made
        proxy = bpy.data.objects.new(f"{name}.collider", mesh)
        self.collection.objects.link(proxy)
        proxy.display_type = "WIRE"
        proxy.hide_render = True
        return proxy, kind

    def _geometry(self, shape: Any) -> tuple[np.ndarray | None, np.ndarray | None, str]:
        """Vertices (Blender axes), faces and Blender shape type of a proxy whose bounds are ``shape``."""
        if isinstance(shape, MeshShape):
            if shape.mesh is not None:
                v, t = mesh_triangles(self.doc, shape.mesh)
            else:
                v, t = node_triangles(self.doc, shape.node)
            return v @ C[:3, :3].T, t, "CONVEX_HULL" if shape.convex else "MESH"
        if isinstance(shape, Plane):
            sx, sz = shape.size_x or PLANE_SIZE, shape.size_z or PLANE_SIZE
            v = np.array([[-sx / 2, 0, -sz / 2], [sx / 2, 0, -sz / 2], [sx / 2, 0, sz / 2], [-sx / 2, 0, sz / 2]])
            return v @ C[:3, :3].T, np.array([[0, 2, 1], [0, 3, 2]]), "MESH"
        kind = _primitive_kind(shape)
        points = shape_points(shape)
        hull = convex_hull(points)
        if hull is None:
            return None, None, ""
        return hull.points @ C[:3, :3].T, hull.triangles, kind

    def _material(self, proxy: Any, parent: Any, c: Any) -> None:
        if c.material is None:
            return
        mat = self.scene.materials[c.material]
        for rb in _rigid(proxy, parent):
            rb.friction, rb.restitution = mat.static_friction, mat.restitution
        proxy["gltf_physics_material"] = json.dumps(keep._value(mat, self.scene, lambda n: None))

    def _filter(self, proxy: Any, parent: Any, c: Any) -> None:
        if c.filter is None:
            return
        f = self.scene.filters[c.filter]
        layers = [self.systems[s] for s in f.collision_systems if self.systems[s] < 20]
        if len(self.systems) > 20:
            self.result.losses.append(f"{proxy.name}: {len(self.systems)} collision systems, Blender has 20 "
                                      "collision collections (the filter is kept for export)")
        if layers:
            for rb in _rigid(proxy, parent):
                rb.collision_collections = [i in layers for i in range(20)]
        proxy["gltf_physics_filter"] = json.dumps(keep._value(f, self.scene, lambda n: None))

    def _keep(self) -> None:
        """Triggers, vehicles, gravity and seats, kept on the scene for export."""
        names = {n: o.name for n, o in self.objects.items()}
        text = keep.encode(self.scene, names.get)
        bpy.context.scene["gltf_physics_kept"] = text
        kept = sum(len(getattr(self.scene, k)) for k in keep.KEPT)
        if kept:
            self.result.losses.append(f"{kept} triggers, vehicles, gravity fields or seats kept as the scene's "
                                      "custom property gltf_physics_kept (no Blender counterpart)")


def _rigid(*objs: Any) -> list[Any]:
    """The rigid-body settings of those of ``objs`` that have them, each once."""
    out: list[Any] = []
    for o in objs:
        if o.rigid_body is not None and o.rigid_body not in out:
            out.append(o.rigid_body)
    return out


def parent_node(importer: _Importer, obj: Any) -> int:
    """The node index of an imported object (a body's or a static collider's)."""
    return next(n for n, o in importer.objects.items() if o == obj)


def _primitive_kind(shape: Any) -> str:
    if isinstance(shape, Box):
        return "BOX"
    if isinstance(shape, Sphere):
        return "SPHERE"
    if isinstance(shape, Capsule):
        return "CAPSULE" if shape.radius_top == shape.radius_bottom else "CONVEX_HULL"
    if isinstance(shape, Cylinder):
        if shape.radius_top == shape.radius_bottom:
            return "CYLINDER"
        return "CONE" if shape.radius_top == 0 else "CONVEX_HULL"
    return "CONVEX_HULL"


def _systems(scene: PhysicsScene) -> dict[str, int]:
    """Collision system → Blender collision collection: ``collectionN`` (the exporter's names) to collection N,
    the others to the free collections in first-seen order (past 20: none, the filter is kept for export)."""
    names: dict[str, None] = {}
    for f in scene.filters:
        for s in (*f.collision_systems, *f.collide_with_systems, *f.not_collide_with_systems):
            names.setdefault(s, None)
    out: dict[str, int] = {}
    for s in names:
        m = re.fullmatch(r"collection(\d+)", s)
        if m and 1 <= int(m.group(1)) <= 20:
            out[s] = int(m.group(1)) - 1
    free = (i for i in range(40) if i not in out.values())
    for s in names:
        if s not in out:
            out[s] = next(free)
    return out


def _masses(doc: Document, scene: PhysicsScene) -> dict[int, float]:
    """Each body's resolved mass, as `info` reports it (computed from the shapes where the file gives none)."""
    if all(b.motion.mass is not None for b in scene.bodies):
        return {}
    from ..summary import summarize

    rows = summarize(doc, scene)["bodies"]
    return {r["node"]: r["mass"] for r in rows if isinstance(r.get("mass"), float)}


def _add_rigid_body(obj: Any, kind: str) -> None:
    """``obj`` into the rigid-body world: linking it into the world's collection is what makes its rigid-body
    settings (as Blender's own operator does, without needing it active)."""
    ensure_world()
    bpy.context.scene.rigidbody_world.collection.objects.link(obj)
    obj.rigid_body.type = kind


def _matrix(m: np.ndarray) -> Any:
    from mathutils import Matrix

    return Matrix([list(map(float, row)) for row in m])


__all__ = ["ANCHOR", "MASS_SET", "NODE", "OWN_MESH", "PROXY", "ImportResult", "add_constraint", "apply"]
