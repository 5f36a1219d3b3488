"""JSON text ⇄ the plain dict, losslessly (key order, nulls, empty objects, every number's value).

Parsing rejects the non-JSON constants NaN/Infinity and reports syntax errors with line, column and byte
offset. The garbage collector is paused while parsing: a 50,000-node document creates ~10^6 containers and
the collector's generation sweeps would otherwise double the parse time (none of them can be garbage).

Output formats (identity is about parsed JSON + key order, not whitespace):
- ``.gltf``: one top-level key per line and one array element per line — readable and diffable, and it
  still uses the C encoder (``indent=`` forces the pure-Python one: 4× slower on big files);
- ``.glb``: compact.
"""

from __future__ import annotations

import gc
import json
import math
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .errors import GltfError, clip


def parse(data: bytes, *, base_offset: int = 0) -> Any:
    """The parsed JSON of ``data`` (UTF-8, BOM tolerated); ``base_offset``: where it sits in the file."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GltfError(f"JSON is not valid UTF-8 ({exc.reason})", offset=base_offset + exc.start) from None
    enabled = gc.isenabled()
    gc.disable()
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        offset = base_offset + len(text[: exc.pos].encode("utf-8"))
        raise GltfError(f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
                        offset=offset) from None
    except RecursionError:
        raise GltfError("JSON nested too deeply", offset=base_offset) from None
    except ValueError as exc:  # an integer literal of more than 4300 digits (CPython's conversion limit)
        raise GltfError(f"invalid JSON: {clip(str(exc), 120)}", offset=base_offset) from None
    finally:
        if enabled:
            gc.enable()


def copy_json(value: Any) -> Any:
    """A deep copy of parsed JSON (dicts, lists, scalars; NaN and lone surrogates kept), 3–4× faster than
    ``copy.deepcopy`` on a big document: a pickle round trip in C, with the collector paused as in
    :func:`parse` (it would sweep the ~10^6 new containers several times)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    finally:
        if enabled:
            gc.enable()


def _reject_constant(name: str) -> Any:
    raise GltfError(f"{name} is not a JSON number")


def _default(value: Any) -> Any:
    """NumPy values written into the dict by callers become plain JSON numbers/arrays."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


_COMPACT = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"), default=_default)
_LINE = json.JSONEncoder(ensure_ascii=False, allow_nan=False, default=_default)


def compact(gltf: dict[str, Any]) -> bytes:
    return _encode(_COMPACT.encode, gltf)


def readable(gltf: dict[str, Any]) -> bytes:
    def encode(doc: dict[str, Any]) -> str:
        lines = []
        line = _line_encoder()
        for key, value in doc.items():
            name = _LINE.encode(key)
            if isinstance(value, list) and value:
                body = ",\n    ".join(map(line, value))
                lines.append(f"  {name}: [\n    {body}\n  ]")
            else:
                lines.append(f"  {name}: {_LINE.encode(value)}")
        return "{\n" + ",\n".join(lines) + "\n}\n" if lines else "{}\n"
    return _encode(encode, gltf)


def _line_encoder() -> Callable[[Any], str]:
    """``_LINE.encode`` for the many entries of one document: the C encoder ``JSONEncoder.encode`` makes on
    every call (most of the time of saving a 50k-node document, one call per node) is made once. The same
    text: the same C encoder with ``_LINE``'s settings (``JSONEncoder.iterencode``'s one-shot path)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator (another Python): the plain encoder
        return _LINE.encode
    chunks = make({}, _LINE.default, json.encoder.encode_basestring, None, _LINE.key_separator,
                  _LINE.item_separator, _LINE.sort_keys, _LINE.skipkeys, _LINE.allow_nan)

    def encode(value: Any) -> str:
        if isinstance(value, str):
            return json.encoder.encode_basestring(value)
        return "".join(chunks(value, 0))

    return encode


def _encode(encode: Any, gltf: dict[str, Any]) -> bytes:
    if not isinstance(gltf, dict):
        raise GltfError("document JSON must be an object", pointer="")
    try:
        return encode(gltf).encode("utf-8")
    except (ValueError, TypeError) as exc:  # NaN/∞ (allow_nan=False), a lone surrogate, a circular reference
        found = next(unwritable(gltf), None)
        if found is not None:
            raise GltfError(f"cannot write JSON: {found[1]}", pointer=found[0]) from None
        raise GltfError(f"cannot write JSON: {clip(str(exc), 120)}") from None
    except RecursionError:
        raise GltfError("cannot write JSON: nested too deeply") from None


def unwritable(value: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    """(JSON pointer, why) of every value JSON text cannot carry: NaN and ±∞ (``1e999`` parses to ∞) and
    strings or keys holding a lone surrogate (``"\\ud800"`` parses to one; UTF-8 cannot encode it).

    Iterative (no recursion limit) and linear in the size of ``value``.
    """
    stack: list[tuple[str, Any]] = [(pointer, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                token = str(key).replace("~", "~0").replace("/", "~1")
                if isinstance(key, str) and not _utf8(key):
                    yield f"{where}/{_printable(token)}", "a key holds a lone surrogate (not Unicode text)"
                stack.append((f"{where}/{_printable(token)}", child))
        elif isinstance(item, list):
            stack.extend((f"{where}/{i}", child) for i, child in reversed(list(enumerate(item))))
        elif isinstance(item, float) and not math.isfinite(item):
            yield where, f"{item} is not a JSON number (write a finite number)"
        elif isinstance(item, str) and not _utf8(item):
            yield where, "the string holds a lone surrogate (not Unicode text)"


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _printable(token: str) -> str:
    """A pointer token that can itself be printed: lone surrogates as U+FFFD."""
    return token if _utf8(token) else token.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
