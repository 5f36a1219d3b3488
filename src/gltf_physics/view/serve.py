"""Serve one page on 127.0.0.1 (never another interface: the page is for the person at this machine).

``serve(path)`` starts a background HTTP server that answers only with that file and returns its address
(``start`` returns the server object, to ``close()`` it); ``serve_forever(path)`` is the blocking form the
CLI uses until Ctrl-C.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HOST = "127.0.0.1"


def _handler(page: Path) -> type[BaseHTTPRequestHandler]:
    class PageHandler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            # Only "/" and the page's own name: the server exposes no other file of the folder.
            if self.path.split("?")[0] not in ("/", "/" + page.name):
                self.send_error(404)
                return
            body = page.read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet: the CLI prints the address only
            pass

    return PageHandler


class PageServer:
    """A running server; ``url`` is its address, ``close()`` stops it."""

    def __init__(self, path: str | Path, port: int = 0) -> None:
        self.page = Path(path).resolve()
        if not self.page.is_file():
            raise FileNotFoundError(2, "no such page", str(self.page))
        self.httpd = ThreadingHTTPServer((HOST, port), _handler(self.page))
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.httpd.server_address[1]}/"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


_RUNNING: list[PageServer] = []


def start(path: str | Path, port: int = 0) -> PageServer:
    """Start serving ``path`` in the background (port 0 = any free port); ``.url`` is the address."""
    return PageServer(path, port)


def serve(path: str | Path, port: int = 0) -> str:
    """Serve ``path`` in the background for the life of the process and return its address."""
    server = PageServer(path, port)
    _RUNNING.append(server)
    return server.url


def serve_forever(path: str | Path, port: int = 0, announce: object = print) -> None:
    """Serve until interrupted; ``announce(url)`` is called once the address is known."""
    server = PageServer(path, port)
    try:
        announce(server.url)  # type: ignore[operator]
        server.thread.join()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
