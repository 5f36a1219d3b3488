"""Benchmark: a 1000-box pile (10×10×10 unit boxes above a static ground), 600 steps at 60 Hz.

Rows, all run in this process on the same scene:
- gltf-physics: ``World.from_file`` (load + read + build) then 600 steps recording every pose (the trace's
  data); the trace CSV text and the bake are timed on their own rows.
- raw rapier3d: hand-written rapier3d building the same bodies (same masses, friction 0.6) and reading every
  pose each step, two ways: ``Isometry3.to_bytes`` joined into one NumPy array (the fastest reader we know,
  the one gltf-physics uses) and ``translation``/``rotation`` ``to_tuple`` per body (the obvious one).
- omi-physics 0.4 (PyPI, its own NumPy/Cython engine) loading the same scene written as OMI_physics_*.

Targets (docs/performance.md): gltf-physics ≤ 1.2× raw rapier3d, ≥ 300× faster than omi-physics, bake ≤ 1 s.
Usage: ``python bench/simulate.py [--steps N] [--omi-steps N]``; omi-physics may take about a minute.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from gltf_physics.dialects import read_scene, write_scene
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.io import load, save
from gltf_physics.model import Body, Box, Collider, Motion, PhysicsScene
from gltf_physics.sim import World, bake
from gltf_physics.sim.trace import trace_text

N = 10  # boxes per edge
SPACING = 1.1
RATE = 60.0


def box_positions() -> list[tuple[float, float, float]]:
    return [(i * SPACING - 5.0, 0.6 + j * SPACING, k * SPACING - 5.0)
            for i in range(N) for j in range(N) for k in range(N)]


def write_pile(folder: Path, family: str) -> Path:
    nodes = [{"name": "ground", "translation": [0.0, -0.5, 0.0]}]
    nodes += [{"name": f"box{b}", "translation": list(p)} for b, p in enumerate(box_positions())]
    doc = Document(json={"asset": {"version": "2.0"}, "scenes": [{"nodes": list(range(len(nodes)))}],
                         "scene": 0, "nodes": nodes}, buffers=[])
    count = len(nodes)
    scene = PhysicsScene(bodies=[Body(n, Motion(mass=1000.0)) for n in range(1, count)],
                         colliders=[Collider(0, Box((100.0, 1.0, 100.0)))]
                         + [Collider(n, Box(), body=n) for n in range(1, count)], document=doc)
    out, _ = write_scene(scene, doc, family)  # type: ignore[arg-type]
    path = folder / f"pile_{family}.gltf"
    save(out, path)
    return path


def run_ours(path: Path, steps: int) -> tuple[float, float, World]:
    t0 = time.perf_counter()
    world = World.from_file(path, rate=RATE, record=True)
    t1 = time.perf_counter()
    world.run(steps / RATE)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, world


def run_raw(steps: int, reader: str) -> tuple[float, float]:
    import rapier3d as rp

    t0 = time.perf_counter()
    world = rp.PhysicsWorld(gravity=(0.0, -9.81, 0.0))
    world.integration_parameters.dt = 1.0 / RATE
    world.add_body(rp.RigidBody.fixed().translation((0.0, -0.5, 0.0)),
                   [rp.Collider.cuboid(50.0, 0.5, 50.0).friction(0.6)])
    handles = [world.add_body(rp.RigidBody.dynamic().translation(p),
                              [rp.Collider.cuboid(0.5, 0.5, 0.5).density(1000.0).friction(0.6)])
               for p in box_positions()]
    poses = np.empty((steps + 1, len(handles), 7), dtype=np.float32)
    t1 = time.perf_counter()
    bodies = world.rigid_bodies
    for s in range(steps):
        world.step()
        if reader == "bytes":
            blob = b"".join([bodies[h].position.to_bytes() for h in handles])
            poses[s + 1] = np.frombuffer(blob, dtype="<f4").reshape(-1, 9)[:, 2:]
        else:
            frame = poses[s + 1]
            for i, h in enumerate(handles):
                b = bodies[h]
                frame[i, :4] = b.rotation.to_tuple()
                frame[i, 4:] = b.translation.to_tuple()
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def run_omi(path: Path, steps: int) -> tuple[float, float] | str:
    try:
        from omi_physics import PhysicsWorld, model
        from omi_physics.omi_gltf import load_document
    except ImportError as e:
        return f"not installed ({e})"
    gltf = load(path).json
    t0 = time.perf_counter()
    odoc = load_document(gltf)
    world = PhysicsWorld(gravity=model.Gravity(gravity=9.81, direction=(0, -1, 0)))
    for shape in odoc.shapes:
        world.add_shape(shape)
    for material in odoc.materials:
        world.add_material(material)
    for idx, nb in sorted(odoc.node_bodies.items()):
        node = gltf["nodes"][idx]
        motion = nb.motion or model.Motion(type=model.STATIC)
        world.add_body(motion, collider=nb.collider, position=tuple(node.get("translation", (0, 0, 0))),
                       orientation=tuple(node.get("rotation", (0, 0, 0, 1))))
    t1 = time.perf_counter()
    for _ in range(steps):
        world.step(1.0 / RATE)
        _ = world.position.copy(), world.orientation.copy()
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--omi-steps", type=int, default=600, help="0 skips omi-physics")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (shared machines are noisy)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        khr = write_pile(Path(tmp), "khr")
        omi = write_pile(Path(tmp), "omi")
        assert len(read_scene(load(khr)).bodies) == N**3
        ours, bytes_runs, tuple_runs = [], [], []
        for _ in range(args.repeat):  # interleaved, so background load hits every row alike
            ours.append(run_ours(khr, args.steps))
            bytes_runs.append(run_raw(args.steps, "bytes"))
            tuple_runs.append(run_raw(args.steps, "tuple"))
        ours_build, ours_run = min(o[0] for o in ours), min(o[1] for o in ours)
        world = ours[0][2]
        raw_bytes = (min(r[0] for r in bytes_runs), min(r[1] for r in bytes_runs))
        raw_tuple = (min(r[0] for r in tuple_runs), min(r[1] for r in tuple_runs))
        doc = load(khr)
        t0 = time.perf_counter()
        baked = bake(world.recording, doc)
        t_bake = time.perf_counter() - t0
        t0 = time.perf_counter()
        text = trace_text(world.recording)
        t_trace = time.perf_counter() - t0
        omi_result = run_omi(omi, args.omi_steps) if args.omi_steps else "skipped"
    print(f"1000-box pile, {args.steps} steps at {RATE:g} Hz; every pose read each step; "
          f"best of {args.repeat}\n")
    print(f"| {'run':<44} | {'build s':>8} | {'steps s':>8} | {'total s':>8} | {'ratio':>8} |")
    print(f"|{'-' * 46}|{'-' * 10}|{'-' * 10}|{'-' * 10}|{'-' * 10}|")
    ours_total = ours_build + ours_run
    base = raw_bytes[0] + raw_bytes[1]

    def row(name: str, build: float, run: float, ratio: str) -> None:
        print(f"| {name:<44} | {build:8.3f} | {run:8.3f} | {build + run:8.3f} | {ratio:>8} |")

    row("gltf-physics World (load+build, run+record)", ours_build, ours_run, f"{ours_total / base:.2f}×")
    row("raw rapier3d, poses via to_bytes", *raw_bytes, "1.00×")
    row("raw rapier3d, poses via to_tuple", *raw_tuple, f"{sum(raw_tuple) / base:.2f}×")
    if isinstance(omi_result, str):
        print(f"| {'omi-physics 0.4':<44} | {omi_result} |")
    else:
        scale = args.steps / args.omi_steps
        omi_total = (omi_result[0] + omi_result[1] * scale)
        row(f"omi-physics 0.4 ({args.omi_steps} steps, run scaled)", omi_result[0], omi_result[1] * scale,
            f"{omi_total / base:.0f}×")
        print(f"\ngltf-physics is {omi_total / ours_total:.0f}× faster than omi-physics (target ≥ 300×)")
    print(f"gltf-physics / raw rapier3d: {ours_total / base:.2f}× (target ≤ 1.2×); "
          f"steps only: {ours_run / raw_bytes[1]:.2f}×")
    print(f"bake 1000 bodies × {world.recording.count} keys: {t_bake:.3f} s (target ≤ 1 s), "
          f"{len(baked.json['animations'][0]['channels'])} channels")
    print(f"trace CSV text ({text.count(chr(10))} lines): {t_trace:.3f} s")


if __name__ == "__main__":
    main()
