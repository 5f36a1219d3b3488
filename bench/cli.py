"""Start-up CPU of the command line (`--help` and `info` on a tiny file ≤ 0.25 s CPU).

Runs each command as a fresh process several times, in interleaved rounds, and reports the least and the median
user+system CPU seconds of the child (``os.wait4``; the least is the cost with the least interference from other
work on a shared host, as ``timeit`` reports it), beside baselines run the same way: an empty interpreter, the
imports every command pays before doing anything (typer), what a rich table would add (`info` prints plain text
since that cost ~0.06 s), what `info` cannot do without (numpy: the read path's transforms and mass properties)
and what typer 0.29's pydantic coercion would add per command (the reason pyproject.toml pins typer < 0.29).
Measured with bytecode caches, as an installed package runs (the caches are written by the first, unmeasured
run). Also lists the heavy modules each command loads.
Run: ``python bench/cli.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
TINY = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
        "nodes": [{"name": "box", "extensions": {"KHR_physics_rigid_bodies": {
            "motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}}}]}
HEAVY = ["numpy", "rapier3d", "matplotlib", "pyarrow", "dask", "distributed", "pydantic", "rich"]
ONE_THREAD = "import os; os.environ['OPENBLAS_NUM_THREADS'] = '1'; "  # as cli/__init__.py sets it


def cpu_seconds(argv: list[str], env: dict[str, str]) -> float:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def interleaved_cpu(rows: list[list[str]], env: dict[str, str], repeat: int) -> list[list[float]]:
    """CPU seconds of ``repeat`` runs of every argv in ``rows``, run in rounds (each round runs every row once),
    so that a change in the machine's speed during the bench (a shared host) falls on every row alike."""
    for argv in rows:
        cpu_seconds(argv, env)  # warm the page cache (and write bytecode caches where allowed)
    runs: list[list[float]] = [[] for _ in rows]
    for _ in range(repeat):
        for argv, seconds in zip(rows, runs, strict=True):
            seconds.append(cpu_seconds(argv, env))
    return runs


def loaded(args: list[str], env: dict[str, str]) -> list[str]:
    """Heavy top-level packages in sys.modules at the end of the command."""
    code = ("import sys, runpy; sys.argv = ['gltf-physics', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('gltf_physics', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            f"print(' '.join(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
    return result.stderr.strip().splitlines()[-1:] or [""]


def _version(distribution: str) -> str:
    """The installed version of ``distribution``, or ``""``."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        tiny = Path(temp) / "tiny.gltf"
        tiny.write_text(json.dumps(TINY), encoding="utf-8")
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), base.get("PYTHONPATH")]))
        py = [sys.executable]
        baselines = [("python -c pass", ["-c", "pass"]), ("import typer", ["-c", "import typer"]),
                     ("import typer, rich.console, rich.table", ["-c", "import typer, rich.console, rich.table"]),
                     ("import numpy (one BLAS thread)", ["-c", ONE_THREAD + "import numpy"]),
                     ("import numpy (default BLAS threads)", ["-c", "import numpy"]),
                     ("import typer, numpy (one BLAS thread)", ["-c", ONE_THREAD + "import typer, numpy"]),
                     ("+ pydantic TypeAdapter (typer 0.29 coercion)", ["-c", "import typer, rich.console; "
                      "from pydantic import TypeAdapter; TypeAdapter(int).validate_python('1')"])]
        commands = [("gltf-physics --help", ["--help"]), ("gltf-physics info tiny.gltf", ["info", str(tiny)]),
                    ("gltf-physics info tiny.gltf --json", ["info", str(tiny), "--json"]),
                    ("gltf-physics batch --help", ["batch", "--help"]), ("gltf-physics sweep --help",
                                                                         ["sweep", "--help"])]
        if not _version("pydantic"):
            baselines = [b for b in baselines if "pydantic" not in b[0]]
        rows = [py + argv for _, argv in baselines] + [[*py, "-m", "gltf_physics", *argv] for _, argv in commands]
        runs = interleaved_cpu(rows, base, args.repeat)
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.repeat} interleaved rounds; "
              f"typer {_version('typer')}; target ≤ 0.25 s for --help and info")
        print(f"{'process':<44} {'min s':>6} {'median s':>8}  heavy modules loaded")
        for k, (name, argv) in enumerate(baselines + commands):
            heavy = (loaded(argv, base)[0] or "-") if k >= len(baselines) else ""
            print(f"{name:<44} {min(runs[k]):>6.3f} {statistics.median(runs[k]):>8.3f}  {heavy}")


if __name__ == "__main__":
    main()
