"""The one step every conversion of a scene goes through: write it, then make the file's pointers follow.

``gp.convert`` and the author room's :meth:`~gltf_physics.author.builder.Builder.build` both write a scene
into a copy of a document in the newest OMI or KHR form. Writing moves physics properties to other glTF
Object Model pointers, so whatever in the file names them by pointer must follow in the same step, or the
copy holds pointers to places that no longer exist: the behaviour graphs' ``pointer/*`` nodes
(:mod:`gltf_physics.behaviour.retarget`, ``KHRI-12`` for what cannot follow) and the ``KHR_animation_pointer``
channels (:mod:`.common.animation_pointers`, ``ANIM-POINTER``). Only a file with graphs loads the graph room;
only a file with either records where each joint went.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from ..gltf.document import Document
from ..model import PhysicsScene
from . import write_scene
from .common.context import JointWritten

INTERACTIVITY = "KHR_interactivity"


def write_converted(scene: PhysicsScene, doc: Document,
                    to: Literal["omi", "khr"]) -> tuple[Document, list[dict[str, str]]]:
    """``scene`` written into a copy of ``doc`` in the newest ``to`` form (:func:`~gltf_physics.dialects.
    write_scene`), with the copy's graph and animation pointers to physics properties moved with them; returns
    the copy and the losses as ``{"code", "pointer", "message"}``: the writers' first, then the graphs'
    (``KHRI-12``), then the animations' (``ANIM-POINTER``)."""
    from .common.animation_pointers import has_pointer_channels

    graphs, animations = _has_graphs(doc.json), has_pointer_channels(doc.json)
    joints: list[JointWritten] | None = [] if graphs or animations else None  # where each joint went
    out, written = write_scene(scene, doc, to, joints)
    losses = [asdict(loss) for loss in written]
    if joints is not None:
        losses += _follow(out.json, scene, to, joints, graphs, animations)
    return out, losses


def _follow(out: dict[str, Any], scene: PhysicsScene, to: str, joints: list[JointWritten], graphs: bool,
            animations: bool) -> list[dict[str, str]]:
    from .common.animation_pointers import retarget_animations
    from .common.pointer_map import PointerMoves

    moves = PointerMoves(scene, to, joints)
    losses: list[dict[str, str]] = []
    if graphs:
        from ..behaviour.retarget import retarget_graphs  # only for files with graphs: the graph room loads on use

        losses += retarget_graphs(out, moves)
    if animations:
        losses += retarget_animations(out, moves)
    return losses


def _has_graphs(doc_json: Any) -> bool:
    ext = doc_json.get("extensions") if isinstance(doc_json, dict) else None
    return isinstance(ext, dict) and INTERACTIVITY in ext
