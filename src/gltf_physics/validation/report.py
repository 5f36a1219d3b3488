"""The validation report, shaped like the Khronos glTF-Validator's (docs/architecture.md).

``to_dict()`` gives ``{"uri", "validatorVersion", "issues": {"numErrors", "numWarnings", "numInfos",
"numHints", "messages": [{"code", "severity", "pointer", "message"}]}, "info": {...}}`` with the Khronos
validator's integer severities (0 error, 1 warning, 2 info, 3 hint). ``unreadable`` is an extra top-level key:
true when the file could not be loaded at all (exit code 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .rules import Severity

_NAMES = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "info", Severity.HINT: "hint"}


@dataclass(frozen=True)
class Message:
    code: str
    severity: Severity
    pointer: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "severity": int(self.severity), "pointer": self.pointer,
                "message": self.message}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass
class Report:
    uri: str
    messages: list[Message] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    unreadable: bool = False

    def count(self, severity: Severity) -> int:
        return sum(1 for m in self.messages if m.severity == severity)

    @property
    def num_errors(self) -> int:
        return self.count(Severity.ERROR)

    @property
    def num_warnings(self) -> int:
        return self.count(Severity.WARNING)

    @property
    def codes(self) -> set[str]:
        return {m.code for m in self.messages}

    def to_dict(self) -> dict[str, Any]:
        from .. import __version__

        return {
            "uri": self.uri,
            "validatorVersion": __version__,
            "unreadable": self.unreadable,
            "issues": {
                "numErrors": self.num_errors,
                "numWarnings": self.num_warnings,
                "numInfos": self.count(Severity.INFO),
                "numHints": self.count(Severity.HINT),
                "messages": [m.to_dict() for m in self.messages],
            },
            "info": self.info,
        }

    def to_text(self) -> str:
        """One line per message, then a summary line."""
        lines = [f"{self.uri}: {_NAMES[m.severity]} {m.code} {m.pointer or '/'}: {m.message}"
                 for m in self.messages]
        summary = ", ".join([_plural(self.num_errors, "error"), _plural(self.num_warnings, "warning"),
                             _plural(self.count(Severity.INFO), "info"),
                             _plural(self.count(Severity.HINT), "hint")])
        verdict = "unreadable" if self.unreadable else ("invalid" if self.num_errors else "valid")
        lines.append(f"{self.uri}: {verdict} ({summary})")
        return "\n".join(lines)

    def exit_code(self, strict: bool = False) -> int:
        """0 valid, 1 errors (or warnings with ``strict``), 2 unreadable (docs/cli.rst)."""
        if self.unreadable:
            return 2
        if self.num_errors or (strict and self.num_warnings):
            return 1
        return 0
