"""A local cluster that outlives one command (``gltf-physics cluster start|stop|status``), and how ``batch``,
``sweep`` and ``gp.batch`` / ``gp.sweep`` find a cluster without being told.

``cluster start`` runs :mod:`.lasting_server` as a background process of its own session: a scheduler and
single-threaded worker processes bound to 127.0.0.1 only (no other machine can reach them), whose address and
process id it writes to the *cluster file*, ``$XDG_CACHE_HOME/gltf-physics/cluster.json`` (``~/.cache/…`` when
unset). A command given no ``--scheduler``, no client and no ``--workers`` uses, in this order: the cluster named
by ``GLTF_PHYSICS_SCHEDULER`` (a ``tcp://host:port`` address, or a Dask scheduler file as ``dask scheduler
--scheduler-file`` writes), then the cluster file's cluster if its process is alive, else a local cluster of its
own for the command's lifetime. The workers keep their runner processes between commands, so a series of
commands pays the cluster's start and the runners' imports once. No Dask here: finding a cluster must not cost
the import of Dask.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ENV = "GLTF_PHYSICS_SCHEDULER"
_START_TIMEOUT = 120.0  # seconds for the cluster to come up on a loaded machine
_STOP_TIMEOUT = 30.0


class ClusterError(Exception):
    """The cluster could not be started (the reason is the message)."""


def cluster_file() -> Path:
    """Where ``cluster start`` writes the running cluster's address and process id."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "gltf-physics" / "cluster.json"


def discover() -> str | None:
    """The address of the cluster a command should use when told none (see the module docstring), or None."""
    named = os.environ.get(ENV, "").strip()
    if named:
        return named if "://" in named else _address_in(Path(named))
    info = running()
    return info["address"] if info is not None else None


def _address_in(path: Path) -> str:
    try:
        address = json.loads(path.read_text(encoding="utf-8"))["address"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{ENV}={path}: not a scheduler address (tcp://HOST:PORT) nor a readable scheduler "
                         f"file ({e})") from None
    return str(address)


def running() -> dict[str, Any] | None:
    """The cluster file's content (``address``, ``pid``, ``workers``) if its process is alive, else None (a
    file left by a cluster that died is removed)."""
    path = cluster_file()
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        pid = int(info["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not _alive(pid):
        path.unlink(missing_ok=True)
        return None
    return info


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process reused the id
        return False
    return True


def start(workers: int | None) -> dict[str, Any]:
    """Start the background cluster (or return the one running); its cluster-file content."""
    info = running()
    if info is not None:
        return {**info, "already": True}
    path = cluster_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    log = path.with_suffix(".log")
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gltf_physics.scale.lasting_server", "--file", str(path),
             *(["--workers", str(workers)] if workers else [])],
            stdin=subprocess.DEVNULL, stdout=sink, stderr=sink, env=env, start_new_session=True)
    deadline = time.monotonic() + _START_TIMEOUT
    while time.monotonic() < deadline:
        info = running()
        if info is not None and info["pid"] == proc.pid:
            return info
        if proc.poll() is not None:
            tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:] or ["no output"]
            raise ClusterError(f"the cluster process exited with code {proc.returncode}: {tail[0]}")
        time.sleep(0.05)  # polling a file the child writes once; the wait is bounded by the deadline
    proc.kill()
    raise ClusterError(f"the cluster did not start within {_START_TIMEOUT:g} s (see {log})")


def stop() -> dict[str, Any] | None:
    """Stop the background cluster; what the cluster file said of it, or None when none was running."""
    info = running()
    if info is None:
        return None
    pid = int(info["pid"])
    os.kill(pid, signal.SIGTERM)  # the server closes its workers and scheduler, then removes the file
    deadline = time.monotonic() + _STOP_TIMEOUT
    while _alive(pid) and time.monotonic() < deadline:
        _reap(pid)
        time.sleep(0.05)
    if _alive(pid):
        os.killpg(pid, signal.SIGKILL)  # its session: the server and the worker processes it started
    cluster_file().unlink(missing_ok=True)
    return info


def _reap(pid: int) -> None:
    """Collect the server's exit status when this process started it (else it would linger as a zombie)."""
    with contextlib.suppress(ChildProcessError):  # not our child: its parent reaps it
        os.waitpid(pid, os.WNOHANG)
