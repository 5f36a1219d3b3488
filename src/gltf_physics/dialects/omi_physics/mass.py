"""The computed mass properties the OMI writer needs for every KHR body without mass or centre of mass, in
linear time with a few NumPy calls per document instead of per body (50k-node convert ≤ 2 s).

Bit-identical to :func:`~gltf_physics.geometry.mass.body_mass_properties` and to the per-body centre formula it
replaces (the output's numbers must not move by an ulp), by two means only:

- stacked ``np.matmul`` / ``np.linalg.inv`` / ``np.linalg.det`` instead of one call per body: NumPy runs the
  same BLAS / LAPACK kernel on each slice of a stack as on a single matrix of the same layout, so each slice is
  the per-body result (``tests/test_dialect_omi_write.py`` compares them on every fixture); a matrix–vector
  product is the exception (a gemv for one, a gemm for a stack: rounded differently by some kernels), so the
  rigid inverses' translations are summed element-wise by ``geometry.frames`` on both paths;
- work skipped only when its inputs are the same bytes as before: a body frame's rotation depends only on
  the 3×3 of its world matrix (decomposed once per distinct 3×3), and a body's result only on its motion's
  explicit values and each collider's (shape, relative matrix) — bodies built alike are computed once.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...geometry.frames import body_frame, rigid_inverse, rigid_inverses
from ...geometry.integrals import combine_parts, placed_mass
from ...geometry.mass import MassProperties, apply_overrides
from ...geometry.placement import place_shape
from ...gltf.errors import GltfError
from ...gltf.transforms import affine_inverse, decompose, distinct_blocks, quat_to_matrix
from ...model import Body, PhysicsScene

_TINY = 1e-6  # m: a computed centre of mass component this small is float noise of the mesh data (float32)

Measured = tuple[MassProperties, tuple[float, ...]]  # (mass properties in the body frame, centre in node space)


class BodyMasses:
    """Mass properties (density ``density``) of a scene's bodies over fixed world matrices."""

    def __init__(self, scene: PhysicsScene, world: list[np.ndarray], density: float, mesh_source: Any,
                 colliders: dict[int | None, list[int]], stack: np.ndarray | None = None) -> None:
        """``stack``: ``world`` as one (n, 4, 4) array, when the caller has it."""
        self.scene, self.world, self.density, self.meshes = scene, world, density, mesh_source
        self.stack = stack
        self.colliders = colliders
        self._results: dict[Any, MassProperties] = {}
        self._shapes: dict[int, int] = {}  # id(shape) → the number of its first equal shape
        self._equal: dict[Any, int] = {}

    def measure(self, bodies: list[Body]) -> list[Measured | None]:
        """For each body: its computed mass properties and centre of mass in node space, or ``None`` when
        its shapes cannot be measured (mesh data missing or unreadable) or give NaN/∞."""
        n = len(self.world)
        colliders = self.scene.colliders
        cols = [self._cols(b) for b in bodies]  # once per body: the passes below each need them
        outside = {k for k, c in enumerate(colliders) if not 0 <= c.node < n}  # usually none: no test per body
        inside = [0 <= b.node < n and (not outside or outside.isdisjoint(ks))
                  for b, ks in zip(bodies, cols, strict=True)]
        out: list[Measured | None] = [None] * len(bodies)
        with np.errstate(all="ignore"):  # absurd sizes overflow: such a result is refused below
            bulk = [i for i, ok in enumerate(inside) if ok]
            for i, measured in zip(bulk, self._bulk([bodies[i] for i in bulk], [cols[i] for i in bulk]),
                                   strict=True):
                out[i] = measured
        for i, ok in enumerate(inside):
            if not ok:  # an index the stacks cannot take: the per-body formulas (Python indexing)
                out[i] = self._single(bodies[i])
        return out

    def _cols(self, body: Body) -> list[int]:
        return self.colliders.get(body.node, [])

    def _bulk(self, bodies: list[Body], body_cols: list[list[int]]) -> list[Measured | None]:
        """``body_cols``: each body's colliders (:meth:`_cols`)."""
        if not bodies:
            return []
        stack = self.stack if self.stack is not None else np.stack(self.world)
        nodes = np.asarray([b.node for b in bodies], dtype=np.int64)
        frames = _body_frames(stack[nodes])
        inverses = rigid_inverses(frames)
        owner = [i for i, c in enumerate(body_cols) for _ in c]
        ks = [k for c in body_cols for k in c]
        cols = self.scene.colliders
        rel = np.matmul(inverses[owner], stack[[cols[k].node for k in ks]]) if ks else np.zeros((0, 4, 4))
        rel_bytes = np.ascontiguousarray(rel).reshape(len(ks), 16).view(np.dtype((np.void, 128))).ravel().tolist()
        shapes = [cols[k].shape for k in ks]
        masses: list[MassProperties | None] = []
        start = 0
        for b, c in zip(bodies, body_cols, strict=True):
            end = start + len(c)
            # slices of the flat lists: per body, a list or a view per collider cost more than the rest of the
            # loop, and only a body whose key is new reads the matrices
            masses.append(self._mass(b, shapes[start:end], rel_bytes[start:end], rel[start:end]))
            start = end
        return self._centres(bodies, masses, frames, stack[nodes])

    def _mass(self, body: Body, shapes: list[Any], raws: list[bytes], rels: np.ndarray) -> MassProperties | None:
        """body_mass_properties from the body's collider shapes and their matrices relative to the body frame
        (``raws`` their bytes, ``rels`` the matrices, in the same order); ``None``: no measurement."""
        m = body.motion
        key: Any = None
        if m.center_of_mass is None:  # an explicit centre makes the result depend on the node's own matrix
            key = (m.mass, m.inertia_diagonal, m.inertia_orientation, tuple(map(self._shape_number, shapes)),
                   tuple(raws))
            if key in self._results:
                return self._results[key]
        try:
            placed = [p for p in (place_shape(s, rel, self.meshes) for s, rel in zip(shapes, rels, strict=True))
                      if p is not None]
            v, com, inertia = combine_parts([placed_mass(p) for p in placed])
            mp = apply_overrides(body, (v * self.density, com, inertia * self.density), self.world[body.node])
        except (GltfError, ValueError, IndexError):  # mesh data missing or unreadable: no measurement
            return None
        result = mp if is_finite(mp) else None  # NaN/∞ cannot be written: no measurement
        if key is not None:
            self._results[key] = result  # type: ignore[assignment]
        return result

    def _shape_number(self, shape: Any) -> int:
        """One number per distinct shape value (equal shapes share); hashing a shape's fields once per object."""
        number = self._shapes.get(id(shape))
        if number is None:
            try:
                number = self._equal.setdefault(shape, len(self._equal))
            except TypeError:  # unhashable: its own number (no sharing, the same result)
                number = len(self._equal)
                self._equal[("unhashable", number)] = number
            self._shapes[id(shape)] = number
        return number

    def _centres(self, bodies: list[Body], masses: list[MassProperties | None], frames: np.ndarray,
                 node_worlds: np.ndarray) -> list[Measured | None]:
        """Each body's computed centre (body frame) in node space: frame·c, then the node's inverse world."""
        chosen = [i for i, mp in enumerate(masses) if mp is not None]
        out: list[Measured | None] = [None] * len(bodies)
        if not chosen:
            return out
        centres = np.asarray([[*masses[i].center_of_mass, 1.0] for i in chosen])  # type: ignore[union-attr]
        points = np.matmul(frames[chosen], centres[:, :, None])
        inverses = _affine_inverses(node_worlds[chosen])
        local = np.matmul(inverses, points)[:, :3, 0]
        with np.errstate(invalid="ignore"):  # NaN stays NaN, as abs(c) <= _TINY is false for it
            local = np.where(np.abs(local) <= _TINY, 0.0, local).tolist()
        for i, row in zip(chosen, local, strict=True):
            out[i] = masses[i], tuple(row)  # type: ignore[assignment]
        return out

    def _single(self, body: Body) -> Measured | None:
        """The per-body formulas, for a body whose nodes the stacks cannot index (e.g. negative)."""
        try:
            inv = rigid_inverse(body_frame(self.world[body.node]))
            colliders = [self.scene.colliders[k] for k in self._cols(body)]
            rels = [inv @ self.world[c.node] for c in colliders]
        except IndexError:
            return None
        shapes = [c.shape for c in colliders]
        with np.errstate(all="ignore"):
            mp = self._mass(body, shapes, [r.tobytes() for r in rels], np.asarray(rels).reshape(-1, 4, 4))
        if mp is None:
            return None
        node_world = self.world[body.node]
        point = body_frame(node_world) @ np.array([*mp.center_of_mass, 1.0])
        local = (affine_inverse(node_world) @ point)[:3]
        return mp, tuple(0.0 if abs(c) <= _TINY else float(c) for c in local)


