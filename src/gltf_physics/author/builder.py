"""The builder: bodies, fitted colliders, materials and joints added to a plain glTF, written by the dialects.

Requests are collected first (:meth:`Builder.body`, :meth:`Builder.collider`, :meth:`Builder.material`,
:meth:`Builder.filter`, :meth:`Builder.joint`…) and
carried out by :meth:`Builder.build`, which edits a copy of the container (physics-only meshes, collider nodes,
collision-only meshes taken out of view), reads the physics the file already had from it, adds the new
bodies and colliders to that :class:`~gltf_physics.model.PhysicsScene` and writes it all with
:func:`~gltf_physics.dialects.conversion.write_converted` in the newest KHR or OMI form, the file's graph and
animation pointers to physics properties moved with them as ``convert`` moves them. Nothing else in the file
changes.

``auto`` picks, per mesh: the smallest fitted primitive when its volume is within ``PRIMITIVE_MARGIN`` of the
mesh hull's volume; else the hull when the mesh is nearly convex (its hull strays less than
``CONCAVE_GAP`` of the mesh's bounding-box diagonal from the drawn surface); else, on a moving body, a convex
decomposition, and on a static one the triangle mesh itself.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..geometry.hulls import Hull, convex_hull
from ..gltf.document import Document
from ..gltf.hierarchy import ancestors, descendants, parents
from ..gltf.meshes import mesh_triangles
from ..model import (
    Body,
    Box,
    Collider,
    CollisionFilter,
    Joint,
    JointLimit,
    MeshShape,
    Motion,
    MotionType,
    PhysicsMaterial,
    Pose,
)
from . import conventions as naming
from .decompose import Settings, decompose
from .edit import Editor
from .fit import Fit, fit
from .ground import add_ground_node, ground_box
from .measure import Fitness, measure, primitive_mesh
from .selectors import AuthorError, default_roots, select

PRIMITIVE_MARGIN = 0.10  # auto: a primitive at most 10 % larger than the mesh hull stands for the mesh
CONCAVE_GAP = 0.05  # auto: a hull straying more than 5 % of the diagonal from the surface marks a concave mesh
SHAPES = ("auto", "box", "sphere", "capsule", "cylinder", "hull", "decompose", "mesh")
BODY_KINDS = ("dynamic", "kinematic", "static")
JOINT_KINDS = ("fixed", "hinge", "ball", "slider")
_HALF = math.sqrt(0.5)
AXES = {"x": (0.0, 0.0, 0.0, 1.0), "y": (0.0, 0.0, _HALF, _HALF), "z": (0.0, -_HALF, 0.0, _HALF)}  # X onto it
PRIMITIVES = ("sphere", "box", "capsule", "cylinder")  # simplest first: ties go to the earlier


@dataclass(frozen=True)
class ColliderReport:
    """One mesh made a collider: where, what was asked and chosen, how many convex parts, how well it fits."""

    node: int
    name: str
    requested: str
    shape: str
    parts: int
    body: int | None
    collider_nodes: tuple[int, ...]
    fitness: Fitness
    rule: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The report entry as plain JSON."""
        f = self.fitness
        return {"node": self.node, "name": self.name, "requested": self.requested, "shape": self.shape,
                "parts": self.parts, "body": self.body, "colliderNodes": list(self.collider_nodes),
                "convention": self.rule, "volume": f.volume, "hullVolume": f.hull_volume,
                "volumeRatio": f.volume_ratio, "meshToCollider": f.mesh_to_collider,
                "colliderToMesh": f.collider_to_mesh}


@dataclass
class AddResult:
    """What :meth:`Builder.build` made: the document, its colliders' fit, its bodies and the writer's losses."""

    document: Document
    colliders: list[ColliderReport]
    bodies: list[tuple[int, str]]
    losses: list[dict[str, str]] = field(default_factory=list)
    decomposition: Settings | None = None
    ground: int | None = None  # the node of the static ground :meth:`Builder.ground` asked for

    def report(self) -> dict[str, Any]:
        """The fit report as JSON: margins, the decomposition settings, bodies and one entry per collider."""
        settings = dataclasses.asdict(self.decomposition) if self.decomposition is not None else None
        return {"margins": {"primitiveVolume": PRIMITIVE_MARGIN, "concaveGap": CONCAVE_GAP},
                "decomposition": settings,
                "bodies": [{"node": n, "type": k} for n, k in self.bodies], "ground": self.ground,
                "colliders": [c.as_json() for c in self.colliders], "losses": self.losses}


