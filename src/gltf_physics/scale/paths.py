"""Expanding a batch's PATHS: files as given, folders recursively (.gltf and .glb), glob patterns."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable
from pathlib import Path

SUFFIXES = (".gltf", ".glb")


def expand(paths: Iterable[str | Path]) -> list[str]:
    """Sorted distinct asset paths. A named file is taken whatever its suffix (it may be unreadable: that is its
    row's business); folders and glob matches contribute their .gltf/.glb files. A name that is neither an existing
    path nor a matching pattern is kept too, and fails in its row."""
    found: set[str] = set()
    for item in paths:
        text = str(item)
        if os.path.isdir(text):
            found.update(_folder(Path(text)))
        elif os.path.exists(text) or not glob.has_magic(text):
            found.add(text)
        else:
            for match in glob.glob(text, recursive=True):
                found.update(_folder(Path(match)) if os.path.isdir(match) else
                             [match] if match.lower().endswith(SUFFIXES) else [])
    return sorted(found)


def _folder(folder: Path) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file()]


def mirrored(assets: list[str], out_dir: str | Path) -> dict[str, str]:
    """Each asset's output path under ``out_dir``, mirroring the tree below the assets' common folder."""
    base = _common_folder(assets)
    if os.path.abspath(out_dir) == base:
        raise ValueError(f"out_dir {out_dir} is the input folder: the converted files would overwrite the assets")
    return {p: str(Path(out_dir) / os.path.relpath(p, base)) for p in assets}


def _common_folder(assets: list[str]) -> str:
    folders = [os.path.dirname(os.path.abspath(a)) for a in assets]
    return os.path.commonpath(folders) if folders else "."
