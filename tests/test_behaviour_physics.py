"""Held-out analytic scenes for the KHR physics nodes of behaviour graphs (docs/behaviour.md), each run through
``simulate --trace --events`` (and ``validate`` for the broken ones): an impulse's velocity (Δv = J/m), a delayed
impulse, a trigger that switches gravity off, a ray that picks which body to push, a point impulse's spin
(Δω = I⁻¹ (r × J)), a height-keeping loop on onTick, a log line on exit, broken graphs refused."""

from __future__ import annotations

import csv
import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import behaviour_scenes as bs
from gltf_physics.behaviour.build import GraphBuilder
from gltf_physics.cli import app

RATE = 60
G = 9.81
MOTION = "/extensions/KHR_physics_rigid_bodies/motion"


def _simulate(tmp_path: Path, doc: dict[str, Any], *extra: str, duration: float = 1.0) -> tuple[
        dict[float, dict[int, list[float]]], list[dict[str, Any]]]:
    """Run ``simulate --trace --events``; the trace as {time: {node: [tx, ty, tz, qx, qy, qz, qw]}} and the events."""
    src, trace, events = tmp_path / "scene.gltf", tmp_path / "trace.csv", tmp_path / "events.jsonl"
    src.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(app, ["simulate", str(src), "--duration", str(duration), "--rate", str(RATE),
                                      "--trace", str(trace), "--events", str(events), "-q", *extra])
    assert result.exit_code == 0, result.output
    frames: dict[float, dict[int, list[float]]] = {}
    with trace.open(encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        t, n = header.index("time"), header.index("node")
        for row in reader:
            frames.setdefault(round(float(row[t]), 6), {})[int(row[n])] = [float(v) for v in row[n + 2:n + 9]]
    lines = [json.loads(x) for x in events.read_text(encoding="utf-8").splitlines()]
    return frames, lines


def _floating(count: int = 1, spacing: float = 4.0) -> tuple[dict[str, Any], list[int]]:
    """Boxes of 2 kg (unit inertia) without gravity, ``spacing`` apart along x."""
    doc = bs.scene()
    nodes = [bs.add_body(doc, (spacing * k, 0.0, 0.0), bs.box(1.0), mass=2.0, inertia=(1.0, 1.0, 1.0),
                         gravity_factor=0.0) for k in range(count)]
    return doc, nodes


def test_impulse_gives_velocity_j_over_m(tmp_path: Path) -> None:
    doc, (box,) = _floating()
    g = GraphBuilder()
    start = g.node("event/onStart")
    g.flow(start, "out", g.node("rigid_body/applyImpulse", nodeIndex=box, linearImpulse=(4.0, 0.0, 0.0)))
    g.attach(doc)
    frames, _ = _simulate(tmp_path, doc)
    assert frames[1.0][box][0] == pytest.approx(2.0, abs=1e-5)  # Δv = 4 N·s / 2 kg = 2 m/s for 1 s
    assert frames[0.0][box][0] == 0.0  # onStart ran before the first step: t = 0 is still the file's pose
    no_graph, _ = _simulate(tmp_path, doc, "--no-graph")
    assert no_graph[1.0][box][0] == 0.0


@pytest.mark.parametrize("engine", ["rapier", "mujoco"])
def test_impulse_and_point_impulse_on_both_engines(engine: str) -> None:
    doc, (box,) = _floating()
    world = bs.world(doc, engine=engine, graph=False)
    world.apply_point_impulse(box, (0.0, 0.0, 1.0), (1.0, 0.0, 0.0))  # r = (1, 0, 0) from the centre of mass
    v = world.get(f"/nodes/{box}{MOTION}/linearVelocity")
    w = world.get(f"/nodes/{box}{MOTION}/angularVelocity")
    assert v == pytest.approx([0.0, 0.0, 0.5], abs=1e-9)  # J / m
    assert w == pytest.approx([0.0, -1.0, 0.0], abs=1e-9)  # I⁻¹ (r × J) = (1,0,0) × (0,0,1) = (0,-1,0)
    world.apply_impulse(box, (0.0, 2.0, 0.0), (0.0, 0.0, 3.0))
    assert world.get(f"/nodes/{box}{MOTION}/linearVelocity") == pytest.approx([0.0, 1.0, 0.5], abs=1e-9)
    assert world.get(f"/nodes/{box}{MOTION}/angularVelocity") == pytest.approx([0.0, -1.0, 3.0], abs=1e-9)


def test_delayed_impulse(tmp_path: Path) -> None:
    doc, (box,) = _floating()
    g = GraphBuilder()
    start = g.node("event/onStart")
    delay = g.node("flow/setDelay", duration=0.5)
    push = g.node("rigid_body/applyImpulse", nodeIndex=box, linearImpulse=(4.0, 0.0, 0.0))
    g.flow(start, "out", delay)
    g.flow(delay, "done", push)
    g.attach(doc)
    frames, _ = _simulate(tmp_path, doc)
    assert frames[0.5][box][0] == 0.0  # still at rest when the delay runs out (after the step to t = 0.5)
    assert frames[1.0][box][0] == pytest.approx(1.0, abs=1e-5)  # 2 m/s for the last 0.5 s


def test_trigger_switches_gravity_off(tmp_path: Path) -> None:
    doc = bs.scene()
    ball = bs.add_body(doc, (0.0, 5.0, 0.0), bs.sphere(0.25), mass=1.0)
    zone = bs.add_trigger(doc, (0.0, 2.0, 0.0), bs.box(1.0))
    g = GraphBuilder()
    enter = g.node("event/rigid_body_triggerEntered", configuration={"nodeIndex": zone})
    off = g.node("pointer/set", configuration={
        "pointer": f"/nodes/[body]{MOTION}/gravityFactor", "type": g.type("float")},
        body=g.out(enter, "motionNodeIndex"), value=0.0)
    g.flow(enter, "out", off)
    g.attach(doc)
    frames, events = _simulate(tmp_path, doc, duration=1.5)
    enter_time = events[0]["time"]
    assert events[0] == {"time": enter_time, "event": "enter", "trigger": zone, "node": ball}
    times = sorted(t for t in frames if t > enter_time + 2 / RATE)
    ys = [frames[t][ball][1] for t in times]
    steps = [a - b for a, b in itertools.pairwise(ys)]
    assert max(steps) - min(steps) < 1e-5  # no more acceleration: a constant fall per step
    assert steps[0] == pytest.approx(G * (enter_time + 1 / RATE) / RATE, rel=0.02)  # the speed it had on entry
    plain, _ = _simulate(tmp_path, doc, "--no-graph", duration=1.5)
    assert plain[1.5][ball][1] < frames[1.5][ball][1] - 0.5  # gravity kept pulling without the graph


@pytest.mark.parametrize("engine", ["rapier", "mujoco"])
def test_ray_picks_which_body_to_push(tmp_path: Path, engine: str) -> None:
    doc, (left, right) = _floating(2)
    g = GraphBuilder()
    start = g.node("event/onStart")
    ray = g.node("rigid_body/rayCast", rayStart=(10.0, 0.0, 0.0), rayEnd=(-10.0, 0.0, 0.0))
    push = g.node("rigid_body/applyImpulse", nodeIndex=g.out(ray, "hitNodeIndex"), linearImpulse=(0.0, 2.0, 0.0))
    g.flow(start, "out", ray)
    g.flow(ray, "hit", push)
    g.attach(doc)
    frames, _ = _simulate(tmp_path, doc, "--engine", engine)
    assert frames[1.0][right][1] == pytest.approx(1.0, abs=1e-5)  # the nearer body (x = 4) rose at 1 m/s
    assert frames[1.0][left][1] == 0.0


def test_ray_honours_the_collision_filter_and_reports_fraction_and_normal() -> None:
    doc, (left, right) = _floating(2)
    doc["nodes"][right]["extensions"]["KHR_physics_rigid_bodies"]["collider"]["collisionFilter"] = \
        bs.add_filter(doc, ["glass"])
    seeing = bs.add_filter(doc, ["ray"], not_collide_with=["glass"])
    for engine in ("rapier", "mujoco"):
        world = bs.world(doc, engine=engine, graph=False)
        hit = world.ray_cast((10.0, 0.0, 0.0), (-10.0, 0.0, 0.0))
        assert (hit.node, hit.fraction) == (right, pytest.approx(0.275, abs=1e-6))  # x = 4.5 of 10 → -10
        assert hit.normal == pytest.approx((1.0, 0.0, 0.0), abs=1e-6)
        hit = world.ray_cast((10.0, 0.0, 0.0), (-10.0, 0.0, 0.0), seeing)  # through the glass
        assert (hit.node, hit.fraction) == (left, pytest.approx(0.475, abs=1e-6))
        assert world.ray_cast((10.0, 5.0, 0.0), (-10.0, 5.0, 0.0)) is None


def test_point_impulse_spins_the_body(tmp_path: Path) -> None:
    doc, (box,) = _floating()
    g = GraphBuilder()
    start = g.node("event/onStart")
    g.flow(start, "out", g.node("rigid_body/applyPointImpulse", nodeIndex=box, impulse=(0.0, 0.0, 1.0),
                                position=(1.0, 0.0, 0.0)))
    g.attach(doc)
    frames, _ = _simulate(tmp_path, doc)
    tx, ty, tz, qx, qy, qz, qw = frames[1.0][box]
    assert (tx, ty, tz) == (0.0, 0.0, pytest.approx(0.5, abs=1e-5))
    # ω = (0, -1, 0) rad/s for 1 s: a turn of -1 rad about y
    assert (qx, qy, qz, qw) == pytest.approx((0.0, -math.sin(0.5), 0.0, math.cos(0.5)), abs=1e-4)


def test_height_keeping_loop_on_tick(tmp_path: Path) -> None:
    """Each tick sets the vertical speed to k·(h − y), then the step integrates gravity in n = 4 solver substeps
    (velocity first, then position, each substep), moving the body by v·dt − g·dt²·(n + 1)/(2n): it settles where
    k·(h − y) = g·dt·(n + 1)/(2n), y = h − (5/8)·g·dt/k."""
    doc = bs.scene()
    box = bs.add_body(doc, (0.0, 0.0, 0.0), bs.box(0.5), mass=1.0)
    h, k = 3.0, 5.0
    g = GraphBuilder()
    tick = g.node("event/onTick")
    where = g.node("pointer/get", configuration={"pointer": f"/nodes/{box}/translation",
                                                  "type": g.type("float3")})
    y = g.node("math/extract3", a=g.out(where))
    error = g.node("math/sub", a=h, b=g.out(y, "1"))
    speed = g.node("math/mul", a=k, b=g.out(error))
    velocity = g.node("math/combine3", a=0.0, b=g.out(speed), c=0.0)
    put = g.node("pointer/set", configuration={"pointer": f"/nodes/{box}{MOTION}/linearVelocity",
                                               "type": g.type("float3")}, value=g.out(velocity))
    g.flow(tick, "out", put)
    g.attach(doc)
    frames, _ = _simulate(tmp_path, doc, duration=3.0)
    assert frames[3.0][box][1] == pytest.approx(h - 5 / 8 * G / RATE / k, abs=1e-5)


def test_log_line_on_exit(tmp_path: Path) -> None:
    doc = bs.scene()
    ball = bs.add_body(doc, (0.0, 3.0, 0.0), bs.sphere(0.25), mass=1.0)
    zone = bs.add_trigger(doc, (0.0, 2.0, 0.0), bs.box(1.0))
    g = GraphBuilder()
    leave = g.node("event/rigid_body_triggerExited", configuration={"nodeIndex": zone})
    log = g.node("debug/log", configuration={"message": "left: collider {c}, motion {m}"},
                 c=g.out(leave, "colliderNodeIndex"), m=g.out(leave, "motionNodeIndex"))
    g.flow(leave, "out", log)
    g.attach(doc)
    _, events = _simulate(tmp_path, doc)
    assert [e["event"] for e in events] == ["enter", "exit", "log"]
    exit_time = events[1]["time"]
    assert events[2] == {"time": exit_time + 1 / RATE, "event": "log",
                         "message": f"left: collider {ball}, motion {ball}",
                         "pointer": "/extensions/KHR_interactivity/graphs/0/nodes/1"}


def test_trigger_events_name_the_collider_and_its_motion() -> None:
    """colliderNodeIndex is the collider's node; motionNodeIndex the node of its motion, −1 for a static collider
    (the KHR text); a body whose collider sits on a child node reports the child and the body."""
    doc = bs.scene()
    wall = bs.add_static(doc, (0.0, 0.0, 0.0), bs.box(1.0))
    zone = bs.add_trigger(doc, (0.0, 0.0, 0.0), bs.box(0.5))
    body = bs.add_body(doc, (0.2, 0.0, 0.0), bs.box(0.2), kinematic=True)
    part = doc["nodes"][body]["extensions"]["KHR_physics_rigid_bodies"].pop("collider")
    doc["nodes"].append({"translation": [0.0, 0.1, 0.0], "extensions": {"KHR_physics_rigid_bodies": {
        "collider": part}}})
    doc["nodes"][body]["children"] = [len(doc["nodes"]) - 1]
    child = len(doc["nodes"]) - 1
    g = GraphBuilder()
    enter = g.node("event/rigid_body_triggerEntered", configuration={"nodeIndex": zone})
    log = g.node("debug/log", configuration={"message": "{c} {m}"}, c=g.out(enter, "colliderNodeIndex"),
                 m=g.out(enter, "motionNodeIndex"))
    g.flow(enter, "out", log)
    g.attach(doc)
    for engine in ("rapier", "mujoco"):
        world = bs.world(doc, engine=engine)
        world.step()
        assert sorted(x.message for x in world.graph.logs) == sorted([f"{wall} -1", f"{child} {body}"]), engine


def test_broken_graphs_refused_by_validate_and_not_run(tmp_path: Path) -> None:
    doc, (box,) = _floating()
    zone = bs.add_trigger(doc, (0.0, 5.0, 0.0), bs.box(1.0))
    g = GraphBuilder()
    start = g.node("event/onStart")
    g.flow(start, "out", g.node("rigid_body/applyImpulse", nodeIndex=box, linearImpulse=(4.0, 0.0, 0.0)))
    g.node("event/rigid_body_triggerEntered", configuration={"nodeIndex": box})  # KRBI-1: not a trigger
    g.node("event/rigid_body_triggerExited", configuration={"nodeIndex": zone})
    g.node("event/rigid_body_triggerExited", configuration={"nodeIndex": zone})  # KRBI-2: twice on one trigger
    g.attach(doc)
    src = tmp_path / "broken.gltf"
    src.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(src)])
    assert result.exit_code == 1
    assert "KRBI-1" in result.output and "/extensions/KHR_interactivity/graphs/0/nodes/2/configuration/nodeIndex" \
        in result.output
    assert "KRBI-2" in result.output and "/graphs/0/nodes/4/configuration/nodeIndex" in result.output
    frames, events = _simulate(tmp_path, doc)
    assert frames[1.0][box][0] == 0.0  # refused: the impulse never ran, the physics did
    assert [e["event"] for e in events] == ["graph_error", "graph_error"]
    assert sorted(e["message"].split()[0] for e in events) == ["KRBI-1", "KRBI-2"]


