"""URI handling: ``data:`` URIs decoded, relative file URIs resolved only inside the asset's folder.

A glTF may name files only *relative to itself*. Everything that could reach elsewhere is refused with a
:class:`GltfError` naming the JSON pointer of the uri: schemes (``file:``, ``http:``, ``C:``…), absolute
paths, ``..`` escapes (plain or percent-encoded), backslashes, NUL, and symlinks leading out of the folder.
"""

from __future__ import annotations

import base64
import binascii
import re
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, unquote_to_bytes

from .errors import GltfError

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
# Still-encoded dot, slash, backslash or percent after one decoding: a double-encoded escape attempt.
_DOUBLE_ENCODED = re.compile(r"%(2e|2f|5c|25|00)", re.IGNORECASE)


def is_data_uri(uri: str) -> bool:
    return uri[:5].lower() == "data:"


def decode_data_uri(uri: str, pointer: str) -> bytes:
    """The bytes of a ``data:[mime][;base64],payload`` URI (RFC 2397; percent-encoded when not base64)."""
    header, sep, payload = uri[5:].partition(",")
    if not sep:
        raise GltfError("data: URI without a ',' before its payload", pointer=pointer)
    if header.lower().endswith(";base64"):
        try:
            return base64.b64decode(unquote(payload), validate=True)
        except (binascii.Error, ValueError) as exc:
            raise GltfError(f"data: URI is not valid base64 ({exc})", pointer=pointer) from None
    return unquote_to_bytes(payload)


def encode_data_uri(data: bytes, mime: str = "application/octet-stream") -> str:
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def relative_path(uri: str, pointer: str) -> PurePosixPath:
    """The percent-decoded relative path of a file URI, refused unless it stays inside the asset folder."""
    if not isinstance(uri, str):
        raise GltfError("uri must be a string", pointer=pointer)
    if uri == "":
        raise GltfError("empty uri", pointer=pointer)
    if _SCHEME.match(uri):
        raise GltfError(f"uri scheme not allowed (only relative paths and data: URIs): {uri[:60]!r}",
                        pointer=pointer)
    try:
        decoded = unquote(uri, errors="strict") if "%" in uri else uri
    except UnicodeDecodeError:
        raise GltfError("uri has percent-encoded bytes that are not UTF-8", pointer=pointer) from None
    if "\x00" in decoded:
        raise GltfError("uri contains a NUL character", pointer=pointer)
    try:
        decoded.encode("utf-8")
    except UnicodeEncodeError:  # "\ud800" in the JSON: no file system path can carry it
        raise GltfError("uri holds a lone surrogate (not Unicode text)", pointer=pointer) from None
    if "\\" in decoded:
        raise GltfError("uri contains a backslash (not a relative URI path)", pointer=pointer)
    if _DOUBLE_ENCODED.search(decoded):
        raise GltfError("uri contains a doubly percent-encoded character", pointer=pointer)
    if decoded.startswith("/") or _SCHEME.match(decoded):
        raise GltfError(f"absolute uri not allowed: {uri[:60]!r}", pointer=pointer)
    parts: list[str] = []
    for part in decoded.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise GltfError(f"uri escapes the asset's folder: {uri[:60]!r}", pointer=pointer)
            parts.pop()
        else:
            parts.append(part)
    if not parts:
        raise GltfError(f"uri names no file: {uri[:60]!r}", pointer=pointer)
    return PurePosixPath(*parts)


def resolve(base_dir: Path, uri: str, pointer: str) -> Path:
    """The file a relative uri names under ``base_dir``; symlinks leading outside are refused too."""
    relative = relative_path(uri, pointer)
    base = base_dir.resolve()
    target = base.joinpath(*relative.parts)
    real = target.resolve()
    if real != base and base not in real.parents:
        raise GltfError(f"uri leads outside the asset's folder (symlink?): {uri[:60]!r}", pointer=pointer)
    return target
