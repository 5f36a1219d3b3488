"""`gltf-physics cluster start|stop|status`: a local Dask cluster that outlives one command.

While it runs, `batch` and `sweep` (and ``gp.batch`` / ``gp.sweep``) given no ``--scheduler`` and no
``--workers`` use it, so a series of commands pays the cluster's start and its runners' imports once.
"""

from __future__ import annotations

from typing import Annotated

import typer

from .common import UsageError, clean_errors, out
from .options import at_least
from .scale_extra import installed

app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                  help="A local Dask cluster (127.0.0.1 only) that batch and sweep use until it is stopped.")


@app.command("start")
@clean_errors
def start(workers: Annotated[int | None, typer.Option(
        help="Worker processes (default: the core count).")] = None) -> None:
    """Start the cluster in the background (or say the one running), print its address."""
    if workers is not None:
        at_least("--workers", workers, 1, "the number of worker processes")
    installed("cluster start")
    from ..scale.lasting import ClusterError, cluster_file
    from ..scale.lasting import start as start_cluster

    try:
        info = start_cluster(workers)
    except ClusterError as e:
        raise UsageError(f"{cluster_file()}: {e}") from None
    verb = "already running" if info.get("already") else "started"
    out.print(f"cluster {verb} at {info['address']}, {info['workers']} workers (process {info['pid']}); "
              "`gltf-physics cluster stop` stops it", soft_wrap=True, markup=False, highlight=False)


@app.command("stop")
@clean_errors
def stop() -> None:
    """Stop the cluster and its workers (nothing to do when none is running)."""
    from ..scale.lasting import stop as stop_cluster

    info = stop_cluster()
    out.print("no cluster running" if info is None else f"stopped the cluster at {info['address']}",
              markup=False, highlight=False)


@app.command("status")
@clean_errors
def status() -> None:
    """The running cluster's address and workers; exit 1 when none is running."""
    from ..scale.lasting import ENV, running

    info = running()
    if info is None:
        out.print("no cluster running (`gltf-physics cluster start` starts one)", markup=False, highlight=False)
        raise typer.Exit(1)
    out.print(f"cluster at {info['address']}, {info['workers']} workers (process {info['pid']})",
              soft_wrap=True, markup=False, highlight=False)
    import os

    if os.environ.get(ENV, "").strip():
        out.print(f"note: {ENV} is set, so batch and sweep use {os.environ[ENV]} instead", soft_wrap=True,
                  markup=False, highlight=False)
