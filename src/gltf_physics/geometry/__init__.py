"""Geometry of the physics scene: engine-agnostic NumPy math on the data of :mod:`gltf_physics.model`.

One concern a module:

- :mod:`.placement` — a collider shape under its node's transform (scale folded in) → a :class:`PlacedShape` in
  its body frame; the mesh sources that give mesh shapes their triangles; placing many bodies at once.
- :mod:`.tessellation` — points whose hull is a round shape (non-uniform scale, engines without tapered shapes).
- :mod:`.hulls` — convex hull of a point set (own incremental quickhull) and the closed-mesh test.
- :mod:`.integrals` — volume, centre and inertia of one placed shape; summing parts; principal axes.
- :mod:`.frames` — body frames (a node's world pose without scale) and rigid inverses.
- :mod:`.mass` — a body's mass properties (the file's values over the computed ones) and :class:`MassCache`,
  what the bodies of a big scene share while their masses are computed.
- :mod:`.limits` — what an engine can build: limits a placed shape, a body's numbers and a joint must respect.

A new shape kind is the model class plus one function per geometry operation, each registered in its module's
table (keyed by the model class, or for mass by the placed kind):

1. the dataclass in ``model/shapes.py``, its name in ``SHAPE_KINDS`` there (for reports);
2. placement: ``placement._EXACT`` — the shape under a transform that keeps its kind (``None`` otherwise: it
   then becomes the hull of its tessellation);
3. tessellation: ``tessellation._POINTS`` — points whose hull is the shape;
4. mass: ``integrals._MASS`` — volume, centre and inertia of its placed kind;
5. limits: ``limits._SIZES`` (its size numbers, for the fast check) and :func:`limits.placed_problem`.

Outside geometry, each consumer of placed shapes gets one entry: the engines (``sim/rapier/shapes.py``,
``sim/mujoco/``), the formats (``formats/mjcf/geoms.py``, ``formats/usd/``), the validator's overlap test
(``validation/overlap.py``, ``validation/broadphase.py``), the viewer overlay (``view/overlay.py``,
``view/png.py``), and the readers and writers of every extension family that spells it (``dialects/``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import exports, listing

if TYPE_CHECKING:
    from .frames import body_frame, inverse_body_frame, inverse_body_frames, rigid_inverse, rigid_inverses
    from .hulls import Hull, convex_hull, hull_triangles, is_closed
    from .integrals import Part, bounds_mass, combine_parts, mesh_mass, placed_mass, principal_axes
    from .limits import placed_problem, scene_problems
    from .mass import MassCache, MassProperties, apply_overrides, body_mass_properties, has_axes
    from .placement import (
        MeshSource,
        PlacedShape,
        body_placements,
        bulk_placements,
        colliders_by_body,
        document_mesh_source,
        place_shape,
    )
    from .tessellation import SEGMENTS, capsule_points, cylinder_points, shape_points

_WHERE = {
    **dict.fromkeys(("body_frame", "inverse_body_frame", "inverse_body_frames", "rigid_inverse", "rigid_inverses"),
                    "frames"),
    **dict.fromkeys(("Hull", "convex_hull", "hull_triangles", "is_closed"), "hulls"),
    **dict.fromkeys(("Part", "bounds_mass", "combine_parts", "mesh_mass", "placed_mass", "principal_axes"),
                    "integrals"),
    **dict.fromkeys(("placed_problem", "scene_problems"), "limits"),
    **dict.fromkeys(("MassCache", "MassProperties", "apply_overrides", "body_mass_properties", "has_axes"), "mass"),
    **dict.fromkeys(("MeshSource", "PlacedShape", "body_placements", "bulk_placements", "colliders_by_body",
                     "document_mesh_source", "place_shape"), "placement"),
    **dict.fromkeys(("SEGMENTS", "capsule_points", "cylinder_points", "shape_points"), "tessellation"),
}

__all__ = [
    "SEGMENTS",
    "Hull",
    "MassCache",
    "MassProperties",
    "MeshSource",
    "Part",
    "PlacedShape",
    "apply_overrides",
    "body_frame",
    "body_mass_properties",
    "body_placements",
    "bounds_mass",
    "bulk_placements",
    "capsule_points",
    "colliders_by_body",
    "combine_parts",
    "convex_hull",
    "cylinder_points",
    "document_mesh_source",
    "has_axes",
    "hull_triangles",
    "inverse_body_frame",
    "inverse_body_frames",
    "is_closed",
    "mesh_mass",
    "place_shape",
    "placed_mass",
    "placed_problem",
    "principal_axes",
    "rigid_inverse",
    "rigid_inverses",
    "scene_problems",
    "shape_points",
]

__getattr__ = exports(__name__, _WHERE)
__dir__ = listing(__name__, __all__)
