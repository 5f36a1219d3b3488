"""Binary layout of accessor elements: component types, element types, byte sizes (glTF 2.0 the spec.2).

Shared by the load-time bounds checks and the accessor decoder so both agree on every size.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# componentType → little-endian NumPy dtype
COMPONENT_DTYPES: dict[int, np.dtype] = {
    5120: np.dtype("<i1"),  # BYTE
    5121: np.dtype("<u1"),  # UNSIGNED_BYTE
    5122: np.dtype("<i2"),  # SHORT
    5123: np.dtype("<u2"),  # UNSIGNED_SHORT
    5125: np.dtype("<u4"),  # UNSIGNED_INT
    5126: np.dtype("<f4"),  # FLOAT
}
FLOAT = 5126
INDEX_COMPONENT_TYPES = (5121, 5123, 5125)  # sparse indices and primitive indices

TYPE_COMPONENTS: dict[str, int] = {
    "SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16,
}
MATRIX_COLUMNS: dict[str, int] = {"MAT2": 2, "MAT3": 3, "MAT4": 4}


def is_int(value: Any) -> bool:
    """A JSON integer (``True`` is a bool, not an index)."""
    return isinstance(value, int) and not isinstance(value, bool)


def column_stride(type_: str, component_type: int) -> int:
    """Bytes between matrix columns: each column starts on a 4-byte boundary (MAT2/MAT3 of 1-/2-byte
    components are padded), otherwise the element is tightly packed."""
    columns = MATRIX_COLUMNS.get(type_)
    size = COMPONENT_DTYPES[component_type].itemsize
    if columns is None:
        return TYPE_COMPONENTS[type_] * size
    return (columns * size + 3) // 4 * 4


def element_size(type_: str, component_type: int) -> int:
    """Bytes one element occupies, matrix column padding included."""
    columns = MATRIX_COLUMNS.get(type_)
    if columns is None:
        return TYPE_COMPONENTS[type_] * COMPONENT_DTYPES[component_type].itemsize
    return columns * column_stride(type_, component_type)
