"""One folder per extension family, listed in :mod:`.registry`. Nothing outside this package spells an
extension's JSON.

``read_scene`` runs every family's reader in dependency order (shapes before the bodies that use them,
bodies before joints, vehicles and gravity). ``write_scene`` writes a scene in the newest OMI or KHR form
into a copy of the document stripped of every physics extension it knows.
"""

from __future__ import annotations

from typing import Any, Literal

from ..gltf.document import Document
from ..gltf.jsontext import copy_json
from ..model import PhysicsScene
from .common.context import ExtIndex, JointWritten, Loss, ReadContext, WriteContext, gc_paused, reading
from .registry import PHYSICS_EXTENSIONS, families_named, written_for

__all__ = ["PHYSICS_EXTENSIONS", "detect_generations", "read_scene", "write_scene"]


def detect_generations(doc: Document, index: ExtIndex | None = None) -> dict[str, str]:
    """Extension name → generation id for every physics extension the document uses."""
    index = index or ExtIndex(doc.json)
    found: dict[str, str] = {}
    for family in families_named(index):
        found.update(family.detect(doc.json, index))
    return found


def read_scene(doc: Document, index: ExtIndex | None = None) -> PhysicsScene:
    """The physics of a loaded document as a :class:`PhysicsScene`, from any generation of OMI or KHR.

    Raises only :class:`GltfError` (with the JSON pointer of what cannot be read at all); what can be read
    leniently is read, with a ``ReadNote`` in ``scene.notes``. ``index``: the document's
    :class:`~.base.ExtIndex` when the caller (the validator) already built one.

    Example:
        >>> scene = gp.read_scene(gp.load("examples/tumbling_boxes.gltf"))
        >>> scene.generations["OMI_physics_body"], len(scene.bodies), len(scene.joints)
        ('gen4-materials', 6, 1)
    """
    with reading():
        ctx = ReadContext.for_document(doc, index)
        ctx.scene.generations = detect_generations(doc, ctx.index)
        for family in families_named(ctx.index):
            family.read(ctx)
    return ctx.scene


def write_scene(scene: PhysicsScene, doc: Document, family: Literal["omi", "khr"],
                joints_written: list[JointWritten] | None = None) -> tuple[Document, list[Loss]]:
    """``scene`` written into a copy of ``doc`` in the newest OMI (``family="omi"``) or KHR form, with every
    physics extension of ``doc`` replaced and everything else kept; returns the copy and what the target form
    could not express. ``joints_written``: a list the writers fill with where each joint went (for
    :class:`~.common.pointer_map.PointerMoves`)."""
    with gc_paused():  # like reading: a big document's copy and edits make ~10^6 objects, none cyclic
        return _write_scene(scene, doc, family, joints_written)


def _write_scene(scene: PhysicsScene, doc: Document, family: Literal["omi", "khr"],
                 joints_written: list[JointWritten] | None) -> tuple[Document, list[Loss]]:
    out, stripped = _stripped_copy(doc.json, PHYSICS_EXTENSIONS)
    ctx = WriteContext(gltf=out, scene=scene, family=family, source=doc, joints_written=joints_written)
    for writer in written_for(family):
        writer.write(ctx)
    _drop_emptied(out, doc.json, stripped)
    return Document(json=out, buffers=list(doc.buffers), path=doc.path, is_glb=doc.is_glb), ctx.losses


def _drop_emptied(out: dict, original: dict, stripped: list[int]) -> None:
    """Containers the strip emptied and no writer refilled go, so that nothing non-physics changes: a node
    left with ``extensions: {}`` (or a document with ``extensionsUsed: []``) that had content before.
    ``stripped``: the nodes the strip emptied, the only ones that can be left empty (the writers only ever
    add keys)."""
    if out.get("extensions") == {} and original.get("extensions") != {}:
        del out["extensions"]
    after = _list(out.get("nodes"))
    for i in stripped:  # each had extensions before (physics only), now maybe none
        holder = after[i] if i < len(after) else None
        if isinstance(holder, dict) and holder.get("extensions") == {}:
            del holder["extensions"]
    for key in ("extensionsUsed", "extensionsRequired"):
        if out.get(key) == [] and original.get(key) != []:
            del out[key]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _stripped_copy(gltf: Any, names: tuple[str, ...]) -> tuple[Any, list[int]]:
    """(``copy_json(gltf)`` without the ``names`` extensions (document and nodes) and their ``extensionsUsed``
    / ``extensionsRequired`` entries, the nodes whose ``extensions`` this emptied). The physics objects are
    left out before the copy, not deleted after it: copying them was about half the copy of a big physics
    document. Key order is the input's."""
    if not isinstance(gltf, dict):
        return copy_json(gltf), []
    known = frozenset(names)
    view = dict(gltf)
    nodes = gltf.get("nodes")
    stripped: list[int] = []
    if isinstance(nodes, list):
        view["nodes"] = kept = list(nodes)
        for i, node in enumerate(nodes):  # inline: a call per node was most of this
            ext = node.get("extensions") if isinstance(node, dict) else None
            if isinstance(ext, dict) and ext and not known.isdisjoint(ext):
                node = kept[i] = dict(node)
                if known.issuperset(ext):  # the usual physics node: nothing else to keep, no comprehension
                    node["extensions"] = {}
                    stripped.append(i)
                    continue
                node["extensions"] = left = {k: v for k, v in ext.items() if k not in known}
                if not left:
                    stripped.append(i)
    out = copy_json(_without(view, known))
    _strip_used(out, names)
    return out, stripped


def _without(holder: Any, known: frozenset[str]) -> Any:
    """``holder`` (not copied) when its ``extensions`` has none of ``known``, else a shallow copy whose
    ``extensions`` is a new dict without them."""
    ext = holder.get("extensions") if isinstance(holder, dict) else None
    if not isinstance(ext, dict) or not ext or known.isdisjoint(ext):
        return holder
    holder = dict(holder)
    holder["extensions"] = {k: v for k, v in ext.items() if k not in known}
    return holder


def _strip_used(gltf: dict, names: tuple[str, ...]) -> None:
    for key in ("extensionsUsed", "extensionsRequired"):
        if key in gltf:  # not an array: the reader read it as empty (GLTF-TYPE note), the output says so
            listed = gltf[key] if isinstance(gltf[key], list) else []
            gltf[key] = [e for e in listed if e not in names]
