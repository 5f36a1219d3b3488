"""What each accessor and bufferView is used for: one accessor (or bufferView) serving two kinds of data is
ACCESSOR_USAGE_OVERRIDE (BUFFER_VIEW_TARGET_OVERRIDE), as the Khronos validator reports it.

Uses are visited in the Khronos validator's order — meshes (attributes, then indices), skins, images,
animations — so the second, conflicting use is the one reported. A bufferView's declared ``target`` counts as
its first use. Animation inputs and outputs are two kinds of accessor use but one kind of bufferView use.
"""

from __future__ import annotations

from typing import Any

from .getters import Core, as_int

_TARGETS = {34962: "vertex", 34963: "index"}


class _Usage:
    def __init__(self, c: Core) -> None:
        self.c = c
        acc, views = c.gltf.get("accessors"), c.gltf.get("bufferViews")
        self.accessors = acc if acc.__class__ is list else []
        self.views = views if views.__class__ is list else []
        self.acc_use: dict[int, str] = {}
        self.vertex_views: dict[int, int] = {}  # bufferView → the first vertex accessor read from it
        self.view_use: dict[int, str] = {}
        for v, view in enumerate(self.views):
            target = as_int(view.get("target")) if view.__class__ is dict else None
            if target in _TARGETS:
                self.view_use[v] = _TARGETS[target]  # type: ignore[index]

    def accessor(self, value: Any, kind: str, where: str) -> None:
        a = as_int(value)
        if a is None or not 0 <= a < len(self.accessors) or self.accessors[a].__class__ is not dict:
            return
        first = self.acc_use.setdefault(a, kind)
        if first != kind:
            self.c.emit("ACCESSOR_USAGE_OVERRIDE", where, f"accessor {a} is used as {kind} data, first as {first}")
        # Keyframe inputs and outputs may share a bufferView: for views they are one kind of data.
        v = self.view(self.accessors[a].get("bufferView"), kind.split()[0], where)
        if kind == "vertex" and v is not None and self.vertex_views.setdefault(v, a) != a \
                and "byteStride" not in self.views[v]:
            self.c.emit("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", where, f"bufferView {v} serves several vertex "
                                                                             "accessors: it must define byteStride")

    def view(self, value: Any, kind: str, where: str) -> int | None:
        v = as_int(value)
        if v is None or not 0 <= v < len(self.views) or self.views[v].__class__ is not dict:
            return None
        first = self.view_use.setdefault(v, kind)
        if first != kind:
            self.c.emit("BUFFER_VIEW_TARGET_OVERRIDE", where, f"bufferView {v} holds {kind} data, first used for "
                                                              f"{first}")
        return v


def check(c: Core) -> None:
    u = _Usage(c)
    for m, mesh in enumerate(_list(c.gltf, "meshes")):
        for p, prim in enumerate(_list(mesh, "primitives")):
            _primitive(u, prim, f"/meshes/{m}/primitives/{p}")
    for s, skin in enumerate(_list(c.gltf, "skins")):
        if "inverseBindMatrices" in skin:
            u.accessor(skin["inverseBindMatrices"], "inverse bind matrix", f"/skins/{s}/inverseBindMatrices")
    for i, image in enumerate(_list(c.gltf, "images")):
        if "bufferView" in image:
            u.view(image["bufferView"], "image", f"/images/{i}/bufferView")
    for a, anim in enumerate(_list(c.gltf, "animations")):
        for s, sampler in enumerate(_list(anim, "samplers")):
            for key in ("input", "output"):
                if key in sampler:
                    u.accessor(sampler[key], f"animation {key}", f"/animations/{a}/samplers/{s}/{key}")


def _primitive(u: _Usage, prim: dict[str, Any], ptr: str) -> None:
    attrs = prim.get("attributes")
    if attrs.__class__ is dict:
        for name, value in attrs.items():
            u.accessor(value, "vertex", f"{ptr}/attributes/{name}")
    if "indices" in prim:
        u.accessor(prim["indices"], "index", f"{ptr}/indices")


def _list(holder: Any, key: str) -> list[dict[str, Any]]:
    """The object entries of ``holder[key]`` (anything else is reported by the schema checks)."""
    value = holder.get(key) if holder.__class__ is dict else None
    return [v if v.__class__ is dict else {} for v in value] if value.__class__ is list else []
