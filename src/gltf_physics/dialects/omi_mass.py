"""The computed mass properties the OMI writer needs for every KHR body without mass or centre of mass, in
linear time with few NumPy calls per body (issue 11: 50k-node convert ≤ 2 s).

Bit-identical to :func:`~gltf_physics.model.mass.body_mass_properties` (the output's numbers must not move
by an ulp), by only ever skipping work whose inputs are the same bytes as before:

- a body frame's rotation depends only on the 3×3 of its world matrix: decomposed once per distinct 3×3;
- a body's result depends only on its motion's explicit values and each collider's (shape, relative matrix):
  equal keys (bodies built alike: every box on its own node) share one computation;
- the inverse world matrices :meth:`node_com` needs come from one stacked ``np.linalg.inv`` (LAPACK per
  matrix, as for a single one) instead of one call per body.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..gltf.transforms import affine_inverse, decompose, quat_to_matrix
from ..model import Body, PhysicsScene
from ..model.mass import (
    MassProperties,
    apply_overrides,
    combine_parts,
    place_shape,
    placed_mass,
    rigid_inverse,
)

_TINY = 1e-6  # m: a computed centre of mass component this small is float noise of the mesh data (float32)


class BodyMasses:
    """Memoised mass properties (density ``density``) of a scene's bodies over fixed world matrices."""

    def __init__(self, scene: PhysicsScene, world: list[np.ndarray], density: float, mesh_source: Any,
                 colliders: dict[int | None, list[int]]) -> None:
        self.scene, self.world, self.density, self.meshes = scene, world, density, mesh_source
        self.colliders = colliders
        self._rotations: dict[bytes, np.ndarray] = {}  # 3×3 bytes → the rigid 4×4 without translation
        self._results: dict[Any, MassProperties] = {}
        self._inverses: dict[int, np.ndarray] | None = None

    def frame(self, node: int) -> np.ndarray:
        """:func:`~gltf_physics.model.mass.body_frame` of ``node``'s world matrix."""
        m = self.world[node]
        key = m[:3, :3].tobytes()
        rigid = self._rotations.get(key)
        if rigid is None:
            _, q, _ = decompose(m)
            rigid = np.eye(4)
            rigid[:3, :3] = quat_to_matrix(q)
            self._rotations[key] = rigid
        out = rigid.copy()
        out[:3, 3] = m[:3, 3]  # decompose's translation is the matrix's last column, exactly
        return out

    def of(self, body: Body) -> MassProperties:
        """``body_mass_properties(scene, body, density, mesh_source, world=…, colliders=…)``."""
        inv = rigid_inverse(self.frame(body.node))
        cols = self.scene.colliders
        placements = []
        for k in self.colliders.get(body.node, []):
            rel = inv @ self.world[cols[k].node]
            placements.append((cols[k].shape, rel))
        m = body.motion
        try:
            key: Any = None if m.center_of_mass is not None else (m.mass, m.inertia_diagonal, m.inertia_orientation,
                        tuple((shape, rel.tobytes()) for shape, rel in placements))
            hash(key)
        except TypeError:  # an unhashable shape: no sharing, the same computation
            key = None
        # An explicit centre of mass makes the result depend on the node's own matrix: never shared.
        if key is not None and key in self._results:
            return self._results[key]
        placed = [p for p in (place_shape(shape, rel, self.meshes) for shape, rel in placements) if p is not None]
        v, com, inertia = combine_parts([placed_mass(p) for p in placed])
        mp = apply_overrides(body, (v * self.density, com, inertia * self.density), self.world[body.node])
        if key is not None:
            self._results[key] = mp
        return mp

    def node_com(self, body: Body, computed: MassProperties) -> tuple[float, ...]:
        """The computed centre (body frame) in node space, components within ``_TINY`` written as 0."""
        point = self.frame(body.node) @ np.array([*computed.center_of_mass, 1.0])
        local = (self._inverse(body.node) @ point)[:3]
        return tuple(0.0 if abs(c) <= _TINY else float(c) for c in local)

    def _inverse(self, node: int) -> np.ndarray:
        """:func:`~gltf_physics.gltf.transforms.affine_inverse` of ``node``'s world matrix; the regular ones of
        every body node computed in one stacked call on first use."""
        if self._inverses is None:
            self._inverses = _regular_inverses(self.world, sorted({b.node for b in self.scene.bodies}))
        inv = self._inverses.get(node)
        return inv if inv is not None else affine_inverse(self.world[node])


def _regular_inverses(world: list[np.ndarray], nodes: list[int]) -> dict[int, np.ndarray]:
    """node → inverse for the nodes whose world matrix takes affine_inverse's ``np.linalg.inv`` path (finite,
    |det| of the 3×3 over 1e-300, finite inverse); the others are left to affine_inverse."""
    nodes = [n for n in nodes if 0 <= n < len(world)]
    if not nodes:
        return {}
    stack = np.stack([world[n] for n in nodes])
    with np.errstate(all="ignore"):
        finite = np.isfinite(stack).all(axis=(1, 2))
        dets = np.zeros(len(nodes))
        dets[finite] = np.linalg.det(stack[finite, :3, :3])
        regular = finite & (np.abs(dets) > 1e-300)
        try:
            inverses = np.linalg.inv(stack[regular])
        except np.linalg.LinAlgError:  # an exact zero pivot despite the determinant: each one on its own
            return {}
    chosen = [n for n, ok in zip(nodes, regular.tolist(), strict=True) if ok]
    good = np.isfinite(inverses).all(axis=(1, 2)).tolist()
    return {n: inverses[i] for i, n in enumerate(chosen) if good[i]}


def is_finite(mp: MassProperties) -> bool:
    """Every number of ``mp`` finite (NaN/∞ cannot be written)."""
    values = (mp.mass, *mp.center_of_mass, *mp.inertia_diagonal, *mp.inertia_orientation)
    return all(math.isfinite(v) for v in values)
