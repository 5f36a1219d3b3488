"""A compiled ``mujoco.MjModel`` → PhysicsScene + glTF document (the walk described in :mod:`.read`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...model import PhysicsScene, WorldGravity
from ..robot_scene import Z_UP_TO_Y_UP, RobotBuilder, ball_limits, fixed_limits, pose_matrix
from .read_contacts import contact_notes
from .read_geoms import GeomReader
from .read_joints import BodyJoint, body_joint, dof_drives, joint_gains

CONNECT, WELD = 0, 1


def read_model(model: Any, source: str, keyframe: int | None = None, qpos: np.ndarray | None = None) -> PhysicsScene:
    """The model and glTF document of a compiled MuJoCo model (``source``: the file name, for the asset).

    Bodies are placed at ``qpos`` (default: keyframe ``keyframe``'s, else ``qpos0``), where every glTF joint
    coordinate is 0; drive targets come from the keyframe's ``ctrl`` (else the first keyframe's, else 0).
    """
    return _Reader(model, source, keyframe, qpos).run()


class _Reader:
    def __init__(self, model: Any, source: str, keyframe: int | None, qpos: np.ndarray | None) -> None:
        import mujoco

        self.m = model
        self.names = body_names(model)
        self.b = RobotBuilder(source=source, generator="gltf-physics (from MuJoCo MJCF)", mesh_code="MJCF-IN-1",
                              reserved=set(self.names))
        data = mujoco.MjData(model)
        if qpos is not None:
            data.qpos[:] = qpos
        elif keyframe is not None:
            data.qpos[:] = model.key_qpos[keyframe]
        self.qref = data.qpos.copy()  # where every glTF joint coordinate is 0
        mujoco.mj_kinematics(model, data)  # body frames at the initial qpos
        self.world = [pose_matrix(data.xpos[i], xyzw(data.xquat[i])) for i in range(model.nbody)]
        self.node: dict[int, int] = {}  # MuJoCo body → its node
        self.owner: dict[int, int | None] = {0: None}  # MuJoCo body → the MuJoCo body whose motion carries it
        key = keyframe if keyframe is not None else (0 if model.nkey else None)
        ctrl = np.asarray(model.key_ctrl[key] if key is not None else np.zeros(model.nu), dtype=float)
        self.gains = joint_gains(model, ctrl, self.b.note)

    def run(self) -> PhysicsScene:
        geoms = GeomReader(self.m, self.b, self._filters())
        for i in range(self.m.nbody):
            self._body(i)
        for g in range(self.m.ngeom):
            body = int(self.m.geom_bodyid[g])
            owner = self.owner[body]
            geoms.geom(g, self.node[body], None if owner is None else self.node[owner])
        for i in range(1, self.m.nbody):
            if self.owner[i] == i:
                self._joint(i)
        self._equalities()
        contact_notes(self.m, [g for g in range(self.m.ngeom) if self.m.geom_contype[g] or
                               self.m.geom_conaffinity[g]], self.b.note)
        self._options()
        self._unsupported()
        return self.b.finish()

    # -- bodies ---------------------------------------------------------------------------------------
    def _body(self, i: int) -> None:
        m = self.m
        name = self.names[i]
        pointer = f"//body[@name='{name}']" if i else "/mujoco/worldbody"
        parent = int(m.body_parentid[i])
        moving = i != 0 and (int(m.body_weldid[i]) != 0 or int(m.body_mocapid[i]) >= 0)
        if not moving:
            self.owner[i] = None
            self.node[i] = self.b.add_node_matrix(name, self.b.root, self.world[i])
            return
        welded = int(m.body_jntnum[i]) == 0 and int(m.body_mocapid[i]) < 0
        carrier = self.owner.get(parent)
        if welded and carrier is not None and float(m.body_mass[i]) == 0.0:
            # A massless body welded to a moving one is part of it (as MuJoCo treats it); a body of mass 0
            # would read as infinite mass in glTF.
            self.owner[i] = carrier
            local = np.linalg.inv(self.world[parent]) @ self.world[i]
            self.node[i] = self.b.add_node_matrix(name, self.node[parent], local)
            return
        self.owner[i] = i
        self.node[i] = node = self.b.add_node_matrix(name, self.b.root, self.world[i])
        inertia, orientation = m.body_inertia[i], xyzw(m.body_iquat[i])
        if not all(v > 0 for v in inertia):  # a point mass: 0 would read as infinite in glTF (KRB-11)
            self.b.note("MJCF-IN-1", pointer, "a zero principal moment of inertia: the runtime computes the inertia "
                        "from the colliders, scaled to the mass")
            inertia, orientation = None, (0.0, 0.0, 0.0, 1.0)
        self.b.body(node, mass=float(m.body_mass[i]), com=m.body_ipos[i], inertia=inertia, orientation=orientation,
                    kinematic=int(m.body_mocapid[i]) >= 0, pointer=pointer)

    # -- joints ---------------------------------------------------------------------------------------
    def _joint(self, i: int) -> None:
        m = self.m
        if int(m.body_mocapid[i]) >= 0:
            return
        parent = self.owner[int(m.body_parentid[i])]
        name = self.names[i]
        if int(m.body_jntnum[i]) == 0:
            self._link(f"{name}_weld", parent, i, np.eye(4), fixed_limits(), (), f"//body[@name='{name}']")
            return
        bj = body_joint(m, i, self.qref)
        if bj is None:  # a free joint: the body moves on its own
            return
        joint_names = [m.joint(j).name for j in range(int(m.body_jntadr[i]), int(m.body_jntadr[i] + m.body_jntnum[i]))]
        label = "_".join(n for n in joint_names if n) or f"{name}_joint"
        pointer = f"//joint[@name='{joint_names[0]}']" if joint_names[0] else f"//body[@name='{name}']/joint"
        for text in bj.notes:
            self.b.note("MJCF-IN-2", pointer, text)
        self._dof_notes(bj, pointer)
        drives = dof_drives(m, bj.dofs, self.gains, self.qref, pointer)
        if bj.ball is not None and bj.ball in self.gains:
            self.b.note("MJCF-IN-4", pointer, "damping or actuator on a ball joint: glTF drives act on one axis")
        self._link(label, parent, i, bj.frame, bj.limits, drives, pointer)

    def _link(self, name: str, parent: int | None, child: int, frame_b: np.ndarray, limits: Any, drives: Any,
              pointer: str) -> None:
        """A glTF joint from body ``parent`` (None: the world) to ``child``, frame B given in the child."""
        world_frame = self.world[child] @ frame_b
        frame_a = world_frame if parent is None else np.linalg.inv(self.world[parent]) @ world_frame
        self.b.joint(name, None if parent is None else self.node[parent], self.node[child], frame_a, frame_b,
                     limits, drives, pointer=pointer)

    def _dof_notes(self, bj: BodyJoint, pointer: str) -> None:
        m = self.m
        for d in bj.dofs:
            dof = int(m.jnt_dofadr[d.joint])
            if m.dof_armature[dof] > 0:
                self.b.note("MJCF-IN-3", pointer, f"armature {m.dof_armature[dof]:g}: no glTF counterpart "
                            "(the joint's apparent inertia is lower)")
            if m.dof_frictionloss[dof] > 0:
                self.b.note("MJCF-IN-3", pointer, f"frictionloss {m.dof_frictionloss[dof]:g}: no glTF counterpart")

    def _equalities(self) -> None:
        m = self.m
        for e in range(m.neq):
            name = m.eq(e).name
            pointer = f"//equality/*[@name='{name}']" if name else f"/mujoco/equality[{e}]"
            kind = int(m.eq_type[e])
            a, b = int(m.eq_obj1id[e]), int(m.eq_obj2id[e])
            if kind not in (CONNECT, WELD) or int(m.eq_objtype[e]) != 1:  # 1 = mjOBJ_BODY
                self.b.note("MJCF-IN-5", pointer, "equality other than a connect or weld between bodies: no glTF "
                            "counterpart")
                continue
            if not m.eq_active0[e]:
                self.b.note("MJCF-IN-5", pointer, "an inactive equality: not written")
                continue
            # a connect's anchor is in body1's frame (a weld holds the start pose, so any common point serves)
            point = self.world[a] @ pose_matrix(m.eq_data[e][0:3], (0, 0, 0, 1))
            oa, ob = self.owner.get(a), self.owner.get(b)
            if ob is None:
                oa, ob = ob, oa
            if ob is None:
                continue  # both sides fixed: nothing to hold
            frame_b = np.linalg.inv(self.world[ob]) @ point
            limits = fixed_limits() if kind == WELD else ball_limits()
            if kind == WELD:
                self.b.note("MJCF-IN-5", pointer, "weld held at the bodies' relative pose at the start")
            self._link(name or f"equality{e}", oa, ob, frame_b, limits, (), pointer)

    # -- contacts -------------------------------------------------------------------------------------
    def _filters(self) -> dict[int, int | None]:
        """Geom → collision filter index: one system per class (contype, conaffinity, excluded body), each
        listing the classes MuJoCo lets it touch; nothing when every pair may collide."""
        m = self.m
        solid = [g for g in range(m.ngeom) if m.geom_contype[g] or m.geom_conaffinity[g]]
        if int(m.opt.disableflags) & int(mujoco_flag("mjDSBL_CONTACT")):
            if solid:
                self.b.note("MJCF-IN-10", "/mujoco/option/flag/@contact", "contacts disabled: every collider is "
                            "filtered to touch nothing")
                none = self.b.collision_filter(("mujoco0",), ("none",))
            return dict.fromkeys(solid, none) if solid else {}
        excluded = {(int(s) >> 16, int(s) & 0xFFFF) for s in m.exclude_signature[:m.nexclude]}
        excluded |= weld_family_pairs(m, {int(m.geom_bodyid[g]) for g in solid})
        in_exclude = {b for pair in excluded for b in pair}
        key_of = {g: (int(m.geom_contype[g]), int(m.geom_conaffinity[g]),
                      int(m.geom_bodyid[g]) if int(m.geom_bodyid[g]) in in_exclude else -1) for g in solid}
        keys = sorted(set(key_of.values()))
        table = [[_collide(a, b, excluded) for b in keys] for a in keys]
        if all(all(row) for row in table):
            return {}
        index = {}
        for i, k in enumerate(keys):
            others = tuple(f"mujoco{j}" for j, ok in enumerate(table[i]) if ok)
            index[k] = self.b.collision_filter((f"mujoco{i}",), others) if others else None
            if not others:  # a class that touches nothing: an empty collideWith would mean "everything"
                index[k] = self.b.collision_filter((f"mujoco{i}",), ("none",))
        return {g: index[key_of[g]] for g in solid}

    # -- the rest -------------------------------------------------------------------------------------
    def _options(self) -> None:
        m = self.m
        g = np.asarray(m.opt.gravity, dtype=float)
        if int(m.opt.disableflags) & int(mujoco_flag("mjDSBL_GRAVITY")):
            g = np.zeros(3)
        turned = pose_matrix((0, 0, 0), Z_UP_TO_Y_UP)[:3, :3] @ g
        magnitude = float(np.linalg.norm(g))
        if not np.allclose(turned, (0.0, -9.81, 0.0), rtol=0, atol=1e-12):
            direction = tuple(float(v) / magnitude for v in turned) if magnitude else (0.0, -1.0, 0.0)
            self.b.scene.world_gravity = WorldGravity(gravity=magnitude, direction=direction)  # type: ignore[arg-type]
        self.b.extras["mujoco"] = {"timestep": float(m.opt.timestep), "gravity": [float(v) for v in g]}
        self.b.note("MJCF-IN-9", "/mujoco/option", f"timestep {m.opt.timestep:g} s, integrator and contact "
                    "softness (solref/solimp): glTF has no simulation options (kept in asset.extras.mujoco; run "
                    f"with --rate {1 / m.opt.timestep:g})")

    def _unsupported(self) -> None:
        m = self.m
        for count, code, what, getter in ((m.ntendon, "MJCF-IN-6", "tendon", m.tendon),
                                          (m.nsite, "MJCF-IN-7", "site", m.site),
                                          (m.nsensor, "MJCF-IN-8", "sensor", m.sensor)):
            for k in range(count):
                name = getter(k).name
                pointer = f"//{what}[@name='{name}']" if name else f"/mujoco/{what}[{k}]"
                self.b.note(code, pointer, f"{what}: no glTF counterpart")
        if m.npair:
            self.b.note("MJCF-IN-10", "/mujoco/contact/pair", f"{m.npair} explicit contact pairs: their own "
                        "friction and softness are not kept (the geoms' filters decide)")
        for count, what in ((m.ncam, "camera"), (m.nlight, "light"), (m.nflex, "flex"), (m.nskin, "skin"),
                            (m.ntex, "texture")):
            if count:
                self.b.note("MJCF-IN-11", "/mujoco", f"{count} {what}{'s' if count > 1 else ''}: not converted")


def weld_family_pairs(m: Any, bodies: set[int]) -> set[tuple[int, int]]:
    """Pairs of ``bodies`` MuJoCo never lets touch and glTF would. MuJoCo filters on weld groups (bodies
    joined without a joint): two bodies of one group never touch, and with ``filterparent`` (the default)
    neither do a group and its parent's group (the world's group aside). In glTF such bodies are separate
    bodies on fixed joints and only a joint's two sides are kept apart (JOINT-9), so a body welded to a hip and
    the thigh hinged to that hip would collide. A direct parent and child are left out: their joint keeps them
    apart already."""
    family = not int(m.opt.disableflags) & mujoco_flag("mjDSBL_FILTERPARENT")
    weld, parent = m.body_weldid, m.body_parentid
    out = set()
    for a in sorted(bodies):
        for b in sorted(bodies):
            if b <= a or int(parent[b]) == a or int(parent[a]) == b:
                continue
            wa, wb = int(weld[a]), int(weld[b])
            if wa == 0 or wb == 0:
                continue  # the world's group: static bodies, which touch nothing static in either
            if wa == wb or (family and (wa == int(weld[parent[wb]]) or wb == int(weld[parent[wa]]))):
                out.add((a, b))
    return out


def mujoco_flag(name: str) -> int:
    """The value of a ``mjtDisableBit`` flag."""
    import mujoco

    return int(getattr(mujoco.mjtDisableBit, name))


def _collide(a: tuple[int, int, int], b: tuple[int, int, int], excluded: set[tuple[int, int]]) -> bool:
    """MuJoCo's contype/conaffinity rule and the <exclude> pairs, for two classes of geoms."""
    if not ((a[0] & b[1]) or (b[0] & a[1])):
        return False
    return not (a[2] >= 0 and b[2] >= 0 and ((a[2], b[2]) in excluded or (b[2], a[2]) in excluded))


def body_names(model: Any) -> list[str]:
    """Each body's name as the source gives it (``body<i>`` for an unnamed one)."""
    return [model.body(i).name or f"body{i}" for i in range(model.nbody)]


def xyzw(wxyz: np.ndarray) -> tuple[float, float, float, float]:
    """MuJoCo's (w, x, y, z) → xyzw."""
    return (float(wxyz[1]), float(wxyz[2]), float(wxyz[3]), float(wxyz[0]))


__all__ = ["read_model"]
