"""Model joints on Rapier (joint frames, KHR limit metrics, drives): the driver.

``build_joints(rw, scene)`` turns every ``scene.joints`` entry into Rapier joints between the two bodies and
returns a :class:`JointDriver`, whose ``before_step(dt)`` the world calls before every step. The parts, one
concern a file:

- ``multibody.py``: joint trees on Rapier's multibody links (native limits, soft limits and drives);
- ``rows.py``: every other joint's hard limits as rows of Rapier impulse joints;
- ``aimed.py``: hard limits on metrics Rapier has no row for, re-aimed before every step;
- ``springs.py``: soft limits and drives of impulse joints, applied as impulses before every step (one NumPy pass);
- ``edits.py``: run-time changes (``JointDriver.set``);
- ``common.py``: the per-joint records, pose math and the KHR limit metric they share.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import rapier3d as r

from ....model.joints import Joint, Pose
from ....model.scene import PhysicsScene
from .. import articulations, link_velocities
from .aimed import _aim, _AimedBatch
from .common import _Aimed, _Built, _data, _frame_world
from .driven_roots import DrivenRoots
from .edits import apply_edit
from .multibody import _articulate, _child_on_b, _plan_trees, _start_inside
from .rows import _add_aimed, _add_limit, _add_part, _side, _split
from .springs import _drive_spring, _live, _SpringBatch


class JointDriver:
    """Owns the Rapier joints of every model joint; call ``before_step(dt)`` before each step."""

    def __init__(self, rw: Any, articulate: bool = True) -> None:
        self.rw = rw
        self.articulate = articulate  # trees of native joints go on multibodies (articulations.py)
        self._roots: dict[int, Any] = {}  # joint index → the fixed or driven root made for it (reused on rebuild)
        self.driven = DrivenRoots()  # the roots of trees hanging from kinematic bodies
        self.allowed: set[int] | None = None  # joints of whole trees (_plan_trees); None: any eligible one
        self.flipped: set[int] = set()  # joints built from their other side (_plan_trees, _child_on_b)
        self.soft = articulations.SoftLimits()  # soft limits of multibody links
        self.built: dict[int, _Built] = {}  # model joint index → its Rapier rows and springs
        self.notes: list[str] = []
        self._needy: list[tuple[_Built, _Aimed]] | None = None  # linear aimed rows; None: re-plan (_plan_step)
        self._bulk: _AimedBatch | None = None  # every angular aimed row (vectorised)
        self._springs: _SpringBatch | None = None  # every live spring (vectorised)
        self.version = 0  # counts joint (re)builds: link_contacts re-reads the multibody links when it moves
        self.moving = False  # some dynamic body moved when the joints were built: new links take its motion
        self.outside: list[tuple[Any, ...]] = []  # links built outside a hard bound (multibody._start_inside)
        self.started: list[tuple[int, str]] = []  # (joint index, note) of the links moved to their bound

    def handles(self, joint_index: int) -> list[Any]:
        """The Rapier joint handles of model joint ``joint_index`` (empty when it was ignored)."""
        b = self.built.get(joint_index)
        return list(b.parts) if b else []

    def frames_world(self, joint_index: int) -> tuple[Pose, Pose]:
        """World poses of frame A and frame B of a model joint."""
        b = self.built[joint_index]
        return _frame_world(self.rw, b.a), _frame_world(self.rw, b.b)

    def before_step(self, dt: float) -> None:
        """Per-step work before an engine step of ``dt`` seconds: soft-limit motors, driven roots' forces, aimed
        rows and springs."""
        self.soft.before_step(self.rw)
        self.driven.before_step(self.rw, dt)
        if self._needy is None:  # joints whose rows are all Rapier's own need nothing per step
            self._plan_step()
        if self._bulk is not None:
            self._bulk.aim(self.rw)
        for b, a in self._needy or ():  # linear aimed rows (a distance with a minimum > 0): rare, one by one
            _aim(self.rw, b, a, _frame_world(self.rw, b.a), _frame_world(self.rw, b.b))
        if self._springs is not None:
            self._springs.step(self.rw, dt)

    def after_step(self) -> None:
        """After an engine step: driven roots back on their kinematic bodies' poses (``driven_roots.py``)."""
        self.driven.after_step(self.rw)

    def _plan_step(self) -> None:
        """Group the per-step work: every angular aimed row in one NumPy batch, every live spring in another."""
        joints = list(self.built.values())
        items = [(b, a) for b in joints for a in b.aimed if a.kind == "angular"]
        self._bulk = _AimedBatch(items) if items else None
        self._needy = [(b, a) for b in joints for a in b.aimed if a.kind != "angular"]
        springs = [(b, s) for b in joints for s in b.springs if _live(s)]
        self._springs = _SpringBatch(springs) if springs else None

    def _invalidate(self) -> None:
        """The joints or their springs changed: re-plan before the next step, the springs' rates kept."""
        if self._springs is not None:
            self._springs.store()
        self._springs = None
        self._needy = None

    def set(self, joint_index: int, field_path: tuple[Any, ...], value: Any) -> None:
        """Change a drive or limit value of a model joint at run time (names: ``edits.py``).

        Raises ``KeyError`` for a joint that is not simulated, ``ValueError`` for an unknown field.
        """
        apply_edit(self, joint_index, field_path, value)

    def state(self) -> Any:
        """What a snapshot must keep beside the engine's bytes: the aimed rows' per-step bookkeeping and the
        springs' last metrics (their rates)."""
        aimed = self._bulk.state() if self._bulk is not None else None
        return aimed, (self._springs.prev.copy() if self._springs is not None else None)

    def restored(self, state: Any = None) -> None:
        """The world was restored from a snapshot: soft-limit motors are re-set from the restored state, and the
        aimed rows' bookkeeping and the springs' rates are the snapshot's (``state``), so the run repeats bit for
        bit."""
        self.soft.invalidate()
        self.driven.restored(self.rw)
        aimed, springs = state if isinstance(state, tuple) and len(state) == 2 else (None, None)
        if self._bulk is not None:
            self._bulk.restore(aimed)
        if self._springs is not None:
            fits = springs is not None and len(springs) == len(self._springs.prev)
            self._springs.prev = springs.copy() if fits else np.full(len(self._springs.prev), np.nan)

    def velocity_set(self, body: Any, angular: bool) -> None:
        """A body's linear or ``angular`` velocity was set (``World.set``): when it is a multibody link, turn
        that into its joint's coordinate rates (least squares over the link's own degrees of freedom, the rest
        of the articulation unchanged), since Rapier derives link velocities from the coordinates."""
        b = next((x for x in self.built.values() if x.multibody is not None and x.b.handle == body), None)
        if b is not None:
            link_velocities.set_link_velocity(self.rw, b.multibody, body, angular)

    def _rebuild(self, joint_index: int, joint: Joint) -> None:
        """Build model joint ``joint_index`` anew as ``joint`` (a run-time limit or collision edit). A link of an
        articulation that no longer fits one takes the rest of its articulation to impulse joints with it, as a
        build would (``_plan_trees``: an impulse joint between links sees stale link state on its first step).
        Taking links out of a moving articulation would stop them (``link_velocities.py``): their motion is
        read before and given back after."""
        old = self._take_out(joint_index)
        motion: dict[Any, Any] = {}
        rest: list[int] = []
        if old.multibody is not None:
            motion = link_velocities.capture(self.rw, (old.a.handle, old.b.handle))
            rest = self._same_articulation(old.multibody, joint_index)
            self.rw.multibody_joints.remove(old.multibody, True)
        self._add(joint_index, joint, rebuilt=True)
        new = self.built.get(joint_index)
        if new is not None:
            _carry_rates(old, new)
        if old.multibody is not None and (new is None or new.multibody is None):
            for k in rest:
                moved = self._take_out(k)
                self.rw.multibody_joints.remove(moved.multibody, True)
                if self.allowed is not None:
                    self.allowed.discard(k)
                self._add(k, moved.joint, rebuilt=True)
        if link_velocities.moving(motion):
            link_velocities.restore(self.rw, motion)

    def _take_out(self, joint_index: int) -> _Built:
        """Forget a built joint and remove its impulse rows and soft limits (its multibody link stays)."""
        old = self.built.pop(joint_index)
        for h in old.parts:
            self.rw.impulse_joints.remove(h, True)
        if old.multibody is not None:
            self.soft.remove(old.multibody)
        return old

    def _same_articulation(self, handle: Any, but: int) -> list[int]:
        """The other joints whose links are in the articulation of multibody joint ``handle``."""
        mbs = self.rw.multibody_joints
        root = mbs.get(handle)[0].root_handle
        return [k for k, b in self.built.items()
                if k != but and b.multibody is not None and mbs.get(b.multibody)[0].root_handle == root]

    def _add(self, index: int, joint: Joint, rebuilt: bool = False) -> None:
        self._invalidate()
        self.version += 1
        if joint.body_a is None and joint.body_b is None:
            self.notes.append(f"joint {index}: neither side has a body; ignored")
            return
        a = _side(self.rw, joint.body_a, joint.frame_a, joint.node if joint.node >= 0 else None)
        b = _side(self.rw, joint.body_b, joint.frame_b, joint.connected_node)
        if a.handle == b.handle:
            self.notes.append(f"joint {index}: both sides are the same (or static) body; ignored")
            return
        built = _Built(joint, a, b)
        self.built[index] = built
        on_links = self.articulate and (self.allowed is None or index in self.allowed)
        if on_links and _articulate(self, index, built, rebuilt):
            return
        _add_part(self.rw, built)
        for drive in joint.drives:
            built.springs.append(_drive_spring(drive, self.notes, index))
        for lim in joint.limits:
            for kind, axes in _split(lim):
                _add_limit(self.rw, built, kind, axes, lim, self.notes, index)
        for kind, axes, lo, hi in built.pending_aimed:  # after the rest: they may share part 0
            _add_aimed(self.rw, built, kind, axes, lo, hi)
        locked = _data(self.rw, built.parts[0]).locked_axes
        built.pinned = locked.contains(r.JointAxesMask.LIN_AXES)
        built.rot_locked = locked.contains(r.JointAxesMask.ANG_AXES)


