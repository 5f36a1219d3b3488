"""Robots in: passive runs of converted URDF/MJCF models on gltf-physics (Rapier, MuJoCo) against MuJoCo on the
original, and the MJCF → glTF → MJCF round trip. Prints the tables of docs/robots.md.

    python bench/robots.py [--duration 2] [--models cartpole,pendulum,...]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

import gltf_physics as gp
from gltf_physics.formats.robot_scene import Z_UP_TO_Y_UP
from gltf_physics.gltf.transforms import quat_to_matrix

Y_TO_Z_WORLD = quat_to_matrix(Z_UP_TO_Y_UP).T  # glTF world (Y-up) → the source's Z-up world
ENGINES = ("rapier", "rapier-impulse", "mujoco")


def suite_path(name: str) -> Path:
    """A dm_control suite model, read from the installed package."""
    import dm_control

    return Path(os.path.dirname(dm_control.__file__)) / "suite" / f"{name}.xml"


def tilted_qpos(model: object, tilt: float, lift: float = 0.3) -> np.ndarray:
    """``qpos0`` with every hinge moved by ``tilt`` rad (kept inside its range) — a model at rest in its
    reference pose would show nothing — and a free or vertical-slide root lifted by ``lift`` m, so that no foot
    starts inside the floor."""
    qpos = np.array(model.qpos0)  # type: ignore[attr-defined]
    for j in range(model.njnt):  # type: ignore[attr-defined]
        a = int(model.jnt_qposadr[j])  # type: ignore[attr-defined]
        if int(model.jnt_type[j]) == 0:  # type: ignore[attr-defined]
            qpos[a + 2] += lift
        elif int(model.jnt_type[j]) == 2 and abs(model.jnt_axis[j][2]) == 1.0:  # type: ignore[attr-defined]
            qpos[a] += lift * float(model.jnt_axis[j][2])  # type: ignore[attr-defined]
        if int(model.jnt_type[j]) == 3:  # type: ignore[attr-defined]
            a = int(model.jnt_qposadr[j])  # type: ignore[attr-defined]
            q = qpos[a] + tilt
            if model.jnt_limited[j]:  # type: ignore[attr-defined]
                lo, hi = model.jnt_range[j]  # type: ignore[attr-defined]
                q = min(max(q, lo + 0.1 * (hi - lo)), hi - 0.1 * (hi - lo))
            qpos[a] = q
    return qpos


def mujoco_reference(model: object, qpos: np.ndarray, duration: float,
                     every: float) -> tuple[list[str], np.ndarray, float]:
    """Body names, world centres of mass (T, B, 3) from MuJoCo on the original model started at ``qpos``, and the
    sampling period (a whole number of the model's steps, near ``every``)."""
    import mujoco

    data = mujoco.MjData(model)
    data.qpos[:] = qpos
    mujoco.mj_forward(model, data)
    per = max(1, round(every / model.opt.timestep))
    samples = [data.xipos.copy()]
    for _ in range(round(duration / model.opt.timestep / per)):
        for _ in range(per):
            mujoco.mj_step(model, data)
        samples.append(data.xipos.copy())
    names = [model.body(i).name for i in range(model.nbody)]
    return names, np.asarray(samples), per * float(model.opt.timestep)


def gltf_run(scene: gp.PhysicsScene, names: list[str], duration: float, every: float, engine: str,
             substeps: int = 4, gravity_z_up: tuple[float, float, float] | None = None) -> np.ndarray:
    """World centres of mass (T, B, 3) in the source's Z-up frame of the bodies ``names`` (NaN where none).
    ``engine`` ``rapier-impulse``: Rapier with every joint on impulse joints (no multibodies)."""
    rate = 1.0 / every
    gravity = None if gravity_z_up is None else tuple(float(v) for v in Y_TO_Z_WORLD.T @ np.asarray(gravity_z_up))
    options = {"articulations": False} if engine == "rapier-impulse" else {}
    world = gp.World(scene, rate=rate, substeps=substeps, engine=engine.split("-")[0], gravity=gravity,  # type: ignore[arg-type]
                     **options)
    nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
    by_name = {nodes[b.node].get("name"): b.node for b in scene.bodies}
    com = {b.node: np.asarray(b.motion.center_of_mass or (0.0, 0.0, 0.0)) for b in scene.bodies}
    out = []
    for k in range(round(duration * rate) + 1):
        if k:
            world.step()
        row = []
        for name in names:
            node = by_name.get(name)
            if node is None:
                row.append(np.full(3, np.nan))
                continue
            t, q = world.pose(node)
            row.append(Y_TO_Z_WORLD @ (t + quat_to_matrix(q) @ com[node]))
        out.append(row)
    return np.asarray(out)


def behaviour(name: str, duration: float, every: float = 0.01, tilt: float = 0.3) -> dict[str, float]:
    """Max position differences (m) of every moving body, Rapier and MuJoCo-on-glTF vs MuJoCo, over the run and
    over its first 0.5 s, each hinge started ``tilt`` rad from its reference."""
    import mujoco

    from gltf_physics.dialects import write_scene
    from gltf_physics.formats.mjcf.read_model import read_model

    model = mujoco.MjModel.from_xml_path(str(suite_path(name)))
    qpos = tilted_qpos(model, tilt)
    names, ref, every = mujoco_reference(model, qpos, duration, every)
    imported = read_model(model, name, qpos=qpos)
    scene = gp.read_scene(write_scene(imported, imported.document, "khr")[0])  # through the written KHR
    row: dict[str, float] = {}
    for engine in ENGINES:
        t0 = time.process_time()
        got = gltf_run(scene, names, duration, every, engine)
        row[f"{engine}_s"] = time.process_time() - t0
        diff = np.linalg.norm(got - ref, axis=2)
        diff = diff[:, ~np.isnan(diff).any(axis=0)]
        row[f"{engine}_max"] = float(diff.max())
        half = round(0.5 / every)
        row[f"{engine}_max_0.5"] = float(diff[: half + 1].max())
    row["moved"] = float(np.nanmax(np.linalg.norm(ref - ref[0], axis=2)))
    return row


def main() -> None:
    import mujoco

    mujoco.set_mju_user_warning(lambda text: None)  # the suite's walker warns; MuJoCo would log to the cwd
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=float, default=2.0)
    parser.add_argument("--models", default="pendulum,acrobot,cartpole,cheetah,walker,humanoid")
    parser.add_argument("--urdf", default="kuka_iiwa/model.urdf")
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f}")
    print("| model | source moved (m) | Rapier 0.5 s | Rapier 2 s | Rapier, impulse joints, 0.5 s | 2 s | "
          "MuJoCo on the glTF 0.5 s | 2 s |")
    print("|-|-|-|-|-|-|-|-|")
    rows = [(name, behaviour(name, args.duration)) for name in args.models.split(",") if name]
    rows += [(urdf, urdf_behaviour(urdf, args.duration)) for urdf in args.urdf.split(",") if urdf]
    for name, r in rows:
        print(f"| {name} | {r['moved']:.3g} | " + " | ".join(
            f"{r[f'{e}_max_0.5']:.2g} | {r[f'{e}_max']:.2g}" for e in ENGINES) + " |", flush=True)



