"""Load and save ``.gltf`` / ``.glb`` losslessly (docs/architecture.md): the JSON as parsed, the buffers as bytes.

Load reads every buffer (external file, ``data:`` URI, GLB BIN chunk) and runs the bounds checks, so every
command fails early with a pointer or byte offset. Save picks the format from the OUT extension.

Where buffers go on save (the only JSON changes save ever makes are to ``buffers[i].uri`` and ``images[i].uri``):
- every file a save writes beside the output is named after it: ``<stem>.bin``, ``<stem>_1.bin``, …, copied
  images ``<stem>.png``, ``<stem>_1.png``, … — so two outputs in one folder never write the same side file, and a
  save never replaces a file it did not produce, except the output itself and the side files the output's
  previous version references (re-saving in place, or running the same conversion again);
- ``data:`` uri → kept as written (re-encoded only if the bytes were changed);
- ``.gltf`` → ``.glb``: buffer 0 goes into the BIN chunk (its uri dropped) so the GLB is self-contained;
  a GLB re-saved as GLB keeps buffer 0 exactly as it was (uri or BIN);
- any other buffer without uri (e.g. one added by :func:`~.animation.add_node_animation`) → a base64
  ``data:`` uri, so the output stays one file and no name can clash.
Images and document-level extension files referenced by relative uri are copied next to the output (under
names after it) when its folder differs from the source's; in the source's own folder they stay referenced as
they are. All files are written atomically (see :mod:`.files`).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from . import bounds, glb, jsontext, uris
from .document import Document
from .errors import GltfError, clip
from .files import Output, write_all

PathLike = str | os.PathLike[str]


def load(path: PathLike) -> Document:
    """Read a ``.gltf`` or ``.glb`` (detected by its magic bytes) with all its buffers."""
    file = Path(path)
    try:
        return _load(file)
    except GltfError as exc:
        raise exc.with_file(str(file)) from None


def read_json(path: PathLike) -> Any:
    """Only the parsed JSON of a ``.gltf``/``.glb`` (no buffers, no bounds checks): what a validator can
    still check in a file :func:`load` refuses."""
    return _read_container(Path(path))[0]


def save(doc: Document, path: PathLike) -> None:
    """Write ``doc`` as ``.gltf`` or ``.glb`` (by the extension of ``path``), atomically."""
    write_all(plan_save(doc, path))


def plan_save(doc: Document, path: PathLike) -> list[Output]:
    """The files saving ``doc`` at ``path`` writes (side files first, the glTF last), without writing them.

    A command that writes several outputs adds these to one :class:`~.files.OutputSet` with its others.
    """
    out = Path(path)
    try:
        return _plan_save(doc, out)
    except GltfError as exc:
        raise exc.with_file(str(out)) from None


# ---------------------------------------------------------------- load


def _load(path: Path) -> Document:
    gltf, bin_chunk, is_glb = _read_container(path)
    if not isinstance(gltf, dict):
        raise GltfError("the top level of the JSON must be an object", pointer="")
    bounds.check_top_level(gltf)
    lengths = bounds.check_buffers(gltf)
    buffers = [_read_buffer(buf, i, lengths[i], path.parent, bin_chunk if is_glb and i == 0 else None, is_glb)
               for i, buf in enumerate(bounds.array(gltf, "buffers"))]
    view_lengths = bounds.check_buffer_views(gltf, lengths)
    bounds.check_accessors(gltf, view_lengths)
    bounds.check_images(gltf, len(view_lengths))
    for i, image in enumerate(bounds.array(gltf, "images")):
        uri = image.get("uri")
        if uri is not None and not uris.is_data_uri(uri):
            uris.resolve(path.parent, uri, f"/images/{i}/uri")
    return Document(json=gltf, buffers=buffers, path=path, is_glb=is_glb)


def _read_container(path: Path) -> tuple[Any, bytes | None, bool]:
    """(parsed JSON, BIN chunk or None, is GLB): a GLB is recognised by its magic, whatever the suffix."""
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size == 0:
                raise GltfError("empty file", offset=0)
            is_glb = stream.read(4) == glb.MAGIC
            if is_glb:
                json_bytes, bin_chunk = glb.parse(stream, size)
            else:
                stream.seek(0)
                json_bytes, bin_chunk = stream.read(), None
    except OSError as exc:
        raise GltfError(f"cannot read: {exc.strerror or exc}") from None
    json_offset = glb.HEADER.size + glb.CHUNK_HEADER.size if is_glb else 0
    return jsontext.parse(json_bytes, base_offset=json_offset), bin_chunk, is_glb


def _read_buffer(buf: dict[str, Any], i: int, length: int, base: Path, bin_chunk: bytes | None,
                 is_glb: bool) -> bytes:
    pointer = f"/buffers/{i}"
    uri = buf.get("uri")
    if uri is None:
        if not (is_glb and i == 0):
            raise GltfError("buffer has no uri (only a GLB's first buffer may omit it)", pointer=pointer)
        if bin_chunk is None:
            raise GltfError("buffer 0 has no uri but the GLB has no BIN chunk", pointer=pointer)
        data = bin_chunk
    elif uris.is_data_uri(uri):
        data = uris.decode_data_uri(uri, f"{pointer}/uri")
    else:
        data = _read_file(uris.resolve(base, uri, f"{pointer}/uri"), length, f"{pointer}/uri")
    if len(data) < length:
        raise GltfError(f"byteLength is {length} but only {len(data)} bytes are there",
                        pointer=f"{pointer}/byteLength")
    # The BIN chunk carries up to 3 padding bytes beyond byteLength: they are not buffer data.
    return data[:length] if uri is None else data


def _read_file(file: Path, length: int, pointer: str) -> bytes:
    try:
        size = file.stat().st_size
        if size < length:  # before reading: a hostile byteLength never allocates
            raise GltfError(f"file {clip(file.name)} has {size} bytes, byteLength says {length}",
                            pointer=pointer.rsplit("/", 1)[0] + "/byteLength")
        return file.read_bytes()
    except FileNotFoundError:
        raise GltfError(f"file not found: {clip(file.name)}", pointer=pointer) from None
    except OSError as exc:
        raise GltfError(f"cannot read {clip(file.name)}: {exc.strerror or exc}", pointer=pointer) from None


# ---------------------------------------------------------------- save


def _plan_save(doc: Document, out: Path) -> list[Output]:
    kind = out.suffix.lower()
    if kind not in (".gltf", ".glb"):
        raise GltfError(f"output must end in .gltf or .glb, not {out.suffix!r}")
    gltf = doc.json
    if not isinstance(gltf, dict):
        raise GltfError("the top level of the JSON must be an object", pointer="")
    lengths = bounds.check_buffers(gltf)
    if len(doc.buffers) != len(lengths):
        raise GltfError(f"{len(lengths)} buffers in the JSON but {len(doc.buffers)} byte strings",
                        pointer="/buffers")
    for i, data in enumerate(doc.buffers):
        if len(data) < lengths[i]:
            raise GltfError(f"byteLength is {lengths[i]} but the buffer has {len(data)} bytes",
                            pointer=f"/buffers/{i}/byteLength")
    plan = _Plan(doc, out)
    buffers_json = plan.place_buffers(lengths)
    renames = plan.copy_referenced_files()
    out_json = gltf if buffers_json is None else {**gltf, "buffers": buffers_json}
    if renames:
        out_json = _with_uris(out_json, renames)
    if kind == ".gltf":
        main = Output(out, [jsontext.readable(out_json)])
    else:
        main = Output(out, glb.build(jsontext.compact(out_json), plan.bin_chunk))
    return [*plan.outputs.values(), main]  # the main file last: its side files exist when it appears


class _Plan:
    """Decides every side file of one save (buffers, copied images) and the BIN chunk."""

    def __init__(self, doc: Document, out: Path) -> None:
        self.doc = doc
        self.out = out
        self.is_glb_out = out.suffix.lower() == ".glb"
        self.outputs: dict[Path, Output] = {}
        self.bin_chunk: bytes | None = None
        self.names = _SideNames(out)

    def place_buffers(self, lengths: list[int]) -> list[Any] | None:
        """The output ``buffers`` array, or ``None`` when it is unchanged."""
        original = bounds.array(self.doc.json, "buffers")
        result = list(original)
        for i, buf in enumerate(original):
            result[i] = self._place(i, buf, lengths[i])
        changed = any(a is not b for a, b in zip(result, original, strict=True))
        return result if changed else None

    def _place(self, i: int, buf: dict[str, Any], length: int) -> dict[str, Any]:
        data = self.doc.buffers[i]
        uri = buf.get("uri")
        pointer = f"/buffers/{i}/uri"
        if self.is_glb_out and i == 0 and (uri is None or not self.doc.is_glb):
            self.bin_chunk = bytes(data if len(data) == length else data[:length])
            return buf if uri is None else {k: v for k, v in buf.items() if k != "uri"}
        if uri is None and i != 0:
            return {**buf, "uri": uris.encode_data_uri(bytes(data))}
        if uri is not None and uris.is_data_uri(uri):
            if uris.decode_data_uri(uri, pointer) == data:
                return buf
            mime = uri[5:].split(",", 1)[0].split(";", 1)[0] or "application/octet-stream"
            return {**buf, "uri": uris.encode_data_uri(bytes(data), mime)}
        name = self._side_name(uri, ".bin", pointer)
        self._add(Output(uris.resolve(self.out.parent, name, pointer), [data]), pointer)
        return buf if name == uri else {**buf, "uri": name}

    def _side_name(self, uri: str | None, suffix: str, pointer: str) -> str:
        """``uri`` itself when it names a side file the output's previous version owns, else a new name after
        the output."""
        if uri is not None and self.names.owned(uris.resolve(self.out.parent, uri, pointer)):
            return uri
        return quote(self.names.next(suffix))

    def copy_referenced_files(self) -> list[tuple[str, str]]:
        """Copy images and document-level extension files by relative uri when the output folder differs;
        returns the (pointer, new uri) renames to make in the JSON."""
        if self.doc.path is None:
            return []  # built in memory: there is no source folder to copy from
        src_dir = self.doc.path.parent
        if src_dir.resolve() == self.out.parent.resolve():
            return []
        renames = []
        for pointer, uri in _file_uris(self.doc.json):
            source = uris.resolve(src_dir, uri, pointer)
            if not source.is_file():
                raise GltfError(f"file to copy not found: {clip(source.name)}", pointer=pointer)
            name = self._side_name(uri, Path(unquote(uri)).suffix or ".bin", pointer)
            self._add(Output(uris.resolve(self.out.parent, name, pointer), copy_from=source), pointer)
            if name != uri:
                renames.append((pointer, name))
        return renames

    def _add(self, output: Output, pointer: str) -> None:
        target = output.target.resolve()
        if target == self.out.resolve():
            raise GltfError("uri names the output file itself", pointer=pointer)
        earlier = self.outputs.get(target)
        if earlier is not None and (earlier.copy_from != output.copy_from
                                    or list(earlier.parts) != list(output.parts)):
            raise GltfError("two different contents for the same file", pointer=pointer)
        self.outputs[target] = Output(target, output.parts, output.copy_from)


class _SideNames:
    """Free names after the output (``<stem><suffix>``, ``<stem>_1<suffix>``, …) for the files a save writes.

    A name is free when this save has not used it and no file has it, or the file there is one the output's
    previous version references (so re-running a conversion replaces its own side files, never another's).
    """

    def __init__(self, out: Path) -> None:
        self.out = out
        self.used: set[str] = set()
        self._owned: set[Path] | None = None

    def next(self, suffix: str) -> str:
        """The first free name for a side file with this suffix."""
        n = 0
        while True:
            name = f"{self.out.stem}{suffix}" if n == 0 else f"{self.out.stem}_{n}{suffix}"
            path = self.out.parent / name
            if name.lower() not in self.used and (not path.exists() or self.owned(path)):
                self.used.add(name.lower())
                return name
            n += 1

    def owned(self, path: Path) -> bool:
        """Whether ``path`` is a side file the existing output file references."""
        if self._owned is None:
            self._owned = _referenced_files(self.out)
        return path.resolve() in self._owned


def _referenced_files(out: Path) -> set[Path]:
    """The files an existing glTF at ``out`` references by relative uri (none when it is absent or unreadable)."""
    if not out.is_file():
        return set()
    try:
        gltf, _, _ = _read_container(out)
    except GltfError:
        return set()
    return {path.resolve() for _, path in referenced_files(gltf, out.parent)}


def referenced_files(gltf: Any, folder: Path) -> list[tuple[str, Path]]:
    """(pointer, path) of every file the glTF JSON ``gltf`` references by relative uri from ``folder``: buffers,
    images and document-level extension files. A uri that cannot be resolved safely is left out (loading the
    file reports it)."""
    if not isinstance(gltf, dict):
        return []
    found = []
    pointers = [(f"/buffers/{i}/uri", b.get("uri")) for i, b in enumerate(_dicts(gltf.get("buffers")))]
    with contextlib.suppress(GltfError):  # images that are not an array: loading the file reports it
        pointers += _file_uris(gltf)
    for pointer, uri in pointers:
        if isinstance(uri, str) and not uris.is_data_uri(uri):
            with contextlib.suppress(GltfError):
                found.append((pointer, uris.resolve(folder, uri, pointer)))
    return found


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _file_uris(gltf: dict[str, Any]) -> list[tuple[str, str]]:
    """(pointer, uri) of every relative file uri other than buffers': images and document extensions."""
    found = []
    for i, image in enumerate(bounds.array(gltf, "images")):
        uri = image.get("uri") if isinstance(image, dict) else None
        if isinstance(uri, str) and not uris.is_data_uri(uri):
            found.append((f"/images/{i}/uri", uri))
    stack: list[tuple[str, Any]] = [("/extensions", gltf.get("extensions"))]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                child = f"{pointer}/{_escape(key)}"
                if key == "uri" and isinstance(item, str) and not uris.is_data_uri(item):
                    found.append((child, item))
                else:
                    stack.append((child, item))
        elif isinstance(value, list):
            stack.extend((f"{pointer}/{k}", item) for k, item in enumerate(value))
    return found


def _with_uris(gltf: dict[str, Any], renames: list[tuple[str, str]]) -> dict[str, Any]:
    """A copy of ``gltf`` sharing every untouched subtree, with the uri at each pointer replaced."""
    out = dict(gltf)
    for pointer, uri in renames:
        keys = [k.replace("~1", "/").replace("~0", "~") for k in pointer.split("/")[1:]]
        parent: Any = out
        for key in keys[:-1]:
            index: Any = int(key) if isinstance(parent, list) else key
            child = parent[index]
            child = list(child) if isinstance(child, list) else dict(child)
            parent[index] = child
            parent = child
        parent[keys[-1]] = uri
    return out


def _escape(key: str) -> str:
    """JSON pointer token escaping (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")
