"""Scenes built in Blender the way a user builds them (mesh objects, Blender's rigid-body operators), for the
Blender add-on's tests; and the skip rule: absent bpy skips, except under CI=true, where it fails."""

from __future__ import annotations

import os
from typing import Any

import pytest


def need_bpy() -> Any:
    """``bpy``, or a skip with the reason (a failure under CI=true)."""
    try:
        import bpy
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("bpy (Blender as a Python module) is not installed; CI installs it (.ci/run)")
        pytest.skip("bpy (Blender as a Python module) is not installed: pip install bpy", allow_module_level=True)
    return bpy


def clear(bpy: Any) -> None:
    """An empty scene without a factory reset (0.1 s each): every object, mesh, collection and action gone,
    the rigid-body world and the scene's custom properties too."""
    scene = bpy.context.scene
    if scene.rigidbody_world is not None:
        bpy.ops.rigidbody.world_remove()
    for key in list(scene.keys()):
        del scene[key]
    bpy.data.batch_remove([*bpy.data.objects, *bpy.data.meshes, *bpy.data.collections, *bpy.data.actions,
                           *bpy.data.materials, *bpy.data.images, *bpy.data.cameras, *bpy.data.lights])
    scene.frame_set(1)


def box_mesh(bpy: Any, name: str, size: tuple[float, float, float]) -> Any:
    """A box mesh of full extents ``size`` centred on the origin."""
    hx, hy, hz = (s / 2 for s in size)
    verts = [(x * hx, y * hy, z * hz) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    return mesh


def body(bpy: Any, name: str, size: tuple[float, float, float], location: tuple[float, float, float], *,
         kind: str = "ACTIVE", shape: str = "BOX", mass: float = 1.0, friction: float = 0.5,
         restitution: float = 0.0) -> Any:
    """A mesh object with a rigid body, added with Blender's own operator on the active object."""
    obj = bpy.data.objects.new(name, box_mesh(bpy, name, size))
    bpy.context.scene.collection.objects.link(obj)
    obj.location = location
    bpy.context.view_layer.objects.active = obj
    bpy.ops.rigidbody.object_add(type=kind)
    rb = obj.rigid_body
    rb.collision_shape = shape
    rb.mass, rb.friction, rb.restitution = mass, friction, restitution
    rb.linear_damping = rb.angular_damping = 0.0  # glTF bodies have no damping
    rb.use_deactivation = False
    return obj


def constraint(bpy: Any, name: str, kind: str, a: Any, b: Any, location: tuple[float, float, float],
               rotation: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> Any:
    """An empty with a rigid-body constraint between ``a`` and ``b`` (Blender's operator)."""
    obj = bpy.data.objects.new(name, None)
    bpy.context.scene.collection.objects.link(obj)
    obj.location, obj.rotation_euler = location, rotation
    bpy.context.view_layer.objects.active = obj
    bpy.ops.rigidbody.constraint_add(type=kind)
    c = obj.rigid_body_constraint
    c.object1, c.object2 = a, b
    return obj


def bake(bpy: Any, frames: int, objects: list[Any]) -> dict[str, list[tuple[float, ...]]]:
    """Blender's own rigid-body simulation stepped frame by frame from frame 1; each object's world location at
    every frame (frame f is time (f − 1) / fps)."""
    scene = bpy.context.scene
    world = scene.rigidbody_world
    world.point_cache.frame_start, world.point_cache.frame_end = 1, frames
    scene.frame_start, scene.frame_end = 1, frames
    out: dict[str, list[tuple[float, ...]]] = {o.name: [] for o in objects}
    for f in range(1, frames + 1):
        scene.frame_set(f)
        for o in objects:
            out[o.name].append(tuple(o.matrix_world.translation))
    return out
