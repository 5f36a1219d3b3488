"""Run one asset in an isolated child process with a time limit: what makes a batch survive bad assets.

A Dask task cannot be interrupted while it is blocked in a C extension, and a segfault or an out-of-memory kill
takes the whole worker process with it. So each worker thread keeps one runner process (:mod:`.batch_child`) that
processes its assets one after another (paying the interpreter and import start-up once, not per asset): a
runner that does not answer within the asset's time limit is killed, one that dies is noticed by its closed
pipe, and either way the asset's row says why and the next asset gets a fresh runner. Dask workers are daemonic
processes, which may not use ``multiprocessing`` children, hence a plain subprocess and a line protocol.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

CHILD = "gltf_physics.scale.batch_child"  # the module each runner process runs (``python -m``)
_START_TIMEOUT = 120.0  # seconds for a runner's imports: not the asset's time, and generous on a loaded machine
_local = threading.local()


class RunnerDied(Exception):
    """The runner stopped answering: killed for the time limit, or crashed."""


class Runner:
    """One child process serving requests; see :mod:`.batch_child` for the protocol."""

    def __init__(self, memory_mb: int) -> None:
        self.memory_mb = memory_mb
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[2])  # so the child imports this very gltf_physics
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        env.setdefault("OPENBLAS_NUM_THREADS", "1")  # the workers are the parallelism
        self.proc = subprocess.Popen(
            [sys.executable, "-m", CHILD, "--memory", str(memory_mb)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self._buffer = b""
        self._read(_START_TIMEOUT)  # {"ready": true}

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request; its answer, or RunnerDied (the runner is then gone) after ``timeout`` seconds."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise RunnerDied(self._death()) from None
        return self._read(timeout)

    def _read(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.kill()
                raise RunnerDied(f"timed out after {timeout:g} s")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise RunnerDied(self._death())
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line)

    def _death(self) -> str:
        code = self.proc.wait()
        if code < 0:
            return f"crashed (signal {signal.Signals(-code).name})"
        return f"the runner exited with code {code}"

    def kill(self) -> None:
        """Stop the child now and reap it."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None


def run_chunk(command: str, chunk: list[tuple[str, dict[str, Any]]], timeout: float,
              memory_mb: int) -> list[dict[str, Any]]:
    """Rows of several assets, one after another in this thread's runner (one Dask task for a few assets: a
    task costs the scheduler milliseconds, a small asset less than that)."""
    return [run_isolated(command, path, options, timeout, memory_mb) for path, options in chunk]


def run_isolated(command: str, path: str, options: dict[str, Any], timeout: float,
                 memory_mb: int) -> dict[str, Any]:
    """The asset's row: ``path``, ``status`` ("ok" or "failed"), ``reason``, ``seconds`` and the figures."""
    try:
        runner = _runner(memory_mb)  # before the clock: a new runner's start-up is not the asset's time
    except RunnerDied as e:  # e.g. a memory limit too small for the runner's own imports
        _local.runner = None
        return {"path": path, "status": "failed", "reason": f"the runner could not start: {e}", "seconds": 0.0}
    start = time.perf_counter()
    try:
        answer = runner.request({"command": command, "path": path, "options": options}, timeout)
    except RunnerDied as e:
        answer = {"error": str(e), "fatal": True}
    if answer.get("fatal"):  # the runner is gone or going: the next asset gets a fresh one
        runner.kill()
        _local.runner = None
    seconds = time.perf_counter() - start
    if "error" in answer:
        return {"path": path, "status": "failed", "reason": answer["error"], "seconds": seconds}
    return {"path": path, "status": "ok", "reason": None, "seconds": seconds, **answer["figures"]}


def _runner(memory_mb: int) -> Runner:
    runner: Runner | None = getattr(_local, "runner", None)
    if runner is None or not runner.alive or runner.memory_mb != memory_mb:
        if runner is not None:
            runner.kill()
        runner = _local.runner = Runner(memory_mb)
    return runner

