"""Mass properties from shapes (geometry/), checked against hand formulas (docs/semantics.md, docs/semantics.md)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gltf_physics.geometry.hulls import hull_triangles, is_closed
from gltf_physics.geometry.integrals import mesh_mass, placed_mass
from gltf_physics.geometry.mass import body_mass_properties, has_axes
from gltf_physics.geometry.placement import place_shape
from gltf_physics.geometry.tessellation import capsule_points
from gltf_physics.gltf.document import Document
from gltf_physics.model import (
    Body,
    Box,
    Capsule,
    Collider,
    Cylinder,
    MeshShape,
    Motion,
    PhysicsScene,
    Plane,
    Sphere,
)

RHO = 1000.0
CUBE_V = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])


def scene(nodes: list[dict], bodies: list[Body], colliders: list[Collider]) -> PhysicsScene:
    return PhysicsScene(bodies=bodies, colliders=colliders, document=Document(json={"nodes": nodes}))


def one_shape(shape, motion: Motion | None = None, node: dict | None = None, **kw):
    s = scene([node or {}], [Body(0, motion or Motion())], [Collider(0, shape, body=0)])
    return body_mass_properties(s, s.bodies[0], **kw)


def test_box_1x2x3():
    # m = ρabc = 6000 kg; I = m/12·(b²+c², a²+c², a²+b²) = 500·(13, 10, 5)
    mp = one_shape(Box((1.0, 2.0, 3.0)))
    assert mp.mass == pytest.approx(6000.0)
    assert mp.inertia_diagonal == pytest.approx((6500.0, 5000.0, 2500.0))
    assert mp.center_of_mass == pytest.approx((0, 0, 0))
    assert mp.inertia_orientation == (0.0, 0.0, 0.0, 1.0)


def test_sphere():
    # m = ρ·4/3·π·r³ = 523.599 kg for r = 0.5; I = 2/5·m·r² = 52.360
    mp = one_shape(Sphere(0.5))
    assert mp.mass == pytest.approx(523.5987756)
    assert mp.inertia_diagonal == pytest.approx((52.35987756,) * 3)


def test_capsule_mid_height():
    # r = 0.5, h = 1 between centres: cylinder m_c = ρπr²h = 785.398, hemispheres m_s = ρ·4/3πr³ = 523.599;
    # I_y = m_c r²/2 + 2/5 m_s r²; I_x = m_c (h²/12 + r²/4) + m_s (2r²/5 + h²/4 + 3hr/8)
    mc, ms, r, h = 785.3981634, 523.5987756, 0.5, 1.0
    mp = one_shape(Capsule(1.0, 0.5, 0.5))
    assert mp.mass == pytest.approx(mc + ms)
    ix = mc * (h * h / 12 + r * r / 4) + ms * (2 * r * r / 5 + h * h / 4 + 3 * h * r / 8)
    iy = mc * r * r / 2 + 0.4 * ms * r * r
    assert mp.inertia_diagonal == pytest.approx((ix, iy, ix))


def test_cylinder_and_cone():
    # cylinder r = 0.5, h = 2: m = ρπr²h = 1570.80, I_y = m r²/2 = 196.35, I_x = m (3r² + h²)/12 = 621.77
    mp = one_shape(Cylinder(2.0, 0.5, 0.5))
    assert mp.mass == pytest.approx(1570.796327)
    assert mp.inertia_diagonal == pytest.approx((621.7735, 196.3495, 621.7735), rel=1e-6)
    # cone (radius top 0): m = ρπr²h/3 = 523.60; centre h/4 above the base (base at −1): y = −0.5;
    # I_y = 3/10 m r² = 39.27; I_x about the centre = m (3r²/20 + 3h²/80) = 98.17
    cone = one_shape(Cylinder(2.0, 0.5, 0.0))
    assert cone.mass == pytest.approx(523.5987756)
    assert cone.center_of_mass == pytest.approx((0, -0.5, 0))
    assert cone.inertia_diagonal == pytest.approx((98.17477, 39.26991, 98.17477), rel=1e-6)


def test_tapered_capsule_matches_hull_of_fine_tessellation():
    # exact revolution integral vs. the hull of a 48-segment tessellation (0.5 % below)
    exact = placed_mass(place_shape(Capsule(1.0, 0.5, 0.25), np.eye(4)))
    pts = capsule_points(0.5, 0.5, 0.25, 48)
    approx = mesh_mass(pts, hull_triangles(pts))
    assert approx[0] == pytest.approx(exact[0], rel=6e-3)
    assert approx[0] < exact[0]
    assert approx[1] == pytest.approx(exact[1], abs=1e-3)


def test_compound_of_two_offset_spheres_parallel_axis():
    # two r = 0.5 spheres at x = ±1: m = 2·523.599; I_x = 2·(2/5 m r²); I_y = I_z = 2·(2/5 m r² + m·1²)
    nodes = [{"children": [1, 2]}, {"translation": [1, 0, 0]}, {"translation": [-1, 0, 0]}]
    parts = [Collider(1, Sphere(0.5), body=0), Collider(2, Sphere(0.5), body=0)]
    s = scene(nodes, [Body(0, Motion())], parts)
    mp = body_mass_properties(s, s.bodies[0])
    m = 523.5987756
    assert mp.mass == pytest.approx(2 * m)
    assert mp.inertia_diagonal == pytest.approx((2 * 0.1 * m, 2 * (0.1 * m + m), 2 * (0.1 * m + m)))
    assert mp.center_of_mass == pytest.approx((0, 0, 0))


def test_offset_compound_centre_of_mass_and_rotated_principal_axes():
    # box 1×1×1 (1000 kg) at x = 0 and at (1, 1, 0): centre (0.5, 0.5, 0); the product of inertia
    # −Σ m x y = −2·1000·(−0.5·−0.5 + 0.5·0.5)… gives principal axes at 45° about Z
    nodes = [{"children": [1, 2]}, {}, {"translation": [1, 1, 0]}]
    s = scene(nodes, [Body(0, Motion())], [Collider(1, Box(), body=0), Collider(2, Box(), body=0)])
    mp = body_mass_properties(s, s.bodies[0])
    assert mp.mass == pytest.approx(2000.0)
    assert mp.center_of_mass == pytest.approx((0.5, 0.5, 0))
    # I about the centre: Ixx = Iyy = 2·(1000/6 + 1000·0.25) = 833.33, Izz = 2·(1000/6 + 1000·0.5) = 1333.33,
    # Ixy = −Σ m x y = −2·1000·0.25 = −500 ⇒ eigenvalues 333.33, 1333.33 (twice)
    assert sorted(mp.inertia_diagonal) == pytest.approx([333.3333, 1333.3333, 1333.3333])


def test_mass_override_scales_computed_inertia():
    # box 1×2×3 with mass 12 kg: I = 12/12·(13, 10, 5)
    mp = one_shape(Box((1.0, 2.0, 3.0)), Motion(mass=12.0))
    assert mp.mass == 12.0
    assert mp.inertia_diagonal == pytest.approx((13.0, 10.0, 5.0))


def test_explicit_inertia_and_centre_win_and_infinite_mass():
    motion = Motion(mass=2.0, center_of_mass=(0, -0.25, 0), inertia_diagonal=(1.0, math.inf, 3.0),
                    inertia_orientation=(0, 0.6, 0, 0.8))
    mp = one_shape(Box(), motion)
    assert (mp.mass, mp.center_of_mass, mp.inertia_diagonal) == (2.0, (0.0, -0.25, 0.0), (1.0, math.inf, 3.0))
    assert mp.inertia_orientation == (0, 0.6, 0, 0.8)
    inf = one_shape(Box(), Motion(mass=math.inf))
    assert inf.mass == math.inf and inf.inertia_diagonal == pytest.approx((1000 / 6,) * 3)


def test_omi_default_mass_one_with_computed_inertia():
    # OMI: mass 1 kg default, inertia zeros ⇒ computed (D-6): a unit cube of 1 kg has I = 1/6
    mp = one_shape(Box(), Motion(mass=1.0))
    assert mp.inertia_diagonal == pytest.approx((1 / 6,) * 3)


def test_scale_uniform_and_non_uniform_box():
    # node scale 2 on a unit box: 8 m³ = 8000 kg; scale (1,2,3) on a box is exact: 6 m³
    assert one_shape(Box(), node={"scale": [2, 2, 2]}).mass == pytest.approx(8000.0)
    assert one_shape(Box(), node={"scale": [1, 2, 3]}).mass == pytest.approx(6000.0)
    # negative scale ⇒ |scale| (KRB-12); zero scale disables the shape (no volume ⇒ 1 kg fallback)
    assert one_shape(Box(), node={"scale": [-2, 2, 2]}).mass == pytest.approx(8000.0)
    assert one_shape(Box(), node={"scale": [0, 0, 0]}).mass == 1.0


def test_non_uniform_sphere_becomes_ellipsoid_hull():
    # sphere r = 0.5 scaled (2,1,1): ellipsoid volume 4/3·π·1·0.5·0.5 = 1.0472 m³ (hull of 32-gon tessellation
    # loses 1.6 %)
    mp = one_shape(Sphere(0.5), node={"scale": [2, 1, 1]})
    assert mp.mass == pytest.approx(1047.1976, rel=0.02)
    assert mp.mass < 1047.1976


def test_convex_and_closed_trimesh_of_a_cube_mesh():
    tris = hull_triangles(CUBE_V)
    assert len(tris) == 12 and is_closed(CUBE_V, tris)

    def source(shape: MeshShape):
        return CUBE_V, tris

    for convex in (True, False):
        mp = one_shape(MeshShape(convex=convex, mesh=0), mesh_source=source)
        assert mp.mass == pytest.approx(1000.0)
        assert mp.inertia_diagonal == pytest.approx((1000 / 6,) * 3)


def test_open_trimesh_weighs_as_its_bounds_and_a_plane_has_no_volume():
    tris = hull_triangles(CUBE_V)[:-1]  # one triangle missing: open
    assert not is_closed(CUBE_V, tris)
    mp = one_shape(MeshShape(convex=False, mesh=0), Motion(mass=3.0), mesh_source=lambda s: (CUBE_V, tris))
    assert (mp.mass, mp.inertia_diagonal) == (3.0, (0.5, 0.5, 0.5))  # its bounds: the 1 m cube, m/6
    assert one_shape(Plane(), Motion(mass=2.0)).mass == 2.0


def test_flat_points_have_an_empty_hull():
    flat = np.array([[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1], [0.5, 0, 0.5]], dtype=float)
    assert hull_triangles(flat).shape == (0, 3)


def test_given_colliders_and_world_only_count_that_body():
    # Two bodies, a 1 m cube each (1000 kg); body 0 also has a second cube at x = 2 ⇒ 2000 kg, centre x = 1.
    # colliders=[0, 2] is body 0's list as colliders_by_body gives it; world is the precomputed matrices.
    nodes = [{}, {"translation": [5.0, 0.0, 0.0]}, {"translation": [2.0, 0.0, 0.0]}]
    cube = Box((1.0, 1.0, 1.0))
    s = scene(nodes, [Body(0, Motion()), Body(1, Motion())],
              [Collider(0, cube, body=0), Collider(1, cube, body=1), Collider(2, cube, body=0)])
    world = [np.eye(4), np.eye(4), np.eye(4)]
    world[1][0, 3], world[2][0, 3] = 5.0, 2.0
    mp = body_mass_properties(s, s.bodies[0], world=world, colliders=[0, 2])
    assert (mp.mass, mp.center_of_mass) == (pytest.approx(2000.0), pytest.approx((1.0, 0.0, 0.0)))
    assert body_mass_properties(s, s.bodies[0]) == mp  # the same as searching the scene
    assert body_mass_properties(s, s.bodies[0], colliders=[0]).mass == pytest.approx(1000.0)


def test_huge_sphere_gives_inf_and_nan_not_an_exception():
    # r = 1e200: r³ overflows a double (r**3 raised OverflowError). Volume and mass are +inf; inf·0 in the
    # rotation to the body frame makes the tensor NaN, so there are no principal axes (eigh raised
    # LinAlgError): has_axes() is False and `info` reports the body as "nan" with an error.
    with np.errstate(all="ignore"):
        mp = one_shape(Sphere(1e200))
    assert mp.mass == math.inf
    assert all(math.isnan(v) for v in (*mp.inertia_diagonal, *mp.inertia_orientation))
    assert has_axes(mp) is False
    assert has_axes(one_shape(Sphere(0.5))) is True
