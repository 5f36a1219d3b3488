"""Model joints → UsdPhysics joints: the typed joint where exact, else a generic one (see :mod:`.usd_joints`)."""

from __future__ import annotations

import math
from typing import Any

from ...model import DriveType, Joint, JointDrive, Pose
from . import codec as usd_codec
from .joints import AXES, ROT, JointSpec, is_soft, joint_spec
from .out import NS, PHYSICS_SCOPE, Out, attr

JOINT_TYPES = {"fixed": "FixedJoint", "revolute": "RevoluteJoint", "prismatic": "PrismaticJoint",
               "spherical": "SphericalJoint", "distance": "DistanceJoint", "generic": "Joint"}


def write_joint(out: Out, k: int, joint: Joint) -> None:
    UsdPhysics = out.pxr.UsdPhysics
    spec = joint_spec(joint)
    out.stage.DefinePrim(f"/World/{PHYSICS_SCOPE}/Joints", "Scope")
    usd_joint = getattr(UsdPhysics, JOINT_TYPES[spec.kind]).Define(
        out.stage, f"/World/{PHYSICS_SCOPE}/Joints/{spec.kind.capitalize()}Joint_{k}")
    prim = usd_joint.GetPrim()
    for side, body, frame in ((0, joint.body_a, joint.frame_a), (1, joint.body_b, joint.frame_b)):
        _frame(out, usd_joint, side, body, frame)
    usd_joint.CreateCollisionEnabledAttr(joint.enable_collision)
    data: dict[str, Any] = {"joint": k, "node": joint.node, "layout": usd_codec.json.dumps(spec.layout)}
    if joint.connected_node is not None:
        data["connectedNode"] = joint.connected_node
    if joint.settings_index is not None:
        data["settingsIndex"] = joint.settings_index
    if spec.drives:
        data["driveOrder"] = list(spec.drives)
    if spec.cone is not None:
        data["coneMin"] = spec.cone[1]
    if spec.distance is not None:
        data["distanceMin"] = spec.distance[0]
    prim.SetCustomDataByKey(NS, data)
    _typed_joint(out, usd_joint, spec)
    pointer = joint.pointer or (f"/nodes/{joint.node}" if joint.node >= 0 else f"/joints/{k}")
    if spec.soft:  # stiffness/damping of limits: our reader's copy (damping alone changes nothing on a hard one)
        attr(out, prim, "softLimits", "String", usd_codec.json.dumps({n: list(v) for n, v in spec.soft.items()}))
    springs = [n for n in spec.soft if is_soft(spec, n)]
    if springs:
        out.loss("USD-7", pointer, f"soft limit on {', '.join(springs)}: UsdPhysics limits are hard "
                 f"(stiffness/damping kept as {NS}:softLimits)")
    if spec.extra_limits or spec.extra_drives:
        attr(out, prim, "limits", "String", usd_codec.encode(spec.extra_limits))
        attr(out, prim, "drives", "String", usd_codec.encode(spec.extra_drives))
        out.loss("USD-7", pointer, f"{len(spec.extra_limits)} limit(s) over several axes or repeated axes and "
                 f"{len(spec.extra_drives)} repeated drive(s): no UsdPhysics form (kept as {NS}:limits/drives)")


def _frame(out: Out, usd_joint: Any, side: int, body: int | None, frame: Pose) -> None:
    Gf = out.pxr.Gf
    if body is not None:
        rel = usd_joint.CreateBody0Rel() if side == 0 else usd_joint.CreateBody1Rel()
        rel.SetTargets([out.node_paths[body]])
    x, y, z, w = frame.rotation
    (usd_joint.CreateLocalPos0Attr if side == 0 else usd_joint.CreateLocalPos1Attr)(Gf.Vec3f(*frame.translation))
    (usd_joint.CreateLocalRot0Attr if side == 0 else usd_joint.CreateLocalRot1Attr)(Gf.Quatf(w, x, y, z))
    # UsdPhysics frames are single precision; writers that reuse the file's joint nodes compare poses to 1e-9,
    # so the double values ride along (the reader uses them only while they still round to the USD values).
    prim = usd_joint.GetPrim()
    attr(out, prim, f"localPos{side}", "Double3", Gf.Vec3d(*frame.translation))
    attr(out, prim, f"localRot{side}", "Quatd", Gf.Quatd(w, x, y, z))


def _deg(v: float) -> float:
    return math.degrees(v)


def _typed_joint(out: Out, usd_joint: Any, spec: JointSpec) -> None:
    UsdPhysics = out.pxr.UsdPhysics
    prim = usd_joint.GetPrim()
    if spec.kind in ("revolute", "prismatic"):
        usd_joint.CreateAxisAttr(AXES[spec.axis])
        free = (ROT if spec.kind == "revolute" else ("transX", "transY", "transZ"))[spec.axis]
        lo, hi = spec.ranges.get(free, (-math.inf, math.inf))
        scale = _deg if spec.kind == "revolute" else float
        usd_joint.CreateLowerLimitAttr(scale(lo))
        usd_joint.CreateUpperLimitAttr(scale(hi))
        for drive in spec.drives.values():
            _drive(out, prim, "angular" if spec.kind == "revolute" else "linear", drive)
    elif spec.kind == "spherical":
        usd_joint.CreateAxisAttr(AXES[spec.axis])
        if spec.cone is not None:
            usd_joint.CreateConeAngle0LimitAttr(_deg(spec.cone[2]))
            usd_joint.CreateConeAngle1LimitAttr(_deg(spec.cone[2]))
    elif spec.kind == "distance":
        assert spec.distance is not None
        lo, hi = spec.distance
        usd_joint.CreateMinDistanceAttr(lo if math.isfinite(lo) and lo >= 0 else -1.0)
        usd_joint.CreateMaxDistanceAttr(hi if math.isfinite(hi) else -1.0)
    elif spec.kind == "generic":
        for name, (lo, hi) in spec.ranges.items():
            limit = UsdPhysics.LimitAPI.Apply(prim, name)
            scale = _deg if name in ROT else float
            limit.CreateLowAttr(scale(lo))
            limit.CreateHighAttr(scale(hi))
        if spec.distance is not None:
            limit = UsdPhysics.LimitAPI.Apply(prim, "distance")
            limit.CreateLowAttr(spec.distance[0])
            limit.CreateHighAttr(spec.distance[1])
        for name, drive in spec.drives.items():
            _drive(out, prim, name, drive)


def _drive(out: Out, prim: Any, instance: str, drive: JointDrive) -> None:
    """DriveAPI: angular targets in degrees (and deg/s), angular stiffness/damping per degree."""
    api = out.pxr.UsdPhysics.DriveAPI.Apply(prim, instance)
    angular = drive.type is DriveType.ANGULAR
    per = math.pi / 180 if angular else 1.0  # k·Δθ[rad] = (k·π/180)·Δθ[deg]
    api.CreateTypeAttr(drive.mode.value)
    api.CreateMaxForceAttr(drive.max_force)
    api.CreateDampingAttr(drive.damping * per)
    if drive.position_target is not None:
        api.CreateTargetPositionAttr(_deg(drive.position_target) if angular else drive.position_target)
        api.CreateStiffnessAttr(drive.stiffness * per)
    else:  # no target = no spring term; USD would pull to 0, so its stiffness stays 0 and ours is kept aside
        api.CreateStiffnessAttr(0.0)
        if drive.stiffness:
            attr(out, prim, f"drive:{instance}:stiffness", "Double", drive.stiffness)
    if drive.velocity_target is not None:
        api.CreateTargetVelocityAttr(_deg(drive.velocity_target) if angular else drive.velocity_target)
