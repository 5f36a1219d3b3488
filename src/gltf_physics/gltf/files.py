"""Atomic multi-file output: every file goes to a temporary name in its own folder, then all are renamed.

A command that writes several files (a glTF and its ``.bin``, a trace, events, a report) collects them in one
:class:`OutputSet`: files given as bytes, files copied from elsewhere, and files *streamed* while a run goes on
(a trace written step by step, so memory stays bounded). Nothing appears under its real name until
:meth:`OutputSet.commit`; if anything fails before that (a write error, a missing source to copy, a failed
simulation), every temporary file and every folder created for them is removed: a failed command leaves
nothing behind. :func:`check_writable` lets a command refuse an impossible output path before it does any work.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from .errors import GltfError


@dataclass(frozen=True)
class Output:
    """One file to produce: its bytes (written in order) or a file to copy."""

    target: Path
    parts: Sequence[bytes] = ()
    copy_from: Path | None = None


def write_all(outputs: list[Output]) -> None:
    """Write every output atomically, all or nothing."""
    with OutputSet() as files:
        for out in outputs:
            files.add(out)
        files.commit()


def check_writable(path: Path, what: str = "output") -> None:
    """Refuse, before any work, an output whose folder cannot exist or that names a folder.

    The nearest existing ancestor must be a writable folder; nothing is created here.
    """
    if path.is_dir():
        raise GltfError(f"cannot write {what} {path}: it is a folder")
    probe = path.parent
    while not probe.exists():
        if probe == probe.parent:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise GltfError(f"cannot write {what} {path}: {probe} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise GltfError(f"cannot write {what} {path}: {probe} is not writable")


class OutputSet:
    """Files of one command, written to temporary names and renamed together by :meth:`commit`.

    Use it as a context manager: leaving the block without a commit (an exception, or an early return) removes
    every temporary file and every folder it created.
    """

    def __init__(self) -> None:
        self._created_dirs: list[Path] = []
        self._temps: list[tuple[Path, Path]] = []
        self._targets: set[Path] = set()
        self._streams: list[BinaryIO] = []
        self._done = False

    def __enter__(self) -> OutputSet:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if not self._done:
            self.abort()

    def add(self, out: Output) -> None:
        """Write ``out`` to its temporary file now."""
        self._claim(out.target)
        self._temps.append((_write_temp(out), out.target))

    def stream(self, target: Path) -> BinaryIO:
        """An open binary file to write ``target``'s content into as it is produced (closed by commit/abort)."""
        self._claim(target)
        fd, name = _temp_beside(target)
        self._temps.append((Path(name), target))
        handle = os.fdopen(fd, "wb")
        self._streams.append(handle)
        return handle

    def commit(self) -> None:
        """Close the streams and rename every temporary file to its target, in the order they were added."""
        try:
            for handle in self._streams:
                handle.close()
            for temp, _ in self._temps:
                _match_umask(temp)
            for temp, target in self._temps:
                os.replace(temp, target)
        except OSError as exc:
            self.abort()
            raise GltfError(f"cannot write {exc.filename or ''}: {exc.strerror or exc}") from None
        self._done = True

    def abort(self) -> None:
        """Remove every temporary file and every folder created for them."""
        for handle in self._streams:
            with contextlib.suppress(OSError):
                handle.close()
        for temp, _ in self._temps:
            temp.unlink(missing_ok=True)
        for folder in reversed(self._created_dirs):
            with contextlib.suppress(OSError):
                folder.rmdir()
        self._done = True

    def _claim(self, target: Path) -> None:
        key = target.resolve()
        if key in self._targets:
            raise GltfError(f"cannot write {target}: two outputs of this command name the same file")
        self._targets.add(key)
        _make_parents(target.parent, self._created_dirs)
        if not target.parent.is_dir():
            raise GltfError(f"cannot write {target}: {target.parent} is not a folder")


def _temp_beside(target: Path) -> tuple[int, str]:
    """A new hidden temporary file in ``target``'s folder (so the final rename stays on one file system)."""
    import tempfile  # here: ~5 ms CPU to import, and reading a file (`info`) never writes one

    return tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)


def _write_temp(out: Output) -> Path:
    fd, name = _temp_beside(out.target)
    temp = Path(name)
    try:
        with os.fdopen(fd, "wb") as stream:
            if out.copy_from is not None:
                with open(out.copy_from, "rb") as source:
                    shutil.copyfileobj(source, stream, 1 << 20)
            else:
                for part in out.parts:
                    stream.write(part)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise GltfError(f"cannot write {out.target}: {exc.strerror or exc}") from None
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def _match_umask(path: Path) -> None:
    """mkstemp creates 0600 files; give the output the permissions a plain open() would."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def _make_parents(folder: Path, created: list[Path]) -> None:
    """Create ``folder`` and its missing ancestors, appending each one made to ``created`` as it is made."""
    missing = []
    probe = folder
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    try:
        for d in reversed(missing):
            try:
                d.mkdir()
            except FileExistsError:
                # Another process (a batch worker writing beside this one) made it since the probe: it is
                # not ours to remove on abort, and a file of that name is caught by the caller's is_dir check.
                continue
            created.append(d)
    except OSError as exc:
        raise GltfError(f"cannot create folder {folder}: {exc.strerror or exc}") from None
