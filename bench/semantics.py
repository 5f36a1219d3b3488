"""Benchmark: spec-exact semantics against raw rapier3d with native joints, motors and combine rules.

Every scene is built as a glTF document in this process (a ``PhysicsScene`` written by ``write_scene`` and
read back by ``read_scene``, the path a file takes) and run through ``World``; beside it a hand-written
rapier3d script builds the same bodies with Rapier's own joints, motors, combine rules, vehicle controller
and a NumPy force loop for gravity volumes. Runs are interleaved (ours, raw, ours, raw, …) and the median
of ``--reps`` (≥ 3) is reported, so the ratio is measured under the same machine load.

Rows: 200 chains × 10 hinged links with hard limits, soft limits, force-mode position drives,
acceleration-mode velocity drives and 3-axis ("aimed") limits; a 1,000-body pile with three materials (and
the uniform pile it is compared with); 500 bodies in OMI point + directional gravity volumes; 50 OMI
vehicles × 4 wheels; plain piles at N = 100 … 5,000 (20,000 with ``--big``); world build seconds at 1,000
boxes (20,000 with ``--big``). Rows ``posts``: the same chains as OMI files commonly write them (on a static
post, joints on child nodes, OMI and KHR), on kinematic posts moving at 0.5 m/s, and 100 seven-joint robot arms
with position drives on a static base, against raw multibodies with native motors.

Usage: ``python bench/semantics.py [--reps 3] [--budget 1.5] [--big] [--only chains,piles,...] [--clock cpu]``.
``--budget`` bounds the seconds of stepping per run (at least 3 steps); ms/step is averaged over the steps run.
"""

from __future__ import annotations

import argparse
import inspect
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import rapier3d as rp

from gltf_physics.dialects import read_scene, write_scene
from gltf_physics.gltf.document import Document
from gltf_physics.model import (
    Body,
    Box,
    Collider,
    CombineMode,
    Motion,
    MotionType,
    PhysicsMaterial,
    PhysicsScene,
    Sphere,
    Trigger,
)
from gltf_physics.model.gravity import GravityField, GravityType
from gltf_physics.model.joints import DriveMode, DriveType, Joint, JointDrive, JointLimit, Pose
from gltf_physics.model.vehicles import Vehicle, Wheel
from gltf_physics.sim import World

RATE = 60.0
G = -9.81

# ---------------------------------------------------------------------------------------------- glTF side


def as_gltf(scene: PhysicsScene, nodes: list[dict], family: str = "khr") -> PhysicsScene:
    """Write ``scene`` into a glTF document over ``nodes`` and read it back, as a file would be."""
    children = {c for n in nodes for c in n.get("children", ())}
    top = [i for i in range(len(nodes)) if i not in children]
    doc = Document(json={"asset": {"version": "2.0"}, "scenes": [{"nodes": top}],
                         "scene": 0, "nodes": nodes}, buffers=[])
    scene.document = doc
    out, _ = write_scene(scene, doc, family)  # type: ignore[arg-type]
    return read_scene(out)


CHAINS, LINKS, LINK = 200, 10, 0.5  # link: a 0.1 × 0.5 × 0.1 box along x, hinged at its ends about z
HINGE_LOCKS = (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0),
               JointLimit(angular_axes=(0,), min=0.0, max=0.0), JointLimit(angular_axes=(1,), min=0.0, max=0.0))
BALL_LOCK = (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0),)


def chain_variant(kind: str) -> tuple[tuple[JointLimit, ...], tuple[JointDrive, ...]]:
    """(limits, drives) of every joint of a chain scene ``kind``."""
    if kind == "hard":
        return (*HINGE_LOCKS, JointLimit(angular_axes=(2,), min=-1.0, max=1.0)), ()
    if kind == "soft":
        return (*HINGE_LOCKS, JointLimit(angular_axes=(2,), min=-0.3, max=0.3, stiffness=50.0, damping=1.0)), ()
    if kind == "drive-force":
        return HINGE_LOCKS, (JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 2, position_target=0.3,
                                        stiffness=100.0, damping=5.0),)
    if kind == "drive-accel":
        return HINGE_LOCKS, (JointDrive(DriveType.ANGULAR, DriveMode.ACCELERATION, 2, velocity_target=1.0,
                                        damping=10.0),)
    if kind == "aimed":
        return (*BALL_LOCK, JointLimit(angular_axes=(0, 1, 2), min=0.0, max=0.8)), ()
    raise ValueError(kind)


def link_positions() -> list[tuple[float, float, float]]:
    return [(LINK * (i + 0.5), 0.0, 1.0 * c) for c in range(CHAINS) for i in range(LINKS)]


