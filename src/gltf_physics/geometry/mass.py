"""Mass properties of bodies from their collider shapes, and the bulk cache a big scene shares.

Engine-agnostic NumPy math shared by ``gltf-physics info``, the writers and the runtime, so all report the same
numbers. Each collider is placed in its body frame (:mod:`.placement`), integrated (:mod:`.integrals`), the parts
summed with the parallel-axis theorem, then the file's explicit values override (:func:`apply_overrides`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..gltf.transforms import world_matrices
from ..model.bodies import IDENTITY_QUAT, Body, Quat
from ..model.scene import PhysicsScene
from ..model.shapes import Shape, Vec3
from .frames import body_frame, inverse_body_frame, inverse_body_frames
from .integrals import Part, combine_parts, placed_mass, principal_axes
from .placement import MeshSource, PlacedShape, body_placements, document_mesh_source, place_shape


@dataclass(frozen=True)
class MassProperties:
    """Mass (kg, ``math.inf`` = infinite), centre of mass (body frame), principal inertia (kg·m², a component
    ``math.inf`` = no rotation about that axis) and the principal axes' orientation in the body frame."""

    mass: float
    center_of_mass: Vec3
    inertia_diagonal: Vec3
    inertia_orientation: Quat = IDENTITY_QUAT


def apply_overrides(body: Body, computed: Part, node_world: np.ndarray,
                    cache: MassCache | None = None) -> MassProperties:
    """The file's explicit values over the computed ones (D-5, D-6).

    mass given ⇒ computed inertia scaled by mass/computed mass (inertia not given); centre of mass given
    (node space) ⇒ replaces the computed one, inertia kept; inertia given ⇒ used with its orientation.
    Without any volume a body gets 1 kg (when the file gives none) and the inertia of a 1 m cube of its mass
    (m/6 per axis), centred on its origin, so the engine never sees a zero-mass dynamic body.
    """
    m = body.motion
    volume_mass, com, inertia = computed
    if volume_mass <= 0:
        mass = 1.0 if m.mass is None else m.mass
        inertia = np.eye(3) * ((mass if math.isfinite(mass) else 1.0) / 6)
        com = np.zeros(3)
    elif m.mass is None:
        mass = volume_mass
    elif math.isinf(m.mass):
        mass = math.inf  # infinite mass: inertia stays the density-based one
    else:
        mass = m.mass
        inertia = inertia * (mass / volume_mass)
    if m.center_of_mass is not None:
        frame = body_frame(node_world)
        p = node_world @ np.array([*m.center_of_mass, 1.0])
        com = (np.linalg.inv(frame) @ p)[:3]
    if m.inertia_diagonal is not None:
        diag, orient = tuple(float(v) for v in m.inertia_diagonal), m.inertia_orientation
    else:
        diag, orient = principal_axes(inertia) if cache is None else cache.axes(inertia)
    centre = (float(com[0]), float(com[1]), float(com[2]))
    return MassProperties(float(mass), centre, diag, orient)  # type: ignore[arg-type]


