"""The vectorised ``flow/for`` against the scalar loop: on random loop bodies (accumulators, plain sets, uniform and
split branches, int32 wrap-around, pointer reads of node TRS, and operations only the scalar loop runs), the same
variables bit for bit, the same activation counts and loop index; and inside a World, the bulk pose read gives the
numbers of the one-by-one reads."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import behaviour_scenes as bs
import gltf_physics.behaviour.vector as vector
from behaviour_graphs import T, bits, graph_doc, inline, link, variable
from gltf_physics.behaviour.build import GraphBuilder
from gltf_physics.behaviour.doc_host import DocumentHost
from gltf_physics.behaviour.read import read_interactivity
from gltf_physics.behaviour.run import GraphRunner
from gltf_physics.sim import World

BODIES = 48


class ManyHost(DocumentHost):
    """A document host that answers ``trs_many`` (from its own one-by-one reads)."""

    def trs_many(self, nodes: list[int], part: str) -> Any:
        """One (N, 3|4) array of the nodes' values (None when one has none)."""
        import numpy as np

        values = [self.get_pointer(f"/nodes/{n}/{part}") for n in nodes]
        if any(v is None or not isinstance(v, tuple) for v in values):
            return None
        return np.array(values, dtype=np.float64)


class _Gen:
    """A random loop body over float variables 0–1 and int variables 2–3."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.nodes: list[dict[str, Any]] = []

    def add(self, node: dict[str, Any]) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def floats(self, depth: int) -> dict[str, Any]:
        r = self.rng.random()
        if depth <= 0 or r < 0.35:
            leaf = self.rng.random()
            if leaf < 0.4:
                get = self.add({"op": "pointer/get", "values": {"i": link(1, "index")},
                                "configuration": {"pointer": "/nodes/[i]/translation", "type": T["float3"]}})
                part = self.add({"op": "math/extract3", "values": {"a": link(get)}})
                return link(part, self.rng.choice("012"))
            if leaf < 0.7:
                return inline("float", self.rng.choice([0.1, -2.5, 1e308, 3.0, -0.0, 1e-300]))
            return link(self.add({"op": "variable/get", "configuration": {"variable": self.rng.choice([0, 1])}}))
        op = self.rng.choice(["math/add", "math/sub", "math/mul", "math/mul", "math/div"])  # div: scalar only
        return link(self.add({"op": op, "values": {"a": self.floats(depth - 1), "b": self.floats(depth - 1)}}))

    def ints(self, depth: int) -> dict[str, Any]:
        r = self.rng.random()
        if depth <= 0 or r < 0.35:
            leaf = self.rng.random()
            if leaf < 0.4:
                return link(1, "index")
            if leaf < 0.7:
                return inline("int", self.rng.choice([1, -7, 2**31 - 1, -2**31, 65537]))
            return link(self.add({"op": "variable/get", "configuration": {"variable": self.rng.choice([2, 3])}}))
        op = self.rng.choice(["math/add", "math/sub", "math/mul"])
        return link(self.add({"op": op, "values": {"a": self.ints(depth - 1), "b": self.ints(depth - 1)}}))

    def condition(self) -> dict[str, Any]:
        op = self.rng.choice(["math/lt", "math/le", "math/gt", "math/ge"])
        pick = self.floats if self.rng.random() < 0.5 else self.ints
        if self.rng.random() < 0.3:  # a branch the same way for every index
            return inline("bool", self.rng.random() < 0.5)
        return link(self.add({"op": op, "values": {"a": pick(1), "b": pick(1)}}))

    def set_node(self) -> int:
        var = self.rng.randrange(4)
        expr = self.floats if var < 2 else self.ints
        if self.rng.random() < 0.6:  # v := v + E(i)
            get = self.add({"op": "variable/get", "configuration": {"variable": var}})
            operands = [link(get), expr(2)]
            if self.rng.random() < 0.5:
                operands.reverse()
            value = link(self.add({"op": "math/add", "values": {"a": operands[0], "b": operands[1]}}))
        else:
            value = expr(2)
        return self.add({"op": "variable/set", "configuration": {"variables": [var]}, "values": {str(var): value}})

    def chain(self, length: int) -> int | None:
        """A flow chain of ``length`` nodes; returns its first node."""
        if length <= 0:
            return None
        if self.rng.random() < 0.3:
            branch = self.add({"op": "flow/branch", "values": {"condition": self.condition()}})
            flows = {side: self.chain(length - 1) for side in ("true", "false") if self.rng.random() < 0.8}
            self.nodes[branch]["flows"] = {k: v for k, v in flows.items() if v is not None}
            return branch
        first = self.set_node()
        rest = self.chain(length - 1)
        if rest is not None:
            self.nodes[first]["flows"] = {"out": rest}
        return first


def _random_doc(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    gen = _Gen(rng)
    start = rng.choice([0, 2, 5])
    gen.add({"op": "event/onTick", "flows": {"out": 1}})
    gen.add({"op": "flow/for", "values": {"startIndex": inline("int", start),
                                          "endIndex": inline("int", start + rng.choice([3, 5, 16, 33]))}})
    body = gen.chain(rng.randint(1, 4))
    gen.nodes[1]["flows"] = {"loopBody": body}
    variables = [variable("float", rng.choice([0.0, 1.5, -0.0])), variable("float", 2.0),
                 variable("int", rng.choice([0, 2**31 - 5])), variable("int", -3)]
    nodes = [{"name": f"n{k}", "translation": [rng.uniform(-10, 10), rng.choice([0.1, 1e-320, -3.3]),
                                                  rng.uniform(0, 1e6)]} for k in range(BODIES)]
    doc = graph_doc(gen.nodes, variables=variables)
    doc["nodes"], doc["scenes"] = nodes, [{"nodes": list(range(BODIES))}]
    return doc


def _run(doc: dict[str, Any], vectorise: bool) -> list[Any]:
    interactivity = read_interactivity(doc)
    assert interactivity is not None
    runner = GraphRunner(interactivity.graphs[0], ManyHost(doc))
    runner.vectorise = vectorise
    seen = []
    for k in range(3):
        runner.tick(k / 60, 1 / 60)
        seen.append(([bits(v) for v in runner.variables], runner.count, runner.nodes[1].out["index"],
                     [str(e) for e in runner.errors]))
    return seen


def test_random_bodies_give_the_scalar_loops_results_bit_for_bit(monkeypatch: Any) -> None:
    ran = []
    real = vector.run_for

    def counting(*args: Any) -> bool:
        done = real(*args)
        ran.append(done)
        return done
    monkeypatch.setattr("gltf_physics.behaviour.ops.flow.run_for", counting)
    for seed in range(150):
        doc = _random_doc(seed)
        assert _run(doc, True) == _run(doc, False), seed
    # both paths were exercised: many bodies vectorised, many fell back to the scalar loop
    assert sum(ran) >= 60 and len(ran) - sum(ran) >= 60, (sum(ran), len(ran))


def _pile(count: int) -> tuple[dict[str, Any], list[int]]:
    doc = bs.scene()
    nodes = [bs.add_body(doc, (1.5 * (k % 5), 0.6 + 1.2 * (k // 5), 0.0), bs.box(1.0)) for k in range(count)]
    return doc, nodes


def test_in_a_world_the_vectorised_tick_equals_the_scalar_one(tmp_path: Path, monkeypatch: Any) -> None:
    doc, nodes = _pile(20)
    g = GraphBuilder()
    total, low = g.variable("total", 0.0), g.variable("low", 0)
    tick = g.node("event/onTick")
    reset = g.node("variable/set", configuration={"variables": [total, low]}, **{str(total): 0.0, str(low): 0})
    loop = g.node("flow/for", startIndex=nodes[0], endIndex=nodes[-1] + 1)
    g.flow(tick, "out", reset)
    g.flow(reset, "out", loop)
    where = g.node("pointer/get", configuration={"pointer": "/nodes/[i]/translation", "type": g.type("float3")},
                   i=g.out(loop, "index"))
    height = g.node("math/extract3", a=g.out(where))
    add = g.node("variable/set", configuration={"variables": [total]}, **{str(total): g.out(g.node(
        "math/add", a=g.out(g.node("variable/get", configuration={"variable": [total]})), b=g.out(height, "1")))})
    g.flow(loop, "loopBody", add)
    check = g.node("flow/branch", condition=g.out(g.node("math/lt", a=g.out(height, "1"), b=-100.0)))
    g.flow(add, "out", check)
    g.attach(doc)
    path = tmp_path / "pile.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")
    worlds = [World.from_file(path), World.from_file(path)]
    worlds[1].graph.vectorise = False
    ran: list[bool] = []
    real = vector.run_for
    monkeypatch.setattr("gltf_physics.behaviour.ops.flow.run_for", lambda *a: ran.append(real(*a)) or ran[-1])
    for _ in range(40):
        for w in worlds:
            w.step()
        a, b = (w.graph for w in worlds)
        assert [bits(v) for v in a.variables] == [bits(v) for v in b.variables] and a.count == b.count
    assert ran == [True, False] * 40  # the first world vectorised every tick; the second ran its scalar loop
    assert 0.0 < worlds[0].graph.variable("total") < 20 * 7.0
    model = worlds[0].object_model
    many = model.trs_many(nodes, "translation")
    assert [tuple(r) for r in many.tolist()] == [model.value(f"/nodes/{n}/translation") for n in nodes]
    rotations = model.trs_many(nodes, "rotation")
    assert [tuple(r) for r in rotations.tolist()] == [model.value(f"/nodes/{n}/rotation") for n in nodes]
    assert model.trs_many([*nodes, 10_000], "translation") is None  # no such body: read one by one


def test_the_accumulator_adds_left_to_right_as_the_scalar_loop_does() -> None:
    """Long sums over 600 decades (where any pairwise or reordered sum differs), NaNs of both signs among the terms
    or as the start, and inf − inf inside the sum, in both operand orders: the Python loop's value, bit for bit."""
    import operator
    from functools import reduce

    import numpy as np

    rng = np.random.default_rng(7)
    for trial in range(300):
        n = int(rng.integers(4, 3000))
        terms = rng.standard_normal(n) * 10.0 ** rng.integers(-300, 300, n)
        if trial % 3 == 0:
            terms[rng.integers(0, n, 3)] = [np.nan, -np.nan, np.inf]
        if trial % 3 == 1:  # inf − inf makes a NaN inside the sum
            terms[rng.integers(0, n, 2)] = [np.inf, -np.inf]
        current = float(rng.standard_normal()) if trial % 5 else [np.nan, -np.nan][trial % 2]
        for first in (True, False):
            expect = reduce(operator.add if first else (lambda acc, term: term + acc), terms.tolist(), current)
            with np.errstate(all="ignore"):  # as run_for calls it
                got = vector._accumulate(current, terms, first, n)
            assert bits(got) == bits(expect), (trial, first)


