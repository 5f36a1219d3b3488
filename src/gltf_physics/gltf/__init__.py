"""The glTF container: lossless load/save, safe URIs, accessors, mesh triangles, node animations."""

from typing import TYPE_CHECKING

from ..lazy import exports, listing
from .accessors import read_accessor
from .document import Document
from .errors import GltfError
from .io import load, save

if TYPE_CHECKING:
    from .animation import add_node_animation
    from .meshes import mesh_triangles, node_triangles

# Animations and mesh triangles are for the runtime, the viewer and the validator: loading and reading a file
# (`info`) does not make their classes and tables.
__getattr__ = exports(__name__, {"add_node_animation": "animation", "mesh_triangles": "meshes",
                                 "node_triangles": "meshes"})

__all__ = [
    "Document",
    "GltfError",
    "add_node_animation",
    "load",
    "mesh_triangles",
    "node_triangles",
    "read_accessor",
    "save",
]

__dir__ = listing(__name__, __all__)
