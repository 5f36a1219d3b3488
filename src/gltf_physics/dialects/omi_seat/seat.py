"""OMI_seat (one generation, ``gen1``; the spec).

A seat is three node-local points (``back``, ``foot``, ``knee``) and the back-to-spine ``angle`` (π/2). A seat
missing a point, or with a point that is not three numbers, is noted (SEAT-1) and skipped: no sensible seat
frame exists without it. The 2023 examples (seat on an OMI_collider / body ``type: trigger`` node) use the
same seat object, so they are ``gen1`` too. Written unchanged for both target families (no KHR counterpart,
docs/interop.md); ``angle`` only when it is not π/2.
"""

from __future__ import annotations

import math
from typing import Any

from ...model import Seat
from ...model.shapes import Vec3
from ..common.context import ExtIndex, ReadContext, WriteContext, num, to_float
from ..registry import OMI_SEAT, OMI_SEAT_FAMILY

EXT = OMI_SEAT
EXTENSIONS: tuple[str, ...] = OMI_SEAT_FAMILY.extensions
GEN = "gen1"
DEFAULT_ANGLE = math.pi / 2
_POINTS = ("back", "foot", "knee")


def detect(gltf: dict[str, Any], index: ExtIndex | None = None) -> dict[str, str]:
    index = index or ExtIndex(gltf)
    return {EXT: GEN} if EXT in index.used or index.present(EXT) else {}


def read(ctx: ReadContext) -> None:
    for i, ext in ctx.index.nodes_with(EXT):
        pointer = f"/nodes/{i}/extensions/{EXT}"
        points = {key: _point(ext.get(key)) for key in _POINTS}
        bad = [key for key, p in points.items() if p is None]
        if bad:
            ctx.note(
                "SEAT-1",
                f"{pointer}/{bad[0]}",
                f"seat point(s) {', '.join(bad)} missing or not 3 numbers; seat ignored",
            )
            continue
        ctx.scene.seats.append(
            Seat(node=i, angle=num(ext, "angle", DEFAULT_ANGLE), pointer=pointer, **points)
        )  # type: ignore[arg-type]  # None excluded above


def _point(value: Any) -> Vec3 | None:
    if not isinstance(value, list) or len(value) != 3:
        return None
    if not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in value):
        return None
    return (to_float(value[0]), to_float(value[1]), to_float(value[2]))


def write(ctx: WriteContext) -> None:
    for seat in ctx.scene.seats:
        out: dict[str, Any] = {"back": list(seat.back), "foot": list(seat.foot), "knee": list(seat.knee)}
        if seat.angle != DEFAULT_ANGLE:
            out["angle"] = seat.angle
        ctx.set_node_ext(seat.node, EXT, out)
