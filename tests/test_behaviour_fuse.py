"""Fused math trees (behaviour/fuse.py) against the same nodes run one by one: random trees of every lifted float
operation over IEEE specials (NaN, ±inf, −0.0, subnormals, 1e308), ints, vectors and mixed types give the same
values bit for bit and the same error lines; which nodes fold is exact; a folded tree still reads an input once per
flow epoch."""

from __future__ import annotations

import copy
import math
import random
from typing import Any

from behaviour_graphs import T, bits, graph_doc, inline, link, variable
from gltf_physics.behaviour.doc_host import DocumentHost
from gltf_physics.behaviour.read import read_interactivity
from gltf_physics.behaviour.run import GraphRunner
from test_behaviour_compiled import CountingHost

UNARY = ["math/abs", "math/sign", "math/neg", "math/trunc", "math/floor", "math/ceil", "math/round", "math/fract",
         "math/saturate", "math/rad", "math/deg", "math/sin", "math/cos", "math/tan", "math/asin", "math/acos",
         "math/atan", "math/sinh", "math/cosh", "math/tanh", "math/asinh", "math/acosh", "math/atanh", "math/exp",
         "math/log", "math/log2", "math/log10", "math/sqrt", "math/cbrt"]
BINARY = ["math/add", "math/sub", "math/mul", "math/div", "math/rem", "math/min", "math/max", "math/atan2",
          "math/pow"]
TERNARY = ["math/clamp", "math/mix", "math/smoothStep"]
SPECIALS = [0.0, -0.0, 1.5, -2.25, 1e308, -1e308, 5e-324, 1e-300, math.inf, -math.inf, math.nan, 3.0, 0.5, 100.0]
RESULT = 4  # the variable every tree's value is written to


