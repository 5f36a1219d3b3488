"""`batch validate` over 1,000 generated assets with 1 and 2 local Dask workers.

The assets mix families and sizes: OMI gen4 and KHR gen3 documents (bench/validate.py's generators), valid and
broken (a negative mass, a shape index out of range), 2% of them large (10,000 nodes), the rest 4–80 nodes.
Baselines run in the same process: plain in-process ``validate_file`` over every asset (one core, no Dask), and
a shell loop of ``gltf-physics validate FILE`` timed on a sample and extrapolated. Every batch table is checked
against the in-process reports: the same counts and codes for every one of the assets.
Run: ``python bench/batch.py [--assets N] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gltf_physics.scale.batch_driver import batch
from gltf_physics.scale.cluster import open_client
from gltf_physics.validation import Severity, validate_file
from validate import khr_document, omi_document

LARGE_EVERY = 50  # 2% large
LARGE_GROUPS = 2500  # 10,000 nodes


def asset(k: int) -> dict[str, Any]:
    """The k-th asset: family, size and breakage cycle with k."""
    groups = LARGE_GROUPS if k % LARGE_EVERY == 0 else 1 + (k * 7) % 20
    doc = (omi_document if k % 2 == 0 else khr_document)(groups)
    if k % 3 == 1:  # broken: a negative mass on the first body
        ext = doc["nodes"][0]["extensions"]
        next(iter(ext.values()))["motion"]["mass"] = -1
    elif k % 5 == 2:  # broken: a collider names a shape that does not exist
        ext = doc["nodes"][1]["extensions"]
        collider = next(iter(ext.values()))["collider"]
        if "geometry" in collider:
            collider["geometry"]["shape"] = 99
        else:
            collider["shape"] = 99
    return copy.deepcopy(doc)


def generate(folder: Path, n: int) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(n):
        path = folder / f"{k // 100:02d}" / f"asset{k:04d}.gltf"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(asset(k)), encoding="utf-8")
        paths.append(str(path))
    return sorted(paths)


def figures(path: str) -> dict[str, Any]:
    report = validate_file(path)
    return {"errors": report.num_errors, "warnings": report.num_warnings, "infos": report.count(Severity.INFO),
            "hints": report.count(Severity.HINT), "codes": sorted(report.codes)}


def shell_loop(paths: list[str]) -> float:
    """Seconds per file of `gltf-physics validate FILE`, one process per file."""
    start = time.perf_counter()
    for p in paths:
        subprocess.run([sys.executable, "-m", "gltf_physics", "validate", p], capture_output=True, check=False)
    return (time.perf_counter() - start) / len(paths)


def run_batch(folder: Path, workers: int, reference: dict[str, dict[str, Any]]) -> tuple[float, float, bool]:
    """(cluster start-up seconds, batch seconds, table equals the reference)."""
    start = time.perf_counter()
    with open_client(workers=workers) as client:
        client.wait_for_workers(workers)
        started = time.perf_counter()
        table = batch([folder], "validate", client=client)
        done = time.perf_counter()
    rows = table.to_pylist()
    same = len(rows) == len(reference) and all(
        r["status"] == "ok" and {k: r[k] for k in ("errors", "warnings", "infos", "hints", "codes")} ==
        reference[r["path"]] for r in rows)
    return started - start, done - started, same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assets", type=int, default=1000)
    parser.add_argument("--shell-sample", type=int, default=30, help="files timed in the shell-loop baseline")
    parser.add_argument("--keep", type=Path, help="generate the assets here and keep them")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds; the best of each is shown")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = args.keep or Path(temp) / "assets"
        start = time.perf_counter()
        paths = generate(folder, args.assets)
        size = sum(os.path.getsize(p) for p in paths) / 1e6
        print(f"{len(paths)} assets, {size:.1f} MB, generated in {time.perf_counter() - start:.1f} s; "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
        per_file = shell_loop(paths[:: max(1, len(paths) // args.shell_sample)][: args.shell_sample])
        # Rounds interleave the setups, so that a change in the machine's load hits them all alike.
        loops, runs = [], []
        for _ in range(args.rounds):
            start = time.perf_counter()
            reference = {p: figures(p) for p in paths}
            loops.append(time.perf_counter() - start)
            runs.append({n: run_batch(folder, n, reference) for n in (1, 2)})
        in_process = min(loops)
        results = {n: (*min((r[n] for r in runs), key=lambda x: x[1])[:2], all(r[n][2] for r in runs))
                   for n in (1, 2)}
    rows = [("in-process validate_file loop (1 core)", None, in_process, True),
            (f"shell loop of `gltf-physics validate` (extrapolated from {args.shell_sample})", None,
             per_file * len(paths), None)]
    rows += [(f"batch validate, {n} local worker{'s' * (n > 1)}", up, t, same) for n, (up, t, same) in results.items()]
    one = results[1][1]
    print(f"{'setup':<62} {'cluster s':>9} {'batch s':>8} {'assets/s':>9} {'vs 1 worker':>11}  equal")
    for name, up, seconds, same in rows:
        print(f"{name:<62} {'' if up is None else f'{up:.1f}':>9} {seconds:>8.2f} {len(paths) / seconds:>9.0f} "
              f"{one / seconds:>10.2f}×  {'' if same is None else ('yes' if same else 'NO')}")
    print(f"best of {args.rounds} interleaved rounds; 'equal' holds in every round; load average after: "
          f"{os.getloadavg()[0]:.1f} (other work on this machine depresses the speed-up)")


if __name__ == "__main__":
    main()
