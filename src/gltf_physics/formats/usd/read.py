"""An OpenUSD stage with UsdPhysics → PhysicsScene + a glTF document holding its nodes and meshes.

The nodes and meshes come from :mod:`.usd_read_nodes`; this module reads the physics on them: bodies,
colliders, materials, collision groups, joints, gravity and the ``gltfPhysics`` namespace. Files we wrote
carry list indices and joint layouts in ``customData`` and read back to the same model; other files are read
in traversal order. Values the reader cannot place are ``ReadNote``s (codes ``USD-12``, ``USD-13``), which
become the conversion's loss report.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from ...geometry.frames import body_frame
from ...gltf.transforms import decompose, trs_matrix, world_matrices
from ...model import (
    IDENTITY_QUAT,
    Body,
    Box,
    Capsule,
    Collider,
    CollisionFilter,
    CombineMode,
    Cylinder,
    DriveMode,
    DriveType,
    Joint,
    JointDrive,
    MeshShape,
    Motion,
    MotionType,
    PhysicsMaterial,
    PhysicsScene,
    Plane,
    Pose,
    Shape,
    Sphere,
    WorldGravity,
)
from . import codec as usd_codec
from .joints import ROT, TRANS, JointSpec, implied_ranges, model_limits
from .out import NS
from .read_nodes import Z_UP_TO_Y_UP, NodeTree, custom, deg, f32, per_deg, quat, vec
from .write import JSON_LISTS

_AXIS_FROM_Y = {"X": (0.0, 0.0, -math.sqrt(0.5), math.sqrt(0.5)), "Y": IDENTITY_QUAT,
                "Z": (math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))}  # turns +Y onto the named axis
JOINT_KINDS = (("PhysicsFixedJoint", "fixed"), ("PhysicsRevoluteJoint", "revolute"),
               ("PhysicsPrismaticJoint", "prismatic"), ("PhysicsSphericalJoint", "spherical"),
               ("PhysicsDistanceJoint", "distance"), ("PhysicsJoint", "generic"))


class _Reader(NodeTree):
    def __init__(self, pxr: Any, stage: Any) -> None:
        super().__init__(pxr, stage)
        self.bodies: set[int] = set()
        self._world_frames: list[tuple[int | None, Pose]] = []

    def run(self) -> PhysicsScene:
        self._units()
        self._walk(self.stage.GetPseudoRoot(), None)
        self._index_nodes()
        self._materials()
        self._bodies()
        colliders = self._colliders()
        self._filters(colliders)
        self._joints()
        self._gravity()
        self._json_lists()
        self.scene.document = self._document()
        self._resolve_world_frames()
        return self.scene

    def _materials(self) -> None:
        UsdPhysics = self.pxr.UsdPhysics
        found = [p for p in self.stage.Traverse() if p.HasAPI(UsdPhysics.MaterialAPI)]
        found.sort(key=lambda p: custom(p).get("material", math.inf))
        self.material_of: dict[Any, int] = {}
        for k, prim in enumerate(found):
            api = UsdPhysics.MaterialAPI(prim)
            combine = {}
            for key, name in (("friction_combine", "frictionCombine"), ("restitution_combine", "restitutionCombine")):
                attr = prim.GetAttribute(f"{NS}:{name}")
                if attr and attr.HasAuthoredValue():
                    combine[key] = CombineMode(str(attr.Get()))
            if api.GetDensityAttr().HasAuthoredValue():
                self.note("USD-12", prim.GetPath(), "material density: not used (mass comes from bodies)")
            self.scene.materials.append(PhysicsMaterial(
                static_friction=f32(api.GetStaticFrictionAttr().Get()),
                dynamic_friction=f32(api.GetDynamicFrictionAttr().Get()),
                restitution=f32(api.GetRestitutionAttr().Get()), pointer=str(prim.GetPath()), **combine))
            self.material_of[prim.GetPath()] = k

    def _bodies(self) -> None:
        UsdPhysics = self.pxr.UsdPhysics
        for path in self.order:
            prim = self.stage.GetPrimAtPath(path)
            if not prim.HasAPI(UsdPhysics.RigidBodyAPI):
                continue
            api = UsdPhysics.RigidBodyAPI(prim)
            kind = MotionType.DYNAMIC
            if not api.GetRigidBodyEnabledAttr().Get():
                kind = MotionType.STATIC
            elif api.GetKinematicEnabledAttr().Get():
                kind = MotionType.KINEMATIC
            motion = Motion(type=kind, linear_velocity=vec(api.GetVelocityAttr().Get()),  # type: ignore[arg-type]
                            angular_velocity=tuple(deg(v) for v in vec(  # type: ignore[arg-type]
                                api.GetAngularVelocityAttr().Get())),
                            **self._mass(prim))
            factor = prim.GetAttribute(f"{NS}:gravityFactor")
            if factor and factor.HasAuthoredValue():
                motion = Motion(**{**motion.__dict__, "gravity_factor": float(factor.Get())})
            node = self.node_of[path]
            self.scene.bodies.append(Body(node=node, motion=motion, pointer=str(path)))
            self.bodies.add(node)
        self.scene.bodies.sort(key=lambda b: b.node)

    def _mass(self, prim: Any) -> dict[str, Any]:
        UsdPhysics = self.pxr.UsdPhysics
        if not prim.HasAPI(UsdPhysics.MassAPI):
            return {}
        api, out = UsdPhysics.MassAPI(prim), {}
        mass = api.GetMassAttr().Get()
        if api.GetMassAttr().HasAuthoredValue() and mass > 0:
            out["mass"] = f32(mass)
        custom = prim.GetAttribute(f"{NS}:mass")
        if custom and custom.HasAuthoredValue():
            out["mass"] = float(custom.Get())
        com = api.GetCenterOfMassAttr().Get()
        if api.GetCenterOfMassAttr().HasAuthoredValue() and all(math.isfinite(v) for v in com):
            out["center_of_mass"] = vec(com)
        diag = api.GetDiagonalInertiaAttr().Get()
        if api.GetDiagonalInertiaAttr().HasAuthoredValue() and any(diag):
            out["inertia_diagonal"] = vec(diag)
        custom = prim.GetAttribute(f"{NS}:diagonalInertia")
        if custom and custom.HasAuthoredValue():
            out["inertia_diagonal"] = vec(custom.Get(), single=False)
        axes = api.GetPrincipalAxesAttr()
        if axes.HasAuthoredValue() and axes.Get().GetLength() > 0:
            out["inertia_orientation"] = quat(axes.Get())
        if api.GetDensityAttr().HasAuthoredValue() and api.GetDensityAttr().Get() > 0:
            self.note("USD-12", prim.GetPath(), "body density: the runtime's density applies (1000 kg/m³)")
        return out

    def _colliders(self) -> list[tuple[Any, Collider]]:
        UsdPhysics = self.pxr.UsdPhysics
        found: list[tuple[Any, Collider]] = []
        for prim in self.stage.Traverse():
            if not prim.HasAPI(UsdPhysics.CollisionAPI):
                continue
            made = self._collider(prim)
            if made is not None:
                found.append((prim, made))
        found.sort(key=lambda pc: custom(pc[0]).get("collider", math.inf))
        return found

    def _collider(self, prim: Any) -> Collider | None:
        data = custom(prim)
        node = self._node_for(prim.GetPath() if data.get("role") != "collider" else prim.GetPath().GetParentPath())
        if node is None:
            self.note("USD-12", prim.GetPath(), "a collider that is no Xformable: skipped")
            return None
        got = self._shape(prim, data)
        if got is None:
            return None
        shape, axis = got
        if axis != "Y":  # a foreign round shape along X or Z: a helper child node turns +Y onto it
            node = self._helper_node(node, {"name": f"{prim.GetName()}_axis{axis}",
                                            "rotation": list(_AXIS_FROM_Y[axis])})
        material = None
        bound, _ = self.pxr.UsdShade.MaterialBindingAPI(prim).ComputeBoundMaterial("physics")
        if bound:
            material = self.material_of.get(bound.GetPrim().GetPath())
        return Collider(node=node, shape=shape, body=self._body_above(node), material=material,
                        pointer=str(prim.GetPath()))

    def _body_above(self, node: int) -> int | None:
        parents = {c: i for i, n in enumerate(self.json_nodes) for c in n.get("children", [])}
        cur: int | None = node
        while cur is not None:
            if cur in self.bodies:
                return cur
            cur = parents.get(cur)
        return None

    def _shape(self, prim: Any, data: dict[str, Any]) -> tuple[Shape, str] | None:
        UsdGeom = self.pxr.UsdGeom
        type_name = prim.GetTypeName()
        own = data.get("role") == "collider"
        if type_name == "Cube":
            s = float(UsdGeom.Cube(prim).GetSizeAttr().Get())
            scale = self._scale(prim) if own else (1.0, 1.0, 1.0)
            return Box(size=tuple(s * k for k in scale)), "Y"  # type: ignore[arg-type]
        if type_name == "Sphere":
            return Sphere(radius=float(UsdGeom.Sphere(prim).GetRadiusAttr().Get())), "Y"
        if type_name in ("Capsule", "Capsule_1", "Cylinder", "Cylinder_1"):
            g = getattr(UsdGeom, type_name)(prim)
            if type_name.endswith("_1"):
                top, bottom = float(g.GetRadiusTopAttr().Get()), float(g.GetRadiusBottomAttr().Get())
            else:
                top = bottom = float(g.GetRadiusAttr().Get())
            cls = Capsule if type_name.startswith("Capsule") else Cylinder
            return cls(height=float(g.GetHeightAttr().Get()), radius_bottom=bottom, radius_top=top), \
                str(g.GetAxisAttr().Get())
        if type_name == "Plane":
            g = UsdGeom.Plane(prim)
            width, length = g.GetWidthAttr(), g.GetLengthAttr()
            return Plane(size_x=float(width.Get()) if width.HasAuthoredValue() else None,
                         size_z=float(length.Get()) if length.HasAuthoredValue() else None,
                         double_sided=bool(g.GetDoubleSidedAttr().Get())), str(g.GetAxisAttr().Get())
        if type_name == "Mesh":
            return self._mesh_shape(prim, data), "Y"
        self.note("USD-12", prim.GetPath(), f"collider shape {type_name or 'without type'}: no glTF counterpart, "
                  "skipped")
        return None

    def _scale(self, prim: Any) -> tuple[float, float, float]:
        for op in self.pxr.UsdGeom.Xformable(prim).GetOrderedXformOps():
            if op.GetOpType() == self.pxr.UsdGeom.XformOp.TypeScale:
                return tuple(float(v) for v in op.Get())  # type: ignore[return-value]
        return (1.0, 1.0, 1.0)

    def _mesh_shape(self, prim: Any, data: dict[str, Any]) -> MeshShape:
        UsdPhysics = self.pxr.UsdPhysics
        approx = "none"
        if prim.HasAPI(UsdPhysics.MeshCollisionAPI):
            approx = str(UsdPhysics.MeshCollisionAPI(prim).GetApproximationAttr().Get())
        if approx not in ("none", "convexHull"):
            self.note("USD-12", prim.GetPath(), f"mesh approximation {approx!r}: read as a convex hull")
        convex = approx != "none"
        if "shape" in data:
            try:
                shape = usd_codec.decode(str(data["shape"]))
            except (ValueError, TypeError):
                shape = None
            if isinstance(shape, MeshShape):
                if shape.mesh is not None and shape.mesh not in self.meshes:
                    self._register_mesh(prim, shape.mesh)
                return MeshShape(**{**shape.__dict__, "convex": convex})
        return MeshShape(convex=convex, mesh=self._register_mesh(prim, None))

    def _filters(self, colliders: list[tuple[Any, Collider]]) -> None:
        UsdPhysics = self.pxr.UsdPhysics
        groups = [p for p in self.stage.Traverse() if p.IsA(UsdPhysics.CollisionGroup)]
        groups.sort(key=lambda p: custom(p).get("filter", math.inf))
        index_of: dict[Any, int | None] = {}
        for prim in groups:
            if custom(prim).get("filter") == -1:  # our group of unfiltered colliders
                index_of[prim.GetPath()] = None
                continue
            self.scene.filters.append(self._filter(prim))
            index_of[prim.GetPath()] = len(self.scene.filters) - 1
        queries = [(index_of[g.GetPath()], UsdPhysics.CollisionGroup(g).GetCollidersCollectionAPI()
                    .ComputeMembershipQuery()) for g in groups]
        for prim, collider in colliders:
            found = [k for k, q in queries if q.IsPathIncluded(prim.GetPath())]
            if len(found) > 1:
                self.note("USD-12", prim.GetPath(), "a collider in several collision groups: the first one applies")
            if found and found[0] is not None:
                collider = Collider(**{**collider.__dict__, "filter": found[0]})
            self.scene.colliders.append(collider)

    def _filter(self, prim: Any) -> CollisionFilter:
        values = {}
        for key, name in (("collision_systems", "collisionSystems"), ("collide_with_systems", "collideWithSystems"),
                          ("not_collide_with_systems", "notCollideWithSystems")):
            attr = prim.GetAttribute(f"{NS}:{name}")
            if attr and attr.HasAuthoredValue():
                values[key] = tuple(str(v) for v in attr.Get())
        if values:
            return CollisionFilter(**values, pointer=str(prim.GetPath()))
        group = self.pxr.UsdPhysics.CollisionGroup(prim)  # a foreign group: its name is its one system
        others = tuple(t.name for t in group.GetFilteredGroupsRel().GetTargets())
        inverted = group.GetInvertFilteredGroupsAttr().Get()
        return CollisionFilter(pointer=str(prim.GetPath()), collision_systems=(prim.GetName(),),
                               collide_with_systems=others if inverted else (),
                               not_collide_with_systems=() if inverted else others)

    # -- joints ----------------------------------------------------------------------------------------
    def _joints(self) -> None:
        found = []
        for prim in self.stage.Traverse():
            kind = dict(JOINT_KINDS).get(prim.GetTypeName())
            if kind is not None:
                joint = self._joint(prim, kind)
                if joint is not None:
                    found.append((custom(prim).get("joint", math.inf), joint))
            elif prim.IsA(self.pxr.UsdPhysics.Joint):
                self.note("USD-12", prim.GetPath(), f"joint type {prim.GetTypeName()}: not read")
        found.sort(key=lambda x: x[0])
        self.scene.joints = [j for _, j in found]

    def _joint(self, prim: Any, kind: str) -> Joint | None:
        UsdPhysics = self.pxr.UsdPhysics
        j = UsdPhysics.Joint(prim)
        data = custom(prim)
        if not j.GetJointEnabledAttr().Get():
            self.note("USD-12", prim.GetPath(), "a disabled joint: skipped")
            return None
        if math.isfinite(j.GetBreakForceAttr().Get()) or math.isfinite(j.GetBreakTorqueAttr().Get()):
            self.note("USD-12", prim.GetPath(), "break force/torque: no glTF counterpart, the joint never breaks")
        sides = []
        for side, rel, pos, rot in ((0, j.GetBody0Rel(), j.GetLocalPos0Attr(), j.GetLocalRot0Attr()),
                                    (1, j.GetBody1Rel(), j.GetLocalPos1Attr(), j.GetLocalRot1Attr())):
            targets = rel.GetTargets()
            frame = Pose(self._precise(prim, f"localPos{side}", pos.Get(), vec),  # type: ignore[arg-type]
                         self._precise(prim, f"localRot{side}", rot.Get(), quat))
            sides.append(self._side(targets[0] if targets else None, frame))
        spec = self._spec(prim, kind)
        drives = self._drives(prim, kind, spec)
        return Joint(body_a=sides[0][0], frame_a=sides[0][1], body_b=sides[1][0], frame_b=sides[1][1],
                     limits=model_limits(spec), drives=drives, enable_collision=bool(j.GetCollisionEnabledAttr().Get()),
                     node=int(data.get("node", -1)), connected_node=data.get("connectedNode"),
                     settings_index=data.get("settingsIndex"), pointer=str(prim.GetPath()))

    def _precise(self, prim: Any, name: str, value: Any, conv: Any) -> tuple[float, ...]:
        """Our double-precision copy of a float USD value, while it still rounds to that value."""
        single = conv(value)
        kept = prim.GetAttribute(f"{NS}:{name}")
        if kept and kept.HasAuthoredValue():
            double = conv(kept.Get(), single=False)
            if all(np.float32(a) == np.float32(b) for a, b in zip(double, single, strict=True)):
                return double
        return single

    def _side(self, target: Any, frame: Pose) -> tuple[int | None, Pose]:
        """(body node, frame): a target that is no body is a world frame (resolved once nodes are known)."""
        if target is not None and not self.stage.GetPrimAtPath(target):
            self.note("USD-12", target, "a joint body that does not exist: that side is anchored in the world")
            target = None
        if target is None:
            self._world_frames.append((None, frame))
            return None, frame
        node = self._node_for(target)
        if node is not None and node in self.bodies:
            return node, frame
        self._world_frames.append((node, frame))
        return None, frame

    def _spec(self, prim: Any, kind: str) -> JointSpec:
        UsdPhysics = self.pxr.UsdPhysics
        data = custom(prim)
        spec = JointSpec(kind=kind)
        if kind in ("revolute", "prismatic", "spherical"):
            spec.axis = "XYZ".index(str(prim.GetAttribute("physics:axis").Get()))
        spec.ranges = implied_ranges(kind, spec.axis)
        if kind in ("revolute", "prismatic"):
            j = (UsdPhysics.RevoluteJoint if kind == "revolute" else UsdPhysics.PrismaticJoint)(prim)
            lo, hi = float(j.GetLowerLimitAttr().Get()), float(j.GetUpperLimitAttr().Get())
            conv = deg if kind == "revolute" else f32
            if math.isfinite(lo) or math.isfinite(hi):
                name = (ROT if kind == "revolute" else TRANS)[spec.axis]
                spec.ranges[name] = (conv(lo) if math.isfinite(lo) else lo, conv(hi) if math.isfinite(hi) else hi)
        elif kind == "spherical":
            j = UsdPhysics.SphericalJoint(prim)
            a0, a1 = float(j.GetConeAngle0LimitAttr().Get()), float(j.GetConeAngle1LimitAttr().Get())
            if a0 >= 0 and a1 >= 0:
                if a0 != a1:
                    self.note("USD-12", prim.GetPath(), "an elliptic cone limit: read as the smaller circular cone")
                spec.cone = (spec.axis, float(data.get("coneMin", 0.0)), deg(min(a0, a1)))
        elif kind == "distance":
            j = UsdPhysics.DistanceJoint(prim)
            lo, hi = float(j.GetMinDistanceAttr().Get()), float(j.GetMaxDistanceAttr().Get())
            stored = data.get("distanceMin")
            low = f32(lo) if lo >= 0 else (float(stored) if stored is not None and float(stored) < 0 else -math.inf)
            spec.distance = (low, f32(hi) if hi >= 0 else math.inf)
        for name in prim.GetAppliedSchemas():
            if name.startswith("PhysicsLimitAPI:"):
                inst = name.split(":", 1)[1]
                limit = UsdPhysics.LimitAPI(prim, inst)
                lo, hi = float(limit.GetLowAttr().Get()), float(limit.GetHighAttr().Get())
                if inst == "distance":
                    spec.distance = (f32(lo), f32(hi))
                elif inst in ROT:
                    spec.ranges[inst] = (deg(lo), deg(hi))
                elif inst in TRANS:
                    spec.ranges[inst] = (f32(lo), f32(hi))
        self._extras(prim, spec)
        return spec

    def _extras(self, prim: Any, spec: JointSpec) -> None:
        """Our namespace on a joint: limit grouping, soft-limit gains, limits and drives USD cannot say."""
        data = custom(prim)
        try:
            if "layout" in data:
                spec.layout = [list(e) for e in json.loads(str(data["layout"]))]
            soft = prim.GetAttribute(f"{NS}:softLimits")
            if soft and soft.HasAuthoredValue():
                spec.soft = {str(k): (float(v[0]), float(v[1])) for k, v in json.loads(soft.Get()).items()}
            for name, target in (("limits", spec.extra_limits), ("drives", spec.extra_drives)):
                a = prim.GetAttribute(f"{NS}:{name}")
                if a and a.HasAuthoredValue():
                    target.extend(usd_codec.decode(a.Get()))
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            self.note("USD-12", prim.GetPath(), f"unreadable {NS} joint data ({exc}): the USD joint alone is read")
            spec.layout, spec.soft, spec.extra_limits, spec.extra_drives = [], {}, [], []

    def _drives(self, prim: Any, kind: str, spec: JointSpec) -> tuple[JointDrive, ...]:
        found: dict[str, JointDrive] = {}
        for name in prim.GetAppliedSchemas():
            if not name.startswith("PhysicsDriveAPI:"):
                continue
            inst = name.split(":", 1)[1]
            dof = {"angular": ROT[spec.axis], "linear": TRANS[spec.axis]}.get(inst, inst)
            if dof not in ROT + TRANS:
                self.note("USD-12", prim.GetPath(), f"drive {inst!r}: not a degree of freedom, skipped")
                continue
            found[dof] = self._drive(prim, inst, dof)
        order = [str(d) for d in custom(prim).get("driveOrder", [])]
        names = [d for d in order if d in found] + [d for d in found if d not in order]
        return tuple(found[d] for d in names) + tuple(spec.extra_drives)

    def _drive(self, prim: Any, inst: str, dof: str) -> JointDrive:
        api = self.pxr.UsdPhysics.DriveAPI(prim, inst)
        angular = dof in ROT
        gain = per_deg if angular else f32
        stiffness = gain(float(api.GetStiffnessAttr().Get()))
        target_attr, velocity_attr = api.GetTargetPositionAttr(), api.GetTargetVelocityAttr()
        position = None
        if target_attr.HasAuthoredValue() or stiffness:  # unauthored target with a spring: USD means 0
            value = float(target_attr.Get())
            position = deg(value) if angular else f32(value)
        velocity = None
        if velocity_attr.HasAuthoredValue():
            value = float(velocity_attr.Get())
            velocity = deg(value) if angular else f32(value)
        kept = prim.GetAttribute(f"{NS}:drive:{inst}:stiffness")
        if kept and kept.HasAuthoredValue():
            stiffness = float(kept.Get())
        return JointDrive(type=DriveType.ANGULAR if angular else DriveType.LINEAR,
                          mode=DriveMode(str(api.GetTypeAttr().Get())), axis=(ROT if angular else TRANS).index(dof),
                          max_force=f32(float(api.GetMaxForceAttr().Get())), position_target=position,
                          velocity_target=velocity, stiffness=stiffness,
                          damping=gain(float(api.GetDampingAttr().Get())))

    # -- the rest --------------------------------------------------------------------------------------
    def _gravity(self) -> None:
        UsdPhysics = self.pxr.UsdPhysics
        for prim in self.stage.Traverse():
            if not prim.IsA(UsdPhysics.Scene):
                continue
            scene = UsdPhysics.Scene(prim)
            d, g = scene.GetGravityDirectionAttr(), scene.GetGravityMagnitudeAttr()
            if not (d.HasAuthoredValue() or g.HasAuthoredValue()):
                return
            direction = vec(d.Get()) if any(d.Get()) else ((0.0, 0.0, -1.0) if self.up == "Z" else (0.0, -1.0, 0.0))
            if self.wrapper is not None:
                direction = tuple(float(v) for v in trs_matrix((0, 0, 0), Z_UP_TO_Y_UP)[:3, :3] @ direction)
            magnitude = float(g.Get())
            self.scene.world_gravity = WorldGravity(gravity=f32(magnitude) if magnitude >= 0 else 9.81,
                                                    direction=direction)  # type: ignore[arg-type]
            return

    def _json_lists(self) -> None:
        """Triggers, vehicles, seats… kept as ``[list index, object]`` JSON on node prims, in list order."""
        for attr_key, name, _, _ in JSON_LISTS:
            items = []
            for path in self.order:
                a = self.stage.GetPrimAtPath(path).GetAttribute(f"{NS}:{name}")
                if not (a and a.HasAuthoredValue()):
                    continue
                try:
                    found = [(int(k), item) for k, item in usd_codec.decode(a.Get())]
                except (ValueError, TypeError) as exc:
                    self.note("USD-12", path, f"unreadable {NS}:{name} ({exc}): skipped")
                    continue
                items += found
            setattr(self.scene, attr_key, [item for _, item in sorted(items, key=lambda x: x[0])])

    def _resolve_world_frames(self) -> None:
        """Joint sides whose target is no body: their frames in world space (the wrapper turn included)."""
        if not self._world_frames:
            return
        assert self.scene.document is not None
        world = world_matrices(self.scene.document.json)
        resolved = {}
        for node, frame in self._world_frames:
            base = body_frame(world[node]) if node is not None else (
                world[self.wrapper] if self.wrapper is not None else np.eye(4))
            t, q, _ = decompose(base @ trs_matrix(frame.translation, frame.rotation))
            resolved[id(frame)] = Pose(tuple(float(v) for v in t), tuple(float(v) for v in q))  # type: ignore[arg-type]
        self.scene.joints = [Joint(**{**j.__dict__, "frame_a": resolved.get(id(j.frame_a), j.frame_a)
                                      if j.body_a is None else j.frame_a,
                                      "frame_b": resolved.get(id(j.frame_b), j.frame_b)
                                      if j.body_b is None else j.frame_b}) for j in self.scene.joints]


def read_stage(pxr: Any, stage: Any) -> PhysicsScene:
    """The model and glTF skeleton of an opened stage (see the module docstring)."""
    return _Reader(pxr, stage).run()
