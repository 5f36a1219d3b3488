"""Load-time structure and range checks on buffers, bufferViews and accessors (pure arithmetic, no copies).

Everything that decides how many bytes would be read or allocated is checked here, against *declared*
buffer lengths, so a hostile count (10^12 elements) fails with a pointer instead of a MemoryError. The
validator reports the softer problems (alignment, min/max…); these are the ones reading cannot survive.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import GltfError
from .layout import COMPONENT_DTYPES, INDEX_COMPONENT_TYPES, TYPE_COMPONENTS, element_size, is_int

# An accessor without bufferView is materialised as zeros, so a 1 KB file can declare gigabytes. What it may
# allocate is budgeted by the *expanded* arrays, not the declared bytes: every component can become a float64
# (normalized integers are, and mesh readers widen positions), so 8 bytes per component, per accessor and
# summed over the document.
MAX_UNBACKED_ACCESSOR_BYTES = 1 << 28
MAX_UNBACKED_TOTAL_BYTES = 1 << 30
EXPANDED_COMPONENT_BYTES = 8


# glTF 2.0 top-level properties that are arrays: every reader may iterate them without re-checking.
TOP_LEVEL_ARRAYS = ("accessors", "animations", "buffers", "bufferViews", "cameras", "extensionsRequired",
                    "extensionsUsed", "images", "materials", "meshes", "nodes", "samplers", "scenes", "skins",
                    "textures")


def check_top_level(gltf: dict[str, Any]) -> None:
    """Top-level arrays are arrays and ``extensions`` an object, so no reader trips over their type."""
    for key in TOP_LEVEL_ARRAYS:
        array(gltf, key)
    if "extensions" in gltf and not isinstance(gltf["extensions"], dict):
        raise GltfError("'extensions' must be an object", pointer="/extensions")


def array(gltf: dict[str, Any], key: str) -> list[Any]:
    """A top-level array (absent ⇒ empty); any other type is an error at ``/key``."""
    value = gltf.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise GltfError(f"'{key}' must be an array", pointer=f"/{key}")
    return value


def obj(value: Any, pointer: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise GltfError("must be an object", pointer=pointer)
    return value


def integer(holder: dict[str, Any], key: str, pointer: str, *, default: int | None = None,
            minimum: int = 0) -> int:
    """``holder[key]`` as an int ≥ minimum (``default`` when absent; required when default is None)."""
    value = holder.get(key, default)
    if value is None:
        raise GltfError(f"'{key}' is required", pointer=pointer)
    if not is_int(value) or value < minimum:
        raise GltfError(f"'{key}' must be an integer ≥ {minimum}, got {value!r}", pointer=f"{pointer}/{key}")
    return value


def index(holder: dict[str, Any], key: str, pointer: str, size: int) -> int:
    value = integer(holder, key, pointer)
    if value >= size:
        raise GltfError(f"index {value} out of range (there are {size})", pointer=f"{pointer}/{key}")
    return value


def check_buffers(gltf: dict[str, Any]) -> list[int]:
    """Declared ``byteLength`` of every buffer (each an object with an integer byteLength ≥ 1)."""
    lengths = []
    for i, buf in enumerate(array(gltf, "buffers")):
        pointer = f"/buffers/{i}"
        buf = obj(buf, pointer)
        lengths.append(integer(buf, "byteLength", pointer, minimum=1))
        if "uri" in buf and not isinstance(buf["uri"], str):
            raise GltfError("uri must be a string", pointer=f"{pointer}/uri")
    return lengths


def check_buffer_views(gltf: dict[str, Any], buffer_lengths: list[int]) -> list[int]:
    """``byteLength`` of every bufferView after checking it lies inside its buffer."""
    views = array(gltf, "bufferViews")
    return [check_view(views, i, buffer_lengths) for i in range(len(views))]


def check_view(views: list[Any], i: int, buffer_lengths: list[int]) -> int:
    """``byteLength`` of bufferView ``i`` after checking it lies inside its buffer."""
    pointer = f"/bufferViews/{i}"
    view = obj(views[i], pointer)
    buf = index(view, "buffer", pointer, len(buffer_lengths))
    offset = integer(view, "byteOffset", pointer, default=0)
    length = integer(view, "byteLength", pointer, minimum=1)
    if offset + length > buffer_lengths[buf]:
        raise GltfError(f"bytes [{offset}, {offset + length}) lie outside buffer {buf} "
                        f"({buffer_lengths[buf]} bytes)", pointer=pointer)
    stride = view.get("byteStride")
    if stride is not None and (not is_int(stride) or not 4 <= stride <= 252 or stride % 4):
        raise GltfError(f"byteStride must be a multiple of 4 in [4, 252], got {stride!r}",
                        pointer=f"{pointer}/byteStride")
    return length


def check_accessors(gltf: dict[str, Any], view_lengths: list[int]) -> None:
    views = array(gltf, "bufferViews")
    total = 0
    for i, acc in enumerate(array(gltf, "accessors")):
        total += check_accessor(acc, f"/accessors/{i}", views, view_lengths.__getitem__)
        if total > MAX_UNBACKED_TOTAL_BYTES:
            raise GltfError(f"accessors without bufferView would expand to more than {MAX_UNBACKED_TOTAL_BYTES} "
                            "bytes of zeros in all", pointer=f"/accessors/{i}/count")


def check_accessor(acc: Any, pointer: str, views: list[Any], view_length: Callable[[int], int]) -> int:
    """Every byte the accessor at ``pointer`` reads (dense and sparse) lies inside its bufferViews; returns
    the bytes its zeros expand to when it has no bufferView (0 otherwise).

    ``view_length(v)`` is bufferView ``v``'s checked byteLength (``views`` are already known to be objects
    when it returns).
    """
    acc = obj(acc, pointer)
    ctype, type_ = component_and_type(acc, pointer)
    count = integer(acc, "count", pointer, minimum=1)
    size = element_size(type_, ctype)
    if "bufferView" in acc:
        v = index(acc, "bufferView", pointer, len(views))
        length = view_length(v)
        offset = integer(acc, "byteOffset", pointer, default=0)
        stride = views[v].get("byteStride") or size
        if stride < size:
            raise GltfError(f"bufferView {v} byteStride {stride} is smaller than the element size {size}",
                            pointer=pointer)
        end = offset + stride * (count - 1) + size
        if end > length:
            raise GltfError(f"{count} elements from byte {offset} need {end} bytes, bufferView {v} has "
                            f"{length}", pointer=pointer)
    expanded = 0 if "bufferView" in acc else count * TYPE_COMPONENTS[type_] * EXPANDED_COMPONENT_BYTES
    if expanded > MAX_UNBACKED_ACCESSOR_BYTES:
        raise GltfError(f"accessor without bufferView declares {count} elements ({expanded} bytes once "
                        f"expanded, limit {MAX_UNBACKED_ACCESSOR_BYTES})", pointer=f"{pointer}/count")
    if "sparse" in acc:
        sparse = obj(acc["sparse"], f"{pointer}/sparse")
        _check_sparse(sparse, f"{pointer}/sparse", count, size, views, view_length)
    return expanded


def component_and_type(acc: dict[str, Any], pointer: str) -> tuple[int, str]:
    ctype = acc.get("componentType")
    if not is_int(ctype) or ctype not in COMPONENT_DTYPES:
        raise GltfError(f"unknown componentType {ctype!r}", pointer=f"{pointer}/componentType")
    type_ = acc.get("type")
    if not isinstance(type_, str) or type_ not in TYPE_COMPONENTS:
        raise GltfError(f"unknown accessor type {type_!r}", pointer=f"{pointer}/type")
    if "normalized" in acc and not isinstance(acc["normalized"], bool):
        raise GltfError("normalized must be a boolean", pointer=f"{pointer}/normalized")
    return ctype, type_


def _check_sparse(sparse: dict[str, Any], pointer: str, count: int, size: int, views: list[Any],
                  view_length: Callable[[int], int]) -> None:
    n = integer(sparse, "count", pointer, minimum=1)
    if n > count:
        raise GltfError(f"sparse count {n} exceeds the accessor's count {count}", pointer=f"{pointer}/count")
    indices = obj(sparse.get("indices"), f"{pointer}/indices")
    ictype = indices.get("componentType")
    if ictype not in INDEX_COMPONENT_TYPES or not is_int(ictype):
        raise GltfError(f"sparse indices componentType must be 5121, 5123 or 5125, got {ictype!r}",
                        pointer=f"{pointer}/indices/componentType")
    _check_packed(indices, f"{pointer}/indices", n * COMPONENT_DTYPES[ictype].itemsize, views, view_length)
    values = obj(sparse.get("values"), f"{pointer}/values")
    _check_packed(values, f"{pointer}/values", n * size, views, view_length)


def _check_packed(holder: dict[str, Any], pointer: str, nbytes: int, views: list[Any],
                  view_length: Callable[[int], int]) -> None:
    v = index(holder, "bufferView", pointer, len(views))
    length = view_length(v)
    offset = integer(holder, "byteOffset", pointer, default=0)
    if offset + nbytes > length:
        raise GltfError(f"needs bytes [{offset}, {offset + nbytes}) but bufferView {v} has {length}",
                        pointer=pointer)


def check_images(gltf: dict[str, Any], view_count: int) -> None:
    """Images are not read at load, but their references must be sane (uris are checked by the loader)."""
    for i, image in enumerate(array(gltf, "images")):
        pointer = f"/images/{i}"
        image = obj(image, pointer)
        if "bufferView" in image:
            index(image, "bufferView", pointer, view_count)
        if "uri" in image and not isinstance(image["uri"], str):
            raise GltfError("uri must be a string", pointer=f"{pointer}/uri")
