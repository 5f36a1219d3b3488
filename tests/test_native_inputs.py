"""No input kills the process: every call into native code (qhull, CoACD, Rapier, MuJoCo) on extreme inputs, each
library in a subprocess of its own, which must end by itself (a negative return code is a signal: SIGSEGV, SIGABRT).

The reproducer: the shipped example with the pendulum's body node (a joint's body, so the validator's sag hint
weighs what it carries) scaled by 1e300, a finite number. qhull crashed on the sphere's hull there (SIGSEGV in
``validate``, ``info`` and ``simulate``); it is now refused in one line, GLTF-SIMULATE, with its pointer.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
BOB = 7  # the pendulum's body node: a joint's body, under the sag hint

# Each child runs its cases and prints one JSON line per case: its name and what came back (the type of the
# result or of the exception). A case that kills the child leaves "started" as its last line.
_PRELUDE = r"""
import json, sys, math
import numpy as np
def case(name, call):
    print(json.dumps({"started": name}), flush=True)
    try:
        out = call()
        outcome = "none" if out is None or (hasattr(out, "__len__") and len(out) == 0) else "ok"
    except Exception as e:
        outcome = type(e).__name__
        print(json.dumps({"why": str(e)[:300]}), flush=True)
    print(json.dumps({"case": name, "outcome": outcome}), flush=True)
cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
cube_t = np.array([[0,1,3],[0,3,2],[4,6,7],[4,7,5],[0,4,5],[0,5,1],[2,3,7],[2,7,6],[0,2,6],[0,6,4],[1,5,7],[1,7,3]])
from gltf_physics.geometry.placement import place_shape
from gltf_physics.model.shapes import Sphere
ball = place_shape(Sphere(radius=0.2), np.diag([1e300, 1e300, 1e300, 1.0])).points  # the reproducer's sphere
nan_cube = cube.copy(); nan_cube[3, 1] = math.nan
inf_cube = cube.copy(); inf_cube[5, 0] = math.inf
SETS = {
    "cube": cube, "sphere*1e300": ball, "cube*1e300": cube * 1e300, "cube*1e-310 (denormal)": cube * 1e-310,
    "cube*5e-324 (smallest denormal)": cube * 5e-324, "NaN vertex": nan_cube, "inf vertex": inf_cube,
    "coplanar": np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0.0]]), "duplicates": np.ones((8, 3)),
    "collinear": np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3.0]]),
    "1 point": cube[:1], "2 points": cube[:2], "3 points": cube[:3], "no points": np.zeros((0, 3)),
}
"""

_QHULL = r"""
from gltf_physics.geometry.hulls import convex_hull, hull_triangles
from gltf_physics.geometry.integrals import mesh_mass
for name, p in SETS.items():
    case("convex_hull " + name, lambda: convex_hull(p))
    case("hull_triangles " + name, lambda: hull_triangles(p))
"""

_COACD = r"""
from gltf_physics.author.decompose import Settings, decompose
fast = Settings.fast(mcts_iterations=5, mcts_nodes=4, resolution=200)
MESHES = {
    "cube": (cube, cube_t), "NaN vertex": (nan_cube, cube_t), "inf vertex": (inf_cube, cube_t),
    "cube*1e300": (cube * 1e300, cube_t), "cube*1e-310 (denormal)": (cube * 1e-310, cube_t),
    "coincident vertices": (np.ones((8, 3)), cube_t), "index beyond the vertices": (cube, cube_t + 10),
    "negative index": (cube, cube_t - 9), "no triangles": (cube, np.zeros((0, 3), int)),
    "no vertices": (np.zeros((0, 3)), np.zeros((0, 3), int)),
    "one triangle": (cube[:3], np.array([[0, 1, 2]])),
}
for name, (v, t) in MESHES.items():
    case("decompose " + name, lambda: decompose(v, t, fast))
"""

_ENGINE = r"""
import copy
from gltf_physics import World, load, read_scene
from gltf_physics.sim.errors import SimulationError
engine = sys.argv[1]
example = json.loads(open(sys.argv[2]).read())
def scaled(node, value):
    d = copy.deepcopy(example); d["nodes"][node]["scale"] = [value] * 3; return d
