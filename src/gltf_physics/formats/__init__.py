"""Bridges to other physics formats (OpenUSD UsdPhysics, MuJoCo MJCF), and the registry that says which one
reads or writes a file.

Each format is one package (``formats/usd/``, ``formats/mjcf/``) registered here by one entry: a
:class:`Reader` (a file of that format → a glTF document with its physics in the newest OMI or KHR form) or a
:class:`Writer` (a glTF file → a file of that format). ``gltf-physics convert`` picks them by the suffix of IN
and OUT and by ``--to``; the format's module is imported only when it runs, so a format whose optional extra is
missing costs nothing until it is asked for (then it raises :class:`MissingExtraError`).

Robot descriptions (URDF, MuJoCo MJCF) have their own table, ``imports.SOURCES``: they read into the model with
options of their own and can be written out as MJCF too (:func:`robot_suffixes`).

Adding a reader is one entry in :data:`READERS`: its name, its suffixes and ``"module:function"``, a function
``(path, family) -> (Document, losses)`` (``family``: ``"omi"`` or ``"khr"``; losses ``{"code", "pointer",
"message"}``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GLTF_SUFFIXES = (".gltf", ".glb")
GLTF_TARGETS = ("omi", "khr")  # the glTF physics families a conversion can write


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message is the one line the CLI prints."""


def _function(entry: str) -> Callable[..., Any]:
    """The function an entry ``"package.module:function"`` names, its module imported now."""
    module, _, name = entry.partition(":")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Reader:
    """A format read into glTF: ``entry`` names ``(path, family) -> (Document, losses)``."""

    name: str  # short, in messages: "USD"
    title: str  # in "... from <title>"
    suffixes: tuple[str, ...]
    entry: str

    def function(self) -> Callable[..., Any]:
        """The reader, its module imported on first use."""
        return _function(self.entry)


@dataclass(frozen=True)
class Writer:
    """A format written from a glTF file: ``entry`` names ``(src, dst, report) -> losses``, which writes ``dst``
    and, with ``report``, the loss report (both or neither where the format allows).

    ``target``: the ``--to`` value that selects this writer (then OUT must also carry one of ``suffixes``); without
    one, OUT's suffix alone selects it and ``--to`` does not apply.
    """

    name: str  # short, in messages: "USD", "MJCF"
    title: str  # in "wrote OUT (<title>)"
    suffixes: tuple[str, ...]
    entry: str
    target: str | None = None

    def function(self) -> Callable[..., Any]:
        """The writer, its module imported on first use."""
        return _function(self.entry)


READERS: tuple[Reader, ...] = (
    Reader("USD", "OpenUSD", (".usda", ".usdc", ".usd"), "gltf_physics.formats.usd:usd_to_gltf"),
)

WRITERS: tuple[Writer, ...] = (
    Writer("USD", "OpenUSD UsdPhysics", (".usda", ".usdc", ".usd"), "gltf_physics.formats.usd:write_file"),
    Writer("MJCF", "MuJoCo MJCF", (".xml",), "gltf_physics.formats.mjcf:write_file", target="mjcf"),
)


def targets() -> list[str]:
    """Every ``--to`` value: the glTF families, then each writer's target."""
    return [*GLTF_TARGETS, *(w.target for w in WRITERS if w.target is not None)]


def output_suffixes() -> list[str]:
    """Every suffix an output may have: glTF's, then each writer's."""
    return [*GLTF_SUFFIXES, *(s for w in WRITERS for s in w.suffixes)]


def robot_suffixes() -> tuple[str, ...]:
    """The suffixes of robot descriptions (URDF, MuJoCo MJCF), read into the model by :mod:`.imports` — with
    options of their own (a floating base, package folders) and MJCF output through the same model."""
    from .imports import import_suffixes

    return import_suffixes()


def reader_for(path: str | Path) -> Reader | None:
    """The reader of ``path`` by its suffix (any case), or ``None`` for glTF (and anything unknown)."""
    ext = Path(path).suffix.lower()
    return next((r for r in READERS if ext in r.suffixes), None)


def writer_for(path: str | Path, target: str | None) -> Writer | None:
    """The writer of output ``path`` with ``--to target``, or ``None`` for glTF.

    A writer with a target is chosen by that target or by its suffix, before any writer chosen by its suffix
    alone (``--to mjcf`` with OUT ``.usda`` is an MJCF request with the wrong suffix, not a USD one).
    """
    ext = Path(path).suffix.lower()
    for writer in sorted(WRITERS, key=lambda w: w.target is None):
        if (writer.target is not None and target == writer.target) or ext in writer.suffixes:
            return writer
    return None


__all__ = ["GLTF_SUFFIXES", "GLTF_TARGETS", "READERS", "WRITERS", "MissingExtraError", "Reader", "Writer",
           "output_suffixes", "reader_for", "robot_suffixes", "targets", "writer_for"]
