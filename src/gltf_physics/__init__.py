"""gltf-physics: read, validate, convert and simulate physics in glTF (OMI_physics_* and KHR_physics_rigid_bodies).

    import gltf_physics as gp
    doc = gp.load("scene.gltf")
    scene = gp.read_scene(doc)          # the engine-agnostic PhysicsScene
    gp.to_usd(doc, "scene.usda")        # OpenUSD UsdPhysics (extra: pip install 'gltf-physics[usd]')
    report = gp.validate(doc)           # glTF-Validator-style report
    world = gp.World.from_file("scene.gltf"); world.run(2.0); world.pose(3)
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "load": "api", "save": "api", "convert": "api", "read_scene": "api", "Document": "api",
    "PhysicsScene": "api", "World": "sim",
    # OpenUSD: usd-core (the [usd] extra) is imported only when one of these runs.
    "to_usd": "formats.usd", "from_usd": "formats.usd", "usd_to_gltf": "formats.usd",
}


# Eager, unlike the rest: the subpackage `gltf_physics.validate` would otherwise shadow the function once imported.
from .validate import validate  # noqa: E402


def __getattr__(name: str) -> Any:
    # Lazy so that `import gltf_physics` stays cheap and never loads the physics engine unasked.
    if name in _LAZY:
        import importlib

        module = importlib.import_module(f".{_LAZY[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(name)


__all__ = ["Document", "PhysicsScene", "World", "__version__", "convert", "from_usd", "load", "read_scene", "save",
           "to_usd", "usd_to_gltf", "validate"]
