"""`gltf-physics add`: bodies and colliders fitted to the meshes of a plain glTF, in the newest KHR or OMI form."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .common import UsageError, clean_errors, out, require_extra
from .options import at_least, choice, suffix
from .overwrite import Source, refuse_overwrite

if TYPE_CHECKING:
    from ..author.builder import AddResult


@clean_errors
def add(
    src: Annotated[Path, typer.Argument(metavar="IN")],
    dst: Annotated[Path, typer.Argument(metavar="OUT")],
    to: Annotated[str, typer.Option(metavar="khr|omi", help="The physics family to write.")] = "khr",
    bodies: Annotated[list[str] | None, typer.Option(
        "--body", metavar="KIND[=SELECTOR]",
        help="dynamic, kinematic or static; SELECTOR: a node name glob, an index, or NAME/ for a subtree "
             "(default: every root node holding a new collider, dynamic; static when all its colliders are "
             "triangle meshes).")] = None,
    colliders: Annotated[list[str] | None, typer.Option(
        "--collider", metavar="SHAPE[=SELECTOR]",
        help="auto, box, sphere, capsule, cylinder, hull, decompose or mesh (static bodies only), for the "
             "selected meshed nodes (default: auto for every mesh in a body).")] = None,
    density: Annotated[float | None, typer.Option(metavar="KG_M3", help="Mass = density × collider volume.")] = None,
    mass: Annotated[float | None, typer.Option(metavar="KG", help="The mass of each new body.")] = None,
    friction: Annotated[str | None, typer.Option(metavar="S[,D]", help="Static (and dynamic) friction.")] = None,
    restitution: Annotated[float | None, typer.Option(metavar="R", help="Restitution (bounciness).")] = None,
    conventions: Annotated[str, typer.Option(
        metavar="auto|godot|unreal|none", help="Read Godot -col/-colonly/-convcol/-convcolonly/-rigid suffixes "
                                               "and Unreal UCX_/UBX_/USP_/UCP_ prefixes.")] = "auto",
    joints: Annotated[list[str] | None, typer.Option(
        "--joint", metavar="A,B=KIND[:AXIS]",
        help="fixed, hinge, ball or slider between the bodies of nodes A and B, at B's origin; a hinge turns about "
             "and a slider moves along B's AXIS (x, y or z; default x).")] = None,
    max_hulls: Annotated[int, typer.Option(metavar="N", help="decompose: at most N parts (-1: no limit).")] = -1,
    concavity: Annotated[float, typer.Option(metavar="C", help="decompose: CoACD's concavity threshold.")] = 0.05,
    seed: Annotated[int, typer.Option(metavar="K", help="decompose: the random seed (same seed, same parts).")] = 0,
    fast: Annotated[bool, typer.Option("--fast", help="decompose: a reduced search (previews).")] = False,
    ground: Annotated[bool, typer.Option("--ground", help="Add a static ground (a box collider on a new node) "
                                                          "under the model's lowest point.")] = False,
    report: Annotated[Path | None, typer.Option(metavar="FILE.json", help="Write the fit report here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
    in_place: Annotated[bool, typer.Option("--in-place", help="Allow OUT to be IN (replace the input).")] = False,
) -> None:
    """Add bodies and colliders fitted to the meshes of IN and write OUT (.gltf or .glb): fitted boxes,
    spheres, capsules and cylinders, convex hulls, convex decompositions (CoACD) or the triangle mesh; every
    collider's fit is reported.

    \b
    Example: gltf-physics add chair.glb chair.physics.glb --collider decompose --report fit.json
    """
    from ..gltf.files import check_writable

    require_extra("add", "author", ("scipy", "trimesh", "rtree"))  # CoACD is asked for only when decomposing
    choice("--to", to, ["khr", "omi"])
    choice("--conventions", conventions, ["auto", "godot", "unreal", "none"])
    suffix("OUT", dst, [".gltf", ".glb"], "the output")
    # never IN or a file IN references, unless asked
    refuse_overwrite([Source(src)], [("OUT", dst), ("--report", report)], may_replace="OUT" if in_place else None)
    check_writable(dst, "OUT")
    if report is not None:
        check_writable(report, "--report")
    result = _build(src, to, bodies or [], colliders or [], density, mass, friction, restitution, conventions,
                    joints or [], (max_hulls, concavity, seed, fast), None if quiet else _note, ground)
    _save(result, dst, report, src)
    if not quiet:
        for line in summary(result, dst):
            out.print(line, markup=False)
        for line in _no_ground(result, dst):
            sys.stderr.write(line + "\n")


def _pairs(option: str, values: list[str], kinds: tuple[str, ...]) -> list[tuple[str, str | None]]:
    pairs = []
    for value in values:
        kind, _, selector = value.partition("=")
        choice(option, kind, list(kinds))
        pairs.append((kind, selector or None))
    return pairs


def _build(src: Path, to: str, bodies: list[str], colliders: list[str], density: float | None, mass: float | None,
           friction: str | None, restitution: float | None, conventions: str, joints: list[str],
           decomposition: tuple[int, float, int, bool], progress: Callable[[str], None] | None,
           ground: bool = False) -> AddResult:
    from ..api import load
    from ..author import api, builder
    from ..author.decompose import DecompositionInputError, MissingExtraError, Settings
    from ..author.selectors import AuthorError

    if density is not None and mass is not None:
        raise UsageError("--density and --mass: give one of them")
    for option, value in (("--density", density), ("--mass", mass)):
        if value is not None:
            at_least(option, value, 0, "it", strictly=True)
    max_hulls, concavity, seed, fast = decomposition
    at_least("--concavity", concavity, 0, "the concavity threshold", strictly=True)
    if max_hulls != -1:
        at_least("--max-hulls", max_hulls, 1, "the most parts (or -1: no limit)")
    settings = (Settings.fast if fast else Settings)(threshold=concavity, max_hulls=max_hulls, seed=seed)
    try:
        return api.add_physics(
            load(src), to=to, bodies=_pairs("--body", bodies, builder.BODY_KINDS),  # type: ignore[arg-type]
            colliders=_pairs("--collider", colliders, builder.SHAPES), mass=mass, density=density,
            friction=_friction(friction), restitution=restitution, conventions=conventions,  # type: ignore[arg-type]
            joints=[_joint(j) for j in joints], decomposition=settings, progress=progress, ground=ground)
    except (AuthorError, MissingExtraError, DecompositionInputError) as exc:
        raise UsageError(f"{src}: {exc}") from None


def _no_ground(result: AddResult, dst: Path) -> list[str]:
    """The validator's HINT-NO-GROUND on OUT, each line with the way out: ``--ground``."""
    from ..dialects import read_scene
    from ..validation.hints import check

    lines: list[str] = []

    def emit(code: str, pointer: str, message: str, severity: int | None = None) -> None:
        if code == "HINT-NO-GROUND":
            lines.append(f"{dst}: hint {code} {pointer or '/'}: {message} (add --ground does)")

    check(read_scene(result.document), result.document.json, emit)
    return lines


