"""Accessors → NumPy (glTF 2.0 the spec.2): every component type, byteStride, matrix column padding,
normalized integers, sparse substitution (with or without a base bufferView).

The result is a fresh, writable, native-endian array of shape ``(count,)`` for SCALAR and ``(count, n)``
otherwise (matrices flattened column-major, as stored: MAT4 → 16 columns). Component types are kept
(FLOAT → float32, UNSIGNED_SHORT → uint16, …) except normalized integers, which become float64:
unsigned ``c / (2^b − 1)``, signed ``max(c / (2^(b−1) − 1), −1)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import bounds
from .document import Document
from .errors import GltfError
from .layout import (
    COMPONENT_DTYPES,
    FLOAT,
    MATRIX_COLUMNS,
    TYPE_COMPONENTS,
    column_stride,
    element_size,
    is_int,
)


def read_accessor(doc: Document, index: int) -> np.ndarray:
    gltf = doc.json
    accessors = bounds.array(gltf, "accessors")
    pointer = f"/accessors/{index}"
    if not is_int(index) or not 0 <= index < len(accessors):
        raise GltfError(f"no accessor {index} (there are {len(accessors)})", pointer=pointer)
    views = bounds.array(gltf, "bufferViews")
    buffer_lengths = bounds.check_buffers(gltf)
    acc = accessors[index]
    # Re-checked here (cheap arithmetic): the document may have been edited since it was loaded.
    bounds.check_accessor(acc, pointer, views, lambda v: bounds.check_view(views, v, buffer_lengths))
    ctype, type_, count = acc["componentType"], acc["type"], acc["count"]
    if "bufferView" in acc:
        view = views[acc["bufferView"]]
        values = _elements(doc, view, acc.get("byteOffset", 0), count, type_, ctype, pointer)
    else:
        values = np.zeros((count, TYPE_COMPONENTS[type_]), dtype=COMPONENT_DTYPES[ctype].newbyteorder("="))
    if "sparse" in acc:
        _apply_sparse(doc, views, acc["sparse"], values, type_, ctype, f"{pointer}/sparse")
    if acc.get("normalized") is True:
        values = normalize(values, ctype)
    return values[:, 0] if type_ == "SCALAR" else values


def normalize(values: np.ndarray, component_type: int) -> np.ndarray:
    """Normalized integers → float64 per glTF 2.0 the spec (floats are returned unchanged)."""
    if component_type == FLOAT:
        return values
    info = np.iinfo(COMPONENT_DTYPES[component_type])
    scaled = values.astype(np.float64) / float(info.max)
    return np.maximum(scaled, -1.0) if info.min < 0 else scaled


def _elements(doc: Document, view: dict[str, Any], offset: int, count: int, type_: str, ctype: int,
              pointer: str, *, packed: bool = False) -> np.ndarray:
    """``count`` elements starting ``offset`` bytes into ``view`` (``packed``: ignore byteStride)."""
    dtype = COMPONENT_DTYPES[ctype]
    size = element_size(type_, ctype)
    stride = size if packed else (view.get("byteStride") or size)
    start = view.get("byteOffset", 0) + offset
    data = _buffer(doc, view["buffer"], start + stride * (count - 1) + size, pointer)
    n = TYPE_COMPONENTS[type_]
    columns = MATRIX_COLUMNS.get(type_)
    if columns is not None and column_stride(type_, ctype) != columns * dtype.itemsize:
        # MAT2/MAT3 of 1-/2-byte components: each column starts on a 4-byte boundary
        shape: tuple[int, ...] = (count, columns, columns)
        strides: tuple[int, ...] = (stride, column_stride(type_, ctype), dtype.itemsize)
    else:
        shape, strides = (count, n), (stride, dtype.itemsize)
    source = np.ndarray(shape, dtype=dtype, buffer=data, offset=start, strides=strides)
    result = np.empty(shape, dtype=dtype.newbyteorder("="))
    result[...] = source
    return result.reshape(count, n)


def _buffer(doc: Document, i: int, end: int, pointer: str) -> Any:
    if i >= len(doc.buffers) or len(doc.buffers[i]) < end:
        have = len(doc.buffers[i]) if i < len(doc.buffers) else 0
        raise GltfError(f"buffer {i} holds {have} bytes, {end} needed", pointer=pointer)
    return doc.buffers[i]


def _apply_sparse(doc: Document, views: list[Any], sparse: dict[str, Any], values: np.ndarray, type_: str,
                  ctype: int, pointer: str) -> None:
    n = sparse["count"]
    indices_json, values_json = sparse["indices"], sparse["values"]
    indices = _elements(doc, views[indices_json["bufferView"]], indices_json.get("byteOffset", 0), n,
                        "SCALAR", indices_json["componentType"], f"{pointer}/indices", packed=True)[:, 0]
    if int(indices.max()) >= len(values):
        raise GltfError(f"sparse index {int(indices.max())} ≥ accessor count {len(values)}",
                        pointer=f"{pointer}/indices")
    substitutes = _elements(doc, views[values_json["bufferView"]], values_json.get("byteOffset", 0), n, type_,
                            ctype, f"{pointer}/values", packed=True)
    values[indices] = substitutes
