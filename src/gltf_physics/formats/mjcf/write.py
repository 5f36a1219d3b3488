"""The physics model as MuJoCo MJCF.

    result = to_mjcf(read_scene(load("scene.gltf")))
    Path("scene.xml").write_text(result.xml); result.losses  # [{"code", "pointer", "message"}]

Pure XML: writing needs no ``mujoco``; the file compiles with ``mujoco.MjModel.from_xml_string`` and the
``sim/mujoco`` engine runs it. Mapping (the README table lists exact / approximate / not at all):

- **Frame**: MJCF is Z-up, glTF Y-up: the world is turned +90° about X (glTF (x, y, z) → MJCF (x, −z, y));
  gravity turns with it. Body-local frames are the glTF body frames (node world pose without scale).
- **Bodies**: dynamic → ``<body>`` + ``<freejoint/>`` (or nested with joints, ``mjcf_joints``), explicit
  ``<inertial>`` from ``geometry.mass`` (same numbers as the Rapier runtime), ``gravcomp = 1 − gravityFactor``;
  kinematic and animated → ``mocap`` bodies; static motion → a jointless body; colliders without a body →
  ``worldbody`` geoms. Initial velocities → the ``initial`` keyframe's ``qvel``.
- **Geoms**: box (half-sizes), sphere, capsule and cylinder (axis turned from +Y to +Z), infinite one-sided
  plane → ``plane``; finite or double-sided planes and planes on moving bodies → thin boxes (as on Rapier);
  tapered capsules/cylinders, non-uniformly scaled round shapes and convex meshes → ``<mesh>`` assets
  (MuJoCo collides the convex hull: exact for convex shapes); a static triangle mesh becomes one thin
  prism per triangle (its surface exact; moving or very large triangle meshes: their hull, approximate).
- **Materials**: ``friction`` = dynamic friction; MuJoCo combines by maximum, has no restitution.
- **Filters**: one bit per filter class: ``contype`` = own bit, ``conaffinity`` = bits of the classes it
  collides with — exact for the symmetric rule (docs/semantics.md, D-7) up to 32 classes; beyond, ``<exclude>``
  per body pair that can never touch. Jointed pairs without ``enableCollision`` → ``<exclude>`` (a side
  without a body: its JOINT-9 partner colliders, on their own static body); nested pairs with it → ``<pair>``.
- **Triggers**: non-colliding geoms (``contype = conaffinity = 0``, group 3) named ``trigger…``; the
  engine reports their overlaps.
- **Joints**: hard limits → ``range``; soft locks (min = max) → joint ``stiffness``/``springref``/``damping``;
  soft ranges → negative ``solreflimit``; drives → ``position``/``velocity``/``motor`` actuators, targets in
  the ``initial`` keyframe's ``ctrl``; loops → ``connect``/``weld`` equalities.

Loss codes: ``MJCF-1`` shape approximated, ``MJCF-2`` material, ``MJCF-3`` filters, ``MJCF-4`` joint,
``MJCF-5`` drive, ``MJCF-6`` motion/mass, ``MJCF-7`` trigger, ``MJCF-8`` not representable (gravity volumes,
vehicles, seats, animation).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...geometry.frames import body_frame
from ...geometry.integrals import combine_parts, placed_mass
from ...geometry.mass import MassProperties, apply_overrides
from ...geometry.placement import (
    MeshSource,
    PlacedShape,
    body_placements,
    colliders_by_body,
    document_mesh_source,
    place_shape,
)
from ...gltf.transforms import decompose, quat_to_matrix, world_matrices
from ...model import Body, Joint, JointDrive, MotionType, PhysicsMaterial, PhysicsScene
from . import joints as mj
from .geoms import MAX_PRISMS, GeomWriter
from .write_contacts import ContactFilters

STEPS_PER_RATE = 4  # MuJoCo steps per 1/rate s: h = 1/(4·rate), as Rapier's 4 internal solver substeps
Y_UP_TO_Z_UP = np.array([[1.0, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])
WORLD_FRAME = Y_UP_TO_Z_UP.T  # the MJCF world frame in glTF coordinates
TRIGGER_GROUP = 3


@dataclass
class MjcfIndex:
    """What the engine needs to find the model's objects in the compiled MJCF (by name)."""

    body: dict[int, str] = field(default_factory=dict)  # every written body node → body name
    moving_nodes: list[int] = field(default_factory=list)  # dynamic + kinematic (+ animated) body nodes
    mocap: dict[int, str] = field(default_factory=dict)  # node followed by a mocap body → its body name
    kinematic_velocity: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)  # KHR isKinematic
    solids: list[tuple[str, int, int | None]] = field(default_factory=list)  # (geom, reported node, filter)
    triggers: list[tuple[str, int, int | None]] = field(default_factory=list)  # (geom, trigger node, filter)
    collider_of: dict[str, int] = field(default_factory=dict)  # solid geom → index into scene.colliders
    drives: dict[tuple[int, int], str] = field(default_factory=dict)  # (joint k, drive i) → actuator name
    mass: dict[int, MassProperties] = field(default_factory=dict)
    filter_keys: list[int | None] = field(default_factory=list)


