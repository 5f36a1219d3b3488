"""`gltf-physics view`: a self-contained HTML page (or a PNG preview) of the scene and a run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import UsageError, clean_errors, out


@clean_errors
def view(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    simulate: Annotated[float | None, typer.Option(help="Simulate this many seconds and embed the run.")] = None,
    out_page: Annotated[Path | None, typer.Option("--out", help="The HTML page to write.")] = None,
    serve: Annotated[bool, typer.Option(help="Serve the page on 127.0.0.1 and print its address.")] = False,
    png: Annotated[Path | None, typer.Option(help="Render a static PNG preview instead (no browser).")] = None,
) -> None:
    """Write one self-contained HTML page showing the scene's physics (and a simulated run)."""
    from ..api import load, read_scene
    from ..validate import validate as validate_doc
    from ..view import bake, page
    from ..view import png as png_preview
    from ..view import serve as serving

    if simulate is not None and not simulate >= 0:
        raise UsageError(f"--simulate must be a number of seconds ≥ 0, not {simulate}")
    doc = load(src)
    scene = read_scene(doc)
    run = bake.record(scene, simulate) if simulate is not None else None
    if png is not None:
        png_preview.render_png(doc, scene, png, trajectories=bake.trajectories(run) if run else None)
        return
    target = out_page or src.with_suffix(".html")
    page.write_page(target, doc, scene, bake=run, report=validate_doc(doc))
    out.print(f"wrote {target}")
    if serve:
        serving.serve_forever(target, announce=lambda url: out.print(f"serving {target} at {url} (Ctrl-C stops)"))
