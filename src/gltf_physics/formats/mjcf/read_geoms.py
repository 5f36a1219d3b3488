"""MuJoCo geoms → glTF collider shapes and coloured visual meshes (see :mod:`.read`).

Sizes are MuJoCo's compiled ``geom_size``: half-sizes for a box, radius and half-length for a capsule or
cylinder (glTF: full sizes, capsule height between the cap centres, cylinder total height). Round shapes and
planes run along the geom's +Z; their node is turned so that glTF's +Y is that axis.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...model import Box, Capsule, CombineMode, Cylinder, MeshShape, Plane, Shape, Sphere
from ..robot_scene import Y_TO_Z, RobotBuilder, VisualPart, pose_matrix
from ..urdf.meshes import primitive_parts
from .read_contacts import sliding_friction

PLANE, HFIELD, SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX, MESH = range(8)
VISIBLE_GROUPS = 3  # MuJoCo's viewer shows groups 0, 1 and 2 by default
PLANE_EXTENT = 10.0  # half-size of the drawn quad of a plane MuJoCo sizes 0 (collision is infinite anyway)


class GeomReader:
    """Adds each geom's node, visual mesh and collider to the builder."""

    def __init__(self, model: Any, builder: RobotBuilder, filters: dict[int, int | None]) -> None:
        self.model, self.b, self.filters = model, builder, filters
        self.meshes: dict[int, int | None] = {}  # MuJoCo mesh id → glTF mesh index

    def geom(self, g: int, holder: int, body: int | None) -> None:
        """Geom ``g`` on a new node under ``holder`` (its body's node), a collider of ``body`` (node or None)."""
        m = self.model
        kind = int(m.geom_type[g])
        name = m.geom(g).name or f"{m.body(int(m.geom_bodyid[g])).name or 'body'}_geom{g}"
        pointer = f"//geom[@name='{m.geom(g).name}']" if m.geom(g).name else f"/mujoco/geom[{g}]"
        local = pose_matrix(m.geom_pos[g], _xyzw(m.geom_quat[g]))
        if kind in (CAPSULE, CYLINDER, PLANE):
            local = local @ pose_matrix((0, 0, 0), Y_TO_Z)
        if kind in (HFIELD,) or kind > MESH:
            self.b.note("MJCF-IN-1", pointer, "height field or SDF geom: no glTF shape, skipped")
            return
        node = self.b.add_node_matrix(name, holder, local, "_geom")
        visual = self._visual(g, kind, name)
        if visual is not None and int(m.geom_group[g]) < VISIBLE_GROUPS:
            self.b.nodes[node]["mesh"] = visual
        if m.geom_contype[g] == 0 and m.geom_conaffinity[g] == 0:
            return  # drawn only
        shape = self._shape(g, kind, name, visual, pointer)
        if shape is None:
            return
        friction = sliding_friction(m, g)
        material = self.b.physics_material(friction, friction, 0.0, CombineMode.MAXIMUM)
        self.b.collider(node, shape, body, material=material, filter=self.filters.get(g), pointer=pointer)

    def _shape(self, g: int, kind: int, name: str, visual: int | None, pointer: str) -> Shape | None:
        s = [float(v) for v in self.model.geom_size[g]]
        if kind == SPHERE:
            return Sphere(radius=s[0])
        if kind == BOX:
            return Box(size=(2 * s[0], 2 * s[1], 2 * s[2]))
        if kind == CAPSULE:
            return Capsule(height=2 * s[1], radius_bottom=s[0], radius_top=s[0])
        if kind == CYLINDER:
            return Cylinder(height=2 * s[1], radius_bottom=s[0], radius_top=s[0])
        if kind == PLANE:
            return Plane()  # MuJoCo planes collide as infinite, whatever their drawn size
        if kind == ELLIPSOID:
            self.b.note("MJCF-IN-1", pointer, "ellipsoid: written as the convex hull of a tessellated ellipsoid")
            hull = self.b.add_mesh(f"{name}_collision", [primitive_parts("ellipsoid", tuple(s), (1, 1, 1, 1))],
                                   with_material=False)
            return MeshShape(convex=True, mesh=hull) if hull is not None else None
        if kind == MESH and visual is not None:
            return MeshShape(convex=True, mesh=visual)  # MuJoCo collides a mesh's convex hull
        self.b.note("MJCF-IN-1", pointer, "mesh geom without triangles: skipped")
        return None

    def _visual(self, g: int, kind: int, name: str) -> int | None:
        m = self.model
        rgba = tuple(float(c) for c in (m.mat_rgba[m.geom_matid[g]] if m.geom_matid[g] >= 0 else m.geom_rgba[g]))
        s = [float(v) for v in m.geom_size[g]]
        if kind == MESH:
            return self._mesh(int(m.geom_dataid[g]), rgba)
        if kind == PLANE:
            hx, hy = (s[0] or PLANE_EXTENT), (s[1] or PLANE_EXTENT)
            part = VisualPart(np.array([[-hx, 0, hy], [hx, 0, hy], [hx, 0, -hy], [-hx, 0, -hy]], dtype=float),
                              np.array([[0, 1, 2], [0, 2, 3]]), rgba)  # type: ignore[arg-type]
            return self.b.add_mesh(name, [part])
        sizes = {SPHERE: ("sphere", (s[0],)), BOX: ("box", (2 * s[0], 2 * s[1], 2 * s[2])),
                 CAPSULE: ("capsule", (s[0], 2 * s[1])), CYLINDER: ("cylinder", (s[0], 2 * s[1])),
                 ELLIPSOID: ("ellipsoid", (s[0], s[1], s[2]))}
        kind_name, size = sizes[kind]
        return self.b.add_mesh(name, [primitive_parts(kind_name, size, rgba)])  # type: ignore[arg-type]

    def _mesh(self, mesh_id: int, rgba: tuple[float, ...]) -> int | None:
        key = (mesh_id, rgba)
        if key not in self.meshes:  # type: ignore[comparison-overlap]
            m = self.model
            va, vn = int(m.mesh_vertadr[mesh_id]), int(m.mesh_vertnum[mesh_id])
            fa, fn = int(m.mesh_faceadr[mesh_id]), int(m.mesh_facenum[mesh_id])
            part = VisualPart(np.asarray(m.mesh_vert[va:va + vn], dtype=float),
                              np.asarray(m.mesh_face[fa:fa + fn], dtype=np.int64), rgba)  # type: ignore[arg-type]
            self.meshes[key] = self.b.add_mesh(m.mesh(mesh_id).name or f"mesh{mesh_id}", [part])  # type: ignore[index]
        return self.meshes[key]  # type: ignore[index]


def _xyzw(wxyz: Any) -> tuple[float, float, float, float]:
    return (float(wxyz[1]), float(wxyz[2]), float(wxyz[3]), float(wxyz[0]))
