"""Contacts like the source (formats/mjcf/read_contacts.py, sim/rapier/articulations.py): a box on an MJCF
planar root (slide x, slide z, hinge y, as the walkers' roots) stops where Coulomb friction says on both Rapier
joint paths, and the MJCF contact parameters glTF cannot hold are listed as losses with their values.
"""

from __future__ import annotations

import dataclasses

import pytest

from robot_data import need

mujoco = need("mujoco")

import gltf_physics as gp  # noqa: E402
from gltf_physics.formats.mjcf.read_model import read_model  # noqa: E402
from gltf_physics.model import CombineMode  # noqa: E402

MU, SPEED, G = 0.5, 2.0, 9.81
PLANAR = ('<joint name="x" type="slide" axis="1 0 0"/><joint name="z" type="slide" axis="0 0 1"/>'
          '<joint name="ry" type="hinge" axis="0 1 0"/>')


def _box(joints: str, mu: float) -> gp.PhysicsScene:
    """A 0.2 m, 1 kg box resting on a floor (both friction ``mu``), sliding at SPEED along x."""
    xml = f"""<mujoco><worldbody><geom name="floor" type="plane" size="5 5 .1" friction="{mu} 0 0"/>
      <body name="box" pos="0 0 0.1">{joints}<geom type="box" size=".1 .1 .1" mass="1" friction="{mu} 0 0"/>
      </body></worldbody></mujoco>"""
    scene = read_model(mujoco.MjModel.from_xml_string(xml), "box.xml")
    body = scene.bodies[0]
    moving = dataclasses.replace(body, motion=dataclasses.replace(body.motion, linear_velocity=(SPEED, 0.0, 0.0)))
    return dataclasses.replace(scene, bodies=[moving, *scene.bodies[1:]])


def _slide(scene: gp.PhysicsScene, articulations: bool, seconds: float = 1.5) -> float:
    world = gp.World(scene, rate=100, substeps=4, articulations=articulations)
    node = scene.bodies[0].node
    x0 = float(world.pose(node)[0][0])
    world.run(seconds)
    return float(world.pose(node)[0][0]) - x0


@pytest.mark.parametrize("articulations", [True, False], ids=["multibody", "impulse"])
def test_a_box_on_a_planar_joint_stops_where_coulomb_friction_says(articulations: bool) -> None:
    # d = v²/(2μg) = 0.4077 m; measured 0.4071 m on both paths. Before, the multibody path put the planar root
    # on a Rapier multibody link, which dropped the friction: 2.62 m in 1.5 s (frictionless: 3.0 m).
    want = SPEED * SPEED / (2 * MU * G)
    assert abs(_slide(_box(PLANAR, MU), articulations) - want) < 0.005
    assert abs(_slide(_box("<freejoint/>", MU), articulations) - want) < 0.005  # the same box, free
    assert abs(_slide(_box(PLANAR, 0.0), articulations) - SPEED * 1.5) < 0.005  # frictionless: it keeps going


def _notes(xml: str) -> list[tuple[str, str]]:
    scene = read_model(mujoco.MjModel.from_xml_string(xml), "contacts.xml")
    return sorted((n.pointer, n.message) for n in scene.notes if n.code == "MJCF-IN-10")


