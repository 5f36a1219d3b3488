"""The six crash classes the fuzzer and a reading of the fast paths found, each pinned on the exact document shape
that showed it (an official sample with one value changed). Every test here failed before its fix."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

import gltf_physics as gp
from conftest import fixture_path
from gltf_physics.cli import app
from gltf_physics.gltf.transforms import affine_inverse

JOINTS = "OMI_physics_joint/gen2-physicsJoints"
ZERO_LAST_ROW = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]  # column-major: the last row is (0, 0, 0, 0)
PARALLEL_COLUMNS = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]  # x, y and z all map onto the x axis


def sample(tmp_path: Path, name: str, edit: Any) -> Path:
    """A copy of the official OMI joint sample ``name`` (with its .bin) after ``edit(gltf)``."""
    source = fixture_path(f"{JOINTS}/{name}")
    gltf = json.loads(source.read_text(encoding="utf-8"))
    edit(gltf)
    for buffer in gltf.get("buffers", []):
        shutil.copy(source.parent / buffer["uri"], tmp_path / buffer["uri"])
    out = tmp_path / name
    out.write_text(json.dumps(gltf), encoding="utf-8")
    return out


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def codes(path: Path) -> list[tuple[str, str]]:
    return [(m.code, m.pointer) for m in gp.validate(gp.load(path)).messages if not m.code.startswith("HINT-")]


# 1 ---------------------------------------------------------------- a singular 4×4 whose 3×3 part is regular


def test_the_affine_inverse_of_a_matrix_with_a_zero_last_row_inverts_its_affine_part() -> None:
    m = np.array(ZERO_LAST_ROW, dtype=float).reshape(4, 4).T
    assert np.array_equal(affine_inverse(m), np.eye(4))  # raised LinAlgError: Singular matrix


@pytest.mark.parametrize("node", [4, 6])  # the joint node, the ball's body node
def test_a_zero_last_row_on_a_joint_or_body_node_converts_and_is_reported(tmp_path: Path, node: int) -> None:
    def edit(gltf: dict[str, Any]) -> None:
        gltf["nodes"][node].pop("translation", None)
        gltf["nodes"][node]["matrix"] = ZERO_LAST_ROW

    path = sample(tmp_path, "slider_ball.gltf", edit)
    out, _ = gp.convert(gp.load(path), to="khr")
    assert out.json["nodes"][node]["matrix"] == ZERO_LAST_ROW  # kept as written, never rewritten
    assert ("NODE_MATRIX_NON_TRS", f"/nodes/{node}/matrix") in codes(path)


# 2 ---------------------------------------------------------------- an axis list longer than three


def test_a_limit_on_four_linear_axes_converts_noted_and_the_simulation_refuses_it(tmp_path: Path) -> None:
    def edit(gltf: dict[str, Any]) -> None:
        gltf["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["limits"][0]["linearAxes"] = [0, 1, 2, 3]

    path = sample(tmp_path, "swing_and_slide.gltf", edit)
    note = "/extensions/OMI_physics_joint/physicsJoints/0/limits/0/linearAxes"
    out, losses = gp.convert(gp.load(path), to="khr")  # raised ValueError: too many values to unpack
    assert [(loss["code"], loss["pointer"]) for loss in losses] == [("JOINT-5", note)]
    assert out.json["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][0]["limits"][0]["linearAxes"] == \
        [0, 1, 2, 3]  # written as read: the loss report names it
    assert ("JOINT-5", f"{note}/3") in codes(path)
    code, output = run("simulate", str(path), "--duration", "0.1")
    assert code == 2 and "limit axes [0, 1, 2, 3] must be distinct values 0, 1 or 2" in output


# 3 ---------------------------------------------------------------- integers beyond a double's range


def test_an_accessor_bound_of_400_digits_is_reported_at_its_pointer_not_a_stopped_check(tmp_path: Path) -> None:
    def edit(gltf: dict[str, Any]) -> None:
        gltf["accessors"][0]["min"] = [10**400, 0, 0]

    path = sample(tmp_path, "slider_ball.gltf", edit)
    found = codes(path)
    assert ("VALUE_NOT_IN_RANGE", "/accessors/0/min/0") in found
    assert [c for c, _ in found if c == "GLTF-READ"] == []  # was "the core data checks stopped early"


# 4 ---------------------------------------------------------------- values the engine's first step cannot hold


@pytest.mark.parametrize(("key", "value", "why"), [
    ("gravityFactor", 1e308, "the state of node 6 became non-finite at t = 0.0166667 s"),
    # beyond MAX_SPEED the preflight refuses it before the engine (it went non-finite at the first step)
    ("linearVelocity", [3.5e38, 0, 0], "body node 6: a velocity exceeds 1e+10 (m/s or rad/s), beyond what the "
                                       "engines can take")])
def test_what_the_first_step_refuses_the_validator_names_first_at_the_same_pointer(
        tmp_path: Path, key: str, value: Any, why: str) -> None:
    def edit(gltf: dict[str, Any]) -> None:
        gltf["nodes"][6]["extensions"]["OMI_physics_body"]["motion"][key] = value

    path = sample(tmp_path, "slider_ball.gltf", edit)
    pointer = "/nodes/6/extensions/OMI_physics_body"
    assert ("GLTF-SIMULATE", pointer) in codes(path)  # validate said "valid"
    code, output = run("simulate", str(path), "--duration", "0.1")
    assert code == 2
    assert output.strip().splitlines() == [f"{path}: {pointer}: {why}"]  # one line


# 5 ---------------------------------------------------------------- parallel columns passed the fast check


def test_a_matrix_with_parallel_columns_is_non_trs_and_refused_before_the_engine(tmp_path: Path) -> None:
    def edit(gltf: dict[str, Any]) -> None:
        gltf["nodes"][7]["matrix"] = PARALLEL_COLUMNS  # the ball's shape node

    path = sample(tmp_path, "slider_ball.gltf", edit)
    found = codes(path)
    assert ("NODE_MATRIX_NON_TRS", "/nodes/7/matrix") in found
    assert [c for c, _ in found if c == "GLTF-SIMULATE"] == ["GLTF-SIMULATE"]
    code, output = run("simulate", str(path), "--duration", "0.1")
    assert code == 2
    assert "the physics engine failed" not in output  # was Rapier's MeshConversionError
    assert "the convex hull's points lie on one line (or one point)" in output


# 6 ---------------------------------------------------------------- an error line without the file


@pytest.mark.parametrize("args", [("info",), ("convert", "{out}.xml", "--to", "mjcf")])
def test_a_broken_mesh_index_error_line_starts_with_the_file(tmp_path: Path, args: tuple[str, ...]) -> None:
    source = fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/ShapeTypes/ShapeTypes.gltf")
    gltf = json.loads(source.read_text(encoding="utf-8"))
    for entry in (*gltf.get("buffers", []), *gltf.get("images", [])):
        shutil.copy(source.parent / entry["uri"], tmp_path / entry["uri"])
    broken = copy.deepcopy(gltf)
    mesh = broken["nodes"][18]["mesh"]  # the triangle-mesh collider's geometry
    broken["accessors"][broken["meshes"][mesh]["primitives"][0]["attributes"]["POSITION"]]["count"] = 3
    path = tmp_path / "broken.gltf"
    path.write_text(json.dumps(broken), encoding="utf-8")
    argv = [args[0], str(path), *(a.format(out=tmp_path / "out") for a in args[1:])]
    code, output = run(*argv)
    assert code == 2
    assert output.strip() == f"{path}: /meshes/{mesh}/primitives/0/indices: index 555 ≥ vertex count 3"


# Found by the 20,000-case property run after the six: a hull whose extent is near the float limit -------------


def test_a_hull_at_the_float_limit_is_no_hull_and_raises_nothing() -> None:
    from gltf_physics.geometry.hulls import convex_hull, hull_triangles

    huge = np.array([[0, 0, 0], [1.7e308, 0, 0], [0, 1.7e308, 0], [0, 0, 1.7e308], [1e308, 1e308, 1e308]])
    assert hull_triangles(huge).shape == (0, 3)  # raised OverflowError: the flatness test cubed the extent
    assert convex_hull(huge) is None


@pytest.mark.parametrize("thin", [1e-3, 1e-4, 8.7e-6])
def test_a_sphere_squashed_to_a_needle_builds_where_rapiers_own_hull_gives_up(thin: float) -> None:
    # Rapier's float32 hull builder refuses these slivers (1e-3 and 1e-4 but not 3e-4: no thickness threshold
    # predicts it); the runtime hands it qhull's hull as a convex mesh instead of stopping.
    from gltf_physics.gltf.document import Document
    from scale_helpers import ball

    gltf = ball()
    gltf["nodes"][0]["scale"] = [1.0, thin, thin]
    world = gp.World(gp.read_scene(Document(json=gltf, buffers=[])))
    world.run(0.5)
    assert world.pose(0)[0][1] == pytest.approx(2.0 - 9.81 * 0.5**2 / 2, abs=0.02)  # it falls, nothing to hit