@dataclass
class MjcfResult:
    """The MJCF text, the loss list ({code, pointer, message}) and the index the engine resolves names with."""

    xml: str
    losses: list[dict[str, str]]
    index: MjcfIndex


def to_mjcf(scene: PhysicsScene, *, rate: float = 60.0, substeps: int = 1,
            gravity: tuple[float, float, float] | None = None, density: float = 1000.0,
            mesh_source: MeshSource | None = None, animated: set[int] | None = None,
            model_name: str = "gltf-physics") -> MjcfResult:
    """MJCF text of ``scene``, the loss list ({code, pointer, message}) and the name index.

    ``animated``: nodes whose file animation moves them (their bodies, and static colliders below them,
    become mocap bodies); ``None`` = found from the document's animations.
    """
    return _Writer(scene, rate, substeps, gravity, density, mesh_source, animated, model_name).write()


class _Writer(ContactFilters):
    def __init__(self, scene: PhysicsScene, rate: float, substeps: int, gravity: Any, density: float,
                 mesh_source: MeshSource | None, animated: set[int] | None, model_name: str) -> None:
        self.scene = scene
        self.doc_json = scene.document.json if scene.document is not None else {}
        self.world = world_matrices(self.doc_json)
        self.rate, self.substeps, self.density = float(rate), int(substeps), density
        self.gravity = gravity
        self.mesh_source = mesh_source if mesh_source is not None or scene.document is None \
            else document_mesh_source(scene.document)
        self.animated = _animated_nodes(scene, animated)
        self.losses: list[dict[str, str]] = []
        self.index = MjcfIndex()
        self.root = ET.Element("mujoco", model=model_name)
        self.asset = ET.Element("asset")
        self.contact = ET.Element("contact")
        self.equality = ET.Element("equality")
        self.actuator = ET.Element("actuator")
        self.geoms = GeomWriter(self.asset, self.loss)
        self.frames: dict[int | None, np.ndarray] = {None: np.eye(4)}
        self.elements: dict[int | None, ET.Element] = {}
        self.qvel: list[float] = []  # the initial keyframe, in MuJoCo's dof order (depth-first body order)
        self.ctrl: list[float] = []  # one per actuator, in writing order
        # (joint k, axis kind, axis) → (MJCF joint name, spec): where the actuators find their joints
        self.joint_names: dict[tuple[int, str, int], tuple[str, mj.JointSpec]] = {}
        self.pending_excludes = False  # > 32 filter classes: excludes written once the geoms are known
        self.collide_pairs: list[tuple[int, int]] = []  # (parent, child) nested with enableCollision

    def loss(self, code: str, pointer: str, message: str) -> None:
        """Record what the MJCF cannot say exactly (the conversion loss report)."""
        self.losses.append({"code": code, "pointer": pointer, "message": message})

    # -- the document --------------------------------------------------------------------------------
    def write(self) -> MjcfResult:
        """The whole document: options, bodies and geoms, triggers, equalities, actuators, keyframe."""
        self._header()
        worldbody = ET.SubElement(self.root, "worldbody")
        self.elements[None] = worldbody
        self._classify()
        for group in sorted(set(self.partner_of.values())):  # JOINT-9: static colliders a joint excludes
            ET.SubElement(worldbody, "body", name=f"static_{group}")
        self._filters()
        self._bodies(worldbody)
        self._static_geoms(worldbody)
        self._triggers()
        self._equalities()
        self._collide_pairs()
        self._actuators()
        self._not_representable()
        for extra in (self.contact, self.equality, self.actuator):
            if len(extra):
                self.root.append(extra)
        if len(self.asset):
            self.root.insert(2, self.asset)
        key = ET.Element("key", name="initial")
        if any(self.qvel):
            key.set("qvel", _nums(self.qvel))
        if self.ctrl:
            key.set("ctrl", _nums(self.ctrl))
        if len(key.attrib) > 1:
            ET.SubElement(self.root, "keyframe").append(key)
        ET.indent(self.root)
        return MjcfResult(ET.tostring(self.root, encoding="unicode") + "\n", self.losses, self.index)

    def _header(self) -> None:
        h = 1.0 / (self.rate * self.substeps * STEPS_PER_RATE)
        ET.SubElement(self.root, "compiler", angle="radian", inertiafromgeom="false", autolimits="true")
        g = self.gravity if self.gravity is not None else (
            self.scene.world_gravity.vector if self.scene.world_gravity is not None else (0.0, -9.81, 0.0))
        gz = Y_UP_TO_Z_UP[:3, :3] @ np.asarray(g, dtype=float)
        # implicitfast: drive damping (kv) integrated implicitly; elliptic cones + impratio 10: friction as
        # stiff as the normal force, so a block held by friction does not creep (MuJoCo's own advice).
        ET.SubElement(self.root, "option", timestep=_num(h), gravity=_nums(gz), integrator="implicitfast",
                      cone="elliptic", impratio="10")
        default = ET.SubElement(self.root, "default")
        ET.SubElement(default, "geom", solref=f"{_num(max(0.02, 2 * h))} 1")
        ET.SubElement(default, "joint", solreflimit=f"{_num(2 * h)} 1", solimplimit="0.95 0.99 0.001")

    # -- bodies ----------------------------------------------------------------------------------------
    def _classify(self) -> None:
        self.dynamic: set[int] = set()
        self.anchors: set[int] = set()
        for b in self.scene.bodies:
            self.frames[b.node] = body_frame(self.world[b.node])
            if b.node in self.animated or b.motion.type is not MotionType.DYNAMIC:
                self.anchors.add(b.node)
            else:
                self.dynamic.add(b.node)
        self.tree = mj.build_tree(self.scene.joints, self.dynamic, self.anchors)
        self.side_group, self.partner_of = mj.partner_groups(self.scene, self.dynamic | self.anchors, self.animated)

    def _bodies(self, worldbody: ET.Element) -> None:
        by_body = colliders_by_body(self.scene)
        self.placed = {b.node: body_placements(self.scene, b.node, self.world, self.mesh_source,
                                               by_body.get(b.node, []), self.frames[b.node])
                       for b in self.scene.bodies}
        bodies = {b.node: b for b in self.scene.bodies}
        tops = sorted([n for n in bodies if n not in self.tree.parent] + self.tree.children(None))
        for node in tops:
            self._body(worldbody, None, bodies[node], bodies)
        self.index.moving_nodes = sorted(n for n, b in bodies.items()
                                         if b.motion.type is not MotionType.STATIC or n in self.animated)

    def _body(self, parent_el: ET.Element, parent: int | None, body: Body, bodies: dict[int, Body]) -> None:
        node = body.node
        name = self._name(node, "body")
        parent_frame = WORLD_FRAME if parent is None else self.frames[parent]
        t, q = _pose(np.linalg.inv(parent_frame) @ self.frames[node])
        el = ET.SubElement(parent_el, "body", name=name, pos=_nums(t), quat=_nums(_wxyz(q)))
        self.elements[node] = el
        self.index.body[node] = name
        m = body.motion
        if node in self.anchors:
            self._anchor(el, body, name)
        else:
            self._dynamic(el, body, parent)
        for k, placed in self.placed[node]:
            col = self.scene.colliders[k]
            for g in self._geom(el, placed, f"collider{k}", col.pointer or body.pointer, col.material, col.filter,
                                moving=m.type is not MotionType.STATIC or node in self.animated):
                self.index.solids.append((g, node, col.filter))
                self.index.collider_of[g] = k
        for child in self.tree.children(node):
            self._body(el, node, bodies[child], bodies)

    def _anchor(self, el: ET.Element, body: Body, name: str) -> None:
        m = body.motion
        if body.node in self.animated or m.type is MotionType.KINEMATIC:
            el.set("mocap", "true")
            self.index.mocap[body.node] = name
            if body.node in self.animated:
                self.loss("MJCF-8", body.pointer, "animated body written as a mocap body at its t = 0 pose "
                          "(the animation is not exported; the gltf-physics MuJoCo engine follows it)")
            elif any(m.linear_velocity) or any(m.angular_velocity):
                rot = self.frames[body.node][:3, :3]
                self.index.kinematic_velocity[body.node] = (rot @ np.asarray(m.linear_velocity),
                                                            rot @ np.asarray(m.angular_velocity))
                self.loss("MJCF-6", body.pointer, "kinematic velocity: a mocap body has none in MJCF "
                          "(the gltf-physics MuJoCo engine moves it)")

    def _dynamic(self, el: ET.Element, body: Body, parent: int | None) -> None:
        mp = self._mass(body)
        self.index.mass[body.node] = mp
        m = body.motion
        if m.gravity_factor != 1.0:
            el.set("gravcomp", _num(1.0 - m.gravity_factor))
        if body.node in self.tree.parent:
            self._tree_joints(el, body)
            if any(m.linear_velocity) or any(m.angular_velocity):
                self.loss("MJCF-6", body.pointer, "initial velocity of a jointed (nested) body dropped")
        elif math.isinf(mp.mass):  # infinite mass never translates (Rapier locks it): at most a ball joint
            if not all(math.isinf(v) for v in mp.inertia_diagonal):
                ET.SubElement(el, "joint", name=f"{el.get('name')}_ball", type="ball", pos=_nums(mp.center_of_mass))
                self.qvel.extend(float(v) for v in m.angular_velocity)
        else:
            ET.SubElement(el, "freejoint", name=f"{el.get('name')}_free")
            self.qvel.extend(self._free_velocity(body, mp))
        mass, diag = mp.mass, list(mp.inertia_diagonal)
        if math.isinf(mass) or any(math.isinf(v) for v in diag):
            self.loss("MJCF-6", body.pointer, "infinite mass or inertia written as a 10⁶ times larger value "
                      "(an infinite mass gets no translational joint)")
            finite = [v for v in diag if math.isfinite(v) and v > 0] or [1.0]
            diag = [v if math.isfinite(v) else 1e6 * max(finite) for v in diag]
            mass = mass if math.isfinite(mass) else 1e6
        diag = [max(v, 1e-12) for v in diag]
        ET.SubElement(el, "inertial", pos=_nums(mp.center_of_mass), quat=_nums(_wxyz(mp.inertia_orientation)),
                      mass=_num(mass), diaginertia=_nums(diag))

    def _mass(self, body: Body) -> MassProperties:
        parts = [placed_mass(p) for _, p in self.placed[body.node]]
        v, com, inertia = combine_parts(parts)
        return apply_overrides(body, (v * self.density, com, inertia * self.density), self.world[body.node])

    def _free_velocity(self, body: Body, mp: MassProperties) -> list[float]:
        """Free joint qvel: linear velocity of the body origin (world, MJCF axes), angular in the body frame."""
        m = body.motion
        rot = self.frames[body.node][:3, :3]
        v_com = rot @ np.asarray(m.linear_velocity, dtype=float)  # node space (D-9)
        w_world = rot @ np.asarray(m.angular_velocity, dtype=float)
        v_origin = v_com - np.cross(w_world, rot @ np.asarray(mp.center_of_mass))
        return [*(Y_UP_TO_Z_UP[:3, :3] @ v_origin), *np.asarray(m.angular_velocity, dtype=float)]

    # -- joints ----------------------------------------------------------------------------------------
    def _tree_joints(self, el: ET.Element, body: Body) -> None:
        parent, k = self.tree.parent[body.node]
        joint = self.scene.joints[k]
        a, b = mj.joint_sides(joint, self.dynamic | self.anchors)
        plan = mj.dof_plan(joint)
        specs, notes = mj.joint_specs(joint, plan, self.frames, a, b, child_is_b=(b == body.node))
        for note in plan.notes + notes:
            self.loss("MJCF-4", joint.pointer, note)
        for s in specs:
            name = f"joint{k}_{s.kind}{s.axis_index if s.axis_index >= 0 else ''}"
            attrs = {"name": name, "type": s.kind, "pos": _nums(s.pos)}
            if s.kind != "ball":
                attrs["axis"] = _nums(s.axis)
                if s.ref:
                    attrs["ref"] = _num(s.ref)
            lo, hi = s.lo, s.hi
            if lo == hi and math.isfinite(s.stiffness):  # a soft lock is a spring: MuJoCo's joint spring, exact
                attrs.update(stiffness=_num(s.stiffness), springref=_num(lo))
                if s.damping:
                    attrs["damping"] = _num(s.damping)
            elif s.kind == "ball" and math.isfinite(hi):
                attrs["range"] = f"0 {_num(hi)}"
            elif math.isfinite(lo) or math.isfinite(hi):
                lo, hi = (lo if math.isfinite(lo) else -1e10), (hi if math.isfinite(hi) else 1e10)
                if hi - lo < 1e-9:  # a soft lock: MuJoCo wants lo < hi
                    lo, hi = lo - 1e-9, hi + 1e-9
                attrs["range"] = f"{_num(lo)} {_num(hi)}"
                if math.isfinite(s.stiffness):
                    self._soft_limit(attrs, s, body, joint)
            ET.SubElement(el, "joint", attrs)
            self.qvel.extend([0.0] * (3 if s.kind == "ball" else 1))
            self.joint_names[(k, s.kind if s.kind == "ball" else ("linear" if s.kind == "slide" else "angular"),
                              s.axis_index)] = (name, s)
        if not joint.enable_collision:
            self._exclude_joint(joint)
        elif parent is not None:
            self.collide_pairs.append((parent, body.node))

    def _soft_limit(self, attrs: dict[str, str], s: mj.JointSpec, body: Body, joint: Joint) -> None:
        # MuJoCo's direct solref (−stiffness, −damping) is an acceleration per unit violation: divide the
        # glTF spring (N/m, N·m/rad) by the child's mass or axis inertia (approximate).
        eff = self._effective_inertia(body.node, s)
        attrs["solreflimit"] = f"{_num(-s.stiffness / eff)} {_num(-s.damping / eff)}"
        self.loss("MJCF-4", joint.pointer, "soft limit spring scaled by the child's mass/inertia (approximate)")

    def _effective_inertia(self, node: int, s: mj.JointSpec) -> float:
        mp = self.index.mass.get(node)
        if mp is None:
            return 1.0
        if s.kind == "slide":
            return mp.mass if math.isfinite(mp.mass) else 1.0
        r = quat_to_matrix(mp.inertia_orientation)
        tensor = r @ np.diag([v if math.isfinite(v) else 0.0 for v in mp.inertia_diagonal]) @ r.T
        a = np.asarray(s.axis)
        d = np.asarray(mp.center_of_mass) - np.asarray(s.pos)
        d_perp = d - (d @ a) * a
        return max(float(a @ tensor @ a + mp.mass * (d_perp @ d_perp)), 1e-12)

    def _exclude_joint(self, joint: Joint) -> None:
        """Connected sides do not collide: each side's body, or for a side without one its JOINT-9 partner
        group of static colliders (their own static body), as on Rapier."""
        names = []
        for body, node in ((joint.body_a, joint.node), (joint.body_b, joint.connected_node)):
            if body is not None and body in self.index.body:
                names.append(self.index.body[body])
                continue
            group = self.side_group.get(body if body is not None else node)  # type: ignore[arg-type]
            names.append(f"static_{group}" if group is not None else None)
        if names[0] is not None and names[1] is not None and names[0] != names[1]:
            ET.SubElement(self.contact, "exclude", body1=names[0], body2=names[1])

    def _equalities(self) -> None:
        bodies = self.dynamic | self.anchors
        for k, reason in self.tree.skipped:
            self.loss("MJCF-4", self.scene.joints[k].pointer, f"joint not written: {reason}")
        for k in self.tree.loops:
            j = self.scene.joints[k]
            a, b = mj.joint_sides(j, bodies)
            plan = mj.dof_plan(j)
            lin_locked = all(x.state == "locked" for x in plan.linear)
            open_ang = [i for i, x in enumerate(plan.angular) if x.state != "locked"]
            first, second = (a, b) if a is not None else (b, a)
            pose = j.frame_a if first == a else j.frame_b
            n1 = self.index.body[first]  # type: ignore[index]
            n2 = self.index.body.get(second, "world") if second is not None else "world"
            if lin_locked and not open_ang:
                ET.SubElement(self.equality, "weld", name=f"joint{k}", body1=n1, body2=n2)
            elif lin_locked and len(open_ang) == 3:
                ET.SubElement(self.equality, "connect", name=f"joint{k}", body1=n1, body2=n2,
                              anchor=_nums(pose.translation))
            elif lin_locked and len(open_ang) == 1:
                axis = quat_to_matrix(pose.rotation)[:, open_ang[0]] * 0.5
                for s, sign in (("a", 1.0), ("b", -1.0)):
                    ET.SubElement(self.equality, "connect", name=f"joint{k}{s}", body1=n1, body2=n2,
                                  anchor=_nums(np.asarray(pose.translation) + sign * axis))
            else:
                self.loss("MJCF-4", j.pointer, "joint closes a loop and is no weld, ball or hinge: not written")
                continue
            if j.limits and (plan.ball_range is not None or any(x.state == "range" for x in plan.angular)):
                self.loss("MJCF-4", j.pointer, "joint closes a loop: written as an equality, its limits dropped")
            if j.drives:
                self.loss("MJCF-5", j.pointer, "joint closes a loop: its drives are not written")
            if not j.enable_collision:
                self._exclude_joint(j)

    def _actuators(self) -> None:
        names = self.joint_names
        for k, j in enumerate(self.scene.joints):
            for i, d in enumerate(j.drives):
                if k in self.tree.loops:
                    continue
                entry = names.get((k, d.type.value, d.axis))
                if entry is None:
                    why = "a ball joint" if (k, "ball", -1) in names else "a fixed or unwritten axis"
                    self.loss("MJCF-5", d.pointer or j.pointer, f"drive on {why}: no actuator written")
                    continue
                self._actuator(k, i, j, d, *entry)

    def _actuator(self, k: int, i: int, j: Joint, d: JointDrive, joint_name: str, spec: mj.JointSpec) -> None:
        scale = 1.0
        if d.mode.value == "acceleration":
            child = next((n for n, el in self.elements.items() if n is not None
                          and el.find(f"joint[@name='{joint_name}']") is not None), None)
            scale = self._effective_inertia(child, spec) if child is not None else 1.0
            self.loss("MJCF-5", d.pointer or j.pointer, "acceleration drive scaled by the child's mass/inertia "
                      "about the axis at t = 0 (approximate)")
        kp, kv = d.stiffness * scale, d.damping * scale
        name = f"drive{k}_{i}"
        if d.position_target is not None and kp > 0:
            el = ET.SubElement(self.actuator, "position", name=name, joint=joint_name, kp=_num(kp))
            if kv > 0:
                el.set("kv", _num(kv))
            ctrl = d.position_target + (kv * (d.velocity_target or 0.0)) / kp
        elif kv > 0:
            el = ET.SubElement(self.actuator, "velocity", name=name, joint=joint_name, kv=_num(kv))
            ctrl = d.velocity_target or 0.0
        else:
            el = ET.SubElement(self.actuator, "motor", name=name, joint=joint_name)
            ctrl = 0.0
            self.loss("MJCF-5", d.pointer or j.pointer, "drive with no stiffness or damping: an idle motor")
        if math.isfinite(d.max_force):
            f = d.max_force * scale
            el.set("forcerange", f"{_num(-f)} {_num(f)}")
        self.ctrl.append(float(ctrl))
        self.index.drives[(k, i)] = name

    # -- geoms -----------------------------------------------------------------------------------------
    def _static_geoms(self, worldbody: ET.Element) -> None:
        for k, col in enumerate(self.scene.colliders):
            if col.body is not None and col.body in self.index.body:
                continue
            parent_el, rel, owner = self._static_parent(worldbody, col.node)
            placed = place_shape(col.shape, rel, self.mesh_source)
            if placed is None:
                continue
            for g in self._geom(parent_el, placed, f"collider{k}", col.pointer, col.material, col.filter,
                                moving=owner is not None):
                self.index.solids.append((g, col.node, col.filter))
                self.index.collider_of[g] = k

    def _static_parent(self, worldbody: ET.Element, node: int) -> tuple[ET.Element, np.ndarray, int | None]:
        """worldbody (MJCF world frame) or, under an animated node, a mocap body following that node."""
        if node not in self.animated:
            group = self.partner_of.get(node)
            el = worldbody if group is None else worldbody.find(f"body[@name='static_{group}']")
            return el, Y_UP_TO_Z_UP @ self.world[node], None  # type: ignore[return-value]
        name = f"follow_{node}"
        el = worldbody.find(f"body[@name='{name}']")
        frame = body_frame(self.world[node])
        if el is None:
            t, q = _pose(Y_UP_TO_Z_UP @ frame)
            el = ET.SubElement(worldbody, "body", name=name, pos=_nums(t), quat=_nums(_wxyz(q)), mocap="true")
            self.index.mocap[node] = name
            self.loss("MJCF-8", f"/nodes/{node}", "animated static collider written as a mocap body at its "
                      "t = 0 pose (the animation is not exported)")
        return el, np.linalg.inv(frame) @ self.world[node], node

    def _geom(self, parent: ET.Element, p: PlacedShape, name: str, pointer: str, material: int | None,
              filt: int | None, moving: bool, trigger: bool = False) -> list[str]:
        """Write the geom(s) of one placed shape; returns their names (none for an unwritable shape)."""
        if p.kind == "trimesh" and not moving and not trigger and len(p.triangles) <= MAX_PRISMS:
            shapes = self.geoms.prisms(p)
        else:
            attrs = self.geoms.shape_attrs(p, pointer, moving)
            shapes = [] if attrs is None else [attrs]
        names = []
        for i, attrs in enumerate(shapes):
            attrs["name"] = name if len(shapes) == 1 else f"{name}_t{i}"
            if trigger:
                attrs.update(contype="0", conaffinity="0", group=str(TRIGGER_GROUP), rgba="0.2 0.8 0.2 0.3")
            else:
                mat = _material(self.scene.materials, material)
                attrs["friction"] = f"{_num(mat.dynamic_friction)} 0.005 0.0001"
                bits = self.bits.get(filt)
                if bits is not None and bits != (1, 1):
                    attrs["contype"], attrs["conaffinity"] = str(bits[0]), str(bits[1])
            ET.SubElement(parent, "geom", attrs)
            names.append(attrs["name"])
        return names

    def _triggers(self) -> None:
        owner: dict[int, tuple[int, int | None]] = {}
        for trig in self.scene.triggers:
            for member in trig.nodes or ():
                owner.setdefault(member, (trig.node, trig.filter))
        worldbody = self.elements[None]
        for k, trig in enumerate(self.scene.triggers):
            if trig.shape is None:
                continue
            if trig.body is not None and trig.body in self.elements:
                parent_el = self.elements[trig.body]
                rel = np.linalg.inv(self.frames[trig.body]) @ self.world[trig.node]
            else:
                parent_el, rel, _ = self._static_parent(worldbody, trig.node)
            placed = place_shape(trig.shape, rel, self.mesh_source)
            if placed is None:
                continue
            node, compound_filter = owner.get(trig.node, (trig.node, None))
            key = trig.filter if trig.filter is not None else compound_filter
            for g in self._geom(parent_el, placed, f"trigger{k}", trig.pointer, None, key, moving=True,
                                trigger=True):
                self.index.triggers.append((g, node, key))
        if self.index.triggers:
            self.loss("MJCF-7", self.scene.triggers[0].pointer, "triggers have no MJCF counterpart: written as "
                      "non-colliding geoms in group 3 (the gltf-physics MuJoCo engine reports their overlaps)")
        if self.pending_excludes:
            self._filter_excludes()

    def _not_representable(self) -> None:
        sc = self.scene
        for what, items in (("gravity volume", sc.gravity_fields), ("vehicle", sc.vehicles),
                            ("wheel", sc.wheels), ("thruster", sc.thrusters),
                            ("hover thruster", sc.hover_thrusters), ("seat", sc.seats)):
            for item in items:
                self.loss("MJCF-8", getattr(item, "pointer", ""), f"{what}: no MJCF counterpart; not written")
        materials = {c.material for c in sc.colliders}
        mats = [_material(sc.materials, k) for k in materials]
        for k in sorted(m for m in materials if m is not None):
            m = _material(sc.materials, k)
            if m.restitution > 0:
                self.loss("MJCF-2", m.pointer, "restitution: MuJoCo contacts do not bounce by a coefficient")
            if m.static_friction != m.dynamic_friction:
                self.loss("MJCF-2", m.pointer, "static friction: MuJoCo has one coefficient (dynamic written)")
        if len({m.dynamic_friction for m in mats}) > 1 and any(
                m.friction_combine not in (None, "maximum") for m in mats):
            self.loss("MJCF-2", "/", "friction combine: MuJoCo takes the larger coefficient of a pair")

    def _name(self, node: int, fallback: str) -> str:
        nodes = self.doc_json.get("nodes") or []
        raw = nodes[node].get("name") if 0 <= node < len(nodes) and isinstance(nodes[node], dict) else None
        base = "".join(c if c.isalnum() or c in "_-" else "_" for c in raw) if isinstance(raw, str) else ""
        return f"{base or fallback}_{node}"


