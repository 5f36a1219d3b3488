"""Differential test of the core glTF checks against the Khronos glTF-Validator.

400 deterministic mutations of the official fixtures, .gltf and .glb (tests/core_mutation.py: seed = document
number), are validated by both. The contract, per document:
- the Khronos validator reports an error ⇒ we report an error;
- it reports none ⇒ we report no *core* error (a Khronos-spelled code or GLTF-UNREADABLE; physics rules such as
  GEN-1 or SHAPE-5 are ours alone and may still fire).
Documented exclusions (EXCLUSIONS) are the only disagreements allowed; each is counted and capped. Beyond the
contract, a Khronos-error document should share an error code with our report (with the EQUIVALENT codes that
name one problem in two vocabularies): ``test_differential`` asserts that for at least 98% of them.

The official fixtures: the Khronos validator finds no error in any of them, and neither do our core checks
(CORE_ERRORS_IN_FIXTURES lists the exceptions: none).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from conftest import FIXTURES, all_fixture_files, fixture_path
from core_mutation import mutated_documents
from gltf_physics.validation import Report, Severity, validate_file
from gltf_physics.validation.gltf.codes import CORE_CODES
from khronos_batch import khronos_messages

DOCUMENTS = 400
MATRIX_DOCUMENTS = 80  # one node's transform replaced by a matrix, TRS or not (NODE_MATRIX_NON_TRS)
# One problem, two vocabularies: our code → the Khronos codes it stands for.
EQUIVALENT = {
    "GLTF-UNREADABLE": {"INVALID_JSON", "UNRECOGNIZED_INPUT", "IO_ERROR", "BUFFER_BYTE_LENGTH_MISMATCH"},
    "GEN-1": {"UNDECLARED_EXTENSION"},  # physics extensions missing from extensionsUsed are GEN-1's
}
Exclusion = Callable[[list[dict], Report], bool]
# name → (reason, predicate on (Khronos messages, our report)) for a disagreement we accept.
EXCLUSIONS: dict[str, tuple[str, Exclusion]] = {
    "buffer without uri": (
        "Our loader refuses a .gltf buffer with no uri (only a GLB's first buffer may omit it: there are no bytes "
        "to read); the Khronos validator accepts it as long as no accessor reads that buffer.",
        lambda theirs, ours: ours.unreadable and "buffer has no uri" in ours.messages[0].message),
    "integral float": (
        "Our loader refuses a count, offset, length or index written as a float such as 2.0 (it sizes and indexes "
        "arrays with it); the Khronos validator reads 2.0 as the integer 2. Our core checks agree with Khronos.",
        lambda theirs, ours: ours.unreadable and re.search(r"must be an integer .*, got -?\d+\.0$",
                                                           ours.messages[0].message) is not None),
}
# Official fixtures with a genuine core error, per the Khronos validator: (fixture → codes). None today.
CORE_ERRORS_IN_FIXTURES: dict[str, set[str]] = {}


def _core_errors(report: Report) -> list[str]:
    return [m.code for m in report.messages
            if m.severity == Severity.ERROR and (m.code in CORE_CODES or m.code == "GLTF-UNREADABLE")]


def _their_errors(messages: list[dict]) -> set[str]:
    return {m["code"] for m in messages if m["severity"] == 0}


def _shares_a_code(theirs: set[str], report: Report) -> bool:
    ours = {m.code for m in report.messages if m.severity == Severity.ERROR}
    return bool(ours & theirs) or any(EQUIVALENT.get(code, set()) & theirs for code in ours)


def test_differential(tmp_path: Path) -> None:
    fixture_path(all_fixture_files()[0])  # skip (or fail under CI) without fixtures
    docs = mutated_documents(DOCUMENTS, tmp_path, MATRIX_DOCUMENTS)
    khronos = khronos_messages([path for path, _ in docs])
    tally: Counter[str] = Counter()
    disagreements = []
    for path, base in docs:
        theirs, ours = _their_errors(khronos[path]), validate_file(path)
        agree = bool(ours.num_errors) if theirs else not _core_errors(ours)
        if agree:
            tally["agree"] += 1
            tally["shares a code"] += bool(theirs) and _shares_a_code(theirs, ours)
        elif excluded := [name for name, (_, applies) in EXCLUSIONS.items() if applies(khronos[path], ours)]:
            tally[f"excluded: {excluded[0]}"] += 1
        else:
            disagreements.append((base, path.name, sorted(theirs), ours.to_text()[-600:]))
        tally["khronos errors" if theirs else "khronos clean"] += 1
    print(f"\ncore differential over {DOCUMENTS} + {MATRIX_DOCUMENTS} mutated fixtures: {dict(tally)}")
    non_trs = [path for path, _ in docs[DOCUMENTS:] if "NODE_MATRIX_NON_TRS" in _their_errors(khronos[path])]
    assert len(non_trs) >= MATRIX_DOCUMENTS // 3  # the matrices reach the rule, and the rule its clean side
    assert all("NODE_MATRIX_NON_TRS" in {m.code for m in validate_file(path).messages} for path in non_trs)
    assert disagreements == []
    # The sample exercises both sides of the contract, and exclusions stay exceptions.
    assert tally["khronos errors"] >= DOCUMENTS // 2 and tally["khronos clean"] >= DOCUMENTS // 20
    assert sum(n for k, n in tally.items() if k.startswith("excluded")) <= DOCUMENTS // 100
    assert tally["shares a code"] >= 0.98 * tally["khronos errors"]


def test_official_fixtures_have_no_core_errors() -> None:
    """Every official fixture (.gltf and .glb): the Khronos validator's errors and our core errors agree."""
    files = [fixture_path(relative) for relative in all_fixture_files()]
    khronos = khronos_messages(files)
    theirs = {str(f.relative_to(FIXTURES)): _their_errors(khronos[f]) for f in files}
    ours = {str(f.relative_to(FIXTURES)): set(_core_errors(validate_file(f))) for f in files}
    assert {k: v for k, v in theirs.items() if v} == CORE_ERRORS_IN_FIXTURES
    assert {k: v for k, v in ours.items() if v} == CORE_ERRORS_IN_FIXTURES
    assert len(files) >= 130
