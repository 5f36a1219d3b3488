"""The core glTF 2.0 issue codes the validator reports, spelled and graded as the Khronos glTF-Validator does.

The codes and severities are the Khronos validator's (its ISSUES.md: 0 error, 1 warning, 2 info, 3 hint); the
descriptions are ours. Only the codes this project checks are listed. They live apart from ``rules.RULES``
(the rules table) so that table stays exactly the physics contract.
"""

from __future__ import annotations

ERROR, WARNING = 0, 1

CORE_CODES: dict[str, tuple[int, str]] = {
    "IO_ERROR": (ERROR, "A file the document names (an image) cannot be read."),
    # Schema: JSON types, required properties, ranges, enums
    "TYPE_MISMATCH": (ERROR, "A property has the wrong JSON type."),
    "ARRAY_TYPE_MISMATCH": (ERROR, "An array element has the wrong JSON type."),
    "ARRAY_LENGTH_NOT_IN_LIST": (ERROR, "An array has a length its property does not allow."),
    "UNDEFINED_PROPERTY": (ERROR, "A required property is missing."),
    "EMPTY_ENTITY": (ERROR, "An array or object that must not be empty is empty."),
    "INVALID_INDEX": (ERROR, "An index is not a non-negative integer."),
    "DUPLICATE_ELEMENTS": (ERROR, "An array that must hold unique elements repeats one."),
    "VALUE_NOT_IN_RANGE": (ERROR, "A number is outside its allowed range."),
    "VALUE_MULTIPLE_OF": (ERROR, "A number is not a multiple of what its property requires."),
    "VALUE_NOT_IN_LIST": (WARNING, "A value is not one of its property's enumerated values."),
    "PATTERN_MISMATCH": (ERROR, "A string does not match its property's pattern."),
    "UNSATISFIED_DEPENDENCY": (ERROR, "A property needs another one that is missing."),
    "ONE_OF_MISMATCH": (ERROR, "Exactly one of several properties must be defined."),
    # Semantic
    "UNKNOWN_ASSET_MAJOR_VERSION": (ERROR, "asset.version is not a 2.x version."),
    "ASSET_MIN_VERSION_GREATER_THAN_VERSION": (ERROR, "asset.minVersion is greater than asset.version."),
    "UNDECLARED_EXTENSION": (ERROR, "An extension object's name is not listed in extensionsUsed."),
    "UNUSED_EXTENSION_REQUIRED": (ERROR, "extensionsRequired lists an extension extensionsUsed does not."),
    "BUFFER_DATA_URI_MIME_TYPE_INVALID": (ERROR, "A buffer's data: URI is not application/octet-stream or "
                                                 "application/gltf-buffer."),
    "BUFFER_VIEW_TOO_BIG_BYTE_STRIDE": (ERROR, "A bufferView's byteStride exceeds its byteLength."),
    "ACCESSOR_OFFSET_ALIGNMENT": (ERROR, "An accessor's byteOffset is not a multiple of its component size."),
    "ACCESSOR_NORMALIZED_INVALID": (ERROR, "Only (unsigned) byte and short accessors can be normalized."),
    "ACCESSOR_MATRIX_ALIGNMENT": (ERROR, "A matrix accessor's columns are not 4-byte aligned."),
    "ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE": (ERROR, "A sparse accessor overrides more elements than it has."),
    "INVALID_GL_VALUE": (ERROR, "An integer accessor's min/max is outside its componentType's range."),
    "SKIN_NO_COMMON_ROOT": (ERROR, "A skin's joints do not share one root node."),
    "SKIN_SKELETON_INVALID": (ERROR, "A skin's skeleton is not a common ancestor of its joints."),
    "NODE_SKIN_WITH_NON_SKINNED_MESH": (ERROR, "A node has a skin but its mesh has no JOINTS_0 attribute."),
    "CAMERA_XMAG_YMAG_ZERO": (ERROR, "An orthographic camera's xmag or ymag is zero."),
    "CAMERA_ZFAR_LEQUAL_ZNEAR": (ERROR, "A camera's zfar is not greater than its znear."),
    "MESH_PRIMITIVE_INVALID_ATTRIBUTE": (ERROR, "A primitive attribute name is not a glTF semantic."),
    "MESH_INVALID_WEIGHTS_COUNT": (ERROR, "A mesh's weights do not match its number of morph targets."),
    "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT": (ERROR, "A mesh's primitives differ in their number of targets."),
    "NODE_MATRIX_TRS": (ERROR, "A node has both a matrix and translation/rotation/scale."),
    "NODE_MATRIX_NON_TRS": (ERROR, "A node's matrix is not a translation·rotation·scale (a shear, a singular "
                                   "matrix, or a last row other than 0, 0, 0, 1)."),
    "ROTATION_NON_UNIT": (ERROR, "A node's rotation quaternion is not of unit length."),
    # Link: references between objects
    "UNRESOLVED_REFERENCE": (ERROR, "An index points past the end of the array it refers to."),
    "BUFFER_VIEW_TOO_LONG": (ERROR, "A bufferView does not fit in its buffer."),
    "ACCESSOR_USAGE_OVERRIDE": (ERROR, "One accessor is used for two kinds of data (e.g. vertices and indices)."),
    "BUFFER_VIEW_TARGET_OVERRIDE": (ERROR, "One bufferView holds two kinds of data, or other data than its "
                                           "target says."),
    "ACCESSOR_TOO_LONG": (ERROR, "An accessor does not fit in its bufferView."),
    "ACCESSOR_TOTAL_OFFSET_ALIGNMENT": (ERROR, "An accessor's total byte offset is not a multiple of its "
                                               "component size."),
    "ACCESSOR_SMALL_BYTESTRIDE": (ERROR, "A bufferView's byteStride is smaller than the accessor's element."),
    "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT": (ERROR, "An attribute accessor has the wrong "
                                                                 "type/componentType for its semantic."),
    "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT": (ERROR, "A vertex attribute uses UNSIGNED_INT."),
    "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS": (ERROR, "A POSITION accessor lacks min and max."),
    "MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT": (ERROR, "A primitive's attribute accessors differ in count."),
    "MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT": (ERROR, "An indices accessor is not an unsigned "
                                                              "byte/short/int SCALAR."),
    "MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE": (ERROR, "An indices accessor's bufferView has a "
                                                               "byteStride."),
    "MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE": (ERROR, "A bufferView serving several vertex accessors has "
                                                          "no byteStride."),
    "ACCESSOR_VECTOR3_NON_UNIT": (ERROR, "A NORMAL vector is not of unit length."),
    "MESH_PRIMITIVE_ACCESSOR_UNALIGNED": (ERROR, "Vertex attribute data is not 4-byte aligned."),
    "MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR": (ERROR, "A morph target names an attribute its primitive "
                                                            "lacks."),
    "MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT": (ERROR, "A morph target accessor's count differs "
                                                                   "from its base accessor's."),
    "NODE_LOOP": (ERROR, "A node is part of a loop in the hierarchy."),
    "NODE_PARENT_OVERRIDE": (ERROR, "A node is listed as a child of more than one node."),
    "NODE_WEIGHTS_INVALID": (ERROR, "A node's weights do not match its mesh's number of morph targets."),
    "SCENE_NON_ROOT_NODE": (ERROR, "A scene lists a node that has a parent."),
    "SKIN_IBM_INVALID_FORMAT": (ERROR, "A skin's inverseBindMatrices accessor is not a FLOAT MAT4."),
    "INVALID_IBM_ACCESSOR_COUNT": (ERROR, "A skin's inverseBindMatrices has fewer elements than joints."),
    "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT": (ERROR, "An animation input accessor is not a FLOAT "
                                                               "SCALAR."),
    "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS": (ERROR, "An animation input accessor lacks min and max."),
    "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT": (ERROR, "An animation output accessor's format does not "
                                                                "suit its channel's path."),
    "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT": (ERROR, "An animation output accessor's count does not "
                                                               "match its input and interpolation."),
    "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS": (ERROR, "A CUBICSPLINE sampler has fewer than 2 "
                                                                 "keyframes."),
    "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE": (ERROR, "An animation sampler accessor's bufferView has a "
                                                          "byteStride."),
    "IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE": (ERROR, "An image's bufferView has a byteStride."),
    "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS": (ERROR, "A primitive lacks the TEXCOORD_n its material's textures use."),
    "ANIMATION_DUPLICATE_TARGETS": (ERROR, "Two channels of one animation target the same node and path."),
    "ANIMATION_CHANNEL_TARGET_NODE_MATRIX": (ERROR, "A channel animates TRS of a node that has a matrix."),
    "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS": (ERROR, "A channel animates weights of a node whose "
                                                               "mesh has no morph targets."),
    # Data: what the bytes hold
    "ACCESSOR_MIN_MISMATCH": (ERROR, "An accessor's declared min is not the actual minimum of its data."),
    "ACCESSOR_MAX_MISMATCH": (ERROR, "An accessor's declared max is not the actual maximum of its data."),
    "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND": (ERROR, "An accessor holds a value below its declared min."),
    "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND": (ERROR, "An accessor holds a value above its declared max."),
    "ACCESSOR_INDEX_OOB": (ERROR, "An index is not below the primitive's vertex count."),
    "ACCESSOR_INVALID_FLOAT": (ERROR, "An accessor holds NaN or an infinite number."),
    "ACCESSOR_ANIMATION_INPUT_NEGATIVE": (ERROR, "An animation input time is negative."),
    "ACCESSOR_ANIMATION_INPUT_NON_INCREASING": (ERROR, "Animation input times do not strictly increase."),
}


def core_codes_markdown() -> str:
    """The core codes as a Markdown table (code, severity, meaning) for the README."""
    names = {ERROR: "error", WARNING: "warning"}
    rows = ["| Code | Severity | Meaning |", "|-|-|-|"]
    rows += [f"| {code} | {names[sev]} | {text} |" for code, (sev, text) in CORE_CODES.items()]
    return "\n".join(rows)
