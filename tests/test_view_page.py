"""The viewer page builder: the model-level overlay (hand-checked numbers), the self-contained page, the
embedded glTF, the recorded-run format, the local server and the PNG preview. No browser here (see
test_view_browser.py)."""

from __future__ import annotations

import base64
import json
import math
import re
import struct
import urllib.request

import numpy as np
import pytest

from conftest import fixture_path
from gltf_physics.gltf.document import Document
from gltf_physics.model import (
    Body,
    Box,
    Capsule,
    Collider,
    GravityField,
    GravityType,
    Joint,
    MeshShape,
    Motion,
    MotionType,
    PhysicsScene,
    Plane,
    Pose,
    Sphere,
    Trigger,
    Wheel,
)
from gltf_physics.view import bake as bake_mod
from gltf_physics.view.overlay import build_overlay
from gltf_physics.view.page import build_page, embeddable_gltf, viewer_bundle
from gltf_physics.view.png import render_png, shape_segments
from gltf_physics.view.serve import start

HOSTILE_NAME = "</script><script>alert(1)</script>"


def hand_scene() -> tuple[Document, PhysicsScene]:
    """0 dynamic body (at y=2) ← 1 box collider (x=1); 2 static sphere; 3 box trigger; 4 compound trigger
    of 3; 5 KHR-style collider whose geometry is node 6 (a triangle mesh at +2 in y from node 5);
    7 kinematic body with an infinite plane; 8 gravity volume; a joint from body 0 to the world."""
    positions = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    gltf = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 2, 4, 5, 7, 8]}],
        "nodes": [
            {"name": "Body", "translation": [0, 2, 0], "children": [1]},
            {"name": "BoxCollider", "translation": [1, 0, 0]},
            {"name": HOSTILE_NAME},
            {"name": "TriggerPart", "translation": [0, 0, 3]},
            {"name": "Compound", "children": [3]},
            {"name": "MeshCollider", "translation": [1, 0, 0], "children": [6]},
            {"name": "MeshNode", "translation": [1, 2, 0], "mesh": 0},
            {"name": "Kinematic"},
            {"name": "Gravity", "translation": [0, 5, 0]},
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "buffers": [{"byteLength": 36}],
    }
    doc = Document(gltf, [positions], None, True)
    scene = PhysicsScene(
        bodies=[Body(0, Motion(MotionType.DYNAMIC, mass=2.0)), Body(7, Motion(MotionType.KINEMATIC))],
        colliders=[
            Collider(1, Box((1.0, 2.0, 3.0)), body=0),
            Collider(2, Sphere(0.5)),
            Collider(5, MeshShape(convex=True, node=5), body=None),
            Collider(7, Plane(), body=7),
        ],
        triggers=[Trigger(3, shape=Box((2.0, 2.0, 2.0))), Trigger(4, nodes=(3,))],
        joints=[Joint(0, Pose((0.0, 0.5, 0.0)), None, Pose((0.0, 2.5, 0.0)), node=0)],
        wheels=[Wheel(1, 0, radius=0.3, width=0.1)],
        gravity_fields=[GravityField(8, GravityType.POINT, 9.8, shape=None)],
        document=doc,
    )
    return doc, scene


def page_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="gltf-physics-data">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


# ---------------------------------------------------------------- overlay


def test_overlay_lists_colliders_then_simple_triggers_with_body_kinds():
    doc, scene = hand_scene()
    o = build_overlay(doc, scene)
    assert [(c["node"], c["kind"]) for c in o["colliders"]] == [
        (1, "dynamic"), (2, "static"), (5, "static"), (7, "kinematic"), (3, "trigger")]
    assert o["colliders"][0]["shape"] == {"type": "box", "size": [1.0, 2.0, 3.0]}
    assert o["colliders"][0]["body"] == 0
    assert o["colliders"][1]["shape"] == {"type": "sphere", "radius": 0.5}


