"""The physics scene: everything the dialect readers understood, in one engine-agnostic hub."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .bodies import Body, Collider, CollisionFilter, PhysicsMaterial, Trigger

if TYPE_CHECKING:
    import numpy as np

    from ..gltf.document import Document
    from .gravity import GravityField, Seat, WorldGravity  # annotations only: made on first use (model/__init__)
    from .joints import Joint
    from .vehicles import HoverThruster, Thruster, Vehicle, Wheel


@dataclass(frozen=True)
class ReadNote:
    """Something a reader accepted leniently (e.g. a ``-1`` index read as absent, GEN-3 / D-1).

    ``code`` is the rule id (docs/rules.md); the validator turns notes into messages.
    """

    code: str
    pointer: str
    message: str


@dataclass
class PhysicsScene:
    """The engine-agnostic physics of one glTF, whatever its extensions' generation (docs/architecture.md).

    Bodies, colliders, triggers, joints, materials, filters, vehicles, wheels, thrusters, gravity fields and
    seats, with glTF node indices. Lists are in document order (node order, then declaration order on a node).

    ``generations`` maps each physics extension found to its generation id (README.md's table), e.g.
    ``{"OMI_physics_body": "gen4-materials", "OMI_physics_shape": "gen4-tapered"}``; empty when the file has no
    physics extension.

    Example:
        >>> scene = gp.read_scene(gp.load("examples/tumbling_boxes.gltf"))
        >>> [(b.node, b.motion.type.value) for b in scene.bodies][:2]
        [(0, 'static'), (1, 'dynamic')]
    """

    generations: dict[str, str] = field(default_factory=dict)
    bodies: list[Body] = field(default_factory=list)
    colliders: list[Collider] = field(default_factory=list)
    triggers: list[Trigger] = field(default_factory=list)
    materials: list[PhysicsMaterial] = field(default_factory=list)
    filters: list[CollisionFilter] = field(default_factory=list)
    joints: list[Joint] = field(default_factory=list)
    vehicles: list[Vehicle] = field(default_factory=list)
    wheels: list[Wheel] = field(default_factory=list)
    thrusters: list[Thruster] = field(default_factory=list)
    hover_thrusters: list[HoverThruster] = field(default_factory=list)
    gravity_fields: list[GravityField] = field(default_factory=list)
    world_gravity: WorldGravity | None = None  # None: the file says nothing (runtime uses 9.81 down)
    seats: list[Seat] = field(default_factory=list)
    notes: list[ReadNote] = field(default_factory=list, compare=False)
    document: Document | None = field(default=None, compare=False, repr=False)

    def body(self, node: int) -> Body | None:
        """The body whose motion sits on ``node``, if any (the first one listed).

        An index built on first use (a linear scan per call made every per-joint and per-collider lookup
        quadratic on big documents); rebuilt when ``bodies`` grew, shrank or an entry was replaced.
        """
        cached = self.__dict__.get("_body_index")
        if cached is None or cached[0] != len(self.bodies):
            cached = self._index_bodies()
        k = cached[1].get(node)
        if k is not None and (k >= len(self.bodies) or self.bodies[k].node != node):
            k = self._index_bodies()[1].get(node)  # the list was edited in place
        return self.bodies[k] if k is not None else None

    def _index_bodies(self) -> tuple[int, dict[int, int]]:
        index: dict[int, int] = {}
        for k, b in enumerate(self.bodies):
            index.setdefault(b.node, k)
        self.__dict__["_body_index"] = (len(self.bodies), index)
        return self.__dict__["_body_index"]

    def node_world(self, computed: list[np.ndarray] | np.ndarray | None = None) -> list[np.ndarray]:
        """World 4×4 of every node of ``document`` as read: computed once and shared by the readers (joint
        frames), ``info``'s mass properties and whoever else asks, instead of once per consumer.

        ``computed``: the matrices when the caller (a reader) just computed them; they are kept (an (n, 4, 4)
        array too, as :meth:`node_world_stack`). The JSON must not have changed since the read; after editing
        it, compute :func:`~gltf_physics.gltf.transforms.world_matrices` afresh.
        """
        if computed is not None:
            self.__dict__["_node_world_stack"] = computed if not isinstance(computed, list) else None
            computed = list(computed)
            self.__dict__["_node_world"] = computed
            return computed
        cached = self.__dict__.get("_node_world")
        if cached is None:
            import numpy as np  # late: the model itself is plain data (``--help`` loads no NumPy)

            from ..gltf.transforms import world_matrices

            with np.errstate(all="ignore"):  # NaN transforms give NaN poses, reported by `validate`
                cached = world_matrices(self.document.json if self.document is not None else {})
            self.__dict__["_node_world"] = cached
        return cached

    def node_world_stack(self) -> np.ndarray | None:
        """The (n, 4, 4) array whose slices :meth:`node_world` lists, when the reader kept one (else ``None``):
        a consumer of many rows indexes it instead of stacking 50,000 slices again."""
        return self.__dict__.get("_node_world_stack")

    def node_parents(self, computed: list[int | None] | None = None) -> list[int | None]:
        """:func:`~gltf_physics.gltf.hierarchy.parents` of ``document`` as read: kept like :meth:`node_world`
        (``computed``: the reader's), so that a writer of the same, unchanged document need not walk it again."""
        if computed is not None:
            self.__dict__["_node_parents"] = computed
            return computed
        cached = self.__dict__.get("_node_parents")
        if cached is None:
            from ..gltf.hierarchy import parents

            cached = parents(self.document.json if self.document is not None else {})
            self.__dict__["_node_parents"] = cached
        return cached
