"""Relative poses of many (body, node) pairs at once, for the writers' "does this node already sit at the joint
frame?" test (per-pair decompositions were most of the OMI joint writer's time at 50k nodes).

The bulk numbers differ from :func:`~gltf_physics.gltf.transforms.relative_pose` by rounding only (a few ulps
of the coordinates), so a test against them is trusted only when it is clear by a wide margin; a borderline
one (and every pair whose matrices are not plain rotations with moderate scale) is left to the exact per-pair
computation, so every decision is the one the per-pair code makes.
"""

from __future__ import annotations

import numpy as np

from ...gltf.transforms import distinct_blocks
from ...model import Pose

Query = tuple[int | None, int, Pose]  # (body node or None for the world, node, frame)


def clear_matches(world: list[np.ndarray], queries: list[Query],
                  stack: np.ndarray | None = None) -> dict[tuple[int | None, int, int], bool]:
    """(body, node, id(frame)) → the OMI joint writer's pose test for ``node``'s world pose in ``body``'s rigid
    frame (translation ``np.isclose`` at atol 1e-6 and |q·q'| > 1 − 1e-9), for the queries whose outcome is
    beyond doubt from bulk numbers; a query within rounding of a threshold, or whose matrices are not plain
    rotations with moderate scale, is absent (the caller tests it one by one). ``stack``: ``world`` as one
    (n, 4, 4) array, when the caller has it."""
    n = len(world)
    rows = [(b, v, f) for b, v, f in queries if 0 <= v < n and (b is None or 0 <= b < n)]
    if not rows:
        return {}
    body = np.fromiter((-1 if b is None else b for b, _, _ in rows), dtype=np.int64, count=len(rows))
    node = np.fromiter((v for _, v, _ in rows), dtype=np.int64, count=len(rows))
    has = body >= 0
    used = np.unique(np.concatenate([node, body[has]]))
    t, q, ok = _decompose(stack[used] if stack is not None else np.stack([world[i] for i in used.tolist()]))
    ni, bi = np.searchsorted(used, node), np.searchsorted(used, np.where(has, body, node))
    good = ok[ni] & ok[bi]
    pt = np.where(has[:, None], t[bi], 0.0)
    pq = np.where(has[:, None], q[bi], np.array([0.0, 0.0, 0.0, 1.0]))
    rel_t = np.einsum("nji,nj->ni", _rotations(pq), t[ni] - pt)  # Rᵀ·d
    rel_q = _multiply(pq * np.array([-1.0, -1.0, -1.0, 1.0]), q[ni])
    rel_q /= np.linalg.norm(rel_q, axis=1)[:, None]
    magnitude = np.maximum(np.abs(t[ni]).max(axis=1), np.abs(pt).max(axis=1))
    ft, fq = _frame_arrays([f for _, _, f in rows])
    with np.errstate(all="ignore"):
        excess = np.abs(rel_t - ft) - (1e-6 + 1e-5 * np.abs(ft))
        # rounding of the bulk numbers: a few ulps of the coordinates involved
        unsure = ~np.isfinite(ft) | (np.abs(excess) <= 1e-11 * (1.0 + np.abs(ft) + magnitude[:, None]))
        fails = (~unsure & (excess > 0)).any(axis=1)  # a clear failure of any component decides
        dot = np.abs((rel_q * fq).sum(axis=1))
        unsure_dot = ~np.isfinite(dot) | (np.abs(dot - (1.0 - 1e-9)) <= 1e-12)
    decided = good & (fails | ~(unsure.any(axis=1) | unsure_dot))
    verdict = ~fails & (dot > 1.0 - 1e-9)
    return {(b, v, id(f)): yes for (b, v, f), d, yes in zip(rows, decided.tolist(), verdict.tolist(), strict=True)
            if d}


