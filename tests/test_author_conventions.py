"""Naming conventions: Godot's -col/-colonly/-convcol/-rigid suffixes and Unreal's UCX_/UBX_/USP_/UCP_ prefixes
make exactly the bodies and colliders their importers make, and collision-only meshes stop being drawn."""

from __future__ import annotations

import base64
from pathlib import Path

import numpy as np
import pytest

import gltf_physics as gp
from author_meshes import box, document, write
from gltf_physics.author import conventions
from gltf_physics.cli import main
from gltf_physics.model import Box, MeshShape, MotionType

NODES = [
    {"name": "Floor-col", "mesh": 0, "translation": [0, -0.5, 0]},
    {"name": "Rock-colonly", "mesh": 1, "translation": [3, 0, 0]},
    {"name": "Crate", "mesh": 2, "translation": [0, 2, 0]},
    {"name": "UCX_Crate_01", "mesh": 3, "translation": [0, 2, 0]},
    {"name": "Pillar_CONVCOL", "mesh": 4, "translation": [-3, 0, 0]},
    {"name": "Shelf", "mesh": 5, "translation": [0, 0, 3]},
    {"name": "UBX_Shelf", "mesh": 6, "translation": [0, 0, 3]},
    {"name": "Barrel$rigid", "mesh": 7, "translation": [0, 5, 0]},
]


def _scene(tmp_path: Path) -> Path:
    rock = np.random.default_rng(0).normal(size=(40, 3)) * 0.3
    from gltf_physics.geometry.hulls import convex_hull

    rock_hull = convex_hull(rock)
    assert rock_hull is not None
    meshes = [("floor", box(10, 1, 10)), ("rock", (rock_hull.points, rock_hull.triangles)),
              ("crate", box(1, 1, 1)), ("crate hull", box(1.1, 1.1, 1.1)), ("pillar", box(0.3, 3, 0.3)),
              ("shelf", box(2, 1, 0.5)), ("shelf box", box(2.2, 1.1, 0.6, centre=(0.1, 0, 0))),
              ("barrel", box(0.5, 0.8, 0.5))]
    return write(tmp_path / "named.gltf", document(meshes, NODES))


def test_names_are_read_as_the_importers_define_them(tmp_path: Path) -> None:
    gltf = gp.load(_scene(tmp_path)).json
    found = {(c.node, c.rule, c.collider, c.body, c.collision_only, c.target) for c in conventions.read(gltf)}
    assert found == {
        (0, "godot -col", "mesh", None, False, None),
        (1, "godot -colonly", "mesh", None, True, None),
        (3, "unreal UCX_", "hull", None, True, 2),
        (4, "godot -convcol", "hull", None, False, None),
        (6, "unreal UBX_", "box", None, True, 5),
        (7, "godot -rigid", "auto", "dynamic", False, None),
    }
    assert conventions.read(gltf, "none") == []
    assert {c.node for c in conventions.read(gltf, "unreal")} == {3, 6}
    assert {c.node for c in conventions.read(gltf, "godot")} == {0, 1, 4, 7}


def test_named_scene_becomes_exactly_these_bodies_and_colliders(tmp_path: Path) -> None:
    out = tmp_path / "out.gltf"
    with pytest.raises(SystemExit) as exit_:
        main(["add", str(_scene(tmp_path)), str(out), "--body", "dynamic=Crate", "-q"])
    assert exit_.value.code == 0
    doc = gp.load(out)
    scene = gp.read_scene(doc)
    assert sorted((b.node, b.motion.type) for b in scene.bodies) == [(2, MotionType.DYNAMIC), (7, MotionType.DYNAMIC)]
    got = {c.node: (c.body, c.shape) for c in scene.colliders}
    assert set(got) == {0, 1, 3, 4, 7, 8}  # Crate and Shelf have their named colliders, not generated ones
    assert got[0] == (None, MeshShape(convex=False, mesh=0))  # -col: the drawn floor's own triangles, static
    assert got[1] == (None, MeshShape(convex=False, mesh=1))  # -colonly: the rock's, static
    assert got[3] == (2, MeshShape(convex=True, mesh=3))  # UCX_: the crate body's convex collider
    assert got[4][0] is None and got[4][1].convex and got[4][1].mesh == 8  # -convcol: a baked hull, static
    assert got[8] == (None, Box(size=pytest.approx((2.2, 1.1, 0.6))))  # UBX_: the shelf's box (static), off
    assert doc.json["nodes"][6]["children"] == [8]  # centre: on a child node of the UBX_ node at its centre
    assert doc.json["nodes"][8]["translation"] == pytest.approx([0.1, 0, 0])
    assert got[7] == (7, Box(size=pytest.approx((0.5, 0.8, 0.5))))  # -rigid: a body with an auto collider
    # The collision-only meshes are no longer drawn; the drawn ones still are.
    drawn = {n: node.get("mesh") for n, node in enumerate(doc.json["nodes"])}
    assert drawn == {0: 0, 1: None, 2: 2, 3: None, 4: 4, 5: 5, 6: None, 7: 7, 8: None}
    # UCX_Crate_01 moved under its body, keeping its place in the world (both at y = 2: identity under Crate)
    assert doc.json["nodes"][2]["children"] == [3] and "matrix" not in doc.json["nodes"][3]
    from gltf_physics.gltf.transforms import world_matrices

    assert world_matrices(doc.json)[3][:3, 3] == pytest.approx([0, 2, 0])
    assert [m for m in gp.validate(doc).messages if m.severity <= 1] == []


def test_conventions_none_ignores_the_names(tmp_path: Path) -> None:
    g = gp.load(_scene(tmp_path))
    from gltf_physics.author import Builder

    b = Builder(gp.Document(json=g.json, buffers=[base64.b64decode(g.json["buffers"][0]["uri"].split(",")[1])]),
                conventions="none", measure_fit=False)
    result = b.build("khr")
    scene = gp.read_scene(result.document)
    assert len(scene.bodies) == 8 and len(scene.colliders) == 8  # every root a body with its own collider
    assert all("mesh" in n for n in result.document.json["nodes"][:8])


def test_with_names_and_no_requests_only_the_names_make_physics(tmp_path: Path) -> None:
    # As in the importers: a node without a suffix or prefix gets no collider of its own.
    out = tmp_path / "out.gltf"
    with pytest.raises(SystemExit) as exit_:
        main(["add", str(_scene(tmp_path)), str(out), "-q"])
    assert exit_.value.code == 0
    scene = gp.read_scene(gp.load(out))
    assert [(b.node, b.motion.type) for b in scene.bodies] == [(7, MotionType.DYNAMIC)]  # Barrel$rigid
    assert sorted(c.node for c in scene.colliders) == [0, 1, 3, 4, 7, 8]  # the named ones, Barrel's own
    assert {c.node: c.body for c in scene.colliders}[3] is None  # UCX_Crate_01: Crate is no body, so static
