"""Core checks of animations: samplers (input/output accessors, interpolation, counts) and channels
(targets, paths, duplicates), plus the keyframe times in the data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...gltf.document import Document
from . import meshes
from .buffers import read_quietly
from .getters import Core, accessor_format, as_int, is_number

_PATHS = ("translation", "rotation", "scale", "weights")
_NORMALIZED = (5120, 5121, 5122, 5123)
# path → allowed (type, componentType, normalized) output formats (glTF 2.0 the spec)
_OUTPUTS: dict[str, set[tuple[str, int, bool]]] = {
    "translation": {("VEC3", 5126, False)},
    "scale": {("VEC3", 5126, False)},
    "rotation": {("VEC4", 5126, False), *{("VEC4", ct, True) for ct in _NORMALIZED}},
    "weights": {("SCALAR", 5126, False), *{("SCALAR", ct, True) for ct in _NORMALIZED}},
}


def check(c: Core) -> None:
    for _, ptr, anim in c.objects(c.gltf, "animations", ""):
        c.common(anim, ptr)
        samplers = _samplers(c, anim, ptr)
        _channels(c, anim, ptr, samplers)


def _accessor(c: Core, i: int | None) -> dict[str, Any] | None:
    if i is None:
        return None
    acc = c.gltf["accessors"][i]
    return acc if acc.__class__ is dict else None


def _samplers(c: Core, anim: dict[str, Any], ptr: str) -> dict[int, tuple[Any, Any, str]]:
    """sampler index → (input accessor, output accessor, interpolation) for the channels' checks."""
    out: dict[int, tuple[Any, Any, str]] = {}
    for s, sptr, sampler in c.objects(anim, "samplers", ptr, required=True):
        c.common(sampler, sptr)
        inp = _accessor(c, c.ref(sampler, "input", sptr, "accessors", required=True))
        output = _accessor(c, c.ref(sampler, "output", sptr, "accessors", required=True))
        interpolation = c.enum(sampler, "interpolation", sptr, ("LINEAR", "STEP", "CUBICSPLINE")) or "LINEAR"
        if inp is not None:
            _input(c, inp, f"{sptr}/input", interpolation)
        for key, acc in (("input", inp), ("output", output)):
            view = meshes._view_of(c, acc) if acc is not None else None
            if view is not None and "byteStride" in view:
                c.emit("ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", f"{sptr}/{key}", "an animation sampler "
                                                                                      "accessor's bufferView must "
                                                                                      "not define byteStride")
        out[s] = (inp, output, interpolation)
    return out


def _input(c: Core, acc: dict[str, Any], where: str, interpolation: str) -> None:
    if acc.get("type") != "SCALAR" or acc.get("componentType") != 5126 or acc.get("normalized") is True:
        c.emit("ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", where, "the input accessor must be a FLOAT "
                                                                         "SCALAR")
    if not (_has_bound(acc, "min") and _has_bound(acc, "max")):
        c.emit("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", where, "the input accessor must define min "
                                                                         "and max")
    count = as_int(acc.get("count"))
    if interpolation == "CUBICSPLINE" and count is not None and count < 2:
        c.emit("ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", where, f"CUBICSPLINE needs at least 2 "
                                                                           f"keyframes, found {count}")


def _has_bound(acc: dict[str, Any], key: str) -> bool:
    value = acc.get(key)
    return value.__class__ is list and len(value) == 1 and is_number(value[0])