def chain_scene(kind: str) -> PhysicsScene:
    limits, drives = chain_variant(kind)
    nodes = [{"translation": list(p)} for p in link_positions()]
    bodies = [Body(n, Motion(mass=1.0)) for n in range(len(nodes))]
    colliders = [Collider(n, Box((LINK, 0.1, 0.1)), body=n) for n in range(len(nodes))]
    joints = []
    half = Pose((LINK / 2, 0.0, 0.0))
    for c in range(CHAINS):
        for i in range(LINKS):
            n = c * LINKS + i
            a, fa = (None, Pose((0.0, 0.0, 1.0 * c))) if i == 0 else (n - 1, half)
            joints.append(Joint(a, fa, n, Pose((-LINK / 2, 0.0, 0.0)), limits=limits, drives=drives))
    return as_gltf(PhysicsScene(bodies=bodies, colliders=colliders, joints=joints), nodes)


POST_AXES = {"chain": (2,) * LINKS, "arm": (2, 1, 2, 1, 2, 1, 2)}  # hinge axis of each joint (arm: 7 joints)
ARMS = 100


def hinge_about(axis: int) -> tuple[JointLimit, ...]:
    return (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0),
            JointLimit(angular_axes=tuple(a for a in range(3) if a != axis), min=0.0, max=0.0))


def post_variant(kind: str, axis: int) -> tuple[tuple[JointLimit, ...], tuple[JointDrive, ...]]:
    """``chain_variant`` about hinge ``axis``; ``arm``: a force-mode position drive (k 200, c 20) at 0.3 rad."""
    if kind == "arm":
        return hinge_about(axis), (JointDrive(DriveType.ANGULAR, DriveMode.FORCE, axis, position_target=0.3,
                                              stiffness=200.0, damping=20.0),)
    limits, drives = chain_variant(kind)
    return limits, drives


def post_chain_scene(kind: str, family: str, root: MotionType = MotionType.STATIC, chains: int = CHAINS,
                     shape: str = "chain") -> PhysicsScene:
    """Chains as OMI files commonly write them: each on a post (a ``root`` body: static, or kinematic moving
    at 0.5 m/s along X), the joint on a child node at the −X end of each link, ``connectedNode`` an attachment
    child at the +X end of the previous link (the post's own attachment for the first). ``shape`` "arm": 7
    joints about Z, Y, Z, … with position drives."""
    axes = POST_AXES[shape]
    nodes: list[dict] = []
    bodies, colliders, joints = [], [], []
    for c in range(chains):
        post = len(nodes)
        nodes += [{"translation": [0.0, 0.0, 1.0 * c], "children": [post + 1]}, {"translation": [0.0, 0.0, 0.0]}]
        velocity = (0.5, 0.0, 0.0) if root is MotionType.KINEMATIC else (0.0, 0.0, 0.0)
        bodies.append(Body(post, Motion(type=root, linear_velocity=velocity)))
        colliders.append(Collider(post, Box((0.1, 0.1, 0.1)), body=post))
        attach, prev = post + 1, post
        for i, axis in enumerate(axes):
            n = len(nodes)
            nodes += [{"translation": [LINK * (i + 0.5), 0.0, 1.0 * c], "children": [n + 1, n + 2]},
                      {"translation": [-LINK / 2, 0.0, 0.0]}, {"translation": [LINK / 2, 0.0, 0.0]}]
            bodies.append(Body(n, Motion(mass=1.0)))
            colliders.append(Collider(n, Box((LINK, 0.1, 0.1)), body=n))
            limits, drives = post_variant(kind, axis)
            joints.append(Joint(n, Pose((-LINK / 2, 0.0, 0.0)), prev, Pose((LINK / 2, 0.0, 0.0)) if i else Pose(),
                                limits=limits, drives=drives, node=n + 1, connected_node=attach))
            attach, prev = n + 2, n
    return as_gltf(PhysicsScene(bodies=bodies, colliders=colliders, joints=joints), nodes, family)


