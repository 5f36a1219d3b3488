"""Where a conversion puts each physics property of the glTF Object Model, for rewriting pointers to it.

A behaviour graph (or any other user of the Object Model) names a physics property by the pointer the
source family spells. :class:`PointerMoves` knows, after a writer ran, the target family's pointer for the
same property — the spelling from the two families' Object Model tables, the indices from what the writer
did:

- motion ``mass``, ``centerOfMass``, ``inertiaDiagonal``, ``inertiaOrientation``, ``linearVelocity``,
  ``angularVelocity``, ``gravityFactor``: ``/nodes/N/extensions/{KHR_physics_rigid_bodies|OMI_physics_body}/
  motion/…`` (the node keeps its index; a static OMI body has no KHR motion);
- KHR ``motion/isKinematic``: no OMI counterpart (OMI's motion type is a string, outside the Object Model);
- materials ``staticFriction``, ``dynamicFriction``, ``restitution``: ``/extensions/{KHR_physics_rigid_bodies|
  OMI_physics_body}/physicsMaterials/M/…`` (the writers keep the scene's order);
- joint settings ``limits/K/{min,max,stiffness,damping}``, ``drives/K/{maxForce,positionTarget,velocityTarget,
  stiffness,damping}``: ``/extensions/{KHR_physics_rigid_bodies|OMI_physics_joint}/physicsJoints/J/…`` with
  the writer's settings index J and the limit's index K after splitting (D-4) and per-axis locks;
- ``enableCollision``: ``/nodes/N/extensions/KHR_physics_rigid_bodies/joint/enableCollision`` ↔
  ``/nodes/N/extensions/OMI_physics_joint/enableCollision`` (the JSON's place; the OMI README's
  ``…/OMI_physics_joint/joint/enableCollision`` is read too), N the writer's joint node;
- the read-only ``physicsMaterials.length``, ``collisionFilters.length``, ``physicsJoints.length``.

A pointer that cannot follow — no counterpart, a limit written as several, joints sharing settings written
apart or settings merged, a value the swapped joint negates, a template index over an array the writer
renumbered — is kept and the reason returned. Pointers are passed as segments, a template parameter in an
index place as a :class:`Param` (its value is only known when the graph runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...model import JointDrive, JointLimit, MotionType, PhysicsScene
from ..registry import KHR_PHYSICS_RIGID_BODIES, OMI_PHYSICS_BODY, OMI_PHYSICS_JOINT
from .context import JointWritten
from .joint_settings import split_limits
from .portable_joints import per_axis_locks

KHR, OMI_BODY, OMI_JOINT = KHR_PHYSICS_RIGID_BODIES, OMI_PHYSICS_BODY, OMI_PHYSICS_JOINT
MOTION = frozenset({"mass", "centerOfMass", "inertiaDiagonal", "inertiaOrientation", "linearVelocity",
                    "angularVelocity", "gravityFactor"})
MATERIAL = frozenset({"staticFriction", "dynamicFriction", "restitution"})
SETTINGS = {"limits": frozenset({"min", "max", "stiffness", "damping"}),
            "drives": frozenset({"maxForce", "positionTarget", "velocityTarget", "stiffness", "damping"})}
NEGATED = {"limits": frozenset({"min", "max"}), "drives": frozenset({"positionTarget", "velocityTarget"})}
LENGTHS = {"physicsMaterials.length", "collisionFilters.length", "physicsJoints.length"}


@dataclass(frozen=True)
class Param:
    """A template parameter standing where an index goes; ``text`` is kept as written."""

    text: str


Segment = str | Param


@dataclass(frozen=True)
class Moved:
    """A pointer's fate: its new ``segments`` (None: kept as it was) and, when it could not follow exactly,
    why (``loss``)."""

    segments: tuple[Segment, ...] | None
    loss: str | None = None


class PointerMoves:
    """The pointer rewriting of one conversion: the scene that was written, the target ``family``
    (``"khr"``/``"omi"``) and the joints as the writer recorded them."""

    def __init__(self, scene: PhysicsScene, family: str, joints: Sequence[JointWritten]) -> None:
        self.scene, self.family, self.joints = scene, family, list(joints)
        self.body_ext = KHR if family == "khr" else OMI_BODY
        self.joint_ext = KHR if family == "khr" else OMI_JOINT

    def rewrite(self, segments: Sequence[Segment]) -> Moved | None:
        """The target's pointer for the physics property ``segments`` names; None when it names none of the
        body and joint extensions (the pointer is not this conversion's business)."""
        s = tuple(segments)
        if len(s) >= 4 and s[0] == "nodes" and s[2] == "extensions" and s[3] in (KHR, OMI_BODY, OMI_JOINT):
            return self._node(s[1], s[3], s[4:])
        if len(s) >= 2 and s[0] == "extensions" and s[1] in (KHR, OMI_BODY, OMI_JOINT):
            return self._document(s[1], s[2:])
        return None

    # -- node properties

    def _node(self, node: Segment, ext: str, rest: tuple[Segment, ...]) -> Moved:
        if ext in (KHR, OMI_BODY) and len(rest) == 2 and rest[0] == "motion" and rest[1] in MOTION:
            return self._motion(node, rest[1])
        if (ext == KHR and rest == ("joint", "enableCollision")) or (
                ext == OMI_JOINT and rest in (("enableCollision",), ("joint", "enableCollision"))):
            return self._enable_collision(node, ext)
        if ext == KHR and rest == ("motion", "isKinematic") and self.family == "omi":
            return Moved(None, "OMI has no isKinematic pointer (its motion type is a string, outside the "
                               "Object Model)")
        return self._other(ext, "nodes", node, "extensions", ext, *rest)

    def _motion(self, node: Segment, prop: str) -> Moved:
        out = ("nodes", node, "extensions", self.body_ext, "motion", prop)
        if self.family != "khr":
            return Moved(out)
        static = sorted(b.node for b in self.scene.bodies if b.motion.type is MotionType.STATIC)
        if isinstance(node, Param):
            if static:  # rewritten for the moving bodies; a static one has no KHR motion to name
                return Moved(out, f"static bodies {_nodes(static)} have no KHR motion: for them the pointer "
                                  "names nothing")
            return Moved(out)
        if _int(node) in static:
            return Moved(None, f"node {node} is a static body: KHR has no motion for it")
        return Moved(out)

    def _enable_collision(self, node: Segment, ext: str) -> Moved:
        tail = ("joint", "enableCollision") if self.family == "khr" else ("enableCollision",)
        ours = [w for w in self.joints if ext in w.source.pointer]
        if isinstance(node, Param):
            if all(w.node == w.source.node for w in ours):
                return Moved(("nodes", node, "extensions", self.joint_ext, *tail))
            moved = sorted(w.source.node for w in ours if w.node != w.source.node)
            return Moved(None, f"joints on nodes {_nodes(moved)} were written on other nodes; a template index "
                               "cannot follow")
        found = [w for w in ours if w.source.node == _int(node)]
        if not found:
            return Moved(None, f"no joint on node {node} was written")
        return Moved(("nodes", str(found[0].node), "extensions", self.joint_ext, *tail))

    # -- document properties

    def _document(self, ext: str, rest: tuple[Segment, ...]) -> Moved:
        if ext in (KHR, OMI_BODY) and len(rest) == 3 and rest[0] == "physicsMaterials" and rest[2] in MATERIAL:
            return self._material(ext, rest[1], rest[2])
        if ext in (KHR, OMI_JOINT) and len(rest) == 5 and rest[0] == "physicsJoints" and rest[2] in SETTINGS \
                and rest[4] in SETTINGS[str(rest[2])]:
            return self._settings(ext, rest[1], str(rest[2]), rest[3], str(rest[4]))
        if len(rest) == 1 and rest[0] in LENGTHS:
            return self._length(ext, str(rest[0]))
        return self._other(ext, "extensions", ext, *rest)

    def _material(self, ext: str, index: Segment, prop: str) -> Moved:
        base = f"/extensions/{ext}/physicsMaterials/"
        if isinstance(index, Param):
            same = all(m.pointer == f"{base}{i}" for i, m in enumerate(self.scene.materials))
            if not same:
                return Moved(None, "the materials were renumbered (the file's materials of both families "
                                   "became one list); a template index cannot follow")
            return Moved(("extensions", self.body_ext, "physicsMaterials", index, prop))
        at = [i for i, m in enumerate(self.scene.materials) if m.pointer == f"{base}{index}"]
        if not at:
            return Moved(None, f"no material {index} was read")
        return Moved(("extensions", self.body_ext, "physicsMaterials", str(at[0]), prop))

    def _length(self, ext: str, name: str) -> Moved:
        if name == "physicsJoints.length":
            if ext == OMI_BODY:
                return self._other(ext, "extensions", ext, name)
            written = {w.settings for w in self.joints}
            if not self._settings_identity(ext, "limits", "") or written != set(range(self._source_count(ext))):
                return Moved(None, "the joint settings were renumbered, merged, split or dropped: their count "
                                   "changed")
            return Moved(("extensions", self.joint_ext, name))
        if ext == OMI_JOINT:
            return self._other(ext, "extensions", ext, name)
        items = self.scene.materials if name.startswith("physicsMaterials") else self.scene.filters
        if not all(x.pointer.startswith(f"/extensions/{ext}/") for x in items):
            return Moved(None, "the file's arrays of both families became one: the count changed")
        return Moved(("extensions", self.body_ext, name))

    def _settings(self, ext: str, index: Segment, kind: str, item: Segment, prop: str) -> Moved:
        target = ("extensions", self.joint_ext, "physicsJoints")
        if isinstance(index, Param) or isinstance(item, Param):
            if not self._settings_identity(ext, kind, prop):
                return Moved(None, "the writer renumbered the joint settings (merged, split or swapped); a "
                                   "template index cannot follow")
            return Moved((*target, index, kind, item, prop))
        base = f"/extensions/{ext}/physicsJoints/{index}/{kind}/{item}"
        users = [w for w in self.joints if any(x.pointer == base for x in _items(w.source, kind))]
        if not users:
            return Moved(None, f"joint settings {index} {kind} {item} is used by no joint written")
        places: set[tuple[int, int]] = set()
        for w in users:
            at = [k for k, x in enumerate(self._final(w, kind)) if x.pointer == base]
            if len(at) != 1:
                how = "separate linear and angular limits" if not at else f"{len(at)} one-axis limits"
                return Moved(None, f"the limit was written as {how}; one pointer cannot set them all")
            places.add((w.settings, at[0]))
            if w.swapped and prop in NEGATED[kind] and _one_axis(_items(w.source, kind), base, kind):
                return Moved(None, f"the joint on node {w.source.node} was written from its other side: "
                                   f"'{prop}' changes sign there (a pointer cannot negate a value)")
        if len(places) > 1:
            return Moved(None, f"the joints sharing settings {index} were written to different settings")
        (settings, k), = places
        sharing = sorted({w.source.settings_index for w in self.joints if w.settings == settings} - {_int(index)},
                         key=str)
        if sharing:
            return Moved(None, f"settings {index} and {_nodes(sharing)} were written as one entry; setting it "
                               "would change them all")
        return Moved((*target, str(settings), kind, str(k), prop))

    def _settings_identity(self, ext: str, kind: str, prop: str) -> bool:
        """Every joint of ``ext`` written with its own settings index, limits and drives in place, nothing
        merged, and (for a value a swap negates) no joint swapped."""
        ours = [w for w in self.joints if _uses(w, ext)]
        for w in ours:
            if w.settings != w.source.settings_index:
                return False
            for k in ("limits", "drives"):
                if [x.pointer for x in self._final(w, k)] != [x.pointer for x in _items(w.source, k)]:
                    return False
            if w.swapped and prop in NEGATED.get(kind, ()):
                return False
        return len(ours) == len(self.joints)

    def _source_count(self, ext: str) -> int:
        """How many joint settings the source file's ``ext`` lists (-1: unknown)."""
        doc = self.scene.document.json if self.scene.document is not None else None
        exts = doc.get("extensions") if isinstance(doc, dict) else None
        obj = exts.get(ext) if isinstance(exts, dict) else None
        items = obj.get("physicsJoints") if isinstance(obj, dict) else None
        return len(items) if isinstance(items, list) else -1

    def _final(self, w: JointWritten, kind: str) -> tuple[Any, ...]:
        """The limits or drives of the settings JSON the writer wrote for ``w`` (the writers' own steps: KHR
        splits then locks per axis, OMI splits)."""
        if kind == "drives":
            return w.written.drives
        return per_axis_locks(w.written.limits) if self.family == "khr" else split_limits(w.written.limits)

    def _other(self, ext: str, *segments: Segment) -> Moved:
        """Any other pointer into a body or joint extension: kept; a loss when the conversion replaced it."""
        kept = ext == self.body_ext or ext == self.joint_ext
        return Moved(None, None if kept else f"{ext} is replaced by the {self.family.upper()} form, which has no "
                                              "counterpart for this pointer")


def _items(joint: Any, kind: str) -> tuple[JointLimit, ...] | tuple[JointDrive, ...]:
    return joint.limits if kind == "limits" else joint.drives


def _uses(w: JointWritten, ext: str) -> bool:
    return any(x.pointer.startswith(f"/extensions/{ext}/") for x in (*w.source.limits, *w.source.drives))


def _one_axis(items: Sequence[Any], base: str, kind: str) -> bool:
    """Whether the item at ``base`` is one a swap negates (a drive's targets; a one-axis limit's range)."""
    if kind == "drives":
        return True
    return any(x.pointer == base and len(x.linear_axes) + len(x.angular_axes) == 1 for x in items)


def _int(segment: Segment) -> int | None:
    return int(segment) if isinstance(segment, str) and segment.isdigit() else None


def _nodes(items: Sequence[Any]) -> str:
    return ", ".join(str(x) for x in items)
