"""Which nodes an option applies to: a name glob, an index, or a subtree.

- ``Chair`` / ``Chair*`` / ``*_LOD0``: nodes whose name matches the glob (``fnmatch``, case-sensitive);
- ``3`` or ``#3``: node 3;
- ``Chair/`` (a selector ending in ``/``): the nodes it selects and all their descendants.
"""

from __future__ import annotations

import fnmatch
from typing import Any

from ..gltf.hierarchy import descendants


class AuthorError(ValueError):
    """A request that cannot be carried out (a selector matching nothing, a joint between non-bodies…)."""


def select(gltf: dict[str, Any], selector: str) -> list[int]:
    """The node indices ``selector`` names, in node order; raises AuthorError when it names none."""
    nodes = gltf.get("nodes") if isinstance(gltf.get("nodes"), list) else []
    subtree = selector.endswith("/") and len(selector) > 1
    pattern = selector[:-1] if subtree else selector
    digits = pattern[1:] if pattern.startswith("#") else pattern
    if digits.isdigit():
        found = [int(digits)] if int(digits) < len(nodes) else []
    else:
        found = [n for n, node in enumerate(nodes)
                 if isinstance(node, dict) and isinstance(node.get("name"), str)
                 and fnmatch.fnmatchcase(node["name"], pattern)]
    if subtree:
        found = sorted({d for n in found for d in (n, *descendants(gltf, n))})
    if not found:
        raise AuthorError(f"selector {selector!r} names no node (give a node name glob, an index, or NAME/ "
                          f"for a subtree; the file has {len(nodes)} nodes)")
    return found


def default_roots(gltf: dict[str, Any]) -> list[int]:
    """The nodes of the default scene (or every parentless node) that have a mesh at or below them."""
    from ..gltf.hierarchy import parents

    nodes = gltf.get("nodes") if isinstance(gltf.get("nodes"), list) else []
    scenes = gltf.get("scenes") if isinstance(gltf.get("scenes"), list) else []
    scene = gltf.get("scene", 0)
    if scenes and isinstance(scene, int) and 0 <= scene < len(scenes) and isinstance(scenes[scene], dict):
        roots = [n for n in scenes[scene].get("nodes", []) if isinstance(n, int) and 0 <= n < len(nodes)]
    else:
        parent_of = parents(gltf)
        roots = [n for n in range(len(nodes)) if parent_of[n] is None]
    return [r for r in roots if any("mesh" in nodes[d] for d in (r, *descendants(gltf, r)))]
