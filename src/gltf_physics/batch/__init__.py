"""Scale-out on Dask (DESIGN §1 ``batch/``, the only package that imports Dask): ``batch`` runs a command over
many assets, ``sweep`` runs one scene many times with varied parameters; both return pyarrow tables.

Needs the extra ``gltf-physics[scale]`` (dask[distributed], pyarrow). The names are imported on first use so
that the isolated runner processes (:mod:`.runner`) never load Dask.
"""

from __future__ import annotations

from typing import Any

__all__ = ["batch", "sweep"]


def batch(*args: Any, **kwargs: Any) -> Any:
    """See :func:`gltf_physics.batch.run.batch`."""
    from .run import batch as run_batch

    return run_batch(*args, **kwargs)


def sweep(*args: Any, **kwargs: Any) -> Any:
    """See :func:`gltf_physics.batch.sweeps.sweep`."""
    from .sweeps import sweep as run_sweep

    return run_sweep(*args, **kwargs)
