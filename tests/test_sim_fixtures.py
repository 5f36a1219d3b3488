"""Every official fixture builds and simulates 2 s on the runtime (docs/semantics.md), finite throughout."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import all_fixture_files, fixture_path
from gltf_physics.sim import World


@pytest.mark.parametrize("relative", all_fixture_files())
def test_fixture_simulates(relative):
    world = World.from_file(fixture_path(relative), record=True)
    world.run(2.0)
    assert world.step_count == 120 and world.recording.count == 121  # 2 s at 60 Hz, plus the t = 0 frame
    assert np.isfinite(world.recording.poses).all()
    assert len(world.recording.nodes) == len(world.nodes)