def sized(value):
    d = copy.deepcopy(example); d["extensions"]["OMI_physics_shape"]["shapes"][3]["sphere"]["radius"] = value
    return d
DOCS = {"body*1e300": scaled(7, 1e300), "ball*1e300": scaled(3, 1e300), "ground*1e300": scaled(0, 1e300),
        "body*1e-310 (denormal)": scaled(7, 1e-310), "ball*5e-324": scaled(3, 5e-324),
        "radius 1e300": sized(1e300), "radius 1e-310": sized(1e-310), "radius 0": sized(0.0)}
import tempfile, os
tmp = tempfile.mkdtemp()
def run(doc):
    path = os.path.join(tmp, "x.gltf")
    with open(path, "w") as f:
        json.dump(doc, f)
    world = World(read_scene(load(path)), engine=engine)
    world.run(0.1)
    return world.pose(3)
for name, doc in DOCS.items():
    case(f"{engine} World {name}", lambda: run(doc))
def velocity(v):
    world = World(read_scene(load(sys.argv[2])), engine=engine)
    world.set("/nodes/3/extensions/OMI_physics_body/motion/linearVelocity", v)
    world.run(0.1)
    return world.pose(3)
for v in ([1e300, 0, 0], [1e-310, 0, 0], [math.nan, 0, 0]):
    case(f"{engine} linearVelocity {v}", lambda: velocity(v))
def factor(v):
    world = World(read_scene(load(sys.argv[2])), engine=engine)
    world.set("/nodes/3/extensions/OMI_physics_body/motion/gravityFactor", v)
    world.run(0.1)
    return world.pose(3)
for v in (1e300, math.nan, 1e-310):
    case(f"{engine} gravityFactor {v}", lambda: factor(v))
"""

_MJCF = r"""
from gltf_physics.formats.mjcf.read import from_mjcf
import tempfile, os
tmp = tempfile.mkdtemp()
def read(size):
    path = os.path.join(tmp, "m.xml")
    with open(path, "w") as f:
        f.write(f'<mujoco><worldbody><body pos="0 0 1"><freejoint/><geom type="sphere" size="{size}"/>'
                f'</body></worldbody></mujoco>')
    return from_mjcf(path).bodies
for size in ("1e300", "1e-310", "nan", "inf", "0", "-1"):
    case(f"from_mjcf sphere size {size}", lambda: read(size))
