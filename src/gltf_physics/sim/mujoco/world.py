"""MujocoWorld: a PhysicsScene run in MuJoCo through its MJCF.

The scene is written by ``formats.mjcf.to_mjcf`` (the same file ``convert --to mjcf`` writes), compiled by
MuJoCo and stepped ``4·substeps`` times per World step (timestep 1/(4·rate·substeps), as Rapier's 4 internal
solver substeps; ``formats.mjcf`` lists the other options). It offers the engine interface ``World`` uses:
``moving_nodes``, ``step``, ``read_poses``, ``pose``, ``handle_of``, ``mass_of``, ``triggers``, ``set_motion``,
``joints`` (drive targets), ``snapshot``/``restore``, ``node_matrix`` (seat frames), ``set_controlled``.

Poses: MJCF is Z-up; poses are turned back into glTF's Y-up world before they are reported. Kinematic bodies
are mocap bodies: KHR ``isKinematic`` ones move at their initial velocities (centre of mass along the linear
velocity, rotating about it), animated ones follow the file animation (set to the pose at each MuJoCo step's
end, as on Rapier), OMI kinematic ones stay unless set.

Triggers: non-colliding geoms; after each step every (trigger geom, solid geom) pair the filters allow and
whose bounding spheres meet is tested with ``mj_geomDistance``; a negative distance is an overlap. Events
are stamped with the time of the poses they were found at, as on Rapier. Pairs on the same body (other than
the world) are not tested, as Rapier does not report a sensor touching its own body.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...geometry.frames import body_frame
from ...geometry.mass import MassProperties
from ...geometry.placement import MeshSource
from ...model import PhysicsScene
from ..animation import AnimationSchedule
from ..errors import SimulationError, finite_vec3, motion_number
from ..filters import class_table
from ..frames import carried_matrix, world_matrices
from ..queries import BodyQueries, ColliderTriggerLog
from ..triggers import TriggerTracker

try:
    import mujoco
except ImportError:  # the [mujoco] extra is not installed: World(engine="mujoco") says how to get it
    mujoco = None

INSTALL_HINT = "MuJoCo is not installed: pip install 'gltf-physics[mujoco]'"
_R = np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]])  # glTF (Y-up) → MJCF (Z-up)
_R_QUAT_INV = np.array([-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)])  # xyzw of _R.T


def require_mujoco() -> Any:
    """The ``mujoco`` module, or a SimulationError naming the pip command."""
    if mujoco is None:
        raise SimulationError(INSTALL_HINT)
    return mujoco


class MujocoWorld(BodyQueries):
    """The engine interface of ``World`` (``sim.engine.Engine``) over one compiled MJCF model and its data
    (module docstring). ``threads`` and ``articulations`` are Rapier's options: MuJoCo steps on one thread, and
    its joints are always in generalized coordinates."""

    def __init__(self, scene: PhysicsScene, *, rate: float = 60.0, substeps: int = 1,
                 gravity: tuple[float, float, float] | None = None, density: float = 1000.0,
                 mesh_source: MeshSource | None = None, threads: int | None = None,
                 articulations: bool = True) -> None:
        from ...formats.mjcf.write import STEPS_PER_RATE, to_mjcf

        mj = require_mujoco()
        if rate <= 0 or substeps < 1:
            raise SimulationError(f"rate must be > 0 and substeps ≥ 1 (got {rate}, {substeps})")
        self.scene = scene
        self.animation = AnimationSchedule.for_scene(scene)
        result = to_mjcf(scene, rate=rate, substeps=substeps, gravity=gravity, density=density,
                         mesh_source=mesh_source)
        self.xml, self.losses, self.index = result.xml, result.losses, result.index
        try:
            self.model = mj.MjModel.from_xml_string(self.xml)
        except ValueError as e:  # a bug in the writer, not bad input: say where
            raise SimulationError(f"MuJoCo rejected the generated MJCF: {e}") from None
        self.data = mj.MjData(self.model)
        key = mj.mj_name2id(self.model, mj.mjtObj.mjOBJ_KEY, "initial")
        if key >= 0:
            mj.mj_resetDataKeyframe(self.model, self.data, key)
        mj.mj_forward(self.model, self.data)
        self.per_step = STEPS_PER_RATE * int(substeps)
        self.rate = float(rate)
        self.h = float(self.model.opt.timestep)
        self.step_count = 0
        self.moving_nodes = list(self.index.moving_nodes)
        self.handle_of = {n: self._body_id(name) for n, name in self.index.body.items()}
        self._ids = np.array([self.handle_of[n] for n in self.moving_nodes], dtype=np.int64)
        self.mass_of: dict[int, MassProperties] = dict(self.index.mass)
        self._mocap = {n: int(self.model.body_mocapid[self._body_id(name)]) for n, name in self.index.mocap.items()}
        self._start = {n: (self.data.mocap_pos[i].copy(), self.data.mocap_quat[i].copy())
                       for n, i in self._mocap.items()}
        self.triggers = TriggerTracker()
        self.collider_triggers = ColliderTriggerLog()  # per collider, for behaviour graphs (sim/queries.py)
        self._geom_ids()
        self._pairs = self._trigger_pairs()
        self._inside: set[tuple[int, int]] = set()
        self.joints = _Drives(self)
        self._start_m: list[np.ndarray] | None = None  # every node's world matrix at t = 0 (node_matrix)
        self._velocities_at = -1  # the step at which cvel was last brought up to date (point_velocity)
        self._check_triggers(0.0)

    def _geom_ids(self) -> None:
        """Solid geom id → its collider's node, its motion node (−1: none) and its filter key."""
        mj, cols = mujoco, self.scene.colliders
        self.collider_node: dict[int, int] = {}
        self._motion_of: dict[int, int] = {}
        self.solid_filter: dict[int, int | None] = {}
        for name, k in self.index.collider_of.items():
            g = int(mj.mj_name2id(self.model, mj.mjtObj.mjOBJ_GEOM, name))
            self.collider_node[g] = cols[k].node
            self._motion_of[g] = cols[k].body if cols[k].body is not None else -1
            self.solid_filter[g] = cols[k].filter

    def _body_id(self, name: str) -> int:
        return int(mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, name))

    # -- stepping --------------------------------------------------------------------------------------
    @property
    def time(self) -> float:
        """Seconds simulated (whole World steps)."""
        return self.step_count / self.rate

    def step(self) -> None:
        """One step of 1/rate s: 4·substeps MuJoCo steps, mocap bodies moved before each."""
        for k in range(self.per_step):
            if self._mocap:
                self._move_mocap((self.step_count * self.per_step + k + 1) * self.h)
            mujoco.mj_step(self.model, self.data)
        mujoco.mj_kinematics(self.model, self.data)  # mj_step leaves xpos at the pre-integration state
        self.step_count += 1
        if not np.isfinite(self.data.qpos).all():
            raise SimulationError(f"the state became non-finite at t = {self.time:.6g} s")
        self._check_triggers(self.time)

    def _move_mocap(self, t: float) -> None:
        for node, i in self._mocap.items():
            if self.animation is not None and self.animation.animated_within(node):
                frame = body_frame(self.animation.world(node, t))
                pos, quat = _R @ frame[:3, 3], _to_mj_quat(_matrix_quat(frame[:3, :3]))
            elif node in self.index.kinematic_velocity:
                pos, quat = self._kinematic_pose(node, t)
            else:
                continue
            self.data.mocap_pos[i] = pos
            self.data.mocap_quat[i] = quat

    def _kinematic_pose(self, node: int, t: float) -> tuple[np.ndarray, np.ndarray]:
        """KHR isKinematic: centre of mass moves at v, the body turns at ω about it (world, glTF axes)."""
        v, w = self.index.kinematic_velocity[node]
        pos0, quat0 = self._start[node]
        rot0 = _wxyz_matrix(quat0)
        com_local = self.mass_of[node].center_of_mass if node in self.mass_of else (0.0, 0.0, 0.0)
        com0 = pos0 + rot0 @ np.asarray(com_local)
        angle = float(np.linalg.norm(w)) * t
        turn = _axis_angle(_R @ w, angle)
        rot = turn @ rot0
        pos = com0 + _R @ v * t - rot @ np.asarray(com_local)
        return pos, _to_wxyz(_matrix_quat(rot))

    # -- triggers --------------------------------------------------------------------------------------
    def _trigger_pairs(self) -> list[tuple[int, int, int, int]]:
        """(trigger geom id, solid geom id, trigger node, reported node) the filters allow."""
        idx = self.index
        keys = idx.filter_keys
        filters = [self.scene.filters[k] if k is not None and 0 <= k < len(self.scene.filters) else None
                   for k in keys]
        table = class_table(filters)
        cls = {k: i for i, k in enumerate(keys)}
        gid = {name: int(mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, name))
               for name, _, _ in (*idx.triggers, *idx.solids)}
        out = []
        for tname, tnode, tkey in idx.triggers:
            for sname, snode, skey in idx.solids:
                g1, g2 = gid[tname], gid[sname]
                b1, b2 = self.model.geom_bodyid[g1], self.model.geom_bodyid[g2]
                if (b1 == b2 and b1 != 0) or not table[cls[tkey]][cls[skey]]:
                    continue
                out.append((g1, g2, tnode, snode))
        return out

    def _check_triggers(self, time: float) -> None:
        if not self._pairs:
            return
        m, d = self.model, self.data
        now: set[tuple[int, int]] = set()
        pairs = np.array([(g1, g2) for g1, g2, _, _ in self._pairs])
        centres = d.geom_xpos[pairs[:, 0]] - d.geom_xpos[pairs[:, 1]]
        reach = m.geom_rbound[pairs[:, 0]] + m.geom_rbound[pairs[:, 1]]
        unbounded = (m.geom_rbound[pairs[:, 0]] == 0) | (m.geom_rbound[pairs[:, 1]] == 0)  # planes
        near = unbounded | (np.einsum("ij,ij->i", centres, centres) <= reach * reach)
        for k in np.flatnonzero(near):
            g1, g2, tnode, snode = self._pairs[k]
            if mujoco.mj_geomDistance(m, d, g1, g2, 1e-9, None) < 0:
                now.add((tnode, snode, g1, g2))  # type: ignore[arg-type]
        for item in sorted(now - self._inside):
            self.triggers.update(time, item[0], item[1], True)
            self._collider_event(time, item, True)
        for item in sorted(self._inside - now):
            self.triggers.update(time, item[0], item[1], False)
            self._collider_event(time, item, False)
        self._inside = now

    def _collider_event(self, time: float, item: tuple[int, ...], started: bool) -> None:
        g = item[3]
        self.collider_triggers.update(time, item[0], self.collider_node.get(g, item[1]), self._motion_of.get(g, -1),
                                      started)

    # -- poses -----------------------------------------------------------------------------------------
    def read_poses(self) -> np.ndarray:
        """(B, 7) float32 [qx, qy, qz, qw, tx, ty, tz] of the moving bodies (glTF world), ``moving_nodes`` order."""
        out = np.empty((len(self._ids), 7), dtype=np.float32)
        if len(self._ids):
            out[:, 4:] = self.data.xpos[self._ids] @ _R  # Rᵀ·p for each row
            out[:, :4] = _gltf_quats(self.data.xquat[self._ids])
        return out

    def pose(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """Current glTF-world translation (3,) and xyzw rotation (4,) of a body node."""
        i = self.handle_of[node]
        return _R.T @ self.data.xpos[i], _gltf_quats(self.data.xquat[i][None, :])[0]

    def node_matrix(self, node: int) -> np.ndarray:
        """Current glTF-world matrix (4×4) of any node: moved with its nearest body, else as in the file (the
        t = 0 matrices are built as the Rapier world builds them, so both engines start every node at the same
        bits)."""
        doc = self.scene.document.json if self.scene.document is not None else {}
        if self._start_m is None:
            self._start_m = world_matrices(doc) if self.animation is None else self.animation.world_all(0.0)
        return carried_matrix(doc, self._start_m, self.handle_of, self.pose, node)

    def point_velocity(self, node: int, point: Any) -> tuple[np.ndarray, np.ndarray]:
        """(glTF-world velocity of the glTF-world ``point`` carried by the body on ``node``, its angular
        velocity): MuJoCo's body velocity at its frame origin, carried to the point."""
        i = self.handle_of[node]
        if self._velocities_at != self.step_count:  # mj_step leaves cvel at the pre-integration state too
            mujoco.mj_comPos(self.model, self.data)
            mujoco.mj_comVel(self.model, self.data)
            self._velocities_at = self.step_count
        res = np.zeros(6)
        mujoco.mj_objectVelocity(self.model, self.data, mujoco.mjtObj.mjOBJ_XBODY, i, res, 0)
        w, v = res[:3], res[3:]
        v = v + np.cross(w, _R @ np.asarray(point, dtype=float) - self.data.xpos[i])
        return _R.T @ v, _R.T @ w

    # -- runtime changes -----------------------------------------------------------------------------------
    def set_controlled(self, kind: str, index: int, field: str, value: Any) -> None:
        """Vehicles, wheels, thrusters and gravity volumes are not written to MJCF: nothing to set."""
        what = {"hover": "hover thruster", "gravity": "gravity volume"}.get(kind, kind)
        raise SimulationError(f"{what} properties are not simulated on MuJoCo")

    def push(self, node: int, force: Any, point: Any) -> None:
        """Not offered: the MJCF has no per-step external force on a body here (a live grab needs it)."""
        raise SimulationError("the mujoco engine cannot push bodies", node=node)

    def set_motion(self, node: int, field: str, value: Any) -> None:
        """Velocities (node space, D-9) of a free body, or its gravityFactor, now."""
        if node not in self.handle_of:
            raise SimulationError(f"node {node} is not a body", node=node)
        body = self.handle_of[node]
        jnt = int(self.model.body_jntadr[body])
        free = jnt >= 0 and self.model.jnt_type[jnt] == mujoco.mjtJoint.mjJNT_FREE
        if field in ("linear_velocity", "angular_velocity") and free:
            v = np.asarray(finite_vec3(value, field, node))
            dof = int(self.model.jnt_dofadr[jnt])
            rot = _wxyz_matrix(self.data.xquat[body])  # body frame in MJCF world
            if field == "linear_velocity":
                self.data.qvel[dof:dof + 3] = rot @ v  # node space (D-9), at the body origin
            else:
                self.data.qvel[dof + 3:dof + 6] = v  # MuJoCo: free-joint angular velocity in the body frame
        elif field == "gravity_factor":
            factor = motion_number(value, field, node)
            if self.model.ngravcomp > 0:
                self.model.body_gravcomp[body] = 1.0 - factor
            else:  # compiled without gravcomp MuJoCo skips it: the same force as a constant applied one
                lift = -(1.0 - factor) * float(self.model.body_mass[body]) * self.model.opt.gravity
                self.data.xfrc_applied[body, :3] = lift
        else:
            raise SimulationError(f"motion field {field!r} is not settable on MuJoCo", node=node)
        mujoco.mj_forward(self.model, self.data)

    def _queries(self) -> Any:
        from . import queries  # imports mujoco: only once a MuJoCo world exists

        return queries

    def set_pose(self, node: int, translation: Any, rotation: Any) -> None:
        """Move a body node's body to a world pose (translation, xyzw rotation) now."""
        self._queries().set_pose(self, node, translation, rotation, _to_mj_quat)

    # -- snapshots -------------------------------------------------------------------------------------
    def snapshot(self) -> tuple[Any, ...]:
        """MuJoCo's full integration state (warm start included) and the trigger bookkeeping."""
        spec = mujoco.mjtState.mjSTATE_INTEGRATION
        state = np.empty(mujoco.mj_stateSize(self.model, spec))
        mujoco.mj_getState(self.model, self.data, state, spec)
        return state, self.step_count, (self.triggers.state(), self.collider_triggers.state()), set(self._inside)

    def restore(self, snap: tuple[Any, ...]) -> None:
        """Back to a :meth:`snapshot`: the run from there replays identically."""
        state, steps, trig, inside = snap
        mujoco.mj_setState(self.model, self.data, state, mujoco.mjtState.mjSTATE_INTEGRATION)
        mujoco.mj_forward(self.model, self.data)
        self.step_count = steps
        self.triggers.restore(trig[0])
        self.collider_triggers.restore(trig[1])
        self._inside = set(inside)


class _Drives:
    """Drive targets at run time: ``positionTarget``/``velocityTarget`` become the actuator's control."""

    def __init__(self, world: MujocoWorld) -> None:
        self.world = world
        self.values = {key: dict(zip(("position_target", "velocity_target"),
                                     (d.position_target, d.velocity_target), strict=True))
                       for key in world.index.drives
                       for d in [world.scene.joints[key[0]].drives[key[1]]]}

    def set(self, joint_index: int, field_path: tuple[Any, ...], value: Any) -> None:
        """A drive's ``position_target`` or ``velocity_target`` (other joint fields: ValueError)."""
        if field_path[0] != "drives" or str(field_path[2]) not in ("position_target", "velocity_target"):
            raise ValueError(f"{'/'.join(map(str, field_path))}: only drive targets can change on MuJoCo")
        key = (joint_index, int(field_path[1]))
        if key not in self.world.index.drives:
            raise KeyError(f"joint {joint_index} drive {field_path[1]} has no MuJoCo actuator")
        self.values[key][str(field_path[2])] = None if value is None else float(value)
        w = self.world
        act = int(mujoco.mj_name2id(w.model, mujoco.mjtObj.mjOBJ_ACTUATOR, w.index.drives[key]))
        kp, kv = float(w.model.actuator_gainprm[act, 0]), -float(w.model.actuator_biasprm[act, 2])
        pt, vt = self.values[key]["position_target"], self.values[key]["velocity_target"] or 0.0
        if float(w.model.actuator_biasprm[act, 1]) != 0.0:  # position: ctrl = target + kv·v/kp (exact)
            w.data.ctrl[act] = (pt or 0.0) + kv * vt / kp
        elif kv:  # velocity: ctrl = target velocity
            w.data.ctrl[act] = vt
        # an idle motor (no stiffness, no damping) has no term a target acts on


ENGINE = MujocoWorld  # what sim.engine.ENGINES names this module for


def _gltf_quats(wxyz: np.ndarray) -> np.ndarray:
    """MJCF-world wxyz rotations → glTF-world xyzw (left-multiplied by Rᵀ)."""
    q = np.concatenate([wxyz[:, 1:], wxyz[:, :1]], axis=1)
    return _quat_mul_rows(_R_QUAT_INV, q)


def _quat_mul_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ax, ay, az, aw = a
    bx, by, bz, bw = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    return np.stack([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz], axis=1)


def _matrix_quat(m: np.ndarray) -> np.ndarray:
    from ...gltf.transforms import matrix_to_quat

    return np.asarray(matrix_to_quat(m))


def _to_mj_quat(q_gltf_world: np.ndarray) -> np.ndarray:
    """A glTF-world xyzw rotation as an MJCF-world wxyz one (R·q)."""
    r = np.array([math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)])
    q = _quat_mul_rows(r, q_gltf_world[None, :])[0]
    return _to_wxyz(q)


def _to_wxyz(q: np.ndarray) -> np.ndarray:
    return np.array([q[3], q[0], q[1], q[2]])


def _wxyz_matrix(q: np.ndarray) -> np.ndarray:
    from ...gltf.transforms import quat_to_matrix

    return quat_to_matrix((q[1], q[2], q[3], q[0]))


def _axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    n = float(np.linalg.norm(axis))
    if n == 0 or angle == 0:
        return np.eye(3)
    x, y, z = axis / n
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)