@dataclass
class _Made:
    """Colliders made from one mesh (shared by every node drawing that mesh with the same request)."""

    shape: str
    parts: list[tuple[Any, np.ndarray | None]]  # (model shape, pose in the mesh frame or None)
    volume: float | None
    fitness: Fitness


class Builder:
    """Physics added to a plain glTF.

    Example:
        >>> b = Builder(gp.load("Duck.gltf"))
        >>> b.body(kind="dynamic"); b.collider(shape="auto")
        >>> result = b.build(to="khr"); gp.save(result.document, "duck.physics.gltf")
    """

    def __init__(self, doc: Document, *, decomposition: Settings | None = None, conventions: naming.Which = "auto",
                 measure_fit: bool = True, progress: Callable[[str], None] | None = None) -> None:
        self.doc = doc
        self.progress = progress  # told before each step that can take long (a decomposition)
        self.settings = decomposition or Settings()
        self.which: naming.Which = conventions
        self.measure_fit = measure_fit
        self._bodies: list[tuple[str | None, str, float | None]] = []
        self._colliders: list[tuple[str | None, str]] = []
        self._joints: list[tuple[str, str, str, str]] = []
        self._material: PhysicsMaterial | None = None
        self._filter: CollisionFilter | None = None
        self._density: float | None = None
        self._ground = False

    # -- requests

    def body(self, selector: str | None = None, kind: str = "dynamic", mass: float | None = None) -> None:
        """Make the selected nodes bodies of ``kind`` (dynamic, kinematic, static); ``None``: every root node
        of the scene with a mesh below it. ``mass``: kg, else computed from the colliders by the runtime."""
        if kind not in BODY_KINDS:
            raise AuthorError(f"body kind must be one of {', '.join(BODY_KINDS)}, not {kind!r}")
        self._bodies.append((selector, kind, mass))

    def collider(self, selector: str | None = None, shape: str = "auto") -> None:
        """Give each selected node with a mesh a collider of ``shape`` made from that mesh (see :data:`SHAPES`);
        ``None``: every meshed node at or below a body."""
        if shape not in SHAPES:
            raise AuthorError(f"collider shape must be one of {', '.join(SHAPES)}, not {shape!r}")
        self._colliders.append((selector, shape))

    def material(self, static_friction: float = 0.6, dynamic_friction: float | None = None,
                 restitution: float = 0.0) -> None:
        """One physics material for every new collider."""
        dynamic = static_friction if dynamic_friction is None else dynamic_friction
        for name, v in (("friction", static_friction), ("friction", dynamic), ("restitution", restitution)):
            if not (math.isfinite(v) and v >= 0):
                raise AuthorError(f"{name} must be a finite number ≥ 0, not {v}")
        self._material = PhysicsMaterial(static_friction, dynamic, restitution)

    def filter(self, systems: tuple[str, ...], collide_with: tuple[str, ...] = (),
               not_collide_with: tuple[str, ...] = ()) -> None:
        """One collision filter for every new collider: it belongs to ``systems`` and collides only with
        ``collide_with`` or with all but ``not_collide_with`` (give one of the two, or neither)."""
        if collide_with and not_collide_with:
            raise AuthorError("a collision filter takes collide_with or not_collide_with, not both")
        self._filter = CollisionFilter(tuple(systems), tuple(collide_with), tuple(not_collide_with))

    def density(self, kg_m3: float) -> None:
        """Write each new body's mass as ``kg_m3`` times its colliders' volume (the runtime's own rule, made
        explicit), instead of leaving it to the runtime's default density of 1000 kg/m³."""
        if not (math.isfinite(kg_m3) and kg_m3 > 0):
            raise AuthorError(f"density must be a finite number > 0, not {kg_m3}")
        self._density = kg_m3

    def joint(self, a: str, b: str, kind: str, axis: str = "x") -> None:
        """A joint between the bodies of nodes ``a`` and ``b`` at ``b``'s origin: fixed, hinge (about ``b``'s
        ``axis``: x, y or z), ball, or slider (along ``b``'s ``axis``)."""
        if kind not in JOINT_KINDS:
            raise AuthorError(f"joint kind must be one of {', '.join(JOINT_KINDS)}, not {kind!r}")
        if axis not in AXES:
            raise AuthorError(f"joint axis must be x, y or z, not {axis!r}")
        self._joints.append((a, b, kind, axis))

    def ground(self) -> None:
        """Add a static ground under the model: a box collider on a new node, its top at the lowest drawn
        point, three times the footprint wide (:mod:`gltf_physics.author.ground`)."""
        self._ground = True

    # -- carrying them out

    def build(self, to: Literal["khr", "omi"] = "khr") -> AddResult:
        """Carry out the requests and write the physics in the newest ``to`` form."""
        from ..dialects import read_scene
        from ..dialects.conversion import write_converted

        run = _Run(self)
        run.plan()
        run.make_colliders()
        edited = run.editor.document()
        scene = read_scene(edited)
        run.fill(scene)
        out, losses = write_converted(scene, edited, to)  # graph and animation pointers follow, as in convert
        return AddResult(out, run.reports, sorted(run.body_kinds.items()), losses, self.settings,
                         run.ground[0] if run.ground is not None else None)


