"""A glTF document and its physics model, assembled from a robot description (URDF or MJCF).

The importers (``formats/urdf``, ``formats/mjcf/read``) walk their source's kinematic tree and call this
builder: one node per link/body, **named as in the source**, under one root node that turns the Z-up source
Y-up; visual meshes (with their colours) on child nodes; colliders on child nodes (implicit shapes, or
physics-only meshes that no node draws); joints as a joint node under the parent body (frame A) and an
attachment node under the child (frame B), named after the source's joint. Then ``dialects.write_scene``
writes the model in the newest OMI or KHR form.

Joint frames put the moving axis on frame X: a hinge or slide along axis ``a`` gets frame A and frame B both
rotated so that +X is ``a`` (they coincide at the source's reference pose), so its limit is angular (or
linear) axis 0 and the locks are the other five axes (the hinge and slider of the joint limit rules, JOINT-5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..gltf.document import Document
from ..gltf.transforms import decompose, matrix_to_quat, trs_matrix
from ..model import (
    Body,
    Collider,
    CollisionFilter,
    CombineMode,
    DriveMode,
    DriveType,
    Joint,
    JointDrive,
    JointLimit,
    Motion,
    MotionType,
    PhysicsMaterial,
    PhysicsScene,
    Pose,
    ReadNote,
    Shape,
)

Z_UP_TO_Y_UP = (-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))  # −90° about X: the source's +Z becomes +Y
# MJCF and URDF round shapes run along local +Z, glTF's along +Y: a child turned +90° about X carries them.
Y_TO_Z = (math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))

_LOCK_LINEAR = JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0)
_LOCK_ANGULAR = JointLimit(angular_axes=(0, 1, 2), min=0.0, max=0.0)


def quat_x_to(axis: Sequence[float]) -> tuple[float, float, float, float]:
    """The xyzw rotation taking +X onto the unit vector ``axis`` (a right-handed frame, X first)."""
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a)
    helper = np.array([0.0, 0.0, 1.0]) if abs(a[2]) < 0.9 else np.array([0.0, 1.0, 0.0])
    if abs(a[0]) > 1 - 1e-12:  # ±X: identity or half-turn about Z, exactly
        return (0.0, 0.0, 0.0, 1.0) if a[0] > 0 else (0.0, 0.0, 1.0, 0.0)
    y = np.cross(helper, a)
    y /= np.linalg.norm(y)
    z = np.cross(a, y)
    return matrix_to_quat(np.column_stack([a, y, z]))


def hinge_limits(lo: float = -math.inf, hi: float = math.inf) -> tuple[JointLimit, ...]:
    """A hinge about frame X: linear locked, angular Y/Z locked, angular X within [lo, hi] when bounded."""
    out = [_LOCK_LINEAR, JointLimit(angular_axes=(1, 2), min=0.0, max=0.0)]
    if math.isfinite(lo) or math.isfinite(hi):
        out.append(JointLimit(angular_axes=(0,), min=lo, max=hi))
    return tuple(out)


def slide_limits(lo: float = -math.inf, hi: float = math.inf) -> tuple[JointLimit, ...]:
    """A slider along frame X: angular locked, linear Y/Z locked, linear X within [lo, hi] when bounded."""
    out = [_LOCK_ANGULAR, JointLimit(linear_axes=(1, 2), min=0.0, max=0.0)]
    if math.isfinite(lo) or math.isfinite(hi):
        out.append(JointLimit(linear_axes=(0,), min=lo, max=hi))
    return tuple(out)


def fixed_limits() -> tuple[JointLimit, ...]:
    """Every axis locked: a weld."""
    return (_LOCK_LINEAR, _LOCK_ANGULAR)


def ball_limits(max_angle: float = math.inf) -> tuple[JointLimit, ...]:
    """Linear locked; the total rotation (angular 0, 1, 2) within ``max_angle`` when bounded."""
    out = [_LOCK_LINEAR]
    if math.isfinite(max_angle):
        out.append(JointLimit(angular_axes=(0, 1, 2), min=0.0, max=max_angle))
    return tuple(out)


def planar_limits() -> tuple[JointLimit, ...]:
    """Motion in the frame's YZ plane and rotation about its X (the plane's normal); the rest locked."""
    return (JointLimit(linear_axes=(0,), min=0.0, max=0.0), JointLimit(angular_axes=(1, 2), min=0.0, max=0.0))


def drive(kind: str, axis: int = 0, *, stiffness: float = 0.0, damping: float = 0.0,
          position: float | None = None, velocity: float | None = None, max_force: float = math.inf,
          pointer: str = "") -> JointDrive:
    """A force-mode drive on ``axis`` of frame A (``kind`` linear or angular); targets only with their gains
    (KRB-9: positionTarget goes with stiffness, velocityTarget with damping)."""
    return JointDrive(type=DriveType(kind), mode=DriveMode.FORCE, axis=axis, max_force=max_force,
                      position_target=position if stiffness > 0 else None,
                      velocity_target=velocity if damping > 0 else None,
                      stiffness=stiffness, damping=damping, pointer=pointer)


@dataclass
class VisualPart:
    """One coloured triangle list of a visual mesh (source frame of its node)."""

    vertices: np.ndarray
    faces: np.ndarray
    rgba: tuple[float, float, float, float] = (0.8, 0.8, 0.8, 1.0)


@dataclass
class RobotBuilder:
    """Collects nodes, meshes, materials and the physics model; :meth:`finish` makes the document."""

    source: str
    generator: str
    mesh_code: str = "MESH"  # the loss code for mesh data that cannot be kept (non-finite vertices)
    # The source's link/body names: a joint, geom or visual of the same name gets a suffix, so that looking a
    # body up by name finds the body (MJCF and URDF name each kind apart; cheetah's joints share their bodies').
    reserved: set[str] = field(default_factory=set)
    scene: PhysicsScene = field(default_factory=PhysicsScene)
    nodes: list[dict[str, Any]] = field(default_factory=list)
    meshes: list[dict[str, Any]] = field(default_factory=list)
    materials: list[dict[str, Any]] = field(default_factory=list)
    accessors: list[dict[str, Any]] = field(default_factory=list)
    views: list[dict[str, Any]] = field(default_factory=list)
    data: bytearray = field(default_factory=bytearray)
    extras: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._material_of: dict[tuple[float, ...], int] = {}
        self._physics_material_of: dict[tuple[float, ...], int] = {}
        self._filter_of: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
        self.root = self.add_node("Z_up_to_Y_up", None, rotation=Z_UP_TO_Y_UP)
        self.top_nodes = [self.root]

    # -- losses ---------------------------------------------------------------------------------------
    def note(self, code: str, pointer: str, message: str) -> None:
        """A loss: something of the source that the glTF physics model cannot hold (the loss report)."""
        self.scene.notes.append(ReadNote(code, pointer, message))

    # -- nodes ----------------------------------------------------------------------------------------
    def add_node(self, name: str, parent: int | None, translation: Sequence[float] = (0.0, 0.0, 0.0),
                 rotation: Sequence[float] = (0.0, 0.0, 0.0, 1.0), suffix: str = "") -> int:
        """A new node under ``parent`` (``None``: a scene root) with a rigid local pose; returns its index.
        ``suffix`` is appended when ``name`` is one of the :attr:`reserved` body names."""
        node: dict[str, Any] = {"name": name + suffix if suffix and name in self.reserved else name}
        if any(float(v) != 0.0 for v in translation):
            node["translation"] = [float(v) for v in translation]
        if tuple(float(v) for v in rotation) != (0.0, 0.0, 0.0, 1.0):
            node["rotation"] = [float(v) for v in rotation]
        self.nodes.append(node)
        index = len(self.nodes) - 1
        if parent is not None:
            self.nodes[parent].setdefault("children", []).append(index)
        return index

    def add_node_matrix(self, name: str, parent: int | None, local: np.ndarray, suffix: str = "") -> int:
        """:meth:`add_node` with a rigid 4×4 local transform."""
        t, q, _ = decompose(local)
        return self.add_node(name, parent, t, q, suffix)

    # -- meshes ---------------------------------------------------------------------------------------
    def add_mesh(self, name: str, parts: Sequence[VisualPart], *, with_material: bool = True,
                 pointer: str = "") -> int | None:
        """A glTF mesh of one primitive per part (``None`` when no part has a triangle); a mesh added
        ``with_material=False`` is a physics-only mesh (a collider's geometry, drawn by no node)."""
        prims = []
        for part in parts:
            v = np.ascontiguousarray(part.vertices, dtype="<f4").reshape(-1, 3)
            f = np.ascontiguousarray(part.faces, dtype="<u4").reshape(-1, 3)
            bad = ~np.isfinite(v).all(axis=1)
            if bad.any():  # a mesh file with NaN vertices (they exist): drop their faces, keep the rest valid
                f = f[~bad[f.astype(np.int64)].any(axis=1)]
                v = np.where(bad[:, None], np.float32(0.0), v)
                self.note(self.mesh_code, pointer or name, f"{int(bad.sum())} mesh vertices that are not finite "
                          "numbers: their triangles dropped")
            if len(v) == 0 or len(f) == 0:
                continue
            prim: dict[str, Any] = {"attributes": {"POSITION": self._accessor(v, 34962, "VEC3", bounds=True)},
                                    "indices": self._accessor(f.reshape(-1), 34963, "SCALAR")}
            if with_material:
                normals = _vertex_normals(v, f)
                prim["attributes"]["NORMAL"] = self._accessor(normals, 34962, "VEC3")
                prim["material"] = self._material(part.rgba)
            prims.append(prim)
        if not prims:
            return None
        self.meshes.append({"name": name, "primitives": prims})
        return len(self.meshes) - 1

    def _accessor(self, array: np.ndarray, target: int, kind: str, bounds: bool = False) -> int:
        chunk = array.tobytes()
        self.data.extend(b"\0" * (-len(self.data) % 4))
        self.views.append({"buffer": 0, "byteOffset": len(self.data), "byteLength": len(chunk), "target": target})
        self.data.extend(chunk)
        acc: dict[str, Any] = {"bufferView": len(self.views) - 1,
                               "componentType": 5126 if array.dtype.kind == "f" else 5125,
                               "count": len(array), "type": kind}
        if bounds:
            acc["min"] = [float(x) for x in array.min(axis=0)]
            acc["max"] = [float(x) for x in array.max(axis=0)]
        self.accessors.append(acc)
        return len(self.accessors) - 1

    def _material(self, rgba: Sequence[float]) -> int:
        key = tuple(round(float(c), 6) for c in rgba)
        if key not in self._material_of:
            mat: dict[str, Any] = {"name": "rgba " + " ".join(f"{c:g}" for c in key),
                                   "pbrMetallicRoughness": {"baseColorFactor": list(key), "metallicFactor": 0.0,
                                                            "roughnessFactor": 0.8}}
            if key[3] < 1.0:
                mat["alphaMode"] = "BLEND"
            self.materials.append(mat)
            self._material_of[key] = len(self.materials) - 1
        return self._material_of[key]

    # -- physics --------------------------------------------------------------------------------------
    def body(self, node: int, *, mass: float | None, com: Sequence[float] | None = None,
             inertia: Sequence[float] | None = None, orientation: Sequence[float] = (0.0, 0.0, 0.0, 1.0),
             kinematic: bool = False, pointer: str = "") -> None:
        """A rigid body on ``node``; ``None`` values are computed from the colliders by the runtime."""
        motion = Motion(type=MotionType.KINEMATIC if kinematic else MotionType.DYNAMIC, mass=mass,
                        center_of_mass=None if com is None else tuple(float(v) for v in com),  # type: ignore[arg-type]
                        inertia_diagonal=None if inertia is None else tuple(float(v) for v in inertia),  # type: ignore[arg-type]
                        inertia_orientation=tuple(float(v) for v in orientation))  # type: ignore[arg-type]
        self.scene.bodies.append(Body(node=node, motion=motion, pointer=pointer))

    def collider(self, node: int, shape: Shape, body: int | None, *, material: int | None = None,
                 filter: int | None = None, pointer: str = "") -> None:
        """A solid ``shape`` on ``node``, carried by the body on node ``body`` (``None``: static)."""
        self.scene.colliders.append(Collider(node=node, shape=shape, body=body, material=material, filter=filter,
                                             pointer=pointer))

    def physics_material(self, static: float, dynamic: float, restitution: float = 0.0,
                         combine: CombineMode | None = None) -> int:
        """The index of a physics material with these values (shared by equal ones)."""
        key = (float(static), float(dynamic), float(restitution), str(combine))
        if key not in self._physics_material_of:
            self.scene.materials.append(PhysicsMaterial(static_friction=float(static), dynamic_friction=float(dynamic),
                                                        restitution=float(restitution), friction_combine=combine,
                                                        restitution_combine=combine))
            self._physics_material_of[key] = len(self.scene.materials) - 1
        return self._physics_material_of[key]

    def collision_filter(self, systems: tuple[str, ...], collide_with: tuple[str, ...]) -> int:
        """The index of a collision filter (shared by equal ones)."""
        key = (systems, collide_with)
        if key not in self._filter_of:
            self.scene.filters.append(CollisionFilter(collision_systems=systems, collide_with_systems=collide_with))
            self._filter_of[key] = len(self.scene.filters) - 1
        return self._filter_of[key]

    def joint(self, name: str, parent: int | None, child: int, frame_a: np.ndarray, frame_b: np.ndarray,
              limits: tuple[JointLimit, ...], drives: tuple[JointDrive, ...] = (), *, pointer: str = "") -> None:
        """A joint named ``name`` between the body on node ``parent`` (``None``: the world, frame A then in
        the root node's space) and the body on node ``child``; frames are rigid 4×4 in their body's node."""
        if parent is None:
            # Frame A in world space, the root's turn applied, on a node of its own at the top of the scene:
            # under the root it would make every static collider the joint's partner, which the jointed
            # body then never touches (JOINT-9) — the floor included.
            frame_a = pose_matrix((0, 0, 0), Z_UP_TO_Y_UP) @ frame_a
            joint_node = self.add_node_matrix(name, None, frame_a, "_joint")
            self.top_nodes.append(joint_node)
        else:
            joint_node = self.add_node_matrix(name, parent, frame_a, "_joint")
        attach = self.add_node_matrix(f"{name}_attachment", child, frame_b)
        ta, qa, _ = decompose(frame_a)
        tb, qb, _ = decompose(frame_b)
        self.scene.joints.append(Joint(body_a=parent, frame_a=Pose(ta, qa), body_b=child, frame_b=Pose(tb, qb),
                                       limits=limits, drives=drives, node=joint_node, connected_node=attach,
                                       pointer=pointer))

    # -- the document ---------------------------------------------------------------------------------
    def finish(self) -> PhysicsScene:
        """The model with its document (``scene.document``); bodies and colliders in node order."""
        gltf: dict[str, Any] = {"asset": {"version": "2.0", "generator": self.generator}}
        if self.extras:
            gltf["asset"]["extras"] = self.extras
        gltf["scene"] = 0
        gltf["scenes"] = [{"nodes": list(self.top_nodes)}]
        gltf["nodes"] = self.nodes
        for key, items in (("materials", self.materials), ("meshes", self.meshes), ("accessors", self.accessors),
                           ("bufferViews", self.views)):
            if items:
                gltf[key] = items
        buffers: list[bytes] = []
        if self.data:
            gltf["buffers"] = [{"byteLength": len(self.data)}]
            buffers = [bytes(self.data)]
        self.scene.bodies.sort(key=lambda b: b.node)
        self.scene.document = Document(json=gltf, buffers=buffers, path=None)
        return self.scene


def _vertex_normals(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Area-weighted vertex normals (unit, +Y where a vertex has no face)."""
    p = v.astype(float)
    tri = p[f.astype(np.int64)]
    face_n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    n = np.zeros_like(p)
    for k in range(3):
        np.add.at(n, f[:, k].astype(np.int64), face_n)
    length = np.linalg.norm(n, axis=1)
    n[length == 0] = (0.0, 1.0, 0.0)
    length[length == 0] = 1.0
    return np.ascontiguousarray(n / length[:, None], dtype="<f4")


def pose_matrix(translation: Sequence[float], rotation_xyzw: Sequence[float]) -> np.ndarray:
    """A rigid 4×4 from a translation and an xyzw quaternion."""
    return trs_matrix(tuple(float(v) for v in translation), tuple(float(v) for v in rotation_xyzw))  # type: ignore[arg-type]


__all__ = ["Y_TO_Z", "Z_UP_TO_Y_UP", "RobotBuilder", "VisualPart", "ball_limits", "drive", "fixed_limits",
           "hinge_limits", "planar_limits", "pose_matrix", "quat_x_to", "slide_limits"]
