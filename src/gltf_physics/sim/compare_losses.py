"""Which of an engine's conversion losses can explain a body's difference in ``compare``.

A loss (MJCF-2: MuJoCo has no restitution coefficient…) names a pointer: a body, a collider, its shape, a physics
material or a joint. It explains a body's difference when it *touches* that body:

- it is the body's own: its pointer is the body's, one of its colliders' (their shapes' or materials'), or one
  of its joints';
- or it belongs to something the body came near during either run: a static collider (its pointer, shape or
  material: a contact combines both sides' materials, so the ground's restitution is the ball's too), or another
  moving body (that body's own losses).

"Came near" is judged on bounding volumes, in NumPy over every recorded frame of both runs: each moving body is a
sphere about its node's origin that holds all its colliders at t = 0 in any orientation, a static collider its
world box at t = 0; a body touches a static collider when its sphere comes within ``margin`` of the box, and
another body when the two spheres do. Bounding volumes only over-approximate contact: a loss is never missed for
a pair that touched, and a pair far apart never shares one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..geometry.placement import document_mesh_source, place_shape
from ..model import PhysicsScene

Loss = dict[str, str]


def losses_by_body(scene: PhysicsScene, losses: list[Loss], runs: list[Any],
                   margin: float) -> dict[int, list[Loss]]:
    """Each moving body's share of ``losses`` (its own, then those of what it touched; see the module)."""
    own = _own_losses(scene, losses)
    moving = [int(n) for n in runs[0].nodes]
    if not moving:
        return {}
    boxes = _boxes(scene)
    colliders = _static_colliders(scene, boxes)
    radii = _spheres(scene, moving, boxes)
    near_static, near_bodies = _touching(runs, moving, radii, colliders, margin)
    found: dict[int, list[Loss]] = {}
    for i, node in enumerate(moving):
        shares = list(own.get(("body", node), []))
        for k in np.flatnonzero(near_static[i]).tolist():
            shares += own.get(("collider", colliders[k][0]), [])
        for j in np.flatnonzero(near_bodies[i]).tolist():
            if j != i:
                shares += own.get(("body", moving[j]), [])
        unique: list[Loss] = []
        for loss in shares:
            if loss not in unique:
                unique.append(loss)
        if unique:
            found[node] = unique
    return found


def _own_losses(scene: PhysicsScene, losses: list[Loss]) -> dict[tuple[str, int], list[Loss]]:
    """Losses by owner: ("body", node) for a body's own, ("collider", index) for a static collider's."""
    owners: dict[str, set[tuple[str, int]]] = {}

    def own(pointer: str, owner: tuple[str, int]) -> None:
        if pointer:
            owners.setdefault(pointer, set()).add(owner)

    for body in scene.bodies:
        own(body.pointer, ("body", body.node))
    statics = {b.node for b in scene.bodies if b.motion.type.value == "static"}
    for k, c in enumerate(scene.colliders):
        owner = ("collider", k) if c.body is None or c.body in statics else ("body", c.body)
        pointers = [c.pointer, getattr(c.shape, "pointer", "")]
        if c.material is not None and 0 <= c.material < len(scene.materials):
            pointers.append(scene.materials[c.material].pointer)
        for pointer in pointers:
            own(pointer, owner)
    for j in scene.joints:
        for node in (j.body_a, j.body_b):
            if node is not None:
                own(j.pointer, ("body", node))
    found: dict[tuple[str, int], list[Loss]] = {}
    for loss in losses:
        for owner in sorted(owners.get(loss.get("pointer", ""), ())):
            found.setdefault(owner, []).append(loss)
    return found


def _boxes(scene: PhysicsScene) -> tuple[np.ndarray, np.ndarray]:
    """World boxes (lo, hi) of every collider at t = 0 (the validator's broad phase; planes unbounded)."""
    from ..validation.broadphase import collider_boxes

    world = scene.node_world()
    source = document_mesh_source(scene.document) if scene.document is not None else None

    def placed(k: int) -> Any:
        c = scene.colliders[k]
        try:
            return place_shape(c.shape, world[c.node], source) if 0 <= c.node < len(world) else None
        except Exception:  # unreadable mesh data (the validator reports it): unbounded, touching everything
            return None

    return collider_boxes(scene, world, placed)


def _static_colliders(scene: PhysicsScene, boxes: tuple[np.ndarray, np.ndarray]
                      ) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(index, lo, hi) world box at t = 0 of every collider that does not move."""
    moving = {b.node for b in scene.bodies if b.motion.type.value != "static"}
    return [(k, boxes[0][k], boxes[1][k]) for k, c in enumerate(scene.colliders)
            if c.body is None or c.body not in moving]


def _spheres(scene: PhysicsScene, moving: list[int], boxes: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The radius about each moving body's node (at t = 0) of a sphere that holds all its colliders."""
    world = scene.node_world()
    radii = np.zeros(len(moving))
    index = {n: i for i, n in enumerate(moving)}
    for k, c in enumerate(scene.colliders):
        i = index.get(c.body) if c.body is not None else None
        if i is None or not 0 <= c.body < len(world):  # type: ignore[operator]
            continue
        centre = world[c.body][:3, 3]  # type: ignore[index]
        farthest = np.maximum(np.abs(boxes[0][k] - centre), np.abs(boxes[1][k] - centre))  # the far corner
        radii[i] = max(radii[i], float(np.linalg.norm(farthest)))  # inf for an unbounded shape: touches all
    return radii


def _touching(runs: list[Any], moving: list[int], radii: np.ndarray,
              colliders: list[tuple[int, np.ndarray, np.ndarray]], margin: float) -> tuple[np.ndarray, np.ndarray]:
    """(bodies × static colliders, bodies × bodies): whether each pair came within ``margin`` in any run."""
    lo = np.array([c[1] for c in colliders]).reshape(-1, 3)
    hi = np.array([c[2] for c in colliders]).reshape(-1, 3)
    near_static = np.zeros((len(moving), len(colliders)), dtype=bool)
    near_bodies = np.zeros((len(moving), len(moving)), dtype=bool)
    for rec in runs:
        order = {int(n): i for i, n in enumerate(rec.nodes)}
        columns = [order[n] for n in moving]
        at = rec.translations[: rec.count][:, columns].astype(np.float64)  # (frames, bodies, 3)
        with np.errstate(invalid="ignore"):
            gap = np.maximum(np.maximum(lo[None, None] - at[:, :, None], at[:, :, None] - hi[None, None]), 0.0)
            distance = np.linalg.norm(gap, axis=-1)  # (frames, bodies, colliders)
            near_static |= (distance <= radii[None, :, None] + margin).any(axis=0)
            apart = np.linalg.norm(at[:, :, None] - at[:, None, :], axis=-1)
            near_bodies |= (apart <= radii[None, :, None] + radii[None, None, :] + margin).any(axis=0)
    return near_static, near_bodies
