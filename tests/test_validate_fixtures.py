"""Every official fixture validated, with its expected result hand-checked against the specifications:
(numErrors, numWarnings, set of codes). Known-wrong official examples and why:

- gen4 ``triggers.gltf``: motion without ``type`` (BODY-2 error) and a scaled floor collider (SHAPE-8).
- gen4 ``indirect_children``/``two_boxes``: the pre-0523b1b ``"trigger": {}`` (BODY-5, D-3).
- gen1 OMI_collider-era bodies whose collider ``isTrigger`` differs from the body type (BT-6).
- current OMI joint/vehicle examples with the old capsule ``radius`` (SHAPE-10, D-8); ``weld_joint`` limits
  with both axis kinds (JOINT-5, D-4); joints whose node sits under a static body (JOINT-2, pendulum_balls ×3,
  rope_railing's first pin, swing_and_slide).
- ``default_box``: ``{"type": "box"}`` without sub-object (SHAPE-3, D-2).
- KHR ``MotionProperties``: mass 0 and inertia zeros (KRB-11, D-5: accepted, schema says > 0).
- The seed-era joint schema defects are schema problems, not file problems: see test_validate_schemas.py.

Hints (validate/hints.py, not numbered rules): the OMI rope, pendulum and slider samples hang on soft
limits far too weak for their weight (HINT-SAG, e.g. pendulum_balls: 1 kg on 0.3 N/m, 32.7 m); the KHR
JointTypes position drive of stiffness 10 N/m holds its 1 kg body 0.98 m low (HINT-SAG); KHR joints whose
joint node has no body (HINT-JOINT-SIDE); the simple_car asset and the lone falling
boxes (dynamic_box, *_with_velocity) have no ground (HINT-NO-GROUND). Hints
are counted as hints, not in numWarnings.
"""

from __future__ import annotations

import pytest

from conftest import all_fixture_files, fixture_path
from gltf_physics.validation import validate_file

KPRB = "KHR_physics_rigid_bodies"

