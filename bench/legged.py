"""Legged robots against MuJoCo on the original file: how far the root body of each converted model is from
MuJoCo's over the first 0.3 s and 2 s of a passive fall onto a floor, on Rapier (multibody and impulse joint
paths) and on MuJoCo running the converted glTF. Prints the table of docs/robots.md.

    python bench/legged.py [--models ant,half-cheetah,...] [--duration 2]

The goal: within 2 cm + 25 % of how far MuJoCo moved the root over the first 0.3 s. Models:

- ``ant``: dm_control's ant (``third_party/ant``), given the free root joint and the floor that dm_control's
  locomotion tasks attach to it; ``half-cheetah``, ``hopper``, ``walker``, ``humanoid``: dm_control's suite
  (cheetah, hopper, walker, humanoid) as they are;
- ``laikago-apart``: the same, with the link pairs whose colliders overlap by more than 1 cm at the start
  (the chassis hull and the four upper legs' hulls, 5.2–8.3 cm deep: MuJoCo collides the convex hull of the
  chassis's V-HACD decomposition) kept from touching on both sides (an ``<exclude>`` in MuJoCo, collision
  filters in the glTF);
- ``laikago``: the Laikago quadruped URDF of ``pybullet_data`` (``laikago_toes_zup.urdf``, the Z-up one:
  ``laikago.urdf`` does not compile in MuJoCo, its hip links are below MuJoCo's minimum mass), floating, with a
  plane under it on both sides (MuJoCo compiles the URDF itself, static links kept as bodies). Its joints have
  no limits; it starts at its zero pose (the URDF reader places the links there).

Start: every hinge 0.3 rad from its reference (inside its range), the root lifted until the lowest geom is
1 cm above the floor (MuJoCo's contact distances at the start pose), at rest.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np

import gltf_physics as gp
from gltf_physics.formats.robot_scene import Z_UP_TO_Y_UP
from gltf_physics.gltf.transforms import quat_to_matrix

Y_TO_Z_WORLD = quat_to_matrix(Z_UP_TO_Y_UP).T  # glTF world (Y-up) → the source's Z-up world
ENGINES = ("rapier", "rapier-impulse", "mujoco")
EVERY = 0.01  # s between samples; gltf-physics runs at this rate with SUBSTEPS
SUBSTEPS = 4
SHORT = 0.3  # s: the goal's window
TILT, CLEARANCE = 0.3, 0.01  # rad, m
MODELS = ("ant", "half-cheetah", "hopper", "walker", "humanoid", "laikago", "laikago-apart")
URDF = {"laikago": ("laikago/laikago_toes_zup.urdf", "chassis")}  # pybullet_data path, root link
APART = "-apart"  # a URDF model with the link pairs that overlap at the start kept apart on both sides
OVERLAP = 0.01  # m: a start overlap deeper than this between two links counts (start_overlaps)
SUITE = {"half-cheetah": "cheetah", "hopper": "hopper", "walker": "walker", "humanoid": "humanoid"}


@dataclasses.dataclass
class Case:
    """One legged model: MuJoCo's compile of the source, its start, and the converted glTF scene."""

    name: str
    model: Any  # mujoco.MjModel of the source (with the floor and free root the case adds)
    qpos: np.ndarray
    scene: gp.PhysicsScene  # the converted model, read back from the written KHR glTF
    root: str  # the root body's name in both


def _package(module: str) -> Path:
    return Path(os.path.dirname(__import__(module).__file__))


def _spec(name: str) -> Any:
    import mujoco

    if name == "ant":
        spec = mujoco.MjSpec.from_file(str(_package("dm_control") / "third_party" / "ant" / "ant.xml"))
        spec.body("torso").add_freejoint()
        spec.worldbody.add_geom(name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[0, 0, 0.1])
        return spec
    if name in URDF:
        path, root = URDF[name]
        spec = mujoco.MjSpec.from_file(str(_package("pybullet_data") / path))
        spec.compiler.fusestatic = False  # keep every link a body, as in the glTF
        spec.body(root).add_freejoint()
        spec.worldbody.add_geom(name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[0, 0, 0.1])
        return spec
    return mujoco.MjSpec.from_file(str(_package("dm_control") / "suite" / f"{SUITE[name]}.xml"))


