"""A host without physics: the Object Model resolved against the glTF JSON itself, so graphs run (and the
conformance suite passes) with no simulation.

Readable: any JSON value by pointer, with the core schema's defaults for the properties the Object Model names
(node TRS, material factors, KHR_texture_transform…); ``.length`` of arrays; ``/nodes/N/matrix`` (from TRS),
``/nodes/N/globalMatrix``, ``/nodes/N/parent``, ``/nodes/N/weights`` (from the mesh when absent). Writable: node
translation/rotation/scale/weights, material and light properties — into this host's own copy of the JSON, never
the caller's document. A pointer whose property is not in the Object Model, or whose object does not exist, is an
error the operation reports through its ``err`` flow / ``isValid`` output.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from ..gltf.animation import NodeTracks, node_tracks
from ..gltf.document import Document
from .errors import GraphError
from .host import BaseHost
from .ops.linalg import compose
from .values import SIZES, Mat, type_of

_DEFAULTS: dict[str, Any] = {
    "translation": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0, 1.0], "scale": [1.0, 1.0, 1.0],
    "baseColorFactor": [1.0, 1.0, 1.0, 1.0], "metallicFactor": 1.0, "roughnessFactor": 1.0,
    "emissiveFactor": [0.0, 0.0, 0.0], "alphaCutoff": 0.5, "doubleSided": False, "strength": 1.0,
    "offset": [0.0, 0.0], "intensity": 1.0, "color": [1.0, 1.0, 1.0], "range": math.inf,
    "innerConeAngle": 0.0, "outerConeAngle": math.pi / 4, "ior": 1.5, "emissiveStrength": 1.0,
    "transmissionFactor": 0.0, "thicknessFactor": 0.0, "attenuationDistance": math.inf,
    "attenuationColor": [1.0, 1.0, 1.0], "specularFactor": 1.0, "specularColorFactor": [1.0, 1.0, 1.0],
    "sheenColorFactor": [0.0, 0.0, 0.0], "sheenRoughnessFactor": 0.0, "clearcoatFactor": 0.0,
    "iridescenceFactor": 0.0, "iridescenceIor": 1.3, "iridescenceThicknessMinimum": 100.0,
    "iridescenceThicknessMaximum": 400.0, "anisotropyStrength": 0.0, "anisotropyRotation": 0.0,
    "dispersion": 0.0,
}
_TEXTURE_TRANSFORM = {"offset": [0.0, 0.0], "rotation": 0.0, "scale": [1.0, 1.0]}
_TYPES: dict[str, str] = {
    "translation": "float3", "rotation": "float4", "scale": "float3", "matrix": "float4x4",
    "globalMatrix": "float4x4", "baseColorFactor": "float4", "emissiveFactor": "float3", "color": "float3",
    "attenuationColor": "float3", "specularColorFactor": "float3", "sheenColorFactor": "float3",
    "offset": "float2", "doubleSided": "bool", "parent": "int", "camera": "int", "skin": "int", "mesh": "int",
    "material": "int", "scene": "int", "skeleton": "int",
}
_READ_ONLY = frozenset({"globalMatrix", "matrix", "parent", "camera", "skin", "mesh", "material", "scene",
                        "skeleton", "children", "nodes", "joints"})
# texture "scale" (KHR_texture_transform) is a float2, the normal texture's "scale" a float: decided by the parent
_FLOAT2_SCALE_PARENTS = frozenset({"KHR_texture_transform"})


def _split(pointer: str) -> list[str]:
    if not pointer.startswith("/"):
        raise GraphError(f"bad pointer {pointer!r}")
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer[1:].split("/")]
    # The draft exporter wrote /materials/N/extensions/pbrMetallicRoughness/…: read it as the core property.
    if len(parts) > 3 and parts[0] == "materials" and parts[2:4] == ["extensions", "pbrMetallicRoughness"]:
        parts = parts[:2] + parts[3:]
    return parts


class DocumentHost(BaseHost):
    """The Object Model of a glTF JSON document (a copy: writes never reach the caller's dict)."""

    def __init__(self, doc_json: dict[str, Any], document: Document | None = None) -> None:
        """``document`` (the loaded file, with its buffers) lets the graph play the file's animations."""
        super().__init__()
        self.json = copy.deepcopy(doc_json)
        self._document = document
        self._tracks: dict[int, tuple[float, dict[int, NodeTracks]]] = {}

    # ----- animations ----------------------------------------------------------------------------------------
    def _animation(self, animation: int) -> tuple[float, dict[int, NodeTracks]]:
        if animation not in self._tracks:
            animations = self.json.get("animations")
            if self._document is None or not isinstance(animations, list) or not 0 <= animation < len(animations):
                raise GraphError(f"no animation {animation}")
            tracks = node_tracks(self._document, animation)
            samplers = [s for t in tracks.values() for s in (t.translation, t.rotation, t.scale) if s is not None]
            self._tracks[animation] = (max((float(s.times[-1]) for s in samplers), default=0.0), tracks)
        return self._tracks[animation]

    def animation_duration(self, animation: int) -> float:
        """The largest key time of the animation's node transform channels."""
        return self._animation(animation)[0]

    def apply_animation(self, animation: int, time: float) -> None:
        """Write the animated nodes' translation/rotation/scale at ``time`` into this host's JSON."""
        nodes = self._nodes()
        for index, tracks in self._animation(animation)[1].items():
            for path in ("translation", "rotation", "scale"):
                sampler = getattr(tracks, path)
                if sampler is not None:
                    nodes[index][path] = [float(x) for x in sampler.sample(time)]
                    nodes[index].pop("matrix", None)

    # ----- reading -------------------------------------------------------------------------------------------
    def _walk(self, parts: list[str]) -> tuple[Any, str]:
        """The object holding the last segment, and that segment."""
        obj: Any = self.json
        for part in parts[:-1]:
            obj = self._step(obj, part)
        return obj, parts[-1]

    @staticmethod
    def _step(obj: Any, part: str) -> Any:
        if isinstance(obj, list):
            if not part.isdigit() or int(part) >= len(obj):
                raise GraphError(f"no element {part}")
            return obj[int(part)]
        if isinstance(obj, dict):
            if part in obj:
                return obj[part]
            if part == "extensions":
                return {}
            raise GraphError(f"no property {part}")
        raise GraphError(f"cannot step into {part}")

    def get_pointer(self, pointer: str) -> Any:
        """The value at ``pointer`` as a run-time value (GraphError when it does not exist)."""
        parts = _split(pointer)
        last = parts[-1]
        if last.endswith(".length"):
            container, key = self._walk([*parts[:-1], last[: -len(".length")]])
            value = self._step(container, key)
            if not isinstance(value, list):
                raise GraphError(f"{pointer} is not an array")
            return len(value)
        if len(parts) == 3 and parts[0] == "nodes" and last in ("matrix", "globalMatrix", "parent", "weights"):
            return self._node_special(int(parts[1]) if parts[1].isdigit() else -1, last)
        if len(parts) == 1 and last == "scene":
            return int(self.json.get("scene", 0))
        if len(parts) >= 3 and parts[-2] == "KHR_texture_transform" and parts[-3] == "extensions":
            texture, _ = self._walk(parts[:-2])  # the texture must exist; its transform defaults to identity
            extensions = texture.get("extensions") if isinstance(texture, dict) else None
            transform = extensions.get("KHR_texture_transform") if isinstance(extensions, dict) else None
            transform = transform if isinstance(transform, dict) else {}
            if last not in _TEXTURE_TRANSFORM:
                raise GraphError(f"no property {pointer}")
            return self._convert(parts, transform.get(last, _TEXTURE_TRANSFORM[last]))
        container, key = self._walk(parts)
        if isinstance(container, dict) and key not in container:
            if key not in _DEFAULTS:
                raise GraphError(f"no property {pointer}")
            raw = _DEFAULTS[key]
        else:
            raw = self._step(container, key)
        return self._convert(parts, raw)

    def _convert(self, parts: list[str], raw: Any) -> Any:
        signature = self.pointer_type("/" + "/".join(parts))
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, (int, float)):
            return int(raw) if signature == "int" else float(raw)
        if isinstance(raw, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in raw):
            values = tuple(float(x) for x in raw)
            return Mat(values) if signature in ("float2x2", "float3x3", "float4x4") else values
        raise GraphError("not an Object Model value")

    def _nodes(self) -> list[Any]:
        nodes = self.json.get("nodes")
        return nodes if isinstance(nodes, list) else []

    def _local(self, index: int) -> Mat:
        node = self._nodes()[index]
        if isinstance(node.get("matrix"), list) and len(node["matrix"]) == 16:
            return Mat(float(x) for x in node["matrix"])
        return compose(tuple(node.get("translation", _DEFAULTS["translation"])),
                       tuple(node.get("rotation", _DEFAULTS["rotation"])), tuple(node.get("scale", _DEFAULTS["scale"])))

    def _parent(self, index: int) -> int | None:
        for i, node in enumerate(self._nodes()):
            if isinstance(node, dict) and index in (node.get("children") or []):
                return i
        return None

    def _node_special(self, index: int, what: str) -> Any:
        if not 0 <= index < len(self._nodes()):
            raise GraphError(f"no node {index}")
        if what == "matrix":
            return self._local(index)
        if what == "parent":
            parent = self._parent(index)
            if parent is None:
                raise GraphError(f"node {index} has no parent")
            return parent
        if what == "weights":
            node = self._nodes()[index]
            weights = node.get("weights")
            if weights is None and isinstance(node.get("mesh"), int):
                weights = self.json["meshes"][node["mesh"]].get("weights")
            if not isinstance(weights, list):
                raise GraphError(f"node {index} has no weights")
            return tuple(float(w) for w in weights)
        m = self._local(index)
        parent = self._parent(index)
        seen = {index}
        import numpy as np
        out = np.array(m).reshape(4, 4).T
        while parent is not None and parent not in seen:
            seen.add(parent)
            out = np.array(self._local(parent)).reshape(4, 4).T @ out
            parent = self._parent(parent)
        return Mat(float(v) for v in out.T.reshape(-1))

    def pointer_type(self, pointer: str) -> str | None:
        """The Object Model type of ``pointer``, from the property name (None: not a typed property)."""
        parts = pointer[1:].split("/")
        last = parts[-1]
        if last.endswith(".length"):
            return "int"
        if len(parts) >= 2 and parts[-2] in _FLOAT2_SCALE_PARENTS:
            return {"scale": "float2", "offset": "float2", "rotation": "float"}.get(last)
        if last == "scale" and parts[0] == "materials":
            return "float"
        if last in _TYPES:
            return _TYPES[last]
        if len(parts) >= 2 and parts[-2] in ("children", "nodes", "joints") and last.isdigit():
            return "int"
        return "float" if last in _DEFAULTS or last in ("weights",) else None

    # ----- writing -------------------------------------------------------------------------------------------
    def set_pointer(self, pointer: str, value: Any) -> None:
        """Write ``value`` at ``pointer`` (GraphError: read-only, unknown or of another type)."""
        parts = _split(pointer)
        last = parts[-1]
        if last in _READ_ONLY or last.endswith(".length") or parts[-2:-1] in (["children"], ["nodes"], ["joints"]):
            raise GraphError(f"{pointer} is read-only")
        expected = self.pointer_type(pointer)
        if last == "weights" and len(parts) == 3 and parts[0] == "nodes":
            expected = None if not isinstance(value, tuple) else type_of(value)
        elif len(parts) == 4 and parts[0] == "nodes" and parts[2] == "weights":
            expected = "float"
        if expected is None or type_of(value) != expected:
            raise GraphError(f"{pointer} takes a {expected or 'supported'} value")
        container, key = self._walk_creating(parts)
        if isinstance(container, dict):
            if key not in container and key not in _DEFAULTS:
                raise GraphError(f"no property {pointer}")
            container[key] = list(value) if isinstance(value, tuple) else value
        elif isinstance(container, list) and key.isdigit() and int(key) < len(container):
            container[int(key)] = value
        else:
            raise GraphError(f"no property {pointer}")
        if last in ("translation", "rotation", "scale") and parts[0] == "nodes":
            self._nodes()[int(parts[1])].pop("matrix", None)

    def _walk_creating(self, parts: list[str]) -> tuple[Any, str]:
        """As ``_walk``, creating a missing ``extensions`` / extension object on an existing object (setting a
        texture's KHR_texture_transform offset adds the extension, as a viewer would)."""
        obj: Any = self.json
        for i, part in enumerate(parts[:-1]):
            creatable = part == "extensions" or (i > 0 and parts[i - 1] == "extensions")
            if isinstance(obj, dict) and part not in obj and creatable:
                obj[part] = {}
            obj = self._step(obj, part)
        return obj, parts[-1]

    def value_size(self, signature: str) -> int:
        """The number of floats of ``signature``."""
        return SIZES[signature]