def test_contact_parameters_without_a_gltf_counterpart_are_listed_with_their_values() -> None:
    xml = """<mujoco><worldbody>
      <geom name="floor" type="plane" size="5 5 .1" friction="0.8 0.01 0.002"/>
      <body name="a" pos="0 0 1"><freejoint/>
        <geom name="soft" type="sphere" size=".1" solref="0.01 0.5" solimp="0.8 0.9 0.001 0.5 2"/>
        <geom name="torsion" type="sphere" size=".1" pos=".3 0 0" condim="4" friction="1 0.02 0.003"/>
        <geom name="roll" type="sphere" size=".1" pos=".6 0 0" condim="6" friction="1 0.02 0.003"/>
        <geom name="skin" type="sphere" size=".1" pos=".9 0 0" margin="0.01" gap="0.004"/>
        <geom name="slick" type="sphere" size=".1" pos="1.2 0 0" condim="1" friction="0.3"/>
      </body></worldbody></mujoco>"""
    k = 1 / (0.9 * 0.9 * 0.01 * 0.01 * 0.5 * 0.5)  # 1/(d²τ²ζ²) = 49382.7
    assert _notes(xml) == sorted([
        ("//geom[@name='soft']", f"contact softness solref (0.01 0.5) solimp (0.8 0.9 0.001 0.5 2) (stiffness "
         f"{k:.6g}, damping {2 / (0.9 * 0.01):.6g} per kg): glTF contacts are rigid"),
        ("//geom[@name='torsion']", "torsional friction 0.02 (condim 4): glTF friction is sliding only"),
        ("//geom[@name='roll']", "torsional friction 0.02 (condim 6): glTF friction is sliding only"),
        ("//geom[@name='roll']", "rolling friction 0.003 (condim 6): glTF friction is sliding only"),
        ("//geom[@name='skin']", "margin 0.01 (gap 0.004): contacts from 0.006 m apart; glTF has no contact "
         "distance"),
        ("//geom[@name='slick']", "condim 1: friction 0.3 kept for contacts with geoms of higher condim; "
         "MuJoCo's contacts between two condim-1 geoms are frictionless"),
    ])
    assert f"{k:.6g}" == "49382.7"
    scene = read_model(mujoco.MjModel.from_xml_string(xml), "contacts.xml")
    frictions = sorted({(m.static_friction, m.dynamic_friction, m.friction_combine) for m in scene.materials})
    assert frictions == [(0.3, 0.3, CombineMode.MAXIMUM), (0.8, 0.8, CombineMode.MAXIMUM),
                         (1.0, 1.0, CombineMode.MAXIMUM)]


def test_default_contact_parameters_give_no_contact_losses() -> None:
    xml = """<mujoco><worldbody><geom type="plane" size="5 5 .1"/>
      <body pos="0 0 1"><freejoint/><geom type="box" size=".1 .1 .1"/></body></worldbody></mujoco>"""
    assert _notes(xml) == []


def _collide(a: object, b: object) -> bool:
    """The recommended filter rule, both ways (D-7); no filter collides with everything."""
    def one(x: object, y: object) -> bool:
        return y is None or not y.collide_with_systems or bool(  # type: ignore[attr-defined]
            set(x.collision_systems if x is not None else ()) & set(y.collide_with_systems))  # type: ignore[attr-defined]
    return one(a, b) and one(b, a)


WELDED = """<mujoco><option>{flag}</option><worldbody>
  <body name="hip" pos="0 0 1"><freejoint/><geom name="hip_g" type="box" size=".1 .1 .1" mass="1"/>
    <body name="shoulder"><geom name="shoulder_g" type="sphere" size=".05" pos=".1 0 0" mass="0.001"/>
      <body name="mount"><geom name="mount_g" type="sphere" size=".05" pos=".08 0 -.05" mass="0.001"/></body>
    </body>
    <body name="thigh"><joint name="knee" type="hinge" axis="0 1 0"/>
      <geom name="thigh_g" type="capsule" fromto="0 0 0 .15 0 -.3" size=".06" mass="1"/></body>
  </body></worldbody></mujoco>"""


@pytest.mark.parametrize("filterparent", [True, False])
def test_bodies_welded_together_touch_as_mujoco_lets_them(filterparent: bool) -> None:
    # MuJoCo's filterparent works on weld groups: shoulder and mount are welded to the hip (no joint), so
    # neither touches the hip's hinged child, the thigh; with filterparent disabled both do. Bodies of one
    # weld group (hip, mount) never touch. glTF keeps only a joint's two sides apart (JOINT-9): the pairs
    # checked here are no joint's two sides, so the reader's collision filters must say it.
    xml = WELDED.format(flag="" if filterparent else '<flag filterparent="disable"/>')
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    pairs = {("shoulder", "thigh"), ("mount", "thigh"), ("hip", "mount")}  # each overlaps at the start
    touching = {tuple(sorted((model.geom(int(c.geom1)).name[:-2], model.geom(int(c.geom2)).name[:-2])))
                for c in data.contact[:data.ncon]} & pairs
    assert touching == (set() if filterparent else {("shoulder", "thigh"), ("mount", "thigh")})
    scene = read_model(model, "welded.xml")
    nodes = scene.document.json["nodes"]  # type: ignore[union-attr]
    by_geom = {nodes[c.node]["name"][:-2]: scene.filters[c.filter] if c.filter is not None else None
               for c in scene.colliders}
    assert {p for p in pairs if _collide(by_geom[p[0]], by_geom[p[1]])} == touching
