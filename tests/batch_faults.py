"""The batch runner process with faults for tests, keyed by file name: ``*.hang.gltf`` blocks in C (``sleep``),
``*.crash.gltf`` dereferences NULL (SIGSEGV), ``*.oom.gltf`` allocates until the memory limit.

Run as ``python -m batch_faults`` in place of ``gltf_physics.scale.batch_child``: the ``client`` fixture of
tests/test_batch.py points each worker's ``isolation.CHILD`` here (this folder is on the workers' PYTHONPATH).
The faults sit in front of the asset's work, where a real asset's would happen, so the runner answers (or dies)
exactly as it would for one; nothing of this ships in the package.
"""

from __future__ import annotations

import ctypes
import time
from typing import Any

from gltf_physics.scale import batch_child


def fault(path: str) -> None:
    """Misbehave as the file name asks; return for any other file."""
    if path.endswith(".hang.gltf"):
        time.sleep(1e6)  # blocked in C: no in-thread timeout can interrupt this
    elif path.endswith(".crash.gltf"):
        ctypes.string_at(0)  # SIGSEGV
    elif path.endswith(".oom.gltf"):
        hog = []
        while True:
            hog.append(bytearray(64 * 1024 * 1024))


def _preload_with_faults(preload: Any = batch_child._preload) -> None:
    """The runner's own preload (after its memory limit), then every asset's work behind :func:`fault`."""
    preload()
    from gltf_physics.scale import tasks

    run = tasks.run

    def run_with_faults(command: str, path: str, options: dict[str, Any]) -> Any:
        fault(path)
        return run(command, path, options)

    tasks.run = run_with_faults


def use_fault_runner() -> None:
    """For ``client.run``: this worker's runner processes run this module."""
    from gltf_physics.scale import isolation

    isolation.CHILD = __name__


if __name__ == "__main__":
    batch_child._preload = _preload_with_faults
    batch_child.main()
