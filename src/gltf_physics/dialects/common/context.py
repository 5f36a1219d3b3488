"""What every dialect reader and writer shares: the read context and small JSON helpers.

A reader gets a :class:`ReadContext` holding the document, the scene being filled and cross-family
lookups (OMI shapes by index, hierarchy). Readers are lenient: they read what they can understand, record a
:class:`~gltf_physics.model.ReadNote` for what they accepted leniently, and leave judging to the validator.
They raise :class:`~gltf_physics.gltf.errors.GltfError` (with the JSON pointer) only where nothing sensible
can be read, e.g. a shape index that points nowhere.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ... import model
from ...gcpause import gc_paused
from ...gltf.document import Document
from ...gltf.errors import GltfError
from ...gltf.hierarchy import ancestors, nearest_marked, parents
from ...gltf.transforms import (
    affine_inverse,
    decompose,
    decompose_all,
    distinct_blocks,
    relative_rigid_all,
    trs_matrix,
    world_matrices,
    world_stacks,
)
from ...model import PhysicsScene, ReadNote, Shape

if TYPE_CHECKING:
    from ...model import Pose


@contextmanager
def reading() -> Iterator[None]:
    """What reading a whole document runs under: the GC paused (:func:`gc_paused`) and NumPy quiet about
    NaN/∞ in transforms (the validator reports those values; frames computed from them are just NaN)."""
    with gc_paused(), np.errstate(all="ignore"):
        yield


def array(obj: Any, key: str) -> list[Any]:
    """``obj[key]`` when it is an array, else ``[]`` (a wrong type is the validator's to report)."""
    value = obj.get(key) if isinstance(obj, dict) else None
    return value if isinstance(value, list) else []


class ExtIndex:
    """One scan of a document's extensions: which nodes carry which extension, and the node hierarchy.

    Every family's ``detect`` and ``read``, and every structural checker, asks "which nodes carry X";
    answering from one scan instead of one walk over all nodes per question keeps validating a 50,000-node
    document linear with a small constant. The JSON must not change while an index is in use.
    """

    __slots__ = ("_doc", "_gltf", "_objects", "_parent_of", "_raw", "used")

    def __init__(self, gltf: Any) -> None:
        gltf = gltf if isinstance(gltf, dict) else {}
        raw: dict[str, list[tuple[int, Any]]] = {}
        for i, node in enumerate(array(gltf, "nodes")):
            ext = node.get("extensions") if isinstance(node, dict) else None
            if not ext or not isinstance(ext, dict):
                continue
            for name, value in ext.items():
                found = raw.get(name)
                if found is None:
                    raw[name] = [(i, value)]
                else:
                    found.append((i, value))
        doc = gltf.get("extensions")
        self._gltf = gltf
        self._doc: dict[str, Any] = doc if isinstance(doc, dict) else {}
        self._raw = raw  # node order, whatever the value
        self._objects: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        self._parent_of: list[int | None] | None = None
        used = gltf.get("extensionsUsed")
        self.used: frozenset[str] = frozenset(u for u in used if isinstance(u, str)) if isinstance(
            used, list) else frozenset()

    def raw(self, name: str) -> list[tuple[int, Any]]:
        """(node index, ``extensions[name]``) of every node that has the key, whatever its value."""
        return self._raw.get(name, [])

    def nodes_with(self, name: str) -> list[tuple[int, dict[str, Any]]]:
        """(node index, extension object) of every node whose ``extensions[name]`` is an object."""
        found = self._objects.get(name)
        if found is None:
            found = self._objects[name] = [(i, v) for i, v in self.raw(name) if isinstance(v, dict)]
        return found

    def doc(self, name: str) -> dict[str, Any] | None:
        """The document-level ``extensions[name]`` when it is an object."""
        value = self._doc.get(name)
        return value if isinstance(value, dict) else None

    def present(self, name: str) -> bool:
        """An object for ``name`` at document level or on a node."""
        return self.doc(name) is not None or bool(self.nodes_with(name))

    def named(self, name: str) -> bool:
        """``name`` is a key of the document's or some node's extensions (any value)."""
        return name in self._doc or name in self._raw

    @property
    def parent_of(self) -> list[int | None]:
        if self._parent_of is None:
            self._parent_of = parents(self._gltf)
        return self._parent_of


_TOP_LEVEL_ARRAYS = ("nodes", "meshes", "skins", "extensionsUsed")

# A joint read but not built yet: its fields but the frames, then (body, node) of frame A and of frame B.
PendingJoint = tuple[dict[str, Any], tuple[int | None, int], tuple[int | None, int]]


@dataclass
class ReadContext:
    doc: Document
    scene: PhysicsScene
    parent_of: list[int | None] = field(default_factory=list)
    omi_shapes: list[Shape | None] = field(default_factory=list)  # OMI_physics_shape / OMI_collider by index
    _world: list[np.ndarray] | None = None
    _world_stack: np.ndarray | None = None
    _index: ExtIndex | None = None

    @classmethod
    def for_document(cls, doc: Document, index: ExtIndex | None = None) -> ReadContext:
        """``index``: the document's :class:`ExtIndex` when the caller already built one."""
        if not isinstance(doc.json, dict):
            raise GltfError("the glTF JSON must be an object", file=doc.name, pointer="")
        index = index or ExtIndex(doc.json)
        ctx = cls(doc=doc, scene=PhysicsScene(document=doc), parent_of=index.parent_of, _index=index)
        ctx.scene.node_parents(ctx.parent_of)  # kept for a writer of the same document
        ctx._note_top_level()
        return ctx

    def _note_top_level(self) -> None:
        """Top-level values of the wrong type are read as empty, with a note (the readers never index them)."""
        for key in _TOP_LEVEL_ARRAYS:
            if key in self.doc.json and not isinstance(self.doc.json[key], list):
                self.note("GLTF-TYPE", f"/{key}", f"'{key}' is not an array; read as empty")
        if "extensions" in self.doc.json and not isinstance(self.doc.json["extensions"], dict):
            self.note("GLTF-TYPE", "/extensions", "'extensions' is not an object; read as empty")

    @property
    def gltf(self) -> dict[str, Any]:
        return self.doc.json

    @property
    def nodes(self) -> list[Any]:
        return array(self.doc.json, "nodes")

    @property
    def index(self) -> ExtIndex:
        if self._index is None:
            self._index = ExtIndex(self.doc.json)
        return self._index

    def count(self, key: str) -> int:
        """Length of a top-level array (``meshes``, ``skins``…); 0 when absent or not an array."""
        return len(array(self.doc.json, key))

    def world(self, node: int) -> np.ndarray:
        """World matrix of one node, as a walk down its parent chain from the identity composes it (a cycle's
        top node is treated as a root, see :func:`~gltf_physics.gltf.transforms.world_matrices`)."""
        self.world_all()
        return self._world_stack[node]  # type: ignore[index]

    def world_all(self) -> list[np.ndarray]:
        """Every node's world matrix (:func:`~gltf_physics.gltf.transforms.world_matrices`), computed once for
        the whole document in one vectorised pass and kept on the scene for ``info``; :meth:`world` and the
        joint frames use the walked form of the same pass (memoised walks per node, one 4×4 product each,
        were most of reading a big document)."""
        if self._world is None:
            plain, self._world_stack = world_stacks(self.doc.json, self.parent_of, chained=True)
            self._world = self.scene.node_world(plain)
        return self._world

    def frames(self, pairs: list[tuple[int | None, int]]) -> list[Pose]:
        """The joint frames (docs/semantics.md) of many (body, node) pairs at once: ``node``'s pose in the body
        node's rigid frame (world when the body is ``None``). Every node involved is decomposed once and all the
        relative poses are one NumPy pass (bit-identical to :func:`~gltf_physics.gltf.transforms.relative_pose`
        per pair); per joint, that arithmetic in Python was most of reading a big document."""
        if not pairs:
            return []
        self.world_all()
        count = len(pairs)
        node = np.fromiter((n for _, n in pairs), dtype=np.int64, count=count)
        body = np.fromiter((n if b is None else b for b, n in pairs), dtype=np.int64, count=count)
        nodes, at = np.unique(np.concatenate([node, body]), return_inverse=True)  # each node decomposed once
        child, parent = at[:count], at[count:]
        t, q, _ = decompose_all(self._world_stack[nodes])  # type: ignore[index]
        rel_t, rel_q = relative_rigid_all(t[parent], q[parent], t[child], q[child])
        in_world = np.fromiter((b is None for b, _ in pairs), dtype=bool, count=count)[:, None]
        poses = np.concatenate([np.where(in_world, t[child], rel_t), np.where(in_world, q[child], rel_q)], axis=1)
        # one (immutable) Pose per distinct pose, by its bytes: a big scene's joints repeat a few frames, and
        # building a Pose cost more than the arithmetic
        first, which = distinct_blocks(poses)
        distinct = [model.Pose(tuple(p[:3]), tuple(p[3:])) for p in poses[first].tolist()]  # type: ignore[arg-type]
        return [distinct[k] for k in which.tolist()]

    def add_joints(self, pending: list[PendingJoint]) -> None:
        """Append joints read as (Joint fields but the frames, (body A, node A), (body B, node B)) to the scene,
        in order, their frames (:meth:`frames`) computed together."""
        frames = self.frames([pair for _, a, b in pending for pair in (a, b)])
        self.scene.joints.extend(model.Joint(frame_a=frames[2 * k], frame_b=frames[2 * k + 1], **fields)
                                 for k, (fields, _, _) in enumerate(pending))

    def generations(self, extensions: tuple[str, ...], detect: Callable[..., dict[str, str]]) -> dict[str, str]:
        """This family's generations: those ``read_scene`` already detected for the whole document, else
        ``detect(gltf, index)`` (a family reader called on its own)."""
        if self.scene.generations:
            return {k: v for k, v in self.scene.generations.items() if k in extensions}
        return detect(self.doc.json, self.index)

    def ancestors(self, node: int) -> list[int]:
        return list(ancestors(self.parent_of, node))

    def nearest_table(self, marked: set[int]) -> list[int | None]:
        """For every node: itself when marked, else its nearest marked ancestor, else None (one pass)."""
        return nearest_marked(self.parent_of, marked)

    def note(self, code: str, pointer: str, message: str) -> None:
        self.scene.notes.append(ReadNote(code, pointer, message))

    def error(self, pointer: str, message: str) -> GltfError:
        return GltfError(message, file=self.doc.name, pointer=pointer)


def node_ext(node: Any, name: str) -> dict[str, Any] | None:
    """``node.extensions[name]`` when it is an object."""
    if not isinstance(node, dict):
        return None
    ext = node.get("extensions")
    if not isinstance(ext, dict):
        return None
    value = ext.get(name)
    return value if isinstance(value, dict) else None


def doc_ext(gltf: dict[str, Any], name: str) -> dict[str, Any] | None:
    return node_ext(gltf, name)


def to_float(v: int | float) -> float:
    """A JSON number as a float; an integer too large for a double is ±∞ (its nearest double-range value),
    where ``float()`` would raise OverflowError."""
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def num(obj: dict[str, Any], key: str, default: float) -> float:
    """A finite-or-infinite number, the default when absent or not a number (the validator reports it)."""
    v = obj.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if v == "Infinity":  # the OMI joint seed schema spells +∞ as a string
            return math.inf
        return default
    return to_float(v)


def vec(obj: dict[str, Any], key: str, default: tuple[float, ...]) -> tuple[float, ...]:
    v = obj.get(key)
    if isinstance(v, list) and len(v) == len(default) and all(
        isinstance(c, (int, float)) and not isinstance(c, bool) for c in v
    ):
        return tuple(to_float(c) for c in v)
    return default


def index(obj: dict[str, Any], key: str, length: int, ctx: ReadContext, pointer: str) -> int | None:
    """An optional index: absent ⇒ None; -1 ⇒ None with a GEN-3 note (D-1); out of range ⇒ GltfError."""
    v = obj.get(key)
    if v is None:
        return None
    if type(v) is int and 0 <= v < length:  # the usual case first: one test (bool is not exactly int)
        return v
    if isinstance(v, bool) or not isinstance(v, int):
        raise ctx.error(f"{pointer}/{key}", f"'{key}' must be an integer index, got {v!r}")
    if v == -1:
        ctx.note("GEN-3", f"{pointer}/{key}", f"'{key}': -1 read as absent; omit the property instead")
        return None
    if not 0 <= v < length:
        where = f"is outside 0..{length - 1}" if length else "points into an empty or missing array"
        raise ctx.error(f"{pointer}/{key}", f"'{key}' index {v} {where}")
    return v


@dataclass(frozen=True)
class Loss:
    """Something a writer could not express exactly in the target form (the conversion loss report)."""

    code: str
    pointer: str
    message: str


@dataclass(frozen=True)
class JointWritten:
    """One joint as a writer wrote it, for rewriting the Object Model pointers that named it
    (:mod:`.pointer_map`): the joint as read, as written (limits split, sides swapped), the output's joint
    settings index and joint node, and whether the sides were swapped."""

    source: model.Joint
    written: model.Joint
    settings: int
    node: int
    swapped: bool


@dataclass
class WriteContext:
    """A writer's view of the output: the JSON being built (a copy stripped of physics extensions)."""

    gltf: dict[str, Any]
    scene: PhysicsScene
    family: str  # "omi" or "khr"
    losses: list[Loss] = field(default_factory=list)
    source: Document | None = None  # the document ``gltf`` was copied from, when known
    joints_written: list[JointWritten] | None = None  # filled when the caller asks (a graph's pointers need it)

    def _as_read(self) -> bool:
        """``gltf`` still has the nodes of the document the scene was read from: its copy, no node added (the
        stripped extensions move nothing), so what the reader computed of the hierarchy holds for it."""
        src, nodes = self.source, self.gltf.get("nodes")
        if src is None or self.scene.document is not src or not isinstance(src.json, dict):
            return False
        before = src.json.get("nodes")
        return isinstance(nodes, list) and isinstance(before, list) and len(nodes) == len(before)

    def world_matrices(self) -> list[np.ndarray]:
        """:func:`~gltf_physics.gltf.transforms.world_matrices` of ``gltf`` as it is now; the reader's (a new
        list, the writers append to it) when :meth:`_as_read` — one pass over the nodes per convert, not two."""
        if self._as_read():
            return list(self.scene.node_world())
        return world_matrices(self.gltf)

    def world_stack(self) -> np.ndarray | None:
        """:meth:`world_matrices` as the reader's (n, 4, 4) array when :meth:`_as_read` and it kept one, else
        ``None`` (the caller stacks the list). Read only: it is the scene's."""
        return self.scene.node_world_stack() if self._as_read() else None

    def parents(self) -> list[int | None]:
        """:func:`~gltf_physics.gltf.hierarchy.parents` of ``gltf`` as it is now (a new list, see
        :meth:`world_matrices`)."""
        if self._as_read():
            return list(self.scene.node_parents())
        return parents(self.gltf)

    def use(self, extension: str) -> None:
        used = self.gltf.setdefault("extensionsUsed", [])
        if not isinstance(used, list):  # malformed: read as empty (GLTF-TYPE note)
            used = self.gltf["extensionsUsed"] = []
        if extension not in used:
            used.append(extension)

    def set_node_ext(self, node: int, name: str, value: dict[str, Any]) -> None:
        self.set_node_exts(name, [(node, value)])

    def set_node_exts(self, name: str, values: list[tuple[int, dict[str, Any]]]) -> None:
        """:meth:`set_node_ext` of each (node, value) in order: a writer's whole pass at once (one call and one
        ``extensionsUsed`` test per document instead of per node)."""
        nodes = self.gltf.get("nodes")
        for node, value in values:
            holder = nodes[node] if isinstance(nodes, list) else None
            if not isinstance(holder, dict):
                holder = writable_node(self.gltf, node)
                nodes = self.gltf["nodes"]
            ext = holder.get("extensions")
            if not isinstance(ext, dict):  # malformed: the reader read it as none
                ext = holder["extensions"] = {}
            ext[name] = value
        if values:
            self.use(name)

    def set_doc_ext(self, name: str, value: dict[str, Any]) -> None:
        if not isinstance(self.gltf.get("extensions"), dict):
            self.gltf["extensions"] = {}
        self.gltf["extensions"][name] = value
        self.use(name)

    def add_node(self, node: dict[str, Any], parent: int | None) -> int:
        """Append a node (as a child of ``parent``, or unparented) and return its index."""
        nodes = writable(self.gltf, "nodes", list)
        nodes.append(node)
        i = len(nodes) - 1
        if parent is not None:
            writable(writable_node(self.gltf, parent), "children", list).append(i)
        return i

    def loss(self, code: str, pointer: str, message: str) -> None:
        self.losses.append(Loss(code, pointer, message))

    def wrote_joint(self, source: model.Joint, written: model.Joint, settings: int, node: int,
                    swapped: bool) -> None:
        """Record where a joint went, when the caller asked for it (``joints_written``)."""
        if self.joints_written is not None:
            self.joints_written.append(JointWritten(source, written, settings, node, swapped))


def writable(holder: dict[str, Any], key: str, kind: type) -> Any:
    """``holder[key]`` to write into: created when absent, replaced when malformed (not a ``kind``) — the
    readers read such a value as empty (with a note), and the output commits to that reading."""
    value = holder.get(key)
    if not isinstance(value, kind):
        value = holder[key] = kind()
    return value


def writable_node(gltf: dict[str, Any], i: int) -> dict[str, Any]:
    """Node ``i`` of the output to write into; a malformed entry (not an object) was read as an empty node,
    and becomes one."""
    nodes = writable(gltf, "nodes", list)
    if not isinstance(nodes[i], dict):
        nodes[i] = {}
    return nodes[i]


def frame_node(body_world: np.ndarray | None, frame: Pose) -> tuple[np.ndarray, np.ndarray]:
    """(local, world) matrices of a new node posed at ``frame`` in the body's rigid frame (its scale and shear
    left out, docs/semantics.md): local = world(B)⁻¹·rigid(B)·frame. ``None``: a world-space frame."""
    pose = trs_matrix(frame.translation, frame.rotation)
    if body_world is None:
        return pose, pose
    world = trs_matrix(*decompose(body_world)[:2]) @ pose
    return affine_inverse(body_world) @ world, world


def finite_or_omit(value: float) -> float | None:
    """Infinite limits/stiffness/maxForce are written by omission (the spec)."""
    return None if math.isinf(value) else value
