"""One live run: a World stepped in real time (times a speed), paused, stepped, reset, pushed and set.

Nothing here knows about sockets: the server calls :meth:`LiveSession.advance` with the wall time that passed
and sends :meth:`frame` to its clients. The run's recent history (a bounded ring of poses) is what a saved
replay page and trace hold.
"""

from __future__ import annotations

import io
import math
import struct
import time as clock
from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...dialects.common.pointer_catalog import settable, vehicle_controls
from ...model import MotionType, PhysicsScene
from ...sim.errors import SimulationError
from ...sim.world import World

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)
FRAME_MAGIC = b"GPF1"
FRAME_HEADER = struct.Struct("<4sIdffI")  # magic, step, time, real-time factor, speed, body count
HISTORY_BYTES = 48_000_000  # poses kept for a saved replay: ~30 s of a 1,000-body pile, minutes of a small scene
HISTORY_SECONDS = 120.0
CATCH_UP = 0.1  # s of wall time a late tick may catch up; beyond that the run slows (real-time factor < 1)
INPUT_LOG = 1000


@dataclass
class Grab:
    """A user's spring on one dynamic body: ``anchor`` in the body's frame, pulled toward ``target`` (world)."""

    node: int
    anchor: np.ndarray
    target: np.ndarray
    stiffness: float
    damping: float
    limit: float
    last_point: np.ndarray | None = None


