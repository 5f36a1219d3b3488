"""Bodies and static colliders animated in the file follow the animation (docs/semantics.md, docs/semantics.md:
"File animation of a body overrides simulation"; static colliders "follow animated transforms").

Every expected number is worked out by hand in the comment beside it. Rapier poses are float32.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from gltf_physics.api import load
from gltf_physics.dialects import read_scene
from gltf_physics.gltf.animation import node_tracks, sample_local, slerp
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.uris import encode_data_uri
from gltf_physics.model import Body, Box, Collider, Motion, MotionType, PhysicsMaterial, PhysicsScene, Sphere
from gltf_physics.sim import World
from gltf_physics.sim.trace import trace_text

OMI = "/nodes/{}/extensions/OMI_physics_body/motion"
KHR = "/nodes/{}/extensions/KHR_physics_rigid_bodies/motion"
TYPES = {1: "SCALAR", 3: "VEC3", 4: "VEC4"}


def animated_json(nodes: list[dict], channels: list[tuple]) -> tuple[dict, bytes]:
    """glTF JSON + buffer bytes: one animation, one sampler per channel (node, path, times, values, interp).

    ``values`` rows are written as given (CUBICSPLINE: in-tangent, value, out-tangent per key). A channel may
    carry a sixth item: the output accessor count to declare instead of the real one (malformed files).
    """
    blob, views, accessors, samplers, chans = b"", [], [], [], []

    def accessor(rows: np.ndarray, count: int | None = None) -> int:
        nonlocal blob
        data = np.asarray(rows, dtype="<f4")
        width = 1 if data.ndim == 1 else data.shape[1]
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": data.nbytes})
        blob += data.tobytes()
        accessors.append({"bufferView": len(views) - 1, "componentType": 5126,
                          "count": len(data) if count is None else count, "type": TYPES[width]})
        return len(accessors) - 1

    for node, path, times, values, interp, *count in channels:
        inp = accessor(np.asarray(times))
        out = accessor(np.asarray(values), count[0] if count else None)
        samplers.append({"input": inp, "output": out, "interpolation": interp})
        chans.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": path}})
    gltf = {"asset": {"version": "2.0"}, "nodes": nodes,
            "buffers": [{"byteLength": len(blob), "uri": encode_data_uri(blob)}],
            "bufferViews": views, "accessors": accessors,
            "animations": [{"channels": chans, "samplers": samplers}]}
    return gltf, blob


def scene(nodes, channels, bodies=(), colliders=(), materials=()) -> PhysicsScene:
    gltf, blob = animated_json(nodes, channels)
    return PhysicsScene(bodies=list(bodies), colliders=list(colliders), materials=list(materials),
                        document=Document(json=gltf, buffers=[blob]))


def kinematic_box(nodes, channels) -> PhysicsScene:
    return scene(nodes, channels, [Body(0, Motion(type=MotionType.KINEMATIC), pointer=OMI.format(0))],
                 [Collider(0, Box((1.0, 1.0, 1.0)), body=0)])


X_0_TO_2 = (0, "translation", [0.0, 1.0], [[0, 0, 0], [2, 0, 0]], "LINEAR")


def yaw(deg: float) -> list[float]:
    h = math.radians(deg) / 2
    return [0.0, math.sin(h), 0.0, math.cos(h)]


# -- runtime ---------------------------------------------------------------------------------------------


def test_linear_translation_kinematic_omi_box():
    # node rest x = 5, but the animation wins from t = 0: x(t) = 2t on [0, 1], then holds 2
    w = World(kinematic_box([{"translation": [5, 0, 0]}], [X_0_TO_2]))
    assert w.pose(0)[0][0] == 0.0
    w.run(0.5)
    t, _ = w.pose(0)
    assert t[0] == pytest.approx(1.0, abs=1e-4) and t[1] == 0.0  # no gravity on a kinematic body
    w.run(0.5)
    assert w.pose(0)[0][0] == pytest.approx(2.0, abs=1e-4)
    w.run(1.0)
    assert w.pose(0)[0][0] == pytest.approx(2.0, abs=1e-4)  # held after the last key, no loop


def test_animated_dynamic_khr_body_is_driven_not_simulated():
    # a dynamic body under animation: no fall; x = 2 · 0.25 = 0.5 at t = 0.25
    s = scene([{}], [X_0_TO_2], [Body(0, Motion(), pointer=KHR.format(0))], [Collider(0, Sphere(0.5), body=0)])
    w = World(s)
    w.run(0.25)
    t, _ = w.pose(0)
    assert t[0] == pytest.approx(0.5, abs=1e-4) and t[1] == 0.0


@pytest.mark.parametrize(("interp", "keys", "degrees", "at", "expect"), [
    ("LINEAR", [0.0, 1.0], [0, 90], 0.25, 22.5),  # slerp: 90° · 0.25
    ("LINEAR", [0.0, 1.0], [0, 90], 0.5, 45.0),
    ("STEP", [0.0, 0.5, 1.0], [0, 60, 120], 0.25, 0.0),  # STEP holds the key before t
    ("STEP", [0.0, 0.5, 1.0], [0, 60, 120], 0.75, 60.0),
])
def test_rotation_animation_angle_at_step_time(interp, keys, degrees, at, expect):
    w = World(kinematic_box([{}], [(0, "rotation", keys, [yaw(d) for d in degrees], interp)]))
    w.run(at)
    q = w.pose(0)[1]
    assert q == pytest.approx(yaw(expect), abs=2e-6)


def test_dynamic_box_rides_animated_platform():
    # platform moves +x at 1 m/s (10 m over 10 s); the box starts with the platform's speed so friction
    # (0.8) only has to keep it there: after 1 s both advanced 1 m, the box within a few cm
    mat = PhysicsMaterial(0.8, 0.8)
    s = scene(
        [{}, {"translation": [0, 0.35, 0]}],  # platform top at y = 0.1; box half-height 0.25
        [(0, "translation", [0.0, 10.0], [[0, 0, 0], [10, 0, 0]], "LINEAR")],
        [Body(0, Motion(type=MotionType.KINEMATIC), pointer=OMI.format(0)),
         Body(1, Motion(mass=1.0, linear_velocity=(1.0, 0.0, 0.0)), pointer=KHR.format(1))],
        [Collider(0, Box((4.0, 0.2, 4.0)), body=0, material=0), Collider(1, Box((0.5, 0.5, 0.5)), body=1,
                                                                         material=0)],
        [mat],
    )
    w = World(s)
    w.run(1.0)
    assert w.pose(0)[0][0] == pytest.approx(1.0, abs=1e-4)
    box = w.pose(1)[0]
    assert box[0] == pytest.approx(1.0, abs=0.03)
    assert box[1] == pytest.approx(0.35, abs=0.01)  # still on top


def test_platform_accelerating_from_rest_carries_box():
    # the same platform, box at rest: friction 0.8 brings it to 1 m/s within v/(μg) = 0.13 s, slipping
    # v²/(2μg) = 0.064 m; after 1 s it advanced 1 − 0.064 = 0.936 m (within a few cm)
    s = scene(
        [{}, {"translation": [0, 0.35, 0]}],
        [(0, "translation", [0.0, 10.0], [[0, 0, 0], [10, 0, 0]], "LINEAR")],
        [Body(0, Motion(type=MotionType.KINEMATIC), pointer=OMI.format(0)),
         Body(1, Motion(mass=1.0), pointer=KHR.format(1))],
        [Collider(0, Box((4.0, 0.2, 4.0)), body=0, material=0), Collider(1, Box((0.5, 0.5, 0.5)), body=1,
                                                                         material=0)],
        [PhysicsMaterial(0.8, 0.8)],
    )
    w = World(s)
    w.run(1.0)
    assert w.pose(1)[0][0] == pytest.approx(0.936, abs=0.03)


def test_animated_static_collider_pushes_sphere():
    # a static wall (no motion ancestor) under an animated node sweeps x from −1 to 1 in 1 s (2 m/s);
    # its front face ends at 1 + 0.1 = 1.1, so the sphere (r 0.25, no gravity) is pushed to x ≥ 1.35
    s = scene(
        [{"children": [1]}, {}, {"translation": [0.5, 0, 0]}],
        [(0, "translation", [0.0, 1.0], [[-1, 0, 0], [1, 0, 0]], "LINEAR")],
        [Body(2, Motion(mass=1.0), pointer=KHR.format(2))],
        [Collider(1, Box((0.2, 1.0, 2.0))), Collider(2, Sphere(0.25), body=2)],
    )
    w = World(s, gravity=(0.0, 0.0, 0.0))
    assert list(w.nodes) == [2]  # the wall stays static in the model: not a traced body
    w.run(1.0)
    assert w.pose(2)[0][0] >= 1.35 - 0.01


def test_trace_lists_animated_bodies(tmp_path):
    # OMI file: 0 kinematic + animated, 2 static motion + animated (so it moves), 4 static, not animated
    nodes = [
        {"name": "Mover", "children": [1], "extensions": {"OMI_physics_body": {"motion": {"type": "kinematic"}}}},
        {"extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
        {"name": "Lift", "children": [3], "extensions": {"OMI_physics_body": {"motion": {"type": "static"}}}},
        {"extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
        {"name": "Still", "children": [5], "translation": [0, -5, 0],
         "extensions": {"OMI_physics_body": {"motion": {"type": "static"}}}},
        {"extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
    ]
    gltf, _ = animated_json(nodes, [X_0_TO_2, (2, "translation", [0.0, 1.0], [[0, 3, 0], [0, 4, 0]], "LINEAR")])
    gltf["extensionsUsed"] = ["OMI_physics_body", "OMI_physics_shape"]
    gltf["extensions"] = {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}}
    gltf["scenes"], gltf["scene"] = [{"nodes": [0, 2, 4]}], 0
    path = tmp_path / "animated.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    w = World(read_scene(load(path)), record=True)
    w.run(1.0)
    lines = trace_text(w.recording).splitlines()
    assert lines[1:3] == ["0.0,0,Mover,0,0,0,0,0,0,1", "0.0,2,Lift,0,3,0,0,0,0,1"]
    assert lines[-2:] == ["1.0,0,Mover,2,0,0,0,0,0,1", "1.0,2,Lift,0,4,0,0,0,0,1"]


def test_malformed_channels_are_skipped_not_fatal():
    # channel 0: output declares 1 key for 2 times (count too small); channel 1: sampler index 7
    chans = [(0, "translation", [0.0, 1.0], [[0, 0, 0]], "LINEAR"), X_0_TO_2]
    s = kinematic_box([{"translation": [0.5, 0, 0]}], chans)
    s.document.json["animations"][0]["channels"][1]["sampler"] = 7
    w = World(s)
    w.run(0.5)
    assert w.pose(0)[0][0] == pytest.approx(0.5, abs=1e-6)  # unanimated: rests where the file put it
    assert w.engine.animation is None  # nothing usable: the scene steps as an unanimated one


def test_malformed_channel_beside_a_good_one():
    # channel 0 (count too small) is skipped and reported; channel 1 still drives the box: x = 1 at t = 0.5
    chans = [(0, "rotation", [0.0, 1.0], [yaw(0), yaw(90)], "LINEAR", 1), X_0_TO_2]
    w = World(kinematic_box([{}], chans))
    assert w.engine.animation.skipped[0].startswith("/animations/0/channels/0: output must hold 2 4-vectors")
    w.run(0.5)
    t, q = w.pose(0)
    assert t[0] == pytest.approx(1.0, abs=1e-4) and list(q) == [0, 0, 0, 1]


def test_scene_without_animation_has_no_schedule():
    s = PhysicsScene(bodies=[Body(0, Motion(type=MotionType.KINEMATIC), pointer=OMI.format(0))],
                     colliders=[Collider(0, Sphere(0.5), body=0)],
                     document=Document(json={"nodes": [{"translation": [1, 0, 0]}]}))
    w = World(s)
    w.run(0.5)
    assert w.engine.animation is None and w.pose(0)[0][0] == 1.0


# -- sampling --------------------------------------------------------------------------------------------


def doc_of(channels, nodes=None) -> Document:
    gltf, blob = animated_json(nodes or [{}], channels)
    return Document(json=gltf, buffers=[blob])


def test_cubicspline_translation_matches_hermite_by_hand():
    # keys t = 0, 2 (span 2): v0 = 0, out-tangent b0 = 1, in-tangent a1 = 3, v1 = 4 (x components)
    # p(s) = h00 v0 + span h10 b0 + h01 v1 + span h11 a1
    # s = 0.5: h = (0.5, 0.125, 0.5, −0.125) → 0 + 0.25 + 2 − 0.75 = 1.5
    # s = 0.25: h = (0.84375, 0.140625, 0.15625, −0.046875) → 0.28125 + 0.625 − 0.28125 = 0.625
    values = [[0, 0, 0], [0, 0, 0], [1, 0, 0], [3, 0, 0], [4, 0, 0], [0, 0, 0]]
    tracks = node_tracks(doc_of([(0, "translation", [0.0, 2.0], values, "CUBICSPLINE")]))
    sampler = tracks[0].translation
    assert sampler.sample(1.0)[0] == pytest.approx(1.5, abs=1e-12)
    assert sampler.sample(0.5)[0] == pytest.approx(0.625, abs=1e-12)
    assert sampler.sample(-1.0)[0] == 0.0 and sampler.sample(9.0)[0] == 4.0  # values, not tangents
    w = World(kinematic_box([{}], [(0, "translation", [0.0, 2.0], values, "CUBICSPLINE")]))
    w.run(1.0)
    assert w.pose(0)[0][0] == pytest.approx(1.5, abs=1e-5)


def test_sample_local_keeps_unanimated_channels():
    # translation animated 0 → (2, 0, 0); rotation 90° about Y and scale 2 from the node stay
    node = {"rotation": yaw(90), "scale": [2, 2, 2]}
    tracks = node_tracks(doc_of([X_0_TO_2], [node]))
    m = sample_local(node, tracks[0], 0.25)
    # column x of R_y(90°)·2 = (0, 0, −2); translation (0.5, 0, 0)
    assert m[:3, 0] == pytest.approx([0, 0, -2], abs=1e-12) and m[:3, 3] == pytest.approx([0.5, 0, 0])


def test_slerp_is_constant_speed_and_takes_shorter_arc():
    # 0° → 120° at s = 0.25 is 30° (nlerp would give 26.3°); the negated end quaternion is the same turn
    assert slerp(np.array(yaw(0)), np.array(yaw(120)), 0.25) == pytest.approx(yaw(30), abs=1e-12)
    assert slerp(np.array(yaw(0)), -np.array(yaw(120)), 0.25) == pytest.approx(yaw(30), abs=1e-12)


def test_weights_and_bad_targets_are_ignored():
    skipped: list[str] = []
    doc = doc_of([(0, "weights", [0.0], [0.5], "LINEAR"), (3, "translation", [0.0], [[1, 0, 0]], "STEP")])
    assert node_tracks(doc, skipped=skipped) == {}
    assert skipped == ["/animations/0/channels/1: target node 3 does not exist"]
