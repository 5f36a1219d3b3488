"""Benchmark: the behaviour-graph interpreter's per-activation cost on a 10,000-iteration ``flow/for`` per tick.

Rows (each a tick of one graph on the document host, the median of ``--repeat`` ticks):
- ``for → (nothing)``: 10,000 loop iterations whose body is unconnected (the loop's own work);
- ``for → variable/set(sum + index)``: each iteration activates a ``variable/set`` whose value is
  ``math/add(variable/get, for.index)`` — 10,000 activations, 30,000 value reads;
- the same with the runner's ``vectorise`` off: the scalar loop, one activation after the other (the vectorised
  ``flow/for`` runs this body for every index at once, ``behaviour/vector.py``);
- baseline: a plain Python ``for`` loop of 10,000 doing ``total += i`` (and one calling a function per iteration).

Usage: ``python bench/behaviour.py [--repeat N]``. Prints µs per iteration and the ratio to the plain loop, with
the load average (run the baseline in the same process; quote the load with any number).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # behaviour_graphs

from behaviour_graphs import graph_doc, inline, link, variable
from gltf_physics.behaviour.doc_host import DocumentHost
from gltf_physics.behaviour.read import read_interactivity
from gltf_physics.behaviour.run import GraphRunner

N = 10_000


def _graph(body: bool, vectorise: bool = True) -> GraphRunner:
    nodes = [
        {"op": "event/onTick", "flows": {"out": 1}},
        {"op": "flow/for", "values": {"startIndex": inline("int", 0), "endIndex": inline("int", N)},
         **({"flows": {"loopBody": 4}} if body else {})},
        {"op": "variable/get", "configuration": {"variable": 0}},
        {"op": "math/add", "values": {"a": link(2), "b": link(1, "index")}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(3)}},
    ]
    doc = graph_doc(nodes, variables=[variable("int", 0)])
    graph = read_interactivity(doc).graphs[0]  # type: ignore[union-attr]
    runner = GraphRunner(graph, DocumentHost(doc))
    runner.vectorise = vectorise
    return runner


def _time_ticks(runner: GraphRunner, repeat: int) -> float:
    runner.start()
    times = []
    for k in range(repeat):
        t0 = time.perf_counter()
        runner.tick(k / 60, 1 / 60)
        times.append(time.perf_counter() - t0)
    assert not runner.errors, runner.errors
    return statistics.median(times)


def _plain(repeat: int) -> tuple[float, float]:
    def loop() -> int:
        total = 0
        for i in range(N):
            total += i
        return total

    def step(total: int, i: int) -> int:
        return total + i

    def loop_call() -> int:
        total = 0
        for i in range(N):
            total = step(total, i)
        return total
    out = []
    for fn in (loop, loop_call):
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        out.append(statistics.median(times))
    return out[0], out[1]


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    plain, plain_call = _plain(args.repeat)
    rows = [("plain Python loop (total += i)", plain), ("plain Python loop calling a function", plain_call),
            ("graph: flow/for → (nothing)", _time_ticks(_graph(False), args.repeat)),
            ("graph: flow/for → variable/set(get + index)", _time_ticks(_graph(True), args.repeat)),
            ("  the same, scalar loop (vectorise = False)", _time_ticks(_graph(True, False), args.repeat))]
    print(f"load average {os.getloadavg()[0]:.2f}; {N:,} iterations per tick, median of {args.repeat}")
    print(f"{'row':46} {'ms/tick':>9} {'µs/iter':>9} {'× plain':>9}")
    for name, seconds in rows:
        print(f"{name:46} {seconds * 1e3:9.2f} {seconds / N * 1e6:9.3f} {seconds / plain:9.1f}")


if __name__ == "__main__":
    main()
