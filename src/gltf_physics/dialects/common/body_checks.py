"""Checks both body families share (OMI_physics_body and KHR_physics_rigid_bodies spell these alike): collision
filters, compound trigger parts and joint drives. Each takes the rule id to report, which differs by family."""

from __future__ import annotations

from typing import Any

from .checks import WARNING, Json, is_int


def filter_lists(j: Json, f: dict[str, Any], ptr: str, code: str) -> None:
    """BODY-8 / KRB-10: never both collideWithSystems and notCollideWithSystems."""
    keys = ("collisionSystems", "collideWithSystems", "notCollideWithSystems")
    lists = {k: j.strings(f, k, ptr) for k in keys}
    if lists["collideWithSystems"] and lists["notCollideWithSystems"]:
        j.emit(code, ptr, "the filter has both collideWithSystems and notCollideWithSystems; keep only one")


def compound_parts(j: Json, node: int, t: dict[str, Any], ptr: str, code: str, ext_name: str,
                   simple_key: str) -> None:
    """BODY-7 / KRB-4: 'nodes' is a non-empty list of unique strict descendants that carry a trigger."""
    nodes = j.array(t["nodes"], f"{ptr}/nodes")
    if nodes is None:
        return
    if not nodes:
        j.emit(code, f"{ptr}/nodes", "'nodes' is empty; a compound trigger lists at least one descendant "
                                     "trigger")
    seen: set[int] = set()
    for k, v in enumerate(nodes):
        eptr = f"{ptr}/nodes/{k}"
        n = j.index_value(v, eptr, len(j.nodes), "node")
        if n is None:
            continue
        if n in seen:
            j.emit(code, eptr, f"node {n} is listed twice; list each part once")
        seen.add(n)
        if not j.is_strict_descendant(n, node):
            j.emit(code, eptr, f"node {n} is not a descendant of the compound trigger's node {node}; move it "
                   "under that node or remove it from 'nodes'")
            continue
        ext = j.node_ext(n, ext_name)
        part = ext.get("trigger") if isinstance(ext, dict) else None
        if not isinstance(part, dict):
            j.emit(code, eptr, f"node {n} has no trigger of its own; give it a trigger or remove it from "
                               "'nodes'")
        elif "nodes" in part and simple_key not in part:
            j.emit(code, eptr, f"node {n} is itself a compound trigger; nested compounds are not defined, "
                               "list "
                   "its parts directly", WARNING)


def drive_fields(j: Json, d: dict[str, Any], ptr: str, required_code: str, negative_code: str) -> None:
    """JOINT-8 / KRB-8 (type, mode, axis present) and JOINT-7 / KRB-7 (no negative gains)."""
    for key in ("type", "mode"):
        if key not in d:
            j.emit(required_code, ptr, f"the drive needs '{key}'")
        else:
            j.string(d, key, ptr)
    if "axis" not in d:
        j.emit(required_code, ptr, "the drive needs 'axis' (0, 1 or 2)")
    elif not is_int(d["axis"]) or not 0 <= d["axis"] <= 2:
        j.emit(required_code, f"{ptr}/axis", f"axis {d['axis']!r} is not 0, 1 or 2")
    for key in ("maxForce", "stiffness", "damping"):
        j.minimum(d, key, ptr, 0.0, negative_code)
    for key in ("positionTarget", "velocityTarget"):
        j.number(d, key, ptr)