class _Trees:
    """A random math tree on ``onTick`` whose value is set into variable ``RESULT``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.nodes: list[dict[str, Any]] = [{"op": "event/onTick", "flows": {"out": 1}}, {}]
        self.mixed = False  # an int or float3 variable is read: the generated code must hand over to the nodes

    def add(self, node: dict[str, Any]) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def value(self, depth: int) -> dict[str, Any]:
        if depth <= 0 or self.rng.random() < 0.25:
            if self.rng.random() < 0.5:
                return inline("float", self.rng.choice(SPECIALS))
            var = self.rng.choice([0, 0, 1, 1, 2, 3])  # mostly the float variables, sometimes int or float3
            self.mixed = self.mixed or var >= 2
            return link(self.add({"op": "variable/get", "configuration": {"variable": var}}))
        kind = self.rng.random()
        names, ops = (("a",), UNARY) if kind < 0.4 else (("a", "b"), BINARY) if kind < 0.85 else (("a", "b", "c"),
                                                                                                  TERNARY)
        values = {name: self.value(depth - 1) for name in names}
        return link(self.add({"op": self.rng.choice(ops), "values": values}))


def _doc(seed: int) -> tuple[dict[str, Any], bool]:
    rng = random.Random(seed)
    trees = _Trees(rng)
    trees.nodes[1] = {"op": "variable/set", "configuration": {"variables": [RESULT]},
                      "values": {str(RESULT): trees.value(rng.randint(1, 5))}}
    variables = [variable("float", 1.0), variable("float", -0.0), variable("int", 7), variable("float3", 1.0, 2.0, 3.0),
                 variable("float", 0.0)]
    return graph_doc(trees.nodes, variables=variables), trees.mixed


def _run(doc: dict[str, Any], fuse: bool, inputs: list[tuple[float, float]]) -> tuple[list[Any], int]:
    interactivity = read_interactivity(doc)
    assert interactivity is not None
    runner = GraphRunner(interactivity.graphs[0], DocumentHost(doc), fuse=fuse)
    seen = []
    for k, (x, y) in enumerate(inputs):
        runner.set_variable(0, x)
        runner.set_variable(1, y)
        runner.tick(k / 60, 1 / 60)
        seen.append((bits(runner.variable(RESULT)), [str(e) for e in runner.errors]))
    return seen, runner.fused


def test_random_trees_give_the_unfused_values_bit_for_bit() -> None:
    folded = fell_back = 0
    for seed in range(300):
        rng = random.Random(1000 + seed)
        inputs = [(rng.choice(SPECIALS), rng.choice(SPECIALS)) for _ in range(6)]
        doc, mixed = _doc(seed)
        fused, count = _run(doc, True, inputs)
        plain, none = _run(doc, False, inputs)
        assert fused == plain, seed
        assert none == 0
        folded += count
        fell_back += count > 0 and mixed
    # the generated code ran on many trees, and many of them met an int or a vector and ran the nodes instead
    assert folded >= 300 and fell_back >= 30, (folded, fell_back)


def _tree_doc() -> dict[str, Any]:
    """onTick → set v0 := (y·2 + y) + (s + 1) with y = translation[1] of node 0 read twice and s = a node read twice."""
    get = {"op": "pointer/get", "configuration": {"pointer": "/nodes/0/translation", "type": T["float3"]}}
    nodes = [
        {"op": "event/onTick", "flows": {"out": 1}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(9)}},
        get,                                                                           # 2: read by node 3
        {"op": "math/extract3", "values": {"a": link(2)}},                             # 3: '1' read twice
        {"op": "math/mul", "values": {"a": link(3, "1"), "b": inline("float", 2.0)}},  # 4: folded into 5
        {"op": "math/add", "values": {"a": link(4), "b": link(3, "1")}},               # 5: folded into 9
        {"op": "math/sub", "values": {"a": inline("float", 4.0), "b": inline("float", 0.5)}},  # 6: read twice
        {"op": "math/add", "values": {"a": link(6), "b": link(6)}},                    # 7: folded into 8
        {"op": "math/add", "values": {"a": link(7), "b": inline("float", 1.0)}},       # 8: folded into 9
        {"op": "math/add", "values": {"a": link(5), "b": link(8)}},                    # 9: the top
    ]
    return graph_doc(nodes, variables=[variable("float", 0.0)])


def test_which_nodes_fold_and_that_inputs_are_read_once_per_epoch() -> None:
    doc = _tree_doc()
    interactivity = read_interactivity(doc)
    assert interactivity is not None
    host = CountingHost(doc)
    runner = GraphRunner(interactivity.graphs[0], host)
    # 4 → 5, 5 → 9, 7 → 8, 8 → 9; node 6 is read twice, so it stays a node of its own (its tree is itself)
    assert runner.fused == 4
    assert [n.index for n in runner.nodes if n.thunk is not None and n.thunk.__name__ == "fused"] == [9]
    runner.tick(0.0, 0.0)
    assert runner.variable(0) == (1.0 * 2.0 + 1.0) + ((4.0 - 0.5) + (4.0 - 0.5) + 1.0)
    assert host.reads == ["/nodes/0/translation"]  # one read although the tree uses the height twice
    runner.tick(1 / 60, 1 / 60)
    assert len(host.reads) == 2 and runner.errors == []
    # a snapshot's copy generates its own code over its own readers (a shared one would read the original's nodes)
    clone = copy.deepcopy(runner)
    bound = clone.nodes[9].thunk.__defaults__
    assert clone.fused == 4 and any(r is d for d in bound for n in clone.nodes for r in n.read.values())
    assert not any(r is d for d in bound for n in runner.nodes for r in n.read.values())


def test_a_clamp_with_constant_bounds_gives_the_nodes_own_bits() -> None:
    """A clamp whose bounds are inline (neither NaN nor zero: the generated code compares against them directly)
    on every special input — NaNs of both signs, ±0, ±inf, the bounds themselves — gives the nodes' own bits, in
    both bound orders."""
    bounds = [-2.5, 3.0, 1e308, -math.inf, math.inf, 5e-324, -1e-300]
    inputs = [*SPECIALS, -math.nan, *bounds]
    for b in bounds:
        for c in bounds:
            nodes = [{"op": "event/onTick", "flows": {"out": 1}},
                     {"op": "variable/set", "configuration": {"variables": [RESULT]},
                      "values": {str(RESULT): link(3)}},
                     {"op": "math/add", "values": {"a": link(4), "b": inline("float", -0.0)}},
                     {"op": "math/clamp", "values": {"a": link(2), "b": inline("float", b), "c": inline("float", c)}},
                     {"op": "variable/get", "configuration": {"variable": 0}}]
            doc = graph_doc(nodes, variables=[variable("float", 0.0)] * 4 + [variable("float", 0.0)])
            pairs = [(x, 0.0) for x in inputs]
            fused, count = _run(doc, True, pairs)
            assert count == 1 and fused == _run(doc, False, pairs)[0], (b, c)


def test_a_chain_of_five_thousand_math_nodes_folds_into_one_function() -> None:
    """Folding walks a tree with its own stack: a 5,000-node chain (past Python's recursion limit) builds, runs and
    adds up exactly."""
    count = 5000
    nodes = [{"op": "event/onTick", "flows": {"out": 1}},
             {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(2)}}]
    for k in range(count):
        a = link(len(nodes) + 1) if k < count - 1 else inline("float", 1.0)
        nodes.append({"op": "math/add", "values": {"a": a, "b": inline("float", 1.0)}})
    doc = graph_doc(nodes, variables=[variable("float", 0.0)])
    interactivity = read_interactivity(doc)
    assert interactivity is not None
    runner = GraphRunner(interactivity.graphs[0], DocumentHost(doc))
    runner.tick(0.0, 0.0)
    assert (runner.fused, runner.variable(0), runner.errors) == (count - 1, float(count + 1), [])
