"""The formats registry (``gltf_physics.formats``): which reader and writer a suffix / ``--to`` picks, and that a
new reader is one entry the ``convert`` command then dispatches to."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ROOT
from gltf_physics import formats
from gltf_physics.api import convert, load, save
from gltf_physics.cli import main

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"


def test_targets_and_output_suffixes_in_the_order_messages_list_them() -> None:
    assert formats.targets() == ["omi", "khr", "mjcf"]
    assert formats.output_suffixes() == [".gltf", ".glb", ".usda", ".usdc", ".usd", ".xml"]


@pytest.mark.parametrize(("path", "target", "expected"), [
    ("a.gltf", None, None), ("a.glb", "khr", None), ("a.usda", None, "USD"), ("a.USDC", None, "USD"),
    ("a.usd", "omi", "USD"), ("a.xml", None, "MJCF"), ("a.xml", "mjcf", "MJCF"),
    ("a.usda", "mjcf", "MJCF"),  # --to mjcf wins: an MJCF request with the wrong suffix, not a USD one
    ("a.gltf", "mjcf", "MJCF"), ("a.txt", None, None),
])
def test_writer_for(path: str, target: str | None, expected: str | None) -> None:
    writer = formats.writer_for(path, target)
    assert (writer.name if writer else None) == expected


@pytest.mark.parametrize(("path", "expected"), [("a.gltf", None), ("a.glb", None), ("a.usda", "USD"),
                                                ("a.USD", "USD"), ("a.usdc", "USD"), ("a.xml", None)])
def test_reader_for(path: str, expected: str | None) -> None:
    reader = formats.reader_for(path)
    assert (reader.name if reader else None) == expected


def read_fake(path: Path, family: str) -> tuple[object, list[dict[str, str]]]:
    """A stand-in format: the file is glTF under another suffix; one made-up loss shows the losses reach the CLI."""
    doc, losses = convert(load(path.with_suffix(".gltf")), to=family)  # type: ignore[arg-type]
    return doc, [*losses, {"code": "FAKE-1", "pointer": "/", "message": "a stand-in loss"}]


def test_a_new_reader_is_one_entry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys) -> None:
    save(load(EXAMPLE), tmp_path / "scene.gltf")
    (tmp_path / "scene.fake").write_bytes(b"")
    entry = formats.Reader("FAKE", "a stand-in format", (".fake",), f"{__name__}:read_fake")
    monkeypatch.setattr(formats, "READERS", (*formats.READERS, entry))
    out, report = tmp_path / "out.gltf", tmp_path / "losses.json"
    with pytest.raises(SystemExit) as exc:
        main(["convert", str(tmp_path / "scene.fake"), str(out), "--to", "khr", "--report", str(report)])
    assert exc.value.code == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"wrote {out} (physics in the newest KHR form, from a stand-in format)"
    expected, _ = convert(load(EXAMPLE), to="khr")
    save(expected, tmp_path / "expected.gltf")
    assert out.read_bytes() == (tmp_path / "expected.gltf").read_bytes()
    assert json.loads(report.read_text())["losses"][-1]["code"] == "FAKE-1"
    with pytest.raises(SystemExit) as exc:
        main(["convert", str(tmp_path / "scene.fake"), str(tmp_path / "x.gltf")])
    assert exc.value.code == 2
    assert capsys.readouterr().err.strip().endswith(
        "scene.fake: reading FAKE needs --to khr or --to omi (the glTF physics family to write)")
