"""Every issue code the validator can report: the rule ids (docs/rules.md) plus a few ``GLTF-…`` codes.

Severity follows the specifications' tags: **M** (must) → error, **S** (should) → warning, **X** (schema) → warning,
**D** (decided) → as docs/rules.md decides (noted per rule). A rule mixing tags (e.g. COL-5 "M … S …") lists its
strongest severity here; the message for its weaker part carries the weaker severity. Rules that only describe a
mapping or a runtime behaviour and have no checkable condition are ``informative``: they are listed so the table
covers the specifications, but the validator never reports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .gltf.codes import CORE_CODES


class Severity(IntEnum):
    """The Khronos glTF-Validator's numbers: the JSON report carries these integers."""

    ERROR = 0
    WARNING = 1
    INFO = 2
    HINT = 3


@dataclass(frozen=True)
class Rule:
    severity: Severity
    description: str
    informative: bool = False


E, W, INF = Severity.ERROR, Severity.WARNING, Severity.INFO


def _r(severity: Severity, description: str) -> Rule:
    return Rule(severity, description)


def _info(description: str) -> Rule:
    return Rule(INF, description, informative=True)


RULES: dict[str, Rule] = {
    # Core glTF problems the physics depends on (not numbered rules; documented here).
    "GLTF-UNREADABLE": _r(E, "The file cannot be loaded (not glTF/GLB, bad JSON, missing buffer)."),
    "GLTF-TYPE": _r(E, "A value has the wrong JSON type (a string where a number is expected…)."),
    "GLTF-NUMBER": _r(E, "A number is NaN or infinite, which JSON cannot carry."),
    "GLTF-MESH": _r(E, "A mesh a physics shape uses is malformed (no primitives, bad POSITION/indices "
                       "accessor)."),
    "GLTF-VALUE": _r(W, "A value breaks its official schema (enum, minimum, required key) and no numbered rule "
                        "names it."),
    "GLTF-TEXT": _r(E, "A string or key holds a lone surrogate (not Unicode text): the file cannot be saved."),
    "GLTF-SIMULATE": _r(E, "The runtime refuses this before simulating: a non-finite or negative size, a size or "
                           "position beyond 100 km, a hull whose points lie on one line, a mesh index naming "
                           "no vertex, a NaN motion, joint or drive value."),
    "GLTF-READ": _r(E, "The physics model could not be read; the semantic checks were skipped."),
    # the spec shared conventions
    "GEN-1": _r(E, "Every extension used is listed in extensionsUsed."),
    "GEN-2": _r(E, "Every index is an integer inside its array."),
    "GEN-3": _r(W, "-1 as 'none' is read as absent (D-1): omit the property instead."),
    "GEN-4": _info("Reusable objects live in a document-level array; nodes refer by index."),
    "GEN-5": _r(W, "A 'type' without its keyed sub-object is read with defaults (D-2)."),
    "GEN-6": _r(W, "Vectors have 3 numbers, quaternions 4 (unit length)."),
    "GEN-7": _info("SI units, glTF frame (+Y up; vehicles and seats +Z forward)."),
    "GEN-8": _info("Old schemas are draft-04, new ones 2020-12; KRB-9 is checked by hand."),
    # the spec OMI_collider
    "COL-1": _r(E, "OMI_collider 'colliders' has at least one collider."),
    "COL-2": _r(E, "OMI_collider 'type' is box, sphere, capsule, cylinder, hull or trimesh."),
    "COL-3": _r(E, "A node's OMI_collider 'collider' is a valid index."),
    "COL-4": _r(W, "The schema requires size/radius/height/mesh per type (read with defaults)."),
    "COL-5": _r(E, "A hull/trimesh mesh is triangles with ≥ 1 triangle (one primitive recommended)."),
    "COL-6": _r(W, "A hull has 4 to 255 points."),
    "COL-7": _r(E, "An OMI_collider capsule's total height is at least twice its radius."),
    "COL-8": _r(W, "A collider sits on its own, unscaled node."),
    "COL-9": _r(W, "No trimesh triggers and no trimesh on moving bodies."),
    # the spec OMI_physics_body type generations
    "BT-1": _r(E, "The body 'type' is in its generation's enum."),
    "BT-2": _r(W, "inertiaTensor is symmetric (9 numbers)."),
    "BT-3": _r(W, "A body has at least one shape."),
    "BT-4": _info("character ⇒ kinematic, vehicle ⇒ rigid where unsupported; trigger = non-solid area."),
    "BT-5": _r(E, "In the OMI_collider era a collider belongs to a body only as its direct child."),
    "BT-6": _r(W, "A collider's isTrigger differing from its body's type is kept per collider."),
    "BT-7": _info("Node-level shapes belong to the same or nearest ancestor body; none ⇒ static."),
    # the spec OMI_physics_body motion generations
    "BODY-1": _info("Implementations support motion/collider/trigger on one node and on separate nodes."),
    "BODY-2": _r(E, "motion.type is present and is static, kinematic or dynamic."),
    "BODY-3": _r(W, "Motion vectors have 3 numbers, inertiaOrientation 4 with unit length."),
    "BODY-4": _r(E, "Collider/trigger shape, physicsMaterial and collisionFilter indices are valid."),
    "BODY-5": _r(W, "A trigger has exactly one of 'shape' and 'nodes' (D-3 reads {} as implicit compound)."),
    "BODY-6": _r(W, "A 'nodes' (compound) trigger has no collisionFilter."),
    "BODY-7": _r(E, "Each 'nodes' entry is a unique strict descendant that has its own trigger."),
    "BODY-8": _r(E, "A collision filter never has both collideWithSystems and notCollideWithSystems."),
    "BODY-9": _r(W, "Physics material numbers are ≥ 0 and combine modes are in the enum."),
    "BODY-10": _info("Colliders without a motion ancestor are static; nested motion = independent body."),
    "BODY-11": _info("A 'static' motion is optional."),
    # the spec OMI_physics_shape
    "SHAPE-1": _r(E, "OMI_physics_shape 'shapes' has at least one shape."),
    "SHAPE-2": _r(E, "The shape 'type' is in its generation's enum."),
    "SHAPE-3": _r(W, "The shape has the sub-object its type names (read with defaults, D-2)."),
    "SHAPE-4": _r(W, "Shape sizes respect the schema minima (sizes > 0, radii ≥ 0, heights > 0)."),
    "SHAPE-5": _r(E, "A convex/trimesh mesh is triangles with at least one triangle (one primitive "
                     "recommended)."),
    "SHAPE-6": _r(W, "A convex shape has at least 4 points (gen1 hull at most 255)."),
    "SHAPE-7": _r(W, "radiusTop equals radiusBottom (tapered shapes may be imported as hulls)."),
    "SHAPE-8": _r(W, "Shape nodes are unscaled."),
    "SHAPE-9": _r(W, "No trimesh on moving bodies or triggers."),
    "SHAPE-10": _r(W, "A current-generation document uses the old capsule/cylinder 'radius' (read as gen3, "
                      "D-8)."),
    "SHAPE-11": _r(E, "An old-style capsule's total height is at least twice its radius."),
    # the spec OMI_physics_joint gen1 constraints
    "JOINT1-1": _r(E, "The document's 'constraints' has at least one constraint."),
    "JOINT1-2": _r(W, "A constraint lists at least one axis."),
    "JOINT1-3": _r(E, "Constraint axes are 0, 1 or 2."),
    "JOINT1-4": _r(E, "lowerLimit ≤ upperLimit."),
    "JOINT1-5": _r(E, "stiffness > 0 and damping ≥ 0."),
    "JOINT1-6": _r(E, "A joint node has 'constraints', 'nodeA' and 'nodeB'."),
    "JOINT1-7": _r(E, "nodeA and nodeB carry OMI_physics_body and are not triggers."),
    "JOINT1-8": _r(E, "At least one jointed body is dynamic and at most one is static/kinematic/character."),
    "JOINT1-9": _r(W, "The joint sits on its own node (no mesh, camera, light, body or shape)."),
    "JOINT1-10": _info("Overlapping constraints: the later one wins."),
    "JOINT1-11": _info("Jointed bodies do not collide."),
    # the spec OMI_physics_joint gen2
    "JOINT-1": _r(E, "A joint node has valid 'joint' and 'connectedNode'."),
    "JOINT-2": _r(E, "The joint node has a dynamic motion ancestor (and carries no "
                     "mesh/camera/light/body/shape)."),
    "JOINT-3": _r(E, "connectedNode lies under a motion node."),
    "JOINT-4": _r(W, "A joint has limits or drives."),
    "JOINT-5": _r(E, "A limit lists at least one axis (both kinds in one limit: warning, D-4)."),
    "JOINT-6": _r(W, "A limit has min or max, and min ≤ max."),
    "JOINT-7": _r(E, "stiffness, damping and maxForce are not negative (D-15)."),
    "JOINT-8": _r(E, "A drive has type, mode and axis."),
    "JOINT-9": _info("Connected bodies collide only if enableCollision."),
    # the spec KHR_physics_rigid_bodies and shapes
    "KRB-1": _r(E, "A collider has geometry with exactly one of shape, node or mesh (gen1/2: a 'shape')."),
    "KRB-2": _r(E, "geometry.shape indexes the KHR shapes; geometry.node/mesh index nodes/meshes."),
    "KRB-3": _info("convexHull ⇒ use the hull; no effect on implicit shapes."),
    "KRB-4": _r(E, "A trigger has exactly one of geometry and nodes; nodes are unique descendants with "
                   "triggers."),
    "KRB-5": _r(E, "Joint indices are valid (a motion on at least one side: warning)."),
    "KRB-6": _r(E, "A limit has exactly one of linearAxes/angularAxes with 1–3 unique axes 0..2."),
    "KRB-7": _r(W, "stiffness, damping and maxForce are ≥ 0."),
    "KRB-8": _r(E, "A drive has type, mode and axis."),
    "KRB-9": _r(W, "positionTarget comes with stiffness, velocityTarget with damping."),
    "KRB-10": _r(E, "A collision filter does not have both collideWithSystems and notCollideWithSystems."),
    "KRB-11": _r(W, "mass 0 / inertia 0 mean infinite (the schema wants > 0, D-5); negative is an error."),
    "KRB-12": _r(W, "Scale on collider nodes: zero disables, negative uses |scale|, non-uniform round shapes "
                    "approximate."),
    "KRBI-1": _r(E, "A rigid_body_triggerEntered/Exited graph node's nodeIndex names a node with a trigger."),
    "KRBI-2": _r(E, "No two graph event nodes of the same kind share one trigger nodeIndex."),
    "KIS-1": _r(E, "The shape extension's 'shapes' has at least one shape."),
    "KIS-2": _r(E, "A shape has a 'type' and no other known type's sub-object."),
    "KIS-3": _r(E, "No degenerate shapes (radius > 0, sizes > 0, height > 0, radii ≥ 0 with one > 0)."),
    # the spec OMI_physics_gravity
    "GRAV-1": _r(E, "The document-level gravity has 'gravity'."),
    "GRAV-2": _r(E, "A gravity volume's type is known and 'gravity' is present."),
    "GRAV-3": _r(E, "A gravity volume sits on a trigger node with no motion or collider, outside other "
                    "compounds."),
    "GRAV-4": _r(E, "Line 'points' has a multiple of 3 numbers, at least 6."),
    "GRAV-5": _r(W, "unitDistance ≥ 0 and directions are normalized."),
    "GRAV-6": _r(W, "priority is an integer."),
    "GRAV-7": _r(W, "The gravity has the sub-object its type names (read with defaults, D-2)."),
    # the spec OMI_seat
    "SEAT-1": _r(E, "A seat has back, foot and knee (3 numbers each)."),
    "SEAT-2": _r(W, "back, knee and foot are not (nearly) collinear."),
    "SEAT-3": _info("On a trigger node the trigger is the seat's entry area."),
    # the spec OMI_vehicle_*
    "VBODY-1": _r(E, "OMI_vehicle_body sits on a node with a physics body."),
    "VBODY-2": _r(W, "Vehicle activations are within [-1, 1]."),
    "VBODY-3": _r(W, "pilotSeat names a node with OMI_seat."),
    "WHEEL-1": _r(E, "A wheel node is a strict descendant of a vehicle body."),
    "WHEEL-2": _r(W, "Wheel values are within their schema ranges."),
    "THR-1": _r(E, "A thruster sits on its own node under a vehicle body."),
    "THR-2": _info("The gimbal rotates the node so local +Z is the thrust direction."),
    "HOVER-1": _r(E, "A hover thruster sits on its own node under a vehicle body."),
    # KHR_interactivity behaviour graphs (docs/behaviour.md); an invalid graph is reported and not run
    "KHRI-1": _r(E, "KHR_interactivity has a 'graphs' array and 'graph' names one of them."),
    "KHRI-2": _r(E, "A declaration's 'op' is a core operation, or it names the 'extension' defining it."),
    "KHRI-3": _r(E, "An extension operation declares exactly its value sockets; a core one declares none."),
    "KHRI-4": _r(E, "Type, declaration and value type indices exist and name known type signatures."),
    "KHRI-5": _r(E, "Values fit their types and each input has a type its operation accepts (matching where "
                    "the operation needs equal types)."),
    "KHRI-6": _r(E, "An input value is inline or linked, not both."),
    "KHRI-7": _r(E, "Links name existing nodes and output sockets; every input socket has a value."),
    "KHRI-8": _r(E, "Current form: flows go to higher-numbered nodes, values come from lower-numbered ones."),
    "KHRI-9": _r(E, "No loop through value sockets."),
    "KHRI-10": _r(E, "Configuration present where required and in range (variable, event, type indices, "
                     "pointer templates; cases and inputFlows fall back to their defaults, a warning)."),
    "KHRI-11": _r(INF, "The graphs are read as the 2025 draft form the official test assets use."),
}


def rules_markdown() -> str:
    """The table as Markdown (code, severity, rule) for the README."""
    names = {E: "error", W: "warning", INF: "info"}
    rows = ["| Code | Severity | Rule |", "|-|-|-|"]
    for code, rule in RULES.items():
        severity = "informative" if rule.informative else names[rule.severity]
        rows.append(f"| {code} | {severity} | {rule.description} |")
    return "\n".join(rows)


def severity_of(code: str) -> Severity:
    """The table severity (numbered rules, then the core glTF codes); an unknown code (a reader note the tables
    lack) is a warning."""
    rule = RULES.get(code)
    if rule is not None:
        return rule.severity
    core = CORE_CODES.get(code)
    return Severity(core[0]) if core else W
