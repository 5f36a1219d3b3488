"""Write ``examples/car.gltf``: a small car to drive in `gltf-physics view --live`, made by the project's own
writers (the physics model written by ``write_scene``: KHR rigid bodies for the chassis and ground, the
OMI_vehicle writer for the vehicle body and wheels, OMI_seat for the pilot's seat).

    PYTHONPATH=src python tools/make_car_example.py            # writes examples/car.gltf
    PYTHONPATH=src python tools/make_car_example.py OUT.gltf

The car: a 1000 kg chassis (box 1.8 × 0.6 × 4 m, forward +Z) at y = 0.7 on four wheels of radius 0.35 (the
spec's default suspension), rear-wheel drive 2 × 2000 N, front wheels steering up to 0.5 rad, top speed
20 m/s (72 km/h). The ground is a static box 2,600 m a side whose top is y = 0: a minute at top speed is 1,200 m,
so the car stays on it driving straight for a minute from the middle in any direction.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gltf_physics.dialects import write_scene
from gltf_physics.gltf.document import Document
from gltf_physics.gltf.io import save
from gltf_physics.model import Body, Box, Collider, Motion, PhysicsScene, Seat, Vehicle, Wheel

ROOT = Path(__file__).resolve().parents[1]
TOP_SPEED = 20.0  # m/s
GROUND_SIDE = 2600.0  # m: more than twice a minute at top speed (1,200 m), the car starting in the middle
WHEELS = ((0.8, 1.4, "FrontLeft"), (-0.8, 1.4, "FrontRight"), (0.8, -1.4, "RearLeft"), (-0.8, -1.4, "RearRight"))


def car_scene() -> PhysicsScene:
    """The car and its ground as a physics model over a plain glTF (nodes only: the viewer draws the colliders)."""
    nodes: list[dict] = [{"name": "Car", "translation": [0, 0.7, 0], "children": [1, 2, 3, 4, 5]}]
    nodes += [{"name": f"Wheel{name}", "translation": [x, -0.3, z]} for x, z, name in WHEELS]
    nodes.append({"name": "PilotSeat", "translation": [0.4, 0.1, 0.2]})
    nodes.append({"name": "Ground", "translation": [0, -0.5, 0]})
    gltf = {"asset": {"version": "2.0", "generator": "gltf-physics tools/make_car_example.py"},
            "scene": 0, "scenes": [{"name": "Car", "nodes": [0, 6]}], "nodes": nodes}
    wheels = [Wheel(1 + k, 0, max_propulsion_force=2000.0 if z < 0 else 0.0,
                    max_steering_angle=0.5 if z > 0 else 0.0, radius=0.35)
              for k, (_x, z, _name) in enumerate(WHEELS)]
    return PhysicsScene(
        bodies=[Body(0, Motion(mass=1000.0))],
        colliders=[Collider(0, Box((1.8, 0.6, 4.0)), body=0), Collider(6, Box((GROUND_SIDE, 1.0, GROUND_SIDE)))],
        vehicles=[Vehicle(0, max_speed=TOP_SPEED, pilot_seat=5)], wheels=wheels,
        seats=[Seat(5, back=(0, 0.1, -0.3), foot=(0, -0.3, 0.5), knee=(0, 0.1, 0.3))],
        document=Document(json=gltf, buffers=[]),
    )


def main(argv: list[str]) -> int:
    """Write the example (to ``argv[0]``, default examples/car.gltf); print what could not be written."""
    out = Path(argv[0]) if argv else ROOT / "examples" / "car.gltf"
    scene = car_scene()
    assert scene.document is not None
    doc, losses = write_scene(scene, scene.document, "khr")
    for loss in losses:
        print(loss, file=sys.stderr)
    save(doc, out)
    print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 1 if losses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
