"""The runtime (DESIGN §1, §3): a World built on Rapier, its recording, trace/events writers and bakes."""

from .bake import bake, write_final_pose
from .errors import SimulationError
from .recording import Recording
from .trace import write_events, write_trace
from .world import World

__all__ = ["Recording", "SimulationError", "World", "bake", "write_events", "write_final_pose", "write_trace"]
