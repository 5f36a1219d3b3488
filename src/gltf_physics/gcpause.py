"""Pausing the cyclic garbage collector around the reading or writing of a whole document.

Reading a 50,000-node document allocates ~10^6 small containers, and each of the collector's full sweeps walks
the whole parsed JSON tree: without the pause, ``convert`` and ``info`` of such a file take 1.5-2× the CPU
(measured with ``bench/scale.py --sizes 50000`` and the CLI). Nothing made here forms reference cycles, so
reference counting frees it all as usual.

A library must leave its host's collector as it found it: :func:`gc_paused` restores whether it was enabled
and never touches thresholds or frozen objects. What the pause allocated is still young afterwards, and the
next collections walk it once more (~0.05 s after a 50,000-node convert). A program that owns its process —
the ``gltf-physics`` command — may instead have those objects moved to the oldest generation at the end of each
pause (:func:`promoting`): that also promotes every other young object of the process, which is why a library
call never does it on its own.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_promote = False  # set only inside `promoting()`, by the command line


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector; on exit it is enabled again only if it was (nesting is fine).

    Thresholds and frozen objects are never changed; young objects stay young, unless the process asked for
    :func:`promoting`.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if _promote:
                _promote_young()
            gc.enable()


@contextmanager
def promoting() -> Iterator[None]:
    """For a program that owns its process (the command line): within this block, each pause of an enabled
    collector ends by moving every tracked object to the oldest generation, so the ~10^6 objects a big read
    leaves are not swept again by the young generations' collections (0.2-0.35 s of CPU at 50,000 nodes)."""
    global _promote
    before, _promote = _promote, True
    try:
        yield
    finally:
        _promote = before


def _promote_young() -> None:
    """Every tracked object to the oldest generation, without a collection (``gc.freeze`` then ``gc.unfreeze``,
    both constant time). Skipped when objects are frozen already (``unfreeze`` would thaw those)."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


__all__ = ["gc_paused", "promoting"]
