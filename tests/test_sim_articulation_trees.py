"""Which joint structures go on multibodies, and from which side (``articulations.plan_trees``).

A tree goes on multibody links whatever side of each joint the file puts the joint node on and whatever it
hangs from (the world, a static body or a moving kinematic one); the runtime builds a joint given child-first
from its other side (the exact swap). Scenes go through a glTF document (``write_scene`` → ``read_scene``), as
a file would. Links: 1 kg boxes 0.5 × 0.1 × 0.1 m along X, hinged about Z at their ends.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gltf_physics.dialects import read_scene, write_scene
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.transforms import quat_multiply, quat_to_matrix
from gltf_physics.model import Body, Box, Collider, Motion, MotionType, PhysicsScene
from gltf_physics.model.joints import DriveMode, DriveType, Joint, JointDrive, JointLimit, Pose
from gltf_physics.sim import World

L = 0.5
HINGE_Z = (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0), JointLimit(angular_axes=(0, 1), min=0.0, max=0.0))
TARGETS = (0.4, -0.3, 0.5)


def _drive(target: float) -> JointDrive:
    return JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 2, position_target=target, stiffness=300.0, damping=30.0)


def _read(nodes: list[dict], scene: PhysicsScene, family: str) -> PhysicsScene:
    children = {c for n in nodes for c in n.get("children", ())}
    doc = Document(json={"asset": {"version": "2.0"}, "scenes": [{"nodes": [i for i in range(len(nodes))
                                                                           if i not in children]}],
                         "scene": 0, "nodes": nodes}, buffers=[])
    scene.document = doc
    out, _ = write_scene(scene, doc, family)  # type: ignore[arg-type]
    return read_scene(out)


def parent_first(family: str) -> PhysicsScene:
    """Three links, each joint on the parent side (A = the previous link or the world, B = the link)."""
    nodes = [{"translation": [L * (i + 0.5), 0.0, 0.0]} for i in range(3)]
    joints = [Joint(None if i == 0 else i - 1, Pose() if i == 0 else Pose((L / 2, 0.0, 0.0)), i,
                    Pose((-L / 2, 0.0, 0.0)), limits=HINGE_Z, drives=(_drive(TARGETS[i]),)) for i in range(3)]
    return _read(nodes, PhysicsScene(bodies=[Body(i, Motion(mass=1.0)) for i in range(3)],
                                     colliders=[Collider(i, Box((L, 0.1, 0.1)), body=i) for i in range(3)],
                                     joints=joints), family)


def child_nodes(family: str, post: MotionType | None = MotionType.STATIC) -> PhysicsScene:
    """The same arm as OMI files commonly write it: a post (a static body, or ``post=None``: a static collider
    without motion) at the origin, each link with a joint child node at its −X end (side A: the link) whose
    ``connectedNode`` is an attachment child at the +X end of the previous link (side B; the post's own
    attachment for the first). Drive targets are in this joint's terms: the negated angles."""
    nodes: list[dict] = [{"translation": [0.0, 0.0, 0.0], "children": [1]}, {"translation": [0.0, 0.0, 0.0]}]
    bodies = [] if post is None else [Body(0, Motion(type=post))]
    colliders = [Collider(0, Box((0.05, 0.05, 0.05)), body=None if post is None else 0)]
    joints = []
    attach, prev = 1, (None if post is None else 0)
    for i in range(3):
        n = len(nodes)
        nodes += [{"translation": [L * (i + 0.5), 0.0, 0.0], "children": [n + 1, n + 2]},
                  {"translation": [-L / 2, 0.0, 0.0]}, {"translation": [L / 2, 0.0, 0.0]}]
        bodies.append(Body(n, Motion(mass=1.0)))
        colliders.append(Collider(n, Box((L, 0.1, 0.1)), body=n))
        frame_b = Pose() if i == 0 else Pose((L / 2, 0.0, 0.0))
        joints.append(Joint(n, Pose((-L / 2, 0.0, 0.0)), prev, frame_b, limits=HINGE_Z,
                            drives=(_drive(-TARGETS[i]),), node=n + 1, connected_node=attach))
        attach, prev = n + 2, n
    return _read(nodes, PhysicsScene(bodies=bodies, colliders=colliders, joints=joints), family)


def _twist(w: World, k: int) -> float:
    fa, fb = w.engine.joints.frames_world(k)
    x, y, z, q_w = fa.rotation
    q = quat_multiply((-x, -y, -z, q_w), fb.rotation)
    return 2.0 * math.atan2(q[2], q[3])


def _tips(w: World, links: list[int]) -> np.ndarray:
    return np.array([w.pose(n)[0] for n in links])


