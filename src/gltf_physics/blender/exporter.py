"""Blender's rigid bodies and constraints as a :class:`~gltf_physics.model.PhysicsScene`, written by the dialect
writers into the glTF Blender's exporter made, and checked by the project's validator (imports bpy).

Sizes follow Blender's own rule: a primitive shape is centred on the object's origin and sized by its mesh's
bounds (box: the bounds; sphere: half the largest extent; capsule, cylinder, cone: along local Z, radius half the
larger of X and Y). Blender (Bullet) multiplies two bodies' frictions and restitutions, so the materials written
say ``multiply``. A proxy (a collider the importer made, see :mod:`.importer`) goes back onto its node.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import bpy
import numpy as np

from ..dialects import write_scene
from ..gltf.document import Document
from ..gltf.transforms import world_matrices
from ..model import (
    Body,
    Box,
    Capsule,
    Collider,
    CollisionFilter,
    CombineMode,
    Cylinder,
    MeshShape,
    Motion,
    MotionType,
    PhysicsMaterial,
    PhysicsScene,
    Sphere,
    WorldGravity,
)
from . import keep
from .axes import C_INV, to_gltf_vector
from .importer import ANCHOR, MASS_SET, NODE, OWN_MESH, PROXY
from .joints import joint_of, merge_motors

Family = Literal["khr", "omi"]


@dataclass
class ExportResult:
    """The document with physics, what the target form or glTF could not express, and the validator's report."""

    document: Document
    losses: list[str] = field(default_factory=list)
    report: Any = None


def export_physics(doc: Document, family: Family, objects: Any = None) -> ExportResult:
    """``doc`` (what Blender's exporter wrote) with the physics of ``objects`` (the scene's by default) written
    in the newest ``family`` form; nodes are matched to objects by name, as the exporter names them."""
    from ..validation import validate

    objects = list(bpy.context.scene.objects if objects is None else objects)
    scene, losses = build_scene(doc, objects, family)
    out, written = write_scene(scene, scene.document or doc, family)
    losses += [f"{x.code} {x.pointer}: {x.message}" for x in written]
    return ExportResult(out, losses, validate(out))


def build_scene(doc: Document, objects: list[Any], family: Family = "khr") -> tuple[PhysicsScene, list[str]]:
    """The physics of ``objects`` against the exported ``doc`` and the losses (Bullet-only settings)."""
    return _Builder(doc, objects, family).run()


