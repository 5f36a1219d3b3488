"""Body frames: the rigid (scale-free) frame a runtime puts a body in, and rigid inverses (one or a stack)."""

from __future__ import annotations

import numpy as np

from ..gltf.transforms import decompose, decompose_all, quat_rows, quat_rows_all


def body_frame(world: np.ndarray) -> np.ndarray:
    """The rigid (scale-free) 4×4 frame of a node's world matrix: where the runtime puts its body."""
    t, q, _ = decompose(world)
    (a, b, c), (d, e, f), (g, h, i) = quat_rows(q)
    return np.array([[a, b, c, t[0]], [d, e, f, t[1]], [g, h, i, t[2]], [0.0, 0.0, 0.0, 1.0]])


def inverse_body_frame(world: np.ndarray) -> np.ndarray:
    """``rigid_inverse(body_frame(world))`` built from floats: the same values (the translation summed as
    NumPy sums ``-Rᵀ @ t``, from +0.0), one array instead of a dozen small NumPy calls per body."""
    t, q, _ = decompose(world)
    (a, b, c), (d, e, f), (g, h, i) = quat_rows(q)
    x, y, z = t
    return np.array([
        [a, d, g, 0.0 + -a * x + -d * y + -g * z],
        [b, e, h, 0.0 + -b * x + -e * y + -h * z],
        [c, f, i, 0.0 + -c * x + -f * y + -i * z],
        [0.0, 0.0, 0.0, 1.0],
    ])


def inverse_body_frames(worlds: np.ndarray) -> np.ndarray:
    """:func:`inverse_body_frame` of a stack of world matrices (n, 4, 4) in one NumPy pass, bit-identical."""
    t, q, _ = decompose_all(worlds)
    r = quat_rows_all(q)
    x, y, z = t[:, 0], t[:, 1], t[:, 2]
    inv = np.zeros((len(t), 4, 4))
    inv[:, :3, :3] = r.transpose(0, 2, 1)
    with np.errstate(all="ignore"):
        for k in range(3):  # the same operations as inverse_body_frame, element-wise
            inv[:, k, 3] = 0.0 + -r[:, 0, k] * x + -r[:, 1, k] * y + -r[:, 2, k] * z
    inv[:, 3, 3] = 1.0
    return inv


def rigid_inverse(frame: np.ndarray) -> np.ndarray:
    """The inverse of a rigid 4×4 frame (transpose the rotation)."""
    inv = np.eye(4)
    inv[:3, :3] = frame[:3, :3].T
    inv[:3, 3] = _minus_rt_times(frame[:3, :3], frame[:3, 3])
    return inv


def rigid_inverses(frames: np.ndarray) -> np.ndarray:
    """:func:`rigid_inverse` of a stack of frames (N, 4, 4) in one NumPy pass."""
    rot_t = np.transpose(frames[:, :3, :3], (0, 2, 1))
    inv = np.zeros_like(frames)
    inv[:, :3, :3] = rot_t
    inv[:, :3, 3] = _minus_rt_times(frames[:, :3, :3], frames[:, :3, 3])
    inv[:, 3, 3] = 1.0
    return inv


def _minus_rt_times(r: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``-Rᵀ @ t`` for one (3×3, 3) or a stack, summed element-wise from +0.0 in a fixed order, as
    :func:`inverse_body_frame` sums it. Not ``@``: BLAS kernels round a single product and each slice of a stack
    differently on some processors (OpenBLAS's AVX-512 gemv against its gemm), and these inverses must be the
    same bits whichever path computed them."""
    with np.errstate(all="ignore"):
        return (0.0 + -r[..., 0, :] * t[..., 0, None] + -r[..., 1, :] * t[..., 1, None]
                + -r[..., 2, :] * t[..., 2, None])
