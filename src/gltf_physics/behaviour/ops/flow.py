"""The `flow/*` operations."""

from __future__ import annotations

from .spec import table

TABLE = table()