EXPECTED: dict[str, tuple[int, int, set[str]]] = {
    f"{KPRB}/gen1-collision-shapes/Filtering/Filtering.gltf": (0, 0, set()),
    f"{KPRB}/gen1-collision-shapes/JointTypes/JointTypes.gltf": (0, 0, {"HINT-JOINT-SIDE"}),
    f"{KPRB}/gen1-collision-shapes/Materials_Friction/Materials_Friction.gltf": (0, 0, set()),
    f"{KPRB}/gen1-collision-shapes/Materials_Restitution/Materials_Restitution.gltf": (0, 0, set()),
    f"{KPRB}/gen1-collision-shapes/ShapeTypes/ShapeTypes.gltf": (0, 0, set()),
    f"{KPRB}/gen1-collision-shapes/Triggers/Triggers.gltf": (0, 0, set()),
    f"{KPRB}/gen2-collision-shapes-mesh/JointTypes/JointTypes.gltf": (0, 0, {"HINT-SAG"}),
    f"{KPRB}/gen2-collision-shapes-mesh/ShapeTypes/ShapeTypes.gltf": (0, 0, set()),
    f"{KPRB}/gen2-collision-shapes-mesh/Triggers/Triggers.gltf": (0, 0, set()),
    f"{KPRB}/gen3-implicit-shapes/Filtering/Filtering.gltf": (0, 0, set()),
    f"{KPRB}/gen3-implicit-shapes/JointTypes/JointTypes.glb": (0, 0, {"HINT-JOINT-SIDE", "HINT-SAG"}),
    f"{KPRB}/gen3-implicit-shapes/JointTypes/JointTypes.gltf": (0, 0, {"HINT-JOINT-SIDE", "HINT-SAG"}),
    f"{KPRB}/gen3-implicit-shapes/Materials_Friction/Materials_Friction.gltf": (0, 0, set()),
    f"{KPRB}/gen3-implicit-shapes/Materials_Restitution/Materials_Restitution.gltf": (0, 0, set()),
    f"{KPRB}/gen3-implicit-shapes/MotionProperties/MotionProperties.gltf": (0, 3, {"KRB-11"}),
    f"{KPRB}/gen3-implicit-shapes/ShapeTypes/ShapeTypes.glb": (0, 0, set()),
    f"{KPRB}/gen3-implicit-shapes/ShapeTypes/ShapeTypes.gltf": (0, 0, set()),
    f"{KPRB}/gen3-implicit-shapes/Triggers/Triggers.gltf": (0, 0, set()),
    "KHR_rigid_bodies/gen0-khr-rigid-bodies/JointTypes/JointTypes.gltf": (0, 0, {"HINT-JOINT-SIDE"}),
    "KHR_rigid_bodies/gen0-khr-rigid-bodies/ShapeTypes/ShapeTypes.gltf": (0, 0, set()),
    "OMI_collider/gen1/box_collider.gltf": (0, 0, set()),
    "OMI_collider/gen1/capsule_collider.gltf": (0, 0, set()),
    "OMI_collider/gen1/cylinder_collider.gltf": (0, 0, set()),
    "OMI_collider/gen1/hull/convex_hull.gltf": (0, 0, set()),
    "OMI_collider/gen1/hull/convex_hull_only.gltf": (0, 0, set()),
    "OMI_collider/gen1/sphere_collider.gltf": (0, 0, set()),
    "OMI_collider/gen1/trigger_box.gltf": (0, 0, set()),
    "OMI_collider/gen1/trimesh/concave_trimesh.gltf": (0, 0, set()),
    "OMI_collider/gen1/trimesh/concave_trimesh_only.gltf": (0, 0, set()),
    "OMI_physics_body/gen1-type-omi-collider/basic/static_box.gltf": (0, 0, set()),
    "OMI_physics_body/gen1-type-omi-collider/basic/trigger_box.gltf": (0, 0, set()),
    "OMI_physics_body/gen1-type-omi-collider/basic/trigger_only_body.gltf": (0, 1, {"BT-6"}),
    "OMI_physics_body/gen1-type-omi-collider/basic/trigger_only_shape.gltf": (0, 1, {"BT-6"}),
    "OMI_physics_body/gen1-type-omi-collider/complex/one_collider_trigger.gltf": (0, 1, {"BT-6"}),
    "OMI_physics_body/gen1-type-omi-collider/complex/rigid_with_velocity.gltf": (0, 0, {"HINT-NO-GROUND"}),
    "OMI_physics_body/gen1-type-omi-collider/complex/two_boxes.gltf": (0, 0, set()),
    "OMI_physics_body/gen1-type-shape/basic/static_box.gltf": (0, 0, set()),
    "OMI_physics_body/gen1-type-shape/basic/trigger_box.gltf": (0, 0, set()),
    "OMI_physics_body/gen1-type-shape/complex/indirect_children.gltf": (0, 0, set()),
    "OMI_physics_body/gen1-type-shape/complex/rigid_with_velocity.gltf": (0, 0, {"HINT-NO-GROUND"}),
    "OMI_physics_body/gen1-type-shape/complex/static_with_trigger.gltf": (0, 0, set()),
    "OMI_physics_body/gen1-type-shape/complex/two_boxes.gltf": (0, 0, set()),
    "OMI_physics_body/gen2-type-dynamic/basic/static_box.gltf": (0, 0, set()),
    "OMI_physics_body/gen2-type-dynamic/basic/trigger_box.gltf": (0, 0, set()),
    "OMI_physics_body/gen2-type-dynamic/complex/dynamic_with_velocity.gltf": (0, 0, {"HINT-NO-GROUND"}),
    "OMI_physics_body/gen2-type-dynamic/complex/indirect_children.gltf": (0, 0, set()),
    "OMI_physics_body/gen2-type-dynamic/complex/static_with_trigger.gltf": (0, 0, set()),
    "OMI_physics_body/gen2-type-dynamic/complex/two_boxes.gltf": (0, 0, set()),
    "OMI_physics_body/gen4-materials/basic/compound_trigger.gltf": (0, 0, set()),
    "OMI_physics_body/gen4-materials/basic/dynamic_box.gltf": (0, 0, {"HINT-NO-GROUND"}),
    "OMI_physics_body/gen4-materials/basic/trigger_box.gltf": (0, 0, set()),
    "OMI_physics_body/gen4-materials/complex/ball_pit.gltf": (0, 0, set()),
    "OMI_physics_body/gen4-materials/complex/dynamic_with_velocity.gltf": (0, 0, {"HINT-NO-GROUND"}),
    "OMI_physics_body/gen4-materials/complex/indirect_children.gltf": (0, 2, {"BODY-5"}),
    "OMI_physics_body/gen4-materials/complex/static_body_motion.gltf": (0, 0, set()),
    "OMI_physics_body/gen4-materials/complex/static_compound_collider.gltf": (0, 0, set()),
    "OMI_physics_body/gen4-materials/complex/static_with_trigger.gltf": (0, 0, set()),
    "OMI_physics_body/gen4-materials/complex/two_boxes.gltf": (0, 1, {"BODY-5"}),
    "OMI_physics_body/gen4-materials/triggers/triggers.gltf": (1, 1, {"BODY-2", "SHAPE-8"}),
    "OMI_physics_gravity/gen1/earth_millionth_scale/earth_millionth_scale.glb": (0, 0, set()),
    "OMI_physics_gravity/gen1/earth_millionth_scale/earth_millionth_scale.gltf": (0, 0, set()),
    "OMI_physics_gravity/gen1/ramp/ramp_gravity.glb": (0, 0, set()),
    "OMI_physics_gravity/gen1/ramp/ramp_gravity.gltf": (0, 0, set()),
    "OMI_physics_gravity/gen1/rounded_cube/rounded_cube.glb": (0, 0, set()),
    "OMI_physics_gravity/gen1/rounded_cube/rounded_cube.gltf": (0, 0, set()),
    "OMI_physics_joint/gen1-constraints/hanging_rope.gltf": (0, 0, {"HINT-SAG"}),
    "OMI_physics_joint/gen1-constraints/pendulum_balls.gltf": (0, 0, {"HINT-SAG"}),
    "OMI_physics_joint/gen1-constraints/rope_railing.gltf": (0, 0, {"HINT-SAG"}),
    "OMI_physics_joint/gen1-constraints/simple_joint.gltf": (0, 0, set()),
    "OMI_physics_joint/gen1-constraints/slider_ball.gltf": (0, 0, {"HINT-SAG"}),
    "OMI_physics_joint/gen1-constraints/swing_and_slide.gltf": (0, 0, {"HINT-SAG"}),
    "OMI_physics_joint/gen1-constraints/weld_joint.gltf": (0, 0, set()),
    "OMI_physics_joint/gen1-constraints-omi-collider/simple_joint.gltf": (0, 0, set()),
    "OMI_physics_joint/gen1-constraints-omi-collider/slider_ball.gltf": (0, 0, {"HINT-SAG"}),
    "OMI_physics_joint/gen1-constraints-omi-collider/weld_joint.gltf": (0, 0, set()),
    "OMI_physics_joint/gen2-physicsJoints/hanging_rope.gltf": (0, 1, {"HINT-SAG", "SHAPE-10"}),
    "OMI_physics_joint/gen2-physicsJoints/pendulum_balls.gltf": (3, 0, {"HINT-SAG", "JOINT-2"}),
    "OMI_physics_joint/gen2-physicsJoints/rope_railing.gltf": (1, 1, {"HINT-SAG", "JOINT-2", "SHAPE-10"}),
    "OMI_physics_joint/gen2-physicsJoints/simple_joint.gltf": (0, 1, {"SHAPE-10"}),
    "OMI_physics_joint/gen2-physicsJoints/slider_ball.gltf": (0, 0, {"HINT-SAG"}),
    "OMI_physics_joint/gen2-physicsJoints/swing_and_slide.gltf": (1, 0, {"HINT-SAG", "JOINT-2"}),
    "OMI_physics_joint/gen2-physicsJoints/weld_joint.gltf": (0, 2, {"JOINT-5", "SHAPE-10"}),
    "OMI_physics_shape/gen1-flat/box_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen1-flat/capsule_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen1-flat/cylinder_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen1-flat/hull/convex_hull.gltf": (0, 0, set()),
    "OMI_physics_shape/gen1-flat/hull/convex_hull_only.gltf": (0, 0, set()),
    "OMI_physics_shape/gen1-flat/sphere_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen1-flat/trimesh/concave_trimesh.gltf": (0, 0, set()),
    "OMI_physics_shape/gen1-flat/trimesh/concave_trimesh_only.gltf": (0, 0, set()),
    "OMI_physics_shape/gen2-subjson-nodeext/box_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen2-subjson-nodeext/capsule_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen2-subjson-nodeext/convex/convex_hull.gltf": (0, 0, set()),
    "OMI_physics_shape/gen2-subjson-nodeext/convex/convex_hull_only.gltf": (0, 0, set()),
    "OMI_physics_shape/gen2-subjson-nodeext/cylinder_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen2-subjson-nodeext/default_box.gltf": (0, 1, {"SHAPE-3"}),
    "OMI_physics_shape/gen2-subjson-nodeext/sphere_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen2-subjson-nodeext/trimesh/concave_trimesh.gltf": (0, 0, set()),
    "OMI_physics_shape/gen2-subjson-nodeext/trimesh/concave_trimesh_only.gltf": (0, 0, set()),
    "OMI_physics_shape/gen3-subjson/box_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen3-subjson/capsule_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen3-subjson/convex/convex_hull.gltf": (0, 0, set()),
    "OMI_physics_shape/gen3-subjson/convex/convex_hull_only.gltf": (0, 0, set()),
    "OMI_physics_shape/gen3-subjson/cylinder_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen3-subjson/default_box.gltf": (0, 1, {"SHAPE-3"}),
    "OMI_physics_shape/gen3-subjson/sphere_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen3-subjson/trimesh/concave_trimesh.gltf": (0, 0, set()),
    "OMI_physics_shape/gen3-subjson/trimesh/concave_trimesh_only.gltf": (0, 0, set()),
    "OMI_physics_shape/gen4-tapered/box_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen4-tapered/capsule_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen4-tapered/convex/convex_hull.gltf": (0, 0, set()),
    "OMI_physics_shape/gen4-tapered/convex/convex_hull_only.gltf": (0, 0, set()),
    "OMI_physics_shape/gen4-tapered/cylinder_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen4-tapered/default_box.gltf": (0, 1, {"SHAPE-3"}),
    "OMI_physics_shape/gen4-tapered/sphere_collider.gltf": (0, 0, set()),
    "OMI_physics_shape/gen4-tapered/trimesh/concave_trimesh.gltf": (0, 0, set()),
    "OMI_physics_shape/gen4-tapered/trimesh/concave_trimesh_only.gltf": (0, 0, set()),
    "OMI_seat/gen1/recliner_chair_full.gltf": (0, 0, set()),
    "OMI_seat/gen1/recliner_chair_legs.gltf": (0, 0, set()),
    "OMI_seat/gen1/recliner_chair_with_trigger.gltf": (0, 0, set()),
    "OMI_seat/gen1/simple_chair_down_x.gltf": (0, 0, set()),
    "OMI_seat/gen1/simple_chair_neg_z.gltf": (0, 0, set()),
    "OMI_seat/gen1/simple_chair_pos_z.gltf": (0, 0, set()),
    "OMI_seat/gen1/simple_chair_what.gltf": (0, 0, set()),
    "OMI_seat/gen1-2023-type-era/recliner_chair_with_body.gltf": (0, 0, set()),
    "OMI_seat/gen1-2023-type-era/recliner_chair_with_collider.gltf": (0, 0, set()),
    "OMI_vehicle/gen1-current/OMI_vehicle_body/minimal_vehicle_body.gltf": (0, 0, set()),
    "OMI_vehicle/gen1-current/OMI_vehicle_hover_thruster/hovercraft.gltf": (0, 0, set()),
    "OMI_vehicle/gen1-current/OMI_vehicle_thruster/rocket_ship.gltf": (0, 1, {"SHAPE-10"}),
    "OMI_vehicle/gen1-current/OMI_vehicle_thruster/simple_spaceship.gltf": (0, 0, set()),
    "OMI_vehicle/gen1-current/OMI_vehicle_wheel/simple_car.gltf": (0, 0, {"HINT-NO-GROUND"}),
    "OMI_vehicle/gen2-target/OMI_vehicle_body/minimal_vehicle_body.gltf": (0, 0, set()),
    "OMI_vehicle/gen2-target/OMI_vehicle_hover_thruster/hovercraft.gltf": (0, 0, set()),
    "OMI_vehicle/gen2-target/OMI_vehicle_thruster/rocket_ship.gltf": (0, 1, {"SHAPE-10"}),
    "OMI_vehicle/gen2-target/OMI_vehicle_thruster/simple_spaceship.gltf": (0, 0, set()),
    "OMI_vehicle/gen2-target/OMI_vehicle_wheel/simple_car.gltf": (0, 0, {"HINT-NO-GROUND"}),
}


def test_the_table_lists_every_fixture() -> None:
    files = all_fixture_files()
    if files == ["<fixtures-missing>"]:
        fixture_path("<fixtures-missing>")  # skips, or fails under CI
    assert sorted(EXPECTED) == files


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_fixture_report(relative: str) -> None:
    report = validate_file(fixture_path(relative))
    errors, warnings, codes = EXPECTED[relative]
    got = (report.num_errors, report.num_warnings, report.codes)
    assert got == (errors, warnings, codes), report.to_text()
    assert report.exit_code(strict=False) == (1 if errors else 0)
    assert not report.unreadable