def _root(model: Any) -> int:
    """The body of the model's first joint that moves the whole robot (free or planar root)."""
    return int(model.jnt_bodyid[0])


def start_qpos(model: Any) -> tuple[np.ndarray, float]:
    """The start (module docstring) and how far the root was lifted."""
    import mujoco

    qpos = np.array(model.qpos0)
    for j in range(model.njnt):
        a = int(model.jnt_qposadr[j])
        if int(model.jnt_type[j]) == mujoco.mjtJoint.mjJNT_HINGE:
            q = qpos[a] + TILT
            if model.jnt_limited[j]:
                lo, hi = model.jnt_range[j]
                q = min(max(q, lo + 0.1 * (hi - lo)), hi - 0.1 * (hi - lo))
            qpos[a] = q
    data = mujoco.MjData(model)
    data.qpos[:] = qpos
    mujoco.mj_forward(model, data)
    low = min((float(data.geom_xpos[g][2] - _reach_down(model, data, g)) for g in range(model.ngeom)
               if int(model.geom_bodyid[g]) != 0 and (model.geom_contype[g] or model.geom_conaffinity[g])),
              default=0.0)
    lift = CLEARANCE - low
    j = 0  # the root joint: a free joint's z, or a vertical slide
    a = int(model.jnt_qposadr[j])
    if int(model.jnt_type[j]) == mujoco.mjtJoint.mjJNT_FREE:
        qpos[a + 2] += lift
    else:
        slide = next(k for k in range(model.njnt) if int(model.jnt_type[k]) == mujoco.mjtJoint.mjJNT_SLIDE
                     and abs(model.jnt_axis[k][2]) == 1.0)
        qpos[int(model.jnt_qposadr[slide])] += lift * float(model.jnt_axis[slide][2])
    return qpos, lift


def _reach_down(model: Any, data: Any, g: int) -> float:
    """How far geom ``g`` reaches below its centre (its world AABB's half-height; a mesh: its bounding box)."""
    rot = data.geom_xmat[g].reshape(3, 3)
    half = np.asarray(model.geom_aabb[g][3:6], dtype=float)
    centre = np.asarray(model.geom_aabb[g][0:3], dtype=float)
    return float(np.abs(rot[2]) @ half - rot[2] @ centre)


def mjcf_case(name: str) -> Case:
    """A legged MJCF model, converted by the MJCF reader from MuJoCo's compile (as ``from_mjcf`` does)."""
    from gltf_physics.dialects import write_scene
    from gltf_physics.formats.mjcf.read_model import read_model

    model = _quiet_compile(_spec(name))
    qpos, _ = start_qpos(model)
    imported = read_model(model, f"{name}.xml", qpos=qpos)
    scene = gp.read_scene(write_scene(imported, imported.document, "khr")[0])
    return Case(name, model, qpos, scene, model.body(_root(model)).name)


def start_overlaps(model: Any, qpos: np.ndarray) -> list[tuple[str, str]]:
    """Pairs of bodies (by name, the world aside) whose geoms overlap by more than OVERLAP at ``qpos``."""
    import mujoco

    data = mujoco.MjData(model)
    data.qpos[:] = qpos
    mujoco.mj_forward(model, data)
    pairs = set()
    for k in range(data.ncon):
        a, b = (int(model.geom_bodyid[g]) for g in (data.contact[k].geom1, data.contact[k].geom2))
        if a and b and data.contact[k].dist < -OVERLAP:
            pairs.add(tuple(sorted((model.body(a).name, model.body(b).name))))
    return sorted(pairs)  # type: ignore[arg-type]


