"""Start-up CPU of the command line (issue 14: `--help` and `info` on a tiny file ≤ 0.25 s CPU).

Runs each command as a fresh process several times and reports the median user+system CPU seconds of the
child (``os.wait4``), beside baselines run the same way: an empty interpreter, and the imports every command
pays before doing anything (typer and rich; typer's pydantic-based parameter coercion; numpy). Measured with
bytecode caches (as an installed package runs) and, for reference, without (PYTHONDONTWRITEBYTECODE, every
module compiled from source on each start). Also lists heavy modules each command loads that it should not.
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
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
TINY = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
        "nodes": [{"name": "box", "extensions": {"KHR_physics_rigid_bodies": {
            "motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}}}]}
HEAVY = ["numpy", "rapier3d", "matplotlib", "pyarrow", "dask", "distributed", "pydantic"]


def cpu_seconds(argv: list[str], env: dict[str, str]) -> float:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def median_cpu(argv: list[str], env: dict[str, str], repeat: int) -> float:
    cpu_seconds(argv, env)  # warm the page cache (and write bytecode caches where allowed)
    return statistics.median(cpu_seconds(argv, env) for _ in range(repeat))


def loaded(args: list[str], env: dict[str, str]) -> list[str]:
    """Heavy top-level packages in sys.modules at the end of the command."""
    code = ("import sys, runpy; sys.argv = ['gltf-physics', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('gltf_physics', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            f"print(' '.join(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
    return result.stderr.strip().splitlines()[-1:] or [""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        tiny = Path(temp) / "tiny.gltf"
        tiny.write_text(json.dumps(TINY), encoding="utf-8")
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), base.get("PYTHONPATH")]))
        cold = {**base, "PYTHONDONTWRITEBYTECODE": "1"}
        py = [sys.executable]
        baselines = [("python -c pass", ["-c", "pass"]), ("import typer, rich.console", ["-c",
                     "import typer, rich.console"]), ("+ typer's parameter coercion (pydantic)", ["-c",
                     "import typer, rich.console, typer._adapters"]),
                     ("import numpy (one BLAS thread)", ["-c", "import os; os.environ['OPENBLAS_NUM_THREADS']='1';"
                                                         " import numpy"]),
                     ("import numpy (default BLAS threads)", ["-c", "import numpy"])]
        commands = [("gltf-physics --help", ["--help"]), ("gltf-physics info tiny.gltf", ["info", str(tiny)]),
                    ("gltf-physics batch --help", ["batch", "--help"]), ("gltf-physics sweep --help",
                                                                         ["sweep", "--help"])]
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; median of {args.repeat} runs; "
              "target ≤ 0.25 s for --help and info")
        print(f"{'process':<44} {'CPU s':>7} {'no .pyc':>8}  heavy modules loaded")
        for name, argv in baselines:
            print(f"{name:<44} {median_cpu(py + argv, base, args.repeat):>7.3f}")
        for name, argv in commands:
            warm = median_cpu([*py, "-m", "gltf_physics", *argv], base, args.repeat)
            nocache = median_cpu([*py, "-m", "gltf_physics", *argv], cold, args.repeat)
            print(f"{name:<44} {warm:>7.3f} {nocache:>8.3f}  {loaded(argv, base)[0] or '-'}")


if __name__ == "__main__":
    main()
