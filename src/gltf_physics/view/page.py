"""One self-contained HTML page: the glTF (buffers and images as data: URIs), the physics overlay computed
from the model, the info summary, the validator report, an optional baked run, and the viewer bundle inlined.

Nothing in the page refers to anything outside it: no CDN, no external URL.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from ..gltf import uris
from ..gltf.document import Document
from ..gltf.errors import GltfError
from ..gltf.files import Output, write_all
from ..gltf.jsontext import copy_json
from ..model import PhysicsScene
from ..summary import summarize
from .bake import DEFAULT_RATE, record, trajectories
from .framing import frame_box
from .overlay import build_overlay

BUNDLE = ("viewer_dist", "viewer.js")
BUILD_HINT = "cd viewer && npm ci && npm run build"
# A 1×1 transparent PNG stands in for an image the page cannot carry (file missing), so textures still load.
BLANK_PNG = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA"
             "60e6kgAAAABJRU5ErkJggg==")
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
               ".ktx2": "image/ktx2"}


class ViewerNotBuilt(FileNotFoundError):
    """The viewer bundle is missing from the installed package (its build step was not run).

    A FileNotFoundError, so the CLI's handler of OSError prints its one line and exits 2.
    """


def viewer_bundle() -> str:
    """The built viewer script; raises ViewerNotBuilt with the one command that builds it."""
    path = resources.files("gltf_physics").joinpath(*BUNDLE)
    if not path.is_file():
        # Installing from source builds it when npm is there (hatch_build.py): say both ways to get it.
        raise ViewerNotBuilt(f"the viewer is not built ({'/'.join(BUNDLE)} missing): install Node.js with npm and "
                             f"reinstall gltf-physics, or in a checkout run `{BUILD_HINT}`")
    return path.read_text(encoding="utf-8")


def build_page(doc: Document, scene: PhysicsScene, *, simulate: float | None = None,
               report: dict[str, Any] | Any | None = None, rate: float = DEFAULT_RATE,
               bake: dict[str, Any] | None = None, live: dict[str, Any] | None = None) -> str:
    """The page's HTML. ``simulate`` runs the scene for that many seconds and embeds the run and its events
    (or pass an already recorded ``bake``); ``report`` is a validator Report or its ``to_dict()``; ``live``
    (the live server's ``{"socket": path}``) makes a page that connects back to the server it came from."""
    bundle = viewer_bundle()
    if simulate is not None and bake is None:
        bake = record(scene, simulate, rate=rate)
    if report is not None and not isinstance(report, dict):
        report = report.to_dict()
    title = doc.path.name if doc.path else "glTF physics scene"
    data = {
        "title": title,
        "gltf": embeddable_gltf(doc),
        "overlay": build_overlay(doc, scene),
        "summary": summarize(doc, scene),
        "report": report,
        "bake": bake,
    }
    framed = frame_box(doc, scene, trajectories(bake) if bake else None)
    if framed is not None:  # the camera's first view: the run's moving bodies and the static geometry they meet
        data["frame"] = {"min": [float(v) for v in framed[0]], "max": [float(v) for v in framed[1]]}
    if live is not None:
        data["live"] = live
    return _html(title, data, bundle, connect="'self'" if live is not None else "")


def write_page(path: str | Path, doc: Document, scene: PhysicsScene, **options: Any) -> Path:
    """Build the page and write it atomically; returns the path written."""
    out = Path(path)
    text = build_page(doc, scene, **options)
    write_all([Output(out, (text.encode("utf-8"),))])
    return out


def embeddable_gltf(doc: Document) -> dict[str, Any]:
    """A copy of the glTF JSON whose buffers and images are data: URIs, so the page needs no other file."""
    gltf = copy_json(doc.json)
    for i, buf in enumerate(gltf.get("buffers") or []):
        if isinstance(buf, dict) and i < len(doc.buffers) and doc.buffers[i] is not None:
            buf["uri"] = uris.encode_data_uri(bytes(doc.buffers[i]))
    for i, image in enumerate(gltf.get("images") or []):
        uri = image.get("uri") if isinstance(image, dict) else None
        if isinstance(uri, str) and not uris.is_data_uri(uri):
            image["uri"] = _image_data_uri(doc, image, f"/images/{i}/uri")
    return gltf


def _image_data_uri(doc: Document, image: dict[str, Any], pointer: str) -> str:
    if doc.path is None:
        return BLANK_PNG
    try:
        file = uris.resolve(doc.path.parent, image["uri"], pointer)
        data = file.read_bytes()
    except (GltfError, OSError):
        return BLANK_PNG  # the viewer shows the geometry untextured; the validator reports the bad uri
    mime = image.get("mimeType")
    if not isinstance(mime, str):
        mime = IMAGE_TYPES.get(file.suffix.lower(), "application/octet-stream")
    return uris.encode_data_uri(data, mime)


def _html(title: str, data: dict[str, Any], bundle: str, connect: str = "") -> str:
    # "<" escaped inside the JSON so no string in the file (a node name, a message) can close the script tag.
    payload = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")
    if "</script" in bundle.lower() or "<!--" in bundle:
        # Either would end (or derail) the inline script early; the build must not produce them.
        raise ViewerNotBuilt("the viewer bundle contains '</script' or '<!--': it cannot be inlined")
    return (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)} — gltf-physics</title>\n"
        # No network at view time: the page may load nothing but itself and data:/blob: URLs.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:; "
        f"connect-src {connect + ' ' if connect else ''}data: blob:; worker-src blob:\">\n"
        "</head>\n<body>\n"
        f"<script type=\"application/json\" id=\"gltf-physics-data\">{payload}</script>\n"
        f"<script>{bundle}</script>\n</body>\n</html>\n"
    )
