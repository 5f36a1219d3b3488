"""OpenUSD UsdPhysics out and in: ``to_usd``, ``from_usd``, ``usd_to_gltf``.

Needs the optional extra ``usd`` (``pip install 'gltf-physics[usd]'``, which brings ``usd-core``); ``pxr`` is
imported only when one of these functions runs.

The model goes to UsdPhysics as the README's "OpenUSD" table says; what UsdPhysics has no place for is kept
in the ``gltfPhysics`` namespace so that our own reader gives back the same model:

- ``customData["gltfPhysics"]`` on prims: ``node`` / ``name`` (the glTF node index and name of an Xform),
  ``gltf`` (JSON of a node's or, on ``/World``, the document's plain glTF that needs no buffers: extras,
  non-physics extensions such as lights, cameras, asset),
  ``role`` (``root``, ``mesh``, ``collider``), ``mesh`` (glTF mesh index), ``shape`` (a mesh shape's glTF
  reference, JSON), ``material`` / ``filter`` / ``joint`` (list indices), and on joints ``node``,
  ``connectedNode``, ``settingsIndex``, ``layout`` (how the limits were grouped, JSON), ``coneMin``,
  ``distanceMin``;
- attributes ``gltfPhysics:gravityFactor``, ``gltfPhysics:mass`` / ``gltfPhysics:diagonalInertia`` (infinite
  values), ``gltfPhysics:frictionCombine`` / ``gltfPhysics:restitutionCombine`` (materials),
  ``gltfPhysics:collisionSystems`` / ``collideWithSystems`` / ``notCollideWithSystems`` (collision groups),
  ``gltfPhysics:softLimits``, ``gltfPhysics:limits``, ``gltfPhysics:drives``,
  ``gltfPhysics:drive:<dof>:stiffness`` (joints), and JSON lists ``gltfPhysics:triggers``, ``gravityFields``,
  ``vehicles``, ``wheels``, ``thrusters``, ``hoverThrusters``, ``seats`` on node prims.

Losses have the shape of :func:`gltf_physics.convert`'s: ``{"code", "pointer", "message"}`` with codes
``USD-1`` … ``USD-13`` (README "OpenUSD").
"""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

from ...gltf.document import Document
from ...gltf.errors import GltfError
from ...model import PhysicsScene
from .. import MissingExtraError

USD_SUFFIXES = (".usd", ".usda", ".usdc")
INSTALL = "pip install 'gltf-physics[usd]'"


def pxr_modules() -> types.SimpleNamespace:
    """The ``pxr`` modules this package uses, or :class:`MissingExtraError` naming the pip command."""
    try:
        from pxr import Gf, Sdf, Tf, Usd, UsdGeom, UsdPhysics, UsdShade, Vt
    except ImportError as exc:
        raise MissingExtraError(f"OpenUSD support needs usd-core: {INSTALL}") from exc
    return types.SimpleNamespace(Gf=Gf, Sdf=Sdf, Tf=Tf, Usd=Usd, UsdGeom=UsdGeom, UsdPhysics=UsdPhysics,
                                 UsdShade=UsdShade, Vt=Vt)


def is_usd(path: str | Path) -> bool:
    """True when ``path`` names a USD layer (.usd, .usda, .usdc)."""
    return Path(path).suffix.lower() in USD_SUFFIXES


def to_usd(source: Document | PhysicsScene, path: str | Path) -> list[dict[str, str]]:
    """Write ``source``'s physics, nodes and meshes as a USD layer (.usda text, .usdc/.usd binary).

    ``source`` is a glTF :class:`Document` (its physics is read first) or a :class:`PhysicsScene` read from
    one (``scene.document``). Returns the loss report. Nothing is written when the path is not a USD file.

    Example:
        >>> losses = gp.to_usd(gp.load("examples/tumbling_boxes.gltf"), "tumbling_boxes.usda")
        >>> sorted({loss["code"] for loss in losses})
        ['USD-1', 'USD-2']
    """
    from ...dialects import read_scene
    from ...gltf.files import Output, write_all
    from .write import write_stage

    out = Path(path)
    if not is_usd(out):
        raise GltfError(f"output must end in {', '.join(USD_SUFFIXES)}, not {out.suffix!r}", file=str(out))
    scene = read_scene(source) if isinstance(source, Document) else source
    doc = source if isinstance(source, Document) else source.document
    if doc is None:
        raise ValueError("a PhysicsScene needs its document (nodes and meshes) to be written as USD")
    pxr = pxr_modules()
    stage = pxr.Usd.Stage.CreateInMemory(out.name)
    losses = [{"code": n.code, "pointer": n.pointer, "message": f"read leniently: {n.message}"} for n in scene.notes]
    losses += write_stage(pxr, stage, scene, doc)
    data = _layer_bytes(pxr, stage, out)
    write_all([Output(out, [data])])  # atomic: no partial file on failure
    return losses


