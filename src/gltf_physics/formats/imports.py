"""Robot descriptions in: a URDF or MJCF file → the model with its glTF document, or straight to glTF.

Which reader reads a file is decided by its suffix (:data:`SOURCES`). :func:`import_to_gltf` has the shape of a
format reader, ``(path, family, **options) -> (Document, losses)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..gltf.document import Document
from ..gltf.errors import GltfError
from ..model import PhysicsScene

# Robot descriptions read into the model: suffix → (module under formats/, reader function).
SOURCES: dict[str, tuple[str, str]] = {
    ".urdf": ("urdf", "from_urdf"),
    ".xml": ("mjcf.read", "from_mjcf"),
    ".mjcf": ("mjcf.read", "from_mjcf"),
}


def import_suffixes() -> tuple[str, ...]:
    """The suffixes :func:`import_scene` reads (lower case, with the dot)."""
    return tuple(SOURCES)


def import_scene(path: str | Path, *, floating_base: bool = False, package_dirs: Sequence[str | Path] = (),
                 mesh_colliders: str = "convex", keyframe: int | str | None = None) -> PhysicsScene:
    """The physics of a robot file — URDF (``.urdf``) or MuJoCo MJCF (``.xml``, ``.mjcf``) — as a model;
    ``scene.document`` holds its nodes, named as in the source, and meshes; ``scene.notes`` its losses.

    ``floating_base``, ``package_dirs`` and ``mesh_colliders`` apply to URDF (see :func:`gltf_physics.from_urdf`),
    ``keyframe`` to MJCF (see :func:`gltf_physics.from_mjcf`).

    Example:
        >>> scene = gp.import_scene("cartpole.xml")
        >>> len(scene.joints)
        2
    """
    src = Path(path)
    entry = SOURCES.get(src.suffix.lower())
    if entry is None:
        raise GltfError(f"not a robot file: expected {', '.join(SOURCES)}", file=str(src))
    module, name = entry
    reader: Any = getattr(importlib.import_module(f".{module}", __package__), name)
    if name == "from_urdf":
        return reader(src, floating_base=floating_base, package_dirs=package_dirs,  # type: ignore[no-any-return]
                      mesh_colliders=mesh_colliders)
    return reader(src, keyframe=keyframe)  # type: ignore[no-any-return]


def import_to_gltf(path: str | Path, to: str, **options: Any) -> tuple[Document, list[dict[str, str]]]:
    """A robot file as a glTF document with its physics in the newest OMI or KHR form, and the loss report
    (``{code, pointer, message}``: the source's losses, then the writer's).

    Example:
        >>> doc, losses = gp.import_to_gltf("kuka_iiwa/model.urdf", "khr")
        >>> gp.save(doc, "kuka.glb")
    """
    from ..dialects import write_scene

    if to not in ("omi", "khr"):
        raise ValueError(f"to must be 'omi' or 'khr', not {to!r}")
    scene = import_scene(path, **options)
    assert scene.document is not None
    out, losses = write_scene(scene, scene.document, to)  # type: ignore[arg-type]
    notes = [{"code": n.code, "pointer": n.pointer, "message": n.message} for n in scene.notes]
    return out, notes + [asdict(loss) for loss in losses]