def _animated_nodes(scene: PhysicsScene, animated: set[int] | None) -> set[int]:
    """Body nodes and body-less collider/trigger nodes that a file animation moves."""
    if animated is not None:
        return set(animated)
    from ...sim.animation import AnimationSchedule  # engine-free: samples glTF animations

    schedule = AnimationSchedule.for_scene(scene)
    if schedule is None:
        return set()
    motion = frozenset(b.node for b in scene.bodies)
    out = {b.node for b in scene.bodies if schedule.animated_within(b.node, motion)}
    out |= {c.node for c in scene.colliders if c.body is None and schedule.animated_within(c.node)}
    out |= {t.node for t in scene.triggers if t.body is None and schedule.animated_within(t.node)}
    return out


def _material(materials: list[PhysicsMaterial], key: int | None) -> PhysicsMaterial:
    if key is not None and 0 <= key < len(materials):
        return materials[key]
    return PhysicsMaterial()


def _pose(m: np.ndarray) -> tuple[tuple[float, ...], tuple[float, float, float, float]]:
    t, q, _ = decompose(m)
    return t, q


def _wxyz(q: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return q[3], q[0], q[1], q[2]


def _num(v: float) -> str:
    return f"{float(v):.12g}"


def _nums(values: Any) -> str:
    return " ".join(_num(v) for v in values)


__all__ = ["STEPS_PER_RATE", "Y_UP_TO_Z_UP", "MjcfIndex", "MjcfResult", "to_mjcf"]
