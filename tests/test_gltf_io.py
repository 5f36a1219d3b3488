"""Lossless load/save of every fixture, format conversions, side files and atomic writes (docs/architecture.md)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from conftest import all_fixture_files, fixture_path
from gltf_helpers import glb_chunks, raw_json, same_json, write_gltf
from gltf_physics.gltf import Document, GltfError, load, save
from gltf_physics.gltf.files import Output, OutputSet, check_writable, write_all


def _external_buffers(gltf: dict) -> list[tuple[int, str]]:
    return [(i, b["uri"]) for i, b in enumerate(gltf.get("buffers", []))
            if "uri" in b and not b["uri"].startswith("data:")]


def _external_images(gltf: dict) -> list[str]:
    return [im["uri"] for im in gltf.get("images", []) if "uri" in im and not im["uri"].startswith("data:")]


def _without_file_uris(gltf: dict) -> dict:
    """The JSON with every external buffer and image uri blanked: save renames side files after the output."""
    result = json.loads(json.dumps(gltf))
    for key in ("buffers", "images"):
        for item in result.get(key, []):
            if "uri" in item and not item["uri"].startswith("data:"):
                item["uri"] = "<side file>"
    return result


@pytest.mark.parametrize("relative", all_fixture_files())
def test_fixture_round_trip_same_format(relative: str, tmp_path: Path) -> None:
    source = fixture_path(relative)
    out = tmp_path / "out" / "copy" / source.name
    save(load(source), out)
    original, written = raw_json(source), raw_json(out)
    # values, nulls, empty objects, extensions, key order: all but the side files' names
    assert same_json(_without_file_uris(written), _without_file_uris(original))
    if source.suffix == ".glb":
        src_bin, out_bin = glb_chunks(source)[1], glb_chunks(out)[1]
        assert out_bin == src_bin  # padding included
        assert len(glb_chunks(out)[0]) % 4 == 0
    for (i, uri), (j, new) in zip(_external_buffers(original), _external_buffers(written), strict=True):
        assert i == j and (out.parent / new).read_bytes() == (source.parent / uri).read_bytes()
    for uri, new in zip(_external_images(original), _external_images(written), strict=True):
        assert (out.parent / new).read_bytes() == (source.parent / uri).read_bytes()  # copied: another folder
    # every side file is named after the output
    stem = out.stem
    assert all(p.name.startswith(stem) for p in out.parent.iterdir()), sorted(p.name for p in out.parent.iterdir())


def _without_buffer0_uri(gltf: dict) -> dict:
    result = json.loads(json.dumps(gltf))
    if result.get("buffers"):
        result["buffers"][0].pop("uri", None)
    return result


@pytest.mark.parametrize("relative", [f for f in all_fixture_files() if f.endswith(".gltf")])
def test_gltf_to_glb_to_gltf_keeps_json_but_buffer0_uri(relative: str, tmp_path: Path) -> None:
    source = fixture_path(relative)
    original = raw_json(source)
    save(load(source), tmp_path / "mid.glb")
    save(load(tmp_path / "mid.glb"), tmp_path / "back.gltf")
    back = raw_json(tmp_path / "back.gltf")
    assert same_json(_without_file_uris(_without_buffer0_uri(back)), _without_file_uris(_without_buffer0_uri(original)))
    if not original.get("buffers"):
        assert glb_chunks(tmp_path / "mid.glb")[1] is None
        return
    # buffer 0 went into the BIN chunk (self-contained GLB), then out to <stem>.bin
    assert "uri" not in raw_json(tmp_path / "mid.glb")["buffers"][0]
    assert back["buffers"][0]["uri"] == "back.bin"
    uri0 = original["buffers"][0]["uri"]
    if uri0.startswith("data:"):
        expected = base64.b64decode(uri0.split(",", 1)[1])
    else:
        expected = (source.parent / uri0).read_bytes()
    assert (tmp_path / "back.bin").read_bytes() == expected
    assert glb_chunks(tmp_path / "mid.glb")[1] == expected + b"\0" * (-len(expected) % 4)


@pytest.mark.parametrize("relative", [f for f in all_fixture_files() if f.endswith(".glb")])
def test_glb_to_gltf_adds_only_buffer0_uri_and_back(relative: str, tmp_path: Path) -> None:
    source = fixture_path(relative)
    original = raw_json(source)
    save(load(source), tmp_path / "scene.gltf")
    converted = raw_json(tmp_path / "scene.gltf")
    assert converted["buffers"][0]["uri"] == "scene.bin"
    assert same_json(_without_buffer0_uri(converted), original)
    bin_chunk = glb_chunks(source)[1]
    assert (tmp_path / "scene.bin").read_bytes() == bin_chunk[: original["buffers"][0]["byteLength"]]
    save(load(tmp_path / "scene.gltf"), tmp_path / "again.glb")
    assert glb_chunks(tmp_path / "again.glb")[1] == bin_chunk
    assert same_json(_without_buffer0_uri(raw_json(tmp_path / "again.glb")), original)


def test_loaded_glb_buffer_excludes_bin_padding(tmp_path: Path) -> None:
    source = fixture_path("OMI_physics_gravity/gen1/ramp/ramp_gravity.glb")
    doc = load(source)
    assert doc.is_glb
    assert len(doc.buffers[0]) == 9792  # byteLength; the BIN chunk is 9792 bytes too (already aligned)


def test_data_uri_buffer_is_decoded_and_kept(tmp_path: Path) -> None:
    payload = bytes(range(10))
    uri = "data:application/octet-stream;base64," + base64.b64encode(payload).decode()
    path = write_gltf(tmp_path, {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 10, "uri": uri}]})
    doc = load(path)
    assert doc.buffers == [payload]
    save(doc, tmp_path / "same.gltf")
    assert raw_json(tmp_path / "same.gltf")["buffers"][0]["uri"] == uri


def test_percent_encoded_data_uri(tmp_path: Path) -> None:
    path = write_gltf(tmp_path, {"asset": {"version": "2.0"},
                                 "buffers": [{"byteLength": 3, "uri": "data:,A%20B"}]})
    assert load(path).buffers == [b"A B"]


def test_changed_data_uri_bytes_are_reencoded(tmp_path: Path) -> None:
    uri = "data:application/gltf-buffer;base64," + base64.b64encode(b"abcd").decode()
    path = write_gltf(tmp_path, {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": uri}]})
    doc = load(path)
    doc.buffers[0] = b"wxyz"
    save(doc, tmp_path / "changed.gltf")
    uri = raw_json(tmp_path / "changed.gltf")["buffers"][0]["uri"]
    assert uri == "data:application/gltf-buffer;base64,d3h5eg=="  # base64 of b"wxyz", mime kept


def test_external_buffer_in_subfolder_and_percent_encoded_name(tmp_path: Path) -> None:
    src = write_gltf(tmp_path / "src", {"asset": {"version": "2.0"},
                                        "buffers": [{"uri": "data%20files/my%20buf.bin", "byteLength": 4}]},
                     files={"data files/my buf.bin": b"\1\2\3\4"})
    doc = load(src)
    assert doc.buffers == [b"\1\2\3\4"]
    save(doc, tmp_path / "dst" / "my copy.gltf")
    assert raw_json(tmp_path / "dst" / "my copy.gltf")["buffers"][0]["uri"] == "my%20copy.bin"
    assert (tmp_path / "dst" / "my copy.bin").read_bytes() == b"\1\2\3\4"
    assert load(tmp_path / "dst" / "my copy.gltf").buffers == [b"\1\2\3\4"]


def test_uri_less_extra_buffer_is_written_as_data_uri(tmp_path: Path) -> None:
    doc = Document(json={"asset": {"version": "2.0"},
                         "buffers": [{"byteLength": 2}, {"byteLength": 3}]}, buffers=[b"ab", b"xyz"])
    save(doc, tmp_path / "mem.gltf")
    written = raw_json(tmp_path / "mem.gltf")
    assert written["buffers"] == [{"byteLength": 2, "uri": "mem.bin"},
                                  {"byteLength": 3, "uri": "data:application/octet-stream;base64,eHl6"}]
    assert (tmp_path / "mem.bin").read_bytes() == b"ab"
    assert "uri" not in doc.json["buffers"][0]  # save does not edit the document
    save(doc, tmp_path / "mem.glb")
    assert glb_chunks(tmp_path / "mem.glb")[1] == b"ab\0\0"
    assert raw_json(tmp_path / "mem.glb")["buffers"][1]["uri"] == "data:application/octet-stream;base64,eHl6"


def test_side_files_are_numbered_after_the_output(tmp_path: Path) -> None:
    doc = Document(json={"buffers": [{"byteLength": 1}, {"byteLength": 1, "uri": "other.bin"}]},
                   buffers=[b"a", b"b"])
    save(doc, tmp_path / "out.gltf")
    assert [b["uri"] for b in raw_json(tmp_path / "out.gltf")["buffers"]] == ["out.bin", "out_1.bin"]
    assert (tmp_path / "out.bin").read_bytes() == b"a"
    assert (tmp_path / "out_1.bin").read_bytes() == b"b"
    assert not (tmp_path / "other.bin").exists()


def test_a_save_never_replaces_a_file_it_does_not_own(tmp_path: Path) -> None:
    (tmp_path / "out.bin").write_bytes(b"someone else's")
    doc = Document(json={"buffers": [{"byteLength": 1}]}, buffers=[b"a"])
    save(doc, tmp_path / "out.gltf")
    assert raw_json(tmp_path / "out.gltf")["buffers"][0]["uri"] == "out_1.bin"
    assert (tmp_path / "out.bin").read_bytes() == b"someone else's"
    save(doc, tmp_path / "out.gltf")  # again: out_1.bin is its own now, replaced, no out_2.bin
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin", "out.gltf", "out_1.bin"]


def test_two_conversions_of_same_named_sources_into_one_folder_both_load(tmp_path: Path) -> None:
    """Sources sharing a buffer name no longer clobber each other's side file."""
    for folder, payload in (("A", b"\1\1\1\1"), ("B", b"\2\2\2\2\2\2\2\2")):
        write_gltf(tmp_path / folder, {"asset": {"version": "2.0"},
                                       "buffers": [{"uri": "pendulum_balls0.bin", "byteLength": len(payload)}]},
                   files={"pendulum_balls0.bin": payload})
    save(load(tmp_path / "A" / "asset.gltf"), tmp_path / "out" / "pend.omi.gltf")
    save(load(tmp_path / "B" / "asset.gltf"), tmp_path / "out" / "pend2.khr.gltf")
    assert load(tmp_path / "out" / "pend.omi.gltf").buffers == [b"\1\1\1\1"]
    assert load(tmp_path / "out" / "pend2.khr.gltf").buffers == [b"\2" * 8]


