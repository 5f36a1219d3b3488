"""Core checks of buffers, bufferViews and accessors: schema, bounds, alignment, and (reading the bytes)
declared min/max against the data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...gltf.accessors import read_accessor
from ...gltf.document import Document
from ...gltf.layout import COMPONENT_DTYPES, TYPE_COMPONENTS, element_size
from .getters import Core, as_int, beyond_double, is_number

COMPONENT_TYPES = tuple(COMPONENT_DTYPES)
TYPES = tuple(TYPE_COMPONENTS)
_INT_RANGES = {ct: (int(np.iinfo(dt).min), int(np.iinfo(dt).max)) for ct, dt in COMPONENT_DTYPES.items()
               if dt.kind in "iu"}
_DATA_MIMES = ("application/octet-stream", "application/gltf-buffer")


def check(c: Core) -> None:
    lengths = _buffers(c)
    views = _views(c, lengths)
    for _i, ptr, acc in c.objects(c.gltf, "accessors", ""):
        _accessor(c, acc, ptr, views)


def _buffers(c: Core) -> dict[int, int]:
    """Buffer index → its valid byteLength."""
    lengths: dict[int, int] = {}
    for i, ptr, buf in c.objects(c.gltf, "buffers", ""):
        c.common(buf, ptr)
        length = c.integer(buf, "byteLength", ptr, required=True, lo=1)
        if length is not None:
            lengths[i] = length
        uri = c.string(buf, "uri", ptr)
        if uri is not None and uri.startswith("data:"):
            mime = uri[5:].split(";", 1)[0].split(",", 1)[0]
            if mime not in _DATA_MIMES:
                c.emit("BUFFER_DATA_URI_MIME_TYPE_INVALID", f"{ptr}/uri", f"data: URI media type '{mime}' must be "
                                                                          "application/octet-stream or "
                                                                          "application/gltf-buffer")
    return lengths


def _views(c: Core, lengths: dict[int, int]) -> dict[int, tuple[int, int, int | None]]:
    """bufferView index → (byteOffset, byteLength, byteStride) of every view that lies inside its buffer."""
    views: dict[int, tuple[int, int, int | None]] = {}
    for i, ptr, view in c.objects(c.gltf, "bufferViews", ""):
        c.common(view, ptr)
        buf = c.ref(view, "buffer", ptr, "buffers", required=True)
        offset = c.integer(view, "byteOffset", ptr)
        length = c.integer(view, "byteLength", ptr, required=True, lo=1)
        stride = c.integer(view, "byteStride", ptr, lo=4, hi=252)
        if stride is not None and stride % 4:  # reported; the stride is still used for the bounds, as Khronos does
            c.emit("VALUE_MULTIPLE_OF", f"{ptr}/byteStride", f"byteStride {stride} is not a multiple of 4")
        c.enum(view, "target", ptr, (34962, 34963))
        if buf is None or length is None or (offset is None and "byteOffset" in view):
            continue
        offset = offset or 0
        if buf in lengths and offset + length > lengths[buf]:
            c.emit("BUFFER_VIEW_TOO_LONG", f"{ptr}/byteLength", f"bytes [{offset}, {offset + length}) do not fit "
                                                                f"buffer {buf} (byteLength {lengths[buf]})")
            continue
        if stride is not None and stride > length:
            c.emit("BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", f"{ptr}/byteStride", f"byteStride {stride} is greater "
                                                                           f"than byteLength {length}")
        views[i] = (offset, length, stride)
    return views


def _accessor(c: Core, acc: dict[str, Any], ptr: str, views: dict[int, tuple[int, int, int | None]]) -> None:
    c.common(acc, ptr)
    view = c.ref(acc, "bufferView", ptr, "bufferViews")
    offset = c.integer(acc, "byteOffset", ptr)
    if "byteOffset" in acc and "bufferView" not in acc:
        c.emit("UNSATISFIED_DEPENDENCY", f"{ptr}/byteOffset", "byteOffset needs 'bufferView' to be defined")
    ctype = c.enum(acc, "componentType", ptr, COMPONENT_TYPES, required=True)
    c.boolean(acc, "normalized", ptr)
    if acc.get("normalized") is True and ctype in (5125, 5126):
        c.emit("ACCESSOR_NORMALIZED_INVALID", f"{ptr}/normalized", "only (unsigned) byte and short accessors can "
                                                                   "be normalized")
    count = c.integer(acc, "count", ptr, required=True, lo=1)
    type_ = c.enum(acc, "type", ptr, TYPES, required=True)
    n = TYPE_COMPONENTS.get(type_) if type_ is not None else None
    for key in ("min", "max"):
        bound = c.numbers(acc, key, ptr, (n,) if n else None)
        if bound is not None and ctype in _INT_RANGES:
            _integer_bound(c, bound, f"{ptr}/{key}", ctype)
    sparse = c.sub(acc, "sparse", ptr)
    if sparse is not None:
        _sparse(c, sparse, f"{ptr}/sparse", count)
    if ctype is None or type_ is None or count is None or view is None or view not in views:
        return
    if offset is None and "byteOffset" in acc:
        return
    _layout(c, ptr, offset or 0, ctype, type_, count, views[view], view)


def _integer_bound(c: Core, bound: list[float], where: str, ctype: int) -> None:
    """min/max of an integer accessor are integers its component type can hold."""
    if not all(as_int(v) is not None for v in bound):
        c.emit("ARRAY_TYPE_MISMATCH", where, "min/max of an integer accessor must hold integers")
        return
    lo, hi = _INT_RANGES[ctype]
    if not all(lo <= v <= hi for v in bound):
        c.emit("INVALID_GL_VALUE", where, f"a value is outside the range of componentType {ctype} [{lo}, {hi}]")


def _layout(c: Core, ptr: str, offset: int, ctype: int, type_: str, count: int,
            view: tuple[int, int, int | None], v: int) -> None:
    """Alignment and bounds of a dense accessor inside its bufferView."""
    csize = COMPONENT_DTYPES[ctype].itemsize
    if offset % csize:
        c.emit("ACCESSOR_OFFSET_ALIGNMENT", f"{ptr}/byteOffset", f"byteOffset {offset} is not a multiple of the "
                                                                 f"component size {csize}")
    view_offset, length, stride = view
    if (view_offset + offset) % csize:
        c.emit("ACCESSOR_TOTAL_OFFSET_ALIGNMENT", ptr, f"total byteOffset {view_offset + offset} is not a "
                                                       f"multiple of the component size {csize}")
    size = element_size(type_, ctype)
    if stride is not None and stride < size:
        c.emit("ACCESSOR_SMALL_BYTESTRIDE", ptr, f"bufferView {v} byteStride {stride} is less than the element "
                                                 f"size {size}")
        return
    end = offset + (stride or size) * (count - 1) + size
    if end > length:
        c.emit("ACCESSOR_TOO_LONG", ptr, f"{count} elements from byte {offset} need {end} bytes; bufferView {v} "
                                         f"has {length}")


def _sparse(c: Core, sparse: dict[str, Any], ptr: str, count: int | None) -> None:
    n = c.integer(sparse, "count", ptr, required=True, lo=1)
    if n is not None and count is not None and n > count:
        c.emit("ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", f"{ptr}/count", f"sparse count {n} exceeds the accessor's "
                                                                     f"count {count}")
    indices = c.sub(sparse, "indices", ptr, required=True)
    if indices is not None:
        c.ref(indices, "bufferView", f"{ptr}/indices", "bufferViews", required=True)
        c.integer(indices, "byteOffset", f"{ptr}/indices")
        c.enum(indices, "componentType", f"{ptr}/indices", (5121, 5123, 5125), required=True)
    values = c.sub(sparse, "values", ptr, required=True)
    if values is not None:
        c.ref(values, "bufferView", f"{ptr}/values", "bufferViews", required=True)
        c.integer(values, "byteOffset", f"{ptr}/values")


# ---------------------------------------------------------------- data


def check_data(c: Core, document: Document) -> None:
    """Declared min/max against the data and non-finite floats, for every accessor that can be read."""
    accessors = c.gltf.get("accessors")
    if accessors.__class__ is not list:
        return
    for i, acc in enumerate(accessors):
        if acc.__class__ is dict and ("min" in acc or "max" in acc or acc.get("componentType") == 5126):
            values = read_quietly(document, i)
            if values is not None:
                _bounds(c, acc, f"/accessors/{i}", values)


def read_quietly(document: Document, i: int) -> np.ndarray | None:
    """Accessor ``i``'s values, or ``None`` when the JSON checks already report why it cannot be read, or when
    it has no data at all (no bufferView, no sparse: implicit zeros the Khronos validator does not inspect)."""
    acc = document.json["accessors"][i]
    if "bufferView" not in acc and "sparse" not in acc:
        return None
    try:
        values = read_accessor(document, i)
    except Exception:  # malformed accessors are reported by the JSON pass; data checks skip them
        return None
    return values.reshape(len(values), -1)


def _bounds(c: Core, acc: dict[str, Any], ptr: str, values: np.ndarray) -> None:
    if values.dtype.kind == "f" and acc.get("normalized") is not True:
        finite = np.isfinite(values)
        if not finite.all():
            bad = int(np.argmin(finite.all(axis=1)))
            c.emit("ACCESSOR_INVALID_FLOAT", ptr, f"element {bad} holds NaN or an infinite number")
            return
    if acc.get("normalized") is True or not len(values):
        return  # min/max of normalized accessors are compared in their own units by Khronos; not checked
    width = values.shape[1]
    for key, code, actual in (("min", "ACCESSOR_MIN_MISMATCH", values.min(axis=0)),
                              ("max", "ACCESSOR_MAX_MISMATCH", values.max(axis=0))):
        declared = acc.get(key)
        if declared.__class__ is not list or len(declared) != width or not _comparable(declared, values.dtype):
            continue
        for k in range(width):
            d = declared[k]
            if as_int(d) is None and d.__class__ is not float:
                continue
            if _differs(d, actual[k]):
                c.emit(code, f"{ptr}/{key}/{k}", f"declared {key} {d!r} does not match the actual {key} "
                                                 f"{actual[k].item()!r}")
                _out_of_bound(c, key, d, actual[k].item(), f"{ptr}/{key}/{k}")


def _comparable(declared: list[Any], dtype: np.dtype) -> bool:
    """Declared bounds the JSON pass accepted (integers in range for integer data): only those are compared."""
    if dtype.kind == "f":  # a bound beyond a double's range is reported (VALUE_NOT_IN_RANGE), not compared
        return all(is_number(d) and not beyond_double(d) for d in declared)
    info = np.iinfo(dtype)
    return all(as_int(d) is not None and info.min <= d <= info.max for d in declared)


def _out_of_bound(c: Core, key: str, declared: float, actual: float, where: str) -> None:
    """Data beyond the declared bound (not only a loose bound) is a second error in the Khronos validator."""
    if key == "min" and actual < declared:
        c.emit("ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", where, f"data holds {actual!r}, below the declared min")
    elif key == "max" and actual > declared:
        c.emit("ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", where, f"data holds {actual!r}, above the declared max")


def _differs(declared: float, actual: np.generic) -> bool:
    """Float32 data is compared with the declared number rounded to float32, as the Khronos validator does."""
    if actual.dtype.kind == "f":
        with np.errstate(over="ignore"):
            return bool(np.float32(declared) != actual)
    return declared != actual.item()