def test_overlay_infinite_plane_is_null_sized_and_json_safe():
    doc, scene = hand_scene()
    plane = build_overlay(doc, scene)["colliders"][3]["shape"]
    assert plane == {"type": "plane", "sizeX": None, "sizeZ": None, "doubleSided": False}
    json.dumps(build_overlay(doc, scene), allow_nan=False)  # no inf/NaN can reach the page


def test_overlay_capsule_keeps_centre_to_centre_height():
    doc, _ = hand_scene()
    scene = PhysicsScene(colliders=[Collider(1, Capsule(height=1.5, radius_bottom=0.25, radius_top=0.5))])
    shape = build_overlay(doc, scene)["colliders"][0]["shape"]
    assert shape == {"type": "capsule", "height": 1.5, "radiusBottom": 0.25, "radiusTop": 0.5}  # D-8


def test_overlay_compound_trigger_lights_its_parts():
    doc, scene = hand_scene()
    assert build_overlay(doc, scene)["triggers"] == [{"node": 3, "parts": [3]}, {"node": 4, "parts": [3]}]


def test_overlay_node_geometry_children_keep_their_offset():
    # KRB-2: geometry node 5 (the collider's own node) has no mesh; its child 6 is at (1,2,0) from it.
    doc, scene = hand_scene()
    shape = build_overlay(doc, scene)["colliders"][2]["shape"]
    assert shape["type"] == "mesh" and shape["convex"] is True
    assert len(shape["parts"]) == 1 and shape["parts"][0]["mesh"] == 0
    assert shape["parts"][0]["matrix"][12:16] == [1.0, 2.0, 0.0, 1.0]  # column-major translation


def test_overlay_node_geometry_own_transform_does_not_apply():
    # Official KHR samples point geometry.node at a mesh-data node: its mesh sits in the collider's space,
    # wherever that node is (node 6 is at world (2,2,0); its mesh still gets the identity).
    doc, _ = hand_scene()
    scene = PhysicsScene(colliders=[Collider(1, MeshShape(convex=True, node=6))])
    assert build_overlay(doc, scene)["colliders"][0]["shape"]["parts"] == [
        {"mesh": 0, "matrix": [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]}]


def test_overlay_mesh_index_out_of_range_draws_nothing():
    doc, _ = hand_scene()
    scene = PhysicsScene(colliders=[Collider(1, MeshShape(convex=False, mesh=7))])
    assert build_overlay(doc, scene)["colliders"][0]["shape"]["parts"] == []


def test_overlay_world_matrices_joints_wheels_gravity():
    doc, scene = hand_scene()
    o = build_overlay(doc, scene)
    assert o["nodeCount"] == 9
    assert o["worldMatrices"][1][12:15] == [1.0, 2.0, 0.0]  # node 1 at (1,0,0) under node 0 at (0,2,0)
    identity = [0.0, 0.0, 0.0, 1.0]
    assert o["joints"] == [{"node": 0, "pointer": "",
                            "a": {"body": 0, "translation": [0.0, 0.5, 0.0], "rotation": identity},
                            "b": {"body": None, "translation": [0.0, 2.5, 0.0], "rotation": identity}}]
    assert o["wheels"] == [{"node": 1, "vehicle": 0, "radius": 0.3, "width": 0.1}]
    assert [(g["node"], g["type"], g["gravity"]) for g in o["gravity"]] == [(8, "point", 9.8)]


# ---------------------------------------------------------------- page


def test_page_is_self_contained():
    doc, scene = hand_scene()
    page = build_page(doc, scene)
    assert page.count("<script") == 2  # the data and the inlined bundle, no src=
    assert "<script src" not in page and "<link" not in page
    assert "default-src 'none'" in page  # CSP: the page may fetch nothing from anywhere
    data = page_data(page)
    assert data["gltf"]["buffers"][0]["uri"].startswith("data:application/octet-stream;base64,")
    assert base64.b64decode(data["gltf"]["buffers"][0]["uri"].split(",", 1)[1]) == doc.buffers[0]


