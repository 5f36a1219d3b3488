"""Never write over an input: the one check every writing command makes before it writes anything.

An output is refused when it is one of the command's inputs, or a file an input glTF references (its external
``.bin`` buffers, images, document-level extension files), or when saving it as glTF would rewrite such a file
(a save rewrites the side files the existing output references). Files are compared by resolved path (symbolic
links followed) and, where both exist, by device and inode (hard links). The refusal is one line and exit 2,
before any file is touched; only ``convert --in-place`` replaces its input on purpose.

A glTF's referenced files always lie in its folder (a uri leading outside is refused when it loads), so the
input is parsed for them only when something would be written in that folder. Every writer replaces its file
by renaming a new one over it, so a hard link elsewhere to a referenced file keeps its bytes either way.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .common import UsageError

_GLTF = (".gltf", ".glb")


@dataclass
class Source:
    """A file a command reads. For a glTF (``references``), the files it references are inputs too; ``gltf`` is
    its parsed JSON when the command has it already (else it is read here, only if needed)."""

    path: Path
    gltf: Any = None
    references: bool = True
    _refs: list[tuple[str, Path]] | None = field(default=None, repr=False)

    def referenced(self) -> list[tuple[str, Path]]:
        """(pointer, path) of every file this glTF references; none for an unreadable file (loading it says why)."""
        if self._refs is None:
            self._refs = []
            gltf = self.gltf if self.gltf is not None else _read_json(self.path)
            if gltf is not None:
                from ..gltf.io import referenced_files

                self._refs = referenced_files(gltf, self.path.parent)
        return self._refs


def refuse_overwrite(sources: Iterable[Source], outputs: Sequence[tuple[str, Path | None]], *,
                     may_replace: str | None = None, side_files: bool = True) -> None:
    """Raise UsageError (one line, exit 2) if an output named ``(option, path)`` would write over an input.

    The output of the option ``may_replace`` may be an input or a file it references (``convert --in-place``
    passes ``"OUT"``). ``side_files=False`` skips reading existing glTF outputs for the files they reference
    (a batch of thousands, whose side files are named after each output). Two outputs naming the same file are
    the writer's concern (it refuses them too).
    """
    inputs = _Inputs(list(sources))
    for option, path in outputs:
        if path is None or option == may_replace:
            continue
        rewritten = _rewritten_with(path) if side_files else []
        for target, via in [(path, None), *((p, path) for p in rewritten)]:
            why = inputs.overlap(target)
            if why is not None:
                raise UsageError(_message(option, path, target, via, why))


class _Inputs:
    """The sources, indexed by resolved path and by (device, inode)."""

    def __init__(self, sources: list[Source]) -> None:
        self.sources = sources
        self.by_key: dict[Path | tuple[int, int], Source] = {}
        for source in sources:
            path, inode = _identity(source.path)
            self.by_key.setdefault(path, source)
            if inode is not None:
                self.by_key.setdefault(inode, source)

    def overlap(self, target: Path) -> str | None:
        """How ``target`` is one of the inputs (``the input a.gltf``…), or None."""
        path, inode = key = _identity(target)
        hit = self.by_key.get(path) or (self.by_key.get(inode) if inode is not None else None)
        if hit is not None:
            return f"the input {hit.path}"
        for source in self.sources:
            if not source.references or source.path.suffix.lower() not in _GLTF or not _inside(path, source.path):
                continue
            for pointer, ref in source.referenced():
                if _same(key, _identity(ref)):
                    return f"{ref}, a file the input {source.path} references at {pointer}"
        return None


def _message(option: str, path: Path, target: Path, via: Path | None, what: str) -> str:
    """``OPTION PATH: <why it would write over an input>; nothing written``."""
    why = f"saving it would rewrite {target}, which is {what}" if via is not None else f"that is {what}"
    itself = via is None and what.startswith("the input ")  # OUT is IN: what --in-place is for
    hint = " (--in-place replaces the input on purpose)" if option == "OUT" and itself else ""
    return f"{option} {path}: {why}; nothing written{hint}"


def _rewritten_with(out: Path) -> list[Path]:
    """The side files saving a glTF at ``out`` may rewrite: those its existing version references."""
    if out.suffix.lower() not in _GLTF or not out.is_file():
        return []
    gltf = _read_json(out)
    if gltf is None:
        return []
    from ..gltf.io import referenced_files

    return [p for _, p in referenced_files(gltf, out.parent)]


def _read_json(path: Path) -> Any:
    """The glTF JSON of ``path``, or None when it cannot be read."""
    from ..gltf.errors import GltfError
    from ..gltf.io import read_json

    try:
        return read_json(path)
    except (GltfError, OSError, ValueError):
        return None


def _inside(resolved: Path, source: Path) -> bool:
    """Whether the resolved path lies in ``source``'s folder or below it (where its referenced files are)."""
    return source.parent.resolve() in resolved.parents


_Key = tuple[Path, tuple[int, int] | None]


def _identity(path: Path) -> _Key:
    """The resolved path and, when the file exists, its (device, inode)."""
    try:
        st = os.stat(path)
        inode: tuple[int, int] | None = (st.st_dev, st.st_ino)
    except OSError:
        inode = None
    return path.resolve(), inode


def _same(a: _Key, b: _Key) -> bool:
    return a[0] == b[0] or (a[1] is not None and a[1] == b[1])
