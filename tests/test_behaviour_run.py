"""The interpreter on hand-written current-form graphs: flow and loop semantics, the activation budget, the
specification's numeric rules, delays, ticks, custom events, pointers through the document host, logs and
run-time errors as one line, unknown extension operations as no-ops, and graphs surviving read/write/convert."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

from behaviour_graphs import T, graph_doc, inline, link, variable
from gltf_physics import api
from gltf_physics.behaviour.doc_host import DocumentHost
from gltf_physics.behaviour.read import read_interactivity
from gltf_physics.behaviour.run import GraphRunner
from gltf_physics.gltf.document import Document

ROOT = Path(__file__).resolve().parent.parent


def _runner(doc: dict[str, Any], **kw: Any) -> GraphRunner:
    interactivity = read_interactivity(doc)
    assert interactivity is not None and interactivity.form == "current", interactivity
    return GraphRunner(interactivity.graphs[0], DocumentHost(doc), **kw)


def _compute(op: str, **values: dict[str, Any]) -> Any:
    """The ``value`` output of one pure operation, stored into a variable by onStart."""
    doc = graph_doc([{"op": op, "values": values},
                     {"op": "event/onStart", "flows": {"out": 2}},
                     {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(0)}}],
                    variables=[variable("float")])
    runner = _runner(doc)
    runner.start()
    assert runner.errors == []
    return runner.variable(0)


def test_for_loop_sums_its_indices() -> None:
    doc = graph_doc([
        {"op": "event/onStart", "flows": {"out": 1}},
        {"op": "flow/for", "values": {"startIndex": inline("int", 0), "endIndex": inline("int", 10)},
         "flows": {"loopBody": 4}},
        {"op": "variable/get", "configuration": {"variable": 0}},
        {"op": "math/add", "values": {"a": link(2), "b": link(1, "index")}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(3)}},
    ], variables=[variable("int", 0, name="sum")])
    runner = _runner(doc)
    runner.start()
    assert runner.variable("sum") == 45
    assert runner.nodes[1].out["index"] == 10


def test_endless_loop_stops_at_the_budget_with_one_line() -> None:
    doc = graph_doc([
        {"op": "event/onTick", "flows": {"out": 1}},
        {"op": "flow/while", "values": {"condition": inline("bool", True)}},
    ])
    runner = _runner(doc, activation_budget=1000)
    runner.start()
    runner.tick(0.0, 0.0)
    assert [e.message for e in runner.errors] == ["stopped after 1000 activations in one tick (a loop without end?)"]
    assert runner.errors[0].pointer == "/extensions/KHR_interactivity/graphs/0/nodes/1"
    assert runner.stopped
    runner.tick(1 / 60, 1 / 60)  # a stopped graph stays stopped, without a second error
    assert len(runner.errors) == 1


def test_int32_and_float_semantics() -> None:
    assert _compute("math/add", a=inline("int", 2147483647), b=inline("int", 1)) == -2147483648
    assert _compute("math/div", a=inline("int", 7), b=inline("int", 0)) == 0
    assert _compute("math/div", a=inline("int", -7), b=inline("int", 2)) == -3
    assert _compute("math/rem", a=inline("int", -7), b=inline("int", 2)) == -1
    assert _compute("math/div", a=inline("float", 1.0), b=inline("float", 0.0)) == math.inf
    assert math.isnan(_compute("math/div", a=inline("float", 0.0), b=inline("float", 0.0)))
    assert math.isnan(_compute("math/sqrt", a=inline("float", -1.0)))
    assert _compute("math/log", a=inline("float", 0.0)) == -math.inf
    assert _compute("math/round", a=inline("float", -2.5)) == -3.0
    assert math.copysign(1.0, _compute("math/round", a=inline("float", -0.4))) == -1.0  # negative zero
    assert _compute("math/rem", a=inline("float", 5.5), b=inline("float", math.inf)) == 5.5
    assert _compute("type/floatToInt", a=inline("float", -2.7)) == -2
    assert _compute("type/floatToInt", a=inline("float", 3e9)) == 3000000000 - 2**32
    assert _compute("math/eq", a=inline("float", math.nan), b=inline("float", math.nan)) is False
    assert _compute("math/lsl", a=inline("int", 1), b=inline("int", 31)) == -2147483648
    assert _compute("math/clz", a=inline("int", 1)) == 31
    assert _compute("math/min", a=inline("float", 0.0), b=inline("float", -0.0)) == 0.0
    assert math.copysign(1.0, _compute("math/min", a=inline("float", 0.0), b=inline("float", -0.0))) == -1.0


def test_vector_matrix_quaternion_operations() -> None:
    assert _compute("math/cross", a=inline("float3", 1, 0, 0), b=inline("float3", 0, 1, 0)) == (0.0, 0.0, 1.0)
    q = _compute("math/quatFromAxisAngle", axis=inline("float3", 0, 0, 1), angle=inline("float", math.pi / 2))
    v = _compute("math/rotate3D", a=inline("float3", 1, 0, 0), rotation=inline("float4", *q))
    assert [round(x, 12) for x in v] == [0.0, 1.0, 0.0]
    m = _compute("math/matCompose", translation=inline("float3", 1, 2, 3), rotation=inline("float4", 0, 0, 0, 1),
                 scale=inline("float3", 2, 2, 2))
    assert m[12:15] == (1.0, 2.0, 3.0) and m[0] == 2.0  # column-major: translation in elements 12..14
    inv = _compute("math/inverse", a=inline("float4x4", *m))
    assert [round(x, 12) for x in inv[12:15]] == [-0.5, -1.0, -1.5]
    assert _compute("math/transform", a=inline("float4", 0, 0, 0, 1), b=inline("float4x4", *m)) == (1, 2, 3, 1)


def test_set_delay_fires_after_its_duration_and_cancel_stops_it() -> None:
    doc = graph_doc([
        {"op": "event/onStart", "flows": {"out": 1}},
        {"op": "flow/setDelay", "values": {"duration": inline("float", 0.5)}, "flows": {"done": 2}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": inline("int", 1)}},
    ], variables=[variable("int", 0)])
    runner = _runner(doc)
    runner.start()
    for k in range(1, 30):  # 60 Hz: due at 0.5 s = tick 30
        runner.tick(k / 60, 1 / 60)
    assert runner.variable(0) == 0
    runner.tick(30 / 60, 1 / 60)
    assert runner.variable(0) == 1
    # cancel: the same graph, cancelled through the setDelay's own cancel flow right after scheduling
    nodes = doc["extensions"]["KHR_interactivity"]["graphs"][0]["nodes"]
    nodes[1]["flows"]["out"] = {"node": 1, "socket": "cancel"}
    runner = GraphRunner(read_interactivity(doc).graphs[0], DocumentHost(doc))  # type: ignore[union-attr]
    runner.start()
    for k in range(1, 61):
        runner.tick(k / 60, 1 / 60)
    assert runner.variable(0) == 0


def test_on_tick_times() -> None:
    doc = graph_doc([
        {"op": "event/onTick", "flows": {"out": 1}},
        {"op": "variable/set", "configuration": {"variables": [0, 1]},
         "values": {"0": link(0, "timeSinceStart"), "1": link(0, "timeSinceLastTick")}},
    ], variables=[variable("float"), variable("float")])
    runner = _runner(doc)
    runner.start()
    runner.tick(0.0, 0.0)
    assert runner.variable(0) == 0.0 and math.isnan(runner.variable(1))
    runner.tick(0.25, 0.25)
    assert (runner.variable(0), runner.variable(1)) == (0.25, 0.25)


def test_custom_events_both_ways() -> None:
    events = [{"id": "hit", "values": {"amount": {"type": T["int"]}}}, {"id": "done", "values": {}}]
    doc = graph_doc([
        {"op": "event/receive", "configuration": {"event": 0}, "flows": {"out": 1}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(0, "amount")}},
        {"op": "event/onStart", "flows": {"out": 3}},
        {"op": "event/send", "configuration": {"event": 0}, "values": {"amount": inline("int", 7)}},
    ], variables=[variable("int", 0)], events=events)
    runner = _runner(doc)
    runner.send("hit", {"amount": 3})
    assert runner.variable(0) == 3
    runner.start()
    assert runner.variable(0) == 3  # a graph's event/send is delivered at the next tick
    runner.tick(0.0, 0.0)
    assert runner.variable(0) == 7
    assert runner.sent == [(0, {"amount": 7})]


def test_pointer_templates_and_the_document_host() -> None:
    doc = graph_doc([
        {"op": "event/onStart", "flows": {"out": 1}},
        {"op": "pointer/set", "configuration": {"pointer": "/nodes/{node}/translation", "type": T["float3"]},
         "values": {"node": inline("ref", "/nodes/1"), "value": inline("float3", 1, 2, 3)}, "flows": {"out": 3}},
        {"op": "pointer/get", "configuration": {"pointer": "/nodes/[i]/translation", "type": T["float3"]},
         "values": {"i": inline("int", 0)}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(2)}},
    ], variables=[variable("float3")])
    original = copy.deepcopy(doc)
    runner = _runner(doc)
    runner.start()
    assert runner.errors == []
    assert runner.host.json["nodes"][1]["translation"] == [1.0, 2.0, 3.0]  # type: ignore[attr-defined]
    assert runner.variable(0) == (0.0, 1.0, 0.0)
    assert doc == original  # the host writes its own copy, never the caller's document


def test_debug_log_and_a_run_time_error_are_one_line() -> None:
    doc = graph_doc([
        {"op": "event/onStart", "flows": {"out": 1}},
        {"op": "debug/log", "configuration": {"message": "x is {x}", "severity": 0},
         "values": {"x": inline("float3", 1, 2.5, 3)}, "flows": {"out": 2}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(1, "nothing")}},
    ], variables=[variable("int")])
    runner = _runner(doc)
    runner.start()
    assert [line.message for line in runner.logs] == ["x is [1, 2.5, 3]"]
    assert [str(e) for e in runner.errors] == [
        "t=0.0000 debug/log has no output 'nothing' (/extensions/KHR_interactivity/graphs/0/nodes/2)"]


def test_unknown_extension_operations_are_no_ops() -> None:
    doc = graph_doc([
        {"op": "event/onStart", "flows": {"out": 1}},
        {"op": "vendor/explode", "flows": {"out": 2}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": inline("int", 1)}},
    ], variables=[variable("int", 0)])
    doc["extensions"]["KHR_interactivity"]["graphs"][0]["declarations"][1]["extension"] = "EXT_vendor"
    runner = _runner(doc)
    runner.start()
    assert runner.errors == [] and runner.variable(0) == 0  # its out flow never fires


def test_graphs_survive_save_load_and_conversion(tmp_path: Path) -> None:
    doc = api.load(ROOT / "examples" / "tumbling_boxes.gltf")
    graph = graph_doc([{"op": "event/onStart"}])["extensions"]["KHR_interactivity"]
    doc.json.setdefault("extensions", {})["KHR_interactivity"] = graph
    doc.json["extensionsUsed"].append("KHR_interactivity")
    api.save(doc, tmp_path / "a.gltf")
    again = json.loads((tmp_path / "a.gltf").read_text())
    assert again["extensions"]["KHR_interactivity"] == graph
    for target in ("khr", "omi"):
        converted, _ = api.convert(Document(json=copy.deepcopy(again), buffers=doc.buffers), target)  # type: ignore[arg-type]
        assert converted.json["extensions"]["KHR_interactivity"] == graph
        assert "KHR_interactivity" in converted.json["extensionsUsed"]


def test_stop_propagation_skips_the_later_handlers_of_the_same_tick() -> None:
    doc = graph_doc([
        {"op": "event/onTick", "flows": {"out": 1}},
        {"op": "event/stopPropagation", "values": {"event": link(0, "event"), "stopImmediate": inline("bool", True)}},
        {"op": "event/onTick", "flows": {"out": 3}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": inline("int", 1)}},
    ], variables=[variable("int", 0)])
    runner = _runner(doc)
    runner.start()
    runner.tick(0.0, 0.0)
    assert runner.variable(0) == 0 and runner.errors == []
    doc["extensions"]["KHR_interactivity"]["graphs"][0]["nodes"][1]["values"]["stopImmediate"]["value"] = [False]
    runner = _runner(doc)
    runner.tick(0.0, 0.0)
    assert runner.variable(0) == 1


def test_oklch_round_trip_and_white() -> None:
    from gltf_physics.behaviour.ops.color import from_oklch, to_oklch

    l_, c, _ = to_oklch(1.0, 1.0, 1.0)
    assert abs(l_ - 1.0) < 1e-6 and c < 1e-4  # white: lightness 1, no chroma
    rgb = from_oklch(*to_oklch(0.2, 0.5, 0.9))
    assert [round(x, 6) for x in rgb] == [0.2, 0.5, 0.9]


def test_every_operation_of_the_specification_is_in_the_tables() -> None:
    from gltf_physics.behaviour.ops import OPS

    core = {"math/E", "math/Pi", "math/Tau", "math/Inf", "math/NaN", "math/abs", "math/sign", "math/trunc",
            "math/floor", "math/ceil", "math/round", "math/fract", "math/neg", "math/add", "math/sub", "math/mul",
            "math/div", "math/rem", "math/min", "math/max", "math/clamp", "math/saturate", "math/mix",
            "math/smoothStep", "math/eq", "math/lt", "math/le", "math/gt", "math/ge", "math/isNaN", "math/isInf",
            "math/select", "math/switch", "math/random", "math/rad", "math/deg", "math/sin", "math/cos",
            "math/tan", "math/asin", "math/acos", "math/atan", "math/atan2", "math/sinh", "math/cosh",
            "math/tanh", "math/asinh", "math/acosh", "math/atanh", "math/exp", "math/log", "math/log2",
            "math/log10", "math/sqrt", "math/cbrt", "math/pow", "math/length", "math/normalize", "math/dot",
            "math/cross", "math/rotate2D", "math/rotate3D", "math/transform", "math/slerp", "math/transpose",
            "math/determinant", "math/inverse", "math/matMul", "math/matCompose", "math/matDecompose",
            "math/quatConjugate", "math/quatMul", "math/quatAngleBetween", "math/quatFromAxisAngle",
            "math/quatToAxisAngle", "math/quatFromDirections", "math/quatFromUpForward", "math/quatFromAngles",
            "math/quatSlerp", "math/combine2", "math/combine3", "math/combine4", "math/combine2x2",
            "math/combine3x3", "math/combine4x4", "math/extract2", "math/extract3", "math/extract4",
            "math/extract2x2", "math/extract3x3", "math/extract4x4", "math/not", "math/and", "math/or",
            "math/xor", "math/asr", "math/lsl", "math/clz", "math/ctz", "math/popcnt", "math/rgbToOkLCh",
            "math/rgbFromOkLCh", "ref/eq", "type/boolToInt", "type/boolToFloat", "type/intToBool",
            "type/intToFloat", "type/floatToBool", "type/floatToInt", "flow/sequence", "flow/branch",
            "flow/switch", "flow/while", "flow/for", "flow/doN", "flow/multiGate", "flow/waitAll",
            "flow/throttle", "flow/setDelay", "flow/cancelDelay", "variable/get", "variable/set",
            "variable/interpolate", "pointer/get", "pointer/set", "pointer/interpolate", "animation/start",
            "animation/stop", "animation/stopAt", "event/onStart", "event/onTick", "event/stopPropagation",
            "event/receive", "event/send", "debug/log"}
    assert len(core) == 135  # every distinct operation name of the specification
    assert core - set(OPS) == set()


def test_summary_counts_operations_by_domain() -> None:
    from gltf_physics.behaviour.summary import summarize

    doc = graph_doc([{"op": "event/onStart", "flows": {"out": 1}},
                     {"op": "rigid_body/applyImpulse"},
                     {"op": "math/add", "values": {"a": inline("int", 1), "b": inline("int", 2)}}],
                    variables=[variable("int")], events=[{"id": "go", "values": {}}])
    summary = summarize(read_interactivity(doc))  # type: ignore[arg-type]
    assert summary == {"form": "current", "default": 0, "graphs": [
        {"nodes": 3, "domains": {"event": 1, "math": 1, "rigid_body": 1}, "events": ["go"], "variables": 1,
         "physics": ["rigid_body/applyImpulse"]}]}


def test_a_draft_flow_cycle_stops_with_one_line() -> None:
    """The draft lets flows go backwards: two sequences feeding each other recurse without end; the runner stops
    the graph with one line instead of overflowing."""
    doc = graph_doc([
        {"op": "event/onStart", "flows": {"out": 1}},
        {"op": "flow/sequence", "flows": {"a": 2}},
        {"op": "flow/sequence", "flows": {"a": 1}},
        {"op": "variable/set", "configuration": {"variable": 0}, "values": {"value": inline("int", 1)}},  # draft
    ], variables=[variable("int")])
    interactivity = read_interactivity(doc)
    assert interactivity is not None and interactivity.form == "draft-2025"
    runner = GraphRunner(interactivity.graphs[0], DocumentHost(doc))
    runner.start()
    assert [e.message for e in runner.errors] == ["the flow chain is too deep (a flow loop?)"]


def _animated() -> tuple[dict[str, Any], Document]:
    """Node 0 slides x: 0 → 2 over 2 s (animation 0); a graph starts it from 0 to 2 s at speed 2 on start and
    counts its done flow in variable 0."""
    from gltf_physics.gltf.animation import add_node_animation

    doc = graph_doc([
        {"op": "event/onStart", "flows": {"out": 1}},
        {"op": "animation/start", "values": {"animation": inline("ref", "/animations/0"),
                                             "startTime": inline("float", 0.0), "endTime": inline("float", 2.0),
                                             "speed": inline("float", 2.0)}, "flows": {"done": 2}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": inline("int", 1)}},
    ], variables=[variable("int", 0)])
    document = Document(json=doc, buffers=[])
    add_node_animation(document, "slide", [0.0, 2.0], {0: ([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0]], None)})
    return document.json, document


def test_animation_plays_at_its_speed_and_fires_done() -> None:
    doc, document = _animated()
    runner = GraphRunner(read_interactivity(doc).graphs[0], DocumentHost(doc, document))  # type: ignore[union-attr]
    runner.start()
    runner.tick(0.5, 0.5)  # 0.5 s at speed 2: animation time 1.0 → x = 1
    assert runner.host.get_pointer("/nodes/0/translation") == (1.0, 0.0, 0.0)
    assert runner.variable(0) == 0
    runner.tick(1.0, 0.5)  # reaches the end time: done
    assert runner.host.get_pointer("/nodes/0/translation") == (2.0, 0.0, 0.0)
    assert runner.variable(0) == 1 and runner.errors == []


def test_animation_without_the_document_takes_the_err_flow() -> None:
    doc, _ = _animated()
    nodes = doc["extensions"]["KHR_interactivity"]["graphs"][0]["nodes"]
    nodes[1]["flows"] = {"err": {"node": 2, "socket": "in"}}
    runner = GraphRunner(read_interactivity(doc).graphs[0], DocumentHost(doc))  # type: ignore[union-attr]
    runner.start()
    assert runner.variable(0) == 1 and runner.errors == []


def test_interpolations_follow_their_easing_and_fire_done() -> None:
    """variable/interpolate and pointer/interpolate with linear control points (1/3, 1/3), (2/3, 2/3): halfway
    in time is halfway in value; an ease-in curve (1, 0), (1, 0) is behind it; both end on the target."""
    third = 1 / 3

    def doc_for(p1: tuple[float, float], p2: tuple[float, float]) -> dict[str, Any]:
        controls = {"duration": inline("float", 2.0), "p1": inline("float2", *p1), "p2": inline("float2", *p2)}
        return graph_doc([
            {"op": "event/onStart", "flows": {"out": 1}},
            {"op": "variable/interpolate", "configuration": {"variable": 0, "useSlerp": False},
             "values": {"value": inline("float", 10.0), **controls}, "flows": {"out": 2, "done": 3}},
            {"op": "pointer/interpolate", "configuration": {"pointer": "/nodes/[i]/translation", "type": T["float3"]},
             "values": {"i": inline("int", 0), "value": inline("float3", 4, 1, 0), **controls}},
            {"op": "variable/set", "configuration": {"variables": [1]}, "values": {"1": inline("int", 1)}},
        ], variables=[variable("float", 0.0), variable("int", 0)])

    runner = _runner(doc_for((third, third), (2 * third, 2 * third)))
    runner.start()
    runner.tick(1.0, 1.0)
    assert abs(runner.variable(0) - 5.0) < 1e-9
    assert [round(x, 9) for x in runner.host.get_pointer("/nodes/0/translation")] == [2.0, 1.0, 0.0]
    runner.tick(2.0, 1.0)
    assert runner.variable(0) == 10.0 and runner.variable(1) == 1
    assert runner.host.get_pointer("/nodes/0/translation") == (4.0, 1.0, 0.0)
    eased = _runner(doc_for((1.0, 0.0), (1.0, 0.0)))
    eased.start()
    eased.tick(1.0, 1.0)
    assert 0.0 < eased.variable(0) < 5.0
