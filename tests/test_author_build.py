"""The builder and `gltf-physics add`: which collider each request makes, where it goes, what else is kept.

Decomposition runs CoACD with reduced settings (``Settings.fast``) on small meshes: its defaults take tens of
seconds even on a few hundred vertices (bench/author.py reports them).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest

import gltf_physics as gp
from author_meshes import box, document, l_shape, revolve, torus, write
from gltf_physics.author import Builder, Settings
from gltf_physics.cli import main
from gltf_physics.gltf.transforms import quat_to_matrix
from gltf_physics.model import Box, Capsule, MeshShape, MotionType, Sphere

FAST = Settings.fast(seed=1)
RING = torus(segments=16, sides=8)  # small: CoACD's time grows with the mesh
SPHERE = revolve([(0.0, -1.0)] + [(float(np.sin(a)), float(-np.cos(a))) for a in np.linspace(0.2, 2.94, 12)]
                 + [(0.0, 1.0)], segments=32)


def _doc(meshes: list, nodes: list) -> gp.Document:
    g = document(meshes, nodes)
    return gp.Document(json=g, buffers=[base64.b64decode(g["buffers"][0]["uri"].split(",", 1)[1])])


def _build(doc: gp.Document, *requests: tuple[str, str | None, str], to: str = "khr", **kw: object):
    b = Builder(doc, decomposition=FAST, **kw)  # type: ignore[arg-type]
    for what, selector, kind in requests:
        (b.body if what == "body" else b.collider)(selector, kind)
    return b.build(to)  # type: ignore[arg-type]


def _drawn_meshes(gltf: dict) -> set[int]:
    return {n["mesh"] for n in gltf["nodes"] if "mesh" in n}


def test_default_makes_each_root_a_dynamic_body_with_auto_colliders() -> None:
    doc = _doc([("Crate", box(0.4, 0.2, 0.3)), ("Ball", SPHERE)],
               [{"name": "Crate", "mesh": 0}, {"name": "Ball", "mesh": 1, "translation": [2, 0, 0]}])
    result = _build(doc)
    scene = gp.read_scene(result.document)
    assert [(b.node, b.motion.type) for b in scene.bodies] == [(0, MotionType.DYNAMIC), (1, MotionType.DYNAMIC)]
    assert [(c.node, c.body, c.shape) for c in scene.colliders] == [
        (0, 0, Box(size=pytest.approx((0.4, 0.2, 0.3)))),  # centred and aligned: on the node itself
        (1, 1, Sphere(radius=pytest.approx(1.0, rel=1e-6)))]
    assert len(result.document.json["nodes"]) == 2  # no helper node needed
    assert [c.shape for c in result.colliders] == ["box", "sphere"]


def test_off_centre_rotated_fit_goes_on_a_child_node_with_that_pose() -> None:
    v, t = box(1, 2, 3)
    q = np.array([0.0, 0.38268343, 0.0, 0.92387953])  # 45° about Y
    moved = v @ quat_to_matrix(q).T + [0.5, 0.25, 0.0]
    doc = _doc([("Tilted", (moved, t))], [{"name": "Tilted", "mesh": 0}])
    result = _build(doc, ("collider", "Tilted", "box"), ("body", "Tilted", "dynamic"))
    nodes = result.document.json["nodes"]
    assert len(nodes) == 2 and nodes[0]["children"] == [1]
    assert nodes[1]["translation"] == pytest.approx([0.5, 0.25, 0.0], abs=1e-7)  # float32 positions in the file
    (collider,) = gp.read_scene(result.document).colliders
    assert collider.node == 1 and collider.body == 0
    assert sorted(collider.shape.size) == pytest.approx([1, 2, 3], abs=1e-6)
    frame = quat_to_matrix(np.asarray(nodes[1]["rotation"]))
    local = (moved - nodes[1]["translation"]) @ frame  # the mesh in the collider node's frame
    assert np.abs(local).max(axis=0) == pytest.approx(np.asarray(collider.shape.size) / 2, abs=1e-6)


def test_hull_is_a_physics_only_mesh_never_drawn() -> None:
    rng = np.random.default_rng(5)
    d = rng.normal(size=(60, 3)) * [1.0, 0.5, 0.3]
    from gltf_physics.geometry.hulls import convex_hull

    hull = convex_hull(d)
    doc = _doc([("Rock", (hull.points, hull.triangles))], [{"name": "Rock", "mesh": 0}])
    result = _build(doc, ("collider", None, "hull"))
    g = result.document.json
    (collider,) = gp.read_scene(result.document).colliders
    assert isinstance(collider.shape, MeshShape) and collider.shape.convex
    assert collider.shape.mesh == 1 and len(g["meshes"]) == 2
    assert _drawn_meshes(g) == {0}  # the hull mesh is only a collider's geometry
    assert g["meshes"][1]["name"] == "Rock hull"
    assert result.colliders[0].fitness.volume_ratio == pytest.approx(1.0)


def test_auto_on_a_ring_decomposes_into_convex_parts_of_one_body() -> None:
    doc = _doc([("Ring", RING)], [{"name": "Ring", "mesh": 0}])
    result = _build(doc)
    g = result.document.json
    scene = gp.read_scene(result.document)
    (report,) = result.colliders
    assert report.shape == "compound" and report.parts == len(scene.colliders) > 4
    assert all(isinstance(c.shape, MeshShape) and c.shape.convex and c.body == 0 for c in scene.colliders)
    assert [c.node for c in scene.colliders] == g["nodes"][0]["children"]  # one child node per part
    assert _drawn_meshes(g) == {0}
    assert {c.shape.mesh for c in scene.colliders} == set(range(1, len(g["meshes"])))
    assert report.fitness.mesh_to_collider <= 0.05 and report.fitness.collider_to_mesh <= 0.05


def test_auto_on_a_static_concave_mesh_keeps_the_triangle_mesh() -> None:
    doc = _doc([("Ring", RING)], [{"name": "Ring", "mesh": 0}])
    result = _build(doc, ("body", "Ring", "static"))
    (collider,) = gp.read_scene(result.document).colliders
    assert collider.shape == MeshShape(convex=False, mesh=0) and collider.body is None
    assert len(result.document.json["meshes"]) == 1  # the drawn mesh itself: no copy


def test_a_collider_outside_every_given_body_is_static() -> None:
    doc = _doc([("Wall", box(4, 2, 0.2)), ("Crate", box(1, 1, 1))],
               [{"name": "Wall", "mesh": 0}, {"name": "Crate", "mesh": 1, "translation": [0, 3, 0]}])
    result = _build(doc, ("body", "Crate", "dynamic"), ("collider", "Wall", "auto"), ("collider", "Crate", "box"))
    scene = gp.read_scene(result.document)
    assert [(b.node, b.motion.type) for b in scene.bodies] == [(1, MotionType.DYNAMIC)]
    assert [(c.node, c.body) for c in scene.colliders] == [(0, None), (1, 1)]


def test_everything_else_in_the_file_is_kept() -> None:
    doc = _doc([("Ring", RING), ("Crate", box(1, 1, 1))],
               [{"name": "Ring", "mesh": 0, "extras": {"keep": 1}, "extensions": {"EXT_unknown": {"x": 2}}},
                {"name": "Crate", "mesh": 1, "translation": [3, 0, 0]}])
    doc.json["extensionsUsed"] = ["EXT_unknown"]
    before = json.loads(json.dumps(doc.json))
    result = _build(doc, measure_fit=False)
    g = result.document.json
    for key in ("meshes", "accessors", "bufferViews"):
        assert g[key][: len(before[key])] == before[key]
    for old, new in zip(before["nodes"], g["nodes"], strict=False):
        assert {k: v for k, v in new.items() if k not in ("extensions", "children")} == \
            {k: v for k, v in old.items() if k != "extensions"}
    assert g["nodes"][0]["extensions"]["EXT_unknown"] == {"x": 2}
    assert "EXT_unknown" in g["extensionsUsed"]
    assert result.document.buffers[0][: before["buffers"][0]["byteLength"]] == doc.buffers[0]


@pytest.mark.parametrize("to", ["khr", "omi"])
def test_output_validates_and_reads_back_the_same_colliders(to: str) -> None:
    doc = _doc([("Ring", RING), ("Crate", box(1, 1, 1)), ("Ball", SPHERE)],
               [{"name": "Ring", "mesh": 0}, {"name": "Crate", "mesh": 1, "translation": [3, 0, 0]},
                {"name": "Ball", "mesh": 2, "translation": [-3, 0, 0]}])
    result = _build(doc, to=to, measure_fit=False)
    report = gp.validate(result.document)
    assert [m for m in report.messages if m.severity <= 1] == []  # no error, no warning
    scene = gp.read_scene(result.document)
    kinds = sorted(type(c.shape).__name__ for c in scene.colliders)
    assert kinds.count("Box") == 1 and kinds.count("Sphere") == 1
    assert kinds.count("MeshShape") == result.colliders[0].parts


def test_density_gives_each_body_density_times_collider_volume() -> None:
    doc = _doc([("Crate", box(0.5, 0.2, 0.4))], [{"name": "Crate", "mesh": 0}])
    b = Builder(doc)
    b.body("Crate", "dynamic")
    b.density(250.0)
    (body,) = gp.read_scene(b.build("khr").document).bodies
    assert body.motion.mass == pytest.approx(250.0 * 0.5 * 0.2 * 0.4)


def test_joint_between_two_bodies_locks_the_expected_axes() -> None:
    doc = _doc([("A", box(1, 1, 1)), ("B", box(1, 1, 1))],
               [{"name": "Door", "mesh": 0}, {"name": "Frame", "mesh": 1, "translation": [1.5, 0, 0]}])
    b = Builder(doc)
    b.body("Door", "dynamic")
    b.body("Frame", "static")
    b.joint("Frame", "Door", "hinge")
    result = b.build("khr")
    (joint,) = gp.read_scene(result.document).joints
    assert {joint.body_a, joint.body_b} - {None, 1} == {0}  # the door, to the static frame (or the world)
    locked = [lim for lim in joint.limits if lim.min == lim.max == 0]
    assert sorted(a for lim in locked for a in lim.linear_axes) == [0, 1, 2]  # written one lock per axis
    assert sorted(a for lim in locked for a in lim.angular_axes) == [1, 2]  # free about X: the hinge
    assert [m for m in gp.validate(result.document).messages if m.severity <= 1] == []


def test_decomposition_is_byte_identical_for_a_seed(tmp_path: Path) -> None:
    src = write(tmp_path / "in.gltf", document([("L", l_shape())], [{"name": "L", "mesh": 0}]))
    outs = []
    for k in range(2):
        out = tmp_path / f"out{k}.glb"
        with pytest.raises(SystemExit) as exit_:
            main(["add", str(src), str(out), "--collider", "decompose", "--fast", "--seed", "7", "-q"])
        assert exit_.value.code == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert len(gp.read_scene(gp.load(tmp_path / "out0.glb")).colliders) >= 2


def test_cli_report_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write(tmp_path / "in.gltf", document([("Crate", box(1, 2, 3))], [{"name": "Crate", "mesh": 0}]))
    with pytest.raises(SystemExit) as exit_:
        main(["add", str(src), str(tmp_path / "out.gltf"), "--report", str(tmp_path / "fit.json"),
              "--friction", "0.8,0.5", "--restitution", "0.2"])
    assert exit_.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"wrote {tmp_path / 'out.gltf'}: 1 dynamic, 1 meshes made colliders"
    assert lines[2].split() == ["0", "Crate", "auto", "box", "1", "1.000", "0.00%", "0.00%"]
    report = json.loads((tmp_path / "fit.json").read_text())
    assert report["margins"] == {"primitiveVolume": 0.1, "concaveGap": 0.05}
    assert report["decomposition"] == {"threshold": 0.05, "max_hulls": -1, "seed": 0, "mcts_iterations": 150,
                                       "mcts_nodes": 20, "resolution": 2000, "preprocess": "auto"}  # CoACD's own
    (entry,) = report["colliders"]
    assert (entry["shape"], entry["volume"], entry["volumeRatio"]) == ("box", pytest.approx(6.0), pytest.approx(1))
    scene = gp.read_scene(gp.load(tmp_path / "out.gltf"))
    (material,) = scene.materials
    assert (material.static_friction, material.dynamic_friction, material.restitution) == (0.8, 0.5, 0.2)


@pytest.mark.parametrize(("args", "message"), [
    (["--body", "dynamic=Nope"], "selector 'Nope' names no node"),
    (["--collider", "blob"], "--collider blob: expected auto, box, sphere, capsule, cylinder, hull, decompose or "
                             "mesh"),
    (["--density", "1", "--mass", "2"], "--density and --mass: give one of them"),
    (["--joint", "A-B"], "--joint A-B: expected A,B=KIND"),
])
def test_cli_bad_requests_are_one_line_exit_2_and_write_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              args: list[str], message: str) -> None:
    src = write(tmp_path / "in.gltf", document([("Crate", box(1, 2, 3))], [{"name": "Crate", "mesh": 0}]))
    with pytest.raises(SystemExit) as exit_:
        main(["add", str(src), str(tmp_path / "out.gltf"), *args])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and len(err.splitlines()) == 1 and message in err
    assert not (tmp_path / "out.gltf").exists()


def test_cli_never_writes_over_its_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write(tmp_path / "in.gltf", document([("Crate", box(1, 2, 3))], [{"name": "Crate", "mesh": 0}]))
    before = src.read_bytes()
    with pytest.raises(SystemExit) as exit_:
        main(["add", str(src), str(src)])
    assert exit_.value.code == 2 and "that is the input" in capsys.readouterr().err
    assert src.read_bytes() == before
    with pytest.raises(SystemExit) as exit_:
        main(["add", str(src), str(src), "--in-place", "-q"])  # on purpose: replaced, now with physics
    assert exit_.value.code == 0 and len(gp.read_scene(gp.load(src)).colliders) == 1


def test_capsule_request_fits_a_capsule() -> None:
    doc = _doc([("Ball", SPHERE)], [{"name": "Ball", "mesh": 0}])
    (collider,) = gp.read_scene(_build(doc, ("collider", None, "capsule"), ("body", None, "dynamic")).document
                                ).colliders
    assert isinstance(collider.shape, Capsule) and collider.shape.radius_bottom == pytest.approx(1.0, rel=1e-3)


def test_a_flat_mesh_is_a_static_triangle_mesh_and_cannot_be_a_moving_body() -> None:
    quad = (np.array([[-1.0, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1]]), np.array([[0, 2, 1], [0, 3, 2]]))
    doc = _doc([("Floor", quad), ("Crate", box(1, 1, 1))],
               [{"name": "Floor", "mesh": 0}, {"name": "Crate", "mesh": 1, "translation": [0, 2, 0]}])
    result = _build(doc, ("body", "Crate", "dynamic"), ("collider", "*", "auto"))
    scene = gp.read_scene(result.document)
    assert [(c.node, c.body, c.shape) for c in scene.colliders] == [
        (0, None, MeshShape(convex=False, mesh=0)), (1, 1, Box(size=pytest.approx((1, 1, 1))))]
    from gltf_physics.author import AuthorError

    with pytest.raises(AuthorError, match=r"mesh 0 \(Floor\) is flat or empty: it has no volume for a auto"):
        _build(doc, ("body", "Floor", "dynamic"))


def test_glb_input_keeps_one_buffer_and_its_bytes(tmp_path: Path) -> None:
    src = write(tmp_path / "in.gltf", document([("Ring", RING)], [{"name": "Ring", "mesh": 0}]))
    glb = tmp_path / "in.glb"
    gp.save(gp.load(src), glb)
    before = gp.load(glb)
    out = tmp_path / "out.glb"
    with pytest.raises(SystemExit) as exit_:
        main(["add", str(glb), str(out), "--collider", "hull", "-q"])
    assert exit_.value.code == 0
    after = gp.load(out)
    assert len(after.json["buffers"]) == 1 and "uri" not in after.json["buffers"][0]
    n = before.json["buffers"][0]["byteLength"]
    assert after.buffers[0][:n] == before.buffers[0][:n]
    from gltf_physics.geometry.hulls import convex_hull
    from gltf_physics.gltf.meshes import mesh_triangles

    hull = convex_hull(RING[0])
    v, t = mesh_triangles(after, 1)  # the physics-only hull mesh, read back by the container's own reader
    assert len(v) == len(hull.points) and len(t) == len(hull.triangles)
    assert v == pytest.approx(hull.points.astype(np.float32), abs=0)


@pytest.mark.parametrize("to", ["khr", "omi"])
def test_material_and_filter_apply_to_every_new_collider(to: str) -> None:
    doc = _doc([("Crate", box(1, 1, 1)), ("Ball", SPHERE)],
               [{"name": "Crate", "mesh": 0}, {"name": "Ball", "mesh": 1, "translation": [3, 0, 0]}])
    b = Builder(doc, measure_fit=False)
    b.material(0.9, 0.7, 0.25)
    b.filter(("props",), not_collide_with=("player",))
    result = b.build(to)  # type: ignore[arg-type]
    scene = gp.read_scene(result.document)
    (material,) = scene.materials
    assert (material.static_friction, material.dynamic_friction, material.restitution) == (0.9, 0.7, 0.25)
    (f,) = scene.filters
    assert (f.collision_systems, f.collide_with_systems, f.not_collide_with_systems) == (("props",), (), ("player",))
    assert [(c.material, c.filter) for c in scene.colliders] == [(0, 0), (0, 0)]
    assert [m for m in gp.validate(result.document).messages if m.severity <= 1] == []


@pytest.mark.parametrize(("axis", "falls"), [("y", False), ("z", True)])
def test_hinge_axis_decides_whether_the_door_swings_down(axis: str, falls: bool) -> None:
    # A door hinged at its edge: about the vertical Y axis gravity has no torque on it, so it stays level; about
    # the horizontal Z axis it swings down like a pendulum (its centre 0.55 m out drops by up to 0.55 m).
    doc = _doc([("post", box(0.1, 0.1, 0.1)), ("door", box(1.0, 1.0, 0.1, centre=(0.55, 0, 0)))],
               [{"name": "Frame", "mesh": 0}, {"name": "Door", "mesh": 1}])
    b = Builder(doc, measure_fit=False)
    b.body("Frame", "static")
    b.body("Door", "dynamic")
    b.joint("Frame", "Door", "hinge", axis)
    world = gp.World(gp.read_scene(b.build("khr").document), rate=120)
    world.run(0.5)
    t, q = world.pose(1)
    centre_y = float((quat_to_matrix(q) @ [0.55, 0, 0] + t)[1])
    if falls:
        assert centre_y < -0.3
    else:
        assert abs(centre_y) < 1e-3


def test_a_moving_body_without_any_mesh_is_refused() -> None:
    doc = _doc([("Crate", box(1, 1, 1))], [{"name": "Crate", "mesh": 0}, {"name": "Empty"}])
    from gltf_physics.author import AuthorError

    with pytest.raises(AuthorError, match=r"no mesh at or below 'Empty' \(node 1\) to make a collider from"):
        _build(doc, ("body", "Empty", "dynamic"))