class _Run:
    """One build: the plan (which node is what), then the colliders, then the scene's new entries."""

    def __init__(self, builder: Builder) -> None:
        self.b = builder
        self.editor = Editor(builder.doc)
        self.gltf = self.editor.json
        self.body_kinds: dict[int, str] = {}
        self.masses: dict[int, float] = {}
        self.requests: dict[int, tuple[str, int | None, str | None]] = {}  # node → (shape, mesh, rule)
        self.reports: list[ColliderReport] = []
        self.colliders: list[Collider] = []
        self.volumes: dict[int | None, float] = {}
        self._made: dict[tuple[int, str, bool], _Made] = {}
        self._named_only = False
        self.ground: tuple[int, Box] | None = None  # (node, shape) of the static ground, when asked for

    def view(self) -> Document:
        return Document(json=self.gltf, buffers=self.editor.buffers)

    # -- the plan

    def plan(self) -> None:
        found = naming.read(self.gltf, self.b.which)
        taken = {c.target for c in found if c.target is not None} | {c.node for c in found}
        if self.b._ground:  # measured on the drawn meshes, before any collider node is added
            centre, box = ground_box(self.view())
            self.ground = (add_ground_node(self.gltf, centre), box)
        for selector, kind, mass in self.b._bodies:
            for n in self._nodes(selector):
                self.body_kinds[n] = kind
                if mass is not None:
                    self.masses[n] = mass
        for c in found:
            if c.body is not None:
                self.body_kinds[c.node] = c.body
        self._convention_colliders(found)
        colliders = self.b._colliders or [(None, "auto")]
        self._named_only = bool(found) and not (self.b._bodies or self.b._colliders)  # names say it all
        for selector, shape in colliders:
            for n in self._meshed(selector):
                if n not in taken or selector is not None:
                    self.requests[n] = (shape, self.gltf["nodes"][n]["mesh"], None)
        if not self.b._bodies and not found:
            self._default_bodies()

    def _default_bodies(self) -> None:
        """Without any ``--body``: each root node holding a new collider becomes a body, dynamic unless every
        one of its colliders is a triangle mesh (``mesh``, or ``auto`` on a flat mesh: a floor quad), which
        cannot move (SHAPE-9) and makes it static. Without selectors, that is every root with a mesh."""
        parent_of = parents(self.gltf)
        moving: dict[int, bool] = {}
        for n, (shape, mesh, _) in sorted(self.requests.items()):
            root = ([n, *ancestors(parent_of, n)])[-1]
            still = shape == "mesh" or (shape == "auto" and self._flat(mesh))
            moving[root] = moving.get(root, False) or not still
        for root, moves in sorted(moving.items()):
            self.body_kinds[root] = "dynamic" if moves else "static"

    def _flat(self, mesh: int) -> bool:
        """Whether the mesh has no volume (no hull): only its triangles can collide."""
        return convex_hull(mesh_triangles(self.view(), mesh)[0]) is None

    def _nodes(self, selector: str | None) -> list[int]:
        return default_roots(self.gltf) if selector is None else select(self.gltf, selector)

    def _meshed(self, selector: str | None) -> list[int]:
        nodes = self.gltf.get("nodes") or []
        if selector is None:  # the bodies' meshes; with no body, every root's (none when only names ask)
            roots = list(self.body_kinds) or ([] if self._named_only else default_roots(self.gltf))
            chosen = sorted({d for r in roots for d in (r, *descendants(self.gltf, r))})
        else:
            chosen = select(self.gltf, selector)
        return [n for n in chosen if "mesh" in nodes[n]]

    def _convention_colliders(self, found: list[naming.Convention]) -> None:
        moving = {n for n, k in self.body_kinds.items() if k != "static"}
        for c in found:
            mesh = self.gltf["nodes"][c.node]["mesh"]
            if c.collision_only:
                del self.gltf["nodes"][c.node]["mesh"]  # no longer drawn; the collider keeps the mesh
            if c.target is not None and self._owner(c.target) in moving and self._owner(c.node) != self._owner(
                    c.target):
                self.editor.reparent(c.node, c.target)  # so the collider moves with the drawn mesh's body
            self.requests[c.node] = (c.collider, mesh, c.rule)

    def _owner(self, node: int) -> int | None:
        """The body node a collider on ``node`` belongs to: the nearest body at or above it."""
        if node in self.body_kinds:
            return node
        return next((a for a in ancestors(parents(self.gltf), node) if a in self.body_kinds), None)

    # -- the colliders

    def make_colliders(self) -> None:
        for n in sorted(self.requests):
            shape, mesh, rule = self.requests[n]
            owner = self._owner(n)
            moving = owner is not None and self.body_kinds.get(owner) != "static"
            if shape == "mesh" and moving and rule is None:
                kind = self.body_kinds.get(owner) if owner is not None else None
                raise AuthorError(f"--collider mesh on node {n} ({self.editor.name(n)}), part of the {kind} body "
                                  f"on node {owner}: a triangle mesh cannot move (SHAPE-9); use hull or decompose, "
                                  "or make that body static")
            made = self._make(mesh, shape, moving)
            nodes = self._place(n, made)
            body = owner if owner is not None and self.body_kinds[owner] != "static" else None
            static_body = owner if owner is not None and body is None else None
            for node, (shape_obj, _) in zip(nodes, made.parts, strict=True):
                self.colliders.append(Collider(node=node, shape=shape_obj, body=body if body is not None else None))
            key = body if body is not None else static_body
            self.volumes[key] = self.volumes.get(key, 0.0) + (made.volume or 0.0)
            self.reports.append(ColliderReport(n, self.editor.name(n), shape, made.shape, len(made.parts), body,
                                               tuple(nodes), made.fitness, rule))

    def _make(self, mesh: int, shape: str, moving: bool) -> _Made:
        key = (mesh, shape, moving)
        if key not in self._made:
            self._made[key] = self._fit(mesh, shape, moving)
        return self._made[key]

    def _fit(self, mesh: int, shape: str, moving: bool) -> _Made:
        vertices, triangles = mesh_triangles(self.view(), mesh)
        hull = convex_hull(vertices)
        if hull is None:  # a flat mesh (a floor quad, a sign): only its triangles can collide
            if shape in ("auto", "mesh") and not moving and len(triangles):
                return _Made("trimesh", [(MeshShape(convex=False, mesh=mesh), None)], None,
                             Fitness(None, 0.0, None, 0.0, 0.0))
            raise AuthorError(f"mesh {mesh} ({self._mesh_name(mesh)}) is flat or empty: it has no volume for a "
                              f"{shape} collider" + ("" if moving else "; give it --collider mesh"))
        if shape == "auto":
            return self._auto(mesh, vertices, triangles, hull, moving)
        if shape in PRIMITIVES:
            return self._primitive(fit(shape, vertices), vertices, triangles, hull)
        if shape == "hull":
            return self._hull(mesh, vertices, triangles, hull)
        if shape == "decompose":
            return self._decompose(mesh, vertices, triangles, hull)
        fitness = measure(vertices, triangles, None, hull) if self.b.measure_fit else _unmeasured(hull)
        return _Made("trimesh", [(MeshShape(convex=False, mesh=mesh), None)], fitness.volume, fitness)

    def _auto(self, mesh: int, vertices: np.ndarray, triangles: np.ndarray, hull: Hull, moving: bool) -> _Made:
        best = _simplest(fit(k, vertices) for k in PRIMITIVES)
        if best.volume <= hull.volume * (1 + PRIMITIVE_MARGIN):
            return self._primitive(best, vertices, triangles, hull)
        as_hull = measure(vertices, triangles, [hull], hull)
        if as_hull.mesh_to_collider <= CONCAVE_GAP:
            return self._hull(mesh, vertices, triangles, hull, as_hull)
        if moving:
            return self._decompose(mesh, vertices, triangles, hull)
        fitness = measure(vertices, triangles, None, hull) if self.b.measure_fit else _unmeasured(hull)
        return _Made("trimesh", [(MeshShape(convex=False, mesh=mesh), None)], fitness.volume, fitness)

    def _primitive(self, f: Fit, vertices: np.ndarray, triangles: np.ndarray, hull: Hull) -> _Made:
        pose = None if (np.array_equal(f.rotation, np.eye(3)) and not f.centre.any()) else f.matrix()
        fitness = _unmeasured(hull, f.volume)
        if self.b.measure_fit:
            part = convex_hull(primitive_mesh(f.shape, f.matrix())[0])
            fitness = measure(vertices, triangles, [part] if part is not None else [], hull, volume=f.volume)
        return _Made(f.kind, [(f.shape, pose)], f.volume, fitness)

    def _hull(self, mesh: int, vertices: np.ndarray, triangles: np.ndarray, hull: Hull,
              fitness: Fitness | None = None) -> _Made:
        if self._collision_only(mesh):  # the mesh is already physics-only: use it as it is
            shape = MeshShape(convex=True, mesh=mesh)
        else:
            shape = MeshShape(convex=True, mesh=self.editor.add_mesh(hull.points, hull.triangles,
                                                                     f"{self._mesh_name(mesh)} hull"))
        if fitness is None:
            fitness = measure(vertices, triangles, [hull], hull) if self.b.measure_fit else _unmeasured(hull)
        return _Made("convex", [(shape, None)], hull.volume, fitness)

    def _decompose(self, mesh: int, vertices: np.ndarray, triangles: np.ndarray, hull: Hull) -> _Made:
        if self.b.progress is not None:
            s = self.b.settings
            self.b.progress(f"decomposing mesh {mesh} ({self._mesh_name(mesh)}, {len(triangles)} triangles) with "
                            f"CoACD: threshold {s.threshold}, seed {s.seed}, {s.mcts_iterations} MCTS iterations")
        hulls = [h for h in (convex_hull(v) for v, _ in decompose(vertices, triangles, self.b.settings))
                 if h is not None]
        if not hulls:
            return self._hull(mesh, vertices, triangles, hull)
        name = self._mesh_name(mesh)
        parts = [(MeshShape(convex=True, mesh=self.editor.add_mesh(h.points, h.triangles, f"{name} part {k}")),
                  None) for k, h in enumerate(hulls)]
        fitness = measure(vertices, triangles, hulls, hull) if self.b.measure_fit \
            else _unmeasured(hull, sum(h.volume for h in hulls))
        return _Made("compound", parts, float(sum(h.volume for h in hulls)), fitness)

    def _collision_only(self, mesh: int) -> bool:
        return not any(node.get("mesh") == mesh for node in self.gltf.get("nodes", []) if isinstance(node, dict))

    def _mesh_name(self, mesh: int) -> str:
        name = self.gltf["meshes"][mesh].get("name")
        return name if isinstance(name, str) and name else f"mesh{mesh}"

    def _place(self, n: int, made: _Made) -> list[int]:
        """The node of each part: ``n`` itself for a single part in the mesh's frame, else child nodes."""
        if len(made.parts) == 1 and made.parts[0][1] is None:
            return [n]
        name = self.editor.name(n)
        if len(made.parts) == 1:
            return [self.editor.add_child(n, f"{name} {made.shape}", made.parts[0][1])]
        return [self.editor.add_child(n, f"{name} part {k}", pose) for k, (_, pose) in enumerate(made.parts)]

    # -- the scene

    def fill(self, scene: Any) -> None:
        """Add the bodies, colliders, material and joints to ``scene`` (read from the edited document)."""
        kept = {b.node: b for b in scene.bodies}
        for n, kind in self.body_kinds.items():
            mass = self.masses.get(n)
            if mass is None and self.b._density is not None:
                mass = self.b._density * self.volumes.get(n, 0.0) or None
            kept[n] = Body(node=n, motion=Motion(type=MotionType(kind), mass=mass))
        scene.bodies = [kept[n] for n in sorted(kept)]
        material = None
        if self.b._material is not None:
            scene.materials.append(self.b._material)
            material = len(scene.materials) - 1
        collision_filter = None
        if self.b._filter is not None:
            scene.filters.append(self.b._filter)
            collision_filter = len(scene.filters) - 1
        for c in self.colliders:
            scene.colliders.append(Collider(node=c.node, shape=c.shape, body=c.body, material=material,
                                            filter=collision_filter))
        if self.ground is not None:  # a collider without a body: static (KRB motion absent)
            scene.colliders.append(Collider(node=self.ground[0], shape=self.ground[1], material=material,
                                            filter=collision_filter))
        scene.colliders.sort(key=lambda c: c.node)  # document order, as the readers give it
        held = {c.body for c in scene.colliders}
        empty = [n for n, kind in sorted(self.body_kinds.items()) if kind != "static" and n not in held]
        if empty:  # it would fall through everything (the validator's HINT-NO-COLLIDER)
            names = ", ".join(f"{self.editor.name(n)!r} (node {n})" for n in empty[:5])
            raise AuthorError(f"no mesh at or below {names} to make a collider from: a moving body needs one "
                              "(select the node that holds the mesh, or its parent)")
        for a, b, kind, axis in self.b._joints:
            scene.joints.append(self._joint(a, b, kind, axis))

    def _joint(self, a: str, b: str, kind: str, axis: str) -> Joint:
        from ..gltf.transforms import quat_multiply, relative_pose, world_matrices

        node_a, node_b = (self._one(s) for s in (a, b))
        body_a, body_b = self._owner(node_a), self._owner(node_b)
        if body_b is None:
            raise AuthorError(f"joint {a},{b}: {b!r} is not a body and is not under one")
        world = world_matrices(self.gltf)
        # The joint frame's X (the hinge's and slider's free axis) turned onto the node's chosen axis.
        t_a, q_a = relative_pose(None if body_a is None else world[body_a], world[node_b])
        t_b, q_b = relative_pose(world[body_b], world[node_b])
        frame_a = Pose(t_a, quat_multiply(q_a, AXES[axis]))
        frame_b = Pose(t_b, quat_multiply(q_b, AXES[axis]))
        return Joint(body_a=body_a, frame_a=frame_a, body_b=body_b, frame_b=frame_b, limits=_limits(kind))

    def _one(self, selector: str) -> int:
        nodes = select(self.gltf, selector)
        if len(nodes) != 1:
            raise AuthorError(f"joint end {selector!r} names {len(nodes)} nodes; it must name one")
        return nodes[0]


