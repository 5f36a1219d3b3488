"""The runtime: a World on a physics engine (``sim/engine.py``; Rapier by default, or MuJoCo), its recording,
trace/events writers and bakes. Importing it loads no engine: a backend is imported when a World of that engine
is built."""

from .errors import SimulationError
from .recording import Recording
from .to_gltf import bake, write_final_pose
from .trace import write_events, write_trace
from .world import World

__all__ = ["Recording", "SimulationError", "World", "bake", "write_events", "write_final_pose", "write_trace"]
