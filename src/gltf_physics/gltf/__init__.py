"""The glTF container: lossless load/save, safe URIs, accessors, mesh triangles, node animations."""

from .accessors import read_accessor
from .animation import add_node_animation
from .document import Document
from .errors import GltfError
from .io import load, save
from .meshes import mesh_triangles, node_triangles

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