def urdf_case(name: str = "laikago") -> Case:
    """A floating URDF quadruped: MuJoCo's compile of the URDF (free root, floor) against our URDF reader's
    glTF with the same floor (a plane, friction 1 combined by maximum, as MuJoCo's default geom) and lift.
    ``NAME-apart``: the pairs of :func:`start_overlaps` kept from touching on both sides."""
    from gltf_physics.dialects import write_scene
    from gltf_physics.model import Collider as ModelCollider
    from gltf_physics.model import CombineMode, PhysicsMaterial, Plane

    apart = name.endswith(APART)
    name = name.removesuffix(APART)
    model = _quiet_compile(_spec(name))
    pairs: list[tuple[str, str]] = []
    if apart:
        pairs = start_overlaps(model, _lift_only(model, model.qpos0.copy())[0])
        spec = _spec(name)
        for a, b in pairs:
            spec.add_exclude(bodyname1=a, bodyname2=b)
        model = _quiet_compile(spec)
    qpos, lift = _lift_only(model, model.qpos0.copy())  # the URDF reader places the links at their zero pose
    imported = gp.from_urdf(_package("pybullet_data") / URDF[name][0], floating_base=True)
    doc = imported.document
    nodes = doc.json["nodes"]  # type: ignore[union-attr]
    top = doc.json["scenes"][doc.json.get("scene", 0)]["nodes"]  # type: ignore[union-attr]
    for n in top:  # the Z-up → Y-up root node(s): lift the robot as MuJoCo's start does
        t = nodes[n].get("translation", [0.0, 0.0, 0.0])
        nodes[n]["translation"] = [t[0], t[1] + lift, t[2]]
    floor = len(nodes)
    nodes.append({"name": "floor"})
    top.append(floor)
    imported.materials.append(PhysicsMaterial(1.0, 1.0, 0.0, CombineMode.MAXIMUM))
    imported.colliders.append(ModelCollider(node=floor, shape=Plane(), material=len(imported.materials) - 1))
    _keep_apart(imported, pairs)
    scene = gp.read_scene(write_scene(imported, doc, "khr")[0])
    return Case(name, model, qpos, scene, model.body(_root(model)).name)


def _keep_apart(imported: Any, pairs: list[tuple[str, str]]) -> None:
    """Collision filters on ``imported``'s colliders so that the bodies (by node name) of each pair never touch:
    every body named in a pair is a collision system of its own that does not collide with its partners'."""
    import dataclasses

    from gltf_physics.model import CollisionFilter

    partners: dict[str, set[str]] = {}
    for a, b in pairs:
        partners.setdefault(a, set()).add(b)
        partners.setdefault(b, set()).add(a)
    nodes = imported.document.json["nodes"]
    index = {}
    for body, others in sorted(partners.items()):
        imported.filters.append(CollisionFilter((body,), (), tuple(sorted(others))))
        index[body] = len(imported.filters) - 1
    for k, col in enumerate(imported.colliders):
        owner = nodes[col.body].get("name") if col.body is not None else None
        if owner in index:
            imported.colliders[k] = dataclasses.replace(col, filter=index[owner])


def _lift_only(model: Any, qpos: np.ndarray) -> tuple[np.ndarray, float]:
    """``qpos`` (a free root at the origin) lifted until the lowest geom is CLEARANCE above the floor."""
    import mujoco

    qpos = qpos.copy()
    qpos[2] = 0.0
    data = mujoco.MjData(model)
    data.qpos[:] = qpos
    mujoco.mj_forward(model, data)
    low = min(float(data.geom_xpos[g][2] - _reach_down(model, data, g)) for g in range(model.ngeom)
              if int(model.geom_bodyid[g]) != 0 and (model.geom_contype[g] or model.geom_conaffinity[g]))
    qpos[2] = CLEARANCE - low
    return qpos, float(qpos[2])


