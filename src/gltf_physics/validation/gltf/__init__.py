"""Core glTF 2.0 validation (the Khronos glTF-Validator's codes and severities), apart from the physics rules.

- :mod:`.checks` — the entry (:func:`check` on the JSON, :func:`check_data` on the bytes) and the document's
  skeleton: asset, extension lists, scenes, the node hierarchy and transforms, cameras, skins;
- :mod:`.buffers` — buffers, bufferViews, accessors (bounds, alignment, min/max against the data);
- :mod:`.meshes` — meshes and primitives, materials, textures, images, samplers;
- :mod:`.animations` — samplers, channels and keyframe times;
- :mod:`.usage` — what each accessor and bufferView is used for (one serving two kinds of data);
- :mod:`.getters` — typed getters that report what the glTF schema forbids;
- :mod:`.codes` — the issue codes, spelled and graded as the Khronos validator does.
"""

from __future__ import annotations

from .checks import check, check_data
from .codes import CORE_CODES

__all__ = ["CORE_CODES", "check", "check_data"]
