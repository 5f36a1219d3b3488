"""`gltf-physics sweep SCENE --vary POINTER=SPEC ... --runs N`: one scene, many runs, varied parameters, on Dask."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import UsageError, clean_errors
from .options import at_least, run_options, suffix
from .options import workers as check_workers
from .overwrite import Source, refuse_overwrite
from .scale_extra import installed


@clean_errors
def sweep(
    scene: Annotated[Path, typer.Argument(metavar="SCENE")],
    vary: Annotated[list[str], typer.Option(
        metavar="POINTER=SPEC", help="uniform(a,b), normal(mu,sigma), choice(v1,...), grid(a,b,n), a JSON value, "
        "or a list of these per component, e.g. [uniform(0,5),2,0].")],
    out_table: Annotated[Path, typer.Option("--out", metavar="RUNS.parquet|.jsonl",
                                            help="One row per (run, body).")],
    runs: Annotated[int | None, typer.Option(help="Number of runs (default: the grid size).")] = None,
    duration: Annotated[float, typer.Option(help="Seconds per run.")] = 5.0,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same tables.")] = 0,
    rate: Annotated[float, typer.Option(help="Steps per second.")] = 60.0,
    substeps: Annotated[int, typer.Option(help="Solver substeps per step.")] = 1,
    trajectories: Annotated[Path | None, typer.Option(
        metavar="TRAJ.parquet", help="Also write every run's pose trace (long format).")] = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes (default: the core count).")] = None,
    scheduler: Annotated[str | None, typer.Option(metavar="tcp://HOST:PORT",
                                                  help="Use this Dask cluster instead.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or closing line; errors still "
                                        "print.")] = False,
) -> None:
    """Run SCENE many times varying glTF Object Model pointers; final poses per (run, body) in one table."""
    from ..scale.specs import SpecError, plan
    from ..scale.sweep_task import check_pointer

    _check(duration, rate, substeps, runs, workers, scheduler, out_table, trajectories)
    varied = dict(_parse_vary(v) for v in vary)
    if not scene.is_file():
        raise UsageError(f"{scene}: no such file")
    try:  # before Dask is imported and a cluster started: a typo should be instant
        plan(varied, runs)
        for pointer in varied:
            check_pointer(pointer)
    except (SpecError, ValueError) as e:
        raise UsageError(f"{scene}: {e}") from None
    installed("sweep")
    refuse_overwrite([Source(scene)], [("--out", out_table), ("--trajectories", trajectories)])
    from ..scale.sweep_driver import sweep as run_sweep

    with _Bar(quiet) as bar:
        try:
            table = run_sweep(scene, varied, runs, duration=duration, seed=seed, rate=rate, substeps=substeps,
                              out=out_table, trajectories=trajectories, workers=workers, scheduler=scheduler,
                              on_start=bar.start, on_run=bar.advance)
        except (SpecError, ValueError) as e:
            raise UsageError(f"{scene}: {e}") from None
    if quiet:
        return
    runs_done = len(set(table.column("run").to_pylist()))
    sys.stdout.write(f"{table.num_rows} rows ({runs_done} runs) written to {out_table}\n")


def _parse_vary(text: str) -> tuple[str, str]:
    pointer, sep, spec = text.partition("=")
    if not sep or not pointer.startswith("/") or not spec:
        raise UsageError(f"--vary {text!r}: expected POINTER=SPEC, e.g. /nodes/0/.../gravityFactor=uniform(0,2)")
    return pointer, spec


def _check(duration: float, rate: float, substeps: int, runs: int | None, workers: int | None,
           scheduler: str | None, out_table: Path, trajectories: Path | None) -> None:
    run_options(duration, rate, substeps)
    if runs is not None:
        at_least("--runs", runs, 1, "the number of runs")
    check_workers(workers, scheduler)
    suffix("--out", out_table, [".parquet", ".jsonl"], "the runs table")
    if trajectories is not None:
        suffix("--trajectories", trajectories, [".parquet"], "the trajectory table")


class _Bar:
    """A progress bar of runs on stderr (only where someone watches, and not when quiet)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet

    def __enter__(self) -> _Bar:
        from rich.console import Console
        from rich.progress import Progress

        self.progress = Progress(console=Console(stderr=True), disable=self.quiet or not sys.stderr.isatty())
        self.progress.__enter__()
        self.task = self.progress.add_task("sweep", total=None)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.__exit__(*exc)

    def start(self, runs: int) -> None:
        self.progress.update(self.task, total=runs)

    def advance(self, run: int) -> None:
        self.progress.advance(self.task)