def _quiet_compile(spec: Any) -> Any:
    import mujoco

    previous = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(lambda text: None)  # the suite's walker warns; MuJoCo would log to the cwd
    try:
        with warnings.catch_warnings():  # and MjSpec repeats it as a Python warning
            warnings.simplefilter("ignore", UserWarning)
            return spec.compile()
    finally:
        mujoco.set_mju_user_warning(previous)


def case(name: str) -> Case:
    """The named model (one of MODELS)."""
    return urdf_case(name) if name.removesuffix(APART) in URDF else mjcf_case(name)


def reference(c: Case, duration: float) -> np.ndarray:
    """MuJoCo on the source: the root body's position (Z-up) every EVERY s, (T, 3)."""
    import mujoco

    data = mujoco.MjData(c.model)
    data.qpos[:] = c.qpos
    mujoco.mj_forward(c.model, data)
    per = max(1, round(EVERY / c.model.opt.timestep))
    root = _root(c.model)
    out = [data.xpos[root].copy()]
    for _ in range(round(duration / EVERY)):
        for _ in range(per):
            mujoco.mj_step(c.model, data)
        out.append(data.xpos[root].copy())
    return np.asarray(out)


def converted(c: Case, duration: float, engine: str) -> np.ndarray:
    """The converted glTF on ``engine`` (``rapier``, ``rapier-impulse``: every joint on impulse joints,
    ``mujoco``): the root node's position (Z-up) every EVERY s, (T, 3)."""
    options = {"articulations": False} if engine == "rapier-impulse" else {}
    world = gp.World(c.scene, rate=1 / EVERY, substeps=SUBSTEPS, engine=engine.split("-")[0],  # type: ignore[arg-type]
                     **options)
    nodes = c.scene.document.json["nodes"]  # type: ignore[union-attr]
    node = next(b.node for b in c.scene.bodies if nodes[b.node].get("name") == c.root)
    out = []
    for k in range(round(duration / EVERY) + 1):
        if k:
            world.step()
        out.append(Y_TO_Z_WORLD @ np.asarray(world.pose(node)[0], dtype=float))
    return np.asarray(out)


def row(c: Case, duration: float, engines: tuple[str, ...] = ENGINES) -> dict[str, float]:
    """moved (MuJoCo's root over SHORT s), and per engine the largest root distance from MuJoCo over SHORT s
    and over ``duration``, and whether SHORT meets the goal."""
    ref = reference(c, duration)
    short = round(SHORT / EVERY) + 1
    out = {"moved": float(np.linalg.norm(ref[:short] - ref[0], axis=1).max())}
    for engine in engines:
        gap = np.linalg.norm(converted(c, duration, engine) - ref, axis=1)
        out[f"{engine}_short"] = float(gap[:short].max()) if np.isfinite(gap[:short]).all() else float("inf")
        out[f"{engine}_long"] = float(gap.max()) if np.isfinite(gap).all() else float("inf")
    return out


def goal(moved: float) -> float:
    """The largest root distance the goal allows over the first SHORT s."""
    return 0.02 + 0.25 * moved


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=float, default=2.0)
    parser.add_argument("--models", default=",".join(MODELS))
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f}")
    print(f"| model | MuJoCo moved over {SHORT:g} s (m) | goal (m) | Rapier {SHORT:g} s | {args.duration:g} s | "
          f"Rapier, impulse joints, {SHORT:g} s | {args.duration:g} s | MuJoCo on the glTF {SHORT:g} s | "
          f"{args.duration:g} s |")
    print("|-|-|-|-|-|-|-|-|-|")
    for name in (n for n in args.models.split(",") if n):
        r = row(case(name), args.duration)
        cells = []
        for e in ENGINES:
            mark = " ✓" if r[f"{e}_short"] <= goal(r["moved"]) else ""
            cells.append(f"{r[f'{e}_short']:.3f}{mark} | {r[f'{e}_long']:.3f}")
        print(f"| {name} | {r['moved']:.3f} | {goal(r['moved']):.3f} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