def _body_frames(worlds: np.ndarray) -> np.ndarray:
    """:func:`~gltf_physics.geometry.frames.body_frame` of each matrix: the rotation decomposed once per distinct
    3×3 (by its bytes), the translation copied (decompose's translation is the last column, exactly)."""
    first, which = distinct_blocks(worlds[:, :3, :3])
    rotations = np.empty((len(first), 3, 3))
    for u, i in enumerate(first.tolist()):
        rotations[u] = quat_to_matrix(decompose(worlds[i])[1])
    frames = np.zeros((len(worlds), 4, 4))
    frames[:, :3, :3] = rotations[which]
    frames[:, :3, 3] = worlds[:, :3, 3]
    frames[:, 3, 3] = 1.0
    return frames


def _affine_inverses(worlds: np.ndarray) -> np.ndarray:
    """:func:`~gltf_physics.gltf.transforms.affine_inverse` of each matrix: the regular ones (finite, |det| of
    the 3×3 over 1e-300, finite inverse) by one stacked ``np.linalg.inv``, the others one by one."""
    out = np.empty_like(worlds)
    finite = np.isfinite(worlds).all(axis=(1, 2))
    dets = np.zeros(len(worlds))
    if finite.any():
        dets[finite] = np.linalg.det(worlds[finite, :3, :3])
    regular = finite & (np.abs(dets) > 1e-300)
    if regular.any():
        try:
            out[regular] = np.linalg.inv(worlds[regular])
        except np.linalg.LinAlgError:  # an exact zero pivot despite the determinant: each one on its own
            regular[:] = False
    regular &= np.isfinite(out).all(axis=(1, 2))
    for i in np.flatnonzero(~regular).tolist():
        out[i] = affine_inverse(worlds[i])
    return out


def is_finite(mp: MassProperties) -> bool:
    """Every number of ``mp`` finite (NaN/∞ cannot be written)."""
    values = (mp.mass, *mp.center_of_mass, *mp.inertia_diagonal, *mp.inertia_orientation)
    return all(math.isfinite(v) for v in values)