def _channels(c: Core, anim: dict[str, Any], ptr: str, samplers: dict[int, tuple[Any, Any, str]]) -> None:
    raw = anim.get("samplers")
    n = len(raw) if raw.__class__ is list else 0
    targets: dict[tuple[int, str], int] = {}
    for k, cptr, channel in c.objects(anim, "channels", ptr, required=True):
        c.common(channel, cptr)
        s = c.ref(channel, "sampler", cptr, "samplers", required=True, size=n)
        target = c.sub(channel, "target", cptr, required=True)
        if target is None:
            continue
        tptr = f"{cptr}/target"
        c.common(target, tptr)
        node = c.ref(target, "node", tptr, "nodes")
        path = c.enum(target, "path", tptr, _PATHS, required=True)
        if node is None or path is None:
            continue
        if (node, path) in targets:
            c.emit("ANIMATION_DUPLICATE_TARGETS", tptr, f"channel {targets[node, path]} already targets node "
                                                        f"{node} {path}")
        targets.setdefault((node, path), k)
        morphs = _node_target(c, node, path, tptr)
        if s is not None and s in samplers:
            _output(c, samplers[s], path, morphs, f"{cptr}/sampler")  # Khronos reports it at the channel


def _node_target(c: Core, node: int, path: str, tptr: str) -> int:
    """Checks the targeted node; returns its mesh's number of morph targets (1 when not animating weights)."""
    n = c.gltf["nodes"][node]
    if n.__class__ is not dict:
        return 1
    if path != "weights":
        if "matrix" in n:
            c.emit("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", tptr, "a channel cannot animate TRS of a node "
                                                                           "that defines a matrix")
        return 1
    mesh = as_int(n.get("mesh"))
    morphs = meshes.target_count(c.gltf, mesh) if mesh is not None else None
    if not morphs:
        c.emit("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", tptr, "a channel cannot animate "
                                                                                  "weights of a node whose mesh "
                                                                                  "has no morph targets")
        return 0
    return morphs


def _output(c: Core, sampler: tuple[Any, Any, str], path: str, morphs: int, where: str) -> None:
    inp, out, interpolation = sampler
    if out is None:
        return
    fmt = accessor_format(out)
    if fmt not in _OUTPUTS[path]:
        c.emit("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", where, f"output format {fmt[0]}/{fmt[1]} is "
                                                                          f"not valid for path '{path}'")
    if inp is None or not morphs:
        return
    n_in, n_out = as_int(inp.get("count")), as_int(out.get("count"))
    if n_in is None or n_out is None or n_in < 1 or n_out < 1:
        return
    expected = n_in * (3 if interpolation == "CUBICSPLINE" else 1) * morphs
    if n_out != expected:
        c.emit("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", where, f"output has {n_out} elements, "
                                                                         f"{expected} expected")


# ---------------------------------------------------------------- data


def check_data(c: Core, document: Document) -> None:
    """Keyframe times are non-negative and strictly increasing (each input accessor read once)."""
    anims, accessors = c.gltf.get("animations"), c.gltf.get("accessors")
    if anims.__class__ is not list or accessors.__class__ is not list:
        return
    seen: set[int] = set()
    for anim in anims:
        samplers = anim.get("samplers") if anim.__class__ is dict else None
        for sampler in samplers if samplers.__class__ is list else ():
            i = as_int(sampler.get("input")) if sampler.__class__ is dict else None
            if i is None or i in seen or not 0 <= i < len(accessors) or accessors[i].__class__ is not dict:
                continue
            seen.add(i)
            if accessors[i].get("componentType") == 5126 and accessors[i].get("type") == "SCALAR":
                _times(c, document, i)


def _times(c: Core, document: Document, i: int) -> None:
    values = read_quietly(document, i)
    if values is None or not len(values):
        return
    t = values[:, 0]
    if not np.isfinite(t).all():
        return  # ACCESSOR_INVALID_FLOAT, reported by the accessor pass
    negative = np.flatnonzero(t < 0)
    if len(negative):
        k = int(negative[0])
        c.emit("ACCESSOR_ANIMATION_INPUT_NEGATIVE", f"/accessors/{i}", f"time {t[k]} at {k} is negative")
    steps = np.flatnonzero(np.diff(t) <= 0)
    if len(steps):
        k = int(steps[0]) + 1
        c.emit("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", f"/accessors/{i}", f"time {t[k]} at {k} is not greater "
                                                                             f"than the previous {t[k - 1]}")