def test_page_escapes_names_that_would_close_the_script():
    doc, scene = hand_scene()
    page = build_page(doc, scene)
    assert HOSTILE_NAME not in page
    assert page_data(page)["gltf"]["nodes"][2]["name"] == HOSTILE_NAME  # still exact once parsed


def test_page_carries_summary_report_and_bake():
    doc, scene = hand_scene()
    report = {"issues": {"messages": [{"code": "JOINT-6", "severity": 1, "pointer": "/nodes/0",
                                       "message": "x"}]}}
    bake = bake_mod.frames_json([0], 60.0, [np.zeros((1, 3)), np.ones((1, 3))],
                                [np.array([[0, 0, 0, 1.0]])] * 2, [])
    data = page_data(build_page(doc, scene, report=report, bake=bake))
    assert data["summary"]["counts"]["colliders"] == 4
    assert data["report"]["issues"]["messages"][0]["code"] == "JOINT-6"
    assert data["bake"]["frames"] == 2 and data["bake"]["translations"] == [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]


def test_embedded_images_become_data_uris():
    path = fixture_path("OMI_physics_body/gen4-materials/triggers/triggers.gltf")
    from gltf_physics.gltf.io import load

    gltf = embeddable_gltf(load(path))
    png = (path.parent / "sloped_floor_color.png").read_bytes()
    uris = [i["uri"] for i in gltf["images"]]
    assert uris == ["data:image/png;base64," + base64.b64encode(png).decode()]
    assert all(b["uri"].startswith("data:") for b in gltf["buffers"])


def test_missing_bundle_is_one_clear_line(monkeypatch):
    from gltf_physics.view import page

    monkeypatch.setattr(page, "BUNDLE", ("viewer_dist", "no-such-file.js"))
    with pytest.raises(page.ViewerNotBuilt) as e:
        page.viewer_bundle()
    assert str(e.value) == ("the viewer is not built (viewer_dist/no-such-file.js missing): install Node.js "
                            "with npm and reinstall gltf-physics, or in a checkout run "
                            "`cd viewer && npm ci && npm run build`")


def test_bundle_is_inlinable():
    bundle = viewer_bundle()
    assert "</script" not in bundle.lower() and "<!--" not in bundle
    assert "gltfPhysicsViewer" in bundle


def test_write_page_writes_the_built_page(tmp_path):
    from gltf_physics.view.page import write_page

    doc, scene = hand_scene()
    out = write_page(tmp_path / "p.html", doc, scene)
    assert page_data(out.read_text(encoding="utf-8"))["overlay"]["nodeCount"] == 9
    assert [p.name for p in tmp_path.iterdir()] == ["p.html"]  # no temporary file left


# ---------------------------------------------------------------- recorded run


def test_frames_json_is_frame_major_and_rounded():
    t = [np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), np.array([[1.0, 1.123456789, 3.0], [4.0, 5.0, 6.0]])]
    q = [np.array([[0, 0, 0, 1.0], [0, 0, 0, 1.0]])] * 2
    ev = [{"time": 0.5, "event": "enter", "trigger": 3, "node": 0}]
    b = bake_mod.frames_json([0, 7], 60.0, t, q, ev)
    assert b["frames"] == 2 and b["nodes"] == [0, 7]
    assert b["translations"][6:9] == [1.0, 1.12346, 3.0]  # frame 1, body 0
    assert len(b["rotations"]) == 2 * 2 * 4
    assert b["events"] == ev
    assert bake_mod.trajectories(b)[7].tolist() == [[4.0, 5.0, 6.0], [4.0, 5.0, 6.0]]


def test_frames_json_refuses_non_finite_poses():
    with pytest.raises(ValueError, match="non-finite"):
        bake_mod.frames_json([0], 60.0, [np.array([[math.nan, 0, 0]])], [np.array([[0, 0, 0, 1.0]])], [])


def test_record_refuses_negative_time():
    _, scene = hand_scene()
    with pytest.raises(ValueError, match="finite number of seconds"):
        bake_mod.record(scene, -1.0)


# ---------------------------------------------------------------- server


