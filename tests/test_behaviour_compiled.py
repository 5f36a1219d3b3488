"""The compiled interpreter's evaluation rules: a pure node's outputs are kept within one flow epoch (the
specification keeps output values "until an interactivity node with one or more flow sockets is executed") and
evaluated afresh after any flow node executes; pointer templates; snapshots whose readers read their own nodes."""

from __future__ import annotations

import copy
from typing import Any

from behaviour_graphs import T, graph_doc, inline, link, variable
from gltf_physics.behaviour.doc_host import DocumentHost
from gltf_physics.behaviour.read import read_interactivity
from gltf_physics.behaviour.run import GraphRunner

TRANSLATION = "/nodes/[i]/translation"


class CountingHost(DocumentHost):
    """A document host that counts its pointer reads."""

    def __init__(self, doc: dict[str, Any]) -> None:
        super().__init__(doc)
        self.reads: list[str] = []

    def get_pointer(self, pointer: str) -> Any:
        """Counts, then reads."""
        self.reads.append(pointer)
        return super().get_pointer(pointer)


def _runner(doc: dict[str, Any]) -> tuple[GraphRunner, CountingHost]:
    interactivity = read_interactivity(doc)
    assert interactivity is not None
    host = CountingHost(doc)
    return GraphRunner(interactivity.graphs[0], host), host


def _get_node(i: int = 0) -> dict[str, Any]:
    return {"op": "pointer/get", "configuration": {"pointer": TRANSLATION, "type": T["float3"]},
            "values": {"i": inline("int", i)}}


def test_two_reads_by_one_flow_node_evaluate_the_pointer_once() -> None:
    # variable/set reads x + y: both from one math/extract3 of one pointer/get → one host read per activation
    doc = graph_doc([
        {"op": "event/onTick", "flows": {"out": 4}},
        _get_node(),
        {"op": "math/extract3", "values": {"a": link(1)}},
        {"op": "math/add", "values": {"a": link(2, "0"), "b": link(2, "1")}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(3)}},
    ], variables=[variable("float", 0.0)])
    runner, host = _runner(doc)
    runner.tick(0.0, 0.0)
    runner.tick(0.1, 0.1)
    assert runner.errors == []
    assert runner.variable(0) == 1.0  # 0.0 + 1.0
    assert host.reads == ["/nodes/0/translation"] * 2  # once per tick, not once per read


def test_a_flow_node_between_two_reads_makes_the_second_read_afresh() -> None:
    # onTick → pointer/set (y := y + 1) → variable/set (y): the pure chain read by both sees the write
    doc = graph_doc([
        {"op": "event/onTick", "flows": {"out": 4}},
        _get_node(),
        {"op": "math/extract3", "values": {"a": link(1)}},
        {"op": "math/combine3", "values": {"a": inline("float", 0.0), "b": link(6), "c": inline("float", 0.0)}},
        {"op": "pointer/set", "configuration": {"pointer": TRANSLATION, "type": T["float3"]},
         "values": {"i": inline("int", 0), "value": link(3)}, "flows": {"out": 5}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(2, "1")}},
        {"op": "math/add", "values": {"a": link(2, "1"), "b": inline("float", 1.0)}},
    ], variables=[variable("float", 0.0)])
    runner, host = _runner(doc)
    runner.tick(0.0, 0.0)
    assert runner.errors == []
    assert runner.variable(0) == 2.0  # read after the set: 1.0 + 1.0
    assert len(host.reads) == 2


