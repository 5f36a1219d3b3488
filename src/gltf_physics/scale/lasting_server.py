"""The process behind ``gltf-physics cluster start`` (:mod:`.lasting`): a local cluster on 127.0.0.1 that runs
until SIGTERM (``cluster stop``) or SIGINT, its address in the cluster file while it lives."""

from __future__ import annotations

import argparse
import json
import os
import signal
from pathlib import Path

from ..gltf.files import Output, write_all
from .batch_driver import DEFAULT_MEMORY_MB
from .cluster import local_cluster
from .isolation import warm


def main(argv: list[str] | None = None) -> None:
    """Start the cluster, publish it, wait for a stop signal, close it and remove the file."""
    parser = argparse.ArgumentParser(prog="gltf_physics.scale.lasting_server")
    parser.add_argument("--file", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    stop: list[int] = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda number, _frame: stop.append(number))
    workers = args.workers or os.cpu_count() or 1
    with local_cluster(workers) as (cluster, client):
        client.wait_for_workers(workers)
        # Each worker's one thread imports the package and starts its runner now, during `cluster start`:
        # the first command then pays neither (a runner not started, e.g. too little memory, starts later).
        client.gather([client.submit(warm, DEFAULT_MEMORY_MB, workers=[address], allow_other_workers=False,
                                     pure=False) for address in client.scheduler_info()["workers"]])
        info = {"address": cluster.scheduler_address, "pid": os.getpid(), "workers": workers}
        write_all([Output(args.file, [json.dumps(info).encode()])])
        try:
            while not stop:
                signal.pause()
        finally:
            args.file.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
