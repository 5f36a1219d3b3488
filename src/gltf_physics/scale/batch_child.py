"""The isolated runner: a child process that processes assets one at a time for a Dask worker (:mod:`.isolation`).

Protocol, one JSON object a line: the runner first writes ``{"ready": true}``, then for each request
``{"command", "path", "options"}`` on stdin writes ``{"figures": {...}}`` or ``{"error": "..."}`` on its
protocol stream. It runs under an address-space limit (``--memory MB``) so that an asset that exhausts memory
raises ``MemoryError`` here (then the runner answers and exits, as its heap may be in a bad state) instead of
taking the worker, or the machine, with it. A hang or a crash (signal) is the parent's to detect.

``GLTF_PHYSICS_BATCH_FAULTS=1`` (tests only) turns on fault hooks keyed by file name: ``*.hang.gltf`` blocks
in C (``sleep``), ``*.crash.gltf`` dereferences NULL (SIGSEGV), ``*.oom.gltf`` allocates until memory runs out.
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
    proto = _protocol_stream()
    if args.memory > 0:
        limit = args.memory * 1024 * 1024
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard if hard != resource.RLIM_INFINITY else limit))
    from . import tasks  # after the limit: the imports below count against it, as the assets' work does

    _preload()
    _send(proto, {"ready": True})
    for line in sys.stdin:
        request = json.loads(line)
        try:
            _fault_hook(request["path"])
            _send(proto, {"figures": tasks.run(request["command"], request["path"], request["options"])})
        except MemoryError:
            _send(proto, {"error": f"out of memory (over the {args.memory} MB limit)", "fatal": True})
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


def _fault_hook(path: str) -> None:
    if os.environ.get("GLTF_PHYSICS_BATCH_FAULTS") != "1":
        return
    if path.endswith(".hang.gltf"):
        import time

        time.sleep(1e6)  # blocked in C: no in-thread timeout can interrupt this
    elif path.endswith(".crash.gltf"):
        import ctypes

        ctypes.string_at(0)  # SIGSEGV
    elif path.endswith(".oom.gltf"):
        hog = []
        while True:
            hog.append(bytearray(64 * 1024 * 1024))


if __name__ == "__main__":
    main()