def _carry_rates(old: _Built, new: _Built) -> None:
    """A rebuilt joint's springs start from the rates its old springs had (each metric's previous value, matched
    by drive or limit and axes): a fresh spring has no rate on its first step, so its damping would skip a step
    (measured: a same-value limit edit on a driven impulse arm changed a link's velocity from 3.7 to 2.2 m/s)."""
    def key(s: Any) -> tuple[Any, ...]:
        return (s.drive is not None, s.kind, s.axes)

    left: dict[tuple[Any, ...], list[Any]] = {}
    for s in old.springs:
        left.setdefault(key(s), []).append(s)
    for s in new.springs:
        match = left.get(key(s))
        if match:
            s.prev = match.pop(0).prev


def build_joints(rw: Any, scene: PhysicsScene, articulate: bool = True) -> JointDriver:
    """Create the Rapier joints of every model joint of ``scene`` in ``rw`` (see the module docstring)."""
    driver = JointDriver(rw, articulate)
    driver.moving = link_velocities.moving(link_velocities.capture(rw, rw.bodies.handles()))
    joints = list(scene.joints)
    if articulate:
        trees = _plan_trees(rw, joints)
        joints = [trees.joints[i] if i in trees.allowed else _child_on_b(rw, j) for i, j in enumerate(joints)]
        driver.flipped = {i for i, (given, used) in enumerate(zip(scene.joints, joints, strict=True))
                          if given is not used}
        driver.allowed = trees.allowed
    for index, joint in enumerate(joints):
        driver._add(index, joint)
    driver.started = _start_inside(rw, driver.outside)
    driver.outside = []
    return driver
