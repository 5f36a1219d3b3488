"""Benchmark: the 1,000-box pile of ``bench/simulate.py`` with a 100-node behaviour graph on ``event/onTick``,
against the same pile without the graph.

Each tick the graph reads every body's height (``flow/for`` over the 1,000 body nodes, ``pointer/get`` of
``/nodes/[i]/translation``), sums them and counts the bodies above a ceiling (math, variables, a branch), stops any
body above the ceiling (``pointer/set`` of its ``linearVelocity``: never, in a settling pile), and writes the mean
height through a chain of math nodes into a marker node's ``translation`` (``pointer/set`` on a node without
physics, so both runs simulate the same bodies). The rows: the pile alone (``graph=False``), with the graph, and
with the same graph looping over 10 bodies only (what a graph reacting to a few bodies costs), and the 1,000-body
graph with the runner's ``vectorise`` off (its ``flow/for`` one iteration after the other). One more row has no
graph but reads every body's pose after each step (``World.poses``): the floor under any graph that reads every
body, since the pinned rapier3d binding reads poses one body at a time.
Goal (the behaviour-graph page of the docs): ≤ 1.2× the pile alone.

Usage: ``python bench/behaviour_physics.py [--steps N] [--repeats N]``; prints the table with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gltf_physics.behaviour.build import GraphBuilder
from gltf_physics.sim import World
from simulate import RATE, write_pile

MOTION = "/extensions/KHR_physics_rigid_bodies/motion"
CEILING = 30.0  # m: above every box of the pile


def add_graph(path: Path, bodies: range, name: str = "pile_graph.gltf") -> tuple[Path, int]:
    """The pile at ``path`` with a marker node and the graph; returns the new file and the graph's node count."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["nodes"].append({"name": "marker"})
    marker = len(doc["nodes"]) - 1
    doc["scenes"][0]["nodes"].append(marker)
    g = GraphBuilder()
    total, above = g.variable("total", 0.0), g.variable("above", 0)
    tick = g.node("event/onTick")
    reset_total = g.node("variable/set", configuration={"variables": [total]}, **{str(total): 0.0})
    reset_above = g.node("variable/set", configuration={"variables": [above]}, **{str(above): 0})
    loop = g.node("flow/for", startIndex=bodies.start, endIndex=bodies.stop)
    g.flow(tick, "out", reset_total)
    g.flow(reset_total, "out", reset_above)
    g.flow(reset_above, "out", loop)
    # the loop body: height of body i, added to the total; above the ceiling → counted and stopped
    where = g.node("pointer/get", configuration={"pointer": "/nodes/[i]/translation", "type": g.type("float3")},
                   i=g.out(loop, "index"))
    height = g.node("math/extract3", a=g.out(where))
    total_now = g.node("variable/get", configuration={"variable": [total]})
    add = g.node("variable/set", configuration={"variables": [total]},
                 **{str(total): g.out(g.node("math/add", a=g.out(total_now), b=g.out(height, "1")))})
    check = g.node("flow/branch", condition=g.out(g.node("math/gt", a=g.out(height, "1"), b=CEILING)))
    above_now = g.node("variable/get", configuration={"variable": [above]})
    count = g.node("variable/set", configuration={"variables": [above]},
                   **{str(above): g.out(g.node("math/add", a=g.out(above_now), b=1))})
    stop = g.node("pointer/set", configuration={"pointer": f"/nodes/[i]{MOTION}/linearVelocity",
                                                "type": g.type("float3")}, i=g.out(loop, "index"),
                  value=(0.0, 0.0, 0.0))
    g.flow(loop, "loopBody", add)
    g.flow(add, "out", check)
    g.flow(check, "true", count)
    g.flow(count, "out", stop)
    # after the loop: the mean height, through a chain of math nodes, onto the marker
    mean = g.node("math/div", a=g.out(g.node("variable/get", configuration={"variable": [total]})),
                  b=float(len(bodies)))
    value = mean
    while len(g.nodes) < 97:  # pad with a realistic chain (scale, offset, clamp) to the 100 nodes asked for
        value = g.node("math/mul", a=g.out(value), b=1.0)
        value = g.node("math/add", a=g.out(value), b=0.0)
        value = g.node("math/clamp", a=g.out(value), b=-1e6, c=1e6)
    place = g.node("math/combine3", a=0.0, b=g.out(value), c=0.0)
    put = g.node("pointer/set", configuration={"pointer": f"/nodes/{marker}/translation", "type": g.type("float3")},
                 value=g.out(place))
    g.flow(loop, "completed", put)
    g.attach(doc)
    out = path.with_name(name)
    out.write_text(json.dumps(doc), encoding="utf-8")
    return out, len(g.nodes)


