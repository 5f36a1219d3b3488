"""The runtime checks' NumPy fast path (geometry/limits.py ``_clearly_fine``) never passes a shape the exact,
one-by-one check refuses — it only saves the per-shape placement on scenes of thousands of primitives."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gltf_physics.geometry.limits import MAX_EXTENT, _clearly_fine, _placed
from gltf_physics.model import Box, Capsule, Cylinder, Sphere

sizes = st.one_of(st.floats(-1.0, 10.0), st.sampled_from([0.0, math.nan, math.inf, 4e4, 6e4, 1e9]))
shapes = st.one_of(st.builds(Box, st.tuples(sizes, sizes, sizes)), st.builds(Sphere, sizes),
                   st.builds(Capsule, sizes, sizes, sizes), st.builds(Cylinder, sizes, sizes, sizes))
scales = st.one_of(st.floats(-3.0, 3.0), st.sampled_from([0.0, 1e6, math.nan]))
positions = st.one_of(st.floats(-1e3, 1e3), st.sampled_from([9e4, -1.1e5, math.inf]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(shapes, st.tuples(scales, scales, scales), st.tuples(positions, positions, positions)),
                min_size=1, max_size=8))
def test_fast_path_passes_only_what_the_exact_check_passes(cases) -> None:
    matrices = []
    for _, scale, position in cases:
        m = np.eye(4)
        m[:3, :3] = np.diag(scale)
        m[:3, 3] = position
        matrices.append(m)
    fine = _clearly_fine([shape for shape, _, _ in cases], matrices)
    for (shape, _, _), m, ok in zip(cases, matrices, fine, strict=True):
        if ok:
            assert _placed(shape, m, None, "/nodes/0") is None, (shape, m)


def test_an_ordinary_pile_takes_the_fast_path() -> None:
    boxes = [Box((1.0, 1.0, 1.0))] * 3 + [Sphere(0.5), Capsule(1.0, 0.2, 0.2), Cylinder(2.0, 0.5, 0.5)]
    matrices = [np.eye(4)] * len(boxes)
    assert _clearly_fine(boxes, matrices).tolist() == [True] * 6
    near = np.eye(4)
    near[0, 3] = MAX_EXTENT - 1.0  # within the bound, but a 1 m box reaches past it: the exact path decides
    assert _clearly_fine([Box((1.0, 1.0, 1.0))], [near]).tolist() == [False]
