"""`gltf-physics view`: a self-contained HTML page (or a PNG preview) of the scene and a run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .common import UsageError, clean_errors, out
from .options import at_least, number, suffix
from .overwrite import Source, refuse_overwrite
from .progress import RunProgress
from .simulate import say_hints


@clean_errors
def view(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    simulate: Annotated[float | None, typer.Option(
        metavar="S", help="Seconds to simulate and embed; 0 for a static page. Default: 5 s, or the file's "
                          "animation if longer (shorter for huge scenes).")] = None,
    out_page: Annotated[Path | None, typer.Option("--out", help="The HTML page to write (default: IN's name "
                                                                "with .html).")] = None,
    serve: Annotated[bool, typer.Option(help="Serve the page on 127.0.0.1 and print its address.")] = False,
    png: Annotated[Path | None, typer.Option(metavar="OUT.png", help="Write a picture instead: the page at --at "
                                             "S, by a headless chromium (without one, a drawing of the colliders "
                                             "and paths).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
    at: Annotated[float | None, typer.Option(
        metavar="S", help="With --png: the moment of the run to picture, in seconds (default 0), rendered by a "
                          "headless chromium.")] = None,
    ground: Annotated[bool, typer.Option(help="Add a static ground under the scene's lowest point, for the run "
                                              "and the page (the file is not changed).")] = False,
    live: Annotated[bool, typer.Option(help="Run the scene live in Python and serve a page to play with it (grab, "
                                            "drive, tune, pause/step/reset) until Ctrl-C; prints its URL.")] = False,
    port: Annotated[int, typer.Option(help="--live: the port (0: any free port).")] = 0,
    host: Annotated[str, typer.Option(help="--live: the interface to listen on; other than loopback, the printed URL "
                                           "carries a random token the server requires.")] = "127.0.0.1",
    rate: Annotated[float, typer.Option(help="--live: steps per second.")] = 60.0,
    engine: Annotated[str, typer.Option(metavar="rapier|mujoco", help="--live: the engine.")] = "rapier",
    joints: Annotated[str, typer.Option(metavar="multibody|impulse",
                                        help="--live: joint trees on multibodies, or every joint on impulse joints."
                                        )] = "multibody",
) -> None:
    """Write one self-contained HTML page showing the scene's physics and a simulated run.

    Example: gltf-physics view examples/tumbling_boxes.gltf --out boxes.html
    """
    from ..api import load, read_scene
    from ..validation import validate as validate_doc
    from ..view import bake, page
    from ..view import serve as serving
    from .messages import view_summary

    if simulate is not None:
        at_least("--simulate", simulate, 0, "the run's length in seconds")
    if png is not None:
        suffix("--png", png, [".png"], "the preview (a PNG picture)")
    if out_page is not None:
        suffix("--out", out_page, [".html"], "the page")
    if at is not None:
        at_least("--at", at, 0, "the moment to picture in seconds")
        if png is None:
            raise UsageError(f"--at {number(at)}: needs --png OUT.png (the picture of that moment)")
    doc = load(src)
    target = png if png is not None else out_page or src.with_suffix(".html")
    refuse_overwrite([Source(src, doc.json)], [("--png" if png else "--out" if out_page else "page", target)])
    scene = read_scene(doc)
    if ground:
        from ..view.ground import add_ground

        doc, scene = add_ground(doc, scene)
    if not quiet:
        say_hints(src, scene, doc.json)
    if live:
        _live(scene, port=port, host=host, rate=rate, engine=engine, joints=joints)
        return
    # By default a run is embedded, unless nothing in the scene can move (no dynamic or kinematic body).
    seconds = (bake.natural_length(scene) if bake.moving_bodies(scene) else 0.0) if simulate is None else simulate
    if at is not None and at > seconds:
        raise UsageError(f"--at {number(at)}: after the end of the run ({number(seconds)} s); "
                         f"--simulate {number(at)} runs that long")
    run = None
    if seconds > 0:
        with RunProgress("baking the run", seconds, bake.DEFAULT_RATE) as progress:
            run = bake.record(scene, seconds, on_step=progress.on_step)
    if png is not None:
        _picture(doc, scene, run, png, at)
    else:
        page.write_page(target, doc, scene, bake=run, report=validate_doc(doc))
    if not quiet:
        for line in view_summary(target, scene, run, src, at):
            out.print(line)
    if serve and png is None:
        serving.serve_forever(target, announce=lambda url: out.print(f"serving {target} at {url} (Ctrl-C stops)"))


def _picture(doc: Any, scene: Any, run: dict[str, Any] | None, png: Path, at: float | None) -> None:
    """The page at ``at`` seconds, photographed by a headless chromium; without one, the matplotlib preview of
    the colliders and paths (which has no single moment, so ``--at`` then needs the browser)."""
    from ..validation import validate as validate_doc
    from ..view import bake, headless, page
    from ..view import png as png_preview
    from ..view.framing import frame_box

    if headless.find_chromium() is None:
        if at is not None:
            raise headless.NoBrowser(f"--at {number(at)}: no chromium found to render the page (install chromium "
                                     f"or set {headless.ENV}); without --at a browserless preview is drawn")
        paths = bake.trajectories(run) if run else None
        png_preview.render_png(doc, scene, png, trajectories=paths, frame=frame_box(doc, scene, paths))
        return
    html = page.build_page(doc, scene, bake=run, report=validate_doc(doc))
    headless.screenshot(html, png, at or 0.0)


def _live(scene: object, *, port: int, host: str, rate: float, engine: str, joints: str) -> None:
    """`view --live`: the World on this machine, its page served until Ctrl-C (one line on start, one on stop)."""
    from ..sim.world import World
    from .common import UsageError
    from .options import at_least, choice

    at_least("--rate", rate, 0, "the step rate in Hz", strictly=True)
    choice("--engine", engine, ["rapier", "mujoco"])
    choice("--joints", joints, ["multibody", "impulse"])
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: expected 0 (any free port) to 65535")
    try:
        from ..view import live
        from ..view.live import server  # noqa: F401 - the websockets import, checked before any work
    except ImportError as e:
        raise UsageError(f"--live needs the live extra ({e.name} is missing): "
                         "pip install 'gltf-physics[live]'") from None
    world = World(scene, rate=rate, engine=engine, articulations=joints == "multibody")  # type: ignore[arg-type]
    live.serve(world, host=host, port=port,
               announce=lambda url: out.print(f"live at {url} (Ctrl-C stops)", markup=False))
    out.print("live: stopped", markup=False)
