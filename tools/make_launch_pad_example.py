"""Write ``examples/launch_pad.gltf``: a launch pad that kicks balls back up, to play in `gltf-physics view --live`.
The physics model is written by ``write_scene`` (KHR rigid bodies, newest form), the behaviour graph
(KHR_interactivity) by :class:`~gltf_physics.behaviour.build.GraphBuilder`.

    PYTHONPATH=src python tools/make_launch_pad_example.py            # writes examples/launch_pad.gltf
    PYTHONPATH=src python tools/make_launch_pad_example.py OUT.gltf

The scene: a static ground (top y = 0) with a static pad (a 1.6 × 0.2 × 1.6 m slab, top y = 0.2) and a trigger
zone sitting on the pad (top y = 0.4). A 0.5 kg ball of radius 0.25 starts at y = 3 over the pad; a second one
rests on the ground beside it. A kinematic sweeper arm turns at a steady rate beside the pad.

The graph (four behaviours):

- ``event/rigid_body_triggerEntered`` on the zone → ``rigid_body/applyImpulse`` of ``LAUNCH`` N·s up on the body
  that entered (Δv = J/m = 16 m/s for a ball) → ``debug/log`` "launched node N";
- ``event/onTick`` → the sweeper's rotation set to ``SWEEP`` rad/s × timeSinceStart about +Y (``pointer/set``);
- ``event/onSelect`` on the "Balls" node (a click on either ball, KHR_node_selectability) →
  ``rigid_body/applyImpulse`` on the ball clicked: ``PUSH`` N·s along the click ray's heading (level) and
  ``HOP`` N·s up, a lob away from the viewer that lands the side ball on the pad.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gltf_physics.behaviour.build import GraphBuilder
from gltf_physics.dialects import write_scene
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.io import save
from gltf_physics.model import Body, Box, Collider, Motion, MotionType, PhysicsScene, Sphere, Trigger

ROOT = Path(__file__).resolve().parents[1]
LAUNCH = 8.0  # N·s up: a 0.5 kg ball leaves 16 m/s faster upwards
PUSH = 2.0  # N·s along the click's heading: 4 m/s for a ball...
HOP = 1.5  # N·s up: ...and 3 m/s up, a lob of 2 × 3 × 4 / g = 2.45 m: from beside the pad onto it
SWEEP = 1.0  # rad/s, the sweeper's turn rate
GROUND, PAD, ZONE, BALLS, BALL, SIDE_BALL, SWEEPER = range(7)


def launch_pad_scene() -> PhysicsScene:
    """The pad, its zone, the balls and the sweeper as a physics model over a plain glTF (nodes only)."""
    nodes: list[dict] = [
        {"name": "Ground", "translation": [0, -0.5, 0]},
        {"name": "LaunchPad", "translation": [0, 0.1, 0]},
        {"name": "LaunchZone", "translation": [0, 0.3, 0]},
        {"name": "Balls", "children": [BALL, SIDE_BALL]},
        {"name": "Ball", "translation": [0, 3, 0]},
        {"name": "SideBall", "translation": [0, 0.25, 2.5]},
        {"name": "Sweeper", "translation": [-2.5, 0.3, 0]},
    ]
    gltf = {"asset": {"version": "2.0", "generator": "gltf-physics tools/make_launch_pad_example.py"},
            "scene": 0, "scenes": [{"name": "Launch pad", "nodes": [GROUND, PAD, ZONE, BALLS, SWEEPER]}],
            "nodes": nodes}
    static = Motion(type=MotionType.STATIC)
    return PhysicsScene(
        bodies=[Body(GROUND, static), Body(PAD, static), Body(BALL, Motion(mass=0.5)),
                Body(SIDE_BALL, Motion(mass=0.5)), Body(SWEEPER, Motion(type=MotionType.KINEMATIC))],
        colliders=[Collider(GROUND, Box((8.0, 1.0, 8.0)), body=GROUND), Collider(PAD, Box((1.6, 0.2, 1.6)), body=PAD),
                   Collider(BALL, Sphere(0.25), body=BALL), Collider(SIDE_BALL, Sphere(0.25), body=SIDE_BALL),
                   Collider(SWEEPER, Box((2.0, 0.2, 0.2)), body=SWEEPER)],
        triggers=[Trigger(ZONE, shape=Box((1.4, 0.2, 1.4)))],
        document=Document(json=gltf, buffers=[]),
    )


def launch_pad_graph() -> GraphBuilder:
    """The behaviour graph (module docstring)."""
    g = GraphBuilder()
    entered = g.node("event/rigid_body_triggerEntered", configuration={"nodeIndex": ZONE})
    launch = g.node("rigid_body/applyImpulse", nodeIndex=g.out(entered, "motionNodeIndex"),
                    linearImpulse=(0.0, LAUNCH, 0.0))
    log = g.node("debug/log", configuration={"message": "launched node {body}"},
                 body=g.out(entered, "motionNodeIndex"))
    g.flow(entered, "out", launch)
    g.flow(launch, "out", log)
    tick = g.node("event/onTick")
    angle = g.node("math/mul", a=g.out(tick, "timeSinceStart"), b=SWEEP)
    turn = g.node("math/quatFromAxisAngle", axis=(0.0, 1.0, 0.0), angle=g.out(angle))
    spin = g.node("pointer/set", configuration={"pointer": f"/nodes/{SWEEPER}/rotation", "type": g.type("float4")},
                  value=g.out(turn))
    g.flow(tick, "out", spin)
    click = g.node("event/onSelect", configuration={"nodeIndex": BALLS, "stopPropagation": True})
    ray = g.node("math/sub", a=g.out(click, "selectionPoint"), b=g.out(click, "selectionRayOrigin"))
    ray_xyz = g.node("math/extract3", a=g.out(ray))
    level = g.node("math/combine3", a=g.out(ray_xyz, "0"), b=0.0, c=g.out(ray_xyz, "2"))  # the ray's heading
    along = g.node("math/normalize", a=g.out(level))
    forward = g.node("math/mul", a=g.out(along), b=(PUSH, PUSH, PUSH))
    impulse = g.node("math/add", a=g.out(forward), b=(0.0, HOP, 0.0))
    push = g.node("rigid_body/applyImpulse", nodeIndex=g.out(click, "selectedNodeIndex"),
                  linearImpulse=g.out(impulse))
    g.flow(click, "out", push)
    return g


def main(argv: list[str]) -> int:
    """Write the example (to ``argv[0]``, default examples/launch_pad.gltf); print what could not be written."""
    out = Path(argv[0]) if argv else ROOT / "examples" / "launch_pad.gltf"
    scene = launch_pad_scene()
    assert scene.document is not None
    doc, losses = write_scene(scene, scene.document, "khr")
    for loss in losses:
        print(loss, file=sys.stderr)
    launch_pad_graph().attach(doc.json)
    save(doc, out)
    print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 1 if losses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