def test_readable_gltf_output_has_one_array_element_per_line(tmp_path: Path) -> None:
    doc = Document(json={"asset": {"version": "2.0"}, "nodes": [{"name": "a"}, {"name": "b"}], "scenes": []})
    save(doc, tmp_path / "x.gltf")
    assert (tmp_path / "x.gltf").read_text() == (
        '{\n  "asset": {"version": "2.0"},\n  "nodes": [\n    {"name": "a"},\n    {"name": "b"}\n  ],\n'
        '  "scenes": []\n}\n')


def test_numbers_unicode_nulls_and_order_survive(tmp_path: Path) -> None:
    text = ('{"z": 1, "a": [1.0, 1, -0.0, 1e-7, 123456789012345678901234567890, 0.30000000000000004], '
            '"n": null, "e": {}, "l": [], "s": "Kühlschrank ✓", "extras": {"b": true}}')
    path = write_gltf(tmp_path, text)
    save(load(path), tmp_path / "o.gltf")
    save(load(path), tmp_path / "o.glb")
    for out in ("o.gltf", "o.glb"):
        assert same_json(raw_json(tmp_path / out), json.loads(text))
        assert json.dumps(raw_json(tmp_path / out)["a"]) == \
            "[1.0, 1, -0.0, 1e-07, 123456789012345678901234567890, 0.30000000000000004]"


