"""The validator (docs/architecture.md): structural checks per dialect on the JSON, then semantic checks on the model.

Issue codes are the rule ids (docs/rules.md, ``validation.rules.RULES``) for the physics, and the Khronos
glTF-Validator's own codes and severities for core glTF 2.0 (``validation.gltf.codes.CORE_CODES``): "valid"
means valid glTF too.
The report is shaped like the Khronos validator's. ``validate`` and ``validate_file`` never raise.
"""

from .gltf.codes import CORE_CODES
from .report import Message, Report
from .rules import RULES, Rule, Severity
from .runner import validate, validate_file

__all__ = ["CORE_CODES", "RULES", "Message", "Report", "Rule", "Severity", "validate", "validate_file"]
