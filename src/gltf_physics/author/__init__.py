"""Physics added to plain glTF: fitted primitives, hulls, convex decomposition, naming conventions, the builder.

    from gltf_physics.author import Builder
    b = Builder(gp.load("model.gltf"))
    b.body(kind="dynamic"); b.collider(shape="auto")
    result = b.build(to="khr")             # result.document, result.report()

``gltf-physics add`` is a thin layer over :class:`Builder`. Fitting needs trimesh and decomposition CoACD
(the ``author`` extra); hulls are qhull's (:mod:`gltf_physics.geometry.hulls`).
"""

from __future__ import annotations

from ..lazy import exports

__getattr__ = exports(__name__, {
    "AddResult": "builder", "Builder": "builder", "ColliderReport": "builder", "Settings": "decompose",
    "AuthorError": "selectors", "add_physics": "api",
})

__all__ = ["AddResult", "AuthorError", "Builder", "ColliderReport", "Settings", "add_physics"]
