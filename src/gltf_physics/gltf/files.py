"""Atomic multi-file output: every file goes to a temporary name in its own folder, then all are renamed.

If anything fails before the renames (a write error, a missing source to copy), every temporary file and
every folder created for them is removed: nothing is left behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import GltfError


@dataclass(frozen=True)
class Output:
    """One file to produce: its bytes (written in order) or a file to copy."""

    target: Path
    parts: Sequence[bytes] = ()
    copy_from: Path | None = None


def write_all(outputs: list[Output]) -> None:
    created_dirs: list[Path] = []
    temps: list[tuple[Path, Path]] = []
    try:
        for out in outputs:
            created_dirs += _make_parents(out.target.parent)
            temps.append((_write_temp(out), out.target))
        for temp, target in temps:
            os.replace(temp, target)
    except BaseException as exc:
        for temp, _ in temps:
            temp.unlink(missing_ok=True)
        for folder in reversed(created_dirs):
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(exc, OSError):
            raise GltfError(f"cannot write {exc.filename or ''}: {exc.strerror or exc}") from None
        raise


def _write_temp(out: Output) -> Path:
    fd, name = tempfile.mkstemp(prefix=f".{out.target.name}.", suffix=".tmp", dir=out.target.parent)
    temp = Path(name)
    try:
        with os.fdopen(fd, "wb") as stream:
            if out.copy_from is not None:
                with open(out.copy_from, "rb") as source:
                    shutil.copyfileobj(source, stream, 1 << 20)
            else:
                for part in out.parts:
                    stream.write(part)
        _match_umask(temp)
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


def _make_parents(folder: Path) -> list[Path]:
    missing = []
    probe = folder
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    try:
        for d in reversed(missing):
            d.mkdir()
    except OSError as exc:
        raise GltfError(f"cannot create folder {folder}: {exc.strerror or exc}") from None
    return list(reversed(missing))
