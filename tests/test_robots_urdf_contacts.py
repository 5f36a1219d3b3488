"""URDF robots touch themselves where MuJoCo's compile of the same URDF lets them (formats/urdf/read.py).

MuJoCo keeps apart the bodies of one weld group (links joined by fixed joints) and, with ``filterparent`` (its
default), a weld group and its parent's; every URDF geom it compiles has contype = conaffinity = 1. The URDF
reader merges a fixed link into its parent's body and keeps a joint's two sides apart (JOINT-9), so the body
pairs that may touch are the same: checked here, floating (a free root joint added in MuJoCo, ``floating_base``
here), on the 11 pybullet_data robots MuJoCo compiles that way. The MuJoCo side is computed from its compiled
``body_weldid`` and ``body_parentid``, not from the reader.

A link's ``<contact>`` (PyBullet's extension) is its colliders' physics material: friction and restitution
combined by multiply, as Bullet combines them; the rest of it is a URDF-12 loss.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from robot_data import need, pybullet_urdf, quiet_mujoco

mujoco = need("mujoco")
need("yourdfpy")
need("trimesh")

import gltf_physics as gp  # noqa: E402
from gltf_physics.model import CombineMode, PhysicsMaterial  # noqa: E402

FLOATING = ["kuka_iiwa/model_free_base.urdf", "r2d2.urdf", "quadruped/minitaur.urdf", "quadruped/quadruped.urdf",
            "quadruped/vision60.urdf", "quadruped/spirit40.urdf", "a1/a1.urdf", "aliengo/aliengo.urdf",
            "racecar/racecar.urdf", "pr2_gripper.urdf", "laikago/laikago_toes_zup.urdf"]


def _mujoco_pairs(source: str) -> set[tuple[str, str]]:
    """Body pairs (by name) MuJoCo lets collide: colliding geoms on both, neither one weld group nor a weld
    group and its parent's (filterparent)."""
    with quiet_mujoco():
        spec = mujoco.MjSpec.from_file(str(pybullet_urdf(source)))
        spec.worldbody.first_body().add_freejoint()
        m = spec.compile()
    assert m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_FILTERPARENT == 0
    solid = sorted({int(m.geom_bodyid[g]) for g in range(m.ngeom) if m.geom_contype[g] and m.geom_conaffinity[g]})
    assert all(m.geom_contype[g] == 1 and m.geom_conaffinity[g] == 1 for g in range(m.ngeom))
    weld, parent = m.body_weldid, m.body_parentid

    def apart(a: int, b: int) -> bool:
        wa, wb = int(weld[a]), int(weld[b])
        return wa == wb or wa == int(weld[parent[wb]]) or wb == int(weld[parent[wa]])

    return {tuple(sorted((m.body(a).name, m.body(b).name)))  # type: ignore[misc]
            for i, a in enumerate(solid) for b in solid[i + 1:] if not apart(a, b)}


def _gltf_pairs(source: str) -> set[tuple[str, str]]:
    """Body pairs (by node name) the converted glTF lets collide: bodies with colliders, not the two sides of
    a joint that keeps them apart (no collision filters are written)."""
    scene = gp.from_urdf(pybullet_urdf(source), floating_base=True)
    assert scene.filters == []
    names = [n.get("name") for n in scene.document.json["nodes"]]  # type: ignore[union-attr]
    owners = sorted({c.body for c in scene.colliders if c.body is not None})
    jointed = {frozenset((j.body_a, j.body_b)) for j in scene.joints if not j.enable_collision}
    return {tuple(sorted((names[a], names[b])))  # type: ignore[misc]
            for i, a in enumerate(owners) for b in owners[i + 1:] if frozenset((a, b)) not in jointed}


@pytest.mark.parametrize("source", FLOATING)
def test_the_body_pairs_that_may_touch_are_mujocos(source: str) -> None:
    ours, theirs = _gltf_pairs(source), _mujoco_pairs(source)
    assert len(theirs) > 0
    assert ours == theirs


CONTACT_URDF = """<robot name="r">
  <link name="base"><contact><lateral_friction value="0.9"/><restitution value="0.25"/>
    <spinning_friction value="0.1"/><stiffness value="3e4"/></contact>
    <inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="1 1 1"/></geometry></collision>
    <collision><geometry><sphere radius="0.5"/></geometry></collision></link>
  <link name="arm"><contact><restitution value="0.5"/></contact>
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="1 1 1"/></geometry></collision></link>
  <link name="tip">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="1 1 1"/></geometry></collision></link>
  <joint name="j1" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/></joint>
  <joint name="j2" type="continuous"><parent link="arm"/><child link="tip"/><axis xyz="0 0 1"/></joint>
</robot>"""


def test_a_links_contact_is_its_colliders_material(tmp_path: Path) -> None:
    path = tmp_path / "r.urdf"
    path.write_text(CONTACT_URDF)
    scene = gp.from_urdf(path, floating_base=True)
    names = [n.get("name") for n in scene.document.json["nodes"]]  # type: ignore[union-attr]
    by_body = {names[c.body]: [] for c in scene.colliders}  # type: ignore[index]
    for c in scene.colliders:
        by_body[names[c.body]].append(None if c.material is None else scene.materials[c.material])  # type: ignore[index]
    multiply = CombineMode.MULTIPLY
    assert by_body["base"] == [PhysicsMaterial(0.9, 0.9, 0.25, multiply, multiply)] * 2
    assert by_body["arm"] == [PhysicsMaterial(0.5, 0.5, 0.5, multiply, multiply)]  # PyBullet's default friction
    assert by_body["tip"] == [None]
    _, losses = gp.import_to_gltf(path, "khr", floating_base=True)
    assert [(x["code"], x["pointer"]) for x in losses if x["code"] == "URDF-12"] == [
        ("URDF-12", "/robot/link[@name='base']/contact")]
    assert "spinning_friction, stiffness" in next(x["message"] for x in losses if x["code"] == "URDF-12")


def test_the_laikagos_contact_friction_is_kept() -> None:
    scene = gp.from_urdf(pybullet_urdf("laikago/laikago_toes_zup.urdf"), floating_base=True)
    assert len(scene.colliders) == 17
    assert {scene.materials[c.material] for c in scene.colliders if c.material is not None} == {
        PhysicsMaterial(1.0, 1.0, 0.0, CombineMode.MULTIPLY, CombineMode.MULTIPLY)}
    assert all(c.material is not None for c in scene.colliders)
