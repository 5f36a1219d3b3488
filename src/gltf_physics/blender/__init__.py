"""Physics in Blender: hooks on Blender's own glTF importer and exporter (an add-on; docs/blender.md).

``import gltf_physics.blender as gpb`` works without Blender; :func:`enable` (in a Python that has ``bpy``, or
inside Blender) loads the add-on (:mod:`.addon`) for the session. After it, ``bpy.ops.import_scene.gltf`` and
``bpy.ops.export_scene.gltf`` read and write physics, as :func:`import_file` and :func:`export_file` do::

    import gltf_physics.blender as gpb
    gpb.enable()
    gpb.import_file("scene.gltf")                   # rigid bodies, shapes, constraints
    gpb.export_file("out.glb", family="khr")        # KHR_physics_rigid_bodies + KHR_implicit_shapes, or "omi"
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

ADDON = f"{__name__}.addon"
LAST: dict[str, Any] = {}  # the latest import's and export's result (ImportResult / ExportResult)

__all__ = ["ADDON", "LAST", "disable", "enable", "export_file", "import_file"]


def enable() -> None:
    """Turn the add-on on for this Blender session (Blender's glTF IO add-on too); repeated calls do nothing."""
    import addon_utils
    import bpy

    addon_utils.enable("io_scene_gltf2", default_set=True)
    if ADDON not in bpy.context.preferences.addons:
        addon_utils.enable(ADDON, default_set=True)
    if ADDON not in bpy.context.preferences.addons:
        raise RuntimeError(f"Blender could not enable {ADDON}")


def disable() -> None:
    """Turn the add-on off."""
    import addon_utils

    addon_utils.disable(ADDON, default_set=True)


def import_file(path: str | Path, **options: Any) -> Any:
    """Import a glTF with its physics through Blender's importer (``options``: the operator's); returns the
    physics import's result (:class:`~gltf_physics.blender.importer.ImportResult`), ``None`` when the file's
    physics could not be read at all (the report names the JSON pointer; the meshes are imported)."""
    import bpy

    enable()
    LAST.pop("import", None)
    done = bpy.ops.import_scene.gltf(filepath=str(path), **options)
    if "FINISHED" not in done:
        raise RuntimeError(f"{path}: Blender's glTF importer did not finish ({', '.join(done)})")
    return LAST.get("import")


def export_file(path: str | Path, family: Literal["khr", "omi"] = "khr", **options: Any) -> Any:
    """Export the scene with its physics through Blender's exporter (``options``: the operator's; the format
    follows the suffix, .gltf with a .bin beside it or .glb, unless ``export_format`` says otherwise); returns
    the :class:`~gltf_physics.blender.exporter.ExportResult`."""
    import bpy

    if family not in ("khr", "omi"):
        raise ValueError(f"family must be 'khr' or 'omi', not {family!r}")
    enable()
    settings = bpy.context.scene.gltf_physics_export
    settings.enabled, settings.family = True, family
    if "export_format" not in options:  # the suffix says which: Blender's default would write a .glb
        options["export_format"] = "GLTF_SEPARATE" if Path(path).suffix.lower() == ".gltf" else "GLB"
    LAST.pop("export", None)
    done = bpy.ops.export_scene.gltf(filepath=str(path), **options)
    if "FINISHED" not in done:
        raise RuntimeError(f"{path}: Blender's glTF exporter did not finish ({', '.join(done)})")
    return LAST.get("export")