@pytest.mark.parametrize(("family", "post"), [("omi", MotionType.STATIC), ("khr", MotionType.STATIC), ("khr", None)])
def test_child_node_layout_on_a_static_post_is_articulated_and_runs_like_parent_first(family, post):
    # Before: the first joint went on a multibody, the next ones could not (side B was already a child link),
    # so the whole arm stayed on impulse joints with Python springs. Now every joint is a multibody link (the
    # three built from their other side), each drive reaches its target within 0.5° after 2 s, and the links
    # are where the parent-first arm puts them within 1 mm (no gravity: the drives alone).
    ref = World(parent_first(family), gravity=(0.0, 0.0, 0.0))
    w = World(child_nodes(family, post), gravity=(0.0, 0.0, 0.0))
    built = w.engine.joints.built
    assert all(b.multibody is not None for b in built.values()) and len(built) == 3
    assert w.engine.joints.flipped == {0, 1, 2}
    ref.run(2.0)
    w.run(2.0)
    for k in range(3):
        assert abs(_twist(w, k) - TARGETS[k]) < math.radians(0.5)  # built flipped: the file's −target
    links = sorted(b.node for b in w.scene.bodies if b.motion.type is MotionType.DYNAMIC)
    assert float(np.abs(_tips(w, links) - _tips(ref, [0, 1, 2])).max()) < 1e-3


def test_a_drive_set_at_run_time_on_a_flipped_link_uses_the_files_terms():
    # World.set on the middle joint's position target (file terms: −0.8) moves that joint to +0.8 seen from
    # the parent, within 0.5° after 2 more seconds.
    w = World(child_nodes("khr"), gravity=(0.0, 0.0, 0.0))
    w.run(0.5)
    w.engine.joints.set(1, ("drives", 0, "position_target"), -0.8)
    w.run(2.0)
    assert abs(_twist(w, 1) - 0.8) < math.radians(0.5)


def _free_chain(close_loop: bool) -> PhysicsScene:
    nodes = [{"translation": [L * (i + 0.5), 5.0, 0.0]} for i in range(3)]
    joints = [Joint(i + 1, Pose((-L / 2, 0.0, 0.0)), i, Pose((L / 2, 0.0, 0.0)), limits=HINGE_Z) for i in range(2)]
    if close_loop:  # a third joint from the last link back to the first: a loop
        joints.append(Joint(0, Pose((-L / 2, 0.0, 0.0)), 2, Pose((L / 2 - 2 * L, 0.0, 0.0)), limits=HINGE_Z[:1]))
    return PhysicsScene(bodies=[Body(i, Motion(mass=1.0)) for i in range(3)],
                        colliders=[Collider(i, Box((L, 0.1, 0.1)), body=i) for i in range(3)], joints=joints,
                        document=Document(json={"nodes": nodes}, buffers=[]))


def test_a_free_child_first_chain_is_one_multibody_and_a_loop_stays_on_impulse_joints():
    # A chain hanging from nothing (joints child-first) roots at its last link: both joints on one
    # multibody, none flipped. Closing it into a loop keeps all three joints on impulse joints.
    w = World(_free_chain(False))
    assert [b.multibody is not None for b in w.engine.joints.built.values()] == [True, True]
    assert w.engine.joints.flipped == set()
    loop = World(_free_chain(True))
    assert [b.multibody is not None for b in loop.engine.joints.built.values()] == [False, False, False]


def test_an_arm_on_a_moving_kinematic_base_is_articulated_and_moves_with_it():
    # A kinematic base moving at 1 m/s along X roots the arm at a driven root (driven_roots.py): every joint is a
    # multibody link (built from its other side), each drive holds its target within 0.01° after 2 s, and every
    # link is where the same arm on a static post puts it plus the base's 2 m, within 2 mm (measured 1.8 mm: the
    # arm is jerked by the base's sudden start). Before, the arm stayed on impulse joints with Python springs.
    scene = child_nodes("khr", MotionType.KINEMATIC)
    base = next(b for b in scene.bodies if b.motion.type is MotionType.KINEMATIC)
    scene.bodies[scene.bodies.index(base)] = Body(base.node, Motion(type=MotionType.KINEMATIC,
                                                                   linear_velocity=(1.0, 0.0, 0.0)))
    w = World(scene, gravity=(0.0, 0.0, 0.0))
    ref = World(parent_first("khr"), gravity=(0.0, 0.0, 0.0))
    assert [b.multibody is not None for b in w.engine.joints.built.values()] == [True, True, True]
    assert w.engine.joints.flipped == {0, 1, 2} and len(w.engine.joints.driven.pairs) == 1
    w.run(2.0)
    ref.run(2.0)
    for k in range(3):
        assert abs(_twist(w, k) - TARGETS[k]) < math.radians(0.01)
    links = sorted(b.node for b in scene.bodies if b.motion.type is MotionType.DYNAMIC)
    moved = _tips(w, links) - _tips(ref, [0, 1, 2]) - np.array([2.0, 0.0, 0.0])
    assert float(np.abs(moved).max()) < 2e-3


