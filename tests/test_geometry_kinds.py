"""Each geometry operation has one function per shape kind, in its module's table: the tables name the same
kinds as the model, so a kind added to the model and forgotten in one operation fails here, not in a file."""

from __future__ import annotations

from gltf_physics.geometry import integrals, limits, placement, tessellation
from gltf_physics.model.shapes import SHAPE_KINDS, MeshShape, Plane


def test_every_primitive_kind_has_a_placement_points_sizes_and_a_mass() -> None:
    primitives = set(SHAPE_KINDS) - {MeshShape}
    assert set(placement._EXACT) == primitives
    assert set(tessellation._POINTS) == primitives - {Plane}  # a plane is never turned into a hull
    assert set(limits._SIZES) == primitives - {Plane}  # a plane takes the exact check
    placed_kinds = {SHAPE_KINDS[cls] for cls in primitives} - {"plane"} | {"convex", "trimesh"}
    assert set(integrals._MASS) == placed_kinds  # a plane has no mass