def test_no_graph_trace_is_byte_identical(tmp_path: Path) -> None:
    example = Path(__file__).parents[1] / "examples" / "tumbling_boxes.gltf"
    out = []
    for extra in ([], ["--no-graph"]):
        trace = tmp_path / f"t{len(extra)}.csv"
        result = CliRunner().invoke(app, ["simulate", str(example), "--duration", "1", "--trace", str(trace), "-q",
                                          *extra])
        assert result.exit_code == 0, result.output
        out.append(trace.read_bytes())
    assert out[0] == out[1]


def test_info_summarises_each_graph(tmp_path: Path) -> None:
    doc, _ = _floating()
    zone = bs.add_trigger(doc, (0.0, 5.0, 0.0), bs.box(1.0))
    g = GraphBuilder()
    g.variable("score", 0)
    g.event("launched", speed=1.0)
    enter = g.node("event/rigid_body_triggerEntered", configuration={"nodeIndex": zone})
    push = g.node("rigid_body/applyImpulse", nodeIndex=g.out(enter, "motionNodeIndex"), linearImpulse=(0, 1, 0))
    g.flow(enter, "out", push)
    tick = g.node("event/onTick")
    g.flow(tick, "out", g.node("debug/log", configuration={"message": "tick"}))
    g.node("math/add", a=1.0, b=2.0)
    g.attach(doc)
    src = tmp_path / "graph.gltf"
    src.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(app, ["info", str(src), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["graphs"] == [{
        "graph": 0, "default": True, "form": "current", "nodes": 5,
        "domains": {"debug": 1, "event": 2, "math": 1, "rigid_body": 1},
        "events": {"event/onTick": 1, "event/rigid_body_triggerEntered": 1},
        "customEvents": ["launched"], "variables": ["score"],
        "physics": {"event/rigid_body_triggerEntered": 1, "rigid_body/applyImpulse": 1}, "triggers": [zone]}]
    text = CliRunner().invoke(app, ["info", str(src)]).output
    assert "  graph 0 (default): 5 nodes, current form" in text
    assert f"    physics: event/rigid_body_triggerEntered 1, rigid_body/applyImpulse 1 (triggers on nodes {zone})" \
        in text
    plain = tmp_path / "plain.gltf"
    plain.write_text(json.dumps(_floating()[0]), encoding="utf-8")
    assert "graphs" not in json.loads(CliRunner().invoke(app, ["info", str(plain), "--json"]).output)


def test_snapshot_restore_rewinds_the_graph() -> None:
    """A graph's pending delay and its logs go back with the World: the run after restore repeats exactly."""
    doc, (box,) = _floating()
    g = GraphBuilder()
    start = g.node("event/onStart")
    delay = g.node("flow/setDelay", duration=0.25)
    push = g.node("rigid_body/applyImpulse", nodeIndex=box, linearImpulse=(2.0, 0.0, 0.0))
    log = g.node("debug/log", configuration={"message": "pushed"})
    g.flow(start, "out", delay)
    g.flow(delay, "done", push)
    g.flow(push, "out", log)
    g.attach(doc)
    world = bs.world(doc)
    state = world.snapshot()
    world.run(0.5)
    first = (world.pose(box)[0].tolist(), [x.message for x in world.graph.logs])
    world.restore(state)
    assert world.graph.logs == [] and world.time == 0.0
    world.run(0.5)
    assert (world.pose(box)[0].tolist(), [x.message for x in world.graph.logs]) == first
    assert first[1] == ["pushed"]


def test_select_and_hover_fire_up_the_node_chain() -> None:
    """onSelect fires on the picked node and its ancestors until stopPropagation; a selectable: false subtree
    fires nothing; hover in/out fire on the levels the pointer enters and leaves."""
    doc, (box,) = _floating()
    doc["nodes"].append({"name": "handle", "translation": [0.5, 0, 0]})
    handle = len(doc["nodes"]) - 1
    doc["nodes"][box]["children"] = [handle]
    doc["nodes"].append({"name": "glass", "extensions": {"KHR_node_selectability": {"selectable": False}}})
    glass = len(doc["nodes"]) - 1
    g = GraphBuilder()
    for node, stop in ((handle, False), (box, False)):
        sel = g.node("event/onSelect", configuration={"nodeIndex": node, "stopPropagation": stop})
        g.flow(sel, "out", g.node("debug/log", configuration={"message": f"select@{node} {{n}}"},
                                  n=g.out(sel, "selectedNodeIndex")))
    for op in ("event/onHoverIn", "event/onHoverOut"):
        ev = g.node(op, configuration={"nodeIndex": box, "stopPropagation": False})
        g.flow(ev, "out", g.node("debug/log", configuration={"message": f"{op[8:]} {{n}}"},
                                 n=g.out(ev, "hoverNodeIndex")))
    g.attach(doc)
    world = bs.world(doc)
    world.select(handle, (0.5, 0.0, 0.0), (5.0, 0.0, 0.0))
    world.select(glass)
    world.hover(handle)
    world.hover(box)  # still inside the box's chain: no event
    world.hover(None)
    assert [x.message for x in world.graph.logs] == [f"select@{handle} {handle}", f"select@{box} {handle}",
                                                      f"HoverIn {handle}", f"HoverOut {box}"]
    doc["extensions"]["KHR_interactivity"]["graphs"][0]["nodes"][0]["configuration"]["stopPropagation"] = \
        {"value": [True]}
    world = bs.world(doc)
    world.select(handle)
    assert [x.message for x in world.graph.logs] == [f"select@{handle} {handle}"]


def test_view_embeds_the_run_the_graph_made() -> None:
    """`view` bakes the run with the graph (the impulse moved the box), as `simulate` runs it."""
    from gltf_physics.view.bake import record

    doc, (box,) = _floating()
    g = GraphBuilder()
    g.flow(g.node("event/onStart"), "out", g.node("rigid_body/applyImpulse", nodeIndex=box,
                                                  linearImpulse=(4.0, 0.0, 0.0)))
    g.attach(doc)
    import gltf_physics as gp

    bake = record(gp.read_scene(bs.document(doc)), 1.0)
    last = bake["translations"][-3:]
    assert last == [pytest.approx(2.0, abs=1e-4), 0.0, 0.0]


def test_a_graph_plays_an_animation_that_moves_a_body(tmp_path: Path) -> None:
    """animation/start on the file's second animation (the first plays by itself, from t = 0): each tick the
    runner applies it and the World moves the kinematic box's node, keyed from x = 0 to x = 2 over 1 s."""
    import base64
    import struct

    import gltf_physics as gp

    doc = bs.scene()
    box = bs.add_body(doc, (0.0, 0.0, 0.0), bs.box(0.5), kinematic=True)
    other = bs.add_static(doc, (0.0, -3.0, 0.0), bs.box(0.5))
    blob = struct.pack("<2f", 0.0, 1.0) + struct.pack("<6f", 0.0, 0.0, 0.0, 2.0, 0.0, 0.0)
    doc["buffers"] = [{"byteLength": len(blob),
                       "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]
    doc["bufferViews"] = [{"buffer": 0, "byteOffset": 0, "byteLength": 8},
                          {"buffer": 0, "byteOffset": 8, "byteLength": 24}]
    doc["accessors"] = [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0],
                         "max": [1.0]},
                        {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}]
    doc["animations"] = [{"samplers": [{"input": 0, "output": 1}],
                          "channels": [{"sampler": 0, "target": {"node": other, "path": "translation"}}]},
                         {"samplers": [{"input": 0, "output": 1}],
                          "channels": [{"sampler": 0, "target": {"node": box, "path": "translation"}}]}]
    g = GraphBuilder()
    start = g.node("event/onStart")
    delay = g.node("flow/setDelay", duration=0.5)
    play = g.node("animation/start", animation="/animations/1", startTime=0.0, endTime=1.0, speed=1.0)
    g.flow(start, "out", delay)
    g.flow(delay, "done", play)
    g.attach(doc)
    path = tmp_path / "animated.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")
    world = gp.World.from_file(path)
    assert world.graph is not None and not world.graph_errors
    world.run(0.5)
    assert world.pose(box)[0][0] == 0.0  # not started yet
    world.run(0.5)
    assert world.pose(box)[0][0] == pytest.approx(1.0, abs=0.04)  # half way, 0.5 s after the start
    assert world.get(f"/nodes/{box}/translation")[0] == pytest.approx(world.pose(box)[0][0])
    assert not world.graph.errors


def test_pointers_the_world_does_not_own_go_to_the_document() -> None:
    """A graph in a physics asset may change a material: the World host passes pointers it does not own (materials,
    .length…) to the document host's copy of the JSON."""
    doc, (box,) = _floating()
    doc["materials"] = [{"pbrMetallicRoughness": {"baseColorFactor": [1.0, 0.0, 0.0, 1.0]}}]
    g = GraphBuilder()
    start = g.node("event/onStart")
    paint = g.node("pointer/set", configuration={"pointer": "/materials/0/pbrMetallicRoughness/baseColorFactor",
                                                 "type": g.type("float4")}, value=(0.0, 1.0, 0.0, 1.0))
    count = g.node("pointer/get", configuration={"pointer": "/nodes.length", "type": g.type("int")})
    log = g.node("debug/log", configuration={"message": "{n} nodes"}, n=g.out(count))
    g.flow(start, "out", paint)
    g.flow(paint, "out", log)
    g.attach(doc)
    world = bs.world(doc)
    assert [x.message for x in world.graph.logs] == [f"{len(doc['nodes'])} nodes"]
    host = world.graph.host
    assert host.get_pointer("/materials/0/pbrMetallicRoughness/baseColorFactor") == (0.0, 1.0, 0.0, 1.0)
    assert host.pointer_type(f"/nodes/{box}{MOTION}/gravityFactor") == "float"
    assert doc["materials"][0]["pbrMetallicRoughness"]["baseColorFactor"] == [1.0, 0.0, 0.0, 1.0]  # not the file


def test_a_run_time_graph_error_is_one_events_line_and_the_physics_goes_on(tmp_path: Path) -> None:
    doc, (box,) = _floating()
    wall = bs.add_static(doc, (0.0, -5.0, 0.0), bs.box(1.0))
    g = GraphBuilder()
    start = g.node("event/onStart")
    g.flow(start, "out", g.node("rigid_body/applyImpulse", nodeIndex=wall, linearImpulse=(1.0, 0.0, 0.0)))
    g.attach(doc)
    frames, events = _simulate(tmp_path, doc)
    assert events == [{"time": 0.0, "event": "graph_error", "message": f"node {wall} is not a dynamic body",
                       "pointer": "/extensions/KHR_interactivity/graphs/0/nodes/1"}]
    assert frames[1.0][box] == frames[0.0][box]


def test_set_moves_a_body_by_its_node_translation(tmp_path: Path) -> None:
    """`simulate --set /nodes/N/translation=…` (World.set of node TRS) teleports the body before the run."""
    doc, (box,) = _floating()
    frames, _ = _simulate(tmp_path, doc, "--set", f"/nodes/{box}/translation=[0,7,0]")
    assert frames[0.0][box][:3] == [0.0, 7.0, 0.0]
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps([{"time": 0.5, "pointer": f"/nodes/{box}/translation", "value": [3, 0, 0]}]),
                      encoding="utf-8")
    frames, _ = _simulate(tmp_path, doc, "--inputs", str(inputs))
    before = frames[round(29 / RATE, 6)][box][:3]
    assert before == [0.0, 0.0, 0.0] and frames[0.5][box][:3] == frames[1.0][box][:3] == [3.0, 0.0, 0.0]


