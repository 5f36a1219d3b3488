"""The isolated runner: a child process that processes assets one at a time for a Dask worker (:mod:`.isolation`).

Protocol, one JSON object a line: the runner first writes ``{"ready": true}``, then for each request
``{"command", "path", "options"}`` on stdin writes ``{"figures": {...}}`` or ``{"error": "..."}`` on its
protocol stream. It runs under an address-space limit (``--memory MB``) so that an asset that exhausts memory
raises ``MemoryError`` here (then the runner answers and exits, as its heap may be in a bad state) instead of
taking the worker, or the machine, with it. A hang or a crash (signal) is the parent's to detect.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from typing import IO, Any


def main(argv: list[str] | None = None) -> None:
    """Serve requests until stdin closes."""
    args = _parse(argv)
    serve(sys.stdin, _protocol_stream(), args.memory)


def serve(requests: IO[str], proto: IO[str], memory: int) -> None:
    """Limit the address space to ``memory`` MB (0: none), load what the commands need, then answer each
    request line of ``requests`` on ``proto``. A runner forked from a process that has already imported the
    package (:func:`.isolation.Runner`'s warm start) comes here directly, its imports already paid."""
    if memory > 0:
        limit = memory * 1024 * 1024
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard if hard != resource.RLIM_INFINITY else limit))
    from . import tasks  # after the limit: the imports below count against it, as the assets' work does

    _preload()
    _send(proto, {"ready": True})
    for line in requests:
        request = json.loads(line)
        try:
            _send(proto, {"figures": tasks.run(request["command"], request["path"], request["options"])})
        except MemoryError:
            _send(proto, {"error": f"out of memory (over the {memory} MB limit)", "fatal": True})
            return
        except Exception as e:  # the asset's failure, recorded in its row; the runner goes on
            _send(proto, {"error": _reason(e)})


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gltf_physics.scale.batch_child")
    parser.add_argument("--memory", type=int, default=0, help="address-space limit in MB (0: none)")
    return parser.parse_args(argv)


def _protocol_stream() -> IO[str]:
    """The real stdout, kept for the protocol; fd 1 then points to stderr so stray prints cannot corrupt it."""
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    return proto


def _preload() -> None:
    # Everything the commands need, once per runner rather than once per asset.
    from .. import api, summary, validation  # noqa: F401
    from ..sim import World  # noqa: F401


def _send(proto: IO[str], message: dict[str, Any]) -> None:
    proto.write(json.dumps(message) + "\n")
    proto.flush()


def _reason(e: Exception) -> str:
    from .tasks import AssetFailed

    text = str(e).replace("\n", " ")
    if isinstance(e, AssetFailed | OSError) or type(e).__name__ in ("GltfError", "SimulationError"):
        return text or type(e).__name__
    return f"{type(e).__name__}: {text}"


if __name__ == "__main__":
    main()
