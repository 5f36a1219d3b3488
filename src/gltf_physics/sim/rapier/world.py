"""RapierWorld: a PhysicsScene built into one Rapier ``PhysicsWorld`` (docs/semantics.md, docs/semantics.md).

Bodies: one Rapier body per motion node, at the node's world pose without scale: dynamic; KHR ``isKinematic``
→ velocity-based kinematic keeping its initial velocities; OMI ``kinematic`` → position-based kinematic (it
moves only when something sets its pose); ``static`` motion → fixed. Colliders without a motion ancestor are
parentless (static) colliders, except a bodiless joint side's static partner (JOINT-9): the static colliders
under the nearest ancestor-or-self of the side's node that has any hang on one fixed body per group, which the
joint driver uses as that side (``joint_anchor``, ``partners.py``), so enableCollision false keeps the pair apart.

File animation (``sim/animation.py``, docs/semantics.md): a body whose node is animated (itself or
an ancestor below its nearest motion ancestor) becomes a position-based kinematic body, whatever its motion
type; static colliders and triggers under an animated node hang on their own position-based kinematic body
(one per node, not a body node: not traced). Before every engine step each follower's next kinematic pose is
set to its sampled world pose (scale removed) at that step's end time, so Rapier derives its velocities and
contacts carry dynamic bodies. The build uses the animation's t = 0 pose for every node. Shapes keep their
build scale, and a collider animated relative to its own body stays where it was at t = 0.

Initial velocities are in node space (D-9), rotated into world. Mass properties come from ``geometry.mass``
and are set explicitly (colliders have density 0, so Rapier adds nothing); an infinite mass or principal
inertia is passed as 0, which Rapier treats as infinite (inverse 0) in the principal frame, rotated frames
included; translations (infinite mass) or all rotations (all three infinite) are also locked outright. They
are folded into each body when it is built or re-weighed, not at Rapier's next step, since the vehicles and
springs read them before that step.

Triggers: sensors reporting enter/exit per (trigger node, other node) through ``sim.triggers``; a member of a
compound (``nodes``) trigger reports as the compound node. Sensors see every body type (a static trigger sees
kinematic bodies and static colliders too). Trigger–trigger overlaps are not reported (unspecified,
docs/semantics.md).
An overlap found by a step is stamped with the time of the poses it was found at (the start of that step,
Rapier detects before it integrates): the first recorded time at which the shapes overlap.

The joint driver (``sim/rapier/joints/``) sees this object through a fixed interface: ``bodies``
(RigidBodySet), ``colliders``, ``impulse_joints`` (ImpulseJointSet), ``multibody_joints``, ``handle_of``
(motion node → RigidBodyHandle, every motion type), ``ground`` (a fixed body at the world origin, identity
rotation) and ``world_pose(node) -> (t, q)`` (initial world pose of any node, scale removed). The sets are
properties: after :meth:`restore` they return the restored world's sets, so never cache them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import rapier3d as rp

from ...dialects.common.pointers import body_family
from ...geometry.frames import body_frame, rigid_inverses
from ...geometry.integrals import combine_parts, placed_mass
from ...geometry.mass import MassProperties, apply_overrides
from ...geometry.placement import (
    MeshSource,
    PlacedShape,
    bulk_placements,
    colliders_by_body,
    document_mesh_source,
    place_shape,
)
from ...gltf.transforms import decompose, matrix_to_quat
from ...model import Body, MotionType, PhysicsScene
from ..animation import AnimationSchedule
from ..errors import SimulationError, finite_vec3, motion_number
from ..frames import carried_matrix, world_matrices
from ..queries import BodyQueries, ColliderTriggerLog
from ..triggers import TriggerTracker
from . import link_contacts, queries
from .armature import steady_tiny_links
from .bodies import body_frames, locked_axes, rapier_mass, solver_iterations
from .contacts import ContactHooks, FilterClasses, hook_cover, hooked_pairs, native_classes
from .controllers import build_controllers, controller_of, set_controlled
from .gravity import GravityVolumes
from .joints import build_joints
from .partners import joint_partners, partner_parent
from .poses import pose_bytes_ok, read_objects
from .pushes import Pushes
from .shapes import collider_builder

EARTH_GRAVITY = (0.0, -9.81, 0.0)
_ALL_TYPES = rp.ActiveCollisionTypes.all()


class RapierWorld(BodyQueries):
    """The engine interface ``World`` runs on (``sim.engine.Engine``) over one Rapier ``PhysicsWorld``
    (module docstring)."""

    def __init__(self, scene: PhysicsScene, *, rate: float = 60.0, substeps: int = 1,
                 gravity: tuple[float, float, float] | None = None, density: float = 1000.0,
                 mesh_source: MeshSource | None = None, threads: int | None = None,
                 articulations: bool = True) -> None:
        if rate <= 0 or substeps < 1:
            raise SimulationError(f"rate must be > 0 and substeps ≥ 1 (got {rate}, {substeps})")
        self.scene = scene
        self.doc_json: dict[str, Any] = scene.document.json if scene.document is not None else {}
        self.animation = AnimationSchedule.for_scene(scene)  # None: no animation, nothing changes
        self._world_m = (world_matrices(self.doc_json) if self.animation is None
                         else self.animation.world_all(0.0))
        self._followers: list[tuple[rp.RigidBodyHandle, int]] = []  # (kinematic handle, animated node)
        self._static_follower: dict[int, rp.RigidBodyHandle] = {}  # static collider node → its body
        self._partner: dict[int, rp.RigidBodyHandle] = {}  # JOINT-9 partner group node → its fixed body
        self.joint_anchor: dict[int, tuple[rp.RigidBodyHandle, int]] = {}  # side node → (body, group)
        self._motion_nodes = frozenset(b.node for b in scene.bodies)
        if mesh_source is None and scene.document is not None:
            mesh_source = document_mesh_source(scene.document)
        self._mesh_source = mesh_source
        self.substeps = int(substeps)
        self._frequency = float(rate) * self.substeps  # engine steps per second
        self.dt = 1.0 / self._frequency
        self.substep_count = 0
        g = gravity if gravity is not None else (
            scene.world_gravity.vector if scene.world_gravity is not None else EARTH_GRAVITY)
        self.world = rp.PhysicsWorld(gravity=tuple(float(v) for v in g))
        self.world.integration_parameters.dt = self.dt
        if self.substeps == 1:  # explicit substeps refine Rapier's default (4 solver substeps per step) instead
            self.world.integration_parameters.num_solver_iterations = solver_iterations(self._frequency)
        if threads is not None:  # results do not depend on it (docs/semantics.md; tested)
            self.world.set_num_threads(int(threads))
        self.ground = self.world.add_body(rp.RigidBody.fixed())
        self.handle_of: dict[int, rp.RigidBodyHandle] = {}
        self.node_of: dict[rp.RigidBodyHandle, int] = {}
        self.mass_of: dict[int, MassProperties] = {}
        self.moving_nodes: list[int] = []  # dynamic and kinematic body nodes, ascending: the trace order
        self._info: dict[rp.ColliderHandle, tuple[bool, int]] = {}  # handle → (is trigger, reported node)
        self._keys: dict[rp.ColliderHandle, tuple[int | None, int | None]] = {}  # → (material, filter)
        self.triggers = TriggerTracker()
        self.collider_triggers = ColliderTriggerLog()  # per collider, for behaviour graphs (sim/queries.py)
        self.collider_node: dict[rp.ColliderHandle, int] = {}  # solid collider → its node
        self._motion_of: dict[rp.ColliderHandle, int] = {}  # solid collider → its motion node (−1: none)
        self.query_dirty = True  # ray casts refresh the query pipeline first (before any step, after a move)
        self._build(density)
        self._pose_handles = [self.handle_of[n] for n in self.moving_nodes]
        self._row_of = {h: i for i, h in enumerate(self._pose_handles)}
        self._fast_poses = pose_bytes_ok()
        self._last = np.zeros((len(self._pose_handles), 7), dtype=np.float32)
        self._stale = True  # the next read reads every body
        self._read_at = -1  # substep_count at the last read_poses
        self.joints = build_joints(self, scene, articulations)
        # (joint index, message): what the run changed to stay finite, and joints started at their bounds
        self.notes = self.joints.started + steady_tiny_links(self)
        self._steadied_at = self.joints.version  # a rebuilt link (a run-time limit edit) comes back armature-free
        # contacts no multibody joint coordinate can act on are dropped (link_contacts)
        self.hooks = link_contacts.install(self, self.joints, self.hooks)
        self.world.physics_hooks = self.hooks
        self.controllers = build_controllers(self, scene)  # gravity volumes, thrusters, vehicles
        self.pushes = Pushes(self)  # a user's grab: forces for one step

    # -- the joint interface -------------------------------------------------------------------------
    @property
    def bodies(self) -> rp.RigidBodySet:
        return self.world.rigid_bodies

    @property
    def colliders(self) -> rp.ColliderSet:
        return self.world.colliders

    @property
    def impulse_joints(self) -> rp.ImpulseJointSet:
        return self.world.impulse_joints

    @property
    def multibody_joints(self) -> rp.MultibodyJointSet:
        return self.world.multibody_joints

    def add_fixed_root(self, pose: Any = None) -> rp.RigidBodyHandle:
        """A fixed body (no colliders) at ``pose`` ((translation, xyzw rotation); the origin when None) rooting one
        articulation that hangs from the world or a fixed body."""
        return self.world.add_body(rp.RigidBody.fixed() if pose is None else rp.RigidBody.fixed().position(pose))

    def world_pose(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """Initial world translation (3,) and xyzw rotation (4,) of ``node``, scale removed."""
        t, q, _ = decompose(self._world_m[node])
        return np.array(t), np.array(q)

    # -- building ------------------------------------------------------------------------------------
    def _build(self, density: float) -> None:
        solids: list[tuple[int, PlacedShape, rp.RigidBodyHandle | None]] = []
        by_body = colliders_by_body(self.scene)
        self._placed_cache: dict = {}  # equal shapes at equal relative poses are placed (and weighed) once
        self._part_cache: dict[int, Any] = {}
        self._mass_cache: dict[tuple, tuple[MassProperties, rp.MassProperties]] = {}
        self._template: dict[tuple, rp.RigidBodyBuilder] = {}  # keyed by (Rapier mass object, velocities, g)
        ordered = sorted(self.scene.bodies, key=lambda b: b.node)
        frames, plain = body_frames(self._world_m, [b.node for b in ordered])
        if frames:  # every body's colliders placed in one pass (batched relative poses)
            placements = bulk_placements(self.scene, [b.node for b in ordered], rigid_inverses(np.stack(frames)),
                                         self._world_m, self._mesh_source, by_body, self._placed_cache)
        else:
            placements = []
        for body, frame, placed, flat in zip(ordered, frames, placements, plain, strict=True):
            handle = self._add_body(body, frame, placed, density, flat)
            solids.extend((k, p, handle) for k, p in placed)
        partner_of = joint_partners(self)
        for k, col in enumerate(self.scene.colliders):
            if col.body is None or col.body not in self.handle_of:
                group = partner_of.get(col.node) if col.body is None else None
                parent, rel = (self._static_parent(col.node) if group is None
                               else partner_parent(self, group, col.node))
                p = place_shape(col.shape, rel, self._mesh_source)
                if p is not None:
                    solids.append((k, p, parent))
        self._add_solids(solids)
        self._add_triggers()
        for node in self.mass_of:  # dynamic bodies, their colliders attached
            self._assemble_mass(self.bodies[self.handle_of[node]])

    def _add_body(self, body: Body, frame: np.ndarray, placed: list[tuple[int, PlacedShape]],
                  density: float, plain: bool = False) -> rp.RigidBodyHandle:
        """One Rapier body at ``frame`` (``plain``: known to carry no rotation)."""
        m = body.motion
        rot = frame[:3, :3]
        t = tuple(frame[:3, 3].tolist())
        q: tuple[float, ...] | None = None  # None: the identity rotation (the translation alone is set)
        if plain:  # most bodies of big scenes: no rotation, no per-body quaternion or velocity turn
            linvel, angvel = tuple(m.linear_velocity), tuple(m.angular_velocity)
        else:
            q = matrix_to_quat(rot)
            linvel = tuple((rot @ np.asarray(m.linear_velocity)).tolist())  # D-9
            angvel = tuple((rot @ np.asarray(m.angular_velocity)).tolist())
        animated = self._animated_body(body.node)
        if animated:  # animation wins over simulation (docs/semantics.md)
            builder = rp.RigidBody.kinematic_position_based()
        elif m.type is MotionType.STATIC:
            builder = rp.RigidBody.fixed()
        elif m.type is MotionType.KINEMATIC and body_family(body) == "omi":
            builder = rp.RigidBody.kinematic_position_based()
        elif m.type is MotionType.KINEMATIC:
            builder = rp.RigidBody.kinematic_velocity_based().linvel(linvel).angvel(angvel)
        else:
            mp, rapier_mp = self._mass(body, placed, density)
            # Equal bodies share one builder (only the pose differs). The key holds the mass object itself,
            # not its id(): an uncached one (centre-of-mass override) could be freed and its id reused.
            key = (rapier_mp, linvel, angvel, float(m.gravity_factor))
            builder = self._template.get(key)
            if builder is None:
                builder = (rp.RigidBody.dynamic().linvel(linvel).angvel(angvel)
                           .gravity_scale(float(m.gravity_factor)).additional_mass_properties(rapier_mp))
                locks = locked_axes(mp)
                if locks is not None:
                    builder = builder.locked_axes(locks)
                self._template[key] = builder
        # .translation() alone is 5× cheaper than .position() and builds the same body bit for bit
        handle = self.world.add_body(builder.translation(t) if q is None else builder.position((t, q)))
        self.handle_of[body.node] = handle
        self.node_of[handle] = body.node
        if m.type is not MotionType.STATIC or animated:
            self.moving_nodes.append(body.node)
        if animated:
            self._followers.append((handle, body.node))
        return handle

    def _assemble_mass(self, b: rp.RigidBody) -> None:
        """Fold the body's additional mass properties (and its colliders') into it now. Rapier does so only
        inside the next step, so until then a new or re-weighed body reads mass 0 and no inertia, and what
        acts before the step reads that: a ray-cast vehicle wheel in contact at t = 0 divided by the zero
        inverse mass (0·∞, a NaN chassis after the first step), the explicit springs skipped the first step."""
        b.recompute_mass_properties_from_colliders(self.colliders)

    def _animated_body(self, node: int) -> bool:
        if self.animation is None:
            return False
        return self.animation.animated_within(node, self._motion_nodes)

    def _static_parent(self, node: int) -> tuple[rp.RigidBodyHandle | None, np.ndarray]:
        """Where a collider/trigger without a body hangs: nothing (world pose), or, under an animated node,
        a position-based kinematic body following that node (pose relative to it: its scale only)."""
        world = self._world_m[node]
        if self.animation is None or not self.animation.animated_within(node):
            return None, world
        frame = body_frame(world)
        handle = self._static_follower.get(node)
        if handle is None:
            builder = rp.RigidBody.kinematic_position_based().position(
                (tuple(frame[:3, 3]), matrix_to_quat(frame[:3, :3])))
            handle = self._static_follower[node] = self.world.add_body(builder)
            self._followers.append((handle, node))
        return handle, np.linalg.inv(frame) @ world

    def _mass(self, body: Body, placed: list[tuple[int, PlacedShape]],
              density: float) -> tuple[MassProperties, rp.MassProperties]:
        """Model and Rapier mass properties; computed once per distinct (shapes, motion) — equal placed
        shapes are shared (``_placed_cache``), and a centre-of-mass override depends on the node's pose."""
        key = (tuple(id(p) for _, p in placed), body.motion) if body.motion.center_of_mass is None else None
        hit = self._mass_cache.get(key) if key is not None else None
        if hit is None:
            parts = []
            for _, p in placed:
                if id(p) not in self._part_cache:
                    self._part_cache[id(p)] = placed_mass(p)
                parts.append(self._part_cache[id(p)])
            v, com, inertia = combine_parts(parts)
            mp = apply_overrides(body, (v * density, com, inertia * density), self._world_m[body.node])
            hit = (mp, rapier_mass(mp))
            if key is not None:
                self._mass_cache[key] = hit
        self.mass_of[body.node] = hit[0]
        return hit


    def _add_solids(self, solids: list[tuple[int, PlacedShape, rp.RigidBodyHandle | None]]) -> None:
        sc = self.scene
        mat_keys = {sc.colliders[k].material for k, _, _ in solids}
        counts = {key: 0 for key in mat_keys}
        for k, _, _ in solids:
            counts[sc.colliders[k].material] += 1
        carried = native_classes(sc.materials, mat_keys, counts)
        self._pairs = hooked_pairs(sc.materials, mat_keys, carried)
        flagged = hook_cover(self._pairs, counts)
        filter_keys = {sc.colliders[k].filter for k, _, _ in solids} | {t.filter for t in sc.triggers}
        self._classes = FilterClasses(sc.filters, filter_keys | {None})
        any_hook = False
        builders: dict[tuple, rp.ColliderBuilder] = {}  # one per distinct (placed shape, material, filter)
        for k, placed, parent in solids:
            col = sc.colliders[k]
            key = (id(placed), col.material, col.filter)
            b = builders.get(key)
            if b is None:
                friction, restitution, f_rule, r_rule = carried[col.material]
                b = (collider_builder(placed, col.pointer, col.node).density(0.0).friction(friction)
                     .restitution(restitution).friction_combine_rule(f_rule).restitution_combine_rule(r_rule))
                hooks = rp.ActiveHooks.NONE
                if col.material in flagged:
                    hooks = hooks | rp.ActiveHooks.MODIFY_SOLVER_CONTACTS
                b, hooks = self._filter(b, col.filter, hooks)
                if not hooks.is_empty():
                    b = b.active_hooks(hooks)
                builders[key] = b
            any_hook = any_hook or col.material in flagged or self._classes.needs_pair_hook(col.filter)
            handle = self.world.add_collider(b, parent)
            self._info[handle] = (False, col.body if col.body is not None else col.node)
            self.collider_node[handle] = col.node
            self._motion_of[handle] = col.body if col.body is not None else -1
            self._keys[handle] = (col.material, col.filter)
        self._any_hook = any_hook

    def _filter(self, b: rp.ColliderBuilder, key: int | None,
                hooks: rp.ActiveHooks) -> tuple[rp.ColliderBuilder, rp.ActiveHooks]:
        groups = self._classes.groups(key)
        if groups is not None:
            b = b.collision_groups(groups)
        if self._classes.needs_pair_hook(key):
            hooks = hooks | rp.ActiveHooks.FILTER_CONTACT_PAIRS | rp.ActiveHooks.FILTER_INTERSECTION_PAIR
        return b, hooks

    def _add_triggers(self) -> None:
        owner: dict[int, tuple[int, int | None]] = {}  # member node → (compound node, compound filter)
        for trig in self.scene.triggers:
            for member in trig.nodes or ():
                owner.setdefault(member, (trig.node, trig.filter))
        any_hook = self._any_hook
        for trig in self.scene.triggers:
            if trig.shape is None:
                continue
            parent = self.handle_of.get(trig.body) if trig.body is not None else None
            rel = self._world_m[trig.node]
            if parent is not None:
                rel = np.linalg.inv(body_frame(self._world_m[trig.body])) @ rel
            else:
                parent, rel = self._static_parent(trig.node)
            placed = place_shape(trig.shape, rel, self._mesh_source)
            if placed is None:
                continue
            node, compound_filter = owner.get(trig.node, (trig.node, None))
            key = trig.filter if trig.filter is not None else compound_filter
            b = (collider_builder(placed, trig.pointer, trig.node).density(0.0).sensor(True)
                 .active_events(rp.ActiveEvents.COLLISION_EVENTS).active_collision_types(_ALL_TYPES))
            b, hooks = self._filter(b, key, rp.ActiveHooks.NONE)
            if not hooks.is_empty():
                b = b.active_hooks(hooks)
                any_hook = True
            handle = self.world.add_collider(b, parent)
            self._info[handle] = (True, node)
            self._keys[handle] = (None, key)
        self._collector = rp.ChannelEventCollector()
        self.world.event_handler = self._collector
        self.hooks = ContactHooks(self._keys, self._pairs, self._classes) if any_hook else None
        self.world.physics_hooks = self.hooks

    # -- stepping ------------------------------------------------------------------------------------
    @property
    def time(self) -> float:
        return self.substep_count / self._frequency  # = World.time at step boundaries, bit for bit

    def step(self) -> None:
        """One step of 1/rate s: ``substeps`` Rapier steps, each preceded by the joint driver's update."""
        for _ in range(self.substeps):
            if self._followers:
                self._follow_animation((self.substep_count + 1) / self._frequency)
            if self.joints is not None:
                self.joints.before_step(self.dt)
                if self.joints.version != self._steadied_at:
                    self.notes = self.joints.started + steady_tiny_links(self)
                    self._steadied_at = self.joints.version
            for controller in self.controllers:
                controller.before_step(self.dt)
            held = self.pushes.apply()
            before = self.time
            self.world.step()
            if self.joints is not None:
                self.joints.after_step()
            self.pushes.undo(held)
            self.substep_count += 1
            self._check_finite()
            self._drain_events(before)
        self.query_dirty = False  # the step left the query pipeline at the new poses
        self.pushes.pending.clear()  # a push lasts one step (all its substeps)

    def _follow_animation(self, t: float) -> None:
        """Aim every animated kinematic body at its sampled pose at ``t`` (the coming step's end)."""
        bodies, anim = self.world.rigid_bodies, self.animation
        for handle, node in self._followers:
            frame = body_frame(anim.world(node, t))  # type: ignore[union-attr]
            bodies[handle].set_next_kinematic_position(
                (tuple(frame[:3, 3]), matrix_to_quat(frame[:3, :3])))

    def _drain_events(self, time: float) -> None:
        info = self._info
        for e in self._collector.drain_collision_events():
            a, b = info.get(e.collider1), info.get(e.collider2)
            if a is None or b is None or a[0] == b[0]:
                continue  # not ours, solid–solid, or trigger–trigger (unspecified, not reported)
            trigger, other = (a, b) if a[0] else (b, a)
            self.triggers.update(time, trigger[1], other[1], e.started)
            solid = e.collider2 if a[0] else e.collider1
            self.collider_triggers.update(time, trigger[1], self.collider_node[solid], self._motion_of[solid],
                                          e.started)

    def _check_finite(self) -> None:
        q = self.world.quarantine
        if q.is_empty():
            return
        body_for = self.joints.driven.body_for if self.joints is not None else (lambda h: h)  # a root: its base
        nodes = sorted(self.node_of.get(body_for(h), -1) for h in q.bodies)
        node = nodes[0] if nodes else None
        # The body's pointer, so the line names what to fix (its velocities, gravity factor, mass…).
        pointer = next((b.pointer for b in self.scene.bodies if b.node == node and b.pointer), None)
        raise SimulationError(f"the state of node {node} became non-finite at t = {self.time:.6g} s",
                              node=node, pointer=pointer)

    # -- poses ---------------------------------------------------------------------------------------
    def read_poses(self) -> np.ndarray:
        """(B, 7) float32 [qx, qy, qz, qw, tx, ty, tz] of the moving bodies, in ``moving_nodes`` order.

        When exactly one engine step ran since the last read, only bodies Rapier reports active (awake
        dynamic, and every kinematic body) are read: a body asleep now was asleep for that whole step (Rapier
        decides sleep before it integrates), so the pose read after the step before still stands. After
        several steps a body may have moved and then fallen asleep in between, so every body is read. The
        array is reused: copy it to keep it.
        """
        since, self._read_at = self.substep_count - self._read_at, self.substep_count
        if self._stale or since > 1:
            self._last[:] = self._read(self._pose_handles)
            self._stale = False
            return self._last
        if since == 0:
            return self._last
        # Mostly awake: one full read is cheaper (measured). The island manager counts the awake dynamic
        # bodies without listing them (either branch reads exactly; the count only picks the cheaper one).
        if 2 * len(self.world.islands) >= len(self._pose_handles):
            self._last[:] = self._read(self._pose_handles)
            return self._last
        rows = [self._row_of[h] for h in self.world.active_bodies() if h in self._row_of]
        if rows:
            objects = self.body_objects()
            self._last[rows] = self._read_objects([objects[r] for r in rows])
        return self._last

    _objects: tuple[Any, list[rp.RigidBody]] | None = None  # (world, its live body objects of the pose rows)

    def body_objects(self) -> list[rp.RigidBody]:
        """Rapier's live body objects of the moving bodies, in ``moving_nodes`` order, in the current world
        (looked up once per world: reading through them skips a set lookup per body and read)."""
        cached = self._objects
        if cached is None or cached[0] is not self.world:  # first use, or a restored world
            bodies = self.world.rigid_bodies
            cached = self._objects = (self.world, [bodies[h] for h in self._pose_handles])
        return cached[1]

    def _read(self, handles: list[rp.RigidBodyHandle]) -> np.ndarray:
        if handles is self._pose_handles:
            return self._read_objects(self.body_objects())
        bodies = self.world.rigid_bodies
        return self._read_objects([bodies[h] for h in handles])

    def _read_objects(self, objects: list[rp.RigidBody]) -> np.ndarray:
        return read_objects(objects, self._fast_poses)

    def read_pose_rows(self, rows: slice | np.ndarray) -> np.ndarray:
        """``read_poses()[rows]``, reading only those bodies when they are under a quarter of all: a graph that
        follows a few bodies of a big awake pile must not pay a binding call for every body. May be a view of
        ``read_poses``' array: copy to keep."""
        index = range(*rows.indices(len(self._pose_handles))) if isinstance(rows, slice) else rows
        if 4 * len(index) >= len(self._pose_handles):
            return self.read_poses()[rows]
        objects = self.body_objects()
        return self._read_objects([objects[r] for r in index])

    def pose(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """Current world translation and xyzw rotation of a body node (float64 of Rapier's float32)."""
        b = self.world.rigid_bodies[self.handle_of[node]]
        return np.array(b.translation.to_tuple()), np.array(b.rotation.to_tuple())

    def node_matrix(self, node: int) -> np.ndarray:
        """Current world matrix (4×4) of any node: moved with its nearest body, else as in the file."""
        return carried_matrix(self.doc_json, self._world_m, self.handle_of, self.pose, node)

    def point_velocity(self, node: int, point: Any) -> tuple[np.ndarray, np.ndarray]:
        """(world velocity of the world ``point`` carried by the body on ``node``, its angular velocity)."""
        b = self.bodies[self.handle_of[node]]
        v, w = b.velocity_at_point(tuple(float(x) for x in point)), b.angvel
        return np.array([v.x, v.y, v.z]), np.array([w.x, w.y, w.z])

    # -- runtime changes -----------------------------------------------------------------------------
    def push(self, node: int, force: Any, point: Any) -> None:
        """A world force (N) at a world point on a dynamic body for the next step only (a user's grab)."""
        self.pushes.add(node, force, point)

    def _queries(self) -> Any:
        return queries

    def set_pose(self, node: int, translation: Any, rotation: Any) -> None:
        """Move a body node's body to a world pose (translation, xyzw rotation) now."""
        queries.set_pose(self, node, translation, rotation)

    motion_edits = 0  # set_motion calls so far: controllers caching body state re-read it when this moves

    def set_motion(self, node: int, field: str, value: Any) -> None:
        if node not in self.handle_of:
            raise SimulationError(f"node {node} is not a body", node=node)
        b = self.world.rigid_bodies[self.handle_of[node]]
        if field in ("linear_velocity", "angular_velocity"):
            v = finite_vec3(value, field, node)
            world_v = tuple(b.rotation.transform_vector(v).to_tuple())  # node space (D-9)
            if field == "linear_velocity":
                b.linvel = world_v
            else:
                b.angvel = world_v
            if self.joints is not None:  # an articulation link moves by its joint coordinates
                self.joints.velocity_set(self.handle_of[node], field == "angular_velocity")
        elif field == "gravity_factor":
            factor = motion_number(value, field, node)
            # A body held inside a gravity volume keeps gravity_scale 0; the volumes take the factor instead.
            volumes = controller_of(self, GravityVolumes) if self.controllers else None
            if volumes is None or not volumes.factor_set(node, factor):
                b.gravity_scale = factor
        elif field == "mass":
            self._set_mass(node, b, motion_number(value, field, node))
        else:
            raise SimulationError(f"motion field {field!r} is not settable", node=node)
        b.wake_up(True)
        self._stale = True
        self.motion_edits += 1

    def set_controlled(self, kind: str, index: int, field: str, value: Any) -> None:
        """A vehicle, wheel, thruster, hover thruster or gravity volume pointer (``sim.engine.CONTROLLED``)."""
        set_controlled(self, kind, index, field, value)

    def _set_mass(self, node: int, b: rp.RigidBody, mass: float) -> None:
        old = self.mass_of.get(node)
        if old is None or not b.is_dynamic:
            raise SimulationError(f"node {node} is not a dynamic body", node=node)
        if mass == 0:
            mass = math.inf  # KHR: 0 = infinite (D-5)
        k = mass / old.mass if math.isfinite(old.mass) and math.isfinite(mass) and old.mass > 0 else 1.0
        new = MassProperties(mass, old.center_of_mass, tuple(d * k for d in old.inertia_diagonal),  # type: ignore[arg-type]
                             old.inertia_orientation)
        self.mass_of[node] = new
        b.set_additional_mass_properties(rapier_mass(new), True)
        b.locked_axes = locked_axes(new) or rp.LockedAxes.empty()
        self._assemble_mass(b)  # before the next step: the vehicles and springs read it first

    # -- snapshots -----------------------------------------------------------------------------------
    def snapshot(self) -> tuple[bytes, int, Any, dict[int, MassProperties], Any, tuple[Any, ...]]:
        joints = self.joints.state() if self.joints is not None else None  # the aimed rows' bookkeeping
        controls = tuple(c.state() for c in self.controllers)  # gravity holds, vehicle ramps, their settings
        return (self.world.snapshot(), self.substep_count, (self.triggers.state(), self.collider_triggers.state()),
                dict(self.mass_of), joints, controls)

    def restore(self, snap: tuple[bytes, int, Any, dict[int, MassProperties], Any, tuple[Any, ...]]) -> None:
        blob, count, trig_state, masses, joints, controls = snap
        world = rp.PhysicsWorld.restore(blob)
        self._collector = rp.ChannelEventCollector()
        world.event_handler = self._collector
        world.physics_hooks = self.hooks
        self.world = world
        self.substep_count = count
        self.triggers.restore(trig_state[0])
        self.collider_triggers.restore(trig_state[1])
        self.query_dirty = True
        self.mass_of = dict(masses)
        self._stale = True
        if self.joints is not None:
            self.joints.restored(joints)
        for c, st in zip(self.controllers, controls, strict=True):
            c.restore(st)


ENGINE = RapierWorld  # what sim.engine.ENGINES names this module for
