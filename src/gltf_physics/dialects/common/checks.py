"""What the structural checkers (``checks_*.py``) share: the emitter, typed JSON getters, mesh facts.

A checker is ``check(gltf_json, emit, index=None)``, ``index`` being the document's shared
:class:`~.base.ExtIndex` (built when not given); ``emit(code, pointer, message, severity=None)`` records one
issue (``None`` ⇒ the severity of ``code`` in ``validate.rules.RULES``). Checkers never raise on malformed
JSON: every getter reports what is wrong and returns ``None``, so the caller simply skips that part.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..registry import (
    KHR_PHYSICS_RIGID_BODIES,
    KHR_RIGID_BODIES,
    OMI_COLLIDER,
    OMI_PHYSICS_BODY,
    OMI_PHYSICS_JOINT,
    OMI_PHYSICS_SHAPE,
    PHYSICS_EXTENSIONS,
)
from .context import ExtIndex
from .emit import Emit

WARNING = 1
ERROR = 0
INFO = 2



def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_finite(v: int | float) -> bool:
    """A number a double holds: not NaN/±∞, and not an integer literal too large for a double (JSON allows
    those; ``math.isfinite`` raises OverflowError on them)."""
    try:
        return math.isfinite(v)
    except OverflowError:
        return False


@dataclass
class Json:
    """Typed getters over one document that report problems through ``emit``."""

    gltf: dict[str, Any]
    emit: Emit
    ext_index: ExtIndex | None = field(default=None, repr=False)  # shared by the validator's passes

    def __post_init__(self) -> None:
        if self.ext_index is None:
            self.ext_index = ExtIndex(self.gltf)

    # ---------------------------------------------------------------- document structure
    @property
    def nodes(self) -> list[Any]:
        nodes = self.gltf.get("nodes")
        return nodes if isinstance(nodes, list) else []

    def count(self, key: str) -> int:
        value = self.gltf.get(key)
        return len(value) if isinstance(value, list) else 0

    @property
    def parent_of(self) -> list[int | None]:
        return self.ext_index.parent_of  # type: ignore[union-attr]  # set in __post_init__

    def ancestors(self, node: int) -> Iterator[int]:
        """Strict ancestors, nearest first (stops on a cycle)."""
        seen = {node}
        p = self.parent_of[node] if 0 <= node < len(self.parent_of) else None
        while p is not None and p not in seen:
            yield p
            seen.add(p)
            p = self.parent_of[p]

    def node_ext(self, i: int, name: str) -> Any:
        node = self.nodes[i] if 0 <= i < len(self.nodes) else None
        if not isinstance(node, dict) or not isinstance(node.get("extensions"), dict):
            return None
        return node["extensions"].get(name)

    def nodes_with(self, name: str) -> Iterator[tuple[int, str, dict[str, Any]]]:
        """(index, pointer, object) of every node carrying extension ``name``; non-objects are reported."""
        for i, raw in self.ext_index.raw(name):  # type: ignore[union-attr]  # one scan of the nodes, shared
            ptr = f"/nodes/{i}/extensions/{name}"
            if isinstance(raw, dict):
                yield i, ptr, raw
            else:
                self.obj(raw, ptr)

    def doc_ext(self, name: str) -> tuple[str, dict[str, Any]] | None:
        ext = self.gltf.get("extensions")
        if not isinstance(ext, dict) or name not in ext:
            return None
        ptr = f"/extensions/{name}"
        value = self.obj(ext[name], ptr)
        return (ptr, value) if value is not None else None

    # ---------------------------------------------------------------- typed getters
    def obj(self, value: Any, ptr: str) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.emit("GLTF-TYPE", ptr, f"expected a JSON object, found {_kind(value)}; write an object")
        return None

    def array(self, value: Any, ptr: str) -> list[Any] | None:
        if isinstance(value, list):
            return value
        self.emit("GLTF-TYPE", ptr, f"expected an array, found {_kind(value)}")
        return None

    def get_obj(self, o: dict[str, Any], key: str, ptr: str) -> dict[str, Any] | None:
        return self.obj(o[key], f"{ptr}/{key}") if key in o else None

    def number(self, o: dict[str, Any], key: str, ptr: str) -> float | None:
        """A finite number, or None when absent or reported (wrong type, NaN, ±∞)."""
        if key not in o:
            return None
        return self.number_value(o[key], f"{ptr}/{key}")

    def number_value(self, v: Any, ptr: str) -> float | None:
        if not is_num(v):
            self.emit("GLTF-TYPE", ptr, f"expected a number, found {_kind(v)}")
            return None
        if not is_finite(v):
            what = f"{v}" if isinstance(v, float) else "an integer beyond the range of a double"
            self.emit("GLTF-NUMBER", ptr, f"{what} is not a finite number; JSON cannot carry it, write a number")
            return None
        return float(v)

    def boolean(self, o: dict[str, Any], key: str, ptr: str) -> bool | None:
        if key not in o:
            return None
        if not isinstance(o[key], bool):
            self.emit("GLTF-TYPE", f"{ptr}/{key}", f"'{key}' must be true or false, found {_kind(o[key])}")
            return None
        return o[key]

    def string(self, o: dict[str, Any], key: str, ptr: str) -> str | None:
        if key not in o:
            return None
        if not isinstance(o[key], str):
            self.emit("GLTF-TYPE", f"{ptr}/{key}", f"'{key}' must be a string, found {_kind(o[key])}")
            return None
        return o[key]

    def numbers(self, o: dict[str, Any], key: str, ptr: str, n: int | None, code: str,
                severity: int | None = None) -> list[float] | None:
        """A vector of finite numbers; a wrong length (``n``) is reported under ``code`` (GEN-6, BODY-3…)."""
        if key not in o:
            return None
        value = self.array(o[key], f"{ptr}/{key}")
        if value is None:
            return None
        out = [self.number_value(v, f"{ptr}/{key}/{j}") for j, v in enumerate(value)]
        if any(v is None for v in out):
            return None
        if n is not None and len(out) != n:
            self.emit(code, f"{ptr}/{key}", f"'{key}' has {len(out)} numbers; it must have {n}", severity)
            return None
        return out  # type: ignore[return-value]

    def quaternion(self, o: dict[str, Any], key: str, ptr: str, code: str) -> list[float] | None:
        q = self.numbers(o, key, ptr, 4, code)
        if q is not None and abs(math.sqrt(sum(c * c for c in q)) - 1.0) > 1e-3:
            self.emit(code, f"{ptr}/{key}", f"'{key}' {q} is not a unit quaternion; normalize it (xyzw)")
        return q

    def strings(self, o: dict[str, Any], key: str, ptr: str) -> list[str] | None:
        if key not in o:
            return None
        value = self.array(o[key], f"{ptr}/{key}")
        if value is None:
            return None
        bad = [j for j, v in enumerate(value) if not isinstance(v, str)]
        for j in bad:
            self.emit("GLTF-TYPE", f"{ptr}/{key}/{j}", f"'{key}' entries must be strings, found "
                                                       f"{_kind(value[j])}")
        return None if bad else value

    def index(self, o: dict[str, Any], key: str, ptr: str, length: int, what: str, code: str = "GEN-2",
              required: bool = False, required_code: str | None = None) -> int | None:
        """An index into an array of ``length`` ``what``; -1 ⇒ absent with a GEN-3 warning (D-1)."""
        if key not in o:
            if required:
                self.emit(required_code or code, ptr, f"'{key}' is required: add the index of a {what}")
            return None
        return self.index_value(o[key], f"{ptr}/{key}", length, what, code)

    def index_value(self, v: Any, ptr: str, length: int, what: str, code: str = "GEN-2") -> int | None:
        if not is_int(v):
            if is_num(v) and math.isfinite(v) and float(v).is_integer():
                v = int(v)  # 2.0 is an integer in JSON terms
            else:
                self.emit("GLTF-TYPE", ptr, f"expected an integer index of a {what}, found {_kind(v)}")
                return None
        if v == -1:
            self.emit("GEN-3", ptr, f"-1 is read as 'no {what}' (D-1); omit the property instead")
            return None
        if not 0 <= v < length:
            where = f"0..{length - 1}" if length else "nothing (the array is empty or missing)"
            self.emit(code, ptr, f"{what} index {v} is out of range: valid indices are {where}")
            return None
        return v

    def enum(self, o: dict[str, Any], key: str, ptr: str, allowed: tuple[str, ...], code: str,
             required: bool = True, severity: int | None = None) -> str | None:
        if key not in o:
            if required:
                self.emit(code, ptr, f"'{key}' is required: one of {', '.join(allowed)}", severity)
            return None
        value = o[key]
        if not isinstance(value, str):
            self.emit("GLTF-TYPE", f"{ptr}/{key}", f"'{key}' must be a string, found {_kind(value)}")
            return None
        if value not in allowed:
            self.emit(code, f"{ptr}/{key}", f"'{key}' is {value!r}; expected one of {', '.join(allowed)}",
                      severity)
            return None
        return value

    def minimum(self, o: dict[str, Any], key: str, ptr: str, low: float, code: str, exclusive: bool = False,
                severity: int | None = None) -> float | None:
        v = self.number(o, key, ptr)
        if v is not None and (v < low or (exclusive and v == low)):
            rel = ">" if exclusive else "≥"
            self.emit(code, f"{ptr}/{key}", f"'{key}' is {v}; it must be {rel} {low:g}", severity)
        return v

    def items(self, o: dict[str, Any], key: str, ptr: str, code: str, what: str,
              required: bool = True) -> list[tuple[int, str, dict[str, Any]]]:
        """The objects of a document-level array that needs at least one entry (COL-1, SHAPE-1, KIS-1)."""
        if key not in o:
            if required:
                self.emit(code, ptr, f"'{key}' is required and needs at least one {what}")
            return []
        value = self.array(o[key], f"{ptr}/{key}")
        if value is None:
            return []
        if not value:
            self.emit(code, f"{ptr}/{key}", f"'{key}' is empty; it needs at least one {what}")
        out = []
        for j, item in enumerate(value):
            item_ptr = f"{ptr}/{key}/{j}"
            checked = self.obj(item, item_ptr)
            if checked is not None:
                out.append((j, item_ptr, checked))
        return out

    def axes(self, o: dict[str, Any], key: str, ptr: str, code: str) -> list[int] | None:
        """linearAxes/angularAxes: unique integers 0..2, at most 3 (KRB-6, JOINT1-3)."""
        if key not in o:
            return None
        value = self.array(o[key], f"{ptr}/{key}")
        if value is None:
            return None
        good = []
        for j, a in enumerate(value):
            if not is_int(a) or not 0 <= a <= 2:
                self.emit(code, f"{ptr}/{key}/{j}", f"axis {a!r} is not 0, 1 or 2 (x, y, z)")
            else:
                good.append(a)
        if len(set(good)) != len(good):
            self.emit(code, f"{ptr}/{key}", f"'{key}' {value} repeats an axis; list each axis once")
        return good

    # ---------------------------------------------------------------- hierarchy and meshes
    def is_strict_descendant(self, node: int, ancestor: int) -> bool:
        return ancestor in self.ancestors(node)

    def check_mesh(self, mesh: int, ptr: str, triangles_code: str, points_code: str | None,
                   max_points: int | None = None) -> None:
        """COL-5/SHAPE-5 (triangles, ≥1, one primitive) and COL-6/SHAPE-6 (hull point counts)."""
        meshes = self.gltf.get("meshes")
        m = meshes[mesh] if isinstance(meshes, list) and 0 <= mesh < len(meshes) else None
        prims = m.get("primitives") if isinstance(m, dict) else None
        if not isinstance(prims, list) or not prims:
            self.emit("GLTF-MESH", f"/meshes/{mesh}", "the mesh has no primitives; a physics shape needs "
                                                      "triangles")
            return
        triangles, points = 0, 0
        for j, prim in enumerate(prims):
            facts = self._primitive(prim, f"/meshes/{mesh}/primitives/{j}", ptr, triangles_code)
            if facts is not None:
                triangles += facts[0]
                points += facts[1]
        if triangles == 0:
            self.emit(triangles_code, ptr, f"mesh {mesh} has no triangles; a physics mesh needs at least one")
        if len(prims) > 1:
            self.emit(triangles_code, ptr, f"mesh {mesh} has {len(prims)} primitives; one primitive is "
                      "recommended (merge them)", WARNING)
        if points_code and points < 4:
            self.emit(points_code, ptr, f"mesh {mesh} has {points} points; a convex hull needs at least 4")
        if points_code and max_points and points > max_points:
            self.emit(points_code, ptr, f"mesh {mesh} has {points} points; a hull has at most {max_points}")

    def _primitive(self, prim: Any, pptr: str, ptr: str, code: str) -> tuple[int, int] | None:
        if not isinstance(prim, dict):
            self.emit("GLTF-TYPE", pptr, f"expected a primitive object, found {_kind(prim)}")
            return None
        mode = prim.get("mode", 4)
        if mode not in (4, 5, 6):
            self.emit(code, f"{pptr}/mode", f"primitive mode {mode!r} is not triangles (4, 5 or 6); "
                      "a physics mesh needs triangles")
            return None
        attrs = prim.get("attributes")
        points = self._accessor_count(attrs.get("POSITION") if isinstance(attrs, dict) else None,
                                      f"{pptr}/attributes/POSITION")
        if points is None:
            return None
        count = points
        if "indices" in prim:
            count = self._accessor_count(prim["indices"], f"{pptr}/indices")
            if count is None:
                return None
        triangles = count // 3 if mode == 4 else max(count - 2, 0)
        return triangles, points

    def _accessor_count(self, index: Any, ptr: str) -> int | None:
        accessors = self.gltf.get("accessors")
        ok = is_int(index) and isinstance(accessors, list) and 0 <= index < len(accessors)
        acc = accessors[index] if ok else None
        if not isinstance(acc, dict) or not is_int(acc.get("count")) or acc["count"] < 0:
            self.emit("GLTF-MESH", ptr, f"accessor {index!r} is missing or has no valid 'count'")
            return None
        return acc["count"]


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, str):
        return f"the string {v!r}" if len(v) < 40 else "a string"
    if is_num(v):
        return f"the number {v}"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def check_extensions_used(gltf: dict[str, Any], emit: Emit) -> None:
    """GEN-1: every physics extension present (document or node level) is listed in extensionsUsed."""
    used = gltf.get("extensionsUsed", [])
    if not isinstance(used, list):
        emit("GLTF-TYPE", "/extensionsUsed", "extensionsUsed must be an array of strings")
        used = []
    found: dict[str, str] = {}
    holders: list[tuple[str, Any]] = [("", gltf)]
    nodes = gltf.get("nodes")
    if isinstance(nodes, list):
        holders += [(f"/nodes/{i}", n) for i, n in enumerate(nodes)]
    for ptr, holder in holders:
        ext = holder.get("extensions") if isinstance(holder, dict) else None
        if isinstance(ext, dict):
            for name in ext:
                if name in PHYSICS_EXTENSIONS and name not in found:
                    found[name] = f"{ptr}/extensions/{name}"
    for name, ptr in found.items():
        if name not in used:
            emit("GEN-1", ptr, f"{name} is used but not listed in extensionsUsed; add it there")


Checker = Callable[..., None]  # check(gltf_json, emit, index: ExtIndex | None = None)


def node_family(gltf: dict[str, Any], node: int) -> str | None:
    """Which family declared the physics on a node, for semantic codes: 'collider' (OMI_collider),
    'omi' (OMI_physics_body/shape), 'khr' (either KHR generation) or None."""
    nodes = gltf.get("nodes")
    n = nodes[node] if isinstance(nodes, list) and 0 <= node < len(nodes) else None
    ext = n.get("extensions") if isinstance(n, dict) else None
    if not isinstance(ext, dict):
        return None
    if KHR_PHYSICS_RIGID_BODIES in ext or KHR_RIGID_BODIES in ext:
        return "khr"
    if OMI_COLLIDER in ext:
        return "collider"
    if OMI_PHYSICS_BODY in ext or OMI_PHYSICS_SHAPE in ext:
        return "omi"
    return None


def joint_family(gltf: dict[str, Any], node: int) -> str | None:
    """'joint1' (OMI constraints), 'joint' (OMI physicsJoints), 'khr' or None for a joint's node."""
    nodes = gltf.get("nodes")
    n = nodes[node] if isinstance(nodes, list) and 0 <= node < len(nodes) else None
    ext = n.get("extensions") if isinstance(n, dict) else None
    if not isinstance(ext, dict):
        return None
    if KHR_PHYSICS_RIGID_BODIES in ext or KHR_RIGID_BODIES in ext:
        return "khr"
    j = ext.get(OMI_PHYSICS_JOINT)
    if isinstance(j, dict):
        return "joint1" if "constraints" in j or "nodeA" in j else "joint"
    return None


def is_legacy_body(gltf: dict[str, Any], node: int) -> bool:
    """True for an OMI body of the 'type' generations (gen1-type, gen2-type-dynamic), where BT-3 applies."""
    nodes = gltf.get("nodes")
    n = nodes[node] if isinstance(nodes, list) and 0 <= node < len(nodes) else None
    ext = n.get("extensions") if isinstance(n, dict) else None
    body = ext.get(OMI_PHYSICS_BODY) if isinstance(ext, dict) else None
    return isinstance(body, dict) and "type" in body
