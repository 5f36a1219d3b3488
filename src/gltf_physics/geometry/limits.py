"""What a physics engine can build: the limits a placed shape must respect (engine-agnostic).

The runtime refuses a scene that breaks these before any engine sees it (``sim/preflight.py``), and the
validator reports the same problems as errors, so a file ``validate`` calls valid is one ``simulate`` runs.

- every number is finite (a NaN radius or vertex poisons the solver, Rapier panics on some);
- no negative size (Rapier asserts on a negative cylinder);
- no size or position beyond :data:`MAX_EXTENT` metres: single-precision engines lose all precision there,
  and a shape that big overlaps everything (a capsule with ``radiusTop`` 1e9 made 0.1 s of simulation take
  half a minute of CPU);
- a convex hull spans at least a plane (three points not on one line); a triangle mesh has triangles whose
  indices name its vertices.
Zero sizes are left alone: engines build them, and the validator already warns (SHAPE-4, KIS-3).

:func:`scene_problems` applies them to a whole scene, with the body, motion and joint values an engine
cannot take (NaN velocities, repeated joint axes…): ``sim/preflight.py`` raises on the first, the validator
reports each as GLTF-SIMULATE. Checked:

- every collider and trigger shape placed at its node's world transform (scale included); a shape disabled
  by a zero scale (KRB-12) is not built, so not checked;
- body nodes: a finite world transform within the bound; finite velocities (within :data:`MAX_SPEED`),
  gravity factor, centre of mass; mass and inertia numbers ≥ 0 (infinite means "immovable" and stays allowed, D-5);
- joints: finite frames, axes 0..2 without repeats, limits and drive values that are numbers (NaN is not).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..gltf.errors import GltfError
from ..model.scene import PhysicsScene
from ..model.shapes import Box, Capsule, Cylinder, Sphere
from .placement import MeshSource, PlacedShape, document_mesh_source, place_shape

_LAST_ROW = np.array([0.0, 0.0, 0.0, 1.0])
# A last row other than (0, 0, 0, 1) is a projective transform glTF does not allow (NODE_MATRIX_NON_TRS); the
# engines take only the affine part, and a shape squashed by it breaks their hull builders.
_NOT_AFFINE = "world transform is not affine (a node matrix's last row is not 0, 0, 0, 1)"
Problem = tuple[int, str, str]  # (node, JSON pointer, message)

MAX_EXTENT = 1.0e5  # m: 100 km, far beyond any scene float32 can resolve to the millimetre
# m/s and rad/s: MuJoCo's mjMAXVAL, beyond which it warns "Nan, Inf or huge value" and silently resets the
# state (measured: a velocity set to 1e300 ran on as if never set); Rapier's float32 overflows at 3.4e38.
MAX_SPEED = 1.0e10
_FLAT = 1e-6  # relative singular value below which hull points lie on a line for a 32-bit engine (f32: ~1.2e-7)
_ORDINARY = 1e-3  # sizes and scales the fast path takes (1 mm, 1/1000): anything smaller gets the exact check
_CONDITIONED = 1e-3  # the fast path's least |det| / (product of column lengths) of a node's 3×3: less is near-flat


def placed_problem(p: PlacedShape) -> str | None:
    """Why an engine cannot (or must not) build ``p``, or ``None`` when it can."""
    where = _vector_problem("position", p.translation) or _vector_problem("rotation", p.rotation, bound=False)
    if where:
        return where
    if p.kind == "plane":
        return _sizes_problem(p.params[:2], infinite_ok=True)
    if p.kind in ("convex", "trimesh"):
        return _mesh_problem(p)
    return _sizes_problem(p.params)


def _vector_problem(what: str, values: tuple[float, ...], bound: bool = True) -> str | None:
    if not all(math.isfinite(v) for v in values):
        return f"its {what} is not finite"
    if bound and max((abs(v) for v in values), default=0.0) > MAX_EXTENT:
        return f"its {what} lies beyond {MAX_EXTENT:g} m"
    return None


def _sizes_problem(sizes: tuple[float, ...], infinite_ok: bool = False) -> str | None:
    for v in sizes:
        if math.isnan(v) or (math.isinf(v) and not infinite_ok):
            return "a size is not finite"
        if v < 0:
            return f"a size is negative ({v:g})"
        if math.isfinite(v) and v > MAX_EXTENT:
            return f"a size ({v:g} m, scale included) exceeds {MAX_EXTENT:g} m"
    return None


def _mesh_problem(p: PlacedShape) -> str | None:
    points = np.asarray(p.points if p.points is not None else np.zeros((0, 3)), dtype=np.float64)
    if points.ndim != 2 or points.shape[1:] != (3,) or len(points) == 0:
        return "the mesh has no vertices"
    if not np.isfinite(points).all():
        return "a mesh vertex is not finite"
    if float(np.abs(points).max()) > MAX_EXTENT:
        return f"a mesh vertex lies beyond {MAX_EXTENT:g} m (scale included)"
    if p.kind == "convex":
        return None if _spans_a_plane(points) else "the convex hull's points lie on one line (or one point)"
    triangles = np.asarray(p.triangles if p.triangles is not None else np.zeros((0, 3)), dtype=np.int64)
    if triangles.ndim != 2 or triangles.shape[1:] != (3,) or len(triangles) == 0:
        return "the triangle mesh has no triangles"
    if int(triangles.min()) < 0 or int(triangles.max()) >= len(points):
        return "a triangle index names no vertex"
    return None


def _spans_a_plane(points: np.ndarray) -> bool:
    centred = points - points.mean(axis=0)
    if len(points) < 3 or not centred.any():
        return False
    s = np.linalg.svd(centred, compute_uv=False)  # O(n) for an (n, 3) array
    return bool(s[1] > _FLAT * s[0])


def scene_problems(scene: PhysicsScene, mesh_source: MeshSource | None = None) -> Iterator[Problem]:
    """Every problem of :func:`check_scene`, in scene order (bodies, shapes, joints)."""
    if mesh_source is None and scene.document is not None:
        mesh_source = document_mesh_source(scene.document)
    with np.errstate(all="ignore"):  # overflow to inf is what is being looked for: no RuntimeWarning
        world = scene.node_world()  # the read's own matrices (world_matrices of the document), not a second pass
        yield from _bodies(scene, world)
        yield from _shapes(scene, world, mesh_source)
    yield from _joints(scene)


def _matrix(world: list[np.ndarray], node: int) -> np.ndarray:
    return world[node] if 0 <= node < len(world) else np.eye(4)


def _bodies(scene: PhysicsScene, world: list[np.ndarray]) -> Iterator[Problem]:
    if not scene.bodies:
        return
    # the node transforms of all bodies checked at once (a scene of 20,000 bodies: one NumPy pass, not 40,000)
    m = np.stack([_matrix(world, body.node) for body in scene.bodies])
    finite = np.isfinite(m).all(axis=(1, 2)).tolist()
    affine = (m[:, 3] == _LAST_ROW).all(axis=1).tolist()
    far = (np.abs(m[:, :3, 3]).max(axis=1) > MAX_EXTENT).tolist()
    for body, ok, plain, beyond in zip(scene.bodies, finite, affine, far, strict=True):
        if not ok:
            yield body.node, body.pointer, f"body node {body.node}: its world transform is not finite"
        elif not plain:
            yield body.node, body.pointer, f"body node {body.node}: {_NOT_AFFINE}"
        elif beyond:
            yield body.node, body.pointer, f"body node {body.node}: it lies beyond {MAX_EXTENT:g} m from the origin"
        for message in _motion_problems(body.motion):
            yield body.node, body.pointer, f"body node {body.node}: {message}"


def _motion_problems(motion: Any) -> Iterator[str]:
    if not _all_finite((*motion.linear_velocity, *motion.angular_velocity, motion.gravity_factor)):
        yield "a velocity or the gravity factor is not finite"
    elif max(map(abs, (*motion.linear_velocity, *motion.angular_velocity))) > MAX_SPEED:
        yield f"a velocity exceeds {MAX_SPEED:g} (m/s or rad/s), beyond what the engines can take"
    if motion.mass is not None and not _number(motion.mass, minimum=0.0):
        yield f"mass {motion.mass!r} is not a number ≥ 0"
    if motion.center_of_mass is not None and not _all_finite(motion.center_of_mass):
        yield "the centre of mass is not finite"
    if motion.inertia_diagonal is not None and not all(_number(v, 0.0) for v in motion.inertia_diagonal):
        yield "an inertia component is not a number ≥ 0"
    if not _all_finite(motion.inertia_orientation):
        yield "the inertia orientation is not finite"


def _shapes(scene: PhysicsScene, world: list[np.ndarray], mesh_source: MeshSource | None) -> Iterator[Problem]:
    owners: list[tuple[str, Any]] = [("collider", c) for c in scene.colliders]
    owners += [("trigger", t) for t in scene.triggers if t.shape is not None]
    matrices = [_matrix(world, owner.node) for _, owner in owners]
    fine = _clearly_fine([owner.shape for _, owner in owners], matrices)
    for (what, owner), matrix, ok in zip(owners, matrices, fine, strict=True):
        if ok:
            continue
        problem = _placed(owner.shape, matrix, mesh_source, owner.pointer)
        if problem is not None:
            pointer, message = problem
            yield owner.node, pointer, f"the {what} shape on node {owner.node} cannot be simulated: {message}"


def _clearly_fine(shapes: list[Any], matrices: list[np.ndarray]) -> np.ndarray:
    """Which primitive shapes pass every check without being placed one by one (all at once in NumPy).

    Conservative: a shape passes only when its node's world matrix is finite and far from singular (its columns
    far from parallel: :data:`_CONDITIONED`), its sizes and scales are at least :data:`_ORDINARY` (a zero or
    denormal size under a non-uniform scale becomes a flat hull the exact check refuses),
    and its position plus twice its largest size times the largest scale stays within :data:`MAX_EXTENT` —
    which bounds every placed size and vertex. Anything else (meshes, planes, NaN, near the bound) takes the
    exact path (:func:`_placed`): this only saves time on the common case, a scene of thousands of boxes.
    """
    if not shapes:
        return np.zeros(0, dtype=bool)
    sizes = [_primitive_sizes(shape) for shape in shapes]
    primitive = np.array([v is not None for v in sizes])
    values = [v if v is not None else (math.nan,) for v in sizes]
    fine = [_all_finite(v) for v in values]
    largest = np.array([max(v) if ok else math.nan for v, ok in zip(values, fine, strict=True)], dtype=float)
    smallest = np.array([min(v) if ok else math.nan for v, ok in zip(values, fine, strict=True)], dtype=float)
    m = np.asarray(matrices, dtype=float)
    with np.errstate(all="ignore"):
        finite = np.isfinite(m).all(axis=(1, 2)) & (m[:, 3] == _LAST_ROW).all(axis=1)
        position = np.abs(m[:, :3, 3]).max(axis=1)
        columns = np.linalg.norm(m[:, :3, :3], axis=1)
        within = position + 2.0 * largest * columns.max(axis=1) <= MAX_EXTENT
        ordinary = (smallest >= _ORDINARY) & (columns.min(axis=1) >= _ORDINARY)
        # Columns far from parallel: |det| against the product of the column lengths (1 for any rotation and
        # scale, 0 when two columns are parallel and the shape collapses onto a plane or a line).
        volume = np.abs(np.linalg.det(np.where(np.isfinite(m[:, :3, :3]), m[:, :3, :3], 0.0)))
        conditioned = volume >= _CONDITIONED * columns.prod(axis=1)
    return primitive & finite & ordinary & within & conditioned


def _primitive_sizes(shape: Any) -> tuple[Any, ...] | None:
    """A box, sphere, capsule or cylinder's size numbers; ``None`` for any other shape."""
    sizes = _SIZES.get(type(shape))
    return sizes(shape) if sizes is not None else None


