"""KHR joint settings (limits and drives) of every generation: the KHR spelling of :mod:`.joint_settings`.

gen0 (KHR_rigid_bodies): document ``physicsJointLimits[{limits}]`` with ``springConstant``/``springDamping``,
no drives. gen1+ (KHR_physics_rigid_bodies): ``physicsJoints[{limits, drives}]`` with
``stiffness``/``damping`` (docs/interop.md).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..common.context import ReadContext
from ..common.joint_settings import Family, JointSettings
from ..common.joint_settings import read_settings as _read_settings

# D-15 on a negative stiffness/maxForce; KRB-8 on a drive without type/mode/axis; KRB-9 pairs targets with gains.
KHR = Family(negative_rule="D-15", drive_rule="KRB-8", axes_rule="KRB-6", note_non_object_drive=False,
             paired_targets=True)
KHR_GEN0 = replace(KHR, stiffness_key="springConstant", damping_key="springDamping", drives=False)


def read_settings(ctx: ReadContext, doc: dict[str, Any], key: str, pointer: str,
                  gen0: bool) -> list[JointSettings]:
    """Every entry of ``doc[key]`` (``physicsJoints`` or gen0 ``physicsJointLimits``) as (limits, drives)."""
    return _read_settings(ctx, doc.get(key), f"{pointer}/{key}", KHR_GEN0 if gen0 else KHR)