class MassCache:
    """What bodies of one scene share while their mass properties are computed (see
    :func:`body_mass_properties`): placed shapes per (shape, exact relative transform), each placed shape's
    mass, principal axes per exact inertia tensor. Keys are exact bytes, so a hit returns exactly what the
    computation would: the ten thousand identical boxes of a big scene are integrated once.

    Entries keep their shape objects alive, so an ``id`` in a key always names the object it was made for.
    """

    def __init__(self) -> None:
        self._placed: dict[tuple[int, bytes], tuple[Shape, PlacedShape | None]] = {}
        self._parts: dict[int, tuple[PlacedShape, Part]] = {}
        self._axes: dict[bytes, tuple[Vec3, Quat]] = {}
        self._bodies: dict[tuple[object, ...], tuple[list[Part], MassProperties]] = {}
        self._inverse: dict[int, np.ndarray] = {}
        self._rel: dict[tuple[int, int], np.ndarray] = {}
        self._world: list[np.ndarray] | None = None  # what the prepared frames were computed from

    def prepare(self, scene: PhysicsScene, world: list[np.ndarray], nodes: list[int],
                colliders: dict[int | None, list[int]]) -> None:
        """Compute in one NumPy pass the inverse body frames of the bodies on ``nodes``
        (:func:`inverse_body_frames`) and every one of their colliders' transforms relative to them
        (``colliders``: :func:`colliders_by_body`); used when later calls pass the same ``world`` list."""
        self._world, self._inverse, self._rel = world, {}, {}
        if not nodes:
            return
        inverse = inverse_body_frames(np.stack([world[n] for n in nodes]))
        self._inverse = dict(zip(nodes, inverse, strict=True))
        pairs = [(j, n, k) for j, n in enumerate(nodes) for k in colliders.get(n, [])]
        if pairs:  # one batched product: the same per-matrix result as inv @ world[...] (matmul loops over them)
            rel = np.matmul(inverse[[j for j, _, _ in pairs]],
                            np.stack([world[scene.colliders[k].node] for _, _, k in pairs]))
            self._rel = dict(zip(((n, k) for _, n, k in pairs), rel, strict=True))

    def relative(self, scene: PhysicsScene, world: list[np.ndarray], node: int, k: int) -> np.ndarray:
        """Collider ``k``'s transform in the body frame of ``node``: prepared, else computed."""
        if world is self._world:
            found = self._rel.get((node, k))
            if found is not None:
                return found
        inverse = self._inverse.get(node) if world is self._world else None
        if inverse is None:
            inverse = inverse_body_frame(world[node])
        return inverse @ world[scene.colliders[k].node]

    def place(self, shape: Shape, rel: np.ndarray, mesh_source: MeshSource | None) -> PlacedShape | None:
        """:func:`place_shape`, once per shape object and exact ``rel``."""
        key = (id(shape), rel.tobytes())
        hit = self._placed.get(key)
        if hit is None:
            hit = self._placed[key] = (shape, place_shape(shape, rel, mesh_source))
        return hit[1]

    def mass(self, placed: PlacedShape) -> Part:
        """:func:`placed_mass`, once per placed shape object (callers must not modify the arrays)."""
        hit = self._parts.get(id(placed))
        if hit is None:
            hit = self._parts[id(placed)] = (placed, placed_mass(placed))
        return hit[1]

    def body(self, body: Body, parts: list[Part], density: float, node_world: np.ndarray) -> MassProperties:
        """Parts summed and the file's values applied (:func:`apply_overrides`), once per combination of
        part objects, density and mass when the body gives no centre of mass or inertia (then nothing else,
        not even its pose, enters the result)."""
        m, key = body.motion, None
        if m.center_of_mass is None and m.inertia_diagonal is None and isinstance(density, float) and (
                m.mass is None or isinstance(m.mass, float)):
            # Signs too: 0.0 == -0.0 as keys, not as results.
            key = (density, math.copysign(1.0, density), m.mass,
                   None if m.mass is None else math.copysign(1.0, m.mass), *map(id, parts))
            hit = self._bodies.get(key)
            if hit is not None:
                return hit[1]
        v, com, inertia = combine_parts(parts)
        mp = apply_overrides(body, (v * density, com, inertia * density), node_world, self)
        if key is not None:
            self._bodies[key] = (parts, mp)  # the parts stay alive: the ids in the key stay theirs
        return mp

    def axes(self, inertia: np.ndarray) -> tuple[Vec3, Quat]:
        """:func:`principal_axes`, once per exact tensor."""
        key = inertia.tobytes()
        hit = self._axes.get(key)
        if hit is None:
            hit = self._axes[key] = principal_axes(inertia)
        return hit


def body_mass_properties(scene: PhysicsScene, body: Body, density: float = 1000.0,
                         mesh_source: MeshSource | None = None, *,
                         world: list[np.ndarray] | None = None,
                         colliders: list[int] | None = None,
                         cache: MassCache | None = None) -> MassProperties:
    """Mass properties of ``body`` in its body frame (its node's world pose without scale).

    For many bodies pass what is shared, so the whole scene costs linear time: ``world`` (the document's
    world matrices), ``mesh_source``, ``colliders`` (this body's collider indices, from
    :func:`colliders_by_body`) and one :class:`MassCache`. Without them each call recomputes the matrices
    and searches every collider. Non-finite inputs give inf/NaN values, never an exception (:func:`has_axes`
    tells the NaN case).
    """
    if world is None:
        world = world_matrices(scene.document.json if scene.document is not None else {})
    if mesh_source is None and scene.document is not None:
        mesh_source = document_mesh_source(scene.document)
    if cache is not None:
        return cache.body(body, _cached_parts(scene, body.node, world, mesh_source, colliders, cache), density,
                          world[body.node])
    placed = body_placements(scene, body.node, world, mesh_source, colliders=colliders)
    parts = [placed_mass(p) for _, p in placed]
    v, com, inertia = combine_parts(parts)
    return apply_overrides(body, (v * density, com, inertia * density), world[body.node])


def _cached_parts(scene: PhysicsScene, node: int, world: list[np.ndarray], mesh_source: MeshSource | None,
                  colliders: list[int] | None, cache: MassCache) -> list[Part]:
    if colliders is None:
        colliders = [k for k, col in enumerate(scene.colliders) if col.body == node]
    placed = [cache.place(scene.colliders[k].shape, cache.relative(scene, world, node, k), mesh_source)
              for k in colliders]
    return [cache.mass(p) for p in placed if p is not None]  # all placed first, as body_placements does


def has_axes(mp: MassProperties) -> bool:
    """False when the principal axes could not be found (NaN inertia, see :func:`principal_axes`)."""
    return not any(math.isnan(q) for q in mp.inertia_orientation)