"""

CHILDREN = {
    "qhull": (_QHULL, ()),
    "coacd": (_COACD, ()),
    "rapier": (_ENGINE, ("rapier", str(EXAMPLE))),
    "mujoco": (_ENGINE, ("mujoco", str(EXAMPLE))),
    "mjcf": (_MJCF, ()),
}
NEEDS = {"coacd": "coacd", "mujoco": "mujoco", "mjcf": "mujoco"}


def _child(code: str, *args: str, cwd: Path) -> tuple[int, list[dict[str, Any]], str]:
    # cwd: a scratch folder, where MuJoCo writes its MUJOCO_LOG.TXT of "unstable simulation" warnings
    proc = subprocess.run([sys.executable, "-c", _PRELUDE + code, *args], capture_output=True, text=True,
                          timeout=240, cwd=cwd)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    return proc.returncode, lines, proc.stderr[-2000:]


@pytest.mark.parametrize("library", sorted(CHILDREN))
def test_no_native_entry_point_is_killed_by_extreme_inputs(library: str, tmp_path: Path) -> None:
    if library in NEEDS:
        pytest.importorskip(NEEDS[library])
    code, args = CHILDREN[library]
    rc, lines, err = _child(code, *args, cwd=tmp_path)
    started = [line["started"] for line in lines if "started" in line]
    assert rc == 0, f"{library}: the child died (return code {rc}) in case {started[-1] if started else None!r}: {err}"
    outcomes = {line["case"]: line["outcome"] for line in lines if "case" in line}
    assert list(outcomes) == started  # every case that started came back
    EXPECTED[library](outcomes)


def _qhull(outcomes: dict[str, str]) -> None:
    # Only the ordinary cube has a hull; everything else is "no hull" (None / no triangles), never an exception.
    assert {k for k, v in outcomes.items() if v == "ok"} == {"convex_hull cube", "hull_triangles cube"}
    assert set(outcomes.values()) == {"ok", "none"}
    assert len(outcomes) == 28


def _coacd(outcomes: dict[str, str]) -> None:
    refused = {k for k, v in outcomes.items() if v == "DecompositionInputError"}
    assert refused == {f"decompose {name}" for name in ("NaN vertex", "inf vertex", "cube*1e300",
                                                        "coincident vertices", "index beyond the vertices",
                                                        "negative index", "no triangles", "no vertices")}
    assert {outcomes["decompose cube"], outcomes["decompose one triangle"]} == {"ok"}


def _engine(outcomes: dict[str, str]) -> None:
    engine = next(iter(outcomes)).split()[0]
    refused = {k.split(" ", 2)[2] for k, v in outcomes.items() if v == "SimulationError"}
    # Beyond the engines' range (MAX_EXTENT, MAX_SPEED) or not finite: refused before the engine sees it (a
    # velocity of 1e300, and a NaN gravity factor, ran on MuJoCo as if never set). Tiny and zero sizes run:
    # MuJoCo's compiler refuses a size of 0 ("size 0 must be positive"), so its writer leaves such a geom out
    # with an MJCF-1 loss.
    assert refused == {"body*1e300", "ball*1e300", "ground*1e300", "radius 1e300",
                       "[1e+300, 0, 0]", "[nan, 0, 0]", "1e+300", "nan"}, engine  # the last two: gravityFactor
    assert set(outcomes.values()) == {"ok", "SimulationError"}


def _mjcf(outcomes: dict[str, str]) -> None:
    # MuJoCo's own compiler parses MJCF: what it refuses comes back as an exception, never a signal.
    assert len(outcomes) == 6
    assert outcomes["from_mjcf sphere size 0"] != "ok" or outcomes["from_mjcf sphere size -1"] != "ok"


EXPECTED = {"qhull": _qhull, "coacd": _coacd, "rapier": _engine, "mujoco": _engine, "mjcf": _mjcf}


def _reproducer(tmp_path: Path) -> Path:
    gltf = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    gltf["nodes"][BOB]["scale"] = [1e300, 1e300, 1e300]
    out = tmp_path / "huge.gltf"
    out.write_text(json.dumps(gltf), encoding="utf-8")
    return out


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gltf_physics", *args], capture_output=True, text=True,
                          timeout=120, cwd=EXAMPLE.parent.parent)


def test_the_1e300_reproducer_is_refused_in_one_line_by_every_command(tmp_path: Path) -> None:
    src = _reproducer(tmp_path)
    refusal = ("the collider shape on node 7 cannot be simulated: a mesh vertex lies beyond 100000 m "
               "(scale included)")
    validate = _cli("validate", str(src))
    assert validate.returncode == 1, validate.stderr  # SIGSEGV (-11) before
    assert f"{src}: error GLTF-SIMULATE /extensions/OMI_physics_shape/shapes/3: {refusal}" in validate.stdout
    for args in (["simulate"], ["simulate", "--quiet"]):
        run = _cli(*args, str(src))
        assert (run.returncode, run.stdout) == (2, "")
        assert run.stderr == f"{src}: /extensions/OMI_physics_shape/shapes/3: {refusal}\n"  # one line, no hints
    info = _cli("info", str(src))
    assert info.returncode == 0 and "Bob" in info.stdout  # a report of what the file holds, not a run
    out = tmp_path / "copy.gltf"
    convert = _cli("convert", str(src), str(out), "-q")  # a lossless re-save keeps the file as it is
    assert (convert.returncode, convert.stderr) == (0, "")
    assert json.loads(out.read_text(encoding="utf-8"))["nodes"][BOB]["scale"] == [1e300] * 3
    assert math.isfinite(1e300)
