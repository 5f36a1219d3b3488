"""`add`'s table: what every combination of ``--body`` and ``--collider`` makes (docs/tutorials/add-physics.md).

One plain model, a concave L-shaped prism on one root node, so that ``auto`` takes its last branches: a convex
decomposition on a moving body, the triangle mesh on a static one. Each cell asserts the exact body kinds (read
back from the written file) and the collider shapes made. And ``--ground``: a static ground under the model, with
the no-ground hint before it.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

import gltf_physics as gp
from author_meshes import box, document, l_shape, write
from gltf_physics.author import AuthorError, Settings, add_physics
from gltf_physics.cli import main
from gltf_physics.model import Box, Capsule, Cylinder, MeshShape, MotionType, Sphere

FAST = Settings.fast(seed=1, mcts_iterations=8, mcts_nodes=4, resolution=300)
L_SHAPE = l_shape()
BODY_ROWS = (None, "dynamic", "kinematic", "static")
COLLIDER_COLUMNS = (None, "auto", "box", "sphere", "capsule", "cylinder", "hull", "decompose", "mesh")
REFUSED = "SHAPE-9"  # a triangle mesh on a moving body

# (body row, collider column) → (body kind of the root, shape kind of its collider(s)); None: the default.
# Without --body the root becomes a dynamic body, or a static one when all its colliders are triangle meshes.
# auto: the smallest primitive within 10 % of the hull's volume, else the hull when nearly convex, else a
# decomposition (moving) or the triangle mesh (static); the L is neither, so it takes the last branch.
TABLE: dict[tuple[str | None, str | None], tuple[str, str]] = {}
for body in BODY_ROWS:
    moving = body != "static"
    kind = body or "dynamic"
    for collider in COLLIDER_COLUMNS:
        shape = {None: "compound", "auto": "compound", "hull": "convex", "decompose": "compound",
                 "mesh": "trimesh"}.get(collider, collider or "")
        if collider in (None, "auto") and not moving:
            shape = "trimesh"
        if collider == "mesh":
            TABLE[body, collider] = ("static", "trimesh") if body in (None, "static") else (REFUSED, "")
        else:
            TABLE[body, collider] = (kind, shape)


def _doc() -> gp.Document:
    g = document([("L", L_SHAPE)], [{"name": "L", "mesh": 0, "translation": [0, 2, 0]}])
    return gp.Document(json=g, buffers=[base64.b64decode(g["buffers"][0]["uri"].split(",", 1)[1])])


def _add(*args: str) -> int:
    with pytest.raises(SystemExit) as done:
        main(["add", *args])
    return int(done.value.code or 0)


def _shape_kind(shapes: list[object]) -> str:
    if len(shapes) > 1:
        assert all(s == MeshShape(convex=True, mesh=s.mesh) for s in shapes)  # type: ignore[attr-defined]
        return "compound"
    (s,) = shapes
    if isinstance(s, MeshShape):
        return "convex" if s.convex else "trimesh"
    return {Box: "box", Sphere: "sphere", Capsule: "capsule", Cylinder: "cylinder"}[type(s)]


@pytest.mark.parametrize(("body", "collider"), list(TABLE), ids=[f"{b}-{c}" for b, c in TABLE])
def test_every_body_and_collider_combination_makes_what_the_table_says(body: str | None,
                                                                        collider: str | None) -> None:
    want_body, want_shape = TABLE[body, collider]
    bodies = [(body, None)] if body else []
    colliders = [(collider, None)] if collider else []
    if want_body == REFUSED:
        with pytest.raises(AuthorError, match=r"--collider mesh on node 0 \(L\), part of the \w+ body on node 0: "
                                              r"a triangle mesh cannot move \(SHAPE-9\)"):
            add_physics(_doc(), bodies=bodies, colliders=colliders, decomposition=FAST)
        return
    result = add_physics(_doc(), bodies=bodies, colliders=colliders, decomposition=FAST)
    scene = gp.read_scene(result.document)
    assert result.bodies == [(0, want_body)]
    # A static body is written as a collider without motion (KRB): it reads back as no body at all.
    written = [(b.node, b.motion.type) for b in scene.bodies]
    assert written == ([] if want_body == "static" else [(0, MotionType(want_body))])
    assert [(c.requested, c.shape) for c in result.colliders] == [(collider or "auto", want_shape)]
    assert _shape_kind([c.shape for c in scene.colliders]) == want_shape
    assert {c.body for c in scene.colliders} == {None if want_body == "static" else 0}


def test_the_table_has_every_cell() -> None:
    assert len(TABLE) == 4 * 9
    assert [c for c, (b, _) in TABLE.items() if b == REFUSED] == [("dynamic", "mesh"), ("kinematic", "mesh")]


def test_with_no_option_a_flat_root_is_static_and_the_rest_dynamic() -> None:
    quad = (L_SHAPE[0][:4] * [1, 1, 0], L_SHAPE[1][:2])  # four points in the z = 0 plane: no volume
    g = document([("Floor", quad), ("Crate", box(1, 1, 1))],
                 [{"name": "Floor", "mesh": 0}, {"name": "Crate", "mesh": 1, "translation": [0, 2, 0]}])
    doc = gp.Document(json=g, buffers=[base64.b64decode(g["buffers"][0]["uri"].split(",", 1)[1])])
    result = add_physics(doc)
    assert result.bodies == [(0, "static"), (1, "dynamic")]
    assert [c.shape for c in result.colliders] == ["trimesh", "box"]


def test_ground_goes_under_the_model_and_the_hint_says_so_before(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    src = write(tmp_path / "crate.gltf", document([("Crate", box(1, 1, 2))],
                                                  [{"name": "Crate", "mesh": 0, "translation": [0, 3, 0]}]))
    bare, grounded = tmp_path / "bare.gltf", tmp_path / "grounded.gltf"
    assert _add(str(src), str(bare), "--collider", "box") == 0
    captured = capsys.readouterr()
    assert captured.err == (f"{bare}: hint HINT-NO-GROUND /nodes/0/extensions/KHR_physics_rigid_bodies/motion: "
                            "dynamic body on node 0: the scene has no static or kinematic collider to land on: it "
                            "falls forever; add ground under it (add --ground does)\n")
    assert _add(str(src), str(grounded), "--collider", "box", "--ground") == 0
    captured = capsys.readouterr()
    assert captured.err == "" and f"wrote {grounded}: 1 dynamic, 1 meshes made colliders, a static ground on node 1" \
        in captured.out
    gltf = json.loads(grounded.read_text(encoding="utf-8"))
    # Top face at the crate's lowest point (y = 3 - 0.5), 1 m thick; 10 m a side (3 × a 2 m footprint < 10 m).
    assert gltf["nodes"][1] == {"name": "Ground", "translation": [0.0, 2.0, 0.0], "extensions": {
        "KHR_physics_rigid_bodies": {"collider": {"geometry": {"shape": 1}}}}}
    assert gltf["extensions"]["KHR_implicit_shapes"]["shapes"][1] == {"type": "box", "box": {"size": [10, 1, 10]}}
    assert gltf["scenes"][0]["nodes"] == [0, 1]
    assert [m.code for m in gp.validate(gp.load(grounded)).messages if m.code == "HINT-NO-GROUND"] == []
    world = gp.World.from_file(grounded)
    world.run(2.0)
    assert world.pose(0)[0][1] == pytest.approx(3.0, abs=0.01)  # landed on the ground's top (2.5) + 0.5
