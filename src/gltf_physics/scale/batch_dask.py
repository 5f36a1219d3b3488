"""A batch on Dask: the assets in tasks (largest first, guided sizes: :func:`.batch_driver._chunks`), rows
streamed back as each task finishes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from distributed import Client, as_completed

from .isolation import run_chunk

Chunk = list[tuple[str, dict[str, Any]]]


def run_on(client: Client, command: str, chunker: Callable[[int], list[Chunk]], timeout: float,
           memory_mb: int) -> Iterator[dict[str, Any]]:
    """Rows as tasks finish; ``chunker(threads)`` groups the assets for the cluster's thread count. A task
    whose worker died (Dask retried it elsewhere, then gave up) fails its assets' rows with the reason."""
    # Dask starts tasks of equal priority oldest first, so in the order the chunker makes them: largest first.
    # (No explicit priorities: on a shared cluster the batch keeps the default place among other clients' work.)
    futures = {client.submit(run_chunk, command, chunk, timeout, memory_mb, pure=False): chunk
               for chunk in chunker(threads(client))}
    try:
        for future in as_completed(futures):
            # result(), not the status seen now: a task whose worker left after finishing it (its result lost
            # with the worker) is recomputed elsewhere, and result() waits for that instead of failing the rows.
            try:
                rows = future.result()
            except Exception as error:  # the worker died running it too often (KilledWorker), or a bug
                kind = "worker lost" if type(error).__name__ == "KilledWorker" else "task failed"
                rows = [{"path": path, "status": "failed", "reason": f"{kind}: {error!r}", "seconds": None}
                        for path, _ in futures[future]]
            yield from rows
    finally:
        client.cancel(list(futures))


def threads(client: Client) -> int:
    """Worker threads of the cluster now (at least 1)."""
    return sum(w.get("nthreads", 1) for w in client.scheduler_info().get("workers", {}).values()) or 1
