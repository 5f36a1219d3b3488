"""The add-on itself: the hooks on Blender's glTF importer and exporter and the exporter's physics panel
(imports bpy; loaded by :func:`gltf_physics.blender.enable` or by Blender as an extension).

Blender's glTF IO looks for ``glTF2ImportUserExtension`` / ``glTF2ExportUserExtension`` classes and a
``draw_export`` function on every enabled add-on module; this module is that add-on.
"""

from __future__ import annotations

import json
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
_CLASSES = (GltfPhysicsExportSettings, GltfPhysicsImportSettings)  # + the report operator, below


def register() -> None:
    """Blender's add-on entry point: the settings on every scene."""
    for cls in (*_CLASSES, GLTF_PHYSICS_OT_report):
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
    for cls in reversed((*_CLASSES, GLTF_PHYSICS_OT_report)):
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
        from ..gltf.errors import GltfError
        from .importer import apply

        try:
            doc = load(gltf.filename)
            scene = read_scene(doc)
        except GltfError as e:  # the meshes are in; physics that cannot be read at all is left out, said once
            gltf.log.warning(f"glTF physics: {e}; imported without physics", popup=True)
            return
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
    """Physics written into the file the exporter made, then checked by the validator."""

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

    def post_export_hook(self, export_settings: Any) -> None:
        """The written file gets its physics, checked by the validator; its messages and the losses go to
        Blender's info report."""
        settings = _settings("gltf_physics_export")
        if settings is None or not settings.enabled:
            return
        from ..api import load, save
        from .exporter import export_physics

        path = export_settings["gltf_filepath"]
        result = export_physics(load(path), settings.family)
        save(result.document, path)
        LAST["export"] = result
        report = result.report
        lines = [("INFO", f"glTF physics ({settings.family}): validator {report.num_errors} errors, "
                          f"{report.num_warnings} warnings")]
        for m in report.messages:
            severity = ("error", "warning", "info", "hint")[min(int(m.severity), 3)]
            # a script's bpy.ops call raises on an ERROR report: the file is written, so errors are warnings here
            lines.append(("WARNING" if int(m.severity) <= 1 else "INFO",
                          f"{severity} {m.code} {m.pointer}: {m.message}"))
        lines += [("WARNING", f"glTF physics loss: {line}") for line in result.losses]
        bpy.ops.gltf_physics.report(lines=json.dumps(lines))


class GLTF_PHYSICS_OT_report(bpy.types.Operator):
    """Put the physics export's messages into Blender's info report (the glTF exporter's own report is shown
    before its post-export hook runs)."""

    bl_idname = "gltf_physics.report"
    bl_label = "glTF physics report"
    bl_options = {"INTERNAL"}  # noqa: RUF012 - a class attribute Blender reads

    lines: bpy.props.StringProperty()  # type: ignore[valid-type]

    def execute(self, context: Any) -> set[str]:
        """One report line per message."""
        for level, text in json.loads(self.lines):
            self.report({level}, text)
        return {"FINISHED"}
