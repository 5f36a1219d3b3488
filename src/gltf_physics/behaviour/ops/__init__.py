"""Every operation the runner knows, merged from one table per domain (like ``geometry/``'s per-shape tables).

A new domain is a module with a ``TABLE`` and one import line here.
"""

from __future__ import annotations

from . import animation, debug, events, flow, math, physics, pointers, selection, types, variables
from .spec import OpSpec

OPS: dict[str, OpSpec] = {}
for _module in (flow, math, types, variables, pointers, events, animation, debug, physics, selection):
    OPS.update(_module.TABLE)

__all__ = ["OPS", "OpSpec"]
