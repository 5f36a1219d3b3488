"""URDF robots in: ``from_urdf`` (a model with its glTF document) through yourdfpy, meshes through trimesh.

Needs the optional extra ``robots`` (``pip install 'gltf-physics[robots]'``: yourdfpy, trimesh, pycollada);
they are imported only when a URDF is read. What is read and how: :mod:`.read`; where mesh files may be:
:mod:`.paths`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ...gltf.errors import GltfError
from ...model import PhysicsScene

INSTALL = "pip install 'gltf-physics[robots]'"


def from_urdf(path: str | Path, *, floating_base: bool = False, package_dirs: Sequence[str | Path] = (),
              mesh_colliders: str = "convex") -> PhysicsScene:
    """The physics of a URDF robot as a model; ``scene.document`` holds its nodes (one per link, named as in
    the URDF) and meshes. Losses (what glTF physics cannot hold) are in ``scene.notes``.

    ``floating_base``: the root link falls free instead of being fixed to the world (the default, as for an
    arm). ``package_dirs``: folders that hold ``package://`` packages (a folder named as the package, or one
    holding it). ``mesh_colliders``: ``convex`` (default: the hull, as PyBullet and MuJoCo collide a moving
    link's mesh) or ``triangles`` (the mesh as it is). Raises :class:`GltfError` naming the file when it cannot
    be read or names a mesh outside its folders.

    Example:
        >>> scene = gp.from_urdf("kuka_iiwa/model.urdf")
        >>> len(scene.bodies), len(scene.joints)
        (8, 8)
    """
    from .read import read_urdf

    src = Path(path)
    if not src.is_file():
        raise GltfError("cannot read: no such file", file=str(src))
    robot, tree = _parse(src)
    try:
        return read_urdf(src, robot, floating_base=floating_base, package_dirs=tuple(package_dirs),
                         mesh_colliders=mesh_colliders, xml=tree)
    except GltfError as exc:
        raise exc.with_file(str(src)) from None


def _parse(src: Path) -> tuple[object, object]:
    """yourdfpy's robot, and the XML root (for the elements yourdfpy does not read: transmissions, gazebo)."""
    try:
        import yourdfpy
    except ImportError as exc:
        raise GltfError(f"reading URDF needs yourdfpy: {INSTALL}", file=str(src)) from exc
    import logging
    import xml.etree.ElementTree as ET

    try:  # yourdfpy would recover from malformed XML and read part of it: refuse it first, with its position
        tree = ET.parse(src).getroot()
    except ET.ParseError as exc:
        line, column = exc.position
        raise GltfError(f"not well-formed XML at line {line}, column {column + 1}", file=str(src)) from None
    quiet = logging.getLogger("yourdfpy")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # its parse errors are ours to report, in one line
    try:
        urdf = yourdfpy.URDF.load(str(src), build_scene_graph=False, build_collision_scene_graph=False,
                                  load_meshes=False, load_collision_meshes=False)
    except Exception as exc:  # lxml and yourdfpy raise many kinds on a malformed file
        raise GltfError(f"not a readable URDF ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})",
                        file=str(src)) from None
    finally:
        quiet.setLevel(level)
    return urdf.robot, tree


__all__ = ["from_urdf"]
