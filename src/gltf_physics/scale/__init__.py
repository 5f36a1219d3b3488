"""Scale-out on Dask (docs/architecture.md, the only package that imports Dask): ``batch`` runs a command over
many assets, ``sweep`` runs one scene many times with varied parameters; both return pyarrow tables.

Needs the extra ``gltf-physics[scale]`` (dask[distributed], pyarrow). The names are imported on first use so
that the isolated runner processes (:mod:`.batch_child`) never load Dask.
"""

from __future__ import annotations

from typing import Any

__all__ = ["batch", "sweep"]


def batch(*args: Any, **kwargs: Any) -> Any:
    """Run validate, info, convert or simulate over many assets on Dask; one pyarrow table row per asset.

    The arguments are :func:`gltf_physics.scale.batch_driver.batch_rows`': ``paths`` (files, folders, globs),
    ``command``, ``client`` (a ``dask.distributed.Client``, else a local cluster of ``workers`` processes), ``timeout``,
    ``out``, ``resume`` and the command's options. Needs the ``[scale]`` extra.

    Example:
        >>> table = gp.batch(["assets/"], "validate", workers=2, out="results.parquet")
        >>> table.column("status").to_pylist()[:3]
        ['ok', 'ok', 'failed']
    """
    from .batch_driver import batch as run_batch

    return run_batch(*args, **kwargs)


def sweep(*args: Any, **kwargs: Any) -> Any:
    """Run one scene many times on Dask, varying glTF Object Model pointers; one table row per (run, body).

    The arguments are :func:`gltf_physics.scale.sweep_driver.sweep`'s: ``scene``, ``vary`` (pointer → SPEC such as
    ``"uniform(0,5)"`` or ``"[grid(0,4,5), 10, 0]"``), ``runs``, ``seed``, ``duration``, ``client`` and the
    trajectory output. Deterministic for a seed whatever the worker count. Needs the ``[scale]`` extra.

    Example:
        >>> runs = gp.sweep("ball.gltf", {"/nodes/0/translation": "[grid(0,4,5), 10, 0]"}, duration=2.0)
        >>> runs.num_rows
        5
    """
    from .sweep_driver import sweep as run_sweep

    return run_sweep(*args, **kwargs)