def _limits(kind: str) -> tuple[JointLimit, ...]:
    """Locked axes (min = max = 0) of each joint kind; the free ones are X (hinge: rotation, slider: travel)."""
    linear = {"fixed": (0, 1, 2), "hinge": (0, 1, 2), "ball": (0, 1, 2), "slider": (1, 2)}[kind]
    angular = {"fixed": (0, 1, 2), "hinge": (1, 2), "ball": (), "slider": (0, 1, 2)}[kind]
    limits = [JointLimit(linear_axes=linear, min=0.0, max=0.0)]
    if angular:
        limits.append(JointLimit(angular_axes=angular, min=0.0, max=0.0))
    return tuple(limits)


def _simplest(fits: Any) -> Fit:
    """The smallest fit; the earlier of :data:`PRIMITIVES` (simpler for an engine) wins within 0.1 %: a zero-length
    capsule is a sphere, and a sphere is cheaper to collide."""
    chosen: Fit | None = None
    for f in fits:
        if chosen is None or f.volume < chosen.volume * (1 - 1e-3):
            chosen = f
    assert chosen is not None
    return chosen


def _unmeasured(hull: Hull, volume: float | None = None) -> Fitness:
    ratio = volume / hull.volume if volume is not None and hull.volume > 0 else None
    return Fitness(volume, hull.volume, ratio, math.nan, math.nan)


__all__ = ["CONCAVE_GAP", "PRIMITIVE_MARGIN", "SHAPES", "AddResult", "Builder", "ColliderReport", "Settings"]
