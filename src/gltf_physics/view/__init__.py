"""`gltf-physics view`: a self-contained HTML viewer page, a local server for it, and a matplotlib preview.

    from gltf_physics.view import build_page, write_page, serve, render_png
"""

from __future__ import annotations

from typing import Any

from ..lazy import listing

_LAZY = {
    "build_page": "page", "write_page": "page", "viewer_bundle": "page", "ViewerNotBuilt": "page",
    "build_overlay": "overlay", "record": "bake", "render_png": "png",
    "serve": "serve", "serve_forever": "serve", "start": "serve",
}


def __getattr__(name: str) -> Any:
    # Lazy: the PNG preview imports matplotlib and a simulated page imports the engine, only when asked.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(name)


__all__ = sorted(_LAZY)
__dir__ = listing(__name__, __all__)
