"""gltf-physics: read, validate, convert and simulate physics in glTF."""

__version__ = "0.1.0"
