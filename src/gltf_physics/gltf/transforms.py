"""Node transforms: TRS or matrix → 4×4, world matrices, and the few quaternion helpers everyone needs.

Quaternions are xyzw (glTF order). Matrices are 4×4 NumPy arrays acting on column vectors; glTF stores
``matrix`` column-major, so it is reshaped and transposed on read.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .hierarchy import parents

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]


Rows = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
_IDENTITY_ROWS: Rows = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def quat_to_matrix(q: Quat | np.ndarray) -> np.ndarray:
    """3×3 rotation matrix of a (not necessarily unit) xyzw quaternion; zero ⇒ identity."""
    return np.array(quat_rows(q))


def quat_rows(q: Quat | np.ndarray) -> Rows:
    """:func:`quat_to_matrix` as plain float rows: per joint and per body a NumPy 3×3 cost more to build
    than the arithmetic it holds."""
    x, y, z, w = (float(c) for c in q)
    n = x * x + y * y + z * z + w * w
    if n == 0.0 or not math.isfinite(n):
        return _IDENTITY_ROWS
    s = 2.0 / n
    return (
        (1 - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w)),
        (s * (x * y + z * w), 1 - s * (x * x + z * z), s * (y * z - x * w)),
        (s * (x * z - y * w), s * (y * z + x * w), 1 - s * (x * x + y * y)),
    )


def rows_t_times(r: Rows, v: tuple[float, float, float]) -> Vec3:
    """rᵀ·v in plain floats, summed in NumPy's order from a +0.0 start (bit-identical to ``r.T @ v``,
    signed zeros included)."""
    return (0.0 + r[0][0] * v[0] + r[1][0] * v[1] + r[2][0] * v[2],
            0.0 + r[0][1] * v[0] + r[1][1] * v[1] + r[2][1] * v[2],
            0.0 + r[0][2] * v[0] + r[1][2] * v[1] + r[2][2] * v[2])


def matrix_to_quat(m: np.ndarray) -> Quat:
    """xyzw unit quaternion of a 3×3 rotation matrix (Shepperd's method), with w ≥ 0.

    Plain float arithmetic on the nine entries: called per node and per joint, NumPy's per-call overhead on a
    3×3 was most of the cost of reading a big document.
    """
    return quat_of_rows(np.asarray(m, dtype=float)[:3, :3].tolist())


def quat_of_rows(rows: list[list[float]]) -> Quat:
    """:func:`matrix_to_quat` of a 3×3 given as float rows."""
    (m00, m01, m02), (m10, m11, m12), (m20, m21, m22) = rows
    if not any(rows[0]) and not any(rows[1]) and not any(rows[2]):
        return (0.0, 0.0, 0.0, 1.0)  # all-zero scale: no rotation to recover, so none
    tr = m00 + m11 + m22
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        q = ((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s)
    elif m00 > m11 and m00 > m22:
        s = math.sqrt(1.0 + m00 - m11 - m22) * 2
        q = (0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s)
    elif m11 > m22:
        s = math.sqrt(1.0 + m11 - m00 - m22) * 2
        q = ((m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s)
    else:
        s = math.sqrt(max(1.0 + m22 - m00 - m11, 0.0)) * 2 or math.nan  # NaN in, NaN out: never a ZeroDivision
        q = ((m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s)
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    sign = -1.0 if q[3] < 0 else 1.0
    return (sign * q[0] / n, sign * q[1] / n, sign * q[2] / n, sign * q[3] / n) if n else (0.0, 0.0, 0.0, 1.0)


def quat_multiply(a: Quat, b: Quat) -> Quat:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def trs_matrix(translation: Vec3 = (0, 0, 0), rotation: Quat = (0, 0, 0, 1),
               scale: Vec3 = (1, 1, 1)) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = quat_to_matrix(rotation) * np.asarray(scale, dtype=float)
    m[:3, 3] = translation
    return m


def decompose(m: np.ndarray) -> tuple[Vec3, Quat, Vec3]:
    """Translation, rotation, scale of an affine 4×4 (a negative determinant flips the X scale).

    Plain float arithmetic (see :func:`matrix_to_quat`); ∞/NaN parts give NaN, never an exception.
    """
    rows = np.asarray(m, dtype=float)[:3, :4].tolist()
    t = (rows[0][3], rows[1][3], rows[2][3])
    (a, b, c), (d, e, f), (g, h, i) = (r[:3] for r in rows)
    sx, sy, sz = math.hypot(a, d, g), math.hypot(b, e, h), math.hypot(c, f, i)
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    if det < 0:
        sx = -sx
    ux, uy, uz = sx or 1.0, sy or 1.0, sz or 1.0
    basis = [[a / ux, b / uy, c / uz], [d / ux, e / uy, f / uz], [g / ux, h / uy, i / uz]]
    return t, quat_of_rows(basis), (sx, sy, sz)


TRS_TOLERANCE = 5e-5  # the Khronos glTF-Validator's bound on a rebuilt matrix's error (its NODE_MATRIX_NON_TRS)


def non_trs_reason(values: list[float]) -> str | None:
    """Why a node's ``matrix`` (16 numbers, column-major) is not a translation·rotation·scale, or ``None``.

    glTF allows only TRS matrices; the test is the Khronos validator's: the last row exactly (0, 0, 0, 1), a
    non-zero determinant, and the matrix rebuilt from its decomposition within :data:`TRS_TOLERANCE` of it
    (largest row sum of absolute differences). A shear, or columns that are parallel, fail it.
    """
    return non_trs_reasons([values])[0]


def non_trs_reasons(values: np.ndarray) -> list[str | None]:
    """:func:`non_trs_reason` of many matrices (n, 16) at once: one NumPy pass, the same tests (a document can hold
    tens of thousands of node matrices; one at a time costs ~13 µs each)."""
    flat = np.asarray(values, dtype=float).reshape(-1, 16)
    m = flat.reshape(-1, 4, 4).transpose(0, 2, 1)
    with np.errstate(all="ignore"):
        last = (m[:, 3] == (0.0, 0.0, 0.0, 1.0)).all(axis=1)
        singular = ~np.isfinite(m).all(axis=(1, 2)) | (np.linalg.det(m[:, :3, :3]) == 0.0)
        t, q, scale = decompose_all(m)
        rebuilt = np.zeros_like(m)
        rebuilt[:, :3, :3] = _quats_to_matrices(q) * scale[:, None, :]
        rebuilt[:, :3, 3] = t
        rebuilt[:, 3, 3] = 1.0
        error = np.abs(rebuilt - m).sum(axis=2).max(axis=1)
    out: list[str | None] = []
    for ok_last, bad, err in zip(last.tolist(), singular.tolist(), error.tolist(), strict=True):
        if not ok_last:
            out.append("its last row is not (0, 0, 0, 1)")
        elif bad:
            out.append("it is singular (determinant 0): it flattens space")
        elif not err < TRS_TOLERANCE:
            out.append(f"it holds a shear: rebuilt from translation, rotation and scale it differs by {err:.3g}")
        else:
            out.append(None)
    return out


def decompose_all(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`decompose` of a stack (n, 4, 4): translations (n, 3), rotations (n, 4), scales (n, 3).

    Bit-identical to decomposing each matrix: the column norms are ``math.hypot`` (correctly rounded, which
    NumPy cannot reproduce) and every other step is the same IEEE operation in the same order, element-wise;
    Python's branches become masks. For the many joint frames and body frames of a big document.
    """
    m = np.asarray(m, dtype=float).reshape(-1, 4, 4)
    t = m[:, :3, 3].copy()
    scale = _column_norms(m[:, :3, :3])
    with np.errstate(all="ignore"):
        a, b, c = m[:, 0, 0], m[:, 0, 1], m[:, 0, 2]
        d, e, f = m[:, 1, 0], m[:, 1, 1], m[:, 1, 2]
        g, h, i = m[:, 2, 0], m[:, 2, 1], m[:, 2, 2]
        det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        scale[:, 0] = np.where(det < 0, -scale[:, 0], scale[:, 0])
        unit = np.where(scale == 0.0, 1.0, scale)  # ``s or 1.0``: ±0 → 1, NaN stays
        basis = m[:, :3, :3] / unit[:, None, :]
    return t, quats_of_rows(basis), scale


def distinct_blocks(stack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the first index of each distinct matrix, which distinct matrix each one is) of a stack of float matrices,
    told apart by their bytes (the same inputs give the same results; -0.0 and 0.0 differ): most nodes of a big
    scene share a few rotations and scales, so work that depends on the 3×3 alone is done once per distinct one.
    """
    count = len(stack)
    width = int(np.prod(stack.shape[1:])) * stack.itemsize
    raw = np.ascontiguousarray(stack).reshape(count, -1 if count else 0).view(np.dtype((np.void, width))).ravel()
    _, first, which = np.unique(raw, return_index=True, return_inverse=True)
    return first, which.ravel()


def _column_norms(lin: np.ndarray) -> np.ndarray:
    """``math.hypot`` of each column of a stack of 3×3 (n, 3, 3) as (n, 3): once per distinct 3×3
    (:func:`distinct_blocks`)."""
    first, which = distinct_blocks(lin)
    cols = lin[first].transpose(0, 2, 1).tolist()  # each distinct 3×3's three columns
    hyp = math.hypot
    norms = np.array([(hyp(*c0), hyp(*c1), hyp(*c2)) for c0, c1, c2 in cols], dtype=float).reshape(-1, 3)
    return norms[which]


def quats_of_rows(r: np.ndarray) -> np.ndarray:
    """:func:`quat_of_rows` of a stack of 3×3 (n, 3, 3), element-wise with the same operations (bit-identical)."""
    m00, m01, m02 = r[:, 0, 0], r[:, 0, 1], r[:, 0, 2]
    m10, m11, m12 = r[:, 1, 0], r[:, 1, 1], r[:, 1, 2]
    m20, m21, m22 = r[:, 2, 0], r[:, 2, 1], r[:, 2, 2]
    with np.errstate(all="ignore"):
        tr = m00 + m11 + m22
        first = tr > 0
        second = ~first & (m00 > m11) & (m00 > m22)
        third = ~first & ~second & (m11 > m22)
        fourth = ~(first | second | third)
        q = np.empty((len(r), 4))
        s = np.sqrt(tr + 1.0) * 2
        q[first] = np.stack([(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s], axis=1)[first]
        s = np.sqrt(1.0 + m00 - m11 - m22) * 2
        q[second] = np.stack([0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s], axis=1)[second]
        s = np.sqrt(1.0 + m11 - m00 - m22) * 2
        q[third] = np.stack([(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s], axis=1)[third]
        x = 1.0 + m22 - m00 - m11
        s = np.sqrt(np.where(x < 0.0, 0.0, x)) * 2  # Python's max(x, 0.0): NaN and -0.0 stay x
        s = np.where(s == 0.0, np.nan, s)  # ``or math.nan``
        q[fourth] = np.stack([(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s], axis=1)[fourth]
        n = np.sqrt(q[:, 0] * q[:, 0] + q[:, 1] * q[:, 1] + q[:, 2] * q[:, 2] + q[:, 3] * q[:, 3])
        sign = np.where(q[:, 3] < 0, -1.0, 1.0)
        out = sign[:, None] * q / n[:, None]
    identity = (n == 0.0) | ~r.reshape(-1, 9).any(axis=1)  # a zero norm, or all nine entries ±0
    out[identity] = (0.0, 0.0, 0.0, 1.0)
    return out


def quat_rows_all(q: np.ndarray) -> np.ndarray:
    """:func:`quat_rows` of (n, 4) quaternions as (n, 3, 3), element-wise with the same operations."""
    x, y, z, w = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    r = np.empty((len(q), 3, 3))
    with np.errstate(all="ignore"):
        n = x * x + y * y + z * z + w * w
        k = 2.0 / n
        r[:, 0, 0], r[:, 0, 1], r[:, 0, 2] = 1 - k * (y * y + z * z), k * (x * y - z * w), k * (x * z + y * w)
        r[:, 1, 0], r[:, 1, 1], r[:, 1, 2] = k * (x * y + z * w), 1 - k * (x * x + z * z), k * (y * z - x * w)
        r[:, 2, 0], r[:, 2, 1], r[:, 2, 2] = k * (x * z - y * w), k * (y * z + x * w), 1 - k * (x * x + y * y)
    r[(n == 0.0) | ~np.isfinite(n)] = np.eye(3)  # a zero or non-finite quaternion: identity
    return r


def relative_rigid_all(parent_t: np.ndarray, parent_q: np.ndarray, child_t: np.ndarray,
                       child_q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`relative_rigid` of n (parent, child) pose pairs at once, bit-identical element-wise."""
    x, y, z, w = parent_q[:, 0], parent_q[:, 1], parent_q[:, 2], parent_q[:, 3]
    r = quat_rows_all(parent_q)
    r00, r01, r02 = r[:, 0, 0], r[:, 0, 1], r[:, 0, 2]
    r10, r11, r12 = r[:, 1, 0], r[:, 1, 1], r[:, 1, 2]
    r20, r21, r22 = r[:, 2, 0], r[:, 2, 1], r[:, 2, 2]
    with np.errstate(all="ignore"):
        d0, d1, d2 = (child_t[:, 0] - parent_t[:, 0], child_t[:, 1] - parent_t[:, 1],
                      child_t[:, 2] - parent_t[:, 2])
        t = np.stack([0.0 + r00 * d0 + r10 * d1 + r20 * d2, 0.0 + r01 * d0 + r11 * d1 + r21 * d2,
                      0.0 + r02 * d0 + r12 * d1 + r22 * d2], axis=1)
        ax, ay, az, aw = -x, -y, -z, w
        bx, by, bz, bw = child_q[:, 0], child_q[:, 1], child_q[:, 2], child_q[:, 3]
        q = np.stack([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                      aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz], axis=1)
        norm = np.sqrt(q[:, 0] * q[:, 0] + q[:, 1] * q[:, 1] + q[:, 2] * q[:, 2] + q[:, 3] * q[:, 3])
        norm = np.where(norm == 0.0, 1.0, norm)  # ``or 1.0``
        scale = np.where(q[:, 3] < 0, -1.0 / norm, 1.0 / norm)
    return t, q * scale[:, None]


def affine_inverse(m: np.ndarray) -> np.ndarray:
    """Inverse of an affine 4×4, total: a singular one (a zero scale on the way) or a non-finite one
    inverts only its rigid part (translation and rotation, NaN/∞ read as 0), so callers never see
    ``LinAlgError`` and never get NaN back."""
    m = np.asarray(m, dtype=float)
    with np.errstate(all="ignore"):
        # Only the affine part (3×3 and translation) is inverted: a node matrix whose bottom row is not
        # (0, 0, 0, 1) is not a transform glTF allows (NODE_MATRIX_NON_TRS), and inverting the whole 4×4 would
        # raise on a zero bottom row although its 3×3 part is regular.
        if np.isfinite(m[:3]).all() and abs(float(np.linalg.det(m[:3, :3]))) > 1e-300:
            if (m[3] == (0.0, 0.0, 0.0, 1.0)).all():
                out = np.linalg.inv(m)
            else:
                linear = np.linalg.inv(m[:3, :3])
                out = np.eye(4)
                out[:3, :3] = linear
                out[:3, 3] = -linear @ m[:3, 3]
            if np.isfinite(out).all():
                return out
    t, q, _ = decompose(np.nan_to_num(m, nan=0.0, posinf=0.0, neginf=0.0))
    r = quat_to_matrix(q)
    out = np.eye(4)
    out[:3, :3] = r.T
    out[:3, 3] = -r.T @ np.asarray(t)
    return out


def _vec(value: Any, default: tuple[float, ...]) -> tuple[float, ...]:
    if isinstance(value, list) and len(value) == len(default):
        try:
            out = tuple(map(float, value))
        except (TypeError, ValueError, OverflowError):
            return default
        if math.isfinite(sum(out)) or all(math.isfinite(v) for v in out):  # one test on the common path
            return out
        return default  # NaN/∞ is malformed too
    return default


def local_matrix(node: dict[str, Any]) -> np.ndarray:
    """A node's local 4×4 from ``matrix`` or TRS; malformed values fall back to identity parts."""
    m = _matrix_of(node.get("matrix"))
    if m is not None:
        return m
    t = _vec(node.get("translation"), (0.0, 0.0, 0.0))
    r = _vec(node.get("rotation"), (0.0, 0.0, 0.0, 1.0))
    s = _vec(node.get("scale"), (1.0, 1.0, 1.0))
    return trs_matrix(t, r, s)  # type: ignore[arg-type]


def world_matrices(gltf: dict[str, Any], parent_of: list[int | None] | None = None) -> list[np.ndarray]:
    """World 4×4 of every node (parents before children; a cycle's nodes are treated as roots).

    Each node's matrix is its own slice of one (n, 4, 4) array, :func:`world_stack`. ``parent_of``:
    :func:`~.hierarchy.parents` of ``gltf`` when the caller already has it.
    """
    return list(world_stack(gltf, parent_of))


def world_stack(gltf: dict[str, Any], parent_of: list[int | None] | None = None) -> np.ndarray:
    """:func:`world_matrices` as one (n, 4, 4) array (fancy-indexing it beats stacking slices again).

    Vectorised: local matrices from stacked TRS arrays, then one batched product per hierarchy level, so a
    300,000-node document costs a few NumPy calls per level instead of several per node.
    """
    return world_stacks(gltf, parent_of)[0]


def world_stacks(gltf: dict[str, Any], parent_of: list[int | None] | None = None,
                 chained: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """(:func:`world_stack`, and with ``chained`` the same matrices composed as a walk down from the identity:
    a root's is ``I @ local``, which equals ``local`` except for the sign of some zeros). The readers' joint
    frames always came from that walk, ``info`` and the writers from :func:`world_matrices`; both from one
    parse of the nodes, so each keeps its exact bytes."""
    nodes = gltf.get("nodes") if isinstance(gltf, dict) else None
    nodes = nodes if isinstance(nodes, list) else []  # what parents() walks too: the two stay the same length
    n = len(nodes)
    if n == 0:
        return np.zeros((0, 4, 4)), np.zeros((0, 4, 4)) if chained else None
    effective, depth = _composition_order(parents(gltf) if parent_of is None else parent_of)
    local = _local_matrices(nodes)
    depths = np.asarray(depth, dtype=np.int64)
    order = np.argsort(depths, kind="stable")
    bounds = np.searchsorted(depths[order], np.arange(1, max(depth) + 2))
    eff = np.asarray([-1 if p is None else p for p in effective], dtype=np.int64)
    walked = None
    if chained:
        walked = local.copy()
        roots = order[:bounds[0]]
        walked[roots] = np.matmul(np.broadcast_to(np.eye(4), (len(roots), 4, 4)), walked[roots])
        _compose_levels(walked, order, bounds, eff)
    _compose_levels(local, order, bounds, eff)
    return local, walked


def _compose_levels(world: np.ndarray, order: np.ndarray, bounds: np.ndarray, eff: np.ndarray) -> None:
    """world[i] = world[parent] @ world[i], level by level (in place)."""
    with np.errstate(all="ignore"):  # a huge chain may overflow: callers check finiteness where it matters
        for level in range(1, len(bounds)):
            idx = order[bounds[level - 1]:bounds[level]]
            if len(idx):
                world[idx] = np.matmul(world[eff[idx]], world[idx])


def _composition_order(parent_of: list[int | None]) -> tuple[list[int | None], list[int]]:
    """(the parent each node's world matrix is composed with, its depth below a root).

    The same walk as resolving node by node: from each unresolved node up to a resolved one, a root, or a
    node already on the walk (a cycle: the walk's top is then treated as a root, as before).
    """
    n = len(parent_of)
    effective: list[int | None] = [None] * n
    depth = [0] * n
    state = bytearray(n)  # 0 unvisited, 1 on the current walk, 2 resolved (no set per walk: most are short)
    for i in range(n):
        if state[i]:
            continue
        chain: list[int] = []
        j: int | None = i
        while j is not None and not state[j]:
            state[j] = 1
            chain.append(j)
            j = parent_of[j]
        top = chain[-1]
        above = parent_of[top]
        if above is not None and state[above] == 2:  # on the walk (1): a cycle, its top is a root
            effective[top], depth[top] = above, depth[above] + 1
        for k in range(len(chain) - 2, -1, -1):
            c = chain[k]
            effective[c], depth[c] = chain[k + 1], depth[chain[k + 1]] + 1
        for c in chain:
            state[c] = 2
    return effective, depth


def _local_matrices(nodes: list[Any]) -> np.ndarray:
    """(n, 4, 4) local matrices: ``matrix`` when finite, else TRS (malformed parts ⇒ identity parts)."""
    n = len(nodes)
    rows: dict[str, tuple[list[int], list[tuple[float, ...]]]] = {k: ([], []) for k in _TRS_DEFAULTS}
    given: list[tuple[int, np.ndarray]] = []
    (ti, tv), (ri, rv), (si, sv) = rows["translation"], rows["rotation"], rows["scale"]
    t0, r0, s0 = _TRS_DEFAULTS["translation"], _TRS_DEFAULTS["rotation"], _TRS_DEFAULTS["scale"]
    for i, node in enumerate(nodes):  # unrolled over the three parts: this loop runs once per node
        if not isinstance(node, dict):
            continue
        if "matrix" in node:
            m = _matrix_of(node["matrix"])
            if m is not None:
                given.append((i, m))
                continue
        get = node.get
        # A part present as null reads as its default, which every row already holds.
        if (v := get("translation")) is not None:
            ti.append(i)
            tv.append(_vec(v, t0))
        if (v := get("rotation")) is not None:
            ri.append(i)
            rv.append(_vec(v, r0))
        if (v := get("scale")) is not None:
            si.append(i)
            sv.append(_vec(v, s0))
    arrays = {}
    for key, default in _TRS_DEFAULTS.items():  # one fancy-index assignment per part, not one per node
        arrays[key] = np.tile(np.asarray(default, dtype=float), (n, 1))
        index, values = rows[key]
        if index:
            arrays[key][index] = values
    t, q, s = arrays["translation"], arrays["rotation"], arrays["scale"]
    out = np.zeros((n, 4, 4))
    out[:, :3, :3] = _quats_to_matrices(q) * s[:, None, :]
    out[:, :3, 3] = t
    out[:, 3, 3] = 1.0
    for i, m in given:
        out[i] = m
    return out


_TRS_DEFAULTS: dict[str, tuple[float, ...]] = {"translation": (0.0, 0.0, 0.0), "rotation": (0.0, 0.0, 0.0, 1.0),
                                              "scale": (1.0, 1.0, 1.0)}


def _matrix_of(value: Any) -> np.ndarray | None:
    if isinstance(value, list) and len(value) == 16:
        try:
            m = np.array(value, dtype=float).reshape(4, 4).T
        except (TypeError, ValueError, OverflowError):  # OverflowError: an integer beyond double range
            return None
        if np.isfinite(m).all():  # NaN/∞ (1e999 in the file) is malformed like a string: use TRS
            return m
    return None


def _quats_to_matrices(q: np.ndarray) -> np.ndarray:
    """:func:`quat_to_matrix` over (n, 4): the same formulas element by element (bit-identical results)."""
    x, y, z, w = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    with np.errstate(all="ignore"):
        norm = x * x + y * y + z * z + w * w
        bad = (norm == 0.0) | ~np.isfinite(norm)
        k = 2.0 / np.where(bad, 1.0, norm)
        r = np.empty((len(q), 3, 3))
        r[:, 0, 0] = 1 - k * (y * y + z * z)
        r[:, 0, 1] = k * (x * y - z * w)
        r[:, 0, 2] = k * (x * z + y * w)
        r[:, 1, 0] = k * (x * y + z * w)
        r[:, 1, 1] = 1 - k * (x * x + z * z)
        r[:, 1, 2] = k * (y * z - x * w)
        r[:, 2, 0] = k * (x * z - y * w)
        r[:, 2, 1] = k * (y * z + x * w)
        r[:, 2, 2] = 1 - k * (x * x + y * y)
    r[bad] = np.eye(3)
    return r


def relative_pose(world_parent: np.ndarray | None, world_child: np.ndarray) -> tuple[Vec3, Quat]:
    """Pose of ``world_child`` in the (scale-free) frame of ``world_parent`` (world when ``None``).

    Scale is removed from both frames: joint frames and body poses are rigid.
    """
    child = decompose(world_child)[:2]
    return relative_rigid(None if world_parent is None else decompose(world_parent)[:2], child)  # type: ignore[arg-type]


def relative_rigid(parent: tuple[Vec3, Quat] | None, child: tuple[Vec3, Quat]) -> tuple[Vec3, Quat]:
    """:func:`relative_pose` from already decomposed (translation, rotation) poses: a reader that needs
    many joint frames decomposes each node once."""
    ct, cq = child
    if parent is None:
        return ct, cq
    pt, pq = parent
    t = rows_t_times(quat_rows(pq), (ct[0] - pt[0], ct[1] - pt[1], ct[2] - pt[2]))
    inv = (-pq[0], -pq[1], -pq[2], pq[3])
    q = quat_multiply(inv, cq)
    return t, _canonical(q)


def _canonical(q: Quat) -> Quat:
    n = math.sqrt(sum(c * c for c in q)) or 1.0
    s = -1.0 / n if q[3] < 0 else 1.0 / n
    return (q[0] * s, q[1] * s, q[2] * s, q[3] * s)
