"""Shared scaffolding for the property tests that mutate documents (readers, validator)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from conftest import FIXTURES, all_fixture_files, fixtures_available
from gltf_physics.gltf.io import load


def base_documents(builders: Iterable[Callable[[], dict[str, Any]]],
                   max_fixture_bytes: int) -> list[tuple[dict[str, Any], list[bytes]]]:
    """In-test documents plus every .gltf fixture below ``max_fixture_bytes``, as (json, buffers)."""
    out: list[tuple[dict[str, Any], list[bytes]]] = [(build(), []) for build in builders]
    if fixtures_available():
        for relative in all_fixture_files():
            if relative.endswith(".gltf") and (FIXTURES / relative).stat().st_size < max_fixture_bytes:
                doc = load(FIXTURES / relative)
                out.append((doc.json, doc.buffers))
    return out


def key_paths(value: Any, roots: tuple[str, ...], max_items: int,
              prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path below the top-level ``roots`` (only the first ``max_items`` of each array)."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            if prefix or k in roots:
                out += key_paths(v, roots, max_items, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:max_items]):
            out += key_paths(v, roots, max_items, (*prefix, i))
    return out


# ------------------------------------------------------------------ the crash classes the fuzzer found
# Each is a function (document, draw) → None editing the JSON in place; ``draw(strategy)`` is hypothesis'.

LONE_SURROGATE = "name\udc80"  # what JSON "\udc80" parses to: no UTF-8 encoding exists
HOSTILE_NUMBERS = [0.0, -1.0, -1e-9, 1e-30, 1e9, 1e30, 1e300, float("inf"), float("-inf"), float("nan"),
                   10**400, 2**63]
SHAPE_KEYS = {"radius", "radiusTop", "radiusBottom", "height", "size", "scale", "translation", "rotation",
              "matrix", "mass", "linearVelocity", "angularVelocity", "inertiaDiagonal", "centerOfMass",
              "gravityFactor", "min", "max", "stiffness", "damping", "maxForce", "linearAxes", "angularAxes",
              "axis", "positionTarget", "velocityTarget"}
ACCESSOR_KEYS = {"count", "byteOffset", "byteLength", "byteStride", "componentType", "type", "bufferView",
                 "normalized", "indices", "POSITION", "mode"}


def numeric_paths(gltf: Any, keys: set[str]) -> list[tuple[Any, ...]]:
    """Key paths (anywhere in the document) whose last key is one of ``keys``."""
    return [p for p in key_paths(gltf, tuple(gltf) if isinstance(gltf, dict) else (), 40)
            if p and p[-1] in keys]


def set_at(gltf: Any, path: tuple[Any, ...], value: Any) -> None:
    holder = gltf
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value


def get_at(gltf: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        gltf = gltf[key]
    return gltf
