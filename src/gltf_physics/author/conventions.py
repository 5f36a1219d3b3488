"""Collision set up by node names in the modelling tool, as the Godot and Unreal importers read them.

Godot (scene import, "node type customization using name suffixes"; ``-``, ``$`` or ``_`` before the suffix,
any letter case):

- ``-col``: a static triangle-mesh collider of the node's mesh; the mesh stays drawn;
- ``-convcol``: the same with a convex collider (the mesh's hull);
- ``-colonly``: the mesh is not drawn; a static triangle-mesh collider of it;
- ``-convcolonly``: the mesh is not drawn; a static compound of convex parts (Godot decomposes it);
- ``-rigid``: the node is a rigid (dynamic) body, its collider made from its mesh (``auto`` here).

Unreal (FBX / Interchange static-mesh import; the prefix is upper case and the rest names the drawn mesh it
belongs to, optionally followed by ``_`` and anything, e.g. ``UCX_Chair_01``): ``UCX_`` a convex hull,
``UBX_`` a box, ``USP_`` a sphere, ``UCP_`` a capsule. The collision mesh is never drawn; the colliders
belong to the named mesh's node (its body when it has one, else a static collider).

As in both importers, a name asks only for its own node: when names ask for physics and nothing else is
requested, the other meshes get none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

Which = Literal["auto", "godot", "unreal", "none"]

_GODOT = re.compile(r"^(?P<base>.*?)[-$_](?P<hint>convcolonly|colonly|convcol|col|rigid)$", re.IGNORECASE)
_GODOT_ACTIONS: dict[str, tuple[str, str | None, bool]] = {  # hint → (collider, body kind, collision only)
    "col": ("mesh", None, False),
    "convcol": ("hull", None, False),
    "colonly": ("mesh", None, True),
    "convcolonly": ("decompose", None, True),
    "rigid": ("auto", "dynamic", False),
}
_UNREAL = {"UCX_": "hull", "UBX_": "box", "USP_": "sphere", "UCP_": "capsule"}


@dataclass(frozen=True)
class Convention:
    """What a node's name asks for.

    node: the node named; rule: e.g. ``godot -colonly`` or ``unreal UCX_``; collider: the collider kind made
    from the node's mesh; body: a body kind for the node itself (``None``: none); collision_only: the mesh
    stops being drawn; target: the drawn node the collider belongs to (Unreal), else ``None``.
    """

    node: int
    rule: str
    collider: str
    body: str | None = None
    collision_only: bool = False
    target: int | None = None


def read(gltf: dict[str, Any], which: Which = "auto") -> list[Convention]:
    """The conventions the node names of ``gltf`` ask for, in node order (only nodes with a mesh)."""
    if which == "none":
        return []
    nodes = gltf.get("nodes") if isinstance(gltf.get("nodes"), list) else []
    names = {n: node.get("name") for n, node in enumerate(nodes) if isinstance(node, dict)}
    found: list[Convention] = []
    for n, name in names.items():
        if not isinstance(name, str) or "mesh" not in nodes[n]:
            continue
        hit = None
        if which in ("auto", "unreal"):
            hit = _unreal(n, name, names, nodes)
        if hit is None and which in ("auto", "godot"):
            hit = _godot(n, name)
        if hit is not None:
            found.append(hit)
    return found


def _godot(n: int, name: str) -> Convention | None:
    match = _GODOT.match(name)
    if match is None:
        return None
    hint = match["hint"].lower()
    collider, body, only = _GODOT_ACTIONS[hint]
    return Convention(n, f"godot -{hint}", collider, body, only)


def _unreal(n: int, name: str, names: dict[int, Any], nodes: list[Any]) -> Convention | None:
    prefix = name[:4]
    if prefix not in _UNREAL:
        return None
    rest = name[4:]
    wanted = [rest, rest.rsplit("_", 1)[0]] if "_" in rest else [rest]
    target = None
    for base in wanted:
        target = next((m for m, other in names.items() if other == base and m != n and "mesh" in nodes[m]), None)
        if target is not None:
            break
    return Convention(n, f"unreal {prefix}", _UNREAL[prefix], None, True, target)
