"""Runs both passes and builds the report. Never raises: whatever goes wrong becomes a message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..behaviour.check import check as behaviour_check
from ..dialects.common.checks import Checker
from ..dialects.common.context import ExtIndex
from ..dialects.registry import FAMILIES, PHYSICS_EXTENSIONS
from ..gcpause import gc_paused
from ..gltf.document import Document
from ..gltf.errors import GltfError
from . import hints, runtime, semantic, writable
from .gltf import checks as gltf_checks
from .gltf.codes import CORE_CODES
from .report import Message, Report
from .rules import Severity, severity_of

STRUCTURAL: tuple[tuple[str, Checker], ...] = (
    ("core glTF", gltf_checks.check),
    *((family.key, family.check) for family in FAMILIES),
    ("behaviour graphs", behaviour_check),
    ("JSON text", writable.check),  # last: the physics checks name their own values first
)


class _Collector:
    def __init__(self) -> None:
        self.messages: list[Message] = []
        self._seen: set[tuple[str, str, str]] = set()
        # code → every pointer reported under it and every "/"-prefix of those: answers "related" queries in
        # time proportional to the pointer's depth, not to the number of messages (many notes × many
        # messages on a big document would otherwise be quadratic).
        self._pointers: dict[str, set[str]] = {}
        self._prefixes: dict[str, set[str]] = {}

    def __call__(self, code: str, pointer: str, message: str, severity: int | None = None) -> None:
        key = (code, pointer, message)
        if key in self._seen:
            return
        self._seen.add(key)
        sev = severity_of(code) if severity is None else Severity(severity)
        self.messages.append(Message(code, sev, pointer, message))
        self._pointers.setdefault(code, set()).add(pointer)
        self._prefixes.setdefault(code, set()).update(_prefixes(pointer))

    def has(self, code: str, pointer: str) -> bool:
        return pointer in self._pointers.get(code, ())

    def has_error_at(self, pointer: str) -> bool:
        return any(code in CORE_CODES and pointer in pointers for code, pointers in self._pointers.items())

    def has_error_near(self, pointer: str) -> bool:
        """An error at ``pointer``, inside it, or at an object containing it that is about that object's JSON (a
        node's hierarchy or transform errors, such as NODE_LOOP, say nothing of the values inside the node)."""
        return any(m.severity == Severity.ERROR and _related(m.pointer, pointer)
                   and not (m.code.startswith("NODE_") and pointer.startswith(m.pointer + "/"))
                   for m in self.messages)

    def has_related(self, code: str, pointer: str) -> bool:
        """A message of ``code`` at ``pointer``, inside it, or at an object containing it."""
        exact = self._pointers.get(code)
        if not exact:
            return False
        return pointer in self._prefixes[code] or any(p in exact for p in _prefixes(pointer))


def _prefixes(pointer: str) -> list[str]:
    """``pointer`` and every pointer containing it: "/a/b" → ["/a/b", "/a", ""]."""
    out = [pointer]
    cut = pointer.rfind("/")
    while cut >= 0:
        pointer = pointer[:cut]
        out.append(pointer)
        cut = pointer.rfind("/")
    return out


def _related(a: str, b: str) -> bool:
    """Equal pointers, or one inside the other (a missing key is reported at its parent object)."""
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def validate(document: Document, uri: str | None = None) -> Report:
    """Validate a loaded document against every rule of the specifications: structural checks on the JSON,
    then semantic checks on the model. Returns a Khronos-validator-shaped :class:`Report`.

    Example:
        >>> report = gp.validate(gp.load("examples/tumbling_boxes.gltf"))
        >>> report.num_errors, report.num_warnings, report.exit_code()
        (0, 0, 0)
    """
    with gc_paused():
        return _validate(document, uri)


def _validate(document: Document, uri: str | None) -> Report:
    name = uri or (str(document.path) if getattr(document, "path", None) else "<memory>")
    emit = _Collector()
    gltf = getattr(document, "json", None)
    if not isinstance(gltf, dict):
        emit("GLTF-TYPE", "", "the document's JSON must be an object")
        return Report(uri=name, messages=emit.messages, info={})
    index = ExtIndex(gltf)  # one scan of the nodes' extensions, shared by every pass
    for what, checker in STRUCTURAL:
        try:
            checker(gltf, emit, index)
        except Exception as exc:  # a checker bug must not hide the rest of the report
            emit("GLTF-READ", "", f"the {what} checks stopped early ({type(exc).__name__}: {exc})")
    try:
        gltf_checks.check_data(document, emit)
    except Exception as exc:
        emit("GLTF-READ", "", f"the core data checks stopped early ({type(exc).__name__}: {exc})")
    info: dict[str, Any] = {"extensions": _extensions(gltf), "generations": {}, "counts": {}}
    scene = _read(document, emit, index)
    if scene is not None:
        info["generations"] = dict(sorted(scene.generations.items()))
        info["counts"] = _counts(scene)
        _notes(scene, emit)
        try:
            semantic.check(scene, gltf, emit)
        except Exception as exc:
            emit("GLTF-READ", "", f"the semantic checks stopped early ({type(exc).__name__}: {exc})")
        try:
            runtime.check(scene, gltf, emit)
        except Exception as exc:
            emit("GLTF-READ", "", f"the runtime checks stopped early ({type(exc).__name__}: {exc})")
        if isinstance(gltf.get("extensions"), dict) and "KHR_interactivity" in gltf["extensions"]:
            _graph_physics(gltf, emit, {t.node for t in scene.triggers})
        try:
            hints.check(scene, gltf, emit)
        except Exception as exc:  # a hint is advice: its failure must not turn a valid file into an invalid one
            emit("HINT-FAILED", "", f"the hints stopped early ({type(exc).__name__}: {exc})", int(Severity.INFO))
    return Report(uri=name, messages=emit.messages, info=info)


