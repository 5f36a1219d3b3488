"""`gltf-physics view IN --live`: the scene's World running in Python, shown and played with in a browser.

    import gltf_physics as gp
    from gltf_physics.view import live
    live.serve(gp.World.from_file("scene.gltf"))       # prints the URL, serves until Ctrl-C
    running = live.start(world); running.url; running.stop()   # in the background

The page is the viewer bundle in live mode: poses stream over a WebSocket (one binary message per frame for all
bodies), the page sends back grabs, vehicle keys, pointer settings and time controls (pause, step, reset, speed).
Needs the ``live`` extra (the ``websockets`` package).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from ...sim.world import World


def start(world: World, *, host: str = "127.0.0.1", port: int = 0, log: Callable[[str], None] | None = None,
          token: str | None = None) -> Any:
    """Serve ``world`` live from a background thread; returns a handle with ``url``, ``server`` and ``stop()``."""
    from .server import LiveServer, Running

    return Running(LiveServer(world, host=host, port=port, log=log, token=token))


def serve(world: World, *, host: str = "127.0.0.1", port: int = 0, announce: Callable[[str], None] = print,
          log: Callable[[str], None] | None = None) -> None:
    """Serve ``world`` live until Ctrl-C; ``announce(url)`` once listening. Returns after a clean stop."""
    from .server import LiveServer

    server = LiveServer(world, host=host, port=port, log=log)

    async def main() -> None:
        await server.start()
        announce(server.url)
        try:
            await asyncio.Event().wait()
        finally:
            await server.stop()

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: main's finally closed the server; the CLI says so
        asyncio.run(main())


__all__ = ["serve", "start"]
