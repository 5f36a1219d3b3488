"""Core glTF 2.0 checks (the Khronos glTF-Validator's codes): the document's skeleton — asset, extension
lists, scenes, the node hierarchy and transforms, cameras, skins — then the buffer/mesh/animation modules.

Every pass is one walk over its array: the cost is linear in the document's size.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ...dialects.common.checks import Emit
from ...dialects.common.context import ExtIndex
from ...gltf.document import Document
from . import animations, buffers, meshes, usage
from .getters import Core, as_int, is_number

_VERSION = re.compile(r"^([0-9]+)\.([0-9]+)$")
_TRS = {"translation": 3, "rotation": 4, "scale": 3}
_UNIT_TOLERANCE = 0.00769  # |1 − length| the Khronos validator accepts for a quaternion


def check(gltf: dict[str, Any], emit: Emit, index: ExtIndex | None = None) -> None:
    """The JSON-only core checks (``index`` is accepted for the common checker signature)."""
    c = Core(gltf, emit)
    _top_level(c)
    _asset(c)
    _extension_lists(c)
    if "extensions" in gltf:
        c.extensions(gltf["extensions"], "")
    parent = _nodes(c)
    _scenes(c, parent)
    _cameras(c)
    _skins(c, parent)
    buffers.check(c)
    meshes.check(c)
    animations.check(c)
    usage.check(c)


def check_data(document: Document, emit: Emit) -> None:
    """The checks that read buffer bytes (accessor min/max, index ranges, animation times)."""
    gltf = document.json
    if isinstance(gltf, dict):
        c = Core(gltf, emit)
        buffers.check_data(c, document)
        meshes.check_data(c, document)
        meshes.check_images(c, document)
        animations.check_data(c, document)


def _top_level(c: Core) -> None:
    """``nodes`` is walked by :func:`_nodes`; the other arrays by :meth:`Core.objects`, which reports them."""
    if "nodes" in c.gltf:
        nodes = c.gltf["nodes"]
        if nodes.__class__ is not list:
            c.emit("TYPE_MISMATCH", "/nodes", "'nodes' must be an array of objects")
        elif not nodes:
            c.emit("EMPTY_ENTITY", "/nodes", "'nodes' must not be empty (omit it instead)")
        else:
            for i, item in enumerate(nodes):
                if item.__class__ is not dict:
                    c.emit("TYPE_MISMATCH", f"/nodes/{i}", "nodes entries must be objects")
    if "scene" in c.gltf:
        c.ref(c.gltf, "scene", "", "scenes")


def _asset(c: Core) -> None:
    asset = c.sub(c.gltf, "asset", "", required=True)
    if asset is None:
        return
    c.common(asset, "/asset")
    c.string(asset, "copyright", "/asset")
    c.string(asset, "generator", "/asset")
    version = _version(c, asset, "version", required=True)
    if version is not None and version[0] != 2:
        c.emit("UNKNOWN_ASSET_MAJOR_VERSION", "/asset/version", f"unknown glTF major asset version {version[0]}")
    minimum = _version(c, asset, "minVersion", required=False)
    if minimum is not None and version is not None and minimum > version:
        c.emit("ASSET_MIN_VERSION_GREATER_THAN_VERSION", "/asset/minVersion",
               f"minVersion {asset['minVersion']} is greater than version {asset['version']}")


def _version(c: Core, asset: dict[str, Any], key: str, required: bool) -> tuple[int, int] | None:
    text = c.string(asset, key, "/asset", required=required)
    if text is None:
        return None
    match = _VERSION.match(text)
    if match is None:
        c.emit("PATTERN_MISMATCH", f"/asset/{key}", f"'{text}' does not match the pattern MAJOR.MINOR")
        return None
    return int(match[1]), int(match[2])


def _extension_lists(c: Core) -> None:
    used = _names(c, "extensionsUsed")
    required = _names(c, "extensionsRequired")
    if "extensionsRequired" in c.gltf and "extensionsUsed" not in c.gltf:
        c.emit("UNSATISFIED_DEPENDENCY", "/extensionsRequired", "extensionsRequired needs extensionsUsed")
    for k, name in required:
        if name not in {n for _, n in used}:
            c.emit("UNUSED_EXTENSION_REQUIRED", f"/extensionsRequired/{k}",
                   f"extension {name} is required but not listed in extensionsUsed")


def _names(c: Core, key: str) -> list[tuple[int, str]]:
    if key not in c.gltf:
        return []
    value = c.gltf[key]
    if value.__class__ is not list:
        c.emit("TYPE_MISMATCH", f"/{key}", f"'{key}' must be an array of strings")
        return []
    if not value:
        c.emit("EMPTY_ENTITY", f"/{key}", f"'{key}' must not be empty (omit it instead)")
    out: list[tuple[int, str]] = []
    seen: set[str] = set()
    for k, name in enumerate(value):
        if name.__class__ is not str:
            c.emit("ARRAY_TYPE_MISMATCH", f"/{key}", f"'{key}' must hold only strings")
        elif name in seen:
            c.emit("DUPLICATE_ELEMENTS", f"/{key}/{k}", f"{name} is listed twice")
        else:
            seen.add(name)
            out.append((k, name))
    return out


# ---------------------------------------------------------------- nodes


def _nodes(c: Core) -> list[int | None]:
    nodes = c.gltf.get("nodes")
    if nodes.__class__ is not list:
        return []
    parent: list[int | None] = [None] * len(nodes)
    matrices: list[tuple[str, list[float]]] = []
    for i, node in enumerate(nodes):
        if node.__class__ is dict:
            _node(c, node, i, parent, matrices)
    _non_trs(c, matrices)
    _loops(c, parent)
    return parent


def _node(c: Core, node: dict[str, Any], i: int, parent: list[int | None],
          matrices: list[tuple[str, list[float]]]) -> None:
    # One dispatch per present key, and no pointer built unless something is reported: nodes are the
    # document's biggest array.
    for key, value in node.items():
        if key in _TRS:
            if key == "rotation" or value.__class__ is not list or len(value) != _TRS[key] or not _plain(value):
                _trs(c, node, key, f"/nodes/{i}")
        elif key == "children":
            _children(c, value, i, parent)
        elif key == "extensions":
            if value.__class__ is not dict or not c.used.issuperset(value):
                c.extensions(value, f"/nodes/{i}")
        elif key in ("mesh", "camera", "skin"):
            if c.ref(node, key, f"/nodes/{i}", f"{key}es" if key == "mesh" else f"{key}s") is not None \
                    and key == "skin":
                _skinned_mesh(c, node, f"/nodes/{i}")
        elif key == "matrix":
            _matrix(c, node, f"/nodes/{i}", matrices)
        elif key == "weights":
            _node_weights(c, node, f"/nodes/{i}")
        elif key == "name" and value.__class__ is not str:
            c.string(node, "name", f"/nodes/{i}")


def _plain(values: list[Any]) -> bool:
    """Every item a finite JSON number (NaN fails both comparisons)."""
    for v in values:  # noqa: SIM110 (a plain loop: all() over a generator is twice as slow here)
        if not (v.__class__ is int or (v.__class__ is float and -math.inf < v < math.inf)):
            return False
    return True


def _matrix(c: Core, node: dict[str, Any], ptr: str, matrices: list[tuple[str, list[float]]]) -> None:
    values = c.numbers(node, "matrix", ptr, (16,))
    if values is not None:
        matrices.append((ptr, values))  # tested for TRS all at once (_non_trs)
    if "translation" in node or "rotation" in node or "scale" in node:
        c.emit("NODE_MATRIX_TRS", f"{ptr}/matrix", "a node has either a matrix or translation/rotation/scale, "
                                                  "not both")


def _non_trs(c: Core, matrices: list[tuple[str, list[float]]]) -> None:
    """NODE_MATRIX_NON_TRS (the Khronos validator's test) on every node matrix in one NumPy pass."""
    if not matrices:
        return
    from ...gltf.transforms import non_trs_reasons  # numpy: only for a document that has node matrices

    for (ptr, _), reason in zip(matrices, non_trs_reasons([v for _, v in matrices]), strict=True):
        if reason is not None:
            c.emit("NODE_MATRIX_NON_TRS", f"{ptr}/matrix", f"the matrix must decompose into translation, rotation "
                                                          f"and scale, but {reason}")


def _trs(c: Core, node: dict[str, Any], key: str, ptr: str) -> None:
    rotation = key == "rotation"
    values = c.numbers(node, key, ptr, (_TRS[key],), lo=-1.0 if rotation else None, hi=1.0 if rotation else None)
    if rotation and values is not None and abs(1.0 - math.sqrt(sum(v * v for v in values))) > _UNIT_TOLERANCE:
        c.emit("ROTATION_NON_UNIT", f"{ptr}/rotation", "the rotation quaternion must have unit length")


def _node_weights(c: Core, node: dict[str, Any], ptr: str) -> None:
    weights = c.numbers(node, "weights", ptr, None)
    mesh = as_int(node.get("mesh"))
    if weights is None or mesh is None:
        return
    targets = meshes.target_count(c.gltf, mesh)
    if targets is not None and targets != len(weights):
        c.emit("NODE_WEIGHTS_INVALID", f"{ptr}/weights", f"{len(weights)} weights but the mesh has {targets} "
                                                         "morph targets")


def _children(c: Core, children: Any, i: int, parent: list[int | None]) -> None:
    if children.__class__ is not list:
        c.emit("TYPE_MISMATCH", f"/nodes/{i}/children", "'children' must be an array of node indices")
        return
    if not children:
        c.emit("EMPTY_ENTITY", f"/nodes/{i}/children", "'children' must not be empty (omit it instead)")
    n = len(parent)
    for k, ch in enumerate(children):
        # The common case (a fresh, valid child) builds no pointer.
        if ch.__class__ is int and 0 <= ch < n and parent[ch] is None:
            parent[ch] = i
        else:
            _bad_child(c, ch, f"/nodes/{i}/children/{k}", i, parent)


def _bad_child(c: Core, ch: Any, where: str, i: int, parent: list[int | None]) -> None:
    value = as_int(ch)
    if value is None or value < 0:
        c.emit("INVALID_INDEX", where, f"child {ch!r} is not a non-negative integer index")
    elif value >= len(parent):
        c.emit("UNRESOLVED_REFERENCE", where, f"unresolved reference: node {value} (there are {len(parent)})")
    elif parent[value] == i:
        c.emit("DUPLICATE_ELEMENTS", where, f"child {value} is listed twice")
    elif parent[value] is not None:
        c.emit("NODE_PARENT_OVERRIDE", where, f"node {value} already has parent {parent[value]}; a node has "
                                              "one parent")
    else:
        parent[value] = i


def _loops(c: Core, parent: list[int | None]) -> None:
    """Linear: colour each chain once (0 unvisited, 1 on the current walk, 2 done)."""
    state = [0] * len(parent)
    for start in range(len(parent)):
        walk = []
        n: int | None = start
        while n is not None and state[n] == 0:
            state[n] = 1
            walk.append(n)
            n = parent[n]
        if n is not None and state[n] == 1:
            _report_loop(c, parent, n)
        for w in walk:
            state[w] = 2


def _report_loop(c: Core, parent: list[int | None], start: int) -> None:
    """NODE_LOOP on every node of the loop through ``start`` (each loop is found once)."""
    n: int | None = start
    while True:
        c.emit("NODE_LOOP", f"/nodes/{n}", f"node {n} is part of a node loop (it is its own ancestor)")
        n = parent[n]  # type: ignore[index]
        if n is None or n == start:
            return


def _skinned_mesh(c: Core, node: dict[str, Any], ptr: str) -> None:
    """A node with a skin draws a mesh whose primitives carry JOINTS_0."""
    mesh = as_int(node.get("mesh"))
    meshes = c.gltf.get("meshes")
    if mesh is None or meshes.__class__ is not list or not 0 <= mesh < len(meshes):
        return
    prims = meshes[mesh].get("primitives") if meshes[mesh].__class__ is dict else None
    first = prims[0] if prims.__class__ is list and prims else None
    attrs = first.get("attributes") if first.__class__ is dict else None
    if attrs.__class__ is dict and "JOINTS_0" not in attrs:
        c.emit("NODE_SKIN_WITH_NON_SKINNED_MESH", ptr, f"the node has a skin but mesh {mesh} has no joints data")


# ---------------------------------------------------------------- scenes, cameras, skins


def _scenes(c: Core, parent: list[int | None]) -> None:
    for _s, ptr, scene in c.objects(c.gltf, "scenes", ""):
        c.common(scene, ptr)
        if "nodes" not in scene:
            continue
        for k, n in _ref_positions(c, scene, "nodes", ptr):
            if n < len(parent) and parent[n] is not None:
                c.emit("SCENE_NON_ROOT_NODE", f"{ptr}/nodes/{k}", f"node {n} is not a root node (its parent is "
                                                                  f"node {parent[n]})")


def _ref_positions(c: Core, o: dict[str, Any], key: str, ptr: str) -> list[tuple[int, int]]:
    """(position, index) of the resolvable indices of ``o[key]`` (reported like :meth:`Core.refs`)."""
    good = set(c.refs(o, key, ptr, "nodes"))
    value = o.get(key)
    out = []
    if value.__class__ is list:
        for k, v in enumerate(value):
            i = as_int(v)
            if i is not None and i in good:
                out.append((k, i))
                good.discard(i)
    return out


def _cameras(c: Core) -> None:
    for _, ptr, cam in c.objects(c.gltf, "cameras", ""):
        c.common(cam, ptr)
        kind = c.enum(cam, "type", ptr, ("perspective", "orthographic"), required=True)
        persp = c.sub(cam, "perspective", ptr, required=kind == "perspective")
        ortho = c.sub(cam, "orthographic", ptr, required=kind == "orthographic")
        if persp is not None:
            _perspective(c, persp, f"{ptr}/perspective")
        if ortho is not None:
            _orthographic(c, ortho, f"{ptr}/orthographic")


def _perspective(c: Core, p: dict[str, Any], ptr: str) -> None:
    c.number(p, "aspectRatio", ptr, lo=0.0, lo_open=True)
    c.number(p, "yfov", ptr, required=True, lo=0.0, lo_open=True)
    znear = c.number(p, "znear", ptr, required=True, lo=0.0, lo_open=True)
    zfar = c.number(p, "zfar", ptr, lo=0.0, lo_open=True)
    if znear is not None and zfar is not None and zfar <= znear:
        c.emit("CAMERA_ZFAR_LEQUAL_ZNEAR", ptr, f"zfar {zfar} must be greater than znear {znear}")


def _orthographic(c: Core, o: dict[str, Any], ptr: str) -> None:
    for key in ("xmag", "ymag"):
        if c.number(o, key, ptr, required=True) == 0:
            c.emit("CAMERA_XMAG_YMAG_ZERO", ptr, "xmag and ymag must not be zero")
    znear = c.number(o, "znear", ptr, required=True, lo=0.0)
    zfar = c.number(o, "zfar", ptr, required=True, lo=0.0, lo_open=True)
    if znear is not None and zfar is not None and zfar <= znear:
        c.emit("CAMERA_ZFAR_LEQUAL_ZNEAR", ptr, f"zfar {zfar} must be greater than znear {znear}")


def _skins(c: Core, parent: list[int | None]) -> None:
    accessors = c.gltf.get("accessors")
    for _, ptr, skin in c.objects(c.gltf, "skins", ""):
        c.common(skin, ptr)
        joints = c.refs(skin, "joints", ptr, "nodes", required=True)
        skeleton = c.ref(skin, "skeleton", ptr, "nodes")
        _skin_roots(c, joints, skeleton, parent, ptr)
        ibm = c.ref(skin, "inverseBindMatrices", ptr, "accessors")
        acc = accessors[ibm] if ibm is not None else None
        if acc.__class__ is not dict:
            continue
        where = f"{ptr}/inverseBindMatrices"
        if acc.get("type") != "MAT4" or acc.get("componentType") != 5126:
            c.emit("SKIN_IBM_INVALID_FORMAT", where, "inverseBindMatrices must be a FLOAT MAT4 accessor")
        count = acc.get("count")
        if is_number(count) and count < len(joints):
            c.emit("INVALID_IBM_ACCESSOR_COUNT", where, f"inverseBindMatrices has {count} elements for "
                                                        f"{len(joints)} joints")


def _chain(node: int, parent: list[int | None]) -> list[int]:
    """``node`` and its ancestors up to its root (stops on a loop: NODE_LOOP reports those)."""
    out, seen = [node], {node}
    p = parent[node]
    while p is not None and p not in seen:
        out.append(p)
        seen.add(p)
        p = parent[p]
    return out


def _skin_roots(c: Core, joints: list[int], skeleton: int | None, parent: list[int | None], ptr: str) -> None:
    """All joints share one root; a skeleton is an ancestor (or itself one) of every joint."""
    if not joints or len(parent) == 0:
        return
    chains = [_chain(j, parent) for j in joints if j < len(parent)]
    if len({chain[-1] for chain in chains}) > 1:
        c.emit("SKIN_NO_COMMON_ROOT", f"{ptr}/joints", "the joints do not have a common root")
    elif skeleton is not None and not all(skeleton in chain for chain in chains):
        c.emit("SKIN_SKELETON_INVALID", f"{ptr}/skeleton", f"node {skeleton} is not a common root of the joints")