def _graph_physics(gltf: dict[str, Any], emit: _Collector, triggers: set[int]) -> None:
    """The physics rules of behaviour graphs (KRBI-1, KRBI-2), once per pointer whoever else checks graphs."""
    from ..behaviour.ops.physics import check_document

    def once(code: str, pointer: str, message: str) -> None:
        if not emit.has(code, pointer):
            emit(code, pointer, message)
    try:
        check_document(gltf, once, triggers)
    except Exception as exc:
        emit("GLTF-READ", "", f"the behaviour-graph physics checks stopped early ({type(exc).__name__}: {exc})")


def _read(document: Document, emit: _Collector, index: ExtIndex) -> Any:
    try:
        from ..dialects import read_scene

        return read_scene(document, index)
    except GltfError as err:
        pointer = err.pointer or ""
        if not emit.has_error_near(pointer):
            emit("GLTF-READ", pointer, f"the physics cannot be read: {err.message}; semantic checks skipped")
    except Exception as exc:
        emit("GLTF-READ", "", f"the physics reader failed ({type(exc).__name__}: {exc}); semantic checks "
                              "skipped")
    return None


def _notes(scene: Any, emit: _Collector) -> None:
    """Reader notes (lenient reads such as GEN-3 -1 indices) become messages unless already reported."""
    for note in scene.notes:
        # A note the core checks already name (a non-array 'meshes' is TYPE_MISMATCH there) is not repeated.
        if not emit.has_related(note.code, note.pointer) and not emit.has_error_at(note.pointer):
            emit(note.code, note.pointer, note.message)


def _extensions(gltf: dict[str, Any]) -> list[str]:
    used = gltf.get("extensionsUsed")
    names = {u for u in used if isinstance(u, str)} if isinstance(used, list) else set()
    return sorted(n for n in names if n in PHYSICS_EXTENSIONS)


def _counts(scene: Any) -> dict[str, int]:
    return {
        "bodies": len(scene.bodies), "colliders": len(scene.colliders), "triggers": len(scene.triggers),
        "materials": len(scene.materials), "filters": len(scene.filters), "joints": len(scene.joints),
        "vehicles": len(scene.vehicles), "wheels": len(scene.wheels), "thrusters": len(scene.thrusters),
        "hoverThrusters": len(scene.hover_thrusters), "gravityFields": len(scene.gravity_fields),
        "seats": len(scene.seats),
    }


def validate_file(path: str | Path) -> Report:
    """Load and validate one file; a file that cannot be loaded gives an ``unreadable`` report."""
    uri = str(path)
    try:
        from ..gltf.io import load

        document = load(path)
    except GltfError as err:
        report = _unreadable(uri, err.pointer or "", err.message)
        _core_json_only(path, report)
        return report
    except Exception as exc:  # OSError, a loader bug: still a report, never a traceback
        return _unreadable(uri, "", f"{type(exc).__name__}: {exc}")
    return validate(document, uri)


def _unreadable(uri: str, pointer: str, message: str) -> Report:
    msg = Message("GLTF-UNREADABLE", Severity.ERROR, pointer, f"the file cannot be loaded: {message}")
    return Report(uri=uri, messages=[msg], info={}, unreadable=True)


def _core_json_only(path: str | Path, report: Report) -> None:
    """A file the loader refuses may still parse: add the core glTF errors its JSON has, so the report names
    the problem in the Khronos validator's terms (the verdict stays "unreadable")."""
    try:
        from ..gltf.io import read_json

        gltf = read_json(path)
        if not isinstance(gltf, dict):
            return
        emit = _Collector()
        with gc_paused():
            gltf_checks.check(gltf, emit)
    except Exception:  # unparsable JSON (already the unreadable message) or a checker bug: add nothing
        return
    report.messages += [m for m in emit.messages if m.severity == Severity.ERROR]