def _note(line: str) -> None:
    """A step that may take a while, said on stderr before it starts (stdout keeps the summary alone)."""
    sys.stderr.write(line + "…\n")
    sys.stderr.flush()


def _friction(value: str | None) -> tuple[float, float] | None:
    if value is None:
        return None
    try:
        numbers = [float(x) for x in value.split(",")]
    except ValueError:
        numbers = []
    if len(numbers) not in (1, 2) or not all(math.isfinite(x) and x >= 0 for x in numbers):
        raise UsageError(f"--friction {value}: expected one or two numbers ≥ 0, e.g. --friction 0.8,0.6")
    return numbers[0], numbers[-1]


def _joint(value: str) -> tuple[str, str, str, str]:
    ends, _, kind = value.rpartition("=")
    a, comma, b = ends.partition(",")
    if not (a and comma and b):
        raise UsageError(f"--joint {value}: expected A,B=KIND[:AXIS], e.g. --joint Frame,Door=hinge:y")
    kind, _, axis = kind.partition(":")
    choice("--joint", kind, ["fixed", "hinge", "ball", "slider"])
    choice("--joint", axis or "x", ["x", "y", "z"])
    return a, b, kind, axis or "x"


def _save(result: AddResult, dst: Path, report: Path | None, src: Path) -> None:
    from ..gltf.files import Output, write_all
    from ..gltf.io import plan_save

    outputs = plan_save(result.document, dst)
    if report is not None:
        text = json.dumps({"source": str(src), **result.report()}, indent=2, allow_nan=False,
                          default=str) + "\n"
        outputs.append(Output(report, [text.encode("utf-8")]))
    write_all(outputs)  # both files, or neither


def summary(result: AddResult, dst: Path) -> list[str]:
    """One screen: what was written, then one line per collider (shape, parts, fit)."""
    kinds: dict[str, int] = {}
    for _, kind in result.bodies:
        kinds[kind] = kinds.get(kind, 0) + 1
    bodies = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "no new bodies"
    ground = "" if result.ground is None else f", a static ground on node {result.ground}"
    lines = [f"wrote {dst}: {bodies}, {len(result.colliders)} meshes made colliders{ground}",
             f"{'node':>5}  {'name':<24} {'asked':<9} {'made':<9} {'parts':>5} {'vol/hull':>8} "
             f"{'mesh→col':>8} {'col→mesh':>8}"]
    for c in result.colliders[:40]:
        f = c.fitness
        lines.append(f"{c.node:>5}  {_cut(c.name, 24):<24} {c.requested:<9} {c.shape:<9} {c.parts:>5} "
                     f"{_num(f.volume_ratio):>8} {_pct(f.mesh_to_collider):>8} {_pct(f.collider_to_mesh):>8}")
    if len(result.colliders) > 40:
        lines.append(f"… and {len(result.colliders) - 40} more (--report FILE.json lists every one)")
    lines.append("distances: the largest, as a % of the mesh's bounding-box diagonal")
    lines += [f"loss {x['code']} at {x['pointer']}: {x['message']}" for x in result.losses]
    return lines


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _num(value: Any) -> str:
    return "-" if value is None or value != value else f"{value:.3f}"


def _pct(value: Any) -> str:
    return "-" if value is None or value != value else f"{100 * value:.2f}%"
