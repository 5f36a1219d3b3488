"""Hulls, fitted primitives and the fit report (gltf_physics.author): exact numbers on meshes whose answer is known."""

from __future__ import annotations

import math

import numpy as np
import pytest

from author_meshes import box, revolve, torus
from gltf_physics.author.fit import fit_box, fit_capsule, fit_cylinder, fit_sphere
from gltf_physics.author.measure import measure, primitive_mesh
from gltf_physics.geometry.hulls import convex_hull, hull_triangles
from gltf_physics.geometry.integrals import mesh_mass
from gltf_physics.gltf.transforms import quat_to_matrix
from gltf_physics.model import Box, Capsule, Cylinder, Sphere

TILT = quat_to_matrix(np.array([0.3, -0.2, 0.4, 0.84]) / np.linalg.norm([0.3, -0.2, 0.4, 0.84]))


def test_hull_of_a_box_with_inner_points_is_its_twelve_outward_faces_and_its_volume() -> None:
    v, _ = box(1, 2, 3)
    inner = np.random.default_rng(0).uniform(-0.4, 0.4, (50, 3))
    hull = convex_hull(np.concatenate([v, inner]))
    assert hull is not None
    assert len(hull.points) == 8 and len(hull.triangles) == 12
    assert hull.volume == pytest.approx(6.0, abs=1e-12)
    a, b, c = (hull.points[hull.triangles[:, k]] for k in range(3))
    outward = np.einsum("ij,ij->i", np.cross(b - a, c - a), a - hull.points.mean(axis=0))
    assert (outward > 0).all()


def test_hull_triangles_bound_every_point_with_planes_through_input_points() -> None:
    # The hull by its definition, checked without qhull: every input point on the inner side of every face's plane,
    # each face three input points, wound outward; and the volume of a known solid (a cube with points inside).
    p = np.random.default_rng(3).normal(size=(400, 3))
    tris = hull_triangles(p)
    a, b, c = (p[tris[:, k]] for k in range(3))
    normals = np.cross(b - a, c - a)
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    side = np.einsum("fpj,fj->fp", p[None, :, :] - a[:, None, :], normals)  # signed distance, face by point
    assert side.max() <= 1e-9  # no input point outside any face
    assert (np.einsum("ij,ij->i", normals, a - p.mean(axis=0)) > 0).all()  # outward
    cube = np.array([[x, y, z] for x in (0, 2) for y in (0, 3) for z in (0, 1)], dtype=float)
    inside = np.random.default_rng(4).uniform([0, 0, 0], [2, 3, 1], size=(50, 3))
    points = np.concatenate([cube, inside])
    assert mesh_mass(points, hull_triangles(points))[0] == pytest.approx(6.0, rel=1e-12)


def test_flat_or_tiny_point_sets_have_no_hull() -> None:
    flat = np.c_[np.random.default_rng(1).uniform(size=(20, 2)), np.zeros(20)]
    assert convex_hull(flat) is None
    assert hull_triangles(flat).shape == (0, 3)
    assert hull_triangles(np.eye(3)).shape == (0, 3)


def test_box_fit_of_a_rotated_offset_box_recovers_its_sizes_pose_and_volume() -> None:
    v, _ = box(1, 2, 3)
    moved = v @ TILT.T + [0.5, -1.0, 2.0]
    f = fit_box(moved)
    assert isinstance(f.shape, Box)
    assert sorted(f.shape.size) == pytest.approx([1, 2, 3], abs=1e-9)
    assert f.volume == pytest.approx(6.0, abs=1e-9)
    assert f.centre == pytest.approx([0.5, -1.0, 2.0], abs=1e-9)
    assert np.linalg.det(f.rotation) == pytest.approx(1.0)
    local = (moved - f.centre) @ f.rotation  # the mesh in the box's frame: inside ± size / 2
    assert np.abs(local).max(axis=0) == pytest.approx(np.asarray(f.shape.size) / 2, abs=1e-9)


def test_box_fit_of_an_axis_aligned_mesh_stays_unrotated() -> None:
    f = fit_box(box(0.2, 0.4, 0.6, centre=(1, 2, 3))[0])
    assert np.array_equal(f.rotation, np.eye(3))
    assert f.shape.size == pytest.approx((0.2, 0.4, 0.6))
    assert f.centre == pytest.approx([1, 2, 3])