class _Builder:
    def __init__(self, doc: Document, objects: list[Any], family: Family) -> None:
        self.doc, self.objects = doc, objects
        # OMI ties a joint to motion nodes only (JOINT-3): a passive object a constraint holds gets a static one.
        self.held = {o.name for c in objects if c.rigid_body_constraint is not None
                     for o in (c.rigid_body_constraint.object1, c.rigid_body_constraint.object2) if o is not None
                     } if family == "omi" else set()
        nodes = doc.json.get("nodes", [])
        self.by_name = {n.get("name"): i for i, n in enumerate(nodes) if isinstance(n, dict)}
        self.world = world_matrices(doc.json)
        self.scene = PhysicsScene(document=doc)
        self.losses: list[str] = []
        self.editor: Any = None  # author.edit.Editor, made when a collider mesh must be added

    def node_of(self, obj: Any) -> int | None:
        return self.by_name.get(obj.name) if obj is not None else None

    def run(self) -> tuple[PhysicsScene, list[str]]:
        for obj in self.objects:
            if obj.rigid_body is not None and not _compound_child(obj) and not obj.get(ANCHOR):
                self._body(obj)
        for obj in self.objects:
            if obj.rigid_body_constraint is not None:
                self._joint(obj)
        self.scene.joints = merge_motors(self.scene.joints, self.world)
        self.scene.colliders.sort(key=lambda c: c.node)
        kept = bpy.context.scene.get("gltf_physics_kept")
        if kept:
            self.losses += keep.decode(kept, self.scene, lambda name: self.by_name.get(name))
        self._gravity()
        if self.editor is not None:  # the physics-only meshes: the writers write into that document
            self.scene.document = self.editor.document()
        return self.scene, self.losses

    def _gravity(self) -> None:
        """Blender's scene gravity, written (OMI_physics_gravity) when it is not glTF's default 9.81 m/s² down."""
        scene = bpy.context.scene
        g = np.array(to_gltf_vector(scene.gravity)) if scene.use_gravity else np.zeros(3)
        now = self.scene.world_gravity.vector if self.scene.world_gravity is not None else (0.0, -9.81, 0.0)
        if np.allclose(g, now, rtol=1e-6, atol=1e-9):
            return
        size = float(np.linalg.norm(g))
        direction = tuple(float(x) for x in g / size) if size > 0 else (0.0, -1.0, 0.0)
        self.scene.world_gravity = WorldGravity(gravity=size, direction=direction)

    def _body(self, obj: Any) -> None:
        rb = obj.rigid_body
        node = self._collider_node(obj)
        if node is None:
            self.losses.append(f"{obj.name}: not exported as a node, its rigid body is left out")
            return
        self._bullet_only(obj)
        stored = obj.get("gltf_physics_motion")
        static = rb.type == "PASSIVE" and not rb.kinematic
        if obj.name in self.held and stored is None:
            stored = json.dumps(keep._value(Motion(type=MotionType.STATIC), self.scene, lambda n: None))
        if not static or stored is not None:
            motion = _motion(rb, stored, obj.get(MASS_SET))
            self.scene.bodies.append(Body(node=self.node_of(obj), motion=motion))
        body = None if static and stored is None else self.node_of(obj)
        if rb.collision_shape == "COMPOUND":
            for child in obj.children:
                if child.rigid_body is not None:
                    self._collider(child, body)
        else:
            self._collider(obj, body)

    def _collider_node(self, obj: Any) -> int | None:
        host = obj.get(NODE) if obj.get(PROXY) else None
        return self.by_name.get(host) if host is not None else self.node_of(obj)

    def _collider(self, obj: Any, body: int | None) -> None:
        node = self._collider_node(obj)
        if node is None:
            self.losses.append(f"{obj.name}: not exported as a node, its collider is left out")
            return
        shape = self._shape(obj, node)
        if shape is None:
            return
        self.scene.colliders.append(Collider(node=node, shape=shape, body=body, material=self._material(obj),
                                             filter=self._filter(obj)))

    def _shape(self, obj: Any, node: int) -> Any:
        rb = obj.rigid_body
        kind = rb.collision_shape
        if obj.type != "MESH" or not obj.data.vertices:
            self.losses.append(f"{obj.name}: a rigid body without mesh bounds has no shape")
            return None
        co = np.empty(len(obj.data.vertices) * 3)
        obj.data.vertices.foreach_get("co", co)
        co = co.reshape(-1, 3)
        dx, dy, dz = (co.max(axis=0) - co.min(axis=0)).tolist()
        if kind == "BOX":
            return Box(size=(dx, dz, dy))
        if kind == "SPHERE":
            return Sphere(radius=max(dx, dy, dz) / 2)
        r = max(dx, dy) / 2
        if kind == "CAPSULE":
            return Capsule(height=max(dz - 2 * r, 0.0), radius_bottom=r, radius_top=r)
        if kind == "CYLINDER":
            return Cylinder(height=dz, radius_bottom=r, radius_top=r)
        if kind == "CONE":
            return Cylinder(height=dz, radius_bottom=r, radius_top=0.0)
        mesh = self.doc.json["nodes"][node].get("mesh")
        if mesh is None or (obj.get(PROXY) and not obj.get(OWN_MESH)):
            mesh = self._physics_mesh(obj, co)  # a collider mesh no node draws: added, out of view
        elif rb.mesh_source != "BASE" and (obj.modifiers or obj.data.shape_keys):
            self.losses.append(f"{obj.name}: mesh source {rb.mesh_source} written as the exported mesh")
        return MeshShape(convex=kind == "CONVEX_HULL", mesh=mesh)

    def _physics_mesh(self, obj: Any, co: np.ndarray) -> int:
        """The object's triangles (in glTF axes) appended to the document as a physics-only mesh."""
        from ..author.edit import Editor

        if self.editor is None:
            self.editor = Editor(self.doc)
        data = obj.data
        data.calc_loop_triangles()
        tris = np.empty(len(data.loop_triangles) * 3, dtype=np.int64)
        data.loop_triangles.foreach_get("vertices", tris)
        return self.editor.add_mesh(co @ C_INV[:3, :3].T, tris.reshape(-1, 3), f"{obj.name} collider")

    def _material(self, obj: Any) -> int:
        rb = obj.rigid_body
        stored = obj.get("gltf_physics_material")
        mat = None
        if stored is not None:
            mat = keep._build(json.loads(stored), self.scene, lambda n: None)
            if not (math.isclose(mat.static_friction, rb.friction, rel_tol=1e-6, abs_tol=1e-9)
                    and math.isclose(mat.restitution, rb.restitution, rel_tol=1e-6, abs_tol=1e-9)):
                mat = None  # changed in Blender since the import
        if mat is None:  # Bullet multiplies the two sides' coefficients
            mat = PhysicsMaterial(rb.friction, rb.friction, rb.restitution, CombineMode.MULTIPLY,
                                  CombineMode.MULTIPLY)
        if mat not in self.scene.materials:
            self.scene.materials.append(mat)
        return self.scene.materials.index(mat)

    def _filter(self, obj: Any) -> int | None:
        stored = obj.get("gltf_physics_filter")
        if stored is not None:
            f = keep._build(json.loads(stored), self.scene, lambda n: None)
        else:
            layers = [i for i, on in enumerate(obj.rigid_body.collision_collections) if on]
            if layers == [0]:
                return None  # Blender's default: everything collides with everything
            systems = tuple(f"collection{i + 1}" for i in layers)
            f = CollisionFilter(systems, systems)  # Blender: two bodies collide when they share a collection
        if f not in self.scene.filters:
            self.scene.filters.append(f)
        return self.scene.filters.index(f)

    def _joint(self, obj: Any) -> None:
        j, losses = joint_of(obj, self.node_of, self.world)
        self.losses += losses
        c = obj.rigid_body_constraint
        for end in (c.object1, c.object2):
            if end is not None and self.node_of(end) is None and not end.get(ANCHOR):
                self.losses.append(f"{obj.name}: {end.name} is not exported, the constraint is left out")
                return
        if j is not None:
            self.scene.joints.append(j)

    def _bullet_only(self, obj: Any) -> None:
        rb = obj.rigid_body
        for what, on in (("linear damping", rb.linear_damping > 0), ("angular damping", rb.angular_damping > 0),
                         ("deactivation", rb.use_deactivation), ("a custom collision margin",
                                                                   rb.use_margin and rb.collision_margin > 0
                                                                   and not obj.get(PROXY)),
                         ("a disabled rigid body", not rb.enabled)):
            if on:
                self.losses.append(f"{obj.name}: {what} (Bullet) has no glTF counterpart")


def _compound_child(obj: Any) -> bool:
    p = obj.parent
    return p is not None and p.rigid_body is not None and p.rigid_body.collision_shape == "COMPOUND"


def _motion(rb: Any, stored: str | None, mass_set: float | None) -> Motion:
    kind = MotionType.KINEMATIC if rb.kinematic else (
        MotionType.STATIC if rb.type == "PASSIVE" else MotionType.DYNAMIC)
    base = Motion()
    if stored is not None:
        base = keep._build(json.loads(stored), PhysicsScene(), lambda n: None)
    if stored is not None and mass_set is not None and math.isclose(rb.mass, mass_set, rel_tol=1e-6):
        return replace(base, type=kind)  # as the file had it: an infinite or a computed mass stays so
    return replace(base, type=kind, mass=rb.mass)  # a static one too: OMI would write a computed one


def write_back(doc: Document, family: Family) -> ExportResult:
    """:func:`export_physics` for a document and the open scene (the add-on's export hook calls this)."""
    return export_physics(doc, family)


__all__ = ["ExportResult", "build_scene", "export_physics", "write_back"]
