"""Reading Rapier body poses into arrays: one binding call per body is the floor (the pinned binding has no bulk
read), so the fast form joins each body's ``Isometry3.to_bytes()`` and decodes them in one NumPy call."""

from __future__ import annotations

import numpy as np
import rapier3d as rp

POSE_HEADER = 8  # bytes before the 7 float32 of Isometry3.to_bytes() (quaternion xyzw, translation xyz)


def pose_bytes_ok() -> bool:
    """Whether ``Isometry3.to_bytes()`` is still 8 header bytes + 7 float32 (the fast read decodes only then)."""
    iso = rp.Isometry3((1.5, -2.25, 3.0), (0.0, 0.6, 0.0, 0.8))
    raw = iso.to_bytes()
    if len(raw) != POSE_HEADER + 28:
        return False
    values = np.frombuffer(raw[POSE_HEADER:], dtype="<f4")
    expect = np.array([*iso.rotation.to_tuple(), *iso.translation.to_tuple()], dtype=np.float32)
    return bool(np.array_equal(values, expect))


def read_objects(objects: list[rp.RigidBody], fast: bool) -> np.ndarray:
    """(N, 7) float32 [qx, qy, qz, qw, tx, ty, tz] of Rapier's live body ``objects`` (``fast``: through
    ``to_bytes``, which :func:`pose_bytes_ok` vouched for)."""
    if fast:
        blob = b"".join([b.position.to_bytes() for b in objects])
        return np.frombuffer(blob, dtype="<f4").reshape(-1, 9)[:, 2:]
    out = np.empty((len(objects), 7), dtype=np.float32)
    for i, b in enumerate(objects):
        out[i, :4] = b.rotation.to_tuple()
        out[i, 4:] = b.translation.to_tuple()
    return out
