"""`gltf-physics batch validate|info|convert|simulate PATHS...`: one command over many assets on Dask."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .common import UsageError, clean_errors, out
from .options import at_least, choice, run_options, suffix
from .options import workers as check_workers
from .overwrite import Source, refuse_overwrite
from .scale_extra import installed

app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                  help="Run validate, info, convert or simulate over many assets on Dask (files, folders, globs): "
                  "one isolated task per asset, one results table.")

Paths = Annotated[list[str], typer.Argument(metavar="PATHS", help="Files, folders (recursive) or globs.")]
Workers = Annotated[int | None, typer.Option(help="Local worker processes (default: the core count).")]
Scheduler = Annotated[str | None, typer.Option(metavar="tcp://HOST:PORT", help="Use this Dask cluster instead.")]
Timeout = Annotated[float, typer.Option(help="Seconds per asset before it is stopped and marked failed.")]
Memory = Annotated[int, typer.Option("--memory-limit", metavar="MB", help="Memory per asset (0: no limit).")]
Out = Annotated[Path | None, typer.Option("--out", metavar="RESULTS.parquet|.jsonl",
                                          help="Write one row per asset here.")]
Resume = Annotated[bool, typer.Option(help="Keep the rows already in --out (or its journal); run the rest.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar, summary or closing line; errors "
                                     "still print, and the exit status still tells failed assets (1).")]


@app.command("validate")
@clean_errors
def validate(paths: Paths, workers: Workers = None, scheduler: Scheduler = None, timeout: Timeout = 120.0,
             memory_limit: Memory = 4096, out_table: Out = None, resume: Resume = False, quiet: Quiet = False,
             strict: Annotated[bool, typer.Option(help="Warnings fail too (exit 1).")] = False) -> None:
    """Validate every asset: error/warning/info/hint counts and issue codes per row."""
    rows = _run("validate", locals())
    invalid = sum(1 for r in rows if r["status"] == "ok" and (r["errors"] or (strict and r["warnings"])))
    if invalid and not quiet:
        out.print(f"{invalid} asset(s) with errors{' or warnings' if strict else ''}")
    _exit(rows, locals(), invalid)


@app.command("info")
@clean_errors
def info(paths: Paths, workers: Workers = None, scheduler: Scheduler = None, timeout: Timeout = 120.0,
         memory_limit: Memory = 4096, out_table: Out = None, resume: Resume = False,
         quiet: Quiet = False) -> None:
    """Counts by kind (bodies by motion, shapes by kind, joints, triggers...) per asset."""
    _exit(_run("info", locals()), locals())


@app.command("convert")
@clean_errors
def convert(paths: Paths,
            out_dir: Annotated[Path, typer.Option(help="Write the converted files here, mirroring the input tree.")],
            to: Annotated[str | None, typer.Option(help="omi or khr. Without it: lossless re-save.")] = None,
            workers: Workers = None, scheduler: Scheduler = None, timeout: Timeout = 120.0,
            memory_limit: Memory = 4096, out_table: Out = None, resume: Resume = False,
         quiet: Quiet = False) -> None:
    """Convert every asset to the newest OMI or KHR form: output path and losses per row."""
    if to is not None:
        choice("--to", to, ["omi", "khr"])
    _exit(_run("convert", locals(), to=to, out_dir=str(out_dir)), locals())


@app.command("simulate")
@clean_errors
def simulate(paths: Paths, duration: Annotated[float, typer.Option(help="Seconds to simulate.")] = 5.0,
             rate: Annotated[float, typer.Option(help="Steps per second.")] = 60.0,
             substeps: Annotated[int, typer.Option(help="Solver substeps per step.")] = 1,
             workers: Workers = None, scheduler: Scheduler = None, timeout: Timeout = 120.0,
             memory_limit: Memory = 4096, out_table: Out = None, resume: Resume = False,
         quiet: Quiet = False) -> None:
    """Simulate every asset: bodies, steps, largest displacement, lowest/highest body and event count per row."""
    run_options(duration, rate, substeps)
    _exit(_run("simulate", locals(), duration=duration, rate=rate, substeps=substeps), locals())


def _run(command: str, args: dict[str, Any], **options: Any) -> list[dict[str, Any]]:
    _check(args)  # before importing Dask: a usage error should be instant
    installed("batch")
    _refuse_overwrite(args, options)
    from ..scale.batch_driver import batch_rows
    from .batch_progress import BatchProgress

    progress = BatchProgress(command, quiet=args["quiet"])
    try:
        with progress:
            rows = batch_rows(args["paths"], command, workers=args["workers"], scheduler=args["scheduler"],
                          timeout=args["timeout"], memory_mb=args["memory_limit"], out=args["out_table"],
                          resume=args["resume"], on_start=progress.start, on_row=progress.row, **options)
    except KeyboardInterrupt:
        progress.interrupted(args["out_table"])
        raise typer.Exit(130) from None
    except ValueError as e:  # a bad option value the library found (e.g. --out-dir over the inputs)
        raise UsageError(str(e)) from None
    progress.summary(rows)
    return rows


def _check(args: dict[str, Any]) -> None:
    check_workers(args["workers"], args["scheduler"])
    at_least("--timeout", args["timeout"], 0, "the time limit per asset in seconds", strictly=True)
    at_least("--memory-limit", args["memory_limit"], 0, "the memory per asset in MB")
    table = args["out_table"]
    if table is not None:
        suffix("--out", table, [".parquet", ".jsonl"], "the results table")
    if args["resume"] and table is None:
        raise UsageError("--resume needs --out (the table to resume)")


def _refuse_overwrite(args: dict[str, Any], options: dict[str, Any]) -> None:
    """No output (the table, its journal, a converted file) may be one of the assets."""
    from ..scale.paths import expand, mirrored
    from ..scale.table import journal_path

    assets = expand(args["paths"])
    table = args["out_table"]
    outputs: list[tuple[str, Path | None]] = [("--out", table), ("--out", journal_path(table) if table else None)]
    if "out_dir" in options and assets:
        try:
            outputs += [("--out-dir", Path(p)) for p in mirrored(assets, options["out_dir"]).values()]
        except ValueError as e:
            raise UsageError(str(e)) from None
    # The assets' own referenced files are not read here (thousands of files): a converted file's side files are
    # named after it, never after an input's.
    refuse_overwrite([Source(Path(a), references=False) for a in assets], outputs, side_files=False)


def _exit(rows: list[dict[str, Any]], args: dict[str, Any], also_failing: int = 0) -> None:
    """The closing line naming the table written (unless ``--quiet``), then exit 1 if any asset failed."""
    table = args["out_table"]
    if table is not None and not args["quiet"]:
        out.print(f"{len(rows)} rows written to {table}", soft_wrap=True, markup=False, highlight=False)
    if also_failing or any(r["status"] != "ok" for r in rows):
        raise typer.Exit(1)