def _ceiling(chains: int, collider: bool, enable_collision: bool = False) -> PhysicsScene:
    """``chains`` pendulums of 2 links hanging along −Y from one static 1 m box at the origin (ball joints at
    its centre, so each first link starts half inside the box)."""
    nodes: list[dict] = [{"translation": [0.0, 0.0, 0.0]}]
    bodies, colliders, joints = [Body(0, Motion(type=MotionType.STATIC))], [], []
    if collider:
        colliders.append(Collider(0, Box((1.0, 1.0, 1.0)), body=0))
    for c in range(chains):
        prev = 0
        for i in range(2):
            n = len(nodes)
            nodes.append({"translation": [0.3 * c, -L * (i + 0.5), 0.0]})
            bodies.append(Body(n, Motion(mass=1.0)))
            colliders.append(Collider(n, Box((0.1, L, 0.1)), body=n))
            joints.append(Joint(prev, Pose((0.3 * c, 0.0, 0.0)) if i == 0 else Pose((0.0, -L / 2, 0.0)), n,
                                Pose((0.0, L / 2, 0.0)), limits=HINGE_Z[:1], enable_collision=enable_collision))
            prev = n
    return PhysicsScene(bodies=bodies, colliders=colliders, joints=joints,
                        document=Document(json={"nodes": nodes}, buffers=[]))


def test_chains_sharing_a_static_body_are_separate_multibodies_and_keep_joint_9():
    # Three 2-link chains on one static box: three multibodies (one shared multibody is dense in all their
    # degrees of freedom: 40 chains × 10 links took 4.3 s a step). The first links, inside the box, are not
    # pushed by it (enableCollision false): after 1 s every link is where it is in the same scene without the
    # box's collider (1e-6 m). With enableCollision true the box pushes them, an overlap counting at most as
    # deep as 0.05 rad of joint motion (link_contacts.MAX_TURN; before: non-finite at 0.15 s): finite after
    # 1 s, every joint within 1 mm.
    w = World(_ceiling(3, True))
    roots = {w.engine.multibody_joints.get(b.multibody)[0].root_handle for b in w.engine.joints.built.values()}
    assert len(roots) == 3
    bare = World(_ceiling(3, False))
    pushed = World(_ceiling(3, True, enable_collision=True))
    for x in (w, bare, pushed):
        x.run(1.0)
    links = [b.node for b in w.scene.bodies if b.motion.type is MotionType.DYNAMIC]
    assert float(np.abs(_tips(w, links) - _tips(bare, links)).max()) < 1e-6
    assert np.isfinite(_tips(pushed, links)).all()
    for k in pushed.engine.joints.built:
        fa, fb = pushed.engine.joints.frames_world(k)
        assert float(np.linalg.norm(np.subtract(fa.translation, fb.translation))) < 1e-3
    assert pushed.engine.hooks.link_contacts.clamped > 0


def _turned_ball(free: bool) -> tuple[PhysicsScene, list[dict]]:
    """A 1 kg box hanging from another by a ball joint (``free``: no limit at all) whose frames are turned
    against each other (frame B 0.7 rad about Y in a body turned 1 rad about (1, 2, 3)); the first box on a
    ball joint to the world."""
    def turn(axis: tuple[float, ...], angle: float) -> tuple[float, float, float, float]:
        a = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
        return (*(a * math.sin(angle / 2)).tolist(), math.cos(angle / 2))

    r0, r1 = turn((0, 0, 1), 0.3), turn((1, 2, 3), 1.0)
    t0, t1, anchor = np.array([0.0, 2.0, 0.0]), np.array([0.4, 1.2, 0.1]), np.array([0.2, 1.6, 0.05])
    nodes = [{"translation": t0.tolist(), "rotation": list(r0)}, {"translation": t1.tolist(), "rotation": list(r1)}]
    fa = quat_to_matrix(r0).T @ (anchor - t0)
    fb = quat_to_matrix(r1).T @ (anchor - t1)
    ball = (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0),)
    joints = [Joint(None, Pose(tuple(t0)), 0, Pose(), limits=ball),
              Joint(0, Pose(tuple(fa)), 1, Pose(tuple(fb), turn((0, 1, 0), 0.7)), limits=() if free else ball)]
    return PhysicsScene(bodies=[Body(i, Motion(mass=1.0)) for i in range(2)],
                        colliders=[Collider(i, Box((0.2, 0.2, 0.2)), body=i) for i in range(2)], joints=joints,
                        document=Document(json={"nodes": nodes}, buffers=[])), nodes


@pytest.mark.parametrize("free", [False, True], ids=["ball", "free"])
def test_a_ball_joint_turned_at_the_start_is_a_link_placed_where_the_file_puts_it(free: bool) -> None:
    # A ball (or free) joint whose frames do not line up at the start goes on a multibody link turned by its
    # rotation vector (before: impulse joints, since a new link's ball starts unturned): the bodies stay where
    # the file puts them (1e-6), and after 1 s swinging under gravity the lower box is where impulse joints put
    # it within 1 mm (measured 0.44 mm; 7e-7 m for the free joint).
    scene, nodes = _turned_ball(free)
    w = World(scene)
    assert [b.multibody is not None for b in w.engine.joints.built.values()] == [True, True]
    for n, node in enumerate(nodes):
        t, q = w.pose(n)
        np.testing.assert_allclose(t, node["translation"], atol=1e-6)
        assert abs(abs(float(np.dot(q, node["rotation"]))) - 1.0) < 1e-6
    ref = World(_turned_ball(free)[0], articulations=False)
    w.run(1.0)
    ref.run(1.0)
    assert float(np.abs(w.pose(1)[0] - ref.pose(1)[0]).max()) < 1e-3
