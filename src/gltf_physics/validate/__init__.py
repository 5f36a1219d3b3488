"""The validator (DESIGN §1): structural checks per dialect on the JSON, then semantic checks on the model.

Issue codes are the DIGEST rule ids (``validate.rules.RULES``); the report is shaped like the Khronos
glTF-Validator's. ``validate`` and ``validate_file`` never raise.
"""

from .report import Message, Report
from .rules import RULES, Rule, Severity
from .runner import validate, validate_file

__all__ = ["RULES", "Message", "Report", "Rule", "Severity", "validate", "validate_file"]