def test_a_loop_end_linked_to_what_its_body_changes_is_read_afresh() -> None:
    # for i in [0, n) with the body doing n := n - 1: 0<5, 1<4, 2<3, then 3<2 stops → 3 iterations, n = 2
    doc = graph_doc([
        {"op": "event/onStart", "flows": {"out": 1}},
        {"op": "flow/for", "values": {"startIndex": inline("int", 0), "endIndex": link(2)},
         "flows": {"loopBody": 4}},
        {"op": "variable/get", "configuration": {"variable": 0}},
        {"op": "math/sub", "values": {"a": link(2), "b": inline("int", 1)}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(3)}, "flows": {"out": 5}},
        {"op": "variable/set", "configuration": {"variables": [1]}, "values": {"1": link(6)}},
        {"op": "math/add", "values": {"a": link(7), "b": inline("int", 1)}},
        {"op": "variable/get", "configuration": {"variable": 1}},
    ], variables=[variable("int", 5), variable("int", 0)])
    runner, _ = _runner(doc)
    runner.start()
    assert runner.errors == []
    assert (runner.variable(0), runner.variable(1)) == (2, 3)


def test_a_variable_set_from_python_between_ticks_is_seen() -> None:
    doc = graph_doc([
        {"op": "event/onTick", "flows": {"out": 1}},
        {"op": "variable/set", "configuration": {"variables": [1]}, "values": {"1": link(2)}},
        {"op": "variable/get", "configuration": {"variable": 0}},
    ], variables=[variable("int", 1), variable("int", 0)])
    runner, _ = _runner(doc)
    runner.tick(0.0, 0.0)
    runner.set_variable(0, 7)
    runner.tick(0.1, 0.1)
    assert runner.variable(1) == 7


def test_a_deep_copy_reads_its_own_nodes() -> None:
    # the copy's compiled readers must read the copy's variables and loop index, not the original's
    doc = graph_doc([
        {"op": "event/onTick", "flows": {"out": 1}},
        {"op": "flow/for", "values": {"startIndex": inline("int", 0), "endIndex": inline("int", 4)},
         "flows": {"loopBody": 4}},
        {"op": "variable/get", "configuration": {"variable": 0}},
        {"op": "math/add", "values": {"a": link(2), "b": link(1, "index")}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(3)}},
    ], variables=[variable("int", 0)])
    runner, _ = _runner(doc)
    runner.tick(0.0, 0.0)
    clone = copy.deepcopy(runner)
    clone.tick(0.1, 0.1)
    clone.tick(0.2, 0.2)
    assert (runner.variable(0), clone.variable(0)) == (6, 18)
    assert runner.nodes[1].out["index"] == 4 and clone.nodes[1].out["index"] == 4


def test_template_pointers_per_int_and_invalid_parameters() -> None:
    # i = 0 reads the node; i = -1 is an invalid parameter: the type's default (NaNs), isValid false, no host read
    doc = graph_doc([
        {"op": "event/onTick", "flows": {"out": 2}},
        _get_node(0),
        {"op": "variable/set", "configuration": {"variables": [0, 1]},
         "values": {"0": link(1, "value"), "1": link(1, "isValid")}},
    ], variables=[variable("float3", 9.0, 9.0, 9.0), variable("bool", False)])
    doc["extensions"]["KHR_interactivity"]["graphs"][0]["nodes"][1]["values"]["i"] = {"node": 3, "socket": "value"}
    doc["extensions"]["KHR_interactivity"]["graphs"][0]["nodes"].append(
        {"declaration": 3, "configuration": {"variable": {"value": [2]}}})
    doc["extensions"]["KHR_interactivity"]["graphs"][0]["declarations"].append({"op": "variable/get"})
    doc["extensions"]["KHR_interactivity"]["graphs"][0]["variables"].append(variable("int", 0))
    runner, host = _runner(doc)
    runner.tick(0.0, 0.0)
    assert (runner.variable(0), runner.variable(1)) == ((0.0, 1.0, 0.0), True)
    runner.set_variable(2, -1)
    runner.tick(0.1, 0.1)
    value = runner.variable(0)
    assert len(value) == 3 and all(v != v for v in value) and runner.variable(1) is False
    assert host.reads == ["/nodes/0/translation"]
    assert runner.nodes[1].state["memo"] == {0: "/nodes/0/translation"}
