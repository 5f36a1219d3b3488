"""Reading glTF Object Model pointers of a running World, and node TRS set by pointer (``World.get`` /
``World.set``, docs/behaviour.md).

What ``World.get`` reads:

- ``/nodes/N/translation``, ``/rotation``, ``/scale``: the node's local TRS now. A node carried by a body (the
  body's node or a descendant) reads where the body has taken it (its parent's matrix now, its own carried
  matrix); other nodes read their file value, or the last value set.
- ``/nodes/N/extensions/{KHR_physics_rigid_bodies|OMI_physics_body}/motion/linearVelocity`` and
  ``angularVelocity``: the body's velocities now, in node space as ``World.set`` takes them (D-9); ``mass`` the
  mass the engine uses (an infinite mass reads 0, as KHR writes it); ``gravityFactor`` the last value set, else the
  file's.
- every other pointer ``World.set`` takes (joint limits and drives, vehicles, wheels, thrusters, gravity volumes):
  the last value set, else the file's value at that pointer.

Setting ``/nodes/N/translation|rotation|scale`` on a body's node moves the body there at once (a teleport: its
velocities are kept); on another node the value is kept for reading back but moves nothing (the runtime moves
only bodies). Scale set on a body node is kept for reading back; the shapes keep their build scale.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from ..dialects.common import pointers
from ..geometry.frames import body_frame
from ..gltf.hierarchy import parents
from ..gltf.transforms import decompose, quat_to_matrix, trs_matrix
from .errors import SimulationError

# The World of sim/world.py, which imports this module: named, not imported (no import circle).
World = Any

_TRS = re.compile(r"^/nodes/(\d+)/(translation|rotation|scale)$")
_SIZES = {"translation": 3, "rotation": 4, "scale": 3}


def trs_target(pointer: str) -> tuple[int, str] | None:
    """``(node, "translation"|"rotation"|"scale")`` for a node TRS pointer, else None."""
    m = _TRS.match(pointer)
    return (int(m[1]), m[2]) if m else None


class ObjectModel:
    """Pointer reads of one World and its node TRS writes (module docstring)."""

    def __init__(self, world: World) -> None:
        self.world = world
        doc = world.scene.document.json if world.scene.document is not None else {}
        self.doc = doc
        nodes = doc.get("nodes")
        self.nodes: list[Any] = nodes if isinstance(nodes, list) else []
        self._parent_of: list[int | None] | None = None  # built on first use: a plain run never reads it
        self.values: dict[str, Any] = {}  # pointer → the last value World.set applied
        self._trs_of: dict[str, tuple[int, str]] = {}  # node TRS pointers parsed so far
        self._fast: dict[str, tuple[int, bool]] = {}  # root body TRS pointer → (pose row, is translation)
        self._cache: list[list[float]] | None = None  # every moving body's pose (bulk read) at _cache_step
        self._cache_step = -1
        self._reads = self._last_reads = 0  # root body pose reads this step and the step before
        self._rows: dict[int, int] | None = None  # built on the first TRS read (_root_rows)
        self._many: tuple[list[int] | range, Any] = ([], None)  # trs_many's last nodes and their rows (None: not all)
        self.trs: dict[int, dict[str, tuple[float, ...]]] = {}  # node → TRS components set on it

    def _root_rows(self) -> dict[int, int]:
        """Rapier root body node → its row in ``read_poses`` (MuJoCo keeps the slow path: its float32 bulk read
        would differ from its float64 ``pose``)."""
        if self._rows is None:
            engine = self.world.engine
            rows = {int(n): i for i, n in enumerate(engine.moving_nodes)} if self.world.engine_name == "rapier" else {}
            self._rows = {n: i for n, i in rows.items() if 0 <= n < len(self.nodes) and self.parent_of[n] is None}
        return self._rows

    @property
    def parent_of(self) -> list[int | None]:
        """Every node's parent (None: a root)."""
        if self._parent_of is None:
            self._parent_of = parents(self.doc) if self.nodes else []
        return self._parent_of

    # -- reading -------------------------------------------------------------------------------------
    def get(self, pointer: str) -> Any:
        """The value at ``pointer`` now (module docstring); SimulationError when the World cannot read it."""
        trs = self._trs_of.get(pointer) or trs_target(pointer)
        if trs is not None:
            return list(self.trs_value(*trs))
        try:
            target = pointers.resolve(pointer)
        except ValueError as e:
            raise SimulationError(str(e), pointer=pointer) from None
        if target.kind == "motion" and target.field in ("linear_velocity", "angular_velocity"):
            return self._velocity(target.index, target.field == "angular_velocity")
        if target.kind == "motion" and target.field == "mass" and target.index in self.world.engine.mass_of:
            mass = self.world.engine.mass_of[target.index].mass
            return 0.0 if math.isinf(mass) else float(mass)
        if pointer in self.values:
            return self.values[pointer]
        return self._file_value(pointer, target)

    def _velocity(self, node: int, angular: bool) -> list[float]:
        engine = self.world.engine
        if node not in engine.handle_of:
            raise SimulationError(f"node {node} is not a body", node=node)
        v = engine.velocities(node)[1 if angular else 0]
        _, q = engine.pose(node)
        return (quat_to_matrix(q).T @ np.asarray(v)).tolist()  # world → node space (D-9)

    def _file_value(self, pointer: str, target: pointers.Target) -> Any:
        value: Any = self.doc
        for part in pointer.split("/")[1:]:
            key = part.replace("~1", "/").replace("~0", "~")
            if isinstance(value, list) and key.isdigit() and int(key) < len(value):
                value = value[int(key)]
            elif isinstance(value, dict) and key in value:
                value = value[key]
            else:
                if target.kind == "motion" and target.field == "gravity_factor":
                    return 1.0  # KHR and OMI default
                raise SimulationError("the file has no value here and none was set", pointer=pointer)
        return value

    def value(self, pointer: str) -> Any:
        """:meth:`get` with vectors as tuples (a behaviour graph's values); node TRS through the fast path."""
        fast = self._fast.get(pointer)
        if fast is not None and self._cache_step == self.world.step_count and self._cache is not None:
            self._reads += 1
            pose = self._cache[fast[0]]
            return tuple(pose[4:]) if fast[1] else tuple(pose[:4])
        trs = self._trs_of.get(pointer)
        if trs is None:
            trs = trs_target(pointer)
            if trs is not None and len(self._trs_of) < 1_000_000:
                self._trs_of[pointer] = trs
        if trs is not None:
            row = self._root_rows().get(trs[0]) if trs[1] != "scale" else None
            if row is not None:
                self._fast[pointer] = (row, trs[1] == "translation")
            return self.trs_value(*trs)
        value = self.get(pointer)
        return tuple(float(v) for v in value) if isinstance(value, list) else value

    def trs_value(self, node: int, part: str) -> tuple[float, ...]:
        """The local TRS component ``part`` of ``node`` now. A root body node's translation and rotation come from
        one bulk read of every body per step when the step before read many of them (at least 1 in 8), else from
        the body alone (Rapier's poses are float32: both give the same numbers as ``pose``)."""
        rows = self._root_rows()
        row = rows.get(node) if part != "scale" else None
        if row is not None:
            step = self.world.step_count
            if self._cache_step != step:
                self._last_reads, self._reads = self._reads, 0
                self._cache, self._cache_step = None, step
            self._reads += 1
            if self._cache is None and self._last_reads * 8 < len(rows):
                t, q = self.world.engine.pose(node)
                return tuple(t.tolist()) if part == "translation" else tuple(q.tolist())
            if self._cache is None:
                self._cache = self.world.engine.read_poses().astype(np.float64).tolist()
            pose = self._cache[row]
            return tuple(pose[4:]) if part == "translation" else tuple(pose[:4])
        return self._local_trs(node, part)

    def trs_many(self, nodes: list[int] | range, part: str) -> np.ndarray | None:
        """(N, 3) translations or (N, 4) rotations (float64) of the root body nodes ``nodes`` (a list or a range)
        now, from one bulk pose read: the numbers :meth:`value` gives one by one (None: a node is not a root body,
        or ``part`` is neither: read them one by one)."""
        if part not in ("translation", "rotation"):
            return None
        if nodes != self._many[0]:  # a graph reads the same nodes tick after tick: their rows are found once
            rows_of = self._root_rows()
            found = [rows_of.get(n) for n in nodes]
            rows: Any = None
            if found and None not in found:
                rows = np.asarray(found, dtype=np.intp)
                if (np.diff(rows) == 1).all():  # consecutive rows: a slice, no gather
                    rows = slice(int(rows[0]), int(rows[-1]) + 1)
            self._many = (nodes, rows)
        rows = self._many[1]
        if rows is None:
            return None
        poses = self.world.engine.read_pose_rows(rows)  # rows exist for Rapier only (_root_rows): its row read
        columns = slice(4, 7) if part == "translation" else slice(0, 4)
        return poses[:, columns].astype(np.float64)

    def moved(self) -> None:
        """Bodies were moved between steps (a pose set): the next read reads them again."""
        self._cache = None

    def _local_trs(self, node: int, part: str) -> tuple[float, ...]:
        if not 0 <= node < len(self.nodes):
            raise SimulationError(f"node {node} does not exist", node=node)
        carried = self._carried(node)
        if carried is None or part == "scale":
            return self._stored(node, part)
        local = carried if self.parent_of[node] is None else (
            np.linalg.inv(self.world.engine.node_matrix(self.parent_of[node])) @ carried)  # type: ignore[arg-type]
        t, q, _ = decompose(local)
        return tuple(t) if part == "translation" else tuple(q)

    def _carried(self, node: int) -> np.ndarray | None:
        """The node's world matrix now when a body carries it (None otherwise)."""
        engine = self.world.engine
        if node in engine.handle_of:  # the body's own node: its pose is the node's rigid frame
            t, q = engine.pose(node)
            m = np.eye(4)
            m[:3, :3] = quat_to_matrix(q)
            m[:3, 3] = t
            return m
        from .frames import nearest_body

        if nearest_body(self.doc, engine.handle_of, node) is None:
            return None
        return body_frame(engine.node_matrix(node))

    def _stored(self, node: int, part: str) -> tuple[float, ...]:
        if part in self.trs.get(node, {}):
            return self.trs[node][part]
        n = self.nodes[node] if isinstance(self.nodes[node], dict) else {}
        if "matrix" in n:
            t, q, s = decompose(np.asarray(n["matrix"], dtype=float).reshape(4, 4).T)
            return tuple({"translation": t, "rotation": q, "scale": s}[part])
        default = {"translation": (0.0, 0.0, 0.0), "rotation": (0.0, 0.0, 0.0, 1.0), "scale": (1.0, 1.0, 1.0)}
        return tuple(float(v) for v in n.get(part, default[part]))

    # -- writing -------------------------------------------------------------------------------------
    def set_trs(self, node: int, part: str, value: Any) -> None:
        """Set one TRS component of ``node``: moves the body when ``node`` is a body's node."""
        if not 0 <= node < len(self.nodes):
            raise SimulationError(f"node {node} does not exist", node=node)
        v = tuple(float(x) for x in value)
        if len(v) != _SIZES[part] or not all(math.isfinite(x) for x in v):
            raise SimulationError(f"{part} needs {_SIZES[part]} finite numbers, got {value!r}", node=node)
        if part == "rotation":
            norm = math.sqrt(sum(x * x for x in v))
            if norm == 0:
                raise SimulationError("a rotation needs a non-zero quaternion", node=node)
            v = tuple(x / norm for x in v)
        engine = self.world.engine
        if node in engine.handle_of and part != "scale":
            t, q = self._local_trs(node, "translation"), self._local_trs(node, "rotation")
            t, q = (v, q) if part == "translation" else (t, v)
            parent = self.parent_of[node]
            world = trs_matrix(t, q)  # type: ignore[arg-type]
            if parent is not None:
                world = engine.node_matrix(parent) @ world  # the parent's scale places the child
            nt, nq, _ = decompose(world)
            engine.set_pose(node, nt, nq)
            self.moved()
        self.trs.setdefault(node, {})[part] = v
