"""Run one asset in an isolated child process with a time limit: what makes a batch survive bad assets.

A Dask task cannot be interrupted while it is blocked in a C extension, and a segfault or an out-of-memory kill
takes the whole worker process with it. So each worker thread keeps one runner process (:mod:`.batch_child`) that
processes its assets one after another (paying the interpreter and import start-up once, not per asset): a
runner that does not answer within the asset's time limit is killed, one that dies is noticed by its closed
pipe, and either way the asset's row says why and the next asset gets a fresh runner. Dask workers are daemonic
processes, which may not use ``multiprocessing`` children, hence a plain subprocess and a line protocol.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

CHILD = "gltf_physics.scale.batch_child"  # the module each runner process runs (``python -m``)
_START_TIMEOUT = 120.0  # seconds for a runner's imports: not the asset's time, and generous on a loaded machine
_local = threading.local()


class RunnerDied(Exception):
    """The runner stopped answering: killed for the time limit, or crashed."""


# Native thread pools a runner's libraries would size to the whole machine: with one runner per worker thread,
# N workers would start N × cores threads fighting for the cores (rows slow down as workers are added).
_ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "RAYON_NUM_THREADS")
ONE_THREAD_ENV = dict.fromkeys(_ONE_THREAD, "1")  # what a local cluster's worker processes start with


class Runner:
    """One child process serving requests; see :mod:`.batch_child` for the protocol.

    Cold (the default) it is a fresh interpreter (``python -m`` :data:`CHILD`) that pays its imports once; warm
    (``warm=True``) it is a fork of this process, whose imports it shares for free, provided the caller has
    imported what the commands need (:func:`preload`) and :func:`can_fork` says forking is safe here; else it
    is cold after all."""

    def __init__(self, memory_mb: int, *, warm: bool = False) -> None:
        self.memory_mb = memory_mb
        self.warm = warm
        self.proc: subprocess.Popen[bytes] | _Forked
        if warm and can_fork() and _address_space_mb() * 2 <= (memory_mb or 1 << 40):
            # (A fork starts with this process's address space, which counts against its limit: only a small
            # one leaves an asset the room a fresh runner would have.)
            self.proc = _Forked(memory_mb)
        else:
            env = dict(os.environ)
            package_root = str(Path(__file__).resolve().parents[2])  # so the child imports this very gltf_physics
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
            for name in _ONE_THREAD:
                env.setdefault(name, "1")  # the workers are the parallelism
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
        if isinstance(self.proc, _Forked):
            self.proc.close()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None


class _Forked:
    """A runner forked from this process, with the parts of ``Popen``'s interface :class:`Runner` uses."""

    open_fds: ClassVar[set[int]] = set()  # the parent's ends of every forked runner's pipes, closed in each new child

    def __init__(self, memory_mb: int) -> None:
        requests_r, requests_w = os.pipe()
        answers_r, answers_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: serve, never return into the caller's code
            _serve_forked(requests_r, answers_w, memory_mb, [requests_w, answers_r, *_Forked.open_fds])
        os.close(requests_r)
        os.close(answers_w)
        self.stdin = os.fdopen(requests_w, "wb")
        self.stdout = os.fdopen(answers_r, "rb")
        self._fds = {requests_w, answers_r}
        _Forked.open_fds |= self._fds
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit code (negative: the signal) once the child has ended, else None."""
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self) -> int:
        """Wait for the child to end; its exit code."""
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def kill(self) -> None:
        """SIGKILL."""
        os.kill(self.pid, signal.SIGKILL)

    def close(self) -> None:
        """Close this side's pipe ends."""
        _Forked.open_fds -= self._fds
        for stream in (self.stdin, self.stdout):
            with contextlib.suppress(OSError):  # a broken pipe flushing the last request: the child is gone
                stream.close()


def _serve_forked(requests: int, answers: int, memory_mb: int, others: list[int]) -> None:
    """The forked child's whole life. Other runners' pipe ends are closed (else a sibling's death would never
    read as a closed pipe), stdout and stderr go to /dev/null (a stray print must not reach the caller's output),
    Ctrl-C is the parent's to handle (it kills its runners), and native pools get one thread, as on a worker."""
    code = 1
    try:
        # The inherited objects are shared with the parent page by page until written: kept out of the cyclic
        # garbage collector's walks, which would write to (and so copy) every page of them at each collection.
        gc.freeze()
        for fd in others:
            os.close(fd)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for name in _ONE_THREAD:  # as a cold runner's; Rapier reads it when its pool starts, at the first run
            os.environ.setdefault(name, "1")
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        from . import batch_child

        with os.fdopen(requests, encoding="utf-8") as inbox, os.fdopen(answers, "w", encoding="utf-8") as outbox:
            batch_child.serve(inbox, outbox, memory_mb)
        code = 0
    finally:
        os._exit(code)


def can_fork() -> bool:
    """Whether a fork of this process can run assets: Linux (elsewhere fork is unsafe or absent), and this
    process has one thread, native ones included. A fork copies only the calling thread: a lock another thread
    holds stays locked in the child forever, and a native pool's workers (Rapier's, a BLAS's) are missing there
    while the pool believes them alive — a child using them would wait forever."""
    try:
        return hasattr(os, "fork") and len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no /proc: not Linux
        return False


def _address_space_mb() -> float:
    """This process's virtual size in MB (what a fork of it starts with under its memory limit)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("inf")


def preload() -> None:
    """Import here what the runners' commands need, so that warm runners forked afterwards start at once."""
    from . import batch_child

    batch_child._preload()


def run_chunk(command: str, chunk: list[tuple[str, dict[str, Any]]], timeout: float,
              memory_mb: int) -> list[dict[str, Any]]:
    """Rows of several assets, one after another in this thread's runner (one Dask task for a few assets: a
    task costs the scheduler milliseconds, a small asset less than that)."""
    return [run_isolated(command, path, options, timeout, memory_mb) for path, options in chunk]


def run_isolated(command: str, path: str, options: dict[str, Any], timeout: float,
                 memory_mb: int, *, warm: bool = False) -> dict[str, Any]:
    """The asset's row: ``path``, ``status`` ("ok" or "failed"), ``reason``, ``seconds`` and the figures.
    ``warm``: this thread's runner is a fork of this process (see :class:`Runner`)."""
    try:
        runner = _runner(memory_mb, warm)  # before the clock: a new runner's start-up is not the asset's time
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


def _runner(memory_mb: int, warm: bool) -> Runner:
    runner: Runner | None = getattr(_local, "runner", None)
    if runner is None or not runner.alive or runner.memory_mb != memory_mb or runner.warm != warm:
        if runner is not None:
            runner.kill()
        runner = _local.runner = Runner(memory_mb, warm=warm)
    return runner


def start_runner(memory_mb: int, *, warm: bool = False) -> None:
    """Start this thread's runner now rather than at its first asset (a runner that cannot start is left to
    that asset's row to report)."""
    try:
        _runner(memory_mb, warm)
    except RunnerDied:
        _local.runner = None


def warm(memory_mb: int) -> None:
    """For a worker of a lasting cluster, as a task: import the package (what sweep tasks run here) and start
    this thread's runner (what batch tasks use), so that the first command finds both ready."""
    preload()
    start_runner(memory_mb)


def close_runner() -> None:
    """Stop this thread's runner, if any (the in-process path's runner ends with its batch)."""
    runner: Runner | None = getattr(_local, "runner", None)
    if runner is not None:
        runner.kill()
        _local.runner = None

