"""Structural checks of OMI_seat."""

from __future__ import annotations

from typing import Any

from ..common.checks import WARNING, Emit, Json
from ..common.context import ExtIndex
from ..registry import OMI_SEAT


def check(gltf: dict[str, Any], emit: Emit, index: ExtIndex | None = None) -> None:
    """SEAT-1 on every seat: back, foot and knee points, and the angle."""
    _seats(Json(gltf, emit, index))


def _seats(j: Json) -> None:
    for _, ptr, seat in j.nodes_with(OMI_SEAT):
        for key in ("back", "foot", "knee"):
            if key not in seat:
                j.emit("SEAT-1", ptr, f"the seat needs '{key}' (a node-local xyz point)")
            else:
                j.numbers(seat, key, ptr, 3, "SEAT-1", WARNING)
        j.number(seat, "angle", ptr)
