"""Animations in conversion: a ``KHR_animation_pointer`` channel aimed at a physics property follows it.

An animation channel can target any glTF Object Model pointer (``target.path`` ``"pointer"``, the pointer in
``target.extensions.KHR_animation_pointer.pointer``). When a conversion moves a physics property to another
pointer, :func:`retarget_animations` rewrites, in the converted document's own JSON, each channel aimed at it
to the target's pointer, exactly as :class:`~.pointer_map.PointerMoves` rewrites a behaviour graph's. A
channel that cannot follow is kept as it was and listed as an ``ANIM-POINTER`` loss naming its ``pointer``.
Nothing else in an animation changes: its samplers and every other channel stay byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .pointer_map import Param, PointerMoves

EXTENSION = "KHR_animation_pointer"
CODE = "ANIM-POINTER"


def has_pointer_channels(doc_json: Any) -> bool:
    """Whether any animation of ``doc_json`` has a channel with a ``KHR_animation_pointer`` pointer."""
    return any(True for _ in _channels(doc_json))


def retarget_animations(doc_json: dict[str, Any], moves: PointerMoves) -> list[dict[str, str]]:
    """Rewrite the physics pointers of every animation channel of ``doc_json`` (in place: the converted copy)
    and return the losses, each ``{"code": "ANIM-POINTER", "pointer", "message"}`` with the JSON pointer of
    the channel's ``pointer``."""
    losses: list[dict[str, str]] = []
    for a, c, holder in _channels(doc_json):
        old = holder["pointer"]
        moved = moves.rewrite(old[1:].split("/")) if old.startswith("/") else None
        if moved is None:
            continue  # not a physics pointer of a body or joint extension: not this conversion's business
        new = None if moved.segments is None else "/" + "/".join(
            s.text if isinstance(s, Param) else s for s in moved.segments)
        if new is not None and new != old:
            holder["pointer"] = new
        if moved.loss is not None:
            kept = "the pointer is kept" if new is None else f"rewritten as {new}"
            losses.append({"code": CODE,
                           "pointer": f"/animations/{a}/channels/{c}/target/extensions/{EXTENSION}/pointer",
                           "message": f"{old}: {moved.loss}; {kept}"})
    return losses


def _channels(doc_json: Any) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(animation index, channel index, the extension object) for every channel whose target is a pointer
    (``target.path`` ``"pointer"`` and a string ``pointer``); malformed channels are the validator's."""
    animations = doc_json.get("animations") if isinstance(doc_json, dict) else None
    for a, animation in enumerate(animations if isinstance(animations, list) else []):
        channels = animation.get("channels") if isinstance(animation, dict) else None
        for c, channel in enumerate(channels if isinstance(channels, list) else []):
            target = channel.get("target") if isinstance(channel, dict) else None
            if not isinstance(target, dict) or target.get("path") != "pointer":
                continue
            exts = target.get("extensions")
            holder = exts.get(EXTENSION) if isinstance(exts, dict) else None
            if isinstance(holder, dict) and isinstance(holder.get("pointer"), str):
                yield a, c, holder
