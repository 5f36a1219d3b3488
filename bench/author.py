"""Benchmark: hulls by qhull against the pure-Python quickhull, and CoACD's decomposition time at its defaults.

Rows:
- hull of a 100,000-triangle mesh (a bumpy sphere, 50,002 vertices; and a smooth one, all on the hull):
  ``geometry.hulls.convex_hull`` (qhull via SciPy; target ≤ 0.5 s) against ``bench/quickhull.py`` (the
  project's former pure-Python quickhull);
- ``gltf-physics info``'s summary of the MotionProperties sample (KHR gen3 fixtures: every body's mass
  properties), with qhull's ``hull_triangles`` (as shipped) and with the former Python quickhull in its place;
- CoACD at its own defaults (threshold 0.05, 150 MCTS iterations) and at ``Settings.fast`` on a ring
  (384 triangles) and a mug (192 vertices), seed 0.

Usage: ``python bench/author.py [--skip-python-hull] [--skip-defaults]``. Prints one table; say the machine load
(``uptime``) beside any number you quote.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the test meshes: author_meshes

from gltf_physics.author.decompose import Settings, decompose
from gltf_physics.geometry import integrals
from gltf_physics.geometry.hulls import convex_hull, hull_triangles
from quickhull import python_hull


def bumpy_sphere(rows: int = 250, columns: int = 200, noise: float = 0.02) -> tuple[np.ndarray, np.ndarray]:
    """A closed UV sphere with radial noise: rows × columns + 2 vertices, 2 × rows × columns triangles."""
    rng = np.random.default_rng(0)
    lat = np.linspace(0, math.pi, rows + 2)[1:-1]
    lon = np.linspace(0, 2 * math.pi, columns, endpoint=False)
    la, lo = np.meshgrid(lat, lon, indexing="ij")
    r = 1 + noise * rng.standard_normal(la.shape)
    ring = np.stack([r * np.sin(la) * np.cos(lo), r * np.cos(la), r * np.sin(la) * np.sin(lo)], axis=-1)
    v = np.vstack([ring.reshape(-1, 3), [[0, 1, 0], [0, -1, 0]]])
    tris = []
    for i in range(rows - 1):
        for j in range(columns):
            a, b = i * columns + j, i * columns + (j + 1) % columns
            tris += [[a, a + columns, b], [b, a + columns, b + columns]]
    top, bottom = rows * columns, rows * columns + 1
    tris += [[top, j, (j + 1) % columns] for j in range(columns)]
    last = (rows - 1) * columns
    tris += [[bottom, last + (j + 1) % columns, last + j] for j in range(columns)]
    return v, np.array(tris)


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    """The least wall time of ``repeat`` runs (seconds)."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def motion_properties_rows() -> list[tuple[str, float]]:
    """`info`'s summary of the MotionProperties sample (read, then every body's mass properties), with each hull."""
    import gltf_physics as gp
    from gltf_physics.summary import summarize

    fixtures = Path(os.environ.get("GLTF_PHYSICS_FIXTURES", Path(__file__).resolve().parents[2] / "shared/fixtures"))
    path = fixtures / "KHR_physics_rigid_bodies/gen3-implicit-shapes/MotionProperties/MotionProperties.gltf"
    if not path.is_file():
        return [("MotionProperties: fixture not found", math.nan)]
    def run() -> None:
        doc = gp.load(path)
        summarize(doc, gp.read_scene(doc))

    convex_hull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])  # SciPy imported before timing
    integrals.hull_triangles = python_hull  # the baseline: what the mass integrals called before qhull
    try:
        rows = [("MotionProperties `info` summary, Python quickhull", timed(run, 3))]
    finally:
        integrals.hull_triangles = hull_triangles
    rows.append(("MotionProperties `info` summary, qhull", timed(run, 3)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-python-hull", action="store_true", help="do not run the slow pure-Python hull")
    parser.add_argument("--skip-defaults", action="store_true", help="do not run CoACD at its (slow) defaults")
    args = parser.parse_args()
    v, t = bumpy_sphere()
    rows = [(f"hull, {len(t):,} triangles / {len(v):,} vertices, qhull", timed(lambda: convex_hull(v)))]
    if not args.skip_python_hull:
        rows.append((f"hull, {len(t):,} triangles, Python quickhull", timed(lambda: python_hull(v), 1)))
    smooth, _ = bumpy_sphere(noise=0.0)  # every vertex on the hull: qhull's worst case for this size
    rows.append(("hull, smooth sphere (every vertex on the hull), qhull", timed(lambda: convex_hull(smooth))))
    rows += motion_properties_rows()
    from author_meshes import mug, torus

    for name, (mv, mt) in (("ring", torus(segments=16, sides=12)), ("mug", mug())):
        label = f"{name} ({len(mv)} vertices, {len(mt)} triangles)"
        for effort, settings in (("fast", Settings.fast()), ("defaults", Settings())):
            if effort == "defaults" and args.skip_defaults:
                continue
            start = time.perf_counter()
            parts = decompose(mv, mt, settings)
            rows.append((f"CoACD {effort}, {label}: {len(parts)} parts", time.perf_counter() - start))
    width = max(len(r[0]) for r in rows)
    print(f"{'row':<{width}}  seconds")
    for label, seconds in rows:
        print(f"{label:<{width}}  {seconds:8.3f}")
    print(f"load: {os.getloadavg()[0]:.2f} (1-minute average, {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
