"""The add-on itself: the hooks on Blender's glTF importer and exporter and the exporter's physics panel
(imports bpy; loaded by :func:`gltf_physics.blender.enable` or by Blender as an extension).

Blender's glTF IO looks for ``glTF2ImportUserExtension`` / ``glTF2ExportUserExtension`` classes and a
``draw_export`` function on every enabled add-on module; this module is that add-on.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import bpy

from . import LAST

FAMILIES = [("khr", "KHR", "KHR_physics_rigid_bodies + KHR_implicit_shapes (newest)"),
            ("omi", "OMI", "OMI_physics_body / _shape / _joint (newest)")]


class GltfPhysicsExportSettings(bpy.types.PropertyGroup):
    """The exporter's physics section: on/off and the extension family written."""

    enabled: bpy.props.BoolProperty(name="Physics", description="Write rigid bodies and constraints",
                                    default=True)  # type: ignore[valid-type]
    family: bpy.props.EnumProperty(name="Family", items=FAMILIES, default="khr")  # type: ignore[valid-type]


class GltfPhysicsImportSettings(bpy.types.PropertyGroup):
    """The importer's physics switch."""

    enabled: bpy.props.BoolProperty(name="Physics", description="Read rigid bodies, shapes and joints",
                                    default=True)  # type: ignore[valid-type]


PANEL = "glTF Physics"
_CLASSES = (GltfPhysicsExportSettings, GltfPhysicsImportSettings)


def register() -> None:
    """Blender's add-on entry point: the settings on every scene."""
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.gltf_physics_export = bpy.props.PointerProperty(type=GltfPhysicsExportSettings)
    bpy.types.Scene.gltf_physics_import = bpy.props.PointerProperty(type=GltfPhysicsImportSettings)
    _panels()[PANEL] = draw_export  # the glTF exporter draws what its add-ons list here (its import side looks
    # for draw_import on the add-on module by itself)


def unregister() -> None:
    """Blender's add-on exit point."""
    _panels().pop(PANEL, None)
    del bpy.types.Scene.gltf_physics_export
    del bpy.types.Scene.gltf_physics_import
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)


def _panels() -> dict[str, Any]:
    from io_scene_gltf2 import exporter_extension_layout_draw

    return exporter_extension_layout_draw


def draw_export(context: Any, layout: Any) -> None:
    """The physics section of the glTF exporter's side panel."""
    settings = context.scene.gltf_physics_export
    header, body = layout.panel("GLTF_physics_export", default_closed=False)
    header.use_property_split = False
    header.prop(settings, "enabled")
    if body is not None:
        body.active = settings.enabled
        body.prop(settings, "family")


def draw_import(context: Any, layout: Any) -> None:
    """The physics section of the glTF importer's side panel."""
    header, _ = layout.panel("GLTF_physics_import", default_closed=False)
    header.use_property_split = False
    header.prop(context.scene.gltf_physics_import, "enabled")


def _settings(name: str) -> Any:
    return getattr(bpy.context.scene, name, None)


class glTF2ImportUserExtension:
    """Physics read after the importer made the nodes and animations (kinematic bodies follow theirs)."""

    def gather_import_scene_after_animation_hook(self, gltf_scene: Any, blender_scene: Any, gltf: Any) -> None:
        """Rigid bodies, shapes and constraints for every body, collider and joint of the file."""
        settings = _settings("gltf_physics_import")
        if settings is not None and not settings.enabled:
            return
        from ..api import load
        from ..dialects import read_scene
        from .importer import apply

        doc = load(gltf.filename)
        scene = read_scene(doc)
        objects = {i: v.blender_object for i, v in gltf.vnodes.items()
                   if isinstance(i, int) and getattr(v, "blender_object", None) is not None}
        result = apply(doc, scene, objects)
        for i, obj in objects.items():  # an empty made a mesh object: the importer must not touch the old one
            gltf.vnodes[i].blender_object = obj
        LAST["import"] = result
        gltf.log.info(f"glTF physics: {len(result.bodies)} rigid bodies, {len(result.constraints)} constraints "
                      f"({', '.join(f'{k} {v}' for k, v in sorted(scene.generations.items())) or 'no physics'})",
                      popup=True)
        for line in result.losses:
            gltf.log.warning(f"glTF physics: {line}", popup=True)


class glTF2ExportUserExtension:
    """Physics written into what the exporter made: checked before the file is written (so the validator's
    messages reach the export report), then written into the file."""

    def gather_tree_filter_tag_hook(self, vtree: Any, export_settings: Any) -> None:
        """Collider proxies and constraint objects are physics, not nodes."""
        from .importer import ANCHOR, PROXY

        for n in vtree.nodes.values():
            obj = getattr(n, "blender_object", None)
            if obj is None:
                continue
            if obj.get(PROXY) or obj.get(ANCHOR) or (obj.rigid_body_constraint is not None and obj.type == "EMPTY"
                                  and not obj.children):
                n.keep_tag = False

    def gather_gltf_extensions_hook(self, plan: Any, export_settings: Any) -> None:
        """The physics written into the plan's JSON and validated; messages to the export report."""
        settings = _settings("gltf_physics_export")
        if settings is None or not settings.enabled:
            return
        from ..gltf.document import Document
        from .exporter import export_physics

        doc = Document(json=_cleaned(plan.to_dict()), buffers=_buffers(plan, export_settings))
        result = export_physics(doc, settings.family)
        log = export_settings["log"]
        report = result.report
        log.info(f"glTF physics ({settings.family}): {len(result.document.json.get('nodes', []))} nodes, "
                 f"validator {report.num_errors} errors, {report.num_warnings} warnings", popup=True)
        for m in report.messages:
            level = log.error if int(m.severity) == 0 else log.warning if int(m.severity) == 1 else log.info
            level(f"{m.code} {m.pointer}: {m.message}", popup=True)
        for line in result.losses:
            log.warning(f"glTF physics loss: {line}", popup=True)

    def post_export_hook(self, export_settings: Any) -> None:
        """The written file gets its physics (same scene, same writer as checked above)."""
        settings = _settings("gltf_physics_export")
        if settings is None or not settings.enabled:
            return
        from ..api import load, save
        from .exporter import export_physics

        path = export_settings["gltf_filepath"]
        result = export_physics(load(path), settings.family)
        save(result.document, path)
        LAST["export"] = result


def _buffers(plan: Any, export_settings: Any) -> list[bytes]:
    """The plan's buffers (the exporter holds its one binary buffer until it writes the file)."""
    count = len(plan.buffers or [])
    data = bytes(export_settings.get("gltf_binary") or b"")
    return [data] + [b""] * (count - 1) if count else []


def _cleaned(value: Any) -> Any:
    """The plan's JSON as the exporter writes it: no ``None`` values, no empty objects or arrays in objects."""
    if isinstance(value, dict):
        out = {k: _cleaned(v) for k, v in value.items() if v is not None}
        return {k: v for k, v in out.items() if v not in ({}, [])}
    if isinstance(value, list):
        return [_cleaned(v) for v in value]
    if isinstance(value, Enum):  # the plan's bufferView targets and the like
        return value.value
    return value
