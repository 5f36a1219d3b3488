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
            if future.status == "finished":
                yield from future.result()
                continue
            error = future.exception()
            reason = f"{'worker lost' if type(error).__name__ == 'KilledWorker' else 'task failed'}: {error!r}"
            for path, _ in futures[future]:
                yield {"path": path, "status": "failed", "reason": reason, "seconds": None}
    finally:
        client.cancel(list(futures))


def threads(client: Client) -> int:
    """Worker threads of the cluster now (at least 1)."""
    return sum(w.get("nthreads", 1) for w in client.scheduler_info().get("workers", {}).values()) or 1
