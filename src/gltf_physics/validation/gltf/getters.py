"""Typed getters for the core glTF checks: each reports what the glTF 2.0 JSON schema forbids, with the
Khronos glTF-Validator's code and pointer, and returns ``None`` when the value is unusable.

Integers follow JSON, not Python: ``2.0`` is the integer 2 (the Khronos validator reads it so); ``True`` is
never a number.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from typing import Any

from ...dialects.common.checks import PHYSICS_EXTENSIONS, Emit
from .codes import CORE_CODES

_NUM = (int, float)


def as_int(v: Any) -> int | None:
    """``v`` as a JSON integer (``3`` or ``3.0``), else ``None``."""
    if v.__class__ is int:
        return v
    if v.__class__ is float and v.is_integer():
        return int(v)
    return None


def is_number(v: Any) -> bool:
    """A finite JSON number (NaN/∞ cannot be written in JSON; the loader already refuses them in files)."""
    if v.__class__ is int:
        return True
    return v.__class__ is float and math.isfinite(v)


def beyond_double(v: Any) -> bool:
    """An integer literal no double can hold (JSON allows any number of digits; reading it as a float would
    raise OverflowError). Python compares an int with a float exactly, so this never converts."""
    return v.__class__ is int and abs(v) > sys.float_info.max


def accessor_format(acc: dict[str, Any]) -> tuple[Any, Any, bool]:
    """(type, componentType, normalized) of an accessor, hashable whatever the JSON holds."""
    type_, ctype = acc.get("type"), acc.get("componentType")
    return (type_ if type_.__class__ is str else None, as_int(ctype) if ctype.__class__ in _NUM else None,
            acc.get("normalized") is True)


def _too_big(key: str, value: int) -> str:
    return f"'{key}' holds an integer of {len(str(abs(value)))} digits, beyond the range of a double (±1.8e308)"


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    return {int: "integer", float: "number", str: "string", list: "array", dict: "object"}.get(
        v.__class__, "null" if v is None else type(v).__name__)


class Core:
    """The emitter plus the document's array sizes and declared extensions, shared by every core check."""

    def __init__(self, gltf: dict[str, Any], emit: Emit) -> None:
        self.gltf = gltf
        self._emit = emit
        used = gltf.get("extensionsUsed")
        self.used = {u for u in used if isinstance(u, str)} if isinstance(used, list) else set()
        self.sizes = {k: len(v) for k, v in gltf.items() if isinstance(v, list)}

    def emit(self, code: str, pointer: str, message: str) -> None:
        self._emit(code, pointer, message, CORE_CODES[code][0])

    def _absent(self, o: dict[str, Any], key: str, ptr: str, required: bool) -> bool:
        """Whether ``key`` is missing from ``o``; a missing required property is reported (UNDEFINED_PROPERTY)."""
        if key in o:
            return False
        if required:
            self.emit("UNDEFINED_PROPERTY", ptr or "/", f"property '{key}' must be defined")
        return True

    # ---------------------------------------------------------------- arrays of objects
    def objects(self, holder: dict[str, Any], key: str, ptr: str, *, required: bool = False,
                min_items: int = 1) -> Iterator[tuple[int, str, dict[str, Any]]]:
        """(index, pointer, object) for each object of ``holder[key]``; wrong entries are reported."""
        if self._absent(holder, key, ptr, required):
            return
        value = holder[key]  # an explicit null is a value of the wrong type
        where = f"{ptr}/{key}"
        if not isinstance(value, list):
            self.emit("TYPE_MISMATCH", where, f"'{key}' must be an array, found {_kind(value)}")
            return
        if len(value) < min_items:
            self.emit("EMPTY_ENTITY", where, f"'{key}' must not be empty")
        for i, item in enumerate(value):
            if item.__class__ is dict:
                yield i, f"{where}/{i}", item
            elif ptr:  # the Khronos validator reports a nested array's stray entry at the array
                self.emit("ARRAY_TYPE_MISMATCH", where, f"'{key}' entries must be objects, found {_kind(item)}")
            else:
                self.emit("TYPE_MISMATCH", f"{where}/{i}", f"expected an object, found {_kind(item)}")

    def sub(self, o: dict[str, Any], key: str, ptr: str, *, required: bool = False) -> dict[str, Any] | None:
        """A nested object (``None`` when absent or of the wrong type)."""
        return self._typed(o, key, ptr, dict, "an object", required)

    def _typed(self, o: dict[str, Any], key: str, ptr: str, kind: type, what: str, required: bool) -> Any:
        """``o[key]`` when it is exactly of ``kind``; else ``None``, reporting a missing required property or a
        value of another type (an explicit null included)."""
        if self._absent(o, key, ptr, required):
            return None
        value = o[key]
        if value.__class__ is not kind:
            self.emit("TYPE_MISMATCH", f"{ptr}/{key}", f"'{key}' must be {what}, found {_kind(value)}")
            return None
        return value

    # ---------------------------------------------------------------- references
    def ref(self, o: dict[str, Any], key: str, ptr: str, target: str, *, required: bool = False,
            size: int | None = None) -> int | None:
        """An index into the top-level array ``target`` (or into ``size`` items when given)."""
        if self._absent(o, key, ptr, required):
            return None
        value = o[key]  # an explicit null is a value of the wrong type
        return self.index_value(value, f"{ptr}/{key}", target, size)

    def index_value(self, value: Any, where: str, target: str, size: int | None = None, *,
                    in_map: bool = False) -> int | None:
        """An index at ``where``; inside a map of indices (``in_map``) a non-integer is INVALID_INDEX."""
        i = as_int(value)
        if i is None:
            code = "INVALID_INDEX" if in_map else "TYPE_MISMATCH"
            self.emit(code, where, f"an index must be a non-negative integer, found {_kind(value)}")
            return None
        if i < 0:
            self.emit("INVALID_INDEX", where, f"index {i} must be a non-negative integer")
            return None
        n = self.sizes.get(target, 0) if size is None else size
        if i >= n:
            self.emit("UNRESOLVED_REFERENCE", where, f"unresolved reference: {target} {i} (there are {n})")
            return None
        return i

    def refs(self, o: dict[str, Any], key: str, ptr: str, target: str, *, required: bool = False) -> list[int]:
        """A non-empty array of unique indices into ``target``; the resolvable ones are returned."""
        if self._absent(o, key, ptr, required):
            return []
        value = o[key]  # an explicit null is a value of the wrong type
        where = f"{ptr}/{key}"
        if value.__class__ is not list:
            self.emit("TYPE_MISMATCH", where, f"'{key}' must be an array of indices, found {_kind(value)}")
            return []
        if not value:
            self.emit("EMPTY_ENTITY", where, f"'{key}' must not be empty")
        n = self.sizes.get(target, 0)
        out: list[int] = []
        seen: set[int] = set()
        for k, v in enumerate(value):
            i = v if v.__class__ is int else as_int(v)
            if i is None or i < 0:
                self.emit("INVALID_INDEX", f"{where}/{k}", f"{v!r} is not a non-negative integer index")
            elif i in seen:
                self.emit("DUPLICATE_ELEMENTS", f"{where}/{k}", f"index {i} is listed twice")
            elif i >= n:
                self.emit("UNRESOLVED_REFERENCE", f"{where}/{k}", f"unresolved reference: {target} {i} "
                                                                  f"(there are {n})")
            else:
                seen.add(i)
                out.append(i)
        return out

    # ---------------------------------------------------------------- scalars
    def number(self, o: dict[str, Any], key: str, ptr: str, *, required: bool = False,
               lo: float | None = None, hi: float | None = None, lo_open: bool = False) -> float | None:
        """A number in [lo, hi] ((lo, hi] with ``lo_open``)."""
        if self._absent(o, key, ptr, required):
            return None
        value = o[key]  # an explicit null is a value of the wrong type
        if not is_number(value):
            self.emit("TYPE_MISMATCH", f"{ptr}/{key}", f"'{key}' must be a number, found {_kind(value)}")
            return None
        if beyond_double(value):
            self.emit("VALUE_NOT_IN_RANGE", f"{ptr}/{key}", _too_big(key, value))
            return None
        if (lo is not None and (value < lo or (lo_open and value == lo))) or (hi is not None and value > hi):
            self.emit("VALUE_NOT_IN_RANGE", f"{ptr}/{key}", f"'{key}' {value!r} is out of range")
            return None
        return value

    def integer(self, o: dict[str, Any], key: str, ptr: str, *, required: bool = False, lo: int = 0,
                hi: int | None = None) -> int | None:
        if self._absent(o, key, ptr, required):
            return None
        value = o[key]  # an explicit null is a value of the wrong type
        i = as_int(value)
        if i is None:
            self.emit("TYPE_MISMATCH", f"{ptr}/{key}", f"'{key}' must be an integer, found {_kind(value)}")
            return None
        if i < lo or (hi is not None and i > hi):
            self.emit("VALUE_NOT_IN_RANGE", f"{ptr}/{key}", f"'{key}' {i} is out of range")
            return None
        return i

    def enum(self, o: dict[str, Any], key: str, ptr: str, values: tuple[Any, ...], *,
             required: bool = False) -> Any:
        """An integer or string from ``values``: another value of the right type is a warning, as in Khronos."""
        if self._absent(o, key, ptr, required):
            return None
        value = o[key]  # an explicit null is a value of the wrong type
        if isinstance(values[0], str):
            ok_type, got = value.__class__ is str, value
        else:
            got = as_int(value)
            ok_type = got is not None
        if not ok_type:
            self.emit("TYPE_MISMATCH", f"{ptr}/{key}", f"'{key}' has the wrong type ({_kind(value)})")
            return None
        if got not in values:
            self.emit("VALUE_NOT_IN_LIST", f"{ptr}/{key}", f"'{key}' {got!r} is not one of {list(values)}")
            return None
        return got

    def string(self, o: dict[str, Any], key: str, ptr: str, *, required: bool = False) -> str | None:
        """A string property (``None`` when absent or of the wrong type)."""
        return self._typed(o, key, ptr, str, "a string", required)

    def boolean(self, o: dict[str, Any], key: str, ptr: str) -> None:
        value = o.get(key)
        if key in o and value.__class__ is not bool:
            self.emit("TYPE_MISMATCH", f"{ptr}/{key}", f"'{key}' must be true or false, found {_kind(value)}")

    def numbers(self, o: dict[str, Any], key: str, ptr: str, lengths: tuple[int, ...] | None, *,
                lo: float | None = None, hi: float | None = None) -> list[float] | None:
        """An array of numbers of one of ``lengths`` (any non-empty length when ``None``), each in [lo, hi]."""
        if key not in o:
            return None
        value = o[key]
        where = f"{ptr}/{key}"
        if value.__class__ is not list:
            self.emit("TYPE_MISMATCH", where, f"'{key}' must be an array of numbers, found {_kind(value)}")
            return None
        if not value:  # an empty array is EMPTY_ENTITY whatever length the property wants, as in Khronos
            self.emit("EMPTY_ENTITY", where, f"'{key}' must not be empty")
            return None
        if lengths is not None and len(value) not in lengths:
            self.emit("ARRAY_LENGTH_NOT_IN_LIST", where, f"'{key}' has {len(value)} numbers; valid lengths: "
                                                         f"{list(lengths)}")
            return None
        if not all(is_number(v) for v in value):
            self.emit("ARRAY_TYPE_MISMATCH", where, f"'{key}' must hold only numbers")
            return None
        ok = True
        for k, v in enumerate(value):
            if beyond_double(v):
                self.emit("VALUE_NOT_IN_RANGE", f"{where}/{k}", _too_big(key, v))
                ok = False
        if ok and (lo is not None or hi is not None):
            for k, v in enumerate(value):
                if (lo is not None and v < lo) or (hi is not None and v > hi):
                    self.emit("VALUE_NOT_IN_RANGE", f"{where}/{k}", f"{v!r} is out of range [{lo}, {hi}]")
                    ok = False
        return value if ok else None

    # ---------------------------------------------------------------- common to every object
    def common(self, o: dict[str, Any], ptr: str) -> None:
        """``name`` is a string; ``extensions`` an object whose names extensionsUsed declares."""
        if "name" in o and o["name"].__class__ is not str:
            self.emit("TYPE_MISMATCH", f"{ptr}/name", f"'name' must be a string, found {_kind(o['name'])}")
        if "extensions" in o:
            self.extensions(o["extensions"], ptr)

    def extensions(self, ext: Any, ptr: str) -> None:
        if ext.__class__ is not dict:
            self.emit("TYPE_MISMATCH", f"{ptr}/extensions", f"'extensions' must be an object, found {_kind(ext)}")
            return
        for name in ext:
            # Physics extensions missing from extensionsUsed are GEN-1's, reported by the physics checks.
            if name not in self.used and name not in PHYSICS_EXTENSIONS:
                self.emit("UNDECLARED_EXTENSION", f"{ptr}/extensions/{name}",
                          f"extension {name} is not declared in extensionsUsed")