def _frame_arrays(frames: list[Pose]) -> tuple[np.ndarray, np.ndarray]:
    """Translations (n, 3) and rotations (n, 4) of ``frames``, converted once per frame object: the readers
    share one Pose between the joints whose frames are equal."""
    ids = np.fromiter(map(id, frames), dtype=np.uint64, count=len(frames))
    _, first, which = np.unique(ids, return_index=True, return_inverse=True)
    distinct = [frames[i] for i in first.tolist()]
    ft = np.asarray([f.translation for f in distinct], dtype=float).reshape(-1, 3)
    fq = np.asarray([f.rotation for f in distinct], dtype=float).reshape(-1, 4)
    return ft[which.ravel()], fq[which.ravel()]


def _decompose(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Translations, unit xyzw rotations (w ≥ 0) and a well-conditioned flag of a stack of affine 4×4s: finite,
    positive determinant, column scales within 1e-6..1e6 of 1 and orthogonal to 1e-9. The 3×3 part once per
    distinct 3×3 (:func:`~gltf_physics.gltf.transforms.distinct_blocks`): a big scene's nodes share a few."""
    first, which = distinct_blocks(m[:, :3, :3])
    q, ok = _rotations_of(m[first, :3, :3])
    return m[:, :3, 3], q[which], ok[which] & np.isfinite(m).all(axis=(1, 2))


def _rotations_of(lin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit xyzw rotations (w ≥ 0) of a stack of 3×3s and the well-conditioned flag (see :func:`_decompose`;
    a rotation whose flag is false is the identity)."""
    with np.errstate(all="ignore"):
        scale = np.sqrt((lin * lin).sum(axis=1))  # column norms
        basis = lin / scale[:, None, :]
        gram = np.einsum("nki,nkj->nij", basis, basis) - np.eye(3)
        ok = (np.isfinite(lin).all(axis=(1, 2)) & (scale > 1e-6).all(axis=1) & (scale < 1e6).all(axis=1)
              & (np.abs(gram).max(axis=(1, 2)) < 1e-9) & (np.linalg.det(basis) > 0))
        q = _quaternions(np.where(ok[:, None, None], basis, np.eye(3)))
    return q, ok


def _quaternions(r: np.ndarray) -> np.ndarray:
    """Shepperd's method over a stack of rotation matrices (the branch by the largest diagonal term)."""
    m00, m01, m02 = r[:, 0, 0], r[:, 0, 1], r[:, 0, 2]
    m10, m11, m12 = r[:, 1, 0], r[:, 1, 1], r[:, 1, 2]
    m20, m21, m22 = r[:, 2, 0], r[:, 2, 1], r[:, 2, 2]
    tr = m00 + m11 + m22
    with np.errstate(all="ignore"):
        s0 = np.sqrt(tr + 1.0) * 2
        s1 = np.sqrt(1.0 + m00 - m11 - m22) * 2
        s2 = np.sqrt(1.0 + m11 - m00 - m22) * 2
        s3 = np.sqrt(np.maximum(1.0 + m22 - m00 - m11, 0.0)) * 2
        cases = [
            np.stack([(m21 - m12) / s0, (m02 - m20) / s0, (m10 - m01) / s0, 0.25 * s0], axis=1),
            np.stack([0.25 * s1, (m01 + m10) / s1, (m02 + m20) / s1, (m21 - m12) / s1], axis=1),
            np.stack([(m01 + m10) / s2, 0.25 * s2, (m12 + m21) / s2, (m02 - m20) / s2], axis=1),
            np.stack([(m02 + m20) / s3, (m12 + m21) / s3, 0.25 * s3, (m10 - m01) / s3], axis=1),
        ]
    first = tr > 0
    second = ~first & (m00 > m11) & (m00 > m22)
    third = ~first & ~second & (m11 > m22)
    q = np.select([first[:, None], second[:, None], third[:, None]], cases[:3], cases[3])
    q /= np.linalg.norm(q, axis=1)[:, None]
    q[q[:, 3] < 0] *= -1.0
    return q


def _rotations(q: np.ndarray) -> np.ndarray:
    """3×3 rotation matrices of a stack of unit xyzw quaternions."""
    x, y, z, w = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], axis=1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], axis=1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=1),
    ], axis=1)


def _multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton products of stacks of xyzw quaternions."""
    ax, ay, az, aw = a[:, 0], a[:, 1], a[:, 2], a[:, 3]
    bx, by, bz, bw = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    return np.stack([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz], axis=1)