def test_save_unknown_extension_refused_and_nothing_written(tmp_path: Path) -> None:
    with pytest.raises(GltfError, match=r"\.gltf or \.glb"):
        save(Document(json={}), tmp_path / "x.obj")
    assert list(tmp_path.iterdir()) == []


def test_missing_image_on_save_writes_nothing(tmp_path: Path) -> None:
    src = write_gltf(tmp_path / "src", {"asset": {"version": "2.0"},
                                        "buffers": [{"uri": "b.bin", "byteLength": 4}],
                                        "images": [{"uri": "tex/gone.png"}]}, files={"b.bin": b"1234"})
    doc = load(src)
    with pytest.raises(GltfError) as info:
        save(doc, tmp_path / "dst" / "deep" / "out.gltf")
    assert info.value.pointer == "/images/0/uri"
    assert not (tmp_path / "dst").exists()  # no temp files, no created folders


def test_nan_in_document_refused_and_nothing_written(tmp_path: Path) -> None:
    doc = Document(json={"nodes": [{"translation": [float("nan"), 0, 0]}]})
    with pytest.raises(GltfError, match="cannot write JSON"):
        save(doc, tmp_path / "x.gltf")
    assert list(tmp_path.iterdir()) == []


def test_buffer_shorter_than_byte_length_refused_on_save(tmp_path: Path) -> None:
    doc = Document(json={"buffers": [{"byteLength": 8}]}, buffers=[b"1234"])
    with pytest.raises(GltfError) as info:
        save(doc, tmp_path / "x.glb")
    assert info.value.pointer == "/buffers/0/byteLength"
    assert list(tmp_path.iterdir()) == []