def run(path: Path, steps: int, graph: Any, vectorise: bool = True, read: bool = False) -> tuple[float, float, World]:
    """Seconds for ``steps`` steps (the World built beforehand; ``vectorise`` False: the graph's scalar loop;
    ``read``: no graph, but every body's pose read after each step, as the graph's ``pointer/get`` loop must), and
    the seconds of those spent in the graph's ticks (pose reads included) or in the reads."""
    world = World.from_file(path, rate=RATE, graph=graph)
    inside = [0.0]
    runner = world.graph
    if runner is not None:
        runner.vectorise = vectorise
        tick = runner.tick

        def timed(*args: Any) -> None:
            t = time.perf_counter()
            tick(*args)
            inside[0] += time.perf_counter() - t
        runner.tick = timed  # type: ignore[method-assign]  # the World's driver calls the runner's tick
    t0 = time.perf_counter()
    for _ in range(steps):
        world.step()
        if read:
            t = time.perf_counter()
            world.poses()
            inside[0] += time.perf_counter() - t
    return time.perf_counter() - t0, inside[0], world


ROWS = ("pile alone (graph=False)", "pile + every pose read after each step",
        "pile + 100-node graph on onTick (1000 gets)", "the same graph over 10 bodies (10 gets)",
        "the 1000-body graph, scalar loop (no NumPy)")


def main() -> None:
    """Run the rows and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        plain = write_pile(Path(tmp), "khr")
        with_graph, nodes = add_graph(plain, range(1, 1001))
        ten, _ = add_graph(plain, range(1, 11), "pile_graph_10.gltf")
        runs: list[list[tuple[float, float]]] = [[] for _ in ROWS]
        world: World | None = None
        for _ in range(args.repeats):  # interleaved: a load change hits every row alike
            for row, (path, graph, vectorise, read) in enumerate((
                    (with_graph, False, True, False), (with_graph, False, True, True), (with_graph, None, True, False),
                    (ten, None, True, False), (with_graph, None, False, False))):
                seconds, inside, done = run(path, args.steps, graph, vectorise, read)
                runs[row].append((seconds, inside))
                world = done if row == 2 else world
        assert world is not None and world.graph is not None and not world.graph.errors, world.graph_errors
        assert nodes == 100
        marker = len(json.loads(with_graph.read_text(encoding="utf-8"))["nodes"]) - 1
        mean = world.get(f"/nodes/{marker}/translation")[1]
    per_step = 1e3 / args.steps
    alone = statistics.median(s for s, _ in runs[0])
    print(f"1000-box pile, {args.steps} steps at {RATE:g} Hz, median of {args.repeats}; "
          f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{'row':<46}{'ms/step':>9}{'ratio':>8}{'in graph or reads':>19}{'steps only':>12}")
    for name, measured in zip(ROWS, runs, strict=True):
        total = statistics.median(s for s, _ in measured)
        inside = statistics.median(i for _, i in measured)
        rest = statistics.median(s - i for s, i in measured)
        print(f"{name:<46}{total * per_step:>9.3f}{total / alone:>8.2f}{inside * per_step:>19.3f}"
              f"{rest / alone:>12.2f}")
    print(f"(the graph's last mean height: {mean:.3f} m; activations in its last tick: {world.graph.count})")
    print("in graph or reads: ms per step inside the graph's tick (its pose reads included) or the pose read; "
          "steps only: the rest against the pile alone")


if __name__ == "__main__":
    main()