class LiveSession:
    """A World and the controls a live page has over it.

    Args:
        world: the World to run (its state now is what reset goes back to).
        grab_hz: the grab spring's natural frequency (critically damped), so any mass follows alike.
        grab_g: the most the grab may accelerate a body, in g (keeps joints and contacts sane).
    """

    def __init__(self, world: World, *, grab_hz: float = 3.0, grab_g: float = 3.0) -> None:
        scene = world.scene
        self.scene: PhysicsScene = scene
        self.world = world
        self.start = self.world.snapshot()
        self.nodes = [int(n) for n in self.world.nodes]
        self.motion = {b.node: b.motion.type.value for b in scene.bodies}
        self.settings = settable(scene, masses=self._masses())
        self.controls = vehicle_controls(scene)
        self.paused = False
        self.speed = 1.0
        self.grabs: dict[int, Grab] = {}  # client id → its grab
        self.inputs: deque[dict[str, Any]] = deque(maxlen=INPUT_LOG)  # what was set, at which simulated time
        self.grab_omega = 2 * math.pi * grab_hz
        self.grab_accel = grab_g * 9.81
        self._debt = 0.0
        self._samples: deque[tuple[float, float]] = deque(maxlen=64)  # (wall, simulated) for the real-time factor
        frames = int(min(HISTORY_SECONDS * world.rate, max(2, HISTORY_BYTES // max(28 * len(self.nodes), 1))))
        self.history: deque[tuple[float, np.ndarray]] = deque(maxlen=frames)
        self._record()

    # -- time ----------------------------------------------------------------------------------------
    @property
    def time(self) -> float:
        """Simulated seconds since the start (or the last reset)."""
        return self.world.time

    def advance(self, wall_seconds: float) -> int:
        """Step as many times as ``wall_seconds`` × speed of simulated time holds (at most CATCH_UP s of wall
        time at once: a slow machine runs slower than real time instead of falling ever further behind)."""
        now = clock.monotonic()
        if self.paused:
            self._samples.clear()
            return 0
        self._debt += min(max(wall_seconds, 0.0), CATCH_UP) * self.speed * self.world.rate
        steps = int(self._debt + 1e-9)
        self._debt -= steps
        for _ in range(steps):
            self._step()
        self._samples.append((now, self.time))
        return steps

    def step_once(self) -> None:
        """One step while paused (the page's single-step button)."""
        self._step()

    def set_paused(self, paused: bool) -> None:
        """Pause or resume; a resumed run does not make up for the pause."""
        self.paused = bool(paused)
        self._debt = 0.0

    def set_speed(self, speed: float) -> None:
        """Simulated seconds per wall second, one of SPEEDS."""
        if speed not in SPEEDS:
            raise ValueError(f"speed must be one of {', '.join(map(str, SPEEDS))}")
        self.speed = float(speed)
        self._samples.clear()

    def real_time_factor(self) -> float:
        """Simulated over wall seconds across the last samples (0 while paused or before two samples)."""
        if len(self._samples) < 2:
            return 0.0
        (w0, s0), (w1, s1) = self._samples[0], self._samples[-1]
        return (s1 - s0) / (w1 - w0) if w1 > w0 else 0.0

    def reset(self) -> None:
        """Back to the start snapshot: poses, velocities, time, every value set since; grabs let go."""
        self.world.restore(self.start)
        self.grabs.clear()
        self._debt = 0.0
        self._samples.clear()
        self.history.clear()
        self.inputs.clear()
        self._record()

    def _step(self) -> None:
        for g in list(self.grabs.values()):
            self._pull(g)
        self.world.step()
        self._record()

    def _record(self) -> None:
        _, t, q = self.world.poses()
        self.history.append((self.time, np.concatenate([q, t], axis=1).astype(np.float32)))

    # -- inputs --------------------------------------------------------------------------------------
    def set(self, pointer: str, value: Any) -> None:
        """``World.set`` now, logged with the simulated time (raises SimulationError naming the pointer)."""
        self.world.set(pointer, value)
        self.inputs.append({"time": self.time, "pointer": pointer, "value": value})

    def drive(self, vehicle: int, throttle: float, steer: float, brake: bool) -> None:
        """Keyboard driving through the vehicle's pointers: throttle on +Z, steering about +Y (+ = left); the
        brake zeroes the throttle and turns the linear dampeners on (each wheel then brakes, DIGEST §11)."""
        c = next((c for c in self.controls if c.node == vehicle), None)
        if c is None:
            raise ValueError(f"node {vehicle} is not a vehicle body")
        throttle = 0.0 if brake else max(-1.0, min(1.0, throttle))
        self.set(c.linear_activation, [0.0, 0.0, throttle])
        self.set(c.angular_activation, [0.0, max(-1.0, min(1.0, steer)), 0.0])
        self.set(c.linear_dampeners, True if brake else c.dampeners_default)

    def _masses(self) -> dict[int, float]:
        """The mass the runtime uses for each body (computed from its colliders where the file gives none)."""
        out = {}
        for b in self.scene.bodies:
            mp = self.world.mass_properties(b.node)
            if mp is not None:
                out[b.node] = mp.mass
        return out

    def grab(self, client: int, node: int, point: list[float]) -> None:
        """Start pulling ``node`` at world ``point`` (only a dynamic body can be grabbed)."""
        if self.motion.get(node) != MotionType.DYNAMIC.value or node not in self.nodes:
            raise ValueError(f"node {node} is not a dynamic body (kinematic and static bodies cannot be dragged)")
        if self.world.engine_name != "rapier":  # MuJoCo's engine refuses push (sim/mujoco/world.py)
            raise ValueError(f"the {self.world.engine_name} engine cannot push bodies: grabbing needs --engine rapier")
        mp = self.world.mass_properties(node)
        mass = mp.mass if mp is not None and math.isfinite(mp.mass) and mp.mass > 0 else 1.0
        t, q = self.world.pose(node)
        p = np.asarray(point, dtype=float)
        anchor = _rotate(_conjugate(q), p - t)
        w = self.grab_omega
        self.grabs[client] = Grab(node, anchor, p.copy(), mass * w * w, 2 * mass * w, mass * self.grab_accel)

    def drag(self, client: int, target: list[float]) -> None:
        """Move the client's grab target (world point)."""
        g = self.grabs.get(client)
        if g is not None:
            g.target = np.asarray(target, dtype=float)

    def release(self, client: int) -> None:
        """Let go of the client's grab."""
        self.grabs.pop(client, None)

    def _pull(self, g: Grab) -> None:
        """A critically damped spring from the grab point to its target, its force clipped to ``limit``."""
        t, q = self.world.pose(g.node)
        p = t + _rotate(q, g.anchor)
        v = (p - g.last_point) * self.world.rate if g.last_point is not None else np.zeros(3)
        g.last_point = p
        f = g.stiffness * (g.target - p) - g.damping * v
        n = float(np.linalg.norm(f))
        if n > g.limit:
            f *= g.limit / n
        self.world.push(g.node, f, p)

    # -- output --------------------------------------------------------------------------------------
    def frame(self) -> bytes:
        """The binary pose message: header, then [qx, qy, qz, qw, tx, ty, tz] float32 per body."""
        _, poses = self.history[-1]
        head = FRAME_HEADER.pack(FRAME_MAGIC, self.world.step_count, self.time, self.real_time_factor(),
                                 self.speed, len(self.nodes))
        return head + poses.astype("<f4").tobytes()

    def hello(self) -> dict[str, Any]:
        """What a page needs once: body order of the frames, the rate, the settings and vehicles."""
        return {"type": "hello", "nodes": self.nodes, "rate": self.world.rate, "engine": self.world.engine_name,
                "speeds": list(SPEEDS), "settings": [s.to_json() for s in self.settings],
                "vehicles": [c.to_json() for c in self.controls],
                "motion": {str(k): v for k, v in self.motion.items()}}

    def status(self) -> dict[str, Any]:
        """Paused, speed, time, steps and real-time factor."""
        return {"type": "status", "paused": self.paused, "speed": self.speed, "time": self.time,
                "step": self.world.step_count, "rtf": round(self.real_time_factor(), 3)}

    def bake(self) -> dict[str, Any]:
        """The recent history as the replay page's ``bake`` (times from the first kept frame)."""
        from ..bake import frames_json

        t0 = self.history[0][0]
        frames = list(self.history)
        events = [dict(e, time=e["time"] - t0) for e in self.world.events() if e["time"] >= t0 - 1e-9]
        return frames_json(self.nodes, self.world.rate, [f[:, 4:] for _, f in frames], [f[:, :4] for _, f in frames],
                           events)

    def trace_csv(self) -> bytes:
        """The recent history as the trace CSV ``simulate --trace`` writes."""
        from ...sim.trace_writers import CsvTraceWriter

        buf = io.BytesIO()
        writer = CsvTraceWriter(buf, self.nodes, list(self.world.names))
        for t, f in self.history:
            writer.frame(t, f[:, 4:].astype(np.float64), f[:, :4].astype(np.float64))
        writer.close()
        return buf.getvalue()


def _conjugate(q: np.ndarray) -> np.ndarray:
    return np.array([-q[0], -q[1], -q[2], q[3]])


def _rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``v`` rotated by the unit quaternion ``q`` (x, y, z, w)."""
    u, w = np.asarray(q[:3], dtype=float), float(q[3])
    return v + 2.0 * np.cross(u, np.cross(u, v) + w * v)


__all__ = ["SPEEDS", "LiveSession", "SimulationError"]