def test_server_answers_on_loopback_with_the_page_only(tmp_path):
    page = tmp_path / "v.html"
    page.write_text("<!doctype html><p>hi</p>", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("no", encoding="utf-8")
    server = start(page)
    try:
        assert server.url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(server.url) as r:
            assert r.read() == b"<!doctype html><p>hi</p>"
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(server.url + "secret.txt")
        assert e.value.code == 404
    finally:
        server.close()


# ---------------------------------------------------------------- PNG preview


def test_box_outline_has_twelve_unit_edges():
    segs = shape_segments(Document({}), 0, Box((2.0, 2.0, 2.0)))
    lengths = np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1)
    assert segs.shape == (12, 2, 3) and lengths.tolist() == [2.0] * 12


def test_plane_outline_is_four_edges_at_y_zero():
    segs = shape_segments(Document({}), 0, Plane(size_x=2.0, size_z=4.0))
    assert segs.shape == (4, 2, 3) and np.all(segs[:, :, 1] == 0.0)
    assert sorted(np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1).tolist()) == [2.0, 2.0, 4.0, 4.0]


def test_png_preview_is_not_blank(tmp_path):
    from matplotlib.image import imread

    doc, scene = hand_scene()
    path = np.array([[0, 2, 0], [0, 1, 0], [0, 0, 0]])
    out = render_png(doc, scene, tmp_path / "p.png", trajectories={0: path})
    img = imread(out)
    assert img.shape[:2] == (600, 800)
    colours = np.unique((img[:, :, :3] * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 50  # white background alone is 1; axes, text, outlines and the path add many


def test_png_preview_of_a_fixture(tmp_path):
    from matplotlib.image import imread

    from gltf_physics.dialects import read_scene
    from gltf_physics.gltf.io import load

    doc = load(fixture_path("KHR_physics_rigid_bodies/gen3-implicit-shapes/ShapeTypes/ShapeTypes.gltf"))
    out = render_png(doc, read_scene(doc), tmp_path / "shapes.png")
    img = (imread(out)[:, :, :3] * 255).astype(np.uint8).reshape(-1, 3)
    orange = np.all(np.abs(img.astype(int) - [0xFF, 0x8C, 0x1A]) < 40, axis=1)
    assert orange.sum() > 100  # the dynamic colliders are drawn in the dynamic colour



def test_record_free_fall_from_the_runtime():
    # One 1 m sphere body at y = 10, nothing below: after 1 s it has fallen about g/2 = 4.905 m
    # (a 60 Hz symplectic step gives g·dt²·n(n+1)/2 = 4.987 m; both are inside 0.1 m).
    doc = Document({"asset": {"version": "2.0"}, "nodes": [{"translation": [0, 10, 0]}]})
    scene = PhysicsScene(bodies=[Body(0, Motion(MotionType.DYNAMIC, mass=1.0))],
                         colliders=[Collider(0, Sphere(0.5), body=0)], document=doc)
    b = bake_mod.record(scene, 1.0, rate=60.0)
    assert b["frames"] == 61 and b["nodes"] == [0]
    assert b["translations"][:3] == [0.0, 10.0, 0.0]
    y1 = b["translations"][60 * 3 + 1]
    assert abs((10.0 - y1) - 4.905) < 0.1
    assert b["events"] == []


def test_every_fixture_gives_a_json_safe_overlay_with_one_entry_per_collider():
    from conftest import FIXTURES, all_fixture_files
    from gltf_physics.dialects import read_scene
    from gltf_physics.gltf.io import load

    files = all_fixture_files()
    fixture_path(files[0])  # skips (or fails under CI) when the fixtures are absent
    for f in files:
        doc = load(FIXTURES / f)
        scene = read_scene(doc)
        o = build_overlay(doc, scene)
        json.dumps(o, allow_nan=False)
        simple_triggers = sum(1 for t in scene.triggers if t.shape is not None)
        assert len(o["colliders"]) == len(scene.colliders) + simple_triggers, f
        assert len(o["worldMatrices"]) == len(doc.json.get("nodes") or []), f
