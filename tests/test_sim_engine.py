"""The engine interface (sim/engine.py): every backend implements it, each is imported only when a World of that
engine is built, and the engine-specific helpers (node matrices for seat frames, controlled parts) are methods
of the backends, so ``World(engine="mujoco").seat_frame`` works as on Rapier (the SEAT-2 frame)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import fixture_path
from gltf_physics.api import load, read_scene
from gltf_physics.gltf.transforms import quat_to_matrix
from gltf_physics.sim import SimulationError, World
from gltf_physics.sim.engine import ENGINES, Engine
from mujoco_scenes import falling_sphere
from scale_helpers import env

CAR = "OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf"  # a car body carrying four OMI_seat nodes
PILOT, CAR_BODY = 6, 0


def engine_modules(code: str) -> str:
    """The engine packages (rapier3d, mujoco) loaded after running ``code`` in a fresh interpreter."""
    probe = code + "\nimport sys; print(sorted({m.split('.')[0] for m in sys.modules} & {'rapier3d', 'mujoco'}))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env(), timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_importing_the_runtime_loads_no_engine():
    assert engine_modules("import gltf_physics.sim, gltf_physics.sim.world, gltf_physics.sim.engine") == "[]"


def test_a_mujoco_run_never_imports_rapier():
    code = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
            "from gltf_physics.sim import World\nfrom mujoco_scenes import falling_sphere\n"
            "w = World(falling_sphere(), engine='mujoco', record=True); w.run(0.1); assert w.recording.count == 7")
    assert engine_modules(code) == "['mujoco']"


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_backend_implements_the_interface(name):
    assert isinstance(World(falling_sphere(), engine=name).engine, Engine)


def test_an_unknown_engine_names_the_known_ones():
    with pytest.raises(SimulationError) as e:
        World(falling_sphere(), engine="bullet")
    assert str(e.value) == "unknown engine 'bullet' (rapier or mujoco)"


def seat_frames(engine: str, seconds: float) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pilot seat's frame after ``seconds``, and the car's pose at the start and then."""
    w = World(read_scene(load(fixture_path(CAR))), engine=engine)
    t0, q0 = w.pose(CAR_BODY)
    w.run(seconds)
    t, q = w.pose(CAR_BODY)
    return w.seat_frame(PILOT), t0, q0, t, q


def test_seat_frame_is_the_same_on_both_engines():
    # At t = 0 both engines hold the car where the file puts it: the same seat frame (float32 poses on Rapier).
    rapier, mujoco = seat_frames("rapier", 0.0)[0], seat_frames("mujoco", 0.0)[0]
    assert rapier.keys() == mujoco.keys() == {"back", "knee", "foot", "forward", "right", "spine"}
    for key in rapier:
        assert mujoco[key] == pytest.approx(rapier[key], abs=1e-6), key
    assert rapier["back"] == pytest.approx((0.4, 0.4, -0.3), abs=1e-6)
    assert rapier["forward"] == pytest.approx((0.0, 0.0, 1.0), abs=1e-6)
    assert rapier["right"] == pytest.approx((-1.0, 0.0, 0.0), abs=1e-6)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_seat_frame_rides_with_its_body(engine):
    # The seat node is a child of the car body: its points move rigidly with the car's pose on either engine.
    frame, t0, q0, t, q = seat_frames(engine, 0.5)
    assert np.linalg.norm(t - t0) > 0.1  # the car has moved (fallen or driven)
    turn = quat_to_matrix(q) @ quat_to_matrix(q0).T
    for key, start in (("back", (0.4, 0.4, -0.3)), ("knee", (0.4, 0.4, 0.3))):
        assert frame[key] == pytest.approx(turn @ (np.array(start) - t0) + t, abs=1e-5), key
    assert frame["forward"] == pytest.approx(turn @ np.array([0.0, 0.0, 1.0]), abs=1e-5)


def test_mujoco_says_controlled_parts_are_not_simulated():
    w = World(read_scene(load(fixture_path(CAR))), engine="mujoco")
    with pytest.raises(SimulationError) as e:
        w.set("/nodes/0/extensions/OMI_vehicle_body/linearActivation", [0, 0, 1])
    assert str(e.value).endswith(": vehicle properties are not simulated on MuJoCo")
