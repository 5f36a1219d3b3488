"""What the commands say when they succeed: what was written, what ran, what was lost.

Each function returns the lines; the command prints them unless ``--quiet``. Numbers print as a user would
type them (``5 s``, never ``5.0 s`` or ``-0``), words are spelled out (no camelCase keys in human text).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .options import number

NO_PHYSICS = "no physics extensions found"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 body``, ``2 bodies``: the count and the noun agreeing with it."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def has_physics(scene: Any) -> bool:
    """Whether the file declares any physics extension this toolkit reads."""
    return bool(scene.generations)


def run_line(name: str, seconds: float, steps: int, rate: float, bodies: int, events: int) -> str:
    """``simulated 3 s of scene.gltf (180 steps at 60 Hz): 4 moving bodies, 2 trigger events``."""
    return (f"simulated {number(seconds)} s of {name} ({plural(steps, 'step')} at {number(rate)} Hz): "
            f"{plural(bodies, 'moving body', 'moving bodies')}, {plural(events, 'trigger event')}")


def written_line(paths: Iterable[Path | None]) -> str:
    """``wrote a.csv, b.jsonl`` or, when nothing was asked for, how to keep the run."""
    names = [str(p) for p in paths if p is not None]
    if names:
        return "wrote " + ", ".join(names)
    return "nothing written: add -o OUT.gltf, --trace T.csv or --events E.jsonl to keep the run"


def simulate_summary(src: Path, scene: Any, world: Any, outputs: Sequence[Path | None]) -> list[str]:
    """The lines `simulate` prints after a run."""
    lines = [] if has_physics(scene) else [f"{src}: {NO_PHYSICS}; nothing moves"]
    lines += unsimulated_lines(src, world)
    lines.append(run_line(src.name, world.time, world.step_count, world.rate, len(world.nodes), len(world.events())))
    lines.append(written_line(outputs))
    return lines + [f"{src}: note {line}" for line in world.notes()]


def unsimulated_lines(src: Path, world: Any) -> list[str]:
    """One line naming what the engine left out of the run (MuJoCo has no vehicles, wheels or seats: MJCF-8),
    or none."""
    dropped = [x for x in getattr(world.engine, "losses", None) or [] if x.get("code") == "MJCF-8"]
    if not dropped:
        return []
    kinds = Counter(str(x.get("message", "")).split(":", 1)[0] for x in dropped)
    what = ", ".join(plural(n, kind) for kind, n in kinds.items())
    return [f"{src}: not simulated on MuJoCo: {what} (MJCF-8: no MuJoCo counterpart); "
            "their bodies move as plain rigid bodies"]


def loss_lines(losses: Sequence[dict[str, str]], report: Path | None) -> list[str]:
    """``9 losses:`` then one ``  CODE ×N`` line per rule, most frequent first."""
    if not losses:
        return ["nothing lost"]
    by_code = Counter(loss["code"] for loss in losses)
    where = f"details in {report}" if report is not None else "--report FILE lists each with its pointer"
    lines = [f"{plural(len(losses), 'loss', 'losses')} ({where}):"]
    width = max(len(code) for code in by_code)
    lines += [f"  {code:<{width}}  ×{n}" for code, n in sorted(by_code.items(), key=lambda kv: (-kv[1], kv[0]))]
    return lines


def convert_summary(src: Path, dst: Path, target: str | None, scene: Any, losses: Sequence[dict[str, str]],
                    report: Path | None) -> list[str]:
    """The lines `convert` prints: what was written, in which form, and the losses by code."""
    if not has_physics(scene):
        return [f"{src}: {NO_PHYSICS}; wrote {dst} with the glTF unchanged"]
    if target is None:
        return [f"wrote {dst} (lossless re-save; --to omi or --to khr converts the physics)"]
    lines = [f"wrote {dst} (physics in the newest {target.upper()} form)"]
    return lines + loss_lines(losses, report)


def view_summary(target: Path, scene: Any, bake: dict[str, Any] | None, src: Path,
                 at: float | None = None) -> list[str]:
    """The line `view` prints: the page or picture written, and the run it carries."""
    lines = [] if has_physics(scene) else [f"{src}: {NO_PHYSICS}; the page shows the meshes only"]
    if bake is None:
        still = not any(b.motion.type.value != "static" for b in scene.bodies)
        lines.append(f"wrote {target} (no run: " + ("nothing in the scene moves)" if still else
                                                    "--simulate S embeds one)"))
        return lines
    steps = bake["frames"] - 1
    seconds = steps / bake["rate"]
    moment = f"at t = {number(at)} s of " if at is not None else ""
    lines.append(f"wrote {target} ({moment}a run of {number(round(seconds, 6))} s, {plural(steps, 'step')}: "
                 f"{plural(len(bake['nodes']), 'moving body', 'moving bodies')}, "
                 f"{plural(len(bake['events']), 'trigger event')})")
    return lines


def strict_failure(uri: str, warnings: int) -> str:
    """Why ``validate --strict`` fails a file its report calls valid."""
    return f"{uri}: fails --strict ({plural(warnings, 'warning')})"


def validate_total(reports: Sequence[Any], strict: bool) -> str:
    """``12 files: 10 valid, 1 invalid, 1 unreadable`` after a directory or several files."""
    unreadable = sum(1 for r in reports if r.unreadable)
    invalid = sum(1 for r in reports if not r.unreadable and r.exit_code(strict) == 1)
    valid = len(reports) - unreadable - invalid
    parts = [f"{valid} valid", f"{invalid} invalid" + (" (warnings count, --strict)" if strict else "")]
    if unreadable:
        parts.append(f"{unreadable} unreadable")
    return f"{plural(len(reports), 'file')}: " + ", ".join(parts)


# The validator's hints that say a run will not look as its author meant: something falls forever, hangs far
# below its joint, drops through everything or is thrown out at the first step.
ODD_RUN_HINTS = ("HINT-NO-GROUND", "HINT-SAG", "HINT-NO-COLLIDER", "HINT-START-OVERLAP")


def odd_run_hints(src: Path, scene: Any, gltf: Any) -> list[str]:
    """One line per hint of ``ODD_RUN_HINTS`` the scene draws, as `validate` prints it."""
    from ..validation.hints import check

    lines: list[str] = []

    def emit(code: str, pointer: str, message: str, severity: int | None = None) -> None:
        if code in ODD_RUN_HINTS:
            lines.append(f"{src}: hint {code} {pointer or '/'}: {message}")

    check(scene, gltf, emit)
    return lines
