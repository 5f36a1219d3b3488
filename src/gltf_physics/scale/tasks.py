"""What one asset of a batch does, per command: the library call and the figures its row records.

Runs inside the isolated runner process (:mod:`.batch_child`), never imports Dask. Each function takes the asset's
path and the command's options and returns the row's figures (plain JSON values, one key per column of
:data:`FIGURES`); it raises :class:`AssetFailed` (or any exception) when the asset cannot be processed.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..model.bodies import MotionType
from ..model.shapes import SHAPE_KINDS

MOTIONS = [m.value for m in MotionType]
SHAPES = sorted({*SHAPE_KINDS.values(), "convex", "trimesh"})
INFO_COUNTS = ["nodes", "colliders", "staticColliders", "triggers", "compoundTriggers", "joints", "materials",
               "filters", "vehicles", "wheels", "thrusters", "hoverThrusters", "gravityFields", "seats"]

# Column name → Arrow type name ("int", "float", "str", "strs" = list of strings), per command, in column order.
FIGURES: dict[str, dict[str, str]] = {
    "validate": {"errors": "int", "warnings": "int", "infos": "int", "hints": "int", "codes": "strs"},
    "info": {**{f"bodies_{m}": "int" for m in MOTIONS}, **{f"shapes_{s}": "int" for s in SHAPES},
             **dict.fromkeys(INFO_COUNTS, "int")},
    "convert": {"output": "str", "losses": "int", "loss_codes": "strs"},
    "simulate": {"bodies": "int", "steps": "int", "max_displacement": "float", "min_y": "float", "max_y": "float",
                 "events": "int"},
}


class AssetFailed(Exception):
    """The asset cannot be processed (e.g. unreadable): its row is marked failed with this reason."""


def run(command: str, path: str, options: dict[str, Any]) -> dict[str, Any]:
    """The figures of ``command`` on the asset at ``path``."""
    return _COMMANDS[command](Path(path), options)


def validate(path: Path, options: dict[str, Any]) -> dict[str, Any]:
    """Counts by severity and the sorted distinct issue codes; an unreadable file fails."""
    from ..validation import Severity, validate_file

    report = validate_file(path)
    if report.unreadable:
        raise AssetFailed(report.messages[0].message)
    return {"errors": report.num_errors, "warnings": report.num_warnings, "infos": report.count(Severity.INFO),
            "hints": report.count(Severity.HINT), "codes": sorted(report.codes)}


def info(path: Path, options: dict[str, Any]) -> dict[str, Any]:
    """`info`'s counts, by kind, flattened to fixed columns."""
    from ..api import load, read_scene
    from ..summary import summarize

    doc = load(path)
    counts = summarize(doc, read_scene(doc))["counts"]
    row = {f"bodies_{m}": counts["bodies"].get(m, 0) for m in MOTIONS}
    row.update({f"shapes_{s}": counts["shapes"].get(s, 0) for s in SHAPES})
    row.update({key: counts[key] for key in INFO_COUNTS})
    return row


def convert(path: Path, options: dict[str, Any]) -> dict[str, Any]:
    """Convert (or re-save) to ``options["output"]``; the output path and the losses."""
    from ..api import convert as convert_doc
    from ..api import load, save

    doc = load(path)
    losses: list[dict[str, str]] = []
    if options.get("to") is not None:
        doc, losses = convert_doc(doc, to=options["to"])
    output = Path(options["output"])
    save(doc, output)
    return {"output": str(output), "losses": len(losses), "loss_codes": sorted({x["code"] for x in losses})}


def simulate(path: Path, options: dict[str, Any]) -> dict[str, Any]:
    """Run the scene; a summary of the final poses (largest displacement, lowest and highest body) and events."""
    import numpy as np

    from ..api import load, read_scene
    from ..sim import World

    world = World(read_scene(load(path)), rate=options.get("rate", 60.0), substeps=options.get("substeps", 1))
    _, start, _ = world.poses()
    world.run(float(options.get("duration", 5.0)))
    _, end, _ = world.poses()
    moved = float(np.max(np.linalg.norm(end - start, axis=1))) if len(end) else 0.0
    return {"bodies": len(end), "steps": world.step_count, "max_displacement": _finite(moved),
            "min_y": _finite(float(end[:, 1].min())) if len(end) else None,
            "max_y": _finite(float(end[:, 1].max())) if len(end) else None,
            "events": len(world.events())}


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


_COMMANDS = {"validate": validate, "info": info, "convert": convert, "simulate": simulate}
COMMANDS = list(_COMMANDS)