URDF_GRAVITY = (3.0, 2.0, -9.81)  # tilted: an arm at its zero pose stands upright, balanced, under plain gravity


def urdf_behaviour(relative: str, duration: float, every: float = 0.01) -> dict[str, float]:
    """The URDF loaded by MuJoCo (root fixed, as both read it) against the converted glTF on both engines, under
    a tilted gravity (the same on both sides)."""
    import mujoco
    import pybullet_data

    path = Path(pybullet_data.getDataPath()) / relative
    spec = mujoco.MjSpec.from_file(str(path))
    spec.compiler.fusestatic = False  # keep every link a body, as in the glTF
    model = spec.compile()
    # MuJoCo lets a child of a body welded to the world touch it (filterparent stops at the world); glTF keeps
    # every jointed pair apart (JOINT-9): exclude the root's first child too, so both sides mean the same.
    for j in range(model.njnt):
        child = int(model.jnt_bodyid[j])
        parent = int(model.body_parentid[child])
        if parent and int(model.body_weldid[parent]) == 0:
            spec.add_exclude(bodyname1=model.body(parent).name, bodyname2=model.body(child).name)
    model = spec.compile()
    model.opt.timestep = every / 4
    model.opt.gravity[:] = URDF_GRAVITY
    names, ref, every = mujoco_reference(model, model.qpos0.copy(), duration, every)
    scene = gp.read_scene(gp.import_to_gltf(path, "khr")[0])
    row: dict[str, float] = {}
    for engine in ENGINES:
        got = gltf_run(scene, names, duration, every, engine, gravity_z_up=URDF_GRAVITY)
        diff = np.linalg.norm(got - ref, axis=2)
        diff = diff[:, ~np.isnan(diff).any(axis=0)]
        row[f"{engine}_max"] = float(diff.max())
        row[f"{engine}_max_0.5"] = float(diff[: round(0.5 / every) + 1].max())
    row["moved"] = float(np.nanmax(np.linalg.norm(ref - ref[0], axis=2)))
    return row


if __name__ == "__main__":
    main()
