"""Benchmark: `gltf-physics view --live` on the 1000-box pile of bench/simulate.py.

The server runs as its own process (the CLI, as a user starts it); a headless chromium page (SwiftShader WebGL,
as in the tests) opens it. Every ``--every`` seconds the table gets a row: the pose frames the page received per
second, the simulated seconds per wall second (real-time factor) it was shown, and the server's resident memory.
Without chromium or playwright a Python WebSocket client counts the frames instead (``--client python`` forces
it). Targets: ≥ 30 updates/s at a real-time factor of 1, and flat memory over ``--minutes 10``.

Usage: ``python bench/live.py [--minutes M] [--every S] [--client page|python]``; the default run is 30 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from simulate import write_pile  # the pile scene bench/simulate.py measures

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--no-first-run"]


def rss_mb(pid: int) -> float:
    """Resident memory of a process (MB) from /proc."""
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", text)[1]) / 1024  # type: ignore[index]


def start_server(path: Path) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-m", "gltf_physics", "view", str(path), "--live"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    line = proc.stdout.readline()  # type: ignore[union-attr]
    m = re.match(r"live at (\S+) ", line)
    if not m:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, m[1]


class PageClient:
    """The live page in headless chromium; reads what the page counted."""

    def __init__(self, url: str) -> None:
        from playwright.sync_api import sync_playwright

        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        self.page = self.browser.new_page(viewport={"width": 800, "height": 500})
        self.page.goto(url)
        self.page.wait_for_function("() => window.gltfPhysicsViewer && window.gltfPhysicsViewer.live"
                                    " && window.gltfPhysicsViewer.live.hello", timeout=120_000)

    def read(self) -> tuple[int, float]:
        frames, t = self.page.evaluate("[window.gltfPhysicsViewer.live.framesReceived, window.gltfPhysicsViewer.time]")
        return int(frames), float(t)

    def wait(self, seconds: float) -> None:
        self.page.wait_for_timeout(seconds * 1000)

    def close(self) -> None:
        self.browser.close()
        self.pw.stop()


class PythonClient:
    """A WebSocket client on a thread, counting binary frames and keeping the last simulated time."""

    def __init__(self, url: str) -> None:
        import threading

        from websockets.sync.client import connect

        self.ws = connect(url.replace("http://", "ws://").split("?")[0].rstrip("/") + "/ws"
                          + ("?" + url.split("?")[1] if "?" in url else ""), max_size=None)
        self.frames, self.time = 0, 0.0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import struct

        try:
            for m in self.ws:
                if isinstance(m, bytes):
                    self.frames += 1
                    self.time = struct.unpack_from("<d", m, 8)[0]
        except Exception:  # closed at the end of the run: the count stands
            pass

    def read(self) -> tuple[int, float]:
        return self.frames, self.time

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)

    def close(self) -> None:
        self.ws.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=0.5)
    ap.add_argument("--every", type=float, default=5.0, help="seconds per row")
    ap.add_argument("--client", choices=["page", "python"], default=None)
    args = ap.parse_args()
    use_page = args.client == "page" or (args.client is None and shutil.which(CHROMIUM) is not None)
    with tempfile.TemporaryDirectory() as tmp:
        path = write_pile(Path(tmp), "khr")
        proc, url = start_server(path)
        rows: list[dict[str, Any]] = []
        client: Any = None
        try:
            client = PageClient(url) if use_page else PythonClient(url)
            print(f"server pid {proc.pid}, client: {'chromium page' if use_page else 'python websocket'}, "
                  f"load {os.getloadavg()[0]:.2f}")
            print(f"{'wall s':>7} {'updates/s':>10} {'real-time factor':>17} {'server RSS MB':>14}")
            f0, s0, w0 = *client.read(), time.monotonic()
            start = w0
            while w0 - start < args.minutes * 60:
                client.wait(args.every)
                f1, s1, w1 = *client.read(), time.monotonic()
                row = {"wall": w1 - start, "ups": (f1 - f0) / (w1 - w0), "rtf": (s1 - s0) / (w1 - w0),
                       "rss": rss_mb(proc.pid)}
                rows.append(row)
                print(f"{row['wall']:7.1f} {row['ups']:10.1f} {row['rtf']:17.3f} {row['rss']:14.1f}", flush=True)
                f0, s0, w0 = f1, s1, w1
        finally:
            if client is not None:
                client.close()
            proc.send_signal(2)
            proc.wait(timeout=30)
    if rows:
        settled = rows[1:] or rows  # the first interval includes the page's start
        ups = sorted(r["ups"] for r in settled)
        summary = {"updates_per_s_median": ups[len(ups) // 2], "updates_per_s_min": ups[0],
                   "real_time_factor_median": sorted(r["rtf"] for r in settled)[len(settled) // 2],
                   "rss_mb_first": settled[0]["rss"], "rss_mb_last": settled[-1]["rss"],
                   "rss_mb_max": max(r["rss"] for r in settled), "load_after": os.getloadavg()[0]}
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
