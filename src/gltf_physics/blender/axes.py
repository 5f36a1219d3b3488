"""glTF's +Y-up frames against Blender's +Z-up ones, as Blender's glTF IO converts them (no bpy here).

The glTF IO turns a glTF point ``(x, y, z)`` into Blender's ``(x, -z, y)``: a rotation ``C`` of +90° about X.
A node's world matrix ``W`` becomes ``C·W·C⁻¹`` and its meshes' vertices ``C·v``, so a vector in a node's local
space reads ``C·v`` in the Blender object's local space. A physics frame (a joint frame) is kept as the physical
directions it names: its Blender matrix is ``C·F`` (the frame's axes written in Blender's world).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# (x, y, z) glTF → (x, -z, y) Blender
C = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
C_INV = C.T.copy()


def to_blender_vector(v: Sequence[float]) -> tuple[float, float, float]:
    """A glTF direction or point as Blender writes it."""
    return (float(v[0]), -float(v[2]), float(v[1]))


def to_gltf_vector(v: Sequence[float]) -> tuple[float, float, float]:
    """A Blender direction or point as glTF writes it."""
    return (float(v[0]), float(v[2]), -float(v[1]))


def node_to_blender(m: np.ndarray) -> np.ndarray:
    """A glTF node's 4×4 world (or local) matrix as the Blender object's."""
    return C @ m @ C_INV


def node_to_gltf(m: np.ndarray) -> np.ndarray:
    """A Blender object's 4×4 matrix as the glTF node's."""
    return C_INV @ m @ C


def frame_to_blender(m: np.ndarray) -> np.ndarray:
    """A glTF world frame (a joint's) as a Blender matrix whose axes are the same physical directions."""
    return C @ m


def frame_to_gltf(m: np.ndarray) -> np.ndarray:
    """A Blender frame (a constraint object's world matrix) as the glTF world frame of the same directions."""
    return C_INV @ m
