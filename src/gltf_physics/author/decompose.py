"""Convex decomposition by CoACD (collision-aware approximate convex decomposition, SIGGRAPH 2022).

CoACD is deterministic for a given ``seed``: the same mesh and settings give the same parts, byte for byte,
which is what lets a build bake decompositions into its assets. Its defaults (``threshold`` 0.05, MCTS with
150 iterations, 2,000 sample points) take tens of seconds on a mesh of a few hundred vertices; ``fast``
settings (fewer MCTS iterations and nodes) are offered for previews and tests. The library is the optional
``author`` extra.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..geometry.native_inputs import coacd_problem


class MissingExtraError(RuntimeError):
    """CoACD is not installed."""


class DecompositionInputError(ValueError):
    """A mesh CoACD must not be given (:func:`gltf_physics.geometry.native_inputs.coacd_problem` says why)."""


@dataclass(frozen=True)
class Settings:
    """CoACD's settings that matter here, with its own defaults.

    threshold: the concavity a part may keep (CoACD's ``-t``; smaller: more, tighter parts).
    max_hulls: at most this many parts (``-1``: no limit; CoACD merges parts to reach it).
    seed: the random seed (the same seed gives the same parts).
    mcts_iterations, mcts_nodes, resolution: CoACD's search effort and sampling.
    """

    threshold: float = 0.05
    max_hulls: int = -1
    seed: int = 0
    mcts_iterations: int = 150
    mcts_nodes: int = 20
    resolution: int = 2000
    preprocess: str = "auto"

    @classmethod
    def fast(cls, **changes: object) -> Settings:
        """Reduced search effort (about a tenth of the defaults' time on small meshes): previews and tests."""
        base = {"mcts_iterations": 30, "mcts_nodes": 8, "resolution": 500}
        return cls(**{**base, **changes})  # type: ignore[arg-type]


def decompose(vertices: np.ndarray, triangles: np.ndarray, settings: Settings | None = None,
              ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The convex parts of the mesh, each as (vertices (V, 3) float64, triangles (T, 3) int64), in CoACD's order.

    Raises MissingExtraError when CoACD is not installed, DecompositionInputError for a mesh it cannot take.
    """
    try:
        import coacd
    except ImportError:
        raise MissingExtraError("convex decomposition needs CoACD: pip install 'gltf-physics[author]'") from None
    problem = coacd_problem(vertices, triangles)  # the one check in front of CoACD (it aborts the process)
    if problem is not None:
        raise DecompositionInputError(f"CoACD cannot decompose this mesh: {problem}")
    s = settings or Settings()
    coacd.set_log_level("error")
    mesh = coacd.Mesh(np.ascontiguousarray(vertices, dtype=np.float64),
                      np.ascontiguousarray(triangles, dtype=np.int32))
    parts = coacd.run_coacd(mesh, threshold=s.threshold, max_convex_hull=s.max_hulls, seed=s.seed,
                            mcts_iterations=s.mcts_iterations, mcts_nodes=s.mcts_nodes, resolution=s.resolution,
                            preprocess_mode=s.preprocess)
    return [(np.asarray(v, dtype=np.float64), np.asarray(t, dtype=np.int64)) for v, t in parts]
