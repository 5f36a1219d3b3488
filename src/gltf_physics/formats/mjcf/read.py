"""MuJoCo MJCF in: the model MuJoCo's own compiler makes (``mujoco.MjModel``) → PhysicsScene + glTF document.

The MJCF text is never parsed here: defaults, ``fromto``, ``inertiafromgeom``, mesh scaling and includes are
what MuJoCo compiled. Every body is a node named as in the source, placed at its pose at ``qpos0`` (or a
keyframe's) under one root node that turns MuJoCo's Z-up world Y-up.

- **Bodies**: a body that moves (anything not welded to the world) gets a motion with MuJoCo's compiled mass,
  centre of mass, principal inertia and their orientation (``body_mass``, ``body_ipos``, ``body_inertia``,
  ``body_iquat``); mocap bodies are kinematic; bodies welded to the world carry static colliders.
- **Geoms** (:mod:`.read_geoms`): box, sphere, capsule, cylinder and plane as implicit shapes, meshes (the
  compiled vertices) as convex colliders — MuJoCo collides a mesh's hull too — and each geom of a visible
  group also as a coloured visual mesh. Geoms with ``contype = conaffinity = 0`` are visual only.
- **Joints** (:mod:`.read_joints`): the joints of one body become one glTF joint to its parent body: hinge
  and slide axes on the joint frame's axes (free ones unlimited or within ``range``), ball as free rotation
  within a total-rotation limit, free as no joint at all; a body without joints is welded to its parent.
  Joint coordinates are MuJoCo's minus the initial ``qpos``.
- **Drives**: ``position``, ``velocity`` and ``motor`` actuators on a joint, with the joint's ``damping`` and
  ``stiffness``, become one force drive per degree of freedom; targets from the first keyframe's ``ctrl``
  (else 0).
- **Contacts**: ``contype``/``conaffinity`` and ``<exclude>`` pairs become collision filters (exact: one
  system per class of geoms, each listing the classes it collides with); parent–child pairs are kept apart by
  their joint, and bodies welded together (and to their parent's weld group) by filters, as MuJoCo's weld
  groups and ``filterparent`` keep them apart. Sliding friction → a physics material combined by maximum,
  as MuJoCo combines it; torsional/rolling friction, softness, margins, ``condim`` 1 and priorities are
  losses (:mod:`.read_contacts`).
- **Equalities**: ``connect`` → a ball joint, ``weld`` → a fixed joint, between the two bodies.

Loss codes (the loss report): ``MJCF-IN-1`` shape approximated or skipped, ``MJCF-IN-2`` joints combined or
approximated, ``MJCF-IN-3`` armature / frictionloss, ``MJCF-IN-4`` actuator not expressible, ``MJCF-IN-5``
equality constraint, ``MJCF-IN-6`` tendon, ``MJCF-IN-7`` site, ``MJCF-IN-8`` sensor, ``MJCF-IN-9`` simulation
options (timestep, integrator, contact softness), ``MJCF-IN-10`` contact settings (pairs, filters, geom
parameters), ``MJCF-IN-11`` other elements without a glTF counterpart (cameras, lights, textures, flexes,
skins).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...gltf.errors import GltfError
from ...model import PhysicsScene, ReadNote

INSTALL = "pip install 'gltf-physics[mujoco,robots]'"  # MuJoCo compiles; trimesh draws the primitive geoms


def from_mjcf(path: str | Path, *, keyframe: int | str | None = None) -> PhysicsScene:
    """The physics of a MuJoCo MJCF file as a model, compiled by MuJoCo itself; ``scene.document`` holds its
    nodes (one per body, named as in the file) and meshes. Losses are in ``scene.notes``.

    ``keyframe`` (index or name of a ``<key>``): the bodies start at its ``qpos`` (where the glTF joint
    coordinates are 0) and the drives aim at its ``ctrl``; without it bodies start at ``qpos0`` and targets
    come from the first keyframe's ``ctrl`` (or 0).

    Raises :class:`GltfError` naming the file when MuJoCo cannot compile it.

    Example:
        >>> scene = gp.from_mjcf("cartpole.xml")
        >>> [scene.document.json["nodes"][b.node]["name"] for b in scene.bodies]
        ['cart', 'pole_1']
    """
    src = Path(path)
    if not src.is_file():
        raise GltfError("cannot read: no such file", file=str(src))
    model, warnings = _compile(src)
    from .read_model import read_model

    key = _keyframe(model, keyframe, src)
    try:
        scene = read_model(model, src.name, key)
    except GltfError as exc:
        raise exc.with_file(str(src)) from None
    scene.notes.extend(ReadNote("MJCF-IN-9", "/mujoco", f"MuJoCo's compiler warned: {w}") for w in warnings)
    return scene


def _compile(src: Path) -> tuple[Any, list[str]]:
    """The compiled model and the compiler's warnings (kept for the loss report, not printed by MuJoCo nor
    appended to a MUJOCO_LOG.TXT in the working folder)."""
    try:
        import mujoco
    except ImportError as exc:
        raise GltfError(f"reading MJCF needs mujoco: {INSTALL}", file=str(src)) from exc
    warnings: list[str] = []
    previous = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(lambda text: warnings.append(" ".join(str(text).split())))
    try:
        return mujoco.MjModel.from_xml_path(str(src)), warnings
    except ValueError as exc:  # MuJoCo's compiler error: "XML Error: …" / "Error: …" with its line
        text = " ".join(str(exc).split())
        raise GltfError(f"MuJoCo cannot compile it: {text}", file=str(src)) from None
    finally:
        mujoco.set_mju_user_warning(previous)


def _keyframe(model: Any, keyframe: int | str | None, src: Path) -> int | None:
    if keyframe is None:
        return None
    names = [model.key(k).name for k in range(model.nkey)]
    if isinstance(keyframe, str) and keyframe in names:
        return names.index(keyframe)
    if isinstance(keyframe, int) and 0 <= keyframe < model.nkey:
        return keyframe
    raise GltfError(f"no keyframe {keyframe!r} (it has {model.nkey}: {', '.join(n or '?' for n in names[:10])})",
                    file=str(src))


__all__ = ["from_mjcf"]
