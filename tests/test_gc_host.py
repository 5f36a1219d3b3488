"""The library leaves its host's garbage collector as it found it (read, convert, validate pause it for big
documents): enabled or not, thresholds, the objects the caller froze, and which generation its objects are in.
Only the command line, which owns its process, promotes what a pause allocated (``gcpause.promoting``)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

import pytest

from conftest import ROOT
from gltf_physics.api import convert, load, read_scene
from gltf_physics.cli import main
from gltf_physics.gcpause import gc_paused, promoting
from gltf_physics.validation import validate

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
QUIET = (10**9, 7, 3)  # no automatic collection while the test runs: a generation only changes if we cause it


class Probe:
    """A tracked object of the caller's."""


def library_calls() -> None:
    doc = load(EXAMPLE)
    read_scene(doc)
    convert(doc, to="khr")
    convert(doc, to="omi")
    validate(doc)


def generation_of(obj: object) -> int | None:
    return next((g for g in range(3) if any(o is obj for o in gc.get_objects(generation=g))), None)


@contextlib.contextmanager
def collector(enabled: bool, threshold: tuple[int, int, int]) -> Iterator[None]:
    """The collector as a caller set it, restored after the test."""
    was_enabled, was_threshold = gc.isenabled(), gc.get_threshold()
    gc.set_threshold(*threshold)
    (gc.enable if enabled else gc.disable)()
    try:
        yield
    finally:
        gc.set_threshold(*was_threshold)
        (gc.enable if was_enabled else gc.disable)()


def test_a_caller_with_the_collector_disabled_keeps_it_disabled() -> None:
    with collector(False, (700, 10, 10)):
        probe = Probe()
        library_calls()
        assert not gc.isenabled()
        assert gc.get_threshold() == (700, 10, 10)
        assert generation_of(probe) == 0


def test_a_caller_with_custom_thresholds_keeps_them_and_its_young_objects_stay_young() -> None:
    with collector(True, QUIET):
        gc.collect()
        probe = Probe()
        assert generation_of(probe) == 0
        library_calls()
        assert gc.isenabled()
        assert gc.get_threshold() == QUIET
        assert generation_of(probe) == 0  # a freeze/unfreeze would have moved it to generation 2


def test_a_callers_frozen_objects_stay_frozen() -> None:
    with collector(True, QUIET):
        frozen = Probe()
        gc.freeze()
        try:
            count = gc.get_freeze_count()
            library_calls()
            assert generation_of(frozen) is None  # still in the permanent generation: nothing thawed it
            assert gc.get_freeze_count() <= count  # nothing of ours frozen (frozen objects may still die)
        finally:
            gc.unfreeze()


def test_nested_pauses_restore_the_outer_state() -> None:
    with collector(True, QUIET):
        with gc_paused():
            with gc_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
        assert gc.isenabled()


def test_the_command_line_promotes_only_while_it_runs(capsys: pytest.CaptureFixture[str]) -> None:
    with collector(True, QUIET):
        gc.collect()
        probe = Probe()
        with promoting(), gc_paused():
            pass
        assert generation_of(probe) == 2  # what the command line asks for: young objects moved to the oldest
        with pytest.raises(SystemExit) as exc:
            main(["info", str(EXAMPLE)])
        assert exc.value.code == 0
        capsys.readouterr()
        probe = Probe()
        library_calls()  # after the command, the library is back to leaving generations alone
        assert generation_of(probe) == 0
