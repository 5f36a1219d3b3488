"""Hints: files that are valid but will likely not behave as their author meant.

Not numbered rules, so their codes have their own stable prefix ``HINT-`` and their own table (``HINTS``,
documented by :func:`hints_markdown`). Their severity is the glTF-Validator's *hint*: a hint says the file is valid
but will likely not behave as meant, never that it breaks a rule, so it counts as a hint and ``--strict`` (which
fails on warnings) does not fail on it. They look at the
scene at t = 0 with the model's own helpers (``geometry`` for masses and placed shapes, ``overlap`` for
geometry); nothing here imports an engine.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..dialects.common.checks import Emit, is_legacy_body, joint_family
from ..geometry.frames import body_frame
from ..geometry.mass import MassProperties, body_mass_properties
from ..geometry.placement import PlacedShape, colliders_by_body, document_mesh_source, place_shape
from ..gltf.errors import GltfError
from ..gltf.transforms import quat_to_matrix, world_matrices
from ..model import Joint, JointLimit, MotionType, PhysicsScene
from . import broadphase, overlap
from .rules import Rule, Severity

H = Severity.HINT
SAG_LIMIT = 0.1  # m: a spring that lets its load hang further than this is not holding it
GROUND_REACH = 1000.0  # m: how far below a wheel the ground may be (the car falls onto it)
MAX_FALLING = 20  # bodies named by HINT-NO-GROUND per file: past that, the file has one problem many times
MAX_OVERLAPS = 50  # start overlaps reported per file: past that the file is broken wholesale, and each exact
# test costs milliseconds (a scene of thousands of interpenetrating bodies would take seconds per thousand)

HINTS: dict[str, Rule] = {
    "HINT-SAG": Rule(H, "A soft joint limit or drive is too weak to hold its body against gravity: the "
                        "weight m·g it carries stretches it m·g/k beyond its range, more than 0.1 m."),
    "HINT-NO-COLLIDER": Rule(H, "A dynamic body has no collider: nothing stops it, it falls through "
                                "everything."),
    "HINT-START-OVERLAP": Rule(H, "A dynamic body starts interpenetrating a static collider (deeper than "
                                  "5 mm): the solver throws it out at the first step."),
    "HINT-TRIGGER-STATIC": Rule(H, "A static collider overlaps a trigger at t = 0: the trigger reports it "
                                     "at once (or never, for a static trigger) rather than when something "
                                     "arrives."),
    "HINT-NO-GROUND": Rule(H, "Nothing to land on: a vehicle has no collider below its wheels, or bodies fall "
                              "in a scene without any static or kinematic collider: they fall forever."),
    "HINT-JOINT-SIDE": Rule(H, "A KHR joint node has no moving body above it while its connected side has "
                                 "one: the spec author's Babylon loader cannot build such a joint (write it "
                                 "from the moving side)."),
}


def hints_markdown() -> str:
    """The HINT table as Markdown (code, what it means) for the documentation."""
    rows = ["| Code | Hint |", "|-|-|"]
    rows += [f"| {code} | {rule.description} |" for code, rule in HINTS.items()]
    return "\n".join(rows)


def check(scene: PhysicsScene, gltf: dict[str, Any], emit: Emit) -> None:
    """Run every hint over the scene (messages carry the HINT table's severities)."""
    if not (scene.bodies or scene.colliders or scene.triggers):
        return  # nothing that moves or touches: nothing to hint (and no world matrices to compute)
    ctx = _Context(scene, gltf, lambda code, ptr, msg: emit(code, ptr, msg, int(HINTS[code].severity)))
    with np.errstate(all="ignore"):
        for step in _STEPS:
            step(ctx)


@dataclass
class _Context:
    """The scene at t = 0 with what several hints share: world matrices, bodies by node, placed shapes,
    world boxes and masses (each computed once, on first use)."""

    scene: PhysicsScene
    gltf: dict[str, Any]
    emit: Callable[[str, str, str], None]
    kinds: dict[int, MotionType] = field(init=False)
    by_body: dict[int | None, list[int]] = field(init=False)
    bodies: dict[int, Any] = field(init=False)
    source: Any = field(init=False)
    _placed: dict[tuple[str, int], PlacedShape | None] = field(default_factory=dict)
    _mass: dict[int, MassProperties | None] = field(default_factory=dict)
    _bounds: tuple[np.ndarray, np.ndarray] | None = None
    _world: list[np.ndarray] | None = None

    def __post_init__(self) -> None:
        self.bodies = {b.node: b for b in self.scene.bodies}
        self.kinds = {node: b.motion.type for node, b in self.bodies.items()}
        self.by_body = colliders_by_body(self.scene)
        self.source = document_mesh_source(self.scene.document) if self.scene.document is not None else None

    @property
    def world(self) -> list[np.ndarray]:
        """World matrices of every node, computed on first use (a file with nothing to test never pays)."""
        if self._world is None:
            doc = self.scene.document
            self._world = (self.scene.node_world() if doc is not None and doc.json is self.gltf  # the read's own
                           else world_matrices(self.gltf))
        return self._world

    def dynamic(self, body: int | None) -> bool:
        return body is not None and self.kinds.get(body) is MotionType.DYNAMIC

    def static(self, body: int | None) -> bool:
        return body is None or self.kinds.get(body) is MotionType.STATIC

    def placed(self, kind: str, index: int) -> PlacedShape | None:
        """Collider (``kind`` 'c') or trigger ('t') ``index`` placed in world space at t = 0."""
        key = (kind, index)
        if key not in self._placed:
            obj = self.scene.colliders[index] if kind == "c" else self.scene.triggers[index]
            try:
                p = place_shape(obj.shape, self.world[obj.node], self.source) if obj.shape is not None else None
            except (GltfError, ValueError, IndexError, TypeError):
                p = None  # mesh data the container reports elsewhere
            self._placed[key] = p if p is not None and overlap.finite(p) else None
        return self._placed[key]

    def bounds(self, colliders: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi) world bounding boxes (n, 3) of the listed colliders at t = 0 (all computed once, in
        NumPy for the implicit shapes); unbounded for planes and unplaceable shapes."""
        if self._bounds is None:
            self._bounds = broadphase.collider_boxes(self.scene, self.world, lambda k: self.placed("c", k))
        index = np.asarray(colliders, dtype=np.int64)
        return self._bounds[0][index], self._bounds[1][index]

    def mass(self, node: int) -> MassProperties | None:
        if node not in self._mass:
            body = self.bodies.get(node)
            try:
                mp = body_mass_properties(self.scene, body, 1000.0, self.source, world=self.world,
                                          colliders=self.by_body.get(node, [])) if body else None
            except (GltfError, ValueError, IndexError, TypeError):
                mp = None
            self._mass[node] = mp if mp is not None and math.isfinite(mp.mass) else None
        return self._mass[node]

    def gravity(self, node: int) -> np.ndarray:
        g = self.scene.world_gravity.vector if self.scene.world_gravity is not None else (0.0, -9.81, 0.0)
        body = self.bodies.get(node)
        return np.asarray(g, dtype=float) * (body.motion.gravity_factor if body else 1.0)

    def rotation(self, body: int | None) -> np.ndarray:
        return body_frame(self.world[body])[:3, :3] if body is not None else np.eye(3)


# ------------------------------------------------------------------------------------------ HINT-SAG


def _sag(ctx: _Context) -> None:
    carried = _carried_mass(ctx)
    for j in ctx.scene.joints:
        if ctx.dynamic(j.body_a) == ctx.dynamic(j.body_b):
            continue  # both anchored, or a link between two moving bodies (counted at the chain's anchor)
        hanging = j.body_b if ctx.dynamic(j.body_b) else j.body_a
        mass = carried.get(hanging)  # type: ignore[arg-type]
        if mass is None:
            continue
        axes = ctx.rotation(j.body_a) @ quat_to_matrix(j.frame_a.rotation)  # frame A's axes in the world
        g = ctx.gravity(hanging)  # type: ignore[arg-type]
        for k, lim in enumerate(j.limits):
            _limit_sag(ctx, j, k, lim, mass, g, axes)
        for k, d in enumerate(j.drives):
            if d.type.value != "linear" or d.position_target is None or d.stiffness < 0 or not 0 <= d.axis <= 2:
                continue
            accel = d.mode.value == "acceleration"  # force = stiffness · mass · x (docs/semantics.md)
            load = mass * abs(float(g @ axes[:, d.axis]))
            what = "drive (acceleration mode: force = stiffness·m·x)" if accel else "drive"
            _report_sag(ctx, j, d.pointer or f"{j.pointer}/drives/{k}", what, d.stiffness,
                        mass if accel else 1.0, mass, load)


def _limit_sag(ctx: _Context, j: Joint, k: int, lim: JointLimit, mass: float, g: np.ndarray,
               axes: np.ndarray) -> None:
    listed = sorted(set(a for a in lim.linear_axes if 0 <= a <= 2))
    if not listed or math.isinf(lim.stiffness) or lim.stiffness < 0 or math.isnan(lim.stiffness):
        return
    if len(listed) == 3:
        along = float(np.linalg.norm(g))  # distance to a point: all of the weight
    elif len(listed) == 1:
        along = abs(float(g @ axes[:, listed[0]]))
    else:
        free = axes[:, 3 - sum(listed)]  # distance to the line along the unlisted axis
        along = float(np.linalg.norm(g - (g @ free) * free))
    _report_sag(ctx, j, lim.pointer or f"{j.pointer}/limits/{k}", "limit", lim.stiffness, 1.0, mass,
                mass * along)


def _report_sag(ctx: _Context, j: Joint, pointer: str, what: str, stiffness: float, scale: float, mass: float,
                load: float) -> None:
    """``load``: the weight along the spring (N); the spring's force per metre is ``stiffness · scale``."""
    if not load > 0.0 or math.isinf(load):  # no weight, or none a number can say (a 1e308 gravity factor)
        return
    sag = math.inf if stiffness * scale <= 0.0 else load / (stiffness * scale)
    if sag <= SAG_LIMIT:
        return
    needed = load / SAG_LIMIT / scale
    unit = "1/s²" if what.startswith("drive (acceleration") else "N/m"  # GEN-7; per unit mass, or not
    ctx.emit("HINT-SAG", pointer,
             f"joint on node {j.node}: soft {what} of stiffness {stiffness:.6g} {unit} carries {mass:.6g} kg "
             f"against gravity: it sags m·g/k = {sag:.3g} m (over {SAG_LIMIT:g} m); a stiffness of at least "
             f"{needed:.4g} {unit} holds it within {SAG_LIMIT:g} m, no stiffness makes it hard")


def _carried_mass(ctx: _Context) -> dict[int, float]:
    """Per moving body: the mass of the chain of moving bodies it belongs to (joints between moving bodies),
    shared among that chain's joints to anchored sides."""
    links: dict[int, set[int]] = {}
    anchors: dict[int, int] = {}
    for j in ctx.scene.joints:
        a, b = ctx.dynamic(j.body_a), ctx.dynamic(j.body_b)
        if a and b:
            links.setdefault(j.body_a, set()).add(j.body_b)  # type: ignore[arg-type]
            links.setdefault(j.body_b, set()).add(j.body_a)  # type: ignore[arg-type]
        elif a or b:
            node = j.body_a if a else j.body_b
            anchors[node] = anchors.get(node, 0) + 1  # type: ignore[index]
    out: dict[int, float] = {}
    for start in anchors:
        if start in out:
            continue
        chain, stack = {start}, [start]
        while stack:
            for n in links.get(stack.pop(), ()):
                if n not in chain:
                    chain.add(n)
                    stack.append(n)
        masses = [ctx.mass(n) for n in chain]
        if any(m is None for m in masses):
            continue
        total = sum(m.mass for m in masses)  # type: ignore[union-attr]
        share = total / sum(anchors.get(n, 0) for n in chain)
        out.update({n: share for n in chain})
    return out


# ---------------------------------------------------------------------------------- HINT-NO-COLLIDER


def _no_collider(ctx: _Context) -> None:
    for b in ctx.scene.bodies:
        if b.motion.type is MotionType.DYNAMIC and not ctx.by_body.get(b.node) and not is_legacy_body(
                ctx.gltf, b.node):  # BT-3 already reports the 'type' generations
            ctx.emit("HINT-NO-COLLIDER", b.pointer or f"/nodes/{b.node}",
                     f"dynamic body on node {b.node} has no collider on itself or below: nothing stops it, it "
                     "falls through everything; add a collider or make it kinematic")


# -------------------------------------------------------------------- HINT-START-OVERLAP / TRIGGER


def _static_colliders(ctx: _Context, exclude_body: int | None = None) -> broadphase.Sweep | None:
    """The static colliders ready for box queries; None when there are none (no box is computed then)."""
    index = [k for k, c in enumerate(ctx.scene.colliders)
             if ctx.static(c.body) and (exclude_body is None or c.body != exclude_body)]
    if not index:
        return None
    lo, hi = ctx.bounds(index)
    return broadphase.Sweep(index, lo, hi)


def _start_overlap(ctx: _Context) -> None:
    statics = _static_colliders(ctx)
    if statics is None:
        return
    tied = _tied_to_anchor(ctx)
    moving = [k for k, c in enumerate(ctx.scene.colliders) if ctx.dynamic(c.body) and c.body not in tied]
    if not moving:
        return
    lo, hi = ctx.bounds(moving)
    bounded = np.isfinite(lo).all(axis=1) & np.isfinite(hi).all(axis=1)
    rows, cols = statics.pairs(lo[bounded], hi[bounded], overlap.DEPTH)
    candidates: dict[int, list[int]] = {}
    for r, col in zip(np.flatnonzero(bounded)[rows].tolist(), cols.tolist(), strict=True):
        candidates.setdefault(r, []).append(col)
    for r in np.flatnonzero(~bounded).tolist():  # planes, unplaceable shapes: every static is a candidate
        candidates[r] = statics.near(None, overlap.DEPTH).tolist()
    found = 0
    for r in sorted(candidates):
        k = moving[r]
        c = ctx.scene.colliders[k]
        hit = _hit(ctx, ctx.placed("c", k), c.filter, statics, candidates[r])
        if hit is None:
            continue
        found += 1
        other = ctx.scene.colliders[hit]
        more = f" (the first {MAX_OVERLAPS} are reported; later colliders are not checked)" \
            if found == MAX_OVERLAPS else ""
        ctx.emit("HINT-START-OVERLAP", c.pointer or f"/nodes/{c.node}",
                 f"collider on node {c.node} (body {c.body}) starts inside the static collider on node "
                 f"{other.node}: the solver pushes it out at the first step; move it clear{more}")
        if found == MAX_OVERLAPS:
            return


def _tied_to_anchor(ctx: _Context) -> set[int]:
    """Bodies jointed to an anchored side without enableCollision: their overlap with it is excluded
    (JOINT-9), which some files use on purpose (a ball in its slot)."""
    out: set[int] = set()
    for j in ctx.scene.joints:
        if j.enable_collision:
            continue
        for mine, other in ((j.body_a, j.body_b), (j.body_b, j.body_a)):
            if ctx.dynamic(mine) and ctx.static(other):
                out.add(mine)  # type: ignore[arg-type]
    return out


def _trigger_overlap(ctx: _Context) -> None:
    statics = _static_colliders(ctx)
    if statics is None:
        return
    volumes = {f.node for f in ctx.scene.gravity_fields}  # gravity volumes contain their planets on purpose
    volumes |= {n for t in ctx.scene.triggers if t.node in volumes for n in t.nodes or ()}
    for k, t in enumerate(ctx.scene.triggers):
        if t.shape is None or t.node in volumes:
            continue
        # A static body's own trigger around its own collider is a designed entry zone, not an accident.
        others = statics if t.body is None else _static_colliders(ctx, exclude_body=t.body)
        if others is None:
            continue
        shape = ctx.placed("t", k)
        hit = _first_overlap(ctx, lambda shape=shape: shape, t.filter, others,
                             overlap.bounds(shape) if shape is not None else None)
        if hit is not None:
            other = ctx.scene.colliders[hit]
            ctx.emit("HINT-TRIGGER-STATIC", t.pointer or f"/nodes/{t.node}",
                     f"trigger on node {t.node} overlaps the static collider on node {other.node} at t = 0")


def _first_overlap(ctx: _Context, shape_of: Callable[[], PlacedShape | None], filt: int | None,
                   statics: broadphase.Sweep, box: tuple[np.ndarray, np.ndarray] | None) -> int | None:
    """The first of ``statics`` that the shape overlaps. Bounding boxes first (``box``: the shape's, None =
    unbounded), in one NumPy pass, so a big scene costs one vectorised test per shape; the shape is placed
    and tested exactly only against the few near it."""
    near = np.sort(statics.near(box, overlap.DEPTH))  # in collider order: the first hit is the same always
    return _hit(ctx, shape_of() if len(near) else None, filt, statics, near.tolist())


def _hit(ctx: _Context, shape: PlacedShape | None, filt: int | None, statics: broadphase.Sweep,
         positions: list[int]) -> int | None:
    """The first static collider (at ``positions`` of ``statics``) the placed shape overlaps exactly."""
    if shape is None:
        return None
    for i in positions:
        k = statics.index[i]
        other = ctx.placed("c", k)
        if other is None or not _collide(ctx, filt, ctx.scene.colliders[k].filter):
            continue
        if overlap.overlap(shape, other):
            return k
    return None


def _collide(ctx: _Context, a: int | None, b: int | None) -> bool:
    """docs/semantics.md recommended filter rule (D-7): intersection, tested both ways."""
    filters = ctx.scene.filters

    def one_way(x: int | None, y: int | None) -> bool:
        if x is None or y is None or not (0 <= x < len(filters) and 0 <= y < len(filters)):
            return True
        fx, fy = filters[x], filters[y]
        systems = set(fx.collision_systems)
        if fy.collide_with_systems and not systems & set(fy.collide_with_systems):
            return False
        return not systems & set(fy.not_collide_with_systems)
    return one_way(a, b) and one_way(b, a)


# ----------------------------------------------------------------------------------- HINT-NO-GROUND


def _no_ground(ctx: _Context) -> None:
    for v in ctx.scene.vehicles:
        wheels = [w for w in ctx.scene.wheels if w.vehicle == v.node]
        if not wheels:
            continue
        down = ctx.rotation(v.node) @ np.array([0.0, -1.0, 0.0])
        others = [k for k, c in enumerate(ctx.scene.colliders) if c.body != v.node]
        if not any(_ground_below(ctx, ctx.world[w.node][:3, 3], down, others) for w in wheels):
            ctx.emit("HINT-NO-GROUND", v.pointer or f"/nodes/{v.node}",
                     f"vehicle on node {v.node}: no collider lies below any of its {len(wheels)} wheel(s) "
                     f"(within {GROUND_REACH:g} m): it falls forever; add ground under it")


def _nothing_to_land_on(ctx: _Context) -> None:
    """Free dynamic bodies under gravity in a scene with no static or kinematic collider at all (one sample body,
    nothing else). Bodies held by a joint hang or swing; a vehicle has its own test above; gravity volumes pull
    anywhere (not judged here)."""
    if ctx.scene.gravity_fields or any(not ctx.dynamic(c.body) for c in ctx.scene.colliders):
        return
    jointed = {n for j in ctx.scene.joints for n in (j.body_a, j.body_b) if n is not None}
    vehicles = {v.node for v in ctx.scene.vehicles}
    falling = [b for b in ctx.scene.bodies if b.motion.type is MotionType.DYNAMIC and b.node not in jointed
               and b.node not in vehicles and ctx.by_body.get(b.node) and np.any(ctx.gravity(b.node) != 0.0)]
    for b in falling[:MAX_FALLING]:
        ctx.emit("HINT-NO-GROUND", b.pointer or f"/nodes/{b.node}",
                 f"dynamic body on node {b.node}: the scene has no static or kinematic collider to land on: it "
                 "falls forever; add ground under it")


def _ground_below(ctx: _Context, start: np.ndarray, down: np.ndarray, colliders: list[int]) -> bool:
    ray = overlap.segment(start, start + GROUND_REACH * down)
    if not colliders:
        return False
    lo, hi = ctx.bounds(colliders)
    near = broadphase.near(lo, hi, overlap.bounds(ray), -1e-9)
    return any((p := ctx.placed("c", colliders[int(i)])) is not None and overlap.overlap(ray, p, depth=0.0)
               for i in near)


# ---------------------------------------------------------------------------------- HINT-JOINT-SIDE


def _joint_side(ctx: _Context) -> None:
    for j in ctx.scene.joints:
        moving_a = j.body_a is not None and not ctx.static(j.body_a)
        moving_b = j.body_b is not None and not ctx.static(j.body_b)
        if not moving_a and moving_b and j.node >= 0 and joint_family(ctx.gltf, j.node) == "khr":
            ctx.emit("HINT-JOINT-SIDE", j.pointer or f"/nodes/{j.node}",
                     f"joint node {j.node} has no moving body above it, its connected side has one: the spec "
                     "author's Babylon loader cannot build it; put the joint on the moving side")


_STEPS: tuple[Callable[[_Context], None], ...] = (
    _sag, _no_collider, _start_overlap, _trigger_overlap, _no_ground, _nothing_to_land_on, _joint_side)