# Each primitive kind's size numbers, for the fast path (planes and meshes take the exact one).
_SIZES: dict[type, Callable[[Any], tuple[Any, ...]]] = {
    Box: lambda shape: tuple(shape.size),
    Sphere: lambda shape: (shape.radius,),
    Capsule: lambda shape: (shape.height, shape.radius_bottom, shape.radius_top),
    Cylinder: lambda shape: (shape.height, shape.radius_bottom, shape.radius_top),
}


def _placed(shape: Any, world: np.ndarray, mesh_source: MeshSource | None,
            pointer: str) -> tuple[str, str] | None:
    shape_pointer = getattr(shape, "pointer", "") or pointer
    if not np.isfinite(world).all():
        return pointer, "its node's world transform is not finite"
    if (world[3] != _LAST_ROW).any():
        return pointer, f"its node's {_NOT_AFFINE}"
    try:
        placed = place_shape(shape, world, mesh_source)
    except GltfError as err:  # the mesh it names cannot be read: that error's own pointer says where
        return err.pointer or shape_pointer, err.message
    if placed is None:
        return None  # disabled (zero scale) or a mesh without triangles: nothing is built
    problem = placed_problem(placed)
    return None if problem is None else (shape_pointer, problem)


def _joints(scene: PhysicsScene) -> Iterator[Problem]:
    for joint in scene.joints:
        node, pointer = joint.node, joint.pointer
        for problem in _joint_problems(joint):
            yield node, pointer, f"joint on node {node}: {problem}"


