"""What a later save refuses, named now: numbers JSON cannot carry and strings UTF-8 cannot encode.

Python reads ``1e999`` as ∞ and ``"\\ud800"`` as a lone surrogate, so such a file loads, validates and
converts in memory — and then cannot be written (``save``, ``convert``, ``simulate -o``). The C encoder tries
the whole document first (fast); only when it fails is the document walked for the exact pointers.
"""

from __future__ import annotations

from typing import Any

from ..dialects.common.checks import Emit
from ..dialects.common.context import ExtIndex
from ..gltf import jsontext
from ..gltf.errors import GltfError

_MAX_REPORTED = 100  # one hostile file must not produce a million messages


def check(gltf: dict[str, Any], emit: Emit, index: ExtIndex | None = None) -> None:
    """GLTF-NUMBER for NaN/∞ anywhere (not only where the physics checks look), GLTF-TEXT for lone
    surrogates; ``index`` is accepted for the common checker signature."""
    try:
        jsontext.compact(gltf)
        return
    except GltfError:
        pass
    has = getattr(emit, "has_related", None)
    for count, (pointer, why) in enumerate(jsontext.unwritable(gltf)):
        if count == _MAX_REPORTED:
            emit("GLTF-NUMBER" if "number" in why else "GLTF-TEXT", pointer, "more values like this one follow; "
                 "only the first 100 are reported")
            return
        code = "GLTF-TEXT" if "surrogate" in why else "GLTF-NUMBER"
        if has is not None and has(code, pointer):
            continue  # a physics check already named this value
        emit(code, pointer, f"{why}; the document cannot be saved until it is fixed")
