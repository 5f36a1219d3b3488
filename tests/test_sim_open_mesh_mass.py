"""An open triangle mesh on a dynamic body weighs as the solid box of its bounds (``geometry.integrals.bounds_mass``).

It encloses no volume; the spec derives a body's mass from its colliders' volume at a density in kg/m³, and
the spec author's reference (Babylon.js on Havok) gives such a mesh the mass properties of its bounding box.
Before, any volume-less body got the inertia of a 1 m cube of its mass whatever its size.
"""

from __future__ import annotations

import numpy as np
import pytest

from gltf_physics.geometry.hulls import hull_triangles, is_closed
from gltf_physics.geometry.mass import body_mass_properties
from gltf_physics.gltf.document import Document
from gltf_physics.model import Body, Collider, MeshShape, Motion, PhysicsScene
from gltf_physics.sim import World

# A 0.2 × 0.4 × 0.6 m box surface centred at (1, 2, 3), one triangle missing (open).
BOX_V = np.array([[1 + x, 2 + y, 3 + z] for x in (-0.1, 0.1) for y in (-0.2, 0.2) for z in (-0.3, 0.3)])
OPEN = hull_triangles(BOX_V)[:-1]


def _scene(motion: Motion) -> PhysicsScene:
    return PhysicsScene(bodies=[Body(0, motion)], colliders=[Collider(0, MeshShape(convex=False, mesh=0), body=0)],
                        document=Document(json={"nodes": [{}]}))


def test_open_mesh_with_a_given_mass_has_the_inertia_of_its_bounds():
    # m = 2 kg: I = m/12·(b² + c², a² + c², a² + b²) = (0.0867, 0.0667, 0.0333) kg·m², centred on the bounds'
    # centre (1, 2, 3) — the 1 m cube fallback gave m/6 = 0.333 on every axis at the origin.
    assert not is_closed(BOX_V, OPEN)
    scene = _scene(Motion(mass=2.0))
    mp = body_mass_properties(scene, scene.bodies[0], mesh_source=lambda s: (BOX_V, OPEN))
    assert mp.mass == 2.0
    assert mp.center_of_mass == pytest.approx((1.0, 2.0, 3.0))
    assert mp.inertia_diagonal == pytest.approx((2 / 12 * 0.52, 2 / 12 * 0.40, 2 / 12 * 0.20))


def test_open_mesh_without_a_mass_weighs_its_bounds_at_the_density():
    # No mass in the file: ρ·V of the bounds = 1000 · 0.048 = 48 kg, the same in the runtime as in the model.
    scene = _scene(Motion())
    mp = body_mass_properties(scene, scene.bodies[0], mesh_source=lambda s: (BOX_V, OPEN))
    assert mp.mass == pytest.approx(48.0)
    w = World(scene, mesh_source=lambda s: (BOX_V, OPEN))
    assert w.mass_properties(0).mass == pytest.approx(48.0)
    assert w.mass_properties(0).inertia_diagonal == pytest.approx(mp.inertia_diagonal)
