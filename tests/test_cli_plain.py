"""`info`'s plain-text table (cli/plain.py): rich's borderless layout without importing rich."""

from __future__ import annotations

import pytest

from gltf_physics.cli import plain


def test_columns_are_padded_one_space_each_side_to_the_widest_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdout.isatty", lambda: False)
    assert plain.table(("node", "name"), [("0", "Ground"), ("12", "Bob")]) == [
        " node  name   ", " 0     Ground ", " 12    Bob    "]


def test_wide_characters_take_two_cells_and_combining_marks_none() -> None:
    assert plain.cells("箱") == 2
    assert plain.cells("e\u0301") == 1  # e + combining acute accent
    assert plain.table(("a", "b"), [("箱", "x"), ("ab", "y")])[1:] == [" 箱  x ", " ab  y "]


def test_names_from_a_file_cannot_drive_the_terminal() -> None:
    assert plain.safe("Box\x1b[2J") == "Box\\x1b[2J"
    assert plain.safe("lone\ud800") == "lone\\ud800"  # not encodable: would end the output with an error
    assert plain.safe("Kiste ä 箱") == "Kiste ä 箱"


def test_header_is_bold_only_on_a_terminal_that_takes_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert plain.bold("x") == "\x1b[1mx\x1b[0m"
    monkeypatch.setenv("NO_COLOR", "1")
    assert plain.bold("x") == "x"
