"""Core checks of meshes and primitives (attributes, formats, indices, morph targets), materials, textures,
images and samplers.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ...gltf import uris
from ...gltf.document import Document
from ...gltf.errors import GltfError
from ...gltf.layout import COMPONENT_DTYPES, TYPE_COMPONENTS
from .buffers import read_quietly
from .getters import Core, accessor_format, as_int, is_number

_ATTRIBUTE = re.compile(r"^(POSITION|NORMAL|TANGENT|(TEXCOORD|COLOR|JOINTS|WEIGHTS)_(0|[1-9][0-9]*)|_.*)$")
F, UB, US = 5126, 5121, 5123
# semantic → allowed (type, componentType, normalized) formats (glTF 2.0 the spec.2.1)
_FLOATISH = ((F, False), (UB, True), (US, True))
_FORMATS: dict[str, set[tuple[str, int, bool]]] = {
    "POSITION": {("VEC3", F, False)},
    "NORMAL": {("VEC3", F, False)},
    "TANGENT": {("VEC4", F, False)},
    "TEXCOORD": {("VEC2", ct, n) for ct, n in _FLOATISH},
    "COLOR": {(t, ct, n) for t in ("VEC3", "VEC4") for ct, n in _FLOATISH},
    "JOINTS": {("VEC4", UB, False), ("VEC4", US, False)},
    "WEIGHTS": {("VEC4", ct, n) for ct, n in _FLOATISH},
}
_TEXTURE_KEYS = ("baseColorTexture", "metallicRoughnessTexture")


def check(c: Core) -> None:
    texcoords = _materials(c)
    for _m, ptr, mesh in c.objects(c.gltf, "meshes", ""):
        _mesh(c, mesh, ptr, texcoords)
    for _, ptr, tex in c.objects(c.gltf, "textures", ""):
        c.common(tex, ptr)
        c.ref(tex, "sampler", ptr, "samplers")
        c.ref(tex, "source", ptr, "images")
    _images(c)
    for _, ptr, sampler in c.objects(c.gltf, "samplers", ""):
        c.common(sampler, ptr)
        c.enum(sampler, "magFilter", ptr, (9728, 9729))
        c.enum(sampler, "minFilter", ptr, (9728, 9729, 9984, 9985, 9986, 9987))
        c.enum(sampler, "wrapS", ptr, (33071, 33648, 10497))
        c.enum(sampler, "wrapT", ptr, (33071, 33648, 10497))


def target_count(gltf: dict[str, Any], mesh: int) -> int | None:
    """The number of morph targets of mesh ``mesh`` (its first primitive's), ``None`` when unknown."""
    meshes = gltf.get("meshes")
    if meshes.__class__ is not list or not 0 <= mesh < len(meshes) or meshes[mesh].__class__ is not dict:
        return None
    prims = meshes[mesh].get("primitives")
    if prims.__class__ is not list or not prims or prims[0].__class__ is not dict:
        return None
    targets = prims[0].get("targets", [])
    return len(targets) if targets.__class__ is list else None


# ---------------------------------------------------------------- meshes


def _mesh(c: Core, mesh: dict[str, Any], ptr: str, texcoords: dict[int, set[int]]) -> None:
    c.common(mesh, ptr)
    targets: set[int] = set()
    for _, pptr, prim in c.objects(mesh, "primitives", ptr, required=True):
        targets.add(_primitive(c, prim, pptr, texcoords))
    if len(targets) > 1:
        c.emit("MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", ptr, "all primitives must have the same number of "
                                                             "morph targets")
    weights = c.numbers(mesh, "weights", ptr, None)
    if weights is not None and len(targets) == 1 and len(weights) != next(iter(targets)):
        c.emit("MESH_INVALID_WEIGHTS_COUNT", f"{ptr}/weights", f"{len(weights)} weights but {next(iter(targets))} "
                                                               "morph targets")


def _primitive(c: Core, prim: dict[str, Any], ptr: str, texcoords: dict[int, set[int]]) -> int:
    """Checks one primitive; returns its number of morph targets."""
    c.common(prim, ptr)
    c.integer(prim, "mode", ptr, hi=6)
    material = c.ref(prim, "material", ptr, "materials")
    indices = c.ref(prim, "indices", ptr, "accessors")
    if indices is not None:
        _indices(c, indices, f"{ptr}/indices")
    attrs = c.sub(prim, "attributes", ptr, required=True)
    counts = _attributes(c, attrs, f"{ptr}/attributes", base=True) if attrs is not None else {}
    if material is not None and attrs is not None:
        for n in sorted(texcoords.get(material, ())):
            if f"TEXCOORD_{n}" not in attrs:
                c.emit("MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", f"{ptr}/material",
                       f"material {material} needs attribute TEXCOORD_{n}")
    targets = prim.get("targets")
    if targets is None:
        return 0
    for _t, tptr, target in c.objects(prim, "targets", ptr):
        _target(c, target, tptr, counts)
    return len(targets) if targets.__class__ is list else 0


def _attributes(c: Core, attrs: dict[str, Any], ptr: str, base: bool) -> dict[str, int]:
    """Checks names, references and formats; returns semantic → accessor count."""
    if not attrs:
        c.emit("EMPTY_ENTITY", ptr, "'attributes' must not be empty")
    accessors = c.gltf.get("accessors")
    counts: dict[str, int] = {}
    for name in attrs:
        where = f"{ptr}/{name}"
        if not _ATTRIBUTE.match(name):
            c.emit("MESH_PRIMITIVE_INVALID_ATTRIBUTE", where, f"'{name}' is not a glTF attribute semantic")
            continue
        a = c.index_value(attrs[name], where, "accessors", in_map=True)
        if a is None or accessors[a].__class__ is not dict:
            continue
        acc = accessors[a]
        if base:
            _attribute_format(c, name, acc, where)
        count = as_int(acc.get("count"))
        if count is not None:
            counts[name] = count
    if base and len(set(counts.values())) > 1:
        first = next(iter(counts.values()))
        odd = next(name for name, n in counts.items() if n != first)
        c.emit("MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT", f"{ptr}/{odd}", f"{odd} has {counts[odd]} elements, the "
                                                                        f"first attribute {first}")
    return counts


def _attribute_format(c: Core, name: str, acc: dict[str, Any], where: str) -> None:
    semantic = name.split("_", 1)[0] if name[0] != "_" else ""
    formats = _FORMATS.get(semantic)
    if formats is not None:
        fmt = accessor_format(acc)
        if fmt not in formats:
            c.emit("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", where,
                   f"accessor format {fmt[0]}/{fmt[1]}{' normalized' if fmt[2] else ''} is not valid for {name}")
    if name == "POSITION" and not (_bound(acc, "min") and _bound(acc, "max")):
        c.emit("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", where, "the POSITION accessor must define "
                                                                         "min and max")
    _vertex_alignment(c, acc, where)


def _bound(acc: dict[str, Any], key: str) -> bool:
    """``min``/``max`` has one number per component (so the type and componentType are known)."""
    type_, ctype, _ = accessor_format(acc)
    value = acc.get(key)
    return (value.__class__ is list and type_ in TYPE_COMPONENTS and len(value) == TYPE_COMPONENTS[type_]
            and ctype in COMPONENT_DTYPES and all(is_number(v) for v in value))


def _vertex_alignment(c: Core, acc: dict[str, Any], where: str) -> None:
    view = _view_of(c, acc)
    if view is None:
        return
    offset = as_int(view.get("byteOffset", 0) or 0)
    local = as_int(acc.get("byteOffset", 0) or 0)
    if None not in (offset, local) and (offset + local) % 4:  # type: ignore[operator]
        c.emit("MESH_PRIMITIVE_ACCESSOR_UNALIGNED", where, "vertex attribute data must be aligned to 4 bytes")


def _view_of(c: Core, acc: dict[str, Any]) -> dict[str, Any] | None:
    v = as_int(acc.get("bufferView"))
    views = c.gltf.get("bufferViews")
    if v is None or views.__class__ is not list or not 0 <= v < len(views) or views[v].__class__ is not dict:
        return None
    return views[v]


def _indices(c: Core, i: int, where: str) -> None:
    acc = c.gltf["accessors"][i]
    if acc.__class__ is not dict:
        return
    if acc.get("type") != "SCALAR" or acc.get("componentType") not in (5121, 5123, 5125) or acc.get("normalized"):
        c.emit("MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT", where, "indices must be an unsigned byte/short/"
                                                                        "int SCALAR accessor")
    view = _view_of(c, acc)
    if view is not None and "byteStride" in view:
        c.emit("MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE", where, "the indices accessor's bufferView must "
                                                                         "not define byteStride")


def _target(c: Core, target: dict[str, Any], ptr: str, base: dict[str, int]) -> None:
    counts = _attributes(c, target, ptr, base=False)
    for name in target:
        if not _ATTRIBUTE.match(name):
            continue
        if name not in base:
            c.emit("MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR", f"{ptr}/{name}", f"the primitive has no {name} "
                                                                                   "attribute")
        elif name in counts and counts[name] != base[name]:
            c.emit("MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT", f"{ptr}/{name}",
                   f"count {counts[name]} differs from the base accessor's {base[name]}")


# ---------------------------------------------------------------- materials, images


def _materials(c: Core) -> dict[int, set[int]]:
    """Checks every material; returns material → the TEXCOORD sets its textures use."""
    texcoords: dict[int, set[int]] = {}
    for m, ptr, mat in c.objects(c.gltf, "materials", ""):
        c.common(mat, ptr)
        used: set[int] = set()
        pbr = c.sub(mat, "pbrMetallicRoughness", ptr)
        if pbr is not None:
            pptr = f"{ptr}/pbrMetallicRoughness"
            c.common(pbr, pptr)
            c.numbers(pbr, "baseColorFactor", pptr, (4,), lo=0.0, hi=1.0)
            c.number(pbr, "metallicFactor", pptr, lo=0.0, hi=1.0)
            c.number(pbr, "roughnessFactor", pptr, lo=0.0, hi=1.0)
            for key in _TEXTURE_KEYS:
                _texture_info(c, pbr, key, pptr, used)
        _texture_info(c, mat, "normalTexture", ptr, used, "scale")
        _texture_info(c, mat, "occlusionTexture", ptr, used, "strength")
        _texture_info(c, mat, "emissiveTexture", ptr, used)
        c.numbers(mat, "emissiveFactor", ptr, (3,), lo=0.0, hi=1.0)
        c.enum(mat, "alphaMode", ptr, ("OPAQUE", "MASK", "BLEND"))
        c.number(mat, "alphaCutoff", ptr, lo=0.0)
        c.boolean(mat, "doubleSided", ptr)
        texcoords[m] = used
    return texcoords


def _texture_info(c: Core, holder: dict[str, Any], key: str, ptr: str, used: set[int],
                  extra: str | None = None) -> None:
    info = c.sub(holder, key, ptr)
    if info is None:
        return
    where = f"{ptr}/{key}"
    c.common(info, where)
    c.ref(info, "index", where, "textures", required=True)
    tc = c.integer(info, "texCoord", where)
    used.add(tc if tc is not None else 0)
    if extra == "strength":
        c.number(info, "strength", where, lo=0.0, hi=1.0)
    elif extra == "scale":
        c.number(info, "scale", where)


def _images(c: Core) -> None:
    for _, ptr, image in c.objects(c.gltf, "images", ""):
        c.common(image, ptr)
        c.string(image, "uri", ptr)
        c.enum(image, "mimeType", ptr, ("image/jpeg", "image/png"))
        view = c.ref(image, "bufferView", ptr, "bufferViews")
        has_uri, has_view = image.get("uri").__class__ is str, "bufferView" in image
        if has_uri == has_view:
            c.emit("ONE_OF_MISMATCH", ptr, "exactly one of 'uri' and 'bufferView' must be defined")
        if has_view and "mimeType" not in image:
            c.emit("UNSATISFIED_DEPENDENCY", f"{ptr}/bufferView", "'bufferView' needs 'mimeType' to be defined")
        if view is not None:
            data_view = c.gltf["bufferViews"][view]
            if data_view.__class__ is dict and "byteStride" in data_view:
                c.emit("IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE", f"{ptr}/bufferView", "an image's bufferView must not "
                                                                                 "define byteStride")


# ---------------------------------------------------------------- data


def check_images(c: Core, document: Document) -> None:
    """Every image file a relative uri names exists beside the document (the loader reads buffers, not images)."""
    folder = document.path.parent if getattr(document, "path", None) else None
    images = c.gltf.get("images")
    if folder is None or images.__class__ is not list:
        return
    for i, image in enumerate(images):
        uri = image.get("uri") if image.__class__ is dict else None
        if uri.__class__ is not str or uri.startswith("data:"):
            continue
        try:
            missing = not uris.resolve(folder, uri, f"/images/{i}/uri").is_file()
        except (GltfError, OSError, ValueError):
            missing = True
        if missing:
            c.emit("IO_ERROR", f"/images/{i}/uri", f"image file {uri[:80]!r} cannot be read")


def check_data(c: Core, document: Document) -> None:
    """Every index of an indexed primitive is below its vertex count; normals are unit vectors."""
    meshes, accessors = c.gltf.get("meshes"), c.gltf.get("accessors")
    if meshes.__class__ is not list or accessors.__class__ is not list:
        return
    for m, mesh in enumerate(meshes):
        prims = mesh.get("primitives") if mesh.__class__ is dict else None
        for p, prim in enumerate(prims if prims.__class__ is list else ()):
            if prim.__class__ is dict:
                _index_range(c, document, prim, f"/meshes/{m}/primitives/{p}", accessors)
    _normals(c, document, accessors, set())


def _normals(c: Core, document: Document, accessors: list[Any], seen: set[int]) -> None:
    """NORMAL data is unit length (|1 − length| ≤ 0.00674, the Khronos validator's tolerance)."""
    for m, mesh in enumerate(c.gltf["meshes"]):
        prims = mesh.get("primitives") if mesh.__class__ is dict else None
        for p, prim in enumerate(prims if prims.__class__ is list else ()):
            attrs = prim.get("attributes") if prim.__class__ is dict else None
            a = as_int(attrs.get("NORMAL")) if attrs.__class__ is dict else None
            if a is None or a in seen or not 0 <= a < len(accessors) or accessors[a].__class__ is not dict:
                continue
            seen.add(a)
            if accessor_format(accessors[a]) != ("VEC3", 5126, False):
                continue
            values = read_quietly(document, a)
            if values is None or not len(values) or not np.isfinite(values).all():
                continue
            bad = np.flatnonzero(np.abs(np.linalg.norm(values.astype(np.float64), axis=1) - 1.0) > 0.00674)
            if len(bad):
                c.emit("ACCESSOR_VECTOR3_NON_UNIT", f"/meshes/{m}/primitives/{p}/attributes/NORMAL",
                       f"{len(bad)} normals are not of unit length (first at element {int(bad[0])})")


def _index_range(c: Core, document: Document, prim: dict[str, Any], ptr: str, accessors: list[Any]) -> None:
    i, attrs = as_int(prim.get("indices")), prim.get("attributes")
    if i is None or attrs.__class__ is not dict or not 0 <= i < len(accessors):
        return
    counts = [as_int(accessors[a].get("count")) for a in map(as_int, attrs.values())
              if a is not None and 0 <= a < len(accessors) and accessors[a].__class__ is dict]
    if None in counts or accessors[i].__class__ is not dict:
        return
    if accessors[i].get("componentType") not in (5121, 5123, 5125):
        return
    values = read_quietly(document, i)
    if values is None or not len(values):
        return
    vertices = counts[0] if counts else 0  # the first attribute's count, as the Khronos validator takes it
    over = np.flatnonzero(values[:, 0] >= vertices)
    if len(over):
        k = int(over[0])
        c.emit("ACCESSOR_INDEX_OOB", f"{ptr}/indices", f"index {int(values[k, 0])} at {k} is not below the vertex "
                                                       f"count {vertices}")
