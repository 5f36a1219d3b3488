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