def _joint_problems(joint: Any) -> Iterator[str]:
    for side, frame in (("A", joint.frame_a), ("B", joint.frame_b)):
        if not _all_finite((*frame.translation, *frame.rotation)):
            yield f"frame {side} is not finite"
        elif max(abs(v) for v in frame.translation) > MAX_EXTENT:
            yield f"frame {side} lies beyond {MAX_EXTENT:g} m from its body"
    for limit in joint.limits:
        axes = (*limit.linear_axes, *limit.angular_axes)
        if not _axes_ok(limit.linear_axes) or not _axes_ok(limit.angular_axes) or not axes:
            yield f"limit axes {list(axes)} must be distinct values 0, 1 or 2"
        if not all(_number(v) for v in (limit.min, limit.max)):
            yield "a limit's min or max is not a number"
        if not (_number(limit.stiffness, 0.0) and _number(limit.damping, 0.0) and math.isfinite(limit.damping)):
            yield "a limit's stiffness or damping is not a number ≥ 0"
    for drive in joint.drives:
        if not _axes_ok((drive.axis,)):
            yield f"drive axis {drive.axis!r} must be 0, 1 or 2"
        targets = [t for t in (drive.position_target, drive.velocity_target) if t is not None]
        if not all(_finite(v) for v in targets):
            yield "a drive target is not finite"
        if not all(_number(v, 0.0) for v in (drive.stiffness, drive.damping, drive.max_force)):
            yield "a drive's stiffness, damping or maxForce is not a number ≥ 0"
        elif not (math.isfinite(drive.stiffness) and math.isfinite(drive.damping)):
            yield "a drive's stiffness or damping is infinite"


def _axes_ok(axes: tuple[Any, ...]) -> bool:
    ints = [a for a in axes if isinstance(a, int) and not isinstance(a, bool) and 0 <= a <= 2]
    return len(ints) == len(axes) and len(set(ints)) == len(ints)


_REALS = frozenset((int, float))


def _all_finite(values: tuple[Any, ...]) -> bool:
    """``all(_finite(v) for v in values)``, decided by one sum on the common case (plain ints and floats).

    A sum that is finite proves every term finite (a NaN or infinity carries through); anything else —
    another type, an overflowing sum, a non-finite term — takes the exact per-value test.
    """
    if set(map(type, values)) <= _REALS:
        try:
            if math.isfinite(sum(values)):
                return True
        except OverflowError:  # an int sum beyond float range: the exact test decides (and raises as before)
            pass
    return all(_finite(v) for v in values)


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _number(v: Any, minimum: float = -math.inf) -> bool:
    """A real number (±inf allowed: infinite mass, an open limit) that is not NaN, ≥ ``minimum``."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and not math.isnan(v) and v >= minimum

