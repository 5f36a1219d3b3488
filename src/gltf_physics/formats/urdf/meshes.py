"""Mesh files (STL, OBJ, DAE, …) through trimesh: coloured triangle lists in the file's own frame.

trimesh reads each format (Collada through pycollada); a file that is a scene of several meshes gives one
part per mesh, placed by the scene's transforms. Colours come from the file's materials (their main colour:
textures are not carried over) unless the URDF gives one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...gltf.errors import GltfError
from ..robot_scene import VisualPart

INSTALL = "pip install 'gltf-physics[robots]'"


def trimesh_module() -> Any:
    """trimesh, or a one-line :class:`GltfError` naming the extra to install."""
    try:
        import trimesh
    except ImportError as exc:
        raise GltfError(f"reading robot meshes needs trimesh: {INSTALL}") from exc
    return trimesh


def load_parts(path: Path, scale: np.ndarray | None, pointer: str) -> list[VisualPart]:
    """The coloured parts of the mesh file at ``path``, scaled per axis by ``scale``."""
    trimesh = trimesh_module()
    if not path.is_file():
        raise GltfError(f"mesh file not found: {path.name}", pointer=pointer)
    try:
        loaded = trimesh.load(str(path))
    except Exception as exc:  # trimesh raises many kinds (ValueError, KeyError, its own) on a bad file
        raise GltfError(f"cannot read mesh {path.name}: {type(exc).__name__}: {exc}", pointer=pointer) from None
    parts = []
    if isinstance(loaded, trimesh.Scene):
        for node in loaded.graph.nodes_geometry:
            transform, name = loaded.graph[node]
            geometry = loaded.geometry[name]
            if isinstance(geometry, trimesh.Trimesh):
                parts.append(_part(geometry, np.asarray(transform, dtype=float)))
    elif isinstance(loaded, trimesh.Trimesh):
        parts.append(_part(loaded, np.eye(4)))
    if not parts:
        raise GltfError(f"mesh {path.name} holds no triangles", pointer=pointer)
    if scale is not None:
        for part in parts:
            part.vertices = part.vertices * np.asarray(scale, dtype=float)
            if np.prod(scale) < 0:  # a mirroring scale turns the faces inside out: keep them facing out
                part.faces = part.faces[:, ::-1]
    return parts


def _part(mesh: Any, transform: np.ndarray) -> VisualPart:
    v = np.asarray(mesh.vertices, dtype=float) @ transform[:3, :3].T + transform[:3, 3]
    return VisualPart(vertices=v, faces=np.asarray(mesh.faces, dtype=np.int64), rgba=_colour(mesh))


def _colour(mesh: Any) -> tuple[float, float, float, float]:
    visual = mesh.visual
    try:
        colour = visual.material.main_color if visual.kind == "texture" else visual.main_color
    except AttributeError:
        return (0.8, 0.8, 0.8, 1.0)
    c = np.asarray(colour, dtype=float).reshape(-1)[:4] / 255.0
    return (float(c[0]), float(c[1]), float(c[2]), float(c[3]) if len(c) > 3 else 1.0)


def merged(parts: list[VisualPart]) -> tuple[np.ndarray, np.ndarray]:
    """All parts as one triangle list (a collider's geometry)."""
    vertices, faces, offset = [], [], 0
    for part in parts:
        vertices.append(part.vertices)
        faces.append(part.faces + offset)
        offset += len(part.vertices)
    return np.concatenate(vertices), np.concatenate(faces)


def primitive_parts(kind: str, size: tuple[float, ...], rgba: tuple[float, float, float, float]) -> VisualPart:
    """A tessellated primitive in the glTF shape's frame (round shapes along +Y): box (full sizes), sphere
    (radius), cylinder and capsule (radius, height: total for a cylinder, between cap centres for a capsule),
    ellipsoid (three radii)."""
    trimesh = trimesh_module()
    with np.errstate(all="ignore"):  # trimesh divides by a zero length for degenerate sizes: those draw nothing
        return _primitive(trimesh, kind, size, rgba)


def _primitive(trimesh: Any, kind: str, size: tuple[float, ...], rgba: tuple[float, float, float, float]) -> VisualPart:
    if kind == "box":
        mesh = trimesh.creation.box(extents=size)
    elif kind == "sphere":
        mesh = trimesh.creation.icosphere(subdivisions=2, radius=size[0])
    elif kind == "ellipsoid":
        mesh = trimesh.creation.icosphere(subdivisions=2, radius=1.0)
        mesh.vertices = mesh.vertices * np.asarray(size, dtype=float)
    else:
        radius, height = size
        mesh = (trimesh.creation.cylinder(radius=radius, height=height, sections=24) if kind == "cylinder"
                else trimesh.creation.capsule(radius=radius, height=height, count=[24, 12]))
        mesh.vertices = mesh.vertices[:, [0, 2, 1]] * np.array([1.0, 1.0, -1.0])  # +Z axis → +Y, right-handed
    return VisualPart(vertices=np.asarray(mesh.vertices, dtype=float), faces=np.asarray(mesh.faces, dtype=np.int64),
                      rgba=rgba)
