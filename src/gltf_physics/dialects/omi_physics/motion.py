"""OMI_physics_body motion properties of every generation (the spec) → :class:`~gltf_physics.model.Motion`.

OMI defaults are explicit in the model (unlike KHR, where absent means "computed", the spec): mass 1.0,
centre of mass (0, 0, 0). Only an all-zero inertia means "computed" (``None``, D-6).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ...gltf.transforms import matrix_to_quat
from ...model import IDENTITY_QUAT, ZERO3, Motion, MotionType, Quat, Vec3
from ..common.context import ReadContext, num, to_float, vec

# gen1 `type` strings → motion (BT-4, docs/interop.md): character ⇒ kinematic, rigid/vehicle ⇒ dynamic.
LEGACY_TYPES = {
    "static": MotionType.STATIC,
    "kinematic": MotionType.KINEMATIC,
    "character": MotionType.KINEMATIC,
    "rigid": MotionType.DYNAMIC,
    "vehicle": MotionType.DYNAMIC,
    "dynamic": MotionType.DYNAMIC,
}


def legacy_motion(ctx: ReadContext, ext: dict[str, Any], pointer: str) -> Motion:
    """gen1-type / gen2-type-dynamic body (not ``trigger``, which has no motion)."""
    kind = ext["type"]
    diagonal, orientation = None, IDENTITY_QUAT
    tensor = ext.get("inertiaTensor")
    if tensor is not None:
        decomposed = inertia_from_tensor(tensor)
        if decomposed is None and not _all_zero(tensor):
            ctx.note("BT-2", f"{pointer}/inertiaTensor", "inertiaTensor is not 9 finite numbers; ignored")
        elif decomposed is not None:
            if not _symmetric(tensor):
                ctx.note("BT-2", f"{pointer}/inertiaTensor", "inertiaTensor is not symmetric; symmetrized")
            diagonal, orientation = decomposed
    return Motion(
        type=LEGACY_TYPES[kind],
        mass=num(ext, "mass", 1.0),
        center_of_mass=vec(ext, "centerOfMass", ZERO3),  # type: ignore[arg-type]  # text-only, 2023-06-22
        inertia_diagonal=diagonal,
        inertia_orientation=orientation,
        linear_velocity=vec(ext, "linearVelocity", ZERO3),  # type: ignore[arg-type]
        angular_velocity=vec(ext, "angularVelocity", ZERO3),  # type: ignore[arg-type]
        legacy_type=kind,
    )


def motion(ctx: ReadContext, obj: dict[str, Any], pointer: str) -> Motion:
    """gen3-motion / gen4-materials ``motion`` object."""
    kind = obj.get("type")
    if kind not in ("static", "kinematic", "dynamic"):
        ctx.note("BODY-2", f"{pointer}/type", f"motion type {kind!r} missing or invalid; read as dynamic")
        kind = "dynamic"
    return Motion(
        type=MotionType(kind),
        mass=num(obj, "mass", 1.0),
        center_of_mass=vec(obj, "centerOfMass", ZERO3),  # type: ignore[arg-type]
        inertia_diagonal=_diagonal(ctx, obj, pointer),
        inertia_orientation=vec(obj, "inertiaOrientation", IDENTITY_QUAT),  # type: ignore[arg-type]
        linear_velocity=vec(obj, "linearVelocity", ZERO3),  # type: ignore[arg-type]
        angular_velocity=vec(obj, "angularVelocity", ZERO3),  # type: ignore[arg-type]
        gravity_factor=num(obj, "gravityFactor", 1.0),
    )


def _diagonal(ctx: ReadContext, obj: dict[str, Any], pointer: str) -> Vec3 | None:
    """OMI zeros mean "computed" (D-6); a partly-zero diagonal has no model meaning, so it is computed too."""
    d = vec(obj, "inertiaDiagonal", ZERO3)
    if all(c == 0.0 for c in d):
        return None
    if any(c == 0.0 for c in d):
        ctx.note(
            "D-6",
            f"{pointer}/inertiaDiagonal",
            "a zero component means 'computed' in OMI; the whole inertia is computed",
        )
        return None
    return d  # type: ignore[return-value]


def _all_zero(tensor: Any) -> bool:
    return isinstance(tensor, list) and all(v == 0 for v in tensor)


def _symmetric(tensor: list[float]) -> bool:
    m = np.asarray([to_float(v) for v in tensor]).reshape(3, 3)
    return bool(np.allclose(m, m.T))


def inertia_from_tensor(tensor: Any) -> tuple[Vec3, Quat] | None:
    """I = R·diag(d)·Rᵀ with det R = +1 (docs/interop.md). All zeros (or malformed) ⇒ ``None`` (computed).

    Eigenvector columns are ordered and signed so R is as close to the identity as possible (ties keep
    ascending eigenvalues): a tensor that is already diagonal gives its own diagonal and no rotation.
    """
    if not isinstance(tensor, list) or len(tensor) != 9:
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in tensor):
        return None
    m = np.asarray([to_float(v) for v in tensor]).reshape(3, 3)
    if not np.any(m) or not np.isfinite(m).all():  # NaN/∞ has no eigen-decomposition (LinAlgError)
        return None
    scale = float(np.abs(m).max())
    unit = m / scale  # entries ≤ 1: symmetrizing cannot overflow near the float maximum (1e308 → ∞ → LinAlgError)
    values, vectors = np.linalg.eigh((unit + unit.T) / 2.0)  # asymmetric input ⇒ symmetrized (BT-2)
    values = values * scale
    order = max(
        itertools.permutations(range(3)),
        key=lambda p: round(sum(abs(vectors[i, p[i]]) for i in range(3)), 12),
    )
    r = vectors[:, list(order)]
    d = values[list(order)]
    r = r * np.where(np.diag(r) < 0, -1.0, 1.0)  # positive diagonal: R near identity
    if np.linalg.det(r) < 0:
        k = int(np.argmin(np.abs(np.diag(r))))
        r[:, k] = -r[:, k]
    diagonal = (float(d[0]), float(d[1]), float(d[2]))
    q = matrix_to_quat(r)
    return diagonal, (q if not math.isclose(q[3], 1.0, abs_tol=1e-15) else IDENTITY_QUAT)
