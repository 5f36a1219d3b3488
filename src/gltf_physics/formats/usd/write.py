"""PhysicsScene + its glTF document → an OpenUSD stage with UsdPhysics (README "OpenUSD").

Layout: every glTF node is an ``Xform`` under ``/World`` (same hierarchy, its own TRS or matrix as double
precision ``xformOp``s); a node's mesh is a child ``UsdGeom.Mesh`` named ``mesh``; a node's collider is a child
gprim named ``collider`` (``purpose = guide``) with ``CollisionAPI``; bodies are ``RigidBodyAPI`` + ``MassAPI``
on the node prim; materials, collision groups, joints and the physics scene live under ``/World/Physics``.
``customData["gltfPhysics"]`` records glTF indices (node, mesh, material, filter, joint nodes) so our reader
gives back the same indices; values UsdPhysics has no place for are ``gltfPhysics:*`` attributes (see
:mod:`.usd` for the list). Units: metres, kilograms, seconds; angles in degrees where UsdPhysics says so.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...geometry.placement import document_mesh_source
from ...gltf.document import Document
from ...model import (
    Body,
    Box,
    Capsule,
    Collider,
    CombineMode,
    Cylinder,
    MeshShape,
    MotionType,
    PhysicsMaterial,
    PhysicsScene,
    Plane,
    Shape,
    Sphere,
)
from . import codec as usd_codec
from .out import NS, PHYSICS_SCOPE, Out, attr
from .write_joints import write_joint

JSON_LISTS = (  # model list → attribute on the node prim, kept as JSON (no UsdPhysics counterpart)
    ("triggers", "triggers", "USD-1", "trigger"),
    ("gravity_fields", "gravityFields", "USD-4", "gravity volume"),
    ("vehicles", "vehicles", "USD-5", "vehicle"),
    ("wheels", "wheels", "USD-5", "wheel"),
    ("thrusters", "thrusters", "USD-5", "thruster"),
    ("hover_thrusters", "hoverThrusters", "USD-5", "hover thruster"),
    ("seats", "seats", "USD-6", "seat"),
)
_NOT_CARRIED = ("materials", "textures", "images", "samplers", "animations", "skins")
# Plain JSON that needs no buffers rides along in customData (physics extensions are left out: the model
# carries them), so lights, cameras, extras and other extensions come back on the way to glTF.
_DOC_KEPT = ("asset", "extras", "extensions", "cameras")
_NODE_KEPT = ("extras", "extensions", "camera")


def write_stage(pxr: Any, stage: Any, scene: PhysicsScene, doc: Document) -> list[dict[str, str]]:
    """Author ``scene`` (whose nodes and meshes are ``doc``'s) on the empty ``stage``; returns the losses."""
    UsdGeom, UsdPhysics = pxr.UsdGeom, pxr.UsdPhysics
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdPhysics.SetStageKilogramsPerUnit(stage, 1.0)
    world = UsdGeom.Xform.Define(stage, "/World").GetPrim()
    stage.SetDefaultPrim(world)
    world.SetCustomDataByKey(NS, {"role": "root", "generator": "gltf-physics",
                                  **_kept_json(doc.json, _DOC_KEPT, doc_level=True)})
    out = Out(pxr, stage, scene, doc, document_mesh_source(doc))
    _nodes(out)
    _physics_scene(out)
    _materials(out)
    for i, collider in enumerate(scene.colliders):
        _collider(out, i, collider)
    for body in scene.bodies:
        _body(out, body)
    _filters(out)
    for k, joint in enumerate(scene.joints):
        write_joint(out, k, joint)
    _json_lists(out)
    _loose_meshes(out)
    _non_physics_losses(out)
    return out.losses


# ------------------------------------------------------------------------------------------------- nodes

def _node_dicts(gltf: dict[str, Any]) -> list[dict[str, Any]]:
    nodes = gltf.get("nodes") or []
    return [n if isinstance(n, dict) else {} for n in nodes]


def _nodes(out: Out) -> None:
    from ...gltf.hierarchy import parents

    nodes = _node_dicts(out.doc.json)
    parent_of = parents(out.doc.json)
    out.node_paths = [None] * len(nodes)
    taken: dict[Any, set[str]] = {}
    pending = list(range(len(nodes)))
    while pending:  # parents first: a child's path needs its parent's
        later = []
        for i in pending:
            p = parent_of[i]
            if p is not None and out.node_paths[p] is None:
                later.append(i)
                continue
            base = out.node_paths[p] if p is not None else out.pxr.Sdf.Path("/World")
            out.node_paths[i] = _define_node(out, i, nodes[i], base, taken.setdefault(base, {PHYSICS_SCOPE}))
        if len(later) == len(pending):  # a cycle (invalid glTF): hang the rest under /World
            parent_of = dict.fromkeys(later)  # type: ignore[assignment]
        pending = later


def _define_node(out: Out, i: int, node: dict[str, Any], base: Any, taken: set[str]) -> Any:
    pxr = out.pxr
    name = node.get("name") if isinstance(node.get("name"), str) else None
    stem = pxr.Tf.MakeValidIdentifier(name) if name else f"node_{i}"
    prim_name, k = stem, 1
    while prim_name in taken:
        prim_name, k = f"{stem}_{k}", k + 1
    taken.add(prim_name)
    xform = pxr.UsdGeom.Xform.Define(out.stage, base.AppendChild(prim_name))
    data: dict[str, Any] = {"node": i, **_kept_json(node, _NODE_KEPT)}
    if name is not None:
        data["name"] = name
    xform.GetPrim().SetCustomDataByKey(NS, data)
    _transform(pxr, xform, node)
    mesh = node.get("mesh")
    if isinstance(mesh, int):
        vertices, triangles = out.mesh_source(MeshShape(convex=False, mesh=mesh))
        prim = _mesh_prim(out, xform.GetPath().AppendChild("mesh"), vertices, triangles)
        prim.SetCustomDataByKey(NS, {"role": "mesh", "mesh": mesh})
    return xform.GetPath()


def _transform(pxr: Any, xform: Any, node: dict[str, Any]) -> None:
    Gf = pxr.Gf
    matrix = node.get("matrix")
    if isinstance(matrix, list) and len(matrix) == 16:
        # glTF stores column-major M; read row by row that is Mᵀ, which is USD's row-vector convention.
        xform.AddTransformOp().Set(Gf.Matrix4d(*[float(v) for v in matrix]))
        return
    if "translation" in node:
        xform.AddTranslateOp(pxr.UsdGeom.XformOp.PrecisionDouble).Set(Gf.Vec3d(*node["translation"]))
    if "rotation" in node:
        x, y, z, w = node["rotation"]
        xform.AddOrientOp(pxr.UsdGeom.XformOp.PrecisionDouble).Set(Gf.Quatd(w, x, y, z))
    if "scale" in node:
        xform.AddScaleOp(pxr.UsdGeom.XformOp.PrecisionDouble).Set(Gf.Vec3d(*node["scale"]))


def _mesh_prim(out: Out, path: Any, vertices: np.ndarray, triangles: np.ndarray) -> Any:
    Vt, UsdGeom = out.pxr.Vt, out.pxr.UsdGeom
    mesh = UsdGeom.Mesh.Define(out.stage, path)
    points = np.ascontiguousarray(vertices, dtype=np.float32).reshape(-1, 3)
    tris = np.ascontiguousarray(triangles, dtype=np.int32).reshape(-1, 3)
    mesh.CreatePointsAttr(Vt.Vec3fArray.FromNumpy(points))
    mesh.CreateFaceVertexCountsAttr(Vt.IntArray.FromNumpy(np.full(len(tris), 3, dtype=np.int32)))
    mesh.CreateFaceVertexIndicesAttr(Vt.IntArray.FromNumpy(tris.reshape(-1)))
    mesh.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
    if len(points):
        lo, hi = points.min(axis=0), points.max(axis=0)
        mesh.CreateExtentAttr(Vt.Vec3fArray.FromNumpy(np.stack([lo, hi])))
    return mesh.GetPrim()


# --------------------------------------------------------------------------------------------- colliders

def _collider(out: Out, index: int, collider: Collider) -> None:
    base = out.node_paths[collider.node]
    taken = {c.GetName() for c in out.stage.GetPrimAtPath(base).GetChildren()}
    name, k = "collider", 1
    while name in taken:
        name, k = f"collider_{k}", k + 1
    prim = shape_prim(out, base.AppendChild(name), collider.shape, collider.pointer or f"/nodes/{collider.node}")
    data: dict[str, Any] = {"role": "collider", "collider": index}
    if isinstance(collider.shape, MeshShape):
        data["shape"] = usd_codec.encode(collider.shape)
    prim.SetCustomDataByKey(NS, data)
    out.pxr.UsdPhysics.CollisionAPI.Apply(prim)
    if isinstance(collider.shape, MeshShape):
        api = out.pxr.UsdPhysics.MeshCollisionAPI.Apply(prim)
        api.CreateApproximationAttr("convexHull" if collider.shape.convex else "none")
    if collider.material is not None and 0 <= collider.material < len(out.materials):
        binding = out.pxr.UsdShade.MaterialBindingAPI.Apply(prim)
        binding.Bind(out.materials[collider.material], out.pxr.UsdShade.Tokens.weakerThanDescendants, "physics")
    out.collider_paths[index] = prim.GetPath()


def shape_prim(out: Out, path: Any, shape: Shape, pointer: str | None) -> Any:
    """A guide gprim of ``shape`` at ``path`` (centred on its parent node, axis +Y, as the model says);
    what the shape loses is reported at ``pointer`` (``None``: the caller reports the whole thing)."""
    g, UsdGeom = out.pxr.Gf, out.pxr.UsdGeom
    if isinstance(shape, Box):
        cube = UsdGeom.Cube.Define(out.stage, path)
        cube.CreateSizeAttr(1.0)
        # A unit cube scaled to the box: UsdPhysics reads half extents as size/2 × scale.
        cube.AddScaleOp(UsdGeom.XformOp.PrecisionDouble).Set(g.Vec3d(*shape.size))
        gprim = cube
    elif isinstance(shape, Sphere):
        gprim = UsdGeom.Sphere.Define(out.stage, path)
        gprim.CreateRadiusAttr(shape.radius)
    elif isinstance(shape, (Capsule, Cylinder)):
        gprim = _round(out, path, shape)
    elif isinstance(shape, Plane):
        gprim = UsdGeom.Plane.Define(out.stage, path)
        gprim.CreateAxisAttr(UsdGeom.Tokens.y)
        if shape.size_x is not None:
            gprim.CreateWidthAttr(shape.size_x)
        if shape.size_z is not None:
            gprim.CreateLengthAttr(shape.size_z)
        if pointer is not None and (shape.size_x is not None or shape.size_z is not None):
            out.loss("USD-9", pointer, "a finite plane: UsdPhysics planes are infinite (width/length kept)")
        gprim.CreateDoubleSidedAttr(shape.double_sided)
    else:
        vertices, triangles = out.mesh_source(shape)
        prim = _mesh_prim(out, path, vertices, triangles)
        UsdGeom.Imageable(prim).CreatePurposeAttr(UsdGeom.Tokens.guide)
        if pointer is not None and (shape.skin is not None or shape.weights is not None or shape.use_node_weights):
            out.loss("USD-11", pointer, "mesh shape skin/morph weights: the USD mesh is the rest pose "
                     f"({NS} customData keeps the reference)")
        return prim
    gprim.CreatePurposeAttr(UsdGeom.Tokens.guide)
    extent = UsdGeom.Boundable.ComputeExtentFromPlugins(gprim, out.pxr.Usd.TimeCode.Default())
    if extent is not None:
        gprim.CreateExtentAttr(extent)
    return gprim.GetPrim()


def _round(out: Out, path: Any, shape: Capsule | Cylinder) -> Any:
    UsdGeom = out.pxr.UsdGeom
    tapered = shape.radius_top != shape.radius_bottom
    if isinstance(shape, Capsule):
        gprim = (UsdGeom.Capsule_1 if tapered else UsdGeom.Capsule).Define(out.stage, path)
    else:
        gprim = (UsdGeom.Cylinder_1 if tapered else UsdGeom.Cylinder).Define(out.stage, path)
    gprim.CreateAxisAttr(UsdGeom.Tokens.y)
    gprim.CreateHeightAttr(shape.height)  # capsule: between the hemisphere centres, as in the model
    if tapered:
        gprim.CreateRadiusTopAttr(shape.radius_top)
        gprim.CreateRadiusBottomAttr(shape.radius_bottom)
    else:
        gprim.CreateRadiusAttr(shape.radius_top)
    return gprim


# ------------------------------------------------------------------------------------------------ bodies

def _body(out: Out, body: Body) -> None:
    UsdPhysics, Gf = out.pxr.UsdPhysics, out.pxr.Gf
    prim = out.stage.GetPrimAtPath(out.node_paths[body.node])
    m = body.motion
    api = UsdPhysics.RigidBodyAPI.Apply(prim)
    pointer = body.pointer or f"/nodes/{body.node}"
    if m.type is MotionType.STATIC:
        api.CreateRigidBodyEnabledAttr(False)
    elif m.type is MotionType.KINEMATIC:
        api.CreateKinematicEnabledAttr(True)
    if any(m.linear_velocity):
        api.CreateVelocityAttr(Gf.Vec3f(*m.linear_velocity))
    if any(m.angular_velocity):
        api.CreateAngularVelocityAttr(Gf.Vec3f(*(math.degrees(v) for v in m.angular_velocity)))
    if m.gravity_factor != 1.0:
        attr(out, prim, "gravityFactor", "Double", m.gravity_factor)
        out.loss("USD-3", pointer, f"gravityFactor {m.gravity_factor:g}: no UsdPhysics counterpart "
                 f"(kept as {NS}:gravityFactor)")
    _mass(out, prim, body, pointer)


def _mass(out: Out, prim: Any, body: Body, pointer: str) -> None:
    Gf, m = out.pxr.Gf, body.motion
    if m.mass is None and m.center_of_mass is None and m.inertia_diagonal is None:
        return
    api = out.pxr.UsdPhysics.MassAPI.Apply(prim)
    if m.mass is not None:
        if math.isfinite(m.mass):
            api.CreateMassAttr(m.mass)
        else:
            attr(out, prim, "mass", "Double", m.mass)
            out.loss("USD-8", pointer, f"infinite mass: no UsdPhysics form (kept as {NS}:mass)")
    if m.center_of_mass is not None:
        api.CreateCenterOfMassAttr(Gf.Vec3f(*m.center_of_mass))
    if m.inertia_diagonal is not None:
        if all(math.isfinite(v) for v in m.inertia_diagonal):
            api.CreateDiagonalInertiaAttr(Gf.Vec3f(*m.inertia_diagonal))
        else:
            attr(out, prim, "diagonalInertia", "Double3", Gf.Vec3d(*m.inertia_diagonal))
            out.loss("USD-8", pointer, f"infinite inertia: no UsdPhysics form (kept as {NS}:diagonalInertia)")
        x, y, z, w = m.inertia_orientation
        api.CreatePrincipalAxesAttr(Gf.Quatf(w, x, y, z))


# ---------------------------------------------------------------------------- scene, materials, filters

def _physics_scene(out: Out) -> None:
    UsdPhysics, Gf = out.pxr.UsdPhysics, out.pxr.Gf
    out.stage.DefinePrim(f"/World/{PHYSICS_SCOPE}", "Scope")
    scene = UsdPhysics.Scene.Define(out.stage, f"/World/{PHYSICS_SCOPE}/PhysicsScene")
    g = out.scene.world_gravity
    if g is not None:  # None: the file says nothing, USD's unauthored gravity is the same "engine default"
        x, y, z = g.direction
        n = math.sqrt(x * x + y * y + z * z) or 1.0
        scene.CreateGravityDirectionAttr(Gf.Vec3f(x / n, y / n, z / n))
        scene.CreateGravityMagnitudeAttr(g.gravity)


def _materials(out: Out) -> None:
    UsdShade, UsdPhysics = out.pxr.UsdShade, out.pxr.UsdPhysics
    if not out.scene.materials:
        return
    out.stage.DefinePrim(f"/World/{PHYSICS_SCOPE}/Materials", "Scope")
    for k, mat in enumerate(out.scene.materials):
        material = UsdShade.Material.Define(out.stage, f"/World/{PHYSICS_SCOPE}/Materials/PhysicsMaterial_{k}")
        prim = material.GetPrim()
        prim.SetCustomDataByKey(NS, {"material": k})
        api = UsdPhysics.MaterialAPI.Apply(prim)
        api.CreateStaticFrictionAttr(mat.static_friction)
        api.CreateDynamicFrictionAttr(mat.dynamic_friction)
        api.CreateRestitutionAttr(mat.restitution)
        _combine(out, prim, mat)
        out.materials.append(material)


def _combine(out: Out, prim: Any, mat: PhysicsMaterial) -> None:
    for key, name in (("friction_combine", "frictionCombine"), ("restitution_combine", "restitutionCombine")):
        mode = getattr(mat, key)
        if mode is None:
            continue
        attr(out, prim, name, "Token", mode.value)
        if mode is not CombineMode.AVERAGE:  # PhysX's default is average: only the other modes are a loss
            out.loss("USD-2", mat.pointer or f"/materials/{prim.GetName()}",
                     f"{name} '{mode.value}': no UsdPhysics counterpart (kept as {NS}:{name})")


def does_collide(a: Any, b: Any) -> bool:
    """docs/semantics.md filtering, one direction: may a collider with filter ``a`` touch one with filter ``b``."""
    a_sys = set(a.collision_systems) if a is not None else set()
    if b is None:
        return True
    if b.collide_with_systems and not a_sys & set(b.collide_with_systems):
        return False
    return not a_sys & set(b.not_collide_with_systems)


def _filters(out: Out) -> None:
    """One CollisionGroup per model filter (plus one for unfiltered colliders when a filter shuts them out).

    Groups partition the colliders, so filtering group pairs is exact for every collider pair; each group
    keeps its filter's system names as ``gltfPhysics:*`` attributes.
    """
    filters = out.scene.filters
    if not filters:
        return
    UsdPhysics, Sdf = out.pxr.UsdPhysics, out.pxr.Sdf
    members: dict[int | None, list[Any]] = {}
    for i, c in enumerate(out.scene.colliders):
        members.setdefault(c.filter, []).append(out.collider_paths[i])
    keys: list[int | None] = list(range(len(filters)))
    if None in members and any(not does_collide(None, f) for f in filters):
        keys.append(None)
    out.stage.DefinePrim(f"/World/{PHYSICS_SCOPE}/CollisionGroups", "Scope")
    groups = {}
    for key in keys:
        f = filters[key] if key is not None else None
        name = "Unfiltered" if f is None else out.pxr.Tf.MakeValidIdentifier(
            "_".join(f.collision_systems) or "NoSystems")
        group = UsdPhysics.CollisionGroup.Define(out.stage, f"/World/{PHYSICS_SCOPE}/CollisionGroups/"
                                                 f"{name}_{key if key is not None else 'none'}")
        group.GetPrim().SetCustomDataByKey(NS, {"filter": -1 if key is None else key})
        if f is not None:
            for key_name, value in (("collisionSystems", f.collision_systems),
                                    ("collideWithSystems", f.collide_with_systems),
                                    ("notCollideWithSystems", f.not_collide_with_systems)):
                attr(out, group.GetPrim(), key_name, "StringArray", list(value))
        includes = group.GetCollidersCollectionAPI().CreateIncludesRel()
        for path in members.get(key, []):
            includes.AddTarget(path)
        groups[key] = group
    for a in keys:
        fa = filters[a] if a is not None else None
        for b in keys:
            fb = filters[b] if b is not None else None
            if not (does_collide(fa, fb) and does_collide(fb, fa)):
                groups[a].CreateFilteredGroupsRel().AddTarget(Sdf.Path(groups[b].GetPath()))


# -------------------------------------------------------------------------------------- kept as JSON

def _json_lists(out: Out) -> None:
    """Each item as ``[list index, model object]`` on its node's prim (the index keeps the list order)."""
    by_node: dict[tuple[int, str], list[Any]] = {}
    for attr_key, name, code, what in JSON_LISTS:
        for k, item in enumerate(getattr(out.scene, attr_key)):
            node = item.node if 0 <= item.node < len(out.node_paths) else 0
            by_node.setdefault((node, name), []).append((k, item))
            out.loss(code, item.pointer or f"/nodes/{item.node}",
                     f"{what}: no UsdPhysics counterpart (kept as {NS}:{name})")
    for (node, name), items in by_node.items():
        if out.node_paths:
            attr(out, out.stage.GetPrimAtPath(out.node_paths[node]), name, "String", usd_codec.encode(items))
    for trigger in out.scene.triggers:  # seen in USD tools as guide shapes without CollisionAPI
        if trigger.shape is not None and 0 <= trigger.node < len(out.node_paths):
            base = out.node_paths[trigger.node]
            if not out.stage.GetPrimAtPath(base.AppendChild("trigger")):
                prim = shape_prim(out, base.AppendChild("trigger"), trigger.shape, None)
                prim.SetCustomDataByKey(NS, {"role": "trigger"})


def _loose_meshes(out: Out) -> None:
    """glTF meshes no node carries (a trigger's or gravity volume's mesh shape may name one): mesh data prims
    under /World/Physics/Meshes, so every mesh index a shape names exists again on the way back."""
    written = {p.GetCustomData().get(NS, {}).get("mesh") for p in out.stage.Traverse()}
    meshes = out.doc.json.get("meshes") or []
    for m in range(len(meshes)):
        if m in written:
            continue
        vertices, triangles = out.mesh_source(MeshShape(convex=False, mesh=m))
        prim = _mesh_prim(out, out.pxr.Sdf.Path(f"/World/{PHYSICS_SCOPE}/Meshes/mesh_{m}"), vertices, triangles)
        out.pxr.UsdGeom.Imageable(prim).CreatePurposeAttr(out.pxr.UsdGeom.Tokens.guide)
        prim.SetCustomDataByKey(NS, {"role": "meshData", "mesh": m})


def _kept_json(holder: dict[str, Any], keys: tuple[str, ...], doc_level: bool = False) -> dict[str, Any]:
    """``{"gltf": JSON}`` of the non-physics ``keys`` of a node or the document (with the names of the
    extensions used by what is kept), or ``{}`` when there is none."""
    from ...dialects import PHYSICS_EXTENSIONS  # names only: which extensions the model already carries

    kept = {k: holder[k] for k in keys if k in holder}
    if isinstance(kept.get("extensions"), dict):
        kept["extensions"] = {k: v for k, v in kept["extensions"].items() if k not in PHYSICS_EXTENSIONS}
        if not kept["extensions"]:
            del kept["extensions"]
    if doc_level:  # the names, except those only used by what is not carried (e.g. material extensions)
        lost = _extension_names([holder.get(k) for k in (*_NOT_CARRIED, "meshes", "accessors")])
        lost -= _extension_names([kept, *(holder.get("nodes") or [])])
        for key in ("extensionsUsed", "extensionsRequired"):
            names = [e for e in holder.get(key) or [] if isinstance(e, str) and e not in PHYSICS_EXTENSIONS
                     and e not in lost]
            if names:
                kept[key] = names
    return {"gltf": usd_codec.json.dumps(kept, separators=(",", ":"))} if kept else {}


def _extension_names(values: list[Any]) -> set[str]:
    """Every key of every ``extensions`` object anywhere inside ``values``."""
    names: set[str] = set()
    stack = list(values)
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if isinstance(v.get("extensions"), dict):
                names |= set(v["extensions"])
            stack += v.values()
        elif isinstance(v, list):
            stack += v
    return names


def _non_physics_losses(out: Out) -> None:
    gltf = out.doc.json
    present = [k for k in _NOT_CARRIED if gltf.get(k)]
    if present:
        out.loss("USD-10", "", f"not physics, not carried to USD: {', '.join(present)} "
                 "(meshes go as positions and triangles only)")
