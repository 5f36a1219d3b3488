"""A URDF robot (parsed by yourdfpy) → PhysicsScene + a glTF document holding its nodes and meshes.

- Every link is a node named as in the URDF, placed at its pose with every joint at 0, under one root node
  that turns the Z-up robot Y-up. Visuals hang under it as mesh nodes (colours from the URDF material, else
  from the mesh file); collisions as collider nodes: box, sphere and cylinder as implicit shapes, meshes as
  convex colliders on physics-only meshes (the hull is what PyBullet and MuJoCo collide for a moving link), or
  triangle-mesh colliders with ``mesh_colliders="triangles"``.
- ``<inertial>``: mass, centre of mass and the inertia tensor diagonalised (principal moments and the
  orientation of their axes in the link frame). A link on a fixed joint is part of its parent's body, its
  mass added to that body's (:mod:`.inertia`), as MuJoCo and PyBullet compile it. A link without
  ``<inertial>`` has no mass of its own (the URDF specification); a moving body with no mass at all gets its
  mass computed from its colliders by the runtime (a note says so).
- Joints: revolute, continuous, prismatic, fixed, planar → glTF joints (a joint node under the parent link,
  its attachment under the child, both named after the URDF joint) with their limits; floating → none (the
  child moves freely). A ``<limit>`` without ``lower`` and ``upper`` leaves the joint unlimited, as PyBullet
  and MuJoCo read it. ``<limit effort>`` is a drive's ``maxForce`` and ``<dynamics damping>`` its damping
  (velocity target 0: a passive damper), so a joint with either carries one drive.
- The root link is fixed to the world by a fixed joint (the ROS convention for arms, and PyBullet's
  ``useFixedBase``); ``floating_base=True`` lets it fall free. A fixed root without mass (PyBullet's static
  base, e.g. its KUKA iiwa) is static: colliders without a body, its joints' nodes on its node. A root link
  named ``world`` with nothing on it is the world itself (``floating_base`` then drops the joints that tie
  the robot to it).

Loss codes (the loss report): ``URDF-1`` joint velocity limit, ``URDF-2`` joint friction, ``URDF-3`` mimic
joint, ``URDF-4`` transmission, ``URDF-5`` no ``<inertial>``, ``URDF-6`` safety controller / calibration,
``URDF-7`` texture, ``URDF-8`` gazebo extension, ``URDF-9`` link on a fixed joint merged into its parent's
body, ``URDF-10`` mesh vertices that are not finite numbers (their triangles dropped), ``URDF-11`` a massless
fixed base made static, ``URDF-12`` PyBullet contact settings other than friction and restitution.

A link's ``<contact>`` (PyBullet's extension: ``lateral_friction``, ``restitution``) is the physics material of
its colliders, static and dynamic friction both the lateral friction (0.5, PyBullet's default, when only a
restitution is given), combined by ``multiply`` as Bullet combines them; a link without it keeps the glTF
default material.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ...geometry.integrals import principal_axes
from ...gltf.errors import GltfError
from ...gltf.transforms import decompose
from ...model import Box, CombineMode, Cylinder, MeshShape, PhysicsScene, Sphere
from ..robot_scene import (
    Y_TO_Z,
    RobotBuilder,
    VisualPart,
    drive,
    fixed_limits,
    hinge_limits,
    planar_limits,
    pose_matrix,
    quat_x_to,
    slide_limits,
)
from .inertia import combined, link_inertia
from .meshes import load_parts, merged, primitive_parts
from .paths import MeshPaths

_MOVING = ("revolute", "continuous", "prismatic", "planar")
_BULLET_FRICTION = 0.5  # PyBullet's lateral friction where a <contact> gives none


def read_urdf(path: Path, robot: Any, *, floating_base: bool = False, package_dirs: tuple[str | Path, ...] = (),
              mesh_colliders: str = "convex", xml: Any = None) -> PhysicsScene:
    """The model of a parsed URDF ``robot`` read from ``path`` (see the module docstring); ``mesh_colliders``
    ``convex`` (the hull) or ``triangles`` (the mesh as it is); ``xml``: the document's root element, where the
    transmissions and gazebo extensions yourdfpy does not read are found (for the loss report)."""
    if mesh_colliders not in ("convex", "triangles"):
        raise ValueError(f"mesh_colliders must be 'convex' or 'triangles', not {mesh_colliders!r}")
    reader = _Reader(path, robot, floating_base, package_dirs, mesh_colliders == "convex")
    reader.xml = xml
    return reader.run()


class _Reader:
    def __init__(self, path: Path, robot: Any, floating_base: bool, package_dirs: tuple[str | Path, ...],
                 convex: bool) -> None:
        self.path, self.robot, self.floating_base, self.convex = path, robot, floating_base, convex
        self.paths = MeshPaths(path, package_dirs)
        self.b = RobotBuilder(source=path.name, generator="gltf-physics (from URDF)", mesh_code="URDF-10",
                              reserved={link.name for link in robot.links})
        self.colours = {m.name: m.color.rgba for m in robot.materials if m.color is not None}
        self.node_of: dict[str, int] = {}
        self.files: dict[tuple[str, str], Path] = {}  # (link, mesh file name) → resolved path
        self.mesh_cache: dict[tuple[Path, tuple[float, ...] | None], list[VisualPart]] = {}
        self.hull_of: dict[tuple[Path, tuple[float, ...] | None], int | None] = {}
        self.body_link: dict[str, str] = {}  # link → the link whose node carries its body
        self.offset: dict[str, np.ndarray] = {}  # link frame in that body link's frame
        self.fused: set[str] = set()  # fixed joints inside one body: not written
        self.static: set[str] = set()  # a massless fixed base: static colliders, its joints' nodes on its node
        self.xml: Any = None  # the URDF's root element, for what yourdfpy does not read
        self.contacts: dict[str, Any] | None = None  # link name → its <contact> element (PyBullet's), if any

    def run(self) -> PhysicsScene:
        self._check_paths()  # every mesh path first: a path outside the roots stops the read, nothing opened
        links = {link.name: link for link in self.robot.links}
        children = {j.child for j in self.robot.joints}
        roots = [name for name in links if name not in children]
        if len(roots) != 1:
            raise GltfError(f"the links form {len(roots)} trees, not one (roots: {', '.join(roots[:5])})",
                            file=str(self.path))
        world_link = _is_world(links[roots[0]])
        poses = self._poses(roots[0])
        self._place_links(links, roots[0], world_link, poses)
        if not world_link and not self.floating_base and roots[0] not in self.static:
            root = self.node_of[roots[0]]
            self.b.joint(f"world_to_{roots[0]}", None, root, poses[roots[0]], np.eye(4), fixed_limits(),
                         pointer=f"/robot/link[@name='{roots[0]}']")
        for k, joint in enumerate(self.robot.joints):
            self._joint(k, joint, world_link and joint.parent == roots[0], poses)
        self._unsupported()
        return self.b.finish()

    # -- paths and poses ------------------------------------------------------------------------------
    def _check_paths(self) -> None:
        for link in self.robot.links:
            for kind, items in (("visual", link.visuals), ("collision", link.collisions)):
                for i, item in enumerate(items):
                    mesh = item.geometry.mesh if item.geometry is not None else None
                    if mesh is not None:
                        pointer = f"/robot/link[@name='{link.name}']/{kind}[{i}]/geometry/mesh/@filename"
                        self.files[(link.name, mesh.filename)] = self.paths.resolve(mesh.filename, pointer)

    def _poses(self, root: str) -> dict[str, np.ndarray]:
        """Each link's frame in the robot's (Z-up) world with every joint at 0."""
        poses = {root: np.eye(4)}
        by_parent: dict[str, list[Any]] = {}
        for j in self.robot.joints:
            by_parent.setdefault(j.parent, []).append(j)
        todo = [root]
        while todo:
            parent = todo.pop()
            for j in by_parent.get(parent, []):
                if j.child in poses:
                    raise GltfError(f"joint {j.name!r}: link {j.child!r} has two parents", file=str(self.path))
                poses[j.child] = poses[parent] @ _origin(j.origin)
                todo.append(j.child)
        return poses

    # -- links ----------------------------------------------------------------------------------------
    def _place_links(self, links: dict[str, Any], root: str, world_link: bool, poses: dict[str, np.ndarray]) -> None:
        """Links in tree order: a body each, except a link on a fixed joint (a flange, a tool point, a mass
        carrier), which is part of its parent's body — as MuJoCo and PyBullet compile it — with its mass added
        to that body's. A fixed base whose body has no mass (PyBullet's static-base convention) is static."""
        joint_of = {j.child: j for j in self.robot.joints}
        self.joint_child = {j.child for j in self.robot.joints if j.type != "floating"}
        order = [n for n in sorted(poses, key=lambda n: _depth(n, joint_of)) if not (world_link and n == root)]
        members: dict[str, list[str]] = {}
        for name in order:
            joint = joint_of.get(name)
            if joint is not None and joint.type == "fixed" and joint.parent in self.body_link:
                self.body_link[name] = self.body_link[joint.parent]
                self.offset[name] = self.offset[joint.parent] @ _origin(joint.origin)
                self.fused.add(joint.name)
            else:
                self.body_link[name], self.offset[name] = name, np.eye(4)
            members.setdefault(self.body_link[name], []).append(name)
        mass = {owner: combined(link_inertia(links[n], self.offset[n]) for n in group)
                for owner, group in members.items()}
        if not world_link and not self.floating_base and mass[root] is None:
            self.static.add(root)  # a massless fixed base: static, never KHR mass 0 (KRB-11)
        for name in order:
            owner = self.body_link[name]
            if owner != name:
                self.b.note("URDF-9", f"/robot/link[@name='{name}']", f"link on fixed joint "
                            f"{joint_of[name].name!r}: part of {owner!r}'s body (its node is a child of that "
                            "link's; its mass, if any, is in that body's)")
                self._link(links[name], self.node_of[owner], self.offset[name], owner)
                continue
            self._link(links[name], self.b.root, poses[name], owner)
            pointer = f"/robot/link[@name='{name}']"
            if name in self.static:
                self.b.note("URDF-11", pointer, "fixed base without mass (on itself and on the links fixed to "
                            "it): a static body, as PyBullet's static base")
            else:
                self._inertial(mass[name], self.node_of[name], pointer, len(members[name]) > 1)

    def _link(self, link: Any, parent: int, pose: np.ndarray, owner: str) -> None:
        pointer = f"/robot/link[@name='{link.name}']"
        t, q, _ = decompose(pose)
        own = self.node_of[link.name] = self.b.add_node(link.name, parent, t, q)
        body = None if owner in self.static else self.node_of[owner]
        for i, visual in enumerate(link.visuals):
            self._visual(link.name, i, visual, own, f"{pointer}/visual[{i}]")
        material = self._contact_material(link.name, pointer) if link.collisions else None
        for i, collision in enumerate(link.collisions):
            self._collision(link.name, i, collision, own, body, f"{pointer}/collision[{i}]", material)

    def _contact_material(self, link: str, pointer: str) -> int | None:
        """The physics material of a link's PyBullet ``<contact>`` (module docstring), or None without one."""
        if self.contacts is None:
            self.contacts = ({e.get("name"): e.find("contact") for e in self.xml.findall("link")}
                             if self.xml is not None else {})
        found = self.contacts.get(link)
        if found is None:
            return None
        values = {child.tag: child.get("value") for child in found}
        rest = sorted(tag for tag in values if tag not in ("lateral_friction", "restitution"))
        if rest:
            self.b.note("URDF-12", f"{pointer}/contact", f"{', '.join(rest)}: no glTF counterpart (friction and "
                        "restitution are kept)")
        if "lateral_friction" not in values and "restitution" not in values:
            return None
        friction = _number(values.get("lateral_friction"), _BULLET_FRICTION, f"{pointer}/contact/lateral_friction")
        restitution = _number(values.get("restitution"), 0.0, f"{pointer}/contact/restitution")
        return self.b.physics_material(friction, friction, restitution, CombineMode.MULTIPLY)

    def _inertial(self, mass: tuple[float, np.ndarray, np.ndarray] | None, node: int, pointer: str,
                  merged: bool) -> None:
        """The body on ``node`` with the mass of its links (``None``: none of them has any)."""
        if mass is None:
            self.b.note("URDF-5", pointer, "no mass (no <inertial>, or mass 0, on this link and the links fixed "
                        "to it) on a moving body: the runtime computes its mass and inertia from its colliders "
                        "(density 1000 kg/m³; glTF reads mass 0 as infinite)")
            self.b.body(node, mass=None, pointer=pointer)
            return
        m, com, tensor = mass
        diagonal, orientation = principal_axes(tensor)
        inertia: tuple[float, ...] | None = diagonal
        if not all(v > 0 for v in diagonal):  # a 0 moment reads as infinite in glTF (KRB-11)
            self.b.note("URDF-5", f"{pointer}/inertial/inertia", "inertia with a zero (or negative) principal "
                        "moment: the runtime computes the inertia from the colliders, scaled to this mass")
            inertia, orientation = None, (0.0, 0.0, 0.0, 1.0)
        self.b.body(node, mass=m, com=com, inertia=inertia, orientation=orientation,
                    pointer=pointer if merged else f"{pointer}/inertial")

    def _visual(self, link: str, i: int, visual: Any, node: int, pointer: str) -> None:
        geometry = visual.geometry
        rgba = self._rgba(visual.material, pointer)
        name = visual.name or f"{link}_visual{i}"
        origin = _origin(visual.origin)
        if geometry.mesh is not None:
            parts = self._mesh_parts(link, geometry.mesh, pointer)
            if rgba is not None:
                parts = [VisualPart(p.vertices, p.faces, rgba) for p in parts]
            mesh = self.b.add_mesh(name, parts, pointer=pointer)
            holder = self.b.add_node_matrix(name, node, origin, "_visual")
        else:
            kind, size, turn = _primitive(geometry)
            holder = self.b.add_node_matrix(name, node, origin @ turn, "_visual")
            mesh = self.b.add_mesh(name, [primitive_parts(kind, size, rgba or (0.8, 0.8, 0.8, 1.0))], pointer=pointer)
        if mesh is not None:
            self.b.nodes[holder]["mesh"] = mesh

    def _rgba(self, material: Any, pointer: str) -> tuple[float, float, float, float] | None:
        if material is None:
            return None
        if material.texture is not None:
            self.b.note("URDF-7", pointer, "material texture: not carried over (its colour, if any, is)")
        colour = material.color.rgba if material.color is not None else self.colours.get(material.name)
        return None if colour is None else tuple(float(c) for c in colour)  # type: ignore[return-value]

    def _mesh_parts(self, link: str, mesh: Any, pointer: str) -> list[VisualPart]:
        path = self.files[(link, mesh.filename)]
        scale = _scale(mesh.scale, pointer)
        key = (path, scale)
        if key not in self.mesh_cache:
            self.mesh_cache[key] = load_parts(path, None if scale is None else np.asarray(scale), pointer)
        return self.mesh_cache[key]

    def _collision(self, link: str, i: int, collision: Any, node: int, body: int | None, pointer: str,
                   material: int | None = None) -> None:
        geometry = collision.geometry
        name = collision.name or f"{link}_collision{i}"
        origin = _origin(collision.origin)
        if geometry.mesh is not None:
            path = self.files[(link, geometry.mesh.filename)]
            key = (path, _scale(geometry.mesh.scale, pointer))
            if key not in self.hull_of:  # one physics-only mesh per file and scale, shared by its colliders
                vertices, faces = merged(self._mesh_parts(link, geometry.mesh, pointer))
                self.hull_of[key] = self.b.add_mesh(f"{path.stem}_collision", [VisualPart(vertices, faces)],
                                                    with_material=False, pointer=pointer)
            mesh = self.hull_of[key]
            if mesh is None:
                self.b.note("URDF-5", pointer, "collision mesh without triangles: skipped")
                return
            holder = self.b.add_node_matrix(name, node, origin, "_collision")
            self.b.collider(holder, MeshShape(convex=self.convex, mesh=mesh), body, material=material, pointer=pointer)
            return
        kind, size, turn = _primitive(geometry)
        holder = self.b.add_node_matrix(name, node, origin @ turn, "_collision")
        shape = (Box(size=size) if kind == "box" else Sphere(radius=size[0]) if kind == "sphere"  # type: ignore[arg-type]
                 else Cylinder(height=size[1], radius_bottom=size[0], radius_top=size[0]))
        self.b.collider(holder, shape, body, material=material, pointer=pointer)

    # -- joints ---------------------------------------------------------------------------------------
    def _joint(self, k: int, joint: Any, on_world: bool, poses: dict[str, np.ndarray]) -> None:
        pointer = f"/robot/joint[@name='{joint.name}']"
        kind = joint.type
        if kind == "floating" or joint.name in self.fused:
            return  # no constraint (the child link is a free body), or a link inside its parent's body
        if on_world and self.floating_base:
            return  # the robot's own tie to a "world" link is the fixed base the option lets go
        if kind not in (*_MOVING, "fixed"):
            self.b.note("URDF-3", pointer, f"joint type {kind!r}: unknown, not written")
            return
        axis = np.asarray(joint.axis if joint.axis is not None else (1.0, 0.0, 0.0), dtype=float)
        turn = pose_matrix((0, 0, 0), quat_x_to(axis)) if kind != "fixed" else np.eye(4)
        frame_a = (poses[joint.parent] if on_world else self.offset[joint.parent]) @ _origin(joint.origin) @ turn
        parent = None if on_world else self.node_of[self.body_link[joint.parent]]
        limits, drives = self._limits(joint, kind, pointer)
        self.b.joint(joint.name, parent, self.node_of[joint.child], frame_a, turn, limits, drives, pointer=pointer)
        if self.body_link.get(joint.parent) in self.static:  # its node under the static base (no body A), so
            # that the base's colliders are its side's partners (JOINT-9): the first link never touches them
            self.b.scene.joints[-1] = replace(self.b.scene.joints[-1], body_a=None)

    def _limits(self, joint: Any, kind: str, pointer: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        limit = joint.limit
        lo = hi = math.nan
        if limit is not None and kind in ("revolute", "prismatic"):
            lo = -math.inf if limit.lower is None else float(limit.lower)
            hi = math.inf if limit.upper is None else float(limit.upper)
        if kind == "fixed":
            return fixed_limits(), ()
        if kind == "planar":
            limits = planar_limits()
        elif kind == "prismatic":
            limits = slide_limits(lo if not math.isnan(lo) else -math.inf, hi if not math.isnan(hi) else math.inf)
        else:
            limits = hinge_limits(lo if kind == "revolute" and not math.isnan(lo) else -math.inf,
                                  hi if kind == "revolute" and not math.isnan(hi) else math.inf)
        self._joint_notes(joint, pointer)
        effort = float(limit.effort) if limit is not None and limit.effort is not None else math.inf
        damping = float(joint.dynamics.damping or 0.0) if joint.dynamics is not None else 0.0
        if kind == "planar" or (not math.isfinite(effort) and damping <= 0) or effort <= 0:
            if effort <= 0 and kind != "planar":
                self.b.note("URDF-1", pointer, "effort 0: no drive written (URDF tools read it as no limit)")
            return limits, ()
        kind_name = "linear" if kind == "prismatic" else "angular"
        return limits, (drive(kind_name, 0, damping=damping, velocity=0.0, max_force=effort,
                              pointer=f"{pointer}/limit"),)

    def _joint_notes(self, joint: Any, pointer: str) -> None:
        if joint.limit is not None and joint.limit.velocity is not None and joint.limit.velocity > 0:
            self.b.note("URDF-1", f"{pointer}/limit", f"velocity limit {joint.limit.velocity:g}: glTF joints "
                        "have no speed limit")
        if joint.dynamics is not None and joint.dynamics.friction and float(joint.dynamics.friction) > 0:
            self.b.note("URDF-2", f"{pointer}/dynamics", "joint friction: no glTF counterpart")
        if joint.mimic is not None:
            self.b.note("URDF-3", f"{pointer}/mimic", f"mimics {joint.mimic.joint!r}: glTF joints are not "
                        "coupled; this joint moves on its own")
        if joint.safety_controller is not None or joint.calibration is not None:
            self.b.note("URDF-6", pointer, "safety controller / calibration: no glTF counterpart")

    def _unsupported(self) -> None:
        if self.xml is None:
            return
        for t in self.xml.findall("transmission"):
            self.b.note("URDF-4", f"/robot/transmission[@name='{t.get('name')}']", "transmission: no glTF "
                        "counterpart (the joint's drive keeps its effort limit)")
        gazebo = self.xml.findall("gazebo")
        if gazebo:
            self.b.note("URDF-8", "/robot/gazebo", f"{len(gazebo)} gazebo extension{'s' * (len(gazebo) > 1)}: "
                        "not read")


def _scale(value: Any, pointer: str) -> tuple[float, ...] | None:
    """A mesh's ``scale`` as three factors (one number scales all three)."""
    if value is None:
        return None
    flat = np.asarray(value, dtype=float).reshape(-1)
    if flat.size not in (1, 3) or not np.isfinite(flat).all():
        raise GltfError(f"mesh scale {' '.join(f'{v:g}' for v in flat)}: expected one or three finite numbers",
                        pointer=f"{pointer}/geometry/mesh/@scale")
    return tuple(float(v) for v in np.broadcast_to(flat, (3,)))


def _number(text: str | None, default: float, pointer: str) -> float:
    """A ``value`` attribute as a finite number ≥ 0 (``default`` when absent)."""
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise GltfError(f"value {text!r}: expected a finite number >= 0", pointer=f"{pointer}/@value")
    return value


def _depth(link: str, joint_of: dict[str, Any]) -> int:
    depth = 0
    while link in joint_of:
        link, depth = joint_of[link].parent, depth + 1
    return depth


def _is_world(link: Any) -> bool:
    """A link that stands for the world: named ``world`` and carrying nothing."""
    return link.name == "world" and link.inertial is None and not link.visuals and not link.collisions


def _origin(origin: Any) -> np.ndarray:
    return np.eye(4) if origin is None else np.asarray(origin, dtype=float)


def _primitive(geometry: Any) -> tuple[str, tuple[float, ...], np.ndarray]:
    """(kind, glTF sizes, the turn from the URDF shape frame to the glTF shape frame)."""
    if geometry.box is not None:
        return "box", tuple(float(s) for s in geometry.box.size), np.eye(4)
    if geometry.sphere is not None:
        return "sphere", (float(geometry.sphere.radius),), np.eye(4)
    if geometry.cylinder is not None:  # URDF cylinders run along Z
        return "cylinder", (float(geometry.cylinder.radius), float(geometry.cylinder.length)), \
            pose_matrix((0, 0, 0), Y_TO_Z)
    raise GltfError("a geometry without box, sphere, cylinder or mesh")
