"""Contacts of jointed bodies (JOINT-9) on both joint paths, and the degenerate contacts of multibody links
(sim/rapier/link_contacts.py).

A contact whose point no joint coordinate can move along its normal (a ball joint's pivot on the touching
faces, a hinge axis along a floor's normal) has a zero Jacobian on a multibody: Rapier's effective mass
1/(J·M⁻¹·Jᵀ) then turns float round-off into a blow-up. Those contacts are dropped; these tests fail
without that (the chain goes non-finite, the door spins up to hundreds of rad/s within a few steps).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gltf_physics.gltf.document import Document
from gltf_physics.gltf.transforms import quat_to_matrix
from gltf_physics.model import Body, Box, Collider, Motion, MotionType, PhysicsScene
from gltf_physics.model.joints import DriveMode, DriveType, Joint, JointDrive, JointLimit, Pose
from gltf_physics.sim import World

PIN = JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0)
H = 0.25  # half size of the 0.5 m cubes


def _anchor(w: World, k: int) -> float:
    fa, fb = w.engine.joints.frames_world(k)
    return float(np.linalg.norm(np.subtract(fa.translation, fb.translation)))


def _dropped(w: World) -> int:
    return w.engine.hooks.link_contacts.dropped


def corner_chain(enable_collision: bool = True) -> PhysicsScene:
    """The official JointTypes ball-joint chain: a static cube, two 1 kg cubes hanging below it face to face,
    each ball-jointed at a corner of the face it shares with the one above (so the pivot lies on both
    touching faces)."""
    nodes = [{"translation": [0.0, 3.0, 0.0]}, {"translation": [0.0, 2.5, 0.0]}, {"translation": [0.0, 2.0, 0.0]}]
    bodies = [Body(1, Motion(mass=1.0)), Body(2, Motion(mass=1.0))]
    colliders = [Collider(0, Box((0.5, 0.5, 0.5))), Collider(1, Box((0.5, 0.5, 0.5)), body=1),
                 Collider(2, Box((0.5, 0.5, 0.5)), body=2)]
    joints = [Joint(1, Pose((H, H, -H)), None, Pose((H, 3.0 - H, -H)), limits=(PIN,),
                    enable_collision=enable_collision, node=1, connected_node=0),
              Joint(1, Pose((-H, -H, H)), 2, Pose((-H, H, H)), limits=(PIN,), enable_collision=enable_collision)]
    return PhysicsScene(bodies=bodies, colliders=colliders, joints=joints,
                        document=Document(json={"nodes": nodes}, buffers=[]))


def test_ball_chain_pivoted_on_touching_faces_runs_60_s_on_multibodies():
    # Before: non-finite at t ≈ 2.6 s (the official sample); now 60 s at 60 Hz, finite, both joints on
    # multibody links, both pivots exact within 1 mm at every step, and the pivot contacts were dropped.
    w = World(corner_chain())
    assert all(b.multibody is not None for b in w.engine.joints.built.values())
    worst = 0.0
    for _ in range(3600):
        w.step()
        worst = max(worst, _anchor(w, 0), _anchor(w, 1))
    _, translations, _ = w.poses()
    assert np.isfinite(translations).all()
    assert worst < 1e-3
    assert _dropped(w) > 0


def test_ball_chain_pivoted_on_touching_faces_runs_on_impulse_joints():
    # The impulse path never saw the degenerate row; it runs 60 s finite with pivots within 1 cm.
    w = World(corner_chain(), articulations=False)
    worst = 0.0
    for _ in range(3600):
        w.step()
        worst = max(worst, _anchor(w, 0), _anchor(w, 1))
    assert worst < 1e-2


def _axis_angle(axis: tuple[float, float, float], angle: float) -> tuple[float, float, float, float]:
    s = math.sin(angle / 2)
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2))


@pytest.mark.parametrize("tilt", [0.3, 0.7])
def test_door_hinged_on_a_tilted_floor_keeps_its_drive_speed(tilt):
    # A 1 × 2 × 0.1 m, 20 kg door hinged to the world about its own Y (an edge), standing on a floor, driven
    # at 1 rad/s (force mode, damping 50 N·m·s), the whole scene and gravity turned by ``tilt`` rad about Z:
    # every floor contact has its normal along the hinge axis, so no coordinate moves it (a Jacobian of
    # float32 round-off). Before: 10³ rad/s within 3 steps. Now as in the untilted scene, where that Jacobian
    # is exactly 0 and Rapier itself skips the row (the hinge carries the door): |ω| ≤ 1 rad/s over 3 s,
    # ending at the drive's 1 rad/s about the hinge within 1 %.
    q = _axis_angle((0.0, 0.0, 1.0), tilt)
    rot = quat_to_matrix(q)
    floor_at, door_at, hinge_at = rot @ (0.0, -0.5, 0.0), rot @ (0.5, 1.0, 0.0), rot @ (0.0, 1.0, 0.0)
    nodes = [{"translation": floor_at.tolist(), "rotation": list(q)},
             {"translation": door_at.tolist(), "rotation": list(q)}]
    drive = JointDrive(DriveType.ANGULAR, DriveMode.FORCE, 1, velocity_target=1.0, damping=50.0)
    joint = Joint(None, Pose(tuple(hinge_at.tolist()), q), 1, Pose((-0.5, 0.0, 0.0)),
                  limits=(PIN, JointLimit(angular_axes=(0, 2), min=0.0, max=0.0)), drives=(drive,))
    scene = PhysicsScene(bodies=[Body(1, Motion(mass=20.0))],
                         colliders=[Collider(0, Box((10.0, 1.0, 10.0))), Collider(1, Box((1.0, 2.0, 0.1)), body=1)],
                         joints=[joint], document=Document(json={"nodes": nodes}, buffers=[]))
    w = World(scene, gravity=tuple((rot @ (0.0, -9.81, 0.0)).tolist()))
    assert w.engine.joints.built[0].multibody is not None
    fastest = 0.0
    for _ in range(180):
        w.step()
        fastest = max(fastest, float(np.linalg.norm(w.engine.bodies[w.engine.handle_of[1]].angvel.to_tuple())))
    assert fastest <= 1.0 + 1e-3
    omega = np.array(w.engine.bodies[w.engine.handle_of[1]].angvel.to_tuple())
    assert float(omega @ rot[:, 1]) == pytest.approx(1.0, rel=0.01)
    assert _dropped(w) > 0


def slider_pair(enable_collision: bool) -> PhysicsScene:
    """A static 1 m box (a post, its own static motion) and a 1 kg 0.5 m box 1 m above its top, jointed by a
    slider along world Y (linear Y free within ±5 m, the rest locked): gravity pulls the box down onto the
    post, or through it when the pair does not collide."""
    nodes = [{"translation": [0.0, 0.0, 0.0]}, {"translation": [0.0, 1.75, 0.0]}, {"translation": [0.0, 0.0, 0.0]}]
    limits = (JointLimit(linear_axes=(0, 2), min=0.0, max=0.0), JointLimit(linear_axes=(1,), min=-5.0, max=5.0),
              JointLimit(angular_axes=(0, 1, 2), min=0.0, max=0.0))
    joint = Joint(1, Pose(), 0, Pose((0.0, 1.75, 0.0)), limits=limits, enable_collision=enable_collision,
                  node=2, connected_node=0)
    return PhysicsScene(bodies=[Body(0, Motion(type=MotionType.STATIC)), Body(1, Motion(mass=1.0))],
                        colliders=[Collider(0, Box((1.0, 1.0, 1.0)), body=0),
                                   Collider(1, Box((0.5, 0.5, 0.5)), body=1)],
                        joints=[joint], document=Document(json={"nodes": nodes}, buffers=[]))


@pytest.mark.parametrize("articulations", [True, False])
@pytest.mark.parametrize("enable_collision", [True, False])
def test_jointed_pair_collides_exactly_when_enable_collision(articulations, enable_collision):
    # JOINT-9: with enableCollision the box lands on the post (centre at 0.5 + 0.25 = 0.75 m, ±1 cm) after 2 s;
    # without it it falls through the post to the slider's limit (1.75 − 5 = −3.25 m, ±1 cm). Both paths.
    w = World(slider_pair(enable_collision), articulations=articulations)
    assert (w.engine.joints.built[0].multibody is not None) == articulations
    w.run(2.0)
    t, _ = w.pose(1)
    assert t[1] == pytest.approx(0.75 if enable_collision else -3.25, abs=0.01)
