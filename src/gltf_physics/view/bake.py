"""Record a run for the viewer: world poses of every body node per step, and the trigger events.

The viewer needs nothing else: it moves each body node to its recorded world pose (keeping the node's scale),
and the meshes and collider overlays beneath follow, as a body's colliders are rigidly attached (docs/semantics.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..model import PhysicsScene

DEFAULT_RATE = 60.0
POSE_DECIMALS = 5  # 10 µm and 1e-5 of a quaternion: finer than a screen pixel, keeps pages small
DEFAULT_SECONDS = 5.0  # long enough to see things fall, settle, swing and cross triggers
LONGEST_CLIP = 20.0  # a file's own animation sets the length up to this
BODY_FRAMES = 120_000  # poses a default run may embed (~7 MB of page): huge scenes get a shorter run


def record(scene: PhysicsScene, seconds: float, *, rate: float = DEFAULT_RATE,
           on_step: Callable[[Any], None] | None = None) -> dict[str, Any]:
    """Run a World for ``seconds`` at ``rate`` Hz; one frame at t = 0 and one after every step (``on_step(world)``
    is called after each, e.g. for a progress bar).

    Raises the runtime's SimulationError (naming the node) when a body's state stops being finite.
    """
    if not (math.isfinite(seconds) and seconds >= 0):
        raise ValueError(f"simulation time must be a finite number of seconds ≥ 0, not {seconds}")
    from ..sim.world import World  # the runtime loads the physics engine: only when a run is asked for

    world = World(scene, rate=rate, record=True)
    world.run(seconds, on_step=on_step)
    rec = world.recording
    assert rec is not None  # record=True
    return frames_json([int(n) for n in rec.nodes], rate, list(rec.translations), list(rec.rotations),
                       world.events())


def natural_length(scene: PhysicsScene, *, rate: float = DEFAULT_RATE) -> float:
    """How long `view` simulates when not told: 5 s, or the file's first animation clip if longer (up to 20 s),
    shortened for huge scenes so the page stays small (at most 120 000 body poses; at least one step)."""
    seconds = max(DEFAULT_SECONDS, min(_clip_length(scene), LONGEST_CLIP))
    moving = moving_bodies(scene)
    if moving:
        budget = math.floor(BODY_FRAMES / moving / rate * 10) / 10  # whole tenths of a second
        seconds = min(seconds, max(budget, 1.0 / rate))
    return seconds


def moving_bodies(scene: PhysicsScene) -> int:
    """How many bodies a run moves (dynamic and kinematic ones)."""
    return sum(1 for b in scene.bodies if b.motion.type.value != "static")


def _clip_length(scene: PhysicsScene) -> float:
    """The end time of the first animation clip (the one the runtime follows), from its inputs' ``max``."""
    gltf = scene.document.json if scene.document is not None else {}
    animations, accessors = gltf.get("animations"), gltf.get("accessors")
    if not (isinstance(animations, list) and animations and isinstance(animations[0], dict)
            and isinstance(accessors, list)):
        return 0.0
    ends = [0.0]
    for sampler in animations[0].get("samplers") or []:
        index = sampler.get("input") if isinstance(sampler, dict) else None
        acc = accessors[index] if isinstance(index, int) and 0 <= index < len(accessors) else None
        top = acc.get("max") if isinstance(acc, dict) else None
        if isinstance(top, list) and top and isinstance(top[0], int | float) and math.isfinite(top[0]):
            ends.append(float(top[0]))
    return max(ends)


def frames_json(nodes: list[int], rate: float, translations: list[np.ndarray], rotations: list[np.ndarray],
                events: list[dict[str, Any]]) -> dict[str, Any]:
    """The page's ``bake`` object: flat frame-major arrays (frame, then body, then components)."""
    t = np.asarray(translations, dtype=float).reshape(len(translations), len(nodes), 3)
    q = np.asarray(rotations, dtype=float).reshape(len(rotations), len(nodes), 4)
    if not (np.all(np.isfinite(t)) and np.all(np.isfinite(q))):
        raise ValueError("the run produced non-finite poses; nothing to show")
    return {
        "rate": float(rate),
        "frames": len(translations),
        "nodes": [int(n) for n in nodes],
        "translations": np.round(t, POSE_DECIMALS).reshape(-1).tolist(),
        "rotations": np.round(q, POSE_DECIMALS).reshape(-1).tolist(),
        "events": [{"time": float(e["time"]), "event": str(e["event"]), "trigger": int(e["trigger"]),
                    "node": int(e["node"])} for e in events],
    }


def trajectories(bake: dict[str, Any]) -> dict[int, np.ndarray]:
    """Body node → (frames, 3) world positions, for the PNG preview."""
    t = np.asarray(bake["translations"], dtype=float).reshape(bake["frames"], len(bake["nodes"]), 3)
    return {node: t[:, i, :] for i, node in enumerate(bake["nodes"])}
