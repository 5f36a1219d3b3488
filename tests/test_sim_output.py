"""Trace CSV, events JSONL, baked animation and final pose (docs/cli.rst)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gltf_physics.gltf.accessors import read_accessor
from gltf_physics.gltf.document import Document
from gltf_physics.model import Body, Box, Collider, Motion, PhysicsScene, Sphere, Trigger
from gltf_physics.sim import World, bake, write_events, write_final_pose, write_trace
from gltf_physics.sim.trace import HEADER

G, H = 9.81, 1 / 240  # Rapier: 4 internal substeps per 60 Hz step (see test_sim_world)


def make(nodes, bodies, colliders, triggers=()) -> PhysicsScene:
    return PhysicsScene(bodies=bodies, colliders=colliders, triggers=list(triggers),
                        document=Document(json={"nodes": nodes}, buffers=[]))


def ball(name: str = "ball") -> World:
    return World(make([{"name": name, "translation": [0, 10, 0]}], [Body(0, Motion())],
                      [Collider(0, Sphere(0.5), body=0)]), record=True)


def test_trace_header_rows_and_formatting(tmp_path):
    w = ball()
    w.run(0.05)
    path = tmp_path / "t.csv"
    write_trace(w.recording, path)
    lines = path.read_text().splitlines()
    assert lines[0] + "\n" == HEADER == "time,node,name,tx,ty,tz,qx,qy,qz,qw\n"
    assert lines[1] == "0.0,0,ball,0,10,0,0,0,0,1"
    assert len(lines) == 1 + 4  # t = 0 and 3 steps
    t, node, name, *values = lines[2].split(",")
    assert (t, node, name) == ("0.016666666666666666", "0", "ball")
    # after one step: drop g·h²·(1+2+3+4) = 9.81·10/57600 = 0.0017031; y printed as %.9g of the float32
    y = float(values[1])
    assert y == pytest.approx(10 - 9.81 * 10 / 57600, abs=1e-6)
    assert values[1] == f"{float(np.float32(y)):.9g}"


def test_trace_quotes_awkward_names():
    w = ball('a "big", ball')
    from gltf_physics.sim.trace import trace_text

    assert trace_text(w.recording).splitlines()[1] == '0.0,0,"a ""big"", ball",0,10,0,0,0,0,1'


def test_events_jsonl(tmp_path):
    # ball from y = 5 through a trigger box 2×1×2 at y = 2: enter at 0.65 s, exit at 55/60 s (test_sim_world)
    s = make([{"translation": [0, 5, 0]}, {"translation": [0, 2, 0]}], [Body(0, Motion())],
             [Collider(0, Sphere(0.5), body=0)], [Trigger(1, shape=Box((2, 1, 2)))])
    w = World(s)
    w.run(1.2)
    path = tmp_path / "e.jsonl"
    write_events(w.events(), path)
    assert path.read_text() == (
        '{"time": 0.65, "event": "enter", "trigger": 1, "node": 0}\n'
        '{"time": 0.9166666666666666, "event": "exit", "trigger": 1, "node": 0}\n')


def test_bake_writes_local_keys_under_a_rotated_parent():
    # parent at (0, 1, 0) turned 90° about Y; the body starts at local (2, 3, 0) = world (0, 4, −2).
    # Falling 1 s: world y = 4 − g(t² + t h)/2; local = R_pᵀ(world − (0, 1, 0)) ⇒ x stays 2, y = 3 − drop
    c, s_ = math.cos(math.pi / 4), math.sin(math.pi / 4)
    nodes = [{"translation": [0, 1, 0], "rotation": [0, s_, 0, c], "children": [1]},
             {"name": "body", "translation": [2, 3, 0]}]
    doc = Document(json={"nodes": nodes}, buffers=[])
    w = World(PhysicsScene(bodies=[Body(1, Motion())], colliders=[Collider(1, Box(), body=1)], document=doc),
              record=True)
    w.run(1.0)
    out = bake(w.recording, doc)
    assert "animations" not in doc.json  # the input is left alone
    (anim,) = out.json["animations"]
    assert anim["name"] == "simulation"
    assert {ch["target"]["path"] for ch in anim["channels"]} == {"translation", "rotation"}
    assert all(s["interpolation"] == "LINEAR" for s in anim["samplers"])
    tr = next(ch for ch in anim["channels"] if ch["target"]["path"] == "translation")
    sampler = anim["samplers"][tr["sampler"]]
    times = read_accessor(out, sampler["input"])
    keys = read_accessor(out, sampler["output"])
    assert len(times) == len(keys) == 61
    assert times[-1] == pytest.approx(1.0)
    drop = G * (1 + H) / 2
    assert keys[0] == pytest.approx([2, 3, 0], abs=1e-6)
    assert keys[-1] == pytest.approx([2, 3 - drop, 0], abs=1e-4)


def test_bake_nested_body_keeps_its_local_offset():
    # two bodies falling together (child 2 m beside its parent body): the child's local translation stays
    # (2, 0, 0) in every key, although both move in the world
    nodes = [{"translation": [0, 10, 0], "children": [1]}, {"translation": [2, 0, 0]}]
    doc = Document(json={"nodes": nodes}, buffers=[])
    cols = [Collider(0, Sphere(0.5), body=0), Collider(1, Sphere(0.5), body=1)]
    s = PhysicsScene(bodies=[Body(0, Motion()), Body(1, Motion())], colliders=cols, document=doc)
    w = World(s, record=True)
    w.run(0.5)
    out = bake(w.recording, doc)
    anim = out.json["animations"][0]
    child = next(ch for ch in anim["channels"] if ch["target"] == {"node": 1, "path": "translation"})
    keys = read_accessor(out, anim["samplers"][child["sampler"]]["output"])
    assert np.abs(keys - [2, 0, 0]).max() < 1e-5


def test_write_final_pose_sets_local_trs_and_replaces_matrices():
    # a matrix node (translation (1, 10, 0), scale 2) falling 1 s: TRS written, scale kept,
    # translation y = 10 − g(t² + t h)/2
    m = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 10, 0, 1]  # column-major
    doc = Document(json={"nodes": [{"matrix": m}]}, buffers=[])
    w = World(PhysicsScene(bodies=[Body(0, Motion())], colliders=[Collider(0, Sphere(0.25), body=0)],
                           document=doc))
    w.run(1.0)
    node = write_final_pose(w, doc).json["nodes"][0]
    assert "matrix" not in node and node["scale"] == [2.0, 2.0, 2.0]
    assert node["translation"] == pytest.approx([1, 10 - G * (1 + H) / 2, 0], abs=1e-4)
    assert node["rotation"] == pytest.approx([0, 0, 0, 1], abs=1e-9)
    assert doc.json["nodes"][0] == {"matrix": m}


def test_fast_pose_reader_matches_the_slow_one():
    # regression guard on the alpha bindings: Isometry3.to_bytes() layout (8-byte header, q xyzw, t xyz)
    w = ball()
    w.engine.world.rigid_bodies[w.engine.handle_of[0]].rotation = (0.0, 0.6, 0.0, 0.8)
    assert w.engine._fast_poses
    fast = w.engine._read(w.engine._pose_handles).copy()
    w.engine._fast_poses = False
    assert np.array_equal(fast, w.engine._read(w.engine._pose_handles))
    assert fast[0].tolist() == pytest.approx([0, 0.6, 0, 0.8, 0, 10, 0])


def test_sleeping_bodies_keep_their_exact_pose_in_the_recording():
    # only awake bodies are read each step; a full read every step must record the same bytes
    nodes = [{"translation": [0, -0.5, 0]}] + [{"translation": [0.1 * i, 0.6 + 1.1 * i, 0]} for i in range(4)]
    cols = [Collider(0, Box((20, 1, 20)))] + [Collider(i, Box(), body=i) for i in range(1, 5)]
    worlds = [World(make(nodes, [Body(i, Motion()) for i in range(1, 5)], cols), record=True) for _ in range(2)]

    def full_read(world: World) -> None:
        world.engine._stale = True

    worlds[0].run(4.0)
    worlds[1].run(4.0, full_read)
    assert worlds[0].engine.world.active_bodies() == []  # everything fell asleep: the shortcut was used
    assert worlds[0].recording.poses.tobytes() == worlds[1].recording.poses.tobytes()
