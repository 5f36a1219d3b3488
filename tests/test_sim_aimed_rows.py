"""The per-step pass of total-rotation (aimed) limits (sim/rapier/joints/aimed.py ``_AimedBatch``).

Chains of boxes on ball joints with a total-rotation limit (angular [0, 1, 2], max 0.5) swing down from the
horizontal, so some rows sit at their bound, some far inside, and some cross it during the run.
"""

from __future__ import annotations

import numpy as np

from gltf_physics.gltf.document import Document
from gltf_physics.model import Body, Box, Collider, Motion, PhysicsScene
from gltf_physics.model.joints import Joint, JointLimit, Pose
from gltf_physics.sim import World
from gltf_physics.sim.rapier.joints import aimed as joint_module

CHAINS, LINKS = 3, 6
LIMITS = (JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0), JointLimit(angular_axes=(0, 1, 2), min=0.0, max=0.5))


def chains() -> PhysicsScene:
    nodes = [{"translation": [0.5 * (i + 0.5), 0.0, 1.0 * c]} for c in range(CHAINS) for i in range(LINKS)]
    joints = []
    for c in range(CHAINS):
        for i in range(LINKS):
            n = c * LINKS + i
            a, fa = (None, Pose((0.0, 0.0, 1.0 * c))) if i == 0 else (n - 1, Pose((0.25, 0.0, 0.0)))
            joints.append(Joint(a, fa, n, Pose((-0.25, 0.0, 0.0)), limits=LIMITS))
    return PhysicsScene(bodies=[Body(n, Motion(mass=1.0)) for n in range(len(nodes))],
                        colliders=[Collider(n, Box((0.5, 0.1, 0.1)), body=n) for n in range(len(nodes))],
                        joints=joints, document=Document(json={"nodes": nodes}, buffers=[]))


def run(world: World, steps: int) -> list[np.ndarray]:
    out = []
    for _ in range(steps):
        world.step()
        out.append(world.poses()[2].copy())
    return out


def test_rows_are_aimed_in_bulk() -> None:
    w = World(chains(), articulations=False)
    w.step()
    assert w.engine.joints._bulk is not None
    assert len(w.engine.joints._bulk.items) == CHAINS * LINKS


def test_snapshot_restore_replays_aimed_rows_exactly() -> None:
    # The batch's bookkeeping (frames as written, last relative rotations) goes into the snapshot: a run
    # continued from a restored snapshot repeats the original bit for bit.
    w = World(chains(), articulations=False)
    run(w, 20)
    snap = w.snapshot()
    first = run(w, 40)
    w.restore(snap)
    second = run(w, 40)
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


def test_joints_hold_the_aimed_frames() -> None:
    # What Rapier holds after the frame setters is every row's aimed frame pair (f32), with the model's anchors.
    w = World(chains(), articulations=False)
    run(w, 10)
    batch = w.engine.joints._bulk
    for i, (b, a) in enumerate(batch.items):
        data = w.engine.impulse_joints.get(a.handle).data
        for frame, rotation, model in ((data.local_frame1, batch.frame1[i], b.a.frame),
                                       (data.local_frame2, batch.frame2[i], b.b.frame)):
            assert np.allclose(frame.rotation.to_tuple(), rotation, atol=1e-7)
            assert np.allclose(frame.translation.to_tuple(), model.translation, atol=1e-7)


def test_aiming_keeps_later_edits_of_the_joints() -> None:
    # Aiming writes the two frames and nothing else: a value changed on the joint after the rows were first
    # aimed (here each row's user data and contact flag) survives every later turn of its frames.
    w = World(chains(), articulations=False)
    run(w, 1)
    batch = w.engine.joints._bulk
    views = [w.engine.impulse_joints.get(a.handle).data for _, a in batch.items]
    for k, data in enumerate(views):
        data.user_data = 1000 + k
        data.contacts_enabled = True
    before = batch.frame1.copy()
    run(w, 30)
    turned = np.any(batch.frame1 != before, axis=1)
    assert turned.sum() >= CHAINS  # rows were turned again after the edit (11 of the 18 here)
    assert [data.user_data for data in views] == [1000 + k for k in range(CHAINS * LINKS)]
    assert all(data.contacts_enabled for data in views)


def test_only_rows_near_their_bound_are_turned(monkeypatch) -> None:
    # Hanging chains: the first step turns every row; later steps keep the rows far inside their bound.
    turned: list[int] = []
    near = joint_module._AimedBatch._near_bound

    def spy(self, *args):
        t = near(self, *args)
        turned.append(int(t.sum()))
        return t

    monkeypatch.setattr(joint_module._AimedBatch, "_near_bound", spy)
    run(World(chains(), articulations=False), 30)
    assert turned[0] == CHAINS * LINKS
    assert min(turned[1:]) < CHAINS * LINKS
