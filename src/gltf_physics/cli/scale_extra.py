"""Whether the [scale] extra is installed, for `batch`, `sweep` and `cluster`, without importing it."""

from __future__ import annotations

from .common import require_extra
from .options import SCALE_MODULES


def installed(what: str) -> None:
    """UsageError with the pip command unless the [scale] extra is installed. Found, not imported: a small job
    runs in this process and never imports Dask (~0.5 s)."""
    from importlib.util import find_spec

    for name in SCALE_MODULES:
        if find_spec(name) is None:
            require_extra(what, "scale", (name,))  # the project's one wording of the missing-extra error