def write_file(src: Path, dst: Path, report: Path | None) -> list[dict[str, str]]:
    """The glTF file ``src`` as the USD layer ``dst`` (:func:`to_usd`), and with ``report`` the loss report
    (target ``usd``); the registered writer of :mod:`gltf_physics.formats`. Returns the losses."""
    from ...api import load, write_loss_report

    losses = to_usd(load(src), dst)
    if report is not None:
        write_loss_report(report, source=src, target="usd", losses=losses)
    return losses


def _layer_bytes(pxr: Any, stage: Any, out: Path) -> bytes:
    """The layer in the format its suffix says (.usd = crate, as usd-core writes it)."""
    import tempfile

    layer = stage.GetRootLayer()
    if out.suffix.lower() == ".usda":
        return layer.ExportToString().encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp) / f"layer{out.suffix.lower()}"
        if not layer.Export(str(tmp_path)):
            raise GltfError("usd-core could not write the layer", file=str(out))
        return tmp_path.read_bytes()


def from_usd(path: str | Path) -> PhysicsScene:
    """The physics of a USD file as a model; ``scene.document`` is a glTF document with its nodes and meshes.

    What cannot be read (shapes and joints UsdPhysics has but glTF physics has not, other units) is in
    ``scene.notes``. Raises :class:`GltfError` naming the file when it cannot be opened.

    Example:
        >>> scene = gp.from_usd("tumbling_boxes.usda")
        >>> len(scene.bodies)
        6
    """
    from .read import read_stage

    src = Path(path)
    pxr = pxr_modules()
    if not src.is_file():
        raise GltfError("cannot read: no such file", file=str(src))
    try:
        stage = pxr.Usd.Stage.Open(str(src))
    except pxr.Tf.ErrorException as exc:
        raise GltfError(f"not a readable USD layer ({_first_reason(str(exc))})", file=str(src)) from None
    if stage is None:
        raise GltfError("not a readable USD layer", file=str(src))
    return read_stage(pxr, stage)


def _first_reason(text: str) -> str:
    """usd-core's first error, without its C++ location: "'<f.usda> is not a valid usda layer'" → that text."""
    for line in text.strip().splitlines():
        reason = line.rsplit(" : ", 1)[-1].strip().strip("'")
        if reason:
            return reason
    return "usd-core could not open it"


def usd_to_gltf(path: str | Path, to: str) -> tuple[Document, list[dict[str, str]]]:
    """A USD file as a glTF document with its physics in the newest OMI or KHR form, and the losses.

    Example:
        >>> doc, losses = gp.usd_to_gltf("tumbling_boxes.usda", "khr")
        >>> gp.save(doc, "tumbling_boxes.khr.gltf")
    """
    from dataclasses import asdict

    from ...dialects import write_scene

    if to not in ("omi", "khr"):
        raise ValueError(f"to must be 'omi' or 'khr', not {to!r}")
    scene = from_usd(path)
    assert scene.document is not None
    out, losses = write_scene(scene, scene.document, to)  # type: ignore[arg-type]
    notes = [{"code": n.code, "pointer": n.pointer, "message": n.message} for n in scene.notes]
    return out, notes + [asdict(loss) for loss in losses]


__all__ = ["INSTALL", "USD_SUFFIXES", "MissingExtraError", "from_usd", "is_usd", "pxr_modules", "to_usd", "usd_to_gltf",
           "write_file"]
