"""Made physical, then dropped: every object given colliders by `auto` and by `decompose` validates with no
error or warning, falls 1 m onto a ground and comes to rest within 3 s (its centre of mass moves up or down by less
than 1 % of its size over the last half second — a decomposed balloon rolling over its facets bobs by 0.4 % —
and, unless it is round and rolls or rocks on, no drawn point moves more than 0.2 % of its size), sinks no
deeper than 1 % of its size, and its colliders fit within the stated margins.

The margins (also in the fit report): a primitive's volume within ``PRIMITIVE_MARGIN`` (10 %) of the mesh hull's;
a hull (volume ratio 1) straying at most ``CONCAVE_GAP`` (5 % of the bounding-box diagonal) from the drawn
surface; a decomposition (CoACD, reduced settings) within ``DECOMPOSED_GAP`` (5 %) both ways.

"Validates" means no error or warning the input did not already have (an old sample asset may carry its own).
The objects are made here with NumPy (a crate, a ring, an L); real modelled meshes are taken from the Khronos
MotionProperties sample (the fixtures): each drawn object alone, its physics stripped, as a plain asset; and when
the environment variable
GLTF_PHYSICS_SAMPLE_ASSETS names a folder, every .gltf/.glb in it (e.g. glTF-Sample-Assets models): those are
real assets this repository cannot ship, so without the variable that test is not defined.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

import gltf_physics as gp
from author_drop import drop, prepare
from author_meshes import box, document, l_shape, torus
from conftest import fixture_path
from gltf_physics.author import Builder, Settings
from gltf_physics.author.builder import CONCAVE_GAP, PRIMITIVE_MARGIN, PRIMITIVES

DECOMPOSED_GAP = 0.05
REST = 0.002  # at rest: no drawn point moved more than 0.2 % of the object's size over the last half second
SETTLED = 0.01  # on the ground: the centre of mass rose or fell less than 1 % of the size in that half second
TILT = [0.2, 0.1, 0.0, 0.97467943]  # a few degrees off level, so the objects land on an edge and settle
MADE = {"crate": box(0.4, 0.2, 0.3), "ring": torus(segments=16, sides=8), "ell": l_shape(0.6, 0.2)}
SAMPLES = Path(os.environ.get("GLTF_PHYSICS_SAMPLE_ASSETS", "/nonexistent"))
REAL = sorted(p for p in SAMPLES.glob("*") if p.suffix.lower() in (".gltf", ".glb")) if SAMPLES.is_dir() else []


def _made(name: str) -> gp.Document:
    g = document([(name, MADE[name])], [{"name": name, "mesh": 0, "rotation": TILT}])
    return prepare(g, [base64.b64decode(g["buffers"][0]["uri"].split(",", 1)[1])])


def _check(doc: gp.Document, shape: str, rolls: bool = False) -> None:
    b = Builder(doc, decomposition=Settings.fast(seed=1))
    b.body("Drop", "dynamic")
    b.collider("Drop/", shape)
    result = b.build("khr")
    before = {(m.code, m.pointer) for m in gp.validate(doc).messages}  # the asset's own (old Box: a byteStride)
    assert [m for m in gp.validate(result.document).messages if m.severity <= 1
            and (m.code, m.pointer) not in before] == []  # no error or warning of ours
    for c in result.colliders:
        f = c.fitness
        if c.shape in PRIMITIVES:
            assert f.volume_ratio <= 1 + PRIMITIVE_MARGIN
        elif c.shape == "convex":
            assert f.volume_ratio == pytest.approx(1.0) and f.mesh_to_collider <= CONCAVE_GAP
        else:
            assert c.shape == "compound"
            assert f.mesh_to_collider <= DECOMPOSED_GAP and f.collider_to_mesh <= DECOMPOSED_GAP
    d = drop(result.document)
    assert d.height == pytest.approx(1.0, abs=0.05)  # it fell the metre onto the ground
    assert d.settled < SETTLED  # no bounce, no sinking: it lies on the ground
    # the engine has no rolling resistance: a ball, a cone on its side or a rocking toy rolls or rocks on
    assert rolls or d.moved < REST
    assert d.mesh_depth < 0.01 and d.collider_depth < 0.01  # no deeper than 1 % of its size into the ground


@pytest.mark.parametrize("shape", ["auto", "decompose"])
@pytest.mark.parametrize("name", sorted(MADE))
def test_made_objects_drop_and_rest(name: str, shape: str) -> None:
    _check(_made(name), shape)


if REAL:  # defined only when there are assets to run it on (no empty parameter set, no skip)
    @pytest.mark.parametrize("shape", ["auto", "decompose"])
    @pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
    def test_sample_assets_drop_and_rest(path: Path, shape: str) -> None:
        doc = gp.load(path)
        _check(prepare(doc.json, doc.buffers), shape)


MOTION_PROPERTIES = "KHR_physics_rigid_bodies/gen3-implicit-shapes/MotionProperties/MotionProperties.gltf"
SAMPLE_OBJECTS = ["WobbyToy_ModifiedCOM", "Balloon_GravityFactor", "Cone", "InfInertiaBox"]
ROUND = {"WobbyToy_ModifiedCOM", "Balloon_GravityFactor", "Cone"}  # a rocking toy, a balloon, a cone: they roll


def plain_object(path: Path, name: str) -> gp.Document:
    """The node ``name`` of a physics sample alone in its scene, every physics extension stripped: a plain asset
    (its textures still found beside the original file)."""
    import copy

    doc = gp.load(path)
    g = copy.deepcopy(doc.json)
    physics = {"KHR_physics_rigid_bodies", "KHR_implicit_shapes"}
    for holder in [g, *g["nodes"]]:
        ext = holder.get("extensions", {})
        for key in physics & set(ext):
            del ext[key]
    for key in ("extensionsUsed", "extensionsRequired"):
        if key in g:
            g[key] = [e for e in g[key] if e not in physics]
    node = next(i for i, n in enumerate(g["nodes"]) if n.get("name") == name)
    g["scenes"][g.get("scene", 0)]["nodes"] = [node]
    return gp.Document(json=g, buffers=doc.buffers, path=doc.path)


@pytest.mark.parametrize("shape", ["auto", "decompose"])
@pytest.mark.parametrize("name", SAMPLE_OBJECTS)
def test_khronos_sample_meshes_drop_and_rest(name: str, shape: str) -> None:
    plain = plain_object(fixture_path(MOTION_PROPERTIES), name)
    assert gp.read_scene(plain).colliders == []  # plain indeed
    _check(prepare(plain.json, plain.buffers), shape, rolls=name in ROUND)


def test_ring_auto_is_a_decomposition_and_crate_auto_a_box() -> None:
    # the choice `auto` makes for each (the margins above are about how well, this is about what)
    for name, expected in (("crate", "box"), ("ring", "compound")):
        b = Builder(_made(name), decomposition=Settings.fast(seed=1), measure_fit=False)
        b.body("Drop", "dynamic")
        assert [c.shape for c in b.build("khr").colliders] == [expected]