def test_overwrite_in_place_is_atomic_and_lossless(tmp_path: Path) -> None:
    path = write_gltf(tmp_path, {"asset": {"version": "2.0"}, "buffers": [{"uri": "b.bin", "byteLength": 2}]},
                      files={"b.bin": b"hi"})
    save(load(path), path)
    assert raw_json(path) == {"asset": {"version": "2.0"}, "buffers": [{"uri": "b.bin", "byteLength": 2}]}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["asset.gltf", "b.bin"]


def test_error_message_names_file_and_pointer(tmp_path: Path) -> None:
    path = write_gltf(tmp_path, {"buffers": [{"byteLength": 4, "uri": "missing.bin"}]})
    with pytest.raises(GltfError) as info:
        load(path)
    assert str(info.value) == f"{path}: /buffers/0/uri: file not found: missing.bin"


def test_failed_side_file_write_removes_everything_already_written(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "blocker").write_bytes(b"a file where a folder is needed")
    with pytest.raises(GltfError, match="is not a folder"):
        write_all([Output(out / "a.bin", [b"a"]), Output(out / "blocker" / "b.bin", [b"b"])])
    assert [p.name for p in out.iterdir()] == ["blocker"]  # a.bin's temporary file was removed


def test_output_set_streams_and_commits_together_or_leaves_nothing(tmp_path: Path) -> None:
    with OutputSet() as files:
        stream = files.stream(tmp_path / "new" / "trace.csv")
        stream.write(b"time\n")
        files.add(Output(tmp_path / "new" / "events.jsonl", [b"{}\n"]))
        assert sorted(p.name.startswith(".") for p in (tmp_path / "new").iterdir()) == [True, True]
    assert not (tmp_path / "new").exists()  # no commit: temporary files and the created folder are gone
    with OutputSet() as files:
        files.stream(tmp_path / "trace.csv").write(b"time\n")
        files.add(Output(tmp_path / "events.jsonl", [b"{}\n"]))
        files.commit()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["events.jsonl", "trace.csv"]
    assert (tmp_path / "trace.csv").read_bytes() == b"time\n"


def test_two_outputs_of_one_command_may_not_name_one_file(tmp_path: Path) -> None:
    with pytest.raises(GltfError, match="two outputs of this command name the same file"):
        write_all([Output(tmp_path / "a.csv", [b"1"]), Output(tmp_path / "." / "a.csv", [b"2"])])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("make", ["file_parent", "is_folder"])
def test_check_writable_refuses_impossible_paths(tmp_path: Path, make: str) -> None:
    (tmp_path / "f").write_bytes(b"")
    (tmp_path / "d").mkdir()
    target = tmp_path / "f" / "deep" / "x.csv" if make == "file_parent" else tmp_path / "d"
    with pytest.raises(GltfError, match="cannot write trace"):
        check_writable(target, "trace")
    check_writable(tmp_path / "new" / "deeper" / "x.csv", "trace")  # creatable: fine, and nothing made
    assert not (tmp_path / "new").exists()


def test_a_folder_made_by_another_writer_meanwhile_is_used_and_left_alone(tmp_path: Path, monkeypatch) -> None:
    """Batch workers write into one new folder at once: whoever loses the race to create it must not fail."""
    folder, shared = tmp_path / "converted", tmp_path / "shared"
    real_mkdir = Path.mkdir

    def other_worker_first(self: Path, *args, **kwargs) -> None:
        if self in (folder, shared) and not self.exists():
            real_mkdir(self)  # the other worker's mkdir lands between our probe and ours
        real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", other_worker_first)
    write_all([Output(folder / "a.glb", [b"a"])])
    assert [p.name for p in folder.iterdir()] == ["a.glb"]
    with OutputSet() as files:  # an abort leaves a folder it did not make for its other writers
        files.add(Output(shared / "b.glb", [b"b"]))
    assert shared.is_dir()
