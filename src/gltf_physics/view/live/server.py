"""The live server: one port serving the page (HTTP GET) and its WebSocket, on the ``websockets`` library.

The World runs on the server's event loop (one thread: a step never races a message or a disconnect). Each
tick (60 Hz) steps it by the wall time that passed × the speed and offers every client the newest pose frame;
a client that reads slowly gets fewer frames, never a growing queue (one frame slot and a bounded deque of
text messages per client; ``max_queue``/``max_size`` bound what the library buffers on the way in).
Messages are checked by :mod:`.protocol`; a refused one gets one log line and a ``refused`` reply, a flood
is cut by a token bucket and summed up in one line a second. The run steps only while a page is connected:
closing the page stops it. Bound to 127.0.0.1 by default; any other host needs the printed random token in
the URL, and a WebSocket from a page of another origin is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import secrets
import sys
import threading
import time as clock
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ...sim.errors import SimulationError
from ...sim.world import World
from .protocol import MAX_TEXT, Refused, parse
from .session import LiveSession

TICK = 1 / 60  # s between frames sent (and between stepping rounds)
STATUS_EVERY = 0.25  # s between status messages while running
BURST, REFILL = 240.0, 120.0  # a client's message budget: burst size and messages per second
LOG_REFUSED_PER_SECOND = 20  # beyond this a client's refusals are summed up once a second
FLOOD_CLOSE = 20 * int(BURST)  # messages over budget in one window that get the client disconnected
TEXT_QUEUE = 64  # text messages waiting for a slow client (oldest dropped first)


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and ``localhost``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass
class Client:
    """One connected page: its socket, the frame and text messages waiting for it, its message budget."""

    id: int
    ws: ServerConnection
    frame: bytes | None = None
    texts: deque[str] = field(default_factory=lambda: deque(maxlen=TEXT_QUEUE))
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    budget: float = BURST
    refilled: float = field(default_factory=clock.monotonic)
    dropped: int = 0
    refused_logged: int = 0
    window: float = field(default_factory=clock.monotonic)
    driving: set[int] = field(default_factory=set)
    closing: bool = False

    def send_text(self, message: dict[str, Any]) -> None:
        """Queue a JSON message (the oldest waiting one is dropped when TEXT_QUEUE are waiting)."""
        self.texts.append(json.dumps(message, separators=(",", ":"), allow_nan=False))
        self.wake.set()

    def send_frame(self, frame: bytes) -> None:
        """Offer the newest pose frame (it replaces one not yet sent)."""
        self.frame = frame  # only the newest counts
        self.wake.set()

    def take(self) -> bool:
        """Spend one message of the budget; False when the client is over it (a flood)."""
        now = clock.monotonic()
        self.budget = min(BURST, self.budget + (now - self.refilled) * REFILL)
        self.refilled = now
        if self.budget < 1.0:
            return False
        self.budget -= 1.0
        return True


class LiveServer:
    """Serves one World live. ``await start()``, then ``url``; ``await stop()`` ends it.

    Args:
        world: the World to run (reset goes back to its state at start).
        host, port: where to listen (port 0: any free port).
        log: where one-line notices go (refused messages, floods, clients); default stderr.
        token: the URL token; ``None`` makes one for a non-loopback host (loopback needs none).
    """

    def __init__(self, world: World, *, host: str = "127.0.0.1", port: int = 0,
                 log: Callable[[str], None] | None = None, token: str | None = None) -> None:
        self.session = LiveSession(world)
        self.host, self.port = host, port
        self.token = token if token is not None else (None if is_loopback(host) else secrets.token_urlsafe(18))
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.clients: dict[int, Client] = {}
        self._next_id = 1
        self._server: Server | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._events_sent = 0
        self._logs_sent = (0, 0)  # the graph's logs and errors already published
        self._page: bytes | None = None
        self.refused = 0  # messages refused so far (tests read it)
        self.ticks = 0  # rounds of the run loop so far (tests wait on it instead of sleeping)

    # -- life ----------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Build the page and listen."""
        self._page = self._build_page()
        self._server = await serve(self._connection, self.host, self.port, process_request=self._http,
                                   max_size=MAX_TEXT, max_queue=16, ping_interval=20, ping_timeout=20,
                                   close_timeout=2)
        self.port = self._server.sockets[0].getsockname()[1]
        self._ticker = asyncio.create_task(self._tick())

    @property
    def url(self) -> str:
        """The page's address (with the token when one is needed)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        query = f"?token={self.token}" if self.token else ""
        return f"http://{host}:{self.port}/{query}"

    async def stop(self) -> None:
        """Close every connection and the listener."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def _build_page(self) -> bytes:
        from ...validation import validate
        from ..page import build_page

        scene = self.session.scene
        doc = scene.document
        if doc is None:
            raise ValueError("the live viewer needs a scene read from a glTF document")
        return build_page(doc, scene, report=validate(doc), live={"socket": "/ws"}).encode("utf-8")

    # -- HTTP ----------------------------------------------------------------------------------------
    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        parts = urlsplit(request.path)
        if not self._token_ok(parts.query):
            self.log(f"live: refused {parts.path} from {_peer(connection)}: missing or wrong token")
            return connection.respond(HTTPStatus.FORBIDDEN, "a token is required: use the URL the server printed\n")
        if parts.path == "/ws":
            origin = request.headers.get("Origin")
            if origin is not None and urlsplit(origin).netloc != request.headers.get("Host"):
                self.log(f"live: refused a WebSocket from origin {origin[:80]!r}")
                return connection.respond(HTTPStatus.FORBIDDEN, "wrong origin\n")
            return None  # the WebSocket handshake goes on
        if parts.path in ("/", "/index.html"):
            return _response(self._page or b"", "text/html; charset=utf-8")
        if parts.path == "/replay.html":
            return _response(self._replay_page(), "text/html; charset=utf-8", "gltf-physics-live-replay.html")
        if parts.path == "/trace.csv":
            return _response(self.session.trace_csv(), "text/csv; charset=utf-8", "gltf-physics-live-trace.csv")
        return connection.respond(HTTPStatus.NOT_FOUND, "not found\n")

    def _token_ok(self, query: str) -> bool:
        if self.token is None:
            return True
        given = parse_qs(query).get("token", [""])[0]
        return hmac.compare_digest(given.encode(), self.token.encode())

    def _replay_page(self) -> bytes:
        from ..page import build_page

        scene = self.session.scene
        assert scene.document is not None  # checked at start
        return build_page(scene.document, scene, bake=self.session.bake()).encode("utf-8")

    # -- WebSocket -----------------------------------------------------------------------------------
    async def _connection(self, ws: ServerConnection) -> None:
        client = Client(self._next_id, ws)
        self._next_id += 1
        self.clients[client.id] = client
        self.log(f"live: client {client.id} connected from {_peer(ws)} ({len(self.clients)} connected)")
        s = self.session
        client.send_text(s.hello())
        client.send_text(s.status())
        if s.world.events():
            client.send_text({"type": "events", "events": s.world.events()})
        client.send_frame(s.frame())
        sender = asyncio.create_task(self._sender(client))
        try:
            async for raw in ws:
                self._receive(client, raw)
        except ConnectionClosed as e:
            if (e.rcvd is not None and e.rcvd.code == 1009) or (e.sent is not None and e.sent.code == 1009):
                self._refuse(client, f"a message over {MAX_TEXT} bytes (connection closed)")
        finally:
            sender.cancel()
            self._gone(client)

    def _gone(self, client: Client) -> None:
        """A client left: its grab lets go, the vehicles it drove coast to a stop."""
        self.clients.pop(client.id, None)
        self.session.release(client.id)
        for node in client.driving:
            with contextlib.suppress(ValueError, SimulationError):
                self.session.drive(node, 0.0, 0.0, False)
        self.log(f"live: client {client.id} left ({len(self.clients)} connected)")

    async def _sender(self, client: Client) -> None:
        ws = client.ws
        with contextlib.suppress(ConnectionClosed, asyncio.CancelledError):
            while True:
                await client.wake.wait()
                client.wake.clear()
                while client.texts:
                    await ws.send(client.texts.popleft())
                frame, client.frame = client.frame, None
                if frame is not None:
                    await ws.send(frame)  # waits while the client's buffer is full: it then skips frames

    def _receive(self, client: Client, raw: str | bytes) -> None:
        if client.closing:
            return
        if not client.take():
            client.dropped += 1
            self._summarise(client)
            if client.dropped >= FLOOD_CLOSE:  # reading a flood costs the loop even when it is dropped
                client.closing = True
                self.log(f"live: client {client.id} flooded: {client.dropped} messages over its budget, disconnected")
                asyncio.get_running_loop().create_task(client.ws.close(1008, "message flood"))
            return
        try:
            message = parse(raw)
            self._act(client, message.type, message.fields)
        except Refused as e:
            self._refuse(client, str(e))
        except (ValueError, SimulationError) as e:
            self._refuse(client, str(e).splitlines()[0] if str(e) else type(e).__name__)

    def _refuse(self, client: Client, reason: str) -> None:
        self.refused += 1
        client.send_text({"type": "refused", "reason": reason})
        self._summarise(client)
        if client.refused_logged < LOG_REFUSED_PER_SECOND:
            client.refused_logged += 1
            self.log(f"live: refused a message from client {client.id}: {reason}")
        else:
            client.dropped += 1

    def _summarise(self, client: Client) -> None:
        now = clock.monotonic()
        if now - client.window < 1.0:
            return
        if client.dropped:
            self.log(f"live: client {client.id} flooded: {client.dropped} messages dropped or refused unlogged "
                     f"in the last {now - client.window:.1f} s")
        client.window, client.dropped, client.refused_logged = now, 0, 0

    def _act(self, client: Client, kind: str, f: dict[str, Any]) -> None:
        s = self.session
        if kind == "ping":
            client.send_text(s.status() | {"type": "pong"})
            return
        if kind == "pause":
            s.set_paused(True)
        elif kind == "play":
            s.set_paused(False)
        elif kind == "step":
            s.set_paused(True)
            s.step_once()
        elif kind == "reset":
            s.reset()
            self._events_sent = 0
            self._logs_sent = (len(s.world.graph.logs), len(s.world.graph.errors)) if s.world.graph else (0, 0)
            self._broadcast_text({"type": "reset"})
        elif kind == "speed":
            s.set_speed(f["value"])
        elif kind == "set":
            s.set(f["pointer"], f["value"])
            self._broadcast_text({"type": "applied", "pointer": f["pointer"], "value": f["value"], "time": s.time})
        elif kind == "grab":
            s.grab(client.id, f["node"], f["point"])
        elif kind == "drag":
            s.drag(client.id, f["target"])
        elif kind == "release":
            s.release(client.id)
        elif kind == "select":  # a click: the behaviour graph's event/onSelect (KHR_node_selectability)
            s.world.select(f["node"], f["point"], f["origin"])
        elif kind == "hover":
            s.world.hover(f["node"])
        elif kind == "drive":
            s.drive(f["node"], f["throttle"], f["steer"], f["brake"])
            client.driving.add(f["node"])
            for entry in list(s.inputs)[-3:]:  # the pointers the keys set, as a `set` would report them
                self._broadcast_text({"type": "applied", **entry})
        self._publish(status=True)

    # -- the run -------------------------------------------------------------------------------------
    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        last = due = loop.time()
        status_at = 0.0
        while True:
            now = loop.time()
            steps = 0
            if self.clients:  # the run moves only while someone watches it
                try:
                    steps = self.session.advance(now - last)
                except SimulationError as e:
                    self.session.set_paused(True)
                    self.log(f"live: the run stopped: {e}")
                    self._broadcast_text({"type": "error", "message": str(e)})
            last = now
            if steps:
                self._publish(status=now - status_at >= STATUS_EVERY)
                if now - status_at >= STATUS_EVERY:
                    status_at = now
            self.ticks += 1
            due += TICK
            delay = due - loop.time()
            if delay < 0:
                due = loop.time()  # behind: do not try to catch up frames
                delay = 0
            await asyncio.sleep(delay)

    def _publish(self, status: bool) -> None:
        s = self.session
        self._graph_lines()
        events = s.world.events()
        if len(events) > self._events_sent:
            self._broadcast_text({"type": "events", "events": events[self._events_sent:]})
            self._events_sent = len(events)
        if status:
            self._broadcast_text(s.status())
        frame = s.frame()
        for c in self.clients.values():
            c.send_frame(frame)

    def _graph_lines(self) -> None:
        """The behaviour graph's new debug/log lines and errors, on the server's log and to the pages."""
        runner = self.session.world.graph
        if runner is None:
            return
        lines = [("log", x) for x in runner.logs[self._logs_sent[0]:]] + \
            [("graph_error", x) for x in runner.errors[self._logs_sent[1]:]]
        self._logs_sent = (len(runner.logs), len(runner.errors))
        for kind, line in lines:
            self.log(f"live: graph {'log' if kind == 'log' else 'error'} {line}")
        if lines:
            self._broadcast_text({"type": "graph", "lines": [
                {"event": kind, "time": x.time, "message": x.message, "pointer": x.pointer} for kind, x in lines]})

    def _broadcast_text(self, message: dict[str, Any]) -> None:
        for c in self.clients.values():
            c.send_text(message)


def _response(body: bytes, content_type: str, download: str | None = None) -> Response:
    headers = Headers([("Content-Type", content_type), ("Content-Length", str(len(body))),
                       ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")])
    if download:
        headers["Content-Disposition"] = f'attachment; filename="{download}"'
    return Response(200, "OK", headers, body)


def _peer(connection: ServerConnection) -> str:
    addr = connection.remote_address
    return f"{addr[0]}:{addr[1]}" if isinstance(addr, tuple) and len(addr) >= 2 else str(addr)


class Running:
    """A LiveServer on its own thread and event loop (for tests, notebooks and ``World`` scripts)."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            try:
                self.loop.run_until_complete(server.start())
            except BaseException as e:
                failure.append(e)
                ready.set()
                return
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, name="gltf-physics-live", daemon=True)
        self.thread.start()
        ready.wait()
        if failure:
            raise failure[0]

    @property
    def url(self) -> str:
        """The page's address."""
        return self.server.url

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the server's loop (between steps) and return its result."""
        async def wrapped() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(wrapped(), self.loop).result(timeout=30)

    def stop(self) -> None:
        """Stop the server and its thread."""
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