def test_pose_reads_alone_and_in_bulk_give_the_pose() -> None:
    """A graph's body-translation reads come from the body alone or from one bulk read per step (after a step
    that read many bodies): both are exactly the engine's pose."""
    doc = bs.scene()
    bodies = [bs.add_body(doc, (1.5 * k, 2.0 + 0.1 * k, 0.0), bs.sphere(0.5)) for k in range(16)]
    world = bs.world(doc)
    model = world.object_model
    for step in range(4):
        wanted = bodies if step != 1 else bodies[:1]  # one step reads a single body: the next reads alone
        for node in wanted:
            assert model.value(f"/nodes/{node}/translation") == tuple(world.pose(node)[0].tolist())
            assert model.value(f"/nodes/{node}/rotation") == tuple(world.pose(node)[1].tolist())
        world.step()


def test_restore_rewinds_what_the_graph_wrote_into_the_document() -> None:
    doc, _ = _floating()
    doc["materials"] = [{"pbrMetallicRoughness": {"baseColorFactor": [1.0, 0.0, 0.0, 1.0]}}]
    g = GraphBuilder()
    start = g.node("event/onStart")
    delay = g.node("flow/setDelay", duration=0.1)
    g.flow(start, "out", delay)
    paint = g.node("pointer/set", configuration={"pointer": "/materials/0/pbrMetallicRoughness/baseColorFactor",
                                                 "type": g.type("float4")}, value=(0.0, 1.0, 0.0, 1.0))
    g.flow(delay, "done", paint)
    g.attach(doc)
    world = bs.world(doc)
    state = world.snapshot()
    colour = "/materials/0/pbrMetallicRoughness/baseColorFactor"
    assert world.graph.host.get_pointer(colour) == (1.0, 0.0, 0.0, 1.0)
    world.run(0.2)
    assert world.graph.host.get_pointer(colour) == (0.0, 1.0, 0.0, 1.0)
    world.restore(state)
    assert world.graph.host.get_pointer(colour) == (1.0, 0.0, 0.0, 1.0)


def test_simulate_says_what_became_of_the_graph(tmp_path: Path) -> None:
    doc, (box,) = _floating()
    g = GraphBuilder()
    g.node("event/rigid_body_triggerEntered", configuration={"nodeIndex": box})  # KRBI-1
    g.attach(doc)
    src = tmp_path / "refused.gltf"
    src.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(app, ["simulate", str(src), "--duration", "0.1"])
    assert result.exit_code == 0
    assert f"{src}: behaviour graph not run: KRBI-1 /extensions/KHR_interactivity/graphs/0/nodes/0/configuration/" \
           f"nodeIndex: node {box} has no trigger" in result.output
    doc["extensions"]["KHR_interactivity"]["graphs"][0]["nodes"] = []
    src.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(app, ["simulate", str(src), "--duration", "0.1"])
    assert f"{src}: behaviour graph ran: 0 log lines" in result.output
