"""gltf-physics: read, validate, convert and simulate physics in glTF (OMI_physics_* and KHR_physics_rigid_bodies).

    import gltf_physics as gp
    doc = gp.load("scene.gltf")
    scene = gp.read_scene(doc)          # the engine-agnostic PhysicsScene
    gp.to_usd(doc, "scene.usda")        # OpenUSD UsdPhysics (extra: pip install 'gltf-physics[usd]')
    robot, losses = gp.import_to_gltf("robot.urdf", "khr")   # URDF / MJCF in (extras [robots], [mujoco])
    report = gp.validate(doc)           # glTF-Validator-style report
    world = gp.World.from_file("scene.gltf"); world.run(2.0); world.pose(3)
    table = gp.batch(["assets/"], "validate")   # many files on Dask (extra [scale])
    result = gp.add_physics(doc)        # bodies and fitted colliders for a plain glTF (extra [author])
"""

from __future__ import annotations

from types import ModuleType

from .lazy import exports

__version__ = "0.1.0"

# Each public name and the submodule it lives in, imported on first use (PEP 562) so that `import gltf_physics`
# stays cheap (the CLI's start-up) and never loads numpy, the physics engine or Dask unasked.
_LAZY = {
    "load": "api", "save": "api", "convert": "api", "read_scene": "api", "Document": "api",
    "PhysicsScene": "api", "World": "sim", "validate": "validation", "batch": "scale", "sweep": "scale",
    # OpenUSD: usd-core (the [usd] extra) is imported only when one of these runs.
    "to_usd": "formats.usd", "from_usd": "formats.usd", "usd_to_gltf": "formats.usd",
    # Robots in: URDF (yourdfpy + trimesh, the [robots] extra) and MJCF (MuJoCo's compiler, the [mujoco] extra).
    "from_urdf": "formats.urdf", "from_mjcf": "formats.mjcf.read", "import_scene": "formats.imports",
    "import_to_gltf": "formats.imports",
    # Physics added to plain glTF: trimesh, SciPy and CoACD (the [author] extra) are imported only when it runs.
    "add_physics": "author.api",
}

__all__ = ["Document", "PhysicsScene", "World", "__version__", "add_physics", "batch", "convert", "from_mjcf",
           "from_urdf", "from_usd", "import_scene", "import_to_gltf", "load", "read_scene", "save", "sweep", "to_usd",
           "usd_to_gltf", "validate"]

__getattr__ = exports(__name__, _LAZY)


def __dir__() -> list[str]:
    """The public API (for ``dir(gp)`` and tab completion), whether or not a name was imported yet, and the
    subpackages imported so far; not the helpers this module itself imports."""
    return sorted({*__all__, *(n for n, v in globals().items() if n.startswith("__") or isinstance(v, ModuleType))})