def pile_positions(n: int) -> list[tuple[float, float, float]]:
    side = max(1, round(n ** (1 / 3)))
    layer = side * side
    return [((i % side) * 1.1 - side / 2, 0.6 + (i // layer) * 1.1, ((i // side) % side) * 1.1 - side / 2)
            for i in range(n)]


THREE = (PhysicsMaterial(0.9, 0.9, 0.1, CombineMode.MAXIMUM),  # distinct materials Rapier combines exactly
         PhysicsMaterial(0.4, 0.4, 0.3),
         PhysicsMaterial(0.7, 0.7, 0.0, CombineMode.MAXIMUM, CombineMode.AVERAGE))
# Conflicting combine modes (spec precedence ≠ Rapier's): what no native encoding reproduces is hooked.
MIXED_MODES = (PhysicsMaterial(0.9, 0.9, 0.1, CombineMode.MINIMUM, CombineMode.MAXIMUM),
               PhysicsMaterial(0.4, 0.4, 0.3, CombineMode.MULTIPLY, CombineMode.AVERAGE),
               PhysicsMaterial(0.7, 0.7, 0.0, CombineMode.MAXIMUM, CombineMode.MINIMUM))
# Static ≠ dynamic friction: Rapier has one coefficient, so these pairs need the hook by the spec.
STATIC_DYNAMIC = (PhysicsMaterial(0.9, 0.5, 0.1, CombineMode.MAXIMUM), *THREE[1:])


def pile_scene(n: int, materials: tuple[PhysicsMaterial, ...] = ()) -> PhysicsScene:
    pos = pile_positions(n)
    nodes = [{"translation": [0.0, -0.5, 0.0]}] + [{"translation": list(p)} for p in pos]
    mat = (lambda i: i % len(materials)) if materials else (lambda i: None)
    colliders = [Collider(0, Box((400.0, 1.0, 400.0)))]
    colliders += [Collider(i + 1, Box(), body=i + 1, material=mat(i)) for i in range(n)]
    return as_gltf(PhysicsScene(bodies=[Body(i + 1, Motion(mass=1000.0)) for i in range(n)], colliders=colliders,
                                materials=list(materials)), nodes)


GRAVITY_BODIES = 500


def gravity_positions() -> list[tuple[float, float, float]]:
    rng = np.random.default_rng(7)
    return [tuple(float(x) for x in rng.uniform(-8.0, 8.0, 3)) for _ in range(GRAVITY_BODIES)]


def gravity_scene() -> PhysicsScene:
    """Bodies in a point volume (radius 30 sphere at the origin) and a directional one (the half x > 0)."""
    pos = gravity_positions()
    nodes = [{"translation": [0.0, 0.0, 0.0]}, {"translation": [15.0, 0.0, 0.0]}]
    nodes += [{"translation": list(p)} for p in pos]
    n = len(pos)
    bodies = [Body(i + 2, Motion(mass=1.0)) for i in range(n)]
    colliders = [Collider(i + 2, Sphere(0.2), body=i + 2) for i in range(n)]
    triggers = [Trigger(0, Sphere(30.0)), Trigger(1, Box((30.0, 60.0, 60.0)))]
    fields = [GravityField(0, GravityType.POINT, 9.81, priority=0),
              GravityField(1, GravityType.DIRECTIONAL, 4.0, priority=1, direction=(1.0, 0.0, 0.0))]
    return as_gltf(PhysicsScene(bodies=bodies, colliders=colliders, triggers=triggers, gravity_fields=fields),
                   nodes, "omi")


TRIGGER_BODIES, ZONES = 1000, 50


def trigger_zones() -> list[tuple[float, float, float]]:
    """50 trigger boxes (2.2 × 2 × 2.2) over the 1,000-box pile: a 5 × 5 grid at two heights."""
    return [(-4.4 + 2.2 * i, 1.0 + 4.0 * k, -4.4 + 2.2 * j) for k in range(2) for j in range(5) for i in range(5)]


def trigger_scene() -> PhysicsScene:
    """The 1,000-box pile (``pile_scene``) under 50 static trigger zones: bodies start inside, fall, settle."""
    pos = pile_positions(TRIGGER_BODIES)
    nodes = [{"translation": [0.0, -0.5, 0.0]}] + [{"translation": list(p)} for p in pos]
    zones = len(nodes)
    nodes += [{"translation": list(z)} for z in trigger_zones()]
    colliders = [Collider(0, Box((400.0, 1.0, 400.0)))]
    colliders += [Collider(i + 1, Box(), body=i + 1) for i in range(len(pos))]
    triggers = [Trigger(zones + k, Box((2.2, 2.0, 2.2))) for k in range(ZONES)]
    return as_gltf(PhysicsScene(bodies=[Body(i + 1, Motion(mass=1000.0)) for i in range(len(pos))],
                                colliders=colliders, triggers=triggers), nodes)


VEHICLES = 50
WHEEL_AT = ((0.8, -0.3, 1.2), (-0.8, -0.3, 1.2), (0.8, -0.3, -1.2), (-0.8, -0.3, -1.2))


def vehicle_scene() -> PhysicsScene:
    nodes: list[dict] = [{"translation": [0.0, -0.5, 0.0]}]
    bodies, colliders, vehicles, wheels = [], [Collider(0, Box((400.0, 1.0, 400.0)))], [], []
    for v in range(VEHICLES):
        body = len(nodes)
        kids = list(range(body + 1, body + 5))
        nodes.append({"translation": [4.0 * (v % 10), 1.0, 6.0 * (v // 10)], "children": kids})
        nodes += [{"translation": list(w)} for w in WHEEL_AT]
        bodies.append(Body(body, Motion(mass=500.0)))
        colliders.append(Collider(body, Box((2.0, 0.5, 3.0)), body=body))
        vehicles.append(Vehicle(body, linear_activation=(0.0, 0.0, 0.5)))
        wheels += [Wheel(k, body, max_propulsion_force=2000.0, radius=0.3) for k in kids]
    return as_gltf(PhysicsScene(bodies=bodies, colliders=colliders, vehicles=vehicles, wheels=wheels),
                   nodes, "omi")


# ---------------------------------------------------------------------------------------------- raw side


def raw_world() -> rp.PhysicsWorld:
    w = rp.PhysicsWorld(gravity=(0.0, G, 0.0))
    w.integration_parameters.dt = 1.0 / RATE
    return w


def raw_pile(n: int, materials: tuple[PhysicsMaterial, ...] = ()) -> Callable[[], None]:
    rule = rp.CoefficientCombineRule
    rules = {None: rule.AVERAGE, CombineMode.AVERAGE: rule.AVERAGE, CombineMode.MINIMUM: rule.MIN,
             CombineMode.MAXIMUM: rule.MAX, CombineMode.MULTIPLY: rule.MULTIPLY}
    w = raw_world()
    w.add_body(rp.RigidBody.fixed().translation((0.0, -0.5, 0.0)),
               [rp.Collider.cuboid(200.0, 0.5, 200.0).friction(0.6)])
    for i, p in enumerate(pile_positions(n)):
        c = rp.Collider.cuboid(0.5, 0.5, 0.5).density(1000.0)
        if materials:
            m = materials[i % len(materials)]
            c = (c.friction(m.dynamic_friction).restitution(m.restitution)
                 .friction_combine_rule(rules[m.friction_combine])
                 .restitution_combine_rule(rules[m.restitution_combine]))
        else:
            c = c.friction(0.6)
        w.add_body(rp.RigidBody.dynamic().translation(p), [c])
    return raw_stepper(w)


def raw_stepper(w: rp.PhysicsWorld, before: Callable[[], None] | None = None,
                after: Callable[[], None] | None = None) -> Callable[[], None]:
    """One step plus a read of every body pose (what ``World.poses()``/a trace does)."""
    bodies = w.rigid_bodies
    handles = list(bodies.handles())

    def step() -> None:
        if before is not None:
            before()
        w.step()
        if after is not None:
            after()
        b"".join([bodies[h].position.to_bytes() for h in handles])

    return step


def raw_chains(kind: str, multibody: bool = False) -> Callable[[], None]:
    """Raw chains on impulse joints, or (``multibody``) on multibody joints, one fixed root per chain."""
    w = raw_world()
    ground = w.add_body(rp.RigidBody.fixed())
    joints = w.multibody_joints if multibody else w.impulse_joints
    handles = [w.add_body(rp.RigidBody.dynamic().translation(p),
                          [rp.Collider.cuboid(LINK / 2, 0.05, 0.05).mass(1.0)]) for p in link_positions()]
    for c in range(CHAINS):
        for i in range(LINKS):
            n = c * LINKS + i
            root = w.add_body(rp.RigidBody.fixed()) if multibody and i == 0 else ground
            a, anchor = (root, (0.0, 0.0, 1.0 * c)) if i == 0 else (handles[n - 1], (LINK / 2, 0.0, 0.0))
            if kind == "aimed":
                b = (rp.GenericJointBuilder(rp.JointAxesMask.LIN_AXES)
                     .coupled_axes(rp.JointAxesMask.ANG_Y | rp.JointAxesMask.ANG_Z)
                     .limits(rp.JointAxis.ANG_Y, 0.0, 0.8).limits(rp.JointAxis.ANG_Z, 0.0, 0.8))
            else:
                locks = rp.JointAxesMask.LIN_AXES | rp.JointAxesMask.ANG_X | rp.JointAxesMask.ANG_Y
                b = rp.GenericJointBuilder(locks)
            if kind == "hard":
                b = b.limits(rp.JointAxis.ANG_Z, -1.0, 1.0)
            elif kind == "soft":  # the nearest native: a position motor toward the range
                b = b.motor_position(rp.JointAxis.ANG_Z, 0.0, 50.0, 1.0)
            elif kind == "drive-force":
                b = b.motor_model(rp.JointAxis.ANG_Z, rp.MotorModel.FORCE_BASED).motor_position(
                    rp.JointAxis.ANG_Z, 0.3, 100.0, 5.0)
            elif kind == "drive-accel":
                b = b.motor_model(rp.JointAxis.ANG_Z, rp.MotorModel.ACCELERATION_BASED).motor_velocity(
                    rp.JointAxis.ANG_Z, 1.0, 10.0)
            b = b.local_anchor1(anchor).local_anchor2((-LINK / 2, 0.0, 0.0)).contacts_enabled(False)  # JOINT-9
            joints.insert(a, handles[n], b.build(), True)
    return raw_stepper(w)


def driven(w: rp.PhysicsWorld, pairs: list[tuple[rp.RigidBodyHandle, rp.RigidBodyHandle]],
           velocity: tuple[float, float, float]) -> tuple[Callable[[], None], Callable[[], None]]:
    """(before, after) of hand-written driven roots: each heavy root is forced to ``velocity`` before a step and
    put on its kinematic post's pose after it (links placed from it), as the runtime's driven roots do."""
    bodies, mbs = w.rigid_bodies, w.multibody_joints
    target = np.array(velocity)

    def before() -> None:
        for _, root in pairs:
            rb = bodies[root]
            f = rb.mass * (target - np.array(rb.linvel.to_tuple())) * RATE
            rb.reset_forces(False)
            rb.add_force((float(f[0]), float(f[1]), float(f[2])), True)

    def after() -> None:
        for post, root in pairs:
            bodies[root].position = bodies[post].position
            mb = mbs.get_multibody(mbs.rigid_body_link(root).multibody)
            mb.forward_kinematics(bodies, True)
            mb.update_rigid_bodies(bodies, False)

    return before, after


def raw_post_chains(kind: str, root: str = "fixed", multibody: bool = True, chains: int = CHAINS,
                    shape: str = "chain") -> Callable[[], None]:
    """``post_chain_scene`` in raw rapier3d: a post body (fixed, kinematic at 0.5 m/s, or a still kinematic one:
    ``root`` "fixed", "kinematic", "still") with its collider per
    chain, links on multibody (or impulse) joints with native limits and motors (a soft limit: a position
    motor toward the range, the nearest native form). A kinematic post's multibody hangs from a driven root
    written by hand (``driven``): a multibody's kinematic root does not move in Rapier."""
    w = raw_world()
    joints = w.multibody_joints if multibody else w.impulse_joints
    axes = POST_AXES[shape]
    ang = (rp.JointAxis.ANG_X, rp.JointAxis.ANG_Y, rp.JointAxis.ANG_Z)
    masks = (rp.JointAxesMask.ANG_X, rp.JointAxesMask.ANG_Y, rp.JointAxesMask.ANG_Z)
    pairs = []
    for c in range(chains):
        post = (rp.RigidBody.kinematic_velocity_based().linvel((0.5, 0.0, 0.0)) if root == "kinematic"
                else rp.RigidBody.kinematic_position_based() if root == "still" else rp.RigidBody.fixed())
        prev = w.add_body(post.translation((0.0, 0.0, 1.0 * c)), [rp.Collider.cuboid(0.05, 0.05, 0.05)])
        if root == "kinematic" and multibody:
            heavy = rp.MassProperties((0.0, 0.0, 0.0), 1e6, (1e6, 1e6, 1e6))
            proxy = w.add_body(rp.RigidBody.dynamic().translation((0.0, 0.0, 1.0 * c)).gravity_scale(0.0)
                               .additional_mass_properties(heavy))
            pairs.append((prev, proxy))
            prev = proxy
        for i, axis in enumerate(axes):
            h = w.add_body(rp.RigidBody.dynamic().translation((LINK * (i + 0.5), 0.0, 1.0 * c)),
                           [rp.Collider.cuboid(LINK / 2, 0.05, 0.05).mass(1.0)])
            locks = rp.JointAxesMask.LIN_AXES
            for a in range(3):
                if a != axis:
                    locks = locks | masks[a]
            b = rp.GenericJointBuilder(locks)
            free = ang[axis]
            if kind == "hard":
                b = b.limits(free, -1.0, 1.0)
            elif kind == "soft":
                b = b.motor_position(free, 0.0, 50.0, 1.0)
            elif kind == "drive-force":
                b = b.motor_model(free, rp.MotorModel.FORCE_BASED).motor_position(free, 0.3, 100.0, 5.0)
            elif kind == "drive-accel":
                b = b.motor_model(free, rp.MotorModel.ACCELERATION_BASED).motor_velocity(free, 1.0, 10.0)
            elif kind == "arm":
                b = b.motor_model(free, rp.MotorModel.FORCE_BASED).motor_position(free, 0.3, 200.0, 20.0)
            anchor = (0.0, 0.0, 0.0) if i == 0 else (LINK / 2, 0.0, 0.0)
            b = b.local_anchor1(anchor).local_anchor2((-LINK / 2, 0.0, 0.0)).contacts_enabled(False)
            handle = joints.insert(prev, h, b.build(), True)
            if i == 0 and pairs and pairs[-1][1] == prev:  # JOINT-9: the post's collider stays off the first link
                w.impulse_joints.insert(pairs[-1][0], h, rp.GenericJointBuilder(rp.JointAxesMask.empty())
                                        .contacts_enabled(False).build(), True)
            if multibody and handle is not None:
                mb = joints.get(handle)[0]
                mb.set_damping([0.0] * mb.ndofs)  # as ours: no joint damping the specs do not have
            prev = h
    if pairs:
        return raw_stepper(w, *driven(w, pairs, (0.5, 0.0, 0.0)))
    return raw_stepper(w)


def raw_triggers() -> Callable[[], None]:
    """``trigger_scene`` in raw rapier3d: sensors with collision events against every body type (as the spec's
    triggers see static colliders too), the events drained each step into enter/exit counts per pair."""
    w = raw_world()
    w.add_body(rp.RigidBody.fixed().translation((0.0, -0.5, 0.0)), [rp.Collider.cuboid(200.0, 0.5, 200.0)])
    for p in pile_positions(TRIGGER_BODIES):
        w.add_body(rp.RigidBody.dynamic().translation(p), [rp.Collider.cuboid(0.5, 0.5, 0.5).density(1000.0)])
    for z in trigger_zones():
        w.add_body(rp.RigidBody.fixed().translation(z), [
            rp.Collider.cuboid(1.1, 1.0, 1.1).sensor(True).active_events(rp.ActiveEvents.COLLISION_EVENTS)
            .active_collision_types(rp.ActiveCollisionTypes.all())])
    collector = rp.ChannelEventCollector()
    w.event_handler = collector
    inside: dict[tuple[object, object], int] = {}

    def after() -> None:
        for e in collector.drain_collision_events():
            key = (e.collider1, e.collider2)
            inside[key] = inside.get(key, 0) + (1 if e.started else -1)

    return raw_stepper(w, after=after)


def point_and_directional(p: np.ndarray) -> np.ndarray:
    """Acceleration of the benchmark's gravity volumes at points ``p`` (N, 3)."""
    r = np.linalg.norm(p, axis=1, keepdims=True)
    a = -9.81 * p / np.maximum(r, 1e-9)
    return np.where(p[:, :1] > 0.0, np.array([4.0, 0.0, 0.0]), a)


def raw_gravity() -> Callable[[], None]:
    w = rp.PhysicsWorld(gravity=(0.0, 0.0, 0.0))
    w.integration_parameters.dt = 1.0 / RATE
    handles = [w.add_body(rp.RigidBody.dynamic().translation(p), [rp.Collider.ball(0.2).mass(1.0)])
               for p in gravity_positions()]
    bodies = w.rigid_bodies

    def forces() -> None:
        blob = b"".join([bodies[h].position.to_bytes() for h in handles])
        pos = np.frombuffer(blob, dtype="<f4").reshape(-1, 9)[:, 6:].astype(np.float64)
        acc = point_and_directional(pos)
        for h, f in zip(handles, acc.tolist(), strict=True):
            b = bodies[h]
            b.reset_forces(False)
            b.add_force(f, True)

    return raw_stepper(w, forces)


def raw_vehicles() -> Callable[[], None]:
    w = raw_world()
    w.add_body(rp.RigidBody.fixed().translation((0.0, -0.5, 0.0)), [rp.Collider.cuboid(200.0, 0.5, 200.0)])
    rays = []
    for v in range(VEHICLES):
        h = w.add_body(rp.RigidBody.dynamic().translation((4.0 * (v % 10), 1.0, 6.0 * (v // 10))),
                       [rp.Collider.cuboid(1.0, 0.25, 1.5).mass(500.0)])
        ray = rp.DynamicRayCastVehicleController(h)
        ray.index_up_axis, ray.index_forward_axis = 1, 2
        tuning = rp.WheelTuning(suspension_stiffness=40.0, suspension_compression=4.0, suspension_damping=4.0,
                                max_suspension_travel=0.25, side_friction_stiffness=1.0, friction_slip=0.6,
                                max_suspension_force=1e9)
        for x, y, z in WHEEL_AT:
            ray.add_wheel((x, y + 0.25, z), (0.0, -1.0, 0.0), (-1.0, 0.0, 0.0), 0.25, 0.3, tuning)
        rays.append(ray)
    qf = rp.QueryFilter.new().exclude_sensors()
    dt = 1.0 / RATE

    def drive() -> None:
        w.update_query_pipeline()
        for ray in rays:
            for i in range(4):
                ray.apply_engine_force(i, 1000.0)
            ray.update_vehicle(dt, w.rigid_bodies, w.colliders, w.query_pipeline, qf)

    return raw_stepper(w, drive)


# ---------------------------------------------------------------------------------------------- timing


# Wall time by default; ``--clock cpu`` times this process's CPU (time.process_time), which other processes on a
# loaded machine disturb far less, and takes the sides' steps in turn (``time_interleaved``). Measured at load
# average 7–10 on 2 cores: run-to-run spread of a ratio ±50 % by wall time, ±5 % this way.
CLOCK = [time.perf_counter]


def time_steps(step: Callable[[], None], steps: int, budget: float) -> float:
    """ms per step over up to ``steps`` steps, stopping once ``budget`` seconds are spent (≥ 3 steps)."""
    clock = CLOCK[0]
    t0 = clock()
    done = 0
    while done < steps:
        step()
        done += 1
        if done >= 3 and clock() - t0 > budget:
            break
    return (clock() - t0) / done * 1000.0


def time_interleaved(sides: list[Callable[[], None]], steps: int, budget: float) -> list[float]:
    """ms per step of each side, their steps taken in turn (one of each, then again), after 3 unmeasured
    steps each; up to ``steps`` rounds, stopping once ``budget`` seconds of measured time are spent."""
    clock = CLOCK[0]
    for side in sides:
        for _ in range(3):
            side()
    spent = [0.0] * len(sides)
    done = 0
    while done < steps:
        for k, side in enumerate(sides):
            t0 = clock()
            side()
            spent[k] += clock() - t0
        done += 1
        if done >= 3 and sum(spent) > budget * len(sides):
            break
    return [t / done * 1000.0 for t in spent]


@dataclass
class Row:
    name: str
    ours: float
    raw: float
    unit: str = "ms/step"
    raw_multibody: float | None = None  # chains: the same scene on raw multibody joints

    def line(self) -> str:
        ratio = self.ours / self.raw if self.raw > 0 else math.inf
        fmt = "{:.3f}" if self.unit == "s" else "{:.2f}"
        mb = "–" if self.raw_multibody is None else (
            f"{fmt.format(self.raw_multibody)} ({self.ours / self.raw_multibody:.2f}×)")
        return f"| {self.name} | {fmt.format(self.ours)} | {fmt.format(self.raw)} | {ratio:.2f}× | {mb} |"


def measure(name: str, scene_of: Callable[[], PhysicsScene], raw_of: Callable[[], Callable[[], None]],
            reps: int, steps: int, budget: float,
            raw_mb_of: Callable[[], Callable[[], None]] | None = None, **options: object) -> Row:
    scene = scene_of()
    ours, raw, raw_mb = [], [], []
    for _ in range(reps):  # interleaved: every side sees the same machine load
        w = World(scene, rate=RATE, **options)  # type: ignore[arg-type]
        sides = [lambda w=w: (w.step(), w.poses()), raw_of(), *([raw_mb_of()] if raw_mb_of is not None else [])]
        if CLOCK[0] is time.process_time:  # step by step: a burst of load falls on every side alike
            times = time_interleaved(sides, steps, budget)
        else:
            times = [time_steps(side, steps, budget) for side in sides]
        ours.append(times[0])
        raw.append(times[1])
        if raw_mb_of is not None:
            raw_mb.append(times[2])
    row = Row(name, statistics.median(ours), statistics.median(raw),
              raw_multibody=statistics.median(raw_mb) if raw_mb else None)
    print(row.line(), flush=True)
    return row


def measure_build(n: int, reps: int) -> Row:
    scene = pile_scene(n)
    ours, raw = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        World(scene, rate=RATE)
        ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        raw_pile(n)
        raw.append(time.perf_counter() - t0)
    row = Row(f"world build, {n:,} boxes", statistics.median(ours), statistics.median(raw), "s")
    print(row.line(), flush=True)
    return row


def post_rows(reps: int, steps: int, budget: float) -> None:
    """Chains on a static post (child-node layout), on a kinematic post (KHR: moving at 0.5 m/s; OMI: still, a
    kinematic body without an animation), and 7-joint arms with position drives on a static base, OMI and KHR,
    against raw impulse joints with native motors and raw multibodies with motors (a moving post's multibody
    on a driven root written by hand; a still post's on a fixed one). The moving posts also run with
    ``articulations=False`` (``--joints impulse``), against raw impulse joints."""
    kinds = (("hard", "hard limits"), ("soft", "soft limits"), ("drive-force", "drives: position target, force mode"),
             ("drive-accel", "drives: velocity target, acceleration mode"))
    for family in ("omi", "khr"):
        for kind, label in kinds:
            measure(f"{family.upper()} {CHAINS} chains × {LINKS} links on static posts (child nodes), {label}",
                    lambda k=kind, f=family: post_chain_scene(k, f), lambda k=kind: raw_post_chains(k, multibody=False),
                    reps, steps, budget, lambda k=kind: raw_post_chains(k))
        for kind, label in kinds:
            if family == "khr":
                measure(f"KHR {CHAINS} chains × {LINKS} links on kinematic posts moving at 0.5 m/s, {label}",
                        lambda k=kind: post_chain_scene(k, "khr", MotionType.KINEMATIC),
                        lambda k=kind: raw_post_chains(k, "kinematic", multibody=False), reps, steps, budget,
                        lambda k=kind: raw_post_chains(k, "kinematic"))
            else:
                measure(f"OMI {CHAINS} chains × {LINKS} links on kinematic posts (still: no animation), {label}",
                        lambda k=kind: post_chain_scene(k, "omi", MotionType.KINEMATIC),
                        lambda k=kind: raw_post_chains(k, "still", multibody=False), reps, steps, budget,
                        lambda k=kind: raw_post_chains(k))
        measure(f"{family.upper()} {ARMS} robot arms × 7 joints, position drives, static base",
                lambda f=family: post_chain_scene("arm", f, chains=ARMS, shape="arm"),
                lambda: raw_post_chains("arm", multibody=False, chains=ARMS, shape="arm"), reps, steps, budget,
                lambda: raw_post_chains("arm", chains=ARMS, shape="arm"))
    for kind, label in kinds:
        measure(f"KHR {CHAINS} chains × {LINKS} links on static posts (child nodes), {label}, `--joints impulse`",
                lambda k=kind: post_chain_scene(k, "khr"), lambda k=kind: raw_post_chains(k, multibody=False),
                reps, steps, budget, articulations=False)
    for kind, label in kinds:
        measure(f"KHR {CHAINS} chains × {LINKS} links on kinematic posts moving at 0.5 m/s, {label}, "
                "`--joints impulse`", lambda k=kind: post_chain_scene(k, "khr", MotionType.KINEMATIC),
                lambda k=kind: raw_post_chains(k, "kinematic", multibody=False), reps, steps, budget,
                articulations=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--budget", type=float, default=1.0, help="seconds of stepping per run (≥ 3 steps)")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--big", action="store_true", help="also the 20,000-box pile and its build")
    ap.add_argument("--only", default="",
                    help="comma list of groups: chains,posts,materials,gravity,triggers,vehicles,piles,build; "
                         "impulse: the static-post rows of posts on --joints impulse alone")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time steps by wall clock, or by this process's CPU time (a loaded machine)")
    args = ap.parse_args()
    CLOCK[0] = time.process_time if args.clock == "cpu" else time.perf_counter
    groups = set(args.only.split(",")) if args.only else {"chains", "posts", "materials", "gravity", "triggers",
                                                           "vehicles", "piles", "build"}
    reps, steps, budget = max(3, args.reps), args.steps, args.budget
    print("| scene | gltf-physics | raw native (impulse joints) | ratio | raw multibody (ratio) |\n|-|-|-|-|-|",
          flush=True)
    rows: dict[str, Row] = {}
    if "chains" in groups:
        for kind, label in (("hard", "hard limits"), ("soft", "soft limits"),
                            ("drive-force", "drives: position target, force mode"),
                            ("drive-accel", "drives: velocity target, acceleration mode"),
                            ("aimed", "3-axis angular (aimed) limits")):
            rows[kind] = measure(f"{CHAINS} chains × {LINKS} links, {label}", lambda k=kind: chain_scene(k),
                                 lambda k=kind: raw_chains(k), reps, steps, budget,
                                 lambda k=kind: raw_chains(k, multibody=True))
        if "articulations" in inspect.signature(World).parameters:  # absent in older versions (baseline runs)
            measure(f"{CHAINS} chains × {LINKS} links, hard limits, World(articulations=False)",
                    lambda: chain_scene("hard"), lambda: raw_chains("hard"), reps, steps, budget,
                    lambda: raw_chains("hard", multibody=True), articulations=False)
    if "posts" in groups:
        post_rows(reps, steps, budget)
    if "materials" in groups:
        uniform = measure("1,000-box pile, one material", lambda: pile_scene(1000), lambda: raw_pile(1000),
                          reps, steps, budget)
        mixed = measure("1,000-box pile, three distinct materials", lambda: pile_scene(1000, THREE),
                        lambda: raw_pile(1000, THREE), reps, steps, budget)
        print(f"| three materials / one material (ours) | {mixed.ours:.2f} | {uniform.ours:.2f} | "
              f"{mixed.ours / uniform.ours:.2f}× | – |", flush=True)
        measure("1,000-box pile, three materials, conflicting combine modes",
                lambda: pile_scene(1000, MIXED_MODES), lambda: raw_pile(1000, MIXED_MODES), reps, steps, budget)
        measure("1,000-box pile, three materials, one with static ≠ dynamic friction",
                lambda: pile_scene(1000, STATIC_DYNAMIC), lambda: raw_pile(1000, STATIC_DYNAMIC), reps, steps, budget)
    if "gravity" in groups:
        measure(f"{GRAVITY_BODIES} bodies in point + directional gravity volumes", gravity_scene, raw_gravity,
                reps, steps, budget)
    if "triggers" in groups:
        measure(f"{TRIGGER_BODIES:,} bodies in {ZONES} trigger zones", trigger_scene, raw_triggers,
                reps, steps, budget)
    if "impulse" in groups:  # the static-post rows of ``posts`` on impulse joints alone
        for kind, label in (("hard", "hard limits"), ("soft", "soft limits"),
                            ("drive-force", "drives: position target, force mode"),
                            ("drive-accel", "drives: velocity target, acceleration mode")):
            measure(f"KHR {CHAINS} chains × {LINKS} links on static posts (child nodes), {label}, "
                    "`--joints impulse`", lambda k=kind: post_chain_scene(k, "khr"),
                    lambda k=kind: raw_post_chains(k, multibody=False), reps, steps, budget, articulations=False)
    if "vehicles" in groups:
        measure(f"{VEHICLES} OMI vehicles × 4 ray-cast wheels", vehicle_scene, raw_vehicles, reps, steps, budget)
    if "piles" in groups:
        for n in (100, 1000, 5000, *((20000,) if args.big else ())):
            measure(f"{n:,}-box pile, plain step", lambda n=n: pile_scene(n), lambda n=n: raw_pile(n),
                    reps, steps, budget)
    if "build" in groups:
        for n in (1000, *((20000,) if args.big else (5000,))):
            measure_build(n, reps)


if __name__ == "__main__":
    main()
