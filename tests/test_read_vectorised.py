"""The read path's one-pass forms give exactly the bytes of the per-node code they replace.

Each vectorised or cached helper is compared with its scalar original on random and special inputs (±0, ∞,
NaN, reflections, zero scales): equal values *and* equal signs of zero, so `info` and `convert` outputs stay
byte-identical. NaN payloads are not compared (JSON writes every NaN alike).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import all_fixture_files, fixture_path
from gltf_physics.api import load, read_scene
from gltf_physics.dialects.common.context import ReadContext
from gltf_physics.geometry.frames import body_frame, inverse_body_frame, inverse_body_frames, rigid_inverse
from gltf_physics.geometry.mass import MassCache, body_mass_properties
from gltf_physics.geometry.placement import colliders_by_body, document_mesh_source
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.transforms import (
    decompose,
    decompose_all,
    local_matrix,
    quat_to_matrix,
    relative_pose,
    relative_rigid,
    relative_rigid_all,
)

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-300, 1e300, math.inf, -math.inf, math.nan, 1e-13]


def same(a: object, b: object) -> bool:
    """Equal element by element, zeros with the same sign, NaN matching NaN."""
    x, y = np.ravel(np.asarray(a, dtype=float)), np.ravel(np.asarray(b, dtype=float))
    return x.shape == y.shape and all(
        (math.isnan(p) and math.isnan(q)) or (p == q and math.copysign(1, p) == math.copysign(1, q))
        for p, q in zip(x.tolist(), y.tolist(), strict=True))


def matrices(count: int, seed: int) -> np.ndarray:
    """Affine 4×4s: raw special values, random ones, and rotations × signed/zero scales."""
    rng = np.random.default_rng(seed)
    out = np.tile(np.eye(4), (count, 1, 1))
    for k in range(count):
        if k % 4 == 0:
            out[k, :3, :4] = rng.choice(SPECIAL, size=(3, 4))
        elif k % 4 == 1:
            out[k, :3, :4] = rng.normal(size=(3, 4))
        else:
            q = rng.normal(size=4) if k % 4 == 2 else rng.choice([0.0, -0.0, 1.0, -1.0, 0.5], size=4)
            out[k, :3, :3] = quat_to_matrix(q) * rng.choice([1.0, 2.0, -1.0, 0.5, 0.0, 3.7], size=3)
            out[k, :3, 3] = rng.choice(SPECIAL[:8], size=3)
    return out


def test_decompose_all_is_decompose_per_matrix() -> None:
    stack = matrices(4000, 1)
    t, q, s = decompose_all(stack)
    with np.errstate(all="ignore"):
        for k, m in enumerate(stack):
            et, eq, es = decompose(m)
            assert same(et, t[k]) and same(eq, q[k]) and same(es, s[k]), m.tolist()


def test_relative_rigid_all_is_relative_pose_per_pair() -> None:
    stack = matrices(3000, 2)
    t, q, _ = decompose_all(stack)
    pairs = np.random.default_rng(3).integers(0, len(stack), size=(3000, 2))
    rt, rq = relative_rigid_all(t[pairs[:, 0]], q[pairs[:, 0]], t[pairs[:, 1]], q[pairs[:, 1]])
    with np.errstate(all="ignore"):
        for k, (i, j) in enumerate(pairs):
            et, eq = relative_pose(stack[i], stack[j])
            assert same(et, rt[k]) and same(eq, rq[k])
            ft, fq = relative_rigid(decompose(stack[i])[:2], decompose(stack[j])[:2])
            assert same(ft, et) and same(fq, eq)


def test_inverse_body_frames_are_rigid_inverses_of_body_frames() -> None:
    stack = matrices(3000, 4)
    inverses = inverse_body_frames(stack)
    with np.errstate(all="ignore"):
        for k, m in enumerate(stack):
            assert same(inverse_body_frame(m), rigid_inverse(body_frame(m)))
            assert same(inverses[k], inverse_body_frame(m))


def _walked(ctx: ReadContext, cache: dict[int, np.ndarray], node: int) -> np.ndarray:
    """The reader's former world matrix: memoised walk down from the identity (the reference)."""
    chain, seen, j = [], set(), node
    while j is not None and j not in cache and j not in seen:
        seen.add(j)
        chain.append(j)
        j = ctx.parent_of[j]
    base = cache[j] if j is not None and j in cache else np.eye(4)
    for k in reversed(chain):
        base = base @ local_matrix(ctx.nodes[k])
        cache[k] = base
    return cache[node]


def test_read_context_world_is_the_walk_from_the_identity() -> None:
    rng = np.random.default_rng(5)
    values = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.0]
    for _ in range(100):
        n = int(rng.integers(2, 30))
        nodes: list[dict] = [{"translation": rng.choice(values, size=3).tolist(),
                              "rotation": rng.choice(values, size=4).tolist(),
                              "scale": rng.choice(values, size=3).tolist()} for _ in range(n)]
        for i in range(1, n):
            nodes[int(rng.integers(0, i))].setdefault("children", []).append(i)
        ctx = ReadContext.for_document(Document(json={"nodes": nodes}))
        cache: dict[int, np.ndarray] = {}
        with np.errstate(all="ignore"):
            for i in range(n):  # a root's I @ local can flip zeros' signs: the frames keep that
                assert ctx.world(i).tobytes() == _walked(ctx, cache, i).tobytes()


@pytest.mark.parametrize("relative", all_fixture_files())
def test_cached_mass_properties_equal_the_uncached_ones(relative: str) -> None:
    doc = load(fixture_path(relative))
    scene = read_scene(doc)
    world, source, by_body = scene.node_world(), document_mesh_source(doc), colliders_by_body(scene)
    cache = MassCache()
    cache.prepare(scene, world, [b.node for b in scene.bodies], by_body)
    for body in scene.bodies:
        kwargs = {"world": world, "colliders": by_body.get(body.node, [])}
        try:
            with np.errstate(all="ignore"):
                expected = body_mass_properties(scene, body, 1000.0, source, **kwargs)
        except (ArithmeticError, ValueError):
            continue
        with np.errstate(all="ignore"):
            got = body_mass_properties(scene, body, 1000.0, source, cache=cache, **kwargs)
        assert same([got.mass, *got.center_of_mass, *got.inertia_diagonal, *got.inertia_orientation],
                    [expected.mass, *expected.center_of_mass, *expected.inertia_diagonal,
                     *expected.inertia_orientation])


def test_gc_paused_leaves_the_collector_on_and_a_callers_frozen_objects_frozen() -> None:
    """gc_paused promotes what it allocated (freeze/unfreeze) only when nothing else is frozen."""
    import gc

    from gltf_physics.dialects.common.context import gc_paused

    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with gc_paused():
            pass
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