def test_a_few_rows_of_an_awake_pile_read_alone_give_the_bulk_reads_numbers(tmp_path: Path) -> None:
    """A graph following 3 bodies of a 40-body pile reads those 3 bodies only (under a quarter of all): the same
    float32 numbers as the bulk read's rows and as the one-by-one reads, step after step while the pile falls."""
    doc, nodes = _pile(40)
    path = tmp_path / "pile.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")
    world = World.from_file(path, graph=False)
    model, engine = world.object_model, world.engine
    few = [nodes[3], nodes[17], nodes[31]]
    bodies = engine.body_objects()
    read: list[int] = []
    start = [model.value(f"/nodes/{n}/translation")[1] for n in few]
    real = engine._read_objects
    engine._read_objects = lambda objects: read.append(len(objects)) or real(objects)  # type: ignore[method-assign]
    for _ in range(30):
        world.step()
        got = model.trs_many(few, "translation")
        rows = [engine.moving_nodes.index(n) for n in few]
        assert read[-1] == 3  # the three bodies, not the pile
        assert got.tolist() == engine.read_poses()[rows, 4:].astype(float).tolist()
        assert [tuple(r) for r in got.tolist()] == [model.value(f"/nodes/{n}/translation") for n in few]
    assert len(bodies) == 40 and got[2, 1] < start[2] - 0.05  # the top body fell onto the one below: awake reads
