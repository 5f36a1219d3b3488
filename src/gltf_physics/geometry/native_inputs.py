"""What the native geometry libraries can take: the one check in front of qhull and the one in front of CoACD.

Both are C/C++ code that does not validate its input: a point set scaled by 1e300 (finite) made qhull
dereference a bad pointer inside ``scipy.spatial.ConvexHull`` (SIGSEGV: the process dies with no message),
and CoACD aborts (SIGABRT, an ``assert`` in its bounding-volume tree) on a NaN vertex, on a mesh whose
vertices all coincide, or on an empty mesh, and reads past its vertex array when a triangle index names no
vertex. Measured here (scipy's qhull 2020.2, CoACD 1.0): qhull's hull is exact to 1e75 and fails with
precision errors from 1e100; tiny coordinates (1e-300, denormals) give a zero volume, never a crash.

The physics engines (Rapier, MuJoCo) are guarded by :func:`gltf_physics.geometry.limits.scene_problems`
(``sim/preflight.py``; the validator's GLTF-SIMULATE), whose bound :data:`~.limits.MAX_EXTENT` is far inside
the ranges here: a scene either library refuses is one the runtime already refused, naming the node and
pointer. These checks are the net for every other caller (the mass integrals behind ``info`` and the
validator's hints, authoring) and say *why* in one line; the callers decide what refusal means (no hull,
an authoring error).
"""

from __future__ import annotations

import numpy as np

QHULL_RANGE = 1.0e30  # largest |coordinate| handed to qhull: volumes (its cube) stay far from overflow
COACD_RANGE = 1.0e30  # the same bound for CoACD, which builds its own hulls and sampling grid


def qhull_problem(points: np.ndarray) -> str | None:
    """Why qhull must not be given ``points`` (N, 3), or ``None`` when it can take them.

    Finite, within :data:`QHULL_RANGE`, and at least four of them (fewer is no solid: the caller's "no hull").
    """
    p = np.asarray(points)
    if p.ndim != 2 or p.shape[1:] != (3,):
        return f"expected points as an (N, 3) array, got shape {p.shape}"
    if len(p) < 4:
        return f"{len(p)} point(s): a hull needs at least 4"
    return _range_problem(p, QHULL_RANGE)


def coacd_problem(vertices: np.ndarray, triangles: np.ndarray) -> str | None:
    """Why CoACD must not be given this mesh, or ``None`` when it can take it.

    Finite vertices within :data:`COACD_RANGE`, at least one triangle, every index naming a vertex, and
    vertices that do not all coincide (CoACD asserts on an empty bounding box).
    """
    v, t = np.asarray(vertices), np.asarray(triangles)
    if v.ndim != 2 or v.shape[1:] != (3,) or len(v) == 0:
        return "the mesh has no vertices"
    if t.ndim != 2 or t.shape[1:] != (3,) or len(t) == 0:
        return "the mesh has no triangles"
    if not np.issubdtype(t.dtype, np.integer) or int(t.min()) < 0 or int(t.max()) >= len(v):
        return "a triangle index names no vertex"
    problem = _range_problem(v, COACD_RANGE)
    if problem is None and not np.ptp(v.astype(np.float64), axis=0).any():
        return "all the mesh's vertices coincide"
    return problem


def _range_problem(p: np.ndarray, bound: float) -> str | None:
    if not np.issubdtype(p.dtype, np.number):
        return "the coordinates are not numbers"
    with np.errstate(all="ignore"):
        if not np.isfinite(p).all():
            return "a coordinate is not finite"
        largest = float(np.abs(p).max())
    if largest > bound:
        return f"a coordinate ({largest:g}) lies beyond {bound:g}, outside what the library can take"
    return None
