"""Benchmark: peak memory of `simulate --trace` on a long run.

The scene: 2,000 unit boxes (a 20×5×20 grid, 1.5 m apart, dropped onto a static ground), simulated for
120 s at 60 Hz (7,200 steps, 14.4 million trace rows). Each row is a fresh process (`gltf-physics simulate`),
its peak resident set size read from the kernel (``os.wait4``), so the rows do not share a heap:

- no trace (the engine and the scene alone: the floor every trace row is compared with);
- ``--trace t.csv`` and ``--trace t.parquet``: streamed while the run goes;
- "held, then written": the round-1 behaviour reproduced through the API (``World(record=True)``, run, then
  the whole CSV text built in memory and written) — what the CLI did before streaming.

Usage: ``python bench/trace_memory.py [--bodies N] [--duration S]`` (pyarrow needed for the Parquet row).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gltf_physics.dialects import write_scene
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.io import save
from gltf_physics.model import Body, Box, Collider, Motion, PhysicsScene

HELD = """
import sys
from pathlib import Path
from gltf_physics.sim import World
from gltf_physics.sim.trace import trace_text
w = World.from_file(sys.argv[1], record=True)
w.run(float(sys.argv[2]))
Path(sys.argv[3]).write_bytes(trace_text(w.recording).encode())
"""


def write_grid(folder: Path, bodies: int) -> Path:
    """``bodies`` dynamic unit boxes on a 20-wide grid above a static ground, as an OMI glTF."""
    nodes = [{"name": "ground", "translation": [0.0, -0.5, 0.0]}]
    nodes += [{"name": f"box{b}", "translation": [(b % 20) * 1.5 - 15, 1.0 + (b // 400) * 1.5,
                                                   ((b // 20) % 20) * 1.5 - 15]} for b in range(bodies)]
    doc = Document(json={"asset": {"version": "2.0"}, "scenes": [{"nodes": list(range(len(nodes)))}],
                         "scene": 0, "nodes": nodes}, buffers=[])
    scene = PhysicsScene(bodies=[Body(n, Motion()) for n in range(1, len(nodes))],
                         colliders=[Collider(0, Box((200.0, 1.0, 200.0)))]
                         + [Collider(n, Box(), body=n) for n in range(1, len(nodes))], document=doc)
    out, _ = write_scene(scene, doc, "omi")
    path = folder / "grid.gltf"
    save(out, path)
    return path


def peak_rss(args: list[str]) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(args)}")
    return usage.ru_maxrss / 1024, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=2000)
    parser.add_argument("--duration", type=float, default=120.0)
    opts = parser.parse_args()
    cli = [sys.executable, "-m", "gltf_physics", "simulate"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        scene = str(write_grid(folder, opts.bodies))
        duration = str(opts.duration)
        rows = [
            ("no trace", [*cli, scene, "--duration", duration]),
            ("--trace t.csv (streamed)", [*cli, scene, "--duration", duration, "--trace", str(folder / "t.csv")]),
            ("--trace t.parquet (streamed)",
             [*cli, scene, "--duration", duration, "--trace", str(folder / "t.parquet")]),
            ("held, then written (.csv)", [sys.executable, "-c", HELD, scene, duration, str(folder / "h.csv")]),
        ]
        print(f"{opts.bodies} bodies × {opts.duration:g} s at 60 Hz ({round(opts.duration * 60)} steps), "
              "one process per row\n")
        print("| run | peak RSS (MB) | wall (s) | trace size (MB) |")
        print("|-|-|-|-|")
        for label, args in rows:
            mb, seconds = peak_rss(args)
            written = [p for p in folder.iterdir() if p.suffix in (".csv", ".parquet") and p.stat().st_mtime
                       >= time.time() - seconds - 1]
            size = max((p.stat().st_size for p in written), default=0) / 1e6
            print(f"| {label} | {mb:.0f} | {seconds:.1f} | {size:.0f} |")
            for p in written:
                p.unlink()


if __name__ == "__main__":
    main()
