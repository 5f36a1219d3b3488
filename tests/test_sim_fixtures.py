"""Every official fixture builds and runs a quarter second on the runtime (DIGEST §11), finite throughout."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import all_fixture_files, fixture_path
from gltf_physics.sim import World


@pytest.mark.parametrize("relative", all_fixture_files())
def test_fixture_simulates(relative):
    world = World.from_file(fixture_path(relative), record=True)
    world.run(0.25)
    assert world.step_count == 15 and world.recording.count == 16
    assert np.isfinite(world.recording.poses).all()
    assert len(world.recording.nodes) == len(world.nodes)
