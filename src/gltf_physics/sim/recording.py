"""Poses of every moving body at t = 0 and after every step, in preallocated NumPy arrays.

``poses[f, b]`` = [qx, qy, qz, qw, tx, ty, tz] float32 (Rapier's own precision, so traces and bakes carry
exactly what the engine computed) of body ``nodes[b]`` at ``times[f]``.
"""

from __future__ import annotations

import numpy as np


class Recording:
    def __init__(self, nodes: list[int], names: list[str], capacity: int = 64) -> None:
        self.nodes = np.asarray(nodes, dtype=np.int64)
        self.names = list(names)
        self._times = np.empty(max(capacity, 1), dtype=np.float64)
        self._poses = np.empty((max(capacity, 1), len(nodes), 7), dtype=np.float32)
        self.count = 0

    def reserve(self, frames: int) -> None:
        """Make room for ``frames`` more frames at once (no regrowth while running)."""
        need = self.count + frames
        if need > len(self._times):
            times = np.empty(need, dtype=np.float64)
            poses = np.empty((need, *self._poses.shape[1:]), dtype=np.float32)
            times[: self.count] = self._times[: self.count]
            poses[: self.count] = self._poses[: self.count]
            self._times, self._poses = times, poses

    def append(self, time: float, poses: np.ndarray) -> None:
        if self.count == len(self._times):
            self.reserve(max(self.count, 64))
        self._times[self.count] = time
        self._poses[self.count] = poses
        self.count += 1

    def truncate(self, frames: int) -> None:
        self.count = min(self.count, frames)

    @property
    def times(self) -> np.ndarray:
        return self._times[: self.count]

    @property
    def poses(self) -> np.ndarray:
        return self._poses[: self.count]

    @property
    def translations(self) -> np.ndarray:
        """(F, B, 3) float32 view."""
        return self._poses[: self.count, :, 4:]

    @property
    def rotations(self) -> np.ndarray:
        """(F, B, 4) float32 xyzw view."""
        return self._poses[: self.count, :, :4]