def test_sphere_fit_of_points_on_a_sphere_is_that_sphere() -> None:
    rng = np.random.default_rng(2)
    d = rng.normal(size=(500, 3))
    p = 0.7 * d / np.linalg.norm(d, axis=1, keepdims=True) + [1, 2, 3]
    f = fit_sphere(p)
    assert isinstance(f.shape, Sphere)
    assert f.shape.radius == pytest.approx(0.7, rel=1e-3)
    assert f.centre == pytest.approx([1, 2, 3], abs=1e-3)


def test_cylinder_fit_of_a_tilted_cylinder_mesh_is_that_cylinder() -> None:
    v, _ = revolve([(0, -1), (0.5, -1), (0.5, 1), (0, 1)], segments=48)
    f = fit_cylinder(v @ TILT.T + [0, 3, 0])
    assert isinstance(f.shape, Cylinder)
    assert f.shape.radius_bottom == pytest.approx(0.5, rel=1e-6)
    assert f.shape.height == pytest.approx(2.0, rel=1e-6)
    assert abs(f.rotation[:, 1] @ TILT[:, 1]) == pytest.approx(1.0, abs=1e-6)  # the mesh's axis (either way)
    assert f.centre == pytest.approx([0, 3, 0], abs=1e-6)


def test_capsule_fit_of_a_capsule_mesh_recovers_segment_and_radius() -> None:
    arc = [(0.3 * math.sin(a), -0.5 - 0.3 * math.cos(a)) for a in np.linspace(0, math.pi / 2, 9)]
    top = [(r, -y) for r, y in reversed(arc)]
    v, _ = revolve(arc + top, segments=64)
    f = fit_capsule(v)
    assert isinstance(f.shape, Capsule)
    # a tessellated capsule's widest ring has radius 0.3 exactly (its vertices lie on the true surface)
    assert f.shape.radius_bottom == pytest.approx(0.3, rel=1e-6)
    assert f.shape.height == pytest.approx(1.0, rel=1e-3)
    assert f.volume == pytest.approx(math.pi * 0.09 * 1.0 + 4 / 3 * math.pi * 0.027, rel=2e-3)


def test_fit_report_numbers_of_a_box_around_a_sphere_are_the_geometry() -> None:
    # A cube of side 2 around a unit sphere: volume ratio 8 / (4π/3); the deepest point of the sphere's surface
    # from the cube's faces is on a diagonal, 1 - 1/√3; the cube's corners are √3 - 1 from the sphere. Both over
    # the sphere's bounding-box diagonal 2√3.
    rng = np.random.default_rng(4)
    d = rng.normal(size=(4000, 3))
    p = d / np.linalg.norm(d, axis=1, keepdims=True)
    hull = convex_hull(p)
    assert hull is not None
    f = fit_box(p)
    cube = convex_hull(primitive_mesh(f.shape, f.matrix())[0])
    fitness = measure(hull.points, hull.triangles, [cube], hull, volume=f.volume)
    diag = float(np.linalg.norm(np.ptp(hull.points, axis=0)))
    assert fitness.volume_ratio == pytest.approx(f.volume / hull.volume)
    assert f.volume / (4 / 3 * math.pi) == pytest.approx(8 / (4 / 3 * math.pi), rel=0.01)
    assert fitness.mesh_to_collider * diag == pytest.approx(1 - 1 / math.sqrt(3), abs=0.01)
    assert fitness.collider_to_mesh * diag == pytest.approx(math.sqrt(3) - 1, abs=0.01)


def test_hull_of_a_torus_strays_by_the_hole() -> None:
    # The hull of a flat ring (tube radius r) closes the hole with flat caps at heights ±r; the tube's inner
    # equator, at height 0, is the drawn surface farthest from the hull: r from both caps.
    v, t = torus(0.4, 0.12, segments=48, sides=24)
    hull = convex_hull(v)
    assert hull is not None
    fitness = measure(v, t, [hull], hull)
    diag = float(np.linalg.norm(np.ptp(v, axis=0)))
    assert fitness.volume_ratio == pytest.approx(1.0)
    assert fitness.mesh_to_collider * diag == pytest.approx(0.12, rel=0.02)
