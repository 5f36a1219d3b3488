"""One asset on several engines: per body, how far the runs drift apart.

    result = compare(scene, engines=("rapier", "mujoco"), duration=2.0)
    result.verdict  # "agree" or "differ"

Every engine runs the same scene at the same rate for the same time with a recording; each later engine is
measured against the first: at every recorded frame the distance between a body's positions and the angle
between its orientations (the smallest rotation taking one to the other). Reported per body: the final and
the largest of each. Both engines report the same bodies (dynamic and kinematic, World's trace contract).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from ..model import PhysicsScene
from .errors import SimulationError
from .world import World

POSITION_TOLERANCE = 0.02  # m: "agree" when no body drifts further apart than this
ANGLE_TOLERANCE = 5.0  # degrees


@dataclass(frozen=True)
class BodyDifference:
    """Differences of one body between ``engine`` and the reference engine (metres, degrees)."""

    node: int
    name: str
    engine: str
    final_position: float
    max_position: float
    final_angle: float
    max_angle: float
    max_position_time: float
    # What ``engine`` could not take of this body, its colliders, their materials or its joints (the engine's
    # conversion losses, e.g. MJCF-2 for a restitution MuJoCo has no coefficient for): the likely reason a
    # difference is expected rather than a bug.
    losses: tuple[dict[str, str], ...] = ()


@dataclass
class Comparison:
    """Per-body differences of every engine against ``reference``, and the tolerances of the verdict."""

    reference: str
    engines: list[str]
    duration: float
    rate: float
    position_tolerance: float
    angle_tolerance: float
    bodies: list[BodyDifference] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        """No body ever differs by more than the position or the angle tolerance."""
        return all(b.max_position <= self.position_tolerance and b.max_angle <= self.angle_tolerance
                   for b in self.bodies)

    @property
    def verdict(self) -> str:
        """One line: do the engines agree within the tolerances, and if not, which body drifts most."""
        span = f"{self.position_tolerance * 100:g} cm / {self.angle_tolerance:g}° over {self.duration:g} s"
        if self.agree:
            return f"agree: {', '.join(self.engines)} within {span}"
        worst = max(self.bodies, key=lambda b: (b.max_position / self.position_tolerance,
                                                b.max_angle / self.angle_tolerance))
        label = f"node {worst.node}" + (f" '{worst.name}'" if worst.name else "")
        line = (f"differ: {label} on {worst.engine} is {worst.max_position:.4g} m / {worst.max_angle:.3g}° "
                f"from {self.reference} (tolerance {span})")
        if worst.losses:
            why = "; ".join(f"{loss['message']} ({loss['code']})" for loss in worst.losses)
            line += f"; expected: {worst.engine} cannot take all of it: {why}"
        return line

    def to_json(self) -> dict[str, Any]:
        """Plain data for ``--json``: the settings, the verdict and one object per (engine, body)."""
        return {"reference": self.reference, "engines": self.engines, "duration": self.duration,
                "rate": self.rate, "positionTolerance": self.position_tolerance,
                "angleTolerance": self.angle_tolerance, "agree": self.agree, "verdict": self.verdict,
                "bodies": [_camel(asdict(b)) for b in self.bodies]}


def compare(scene: PhysicsScene, engines: tuple[str, ...] | list[str] = ("rapier", "mujoco"), *,
            duration: float = 2.0, rate: float = 60.0, position_tolerance: float = POSITION_TOLERANCE,
            angle_tolerance: float = ANGLE_TOLERANCE, **options: Any) -> Comparison:
    """Run ``scene`` on every engine (``options`` go to each World) and measure each against the first."""
    engines = list(engines)
    if len(engines) < 2 or len(set(engines)) != len(engines):
        raise SimulationError(f"compare needs two or more different engines, got {', '.join(engines) or 'none'}")
    runs = []
    for name in engines:
        world = World(scene, rate=rate, record=True, engine=name, **options)
        world.run(duration)
        runs.append(world)
    result = Comparison(engines[0], engines, float(duration), float(rate), position_tolerance, angle_tolerance)
    ref = runs[0].recording
    for name, world in zip(engines[1:], runs[1:], strict=True):
        lost = _losses_by_body(scene, getattr(world.engine, "losses", []))
        result.bodies.extend(replace(b, losses=tuple(lost.get(b.node, ())))  # type: ignore[arg-type]
                             for b in _differences(ref, world.recording, name))
    return result


def _losses_by_body(scene: PhysicsScene, losses: list[dict[str, str]]) -> dict[int, list[dict[str, str]]]:
    """Each moving body's share of an engine's conversion losses: those whose pointer is the body's, one of its
    colliders' (or their shapes' or materials'), or one of its joints'."""
    owners: dict[str, set[int]] = {}

    def own(pointer: str, node: int) -> None:
        if pointer:
            owners.setdefault(pointer, set()).add(node)

    for body in scene.bodies:
        own(body.pointer, body.node)
    for c in scene.colliders:
        if c.body is not None:
            own(c.pointer, c.body)
            own(getattr(c.shape, "pointer", ""), c.body)
            if c.material is not None and 0 <= c.material < len(scene.materials):
                own(scene.materials[c.material].pointer, c.body)
    for j in scene.joints:
        for node in (j.body_a, j.body_b):
            if node is not None:
                own(j.pointer, node)
    found: dict[int, list[dict[str, str]]] = {}
    for loss in losses:
        for node in sorted(owners.get(loss.get("pointer", ""), ())):
            if loss not in found.setdefault(node, []):
                found[node].append(loss)
    return found


def _differences(ref: Any, other: Any, engine: str) -> list[BodyDifference]:
    index = {int(n): i for i, n in enumerate(other.nodes)}
    frames = min(ref.count, other.count)
    out = []
    for b, node in enumerate(ref.nodes):
        if int(node) not in index:
            raise SimulationError(f"node {int(node)} moves on {engine} but not on the reference engine")
        j = index[int(node)]
        dp = np.linalg.norm(ref.translations[:frames, b].astype(np.float64)
                            - other.translations[:frames, j].astype(np.float64), axis=1)
        dot = np.abs(np.einsum("fi,fi->f", ref.rotations[:frames, b].astype(np.float64),
                               other.rotations[:frames, j].astype(np.float64)))
        angle = np.degrees(2.0 * np.arccos(np.clip(dot, 0.0, 1.0)))
        k = int(np.argmax(dp))
        out.append(BodyDifference(int(node), ref.names[b], engine, float(dp[-1]), float(dp[k]), float(angle[-1]),
                                  float(angle.max()), float(ref.times[k])))
    return out


def _camel(d: dict[str, Any]) -> dict[str, Any]:
    def camel(key: str) -> str:
        head, *rest = key.split("_")
        return head + "".join(w.title() for w in rest)

    return {camel(k): v for k, v in d.items()}
