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
from .compare_losses import losses_by_body
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

    def differs(self, b: BodyDifference) -> bool:
        """Whether body difference ``b`` goes past the position or the angle tolerance."""
        return b.max_position > self.position_tolerance or b.max_angle > self.angle_tolerance

    @property
    def explained(self) -> bool:
        """Every body that differs has a listed loss touching it (:mod:`.compare_losses`): the engines differ
        where they were told they would. True when they agree."""
        return all(b.losses for b in self.bodies if self.differs(b))

    @property
    def verdict(self) -> str:
        """One line: do the engines agree within the tolerances; if not, whether the listed losses explain every
        body that differs, and which body drifts most (the worst unexplained one first)."""
        span = f"{self.position_tolerance * 100:g} cm / {self.angle_tolerance:g}° over {self.duration:g} s"
        if self.agree:
            return f"agree: {', '.join(self.engines)} within {span}"
        differing = [b for b in self.bodies if self.differs(b)]
        unexplained = [b for b in differing if not b.losses]
        worst = max(unexplained or differing, key=lambda b: (b.max_position / self.position_tolerance,
                                                              b.max_angle / self.angle_tolerance))
        label = f"node {worst.node}" + (f" '{worst.name}'" if worst.name else "")
        far = f"{label} on {worst.engine} is {worst.max_position:.4g} m / {worst.max_angle:.3g}° from {self.reference}"
        if unexplained:
            return f"differ: {far} (tolerance {span}), and no listed loss touches it"
        codes = sorted({f"{loss['code']} {loss['message'].split(':', 1)[0]}" for b in differing for loss in b.losses})
        return (f"differ where the listed losses explain it: {len(differing)} of {len(self.bodies)} bodies past "
                f"{span}, each touched by a loss ({'; '.join(codes)}); the farthest: {far}")

    def to_json(self) -> dict[str, Any]:
        """Plain data for ``--json``: the settings, the verdict and one object per (engine, body)."""
        return {"reference": self.reference, "engines": self.engines, "duration": self.duration,
                "rate": self.rate, "positionTolerance": self.position_tolerance,
                "angleTolerance": self.angle_tolerance, "agree": self.agree, "explained": self.explained,
                "verdict": self.verdict,
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
        lost = losses_by_body(scene, getattr(world.engine, "losses", []), [ref, world.recording],
                              position_tolerance)
        result.bodies.extend(replace(b, losses=tuple(lost.get(b.node, ())))  # type: ignore[arg-type]
                             for b in _differences(ref, world.recording, name))
    return result


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
