"""The documentation site (docs/) and the README: built strictly, complete, and self-contained.

- Every code the project can emit — the validator's tables (physics rules, hints, core glTF codes) and every code
  literal in the source (loss codes, reader notes) — has an entry in the rule catalogue: a heading in
  docs/rules.md whose first line restates the table's severity and text, and an anchor in the built page.
- Every command, argument and option of the command line appears in the generated CLI reference.
- No link in README.md or docs/ leaves the repository except to a public https URL, and no page cites the
  design notes that live outside it.

The site is built once per session (sphinx-build -W: any warning fails) into a temporary folder; without
Sphinx (the `docs` extra) those tests skip, except under CI=true.
"""

from __future__ import annotations

import ast
import functools
import html
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from gltf_physics.validation import CORE_CODES, RULES, Severity
from gltf_physics.validation.hints import HINTS

DOCS = ROOT / "docs"
CATALOGUE = DOCS / "rules.md"
# A code the project emits: letters, then dash-separated parts (JOINT-6, KRB-11, HINT-NO-GROUND, D-12, USD-7).
CODE = re.compile(r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$")
SEVERITY = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "info", Severity.HINT: "hint"}


@functools.cache
def code_literals() -> frozenset[str]:
    """Every string constant in src/ that is a whole code: what ``loss(...)``, ``note(...)`` and ``emit(...)``
    are called with, wherever they are (found independently of any table)."""
    found = set()
    for path in (ROOT / "src").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
                found.add(node.value)
    return frozenset(found)


def emitted_codes() -> set[str]:
    """The tables' codes and the source's code literals."""
    return set(RULES) | set(HINTS) | set(CORE_CODES) | code_literals()


def slug(heading: str) -> str:
    """The anchor GitHub and the site give a heading (lower case; spaces to dashes; other punctuation but
    ``-`` and ``_`` dropped)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def catalogue_entries() -> dict[str, str]:
    """Each ``### CODE`` heading of the catalogue and the first paragraph under it."""
    text = CATALOGUE.read_text(encoding="utf-8")
    return dict(re.findall(r"^### (\S+)\n\n(.+)$", text, flags=re.MULTILINE))


def expected_first_line(code: str) -> str | None:
    """What a table says the entry's first line is (``**warning** · A limit has …``); None for codes without a
    table (losses, decisions, reader notes)."""
    if code in RULES:
        rule = RULES[code]
        return f"**{'informative' if rule.informative else SEVERITY[rule.severity]}** · {rule.description}"
    if code in HINTS:
        return f"**{SEVERITY[HINTS[code].severity]}** · {HINTS[code].description}"
    if code in CORE_CODES:
        severity, text = CORE_CODES[code]
        return f"**{SEVERITY[Severity(severity)]}** · {text}"
    return None


def test_the_source_scan_finds_the_codes_outside_the_tables() -> None:
    # The scan is what catches a new loss or note code nobody put in a table: it must see the known ones.
    literals = code_literals()
    assert {"USD-1", "USD-13", "MJCF-1", "MJCF-8", "D-6", "D-12", "D-14", "D-15", "HINT-FAILED"} <= literals
    assert "JOINTS_0" not in literals and "UTF-8" not in literals


def test_every_emitted_code_has_a_catalogue_entry() -> None:
    entries = catalogue_entries()
    missing = sorted(emitted_codes() - set(entries))
    assert missing == [], f"codes without an entry in docs/rules.md: {missing}"


def test_catalogue_entries_restate_their_tables() -> None:
    entries = catalogue_entries()
    wrong = {code: line for code, line in entries.items()
             if (want := expected_first_line(code)) is not None and line != want}
    assert wrong == {}, "entries whose first line differs from the table (severity · text): " + repr(wrong)
    # Codes without a table still say what kind they are.
    kinds = {code: line.split("**")[1] for code, line in entries.items() if expected_first_line(code) is None}
    assert set(kinds.values()) <= {"loss", "decision", "info"}, kinds
    assert {f"D-{n}" for n in range(1, 18)} <= set(entries)  # every decision the project took


def test_every_entry_says_more_than_its_first_line() -> None:
    text = CATALOGUE.read_text(encoding="utf-8")
    blocks = re.findall(r"^### (\S+)\n\n.+\n\n(.+)$", text, flags=re.MULTILINE)
    assert len(blocks) == len(catalogue_entries())
    short = [code for code, body in blocks if len(body.split()) < 5]
    assert short == []


# --- the built site --------------------------------------------------------------------------------------------


def _sphinx() -> None:
    try:
        import myst_parser  # noqa: F401
        import sphinx  # noqa: F401
    except ImportError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the docs extra is not installed: {exc}")
        pytest.skip(f"the docs extra is not installed (pip install -e '.[docs]'): {exc}")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built strictly, as CI builds it, once per session."""
    _sphinx()
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           "-d", str(out / ".doctrees"), str(DOCS), str(out / "html")],
                          capture_output=True, text=True, timeout=600, env=env, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    return out / "html"


def _ids(page: Path) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', page.read_text(encoding="utf-8")))


def test_the_built_catalogue_has_an_anchor_for_every_code(site: Path) -> None:
    ids = _ids(site / "rules.html")
    missing = sorted(code for code in emitted_codes() if slug(code) not in ids)
    assert missing == []
    assert {"joint-6", "krb-11", "hint-no-ground", "d-12", "usd-7", "mjcf-4", "undefined_property"} <= ids


def _root_command() -> Any:
    import typer

    from gltf_physics.cli import build_app

    return typer.main.get_command(build_app())


def _commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found = []
    for name, sub in getattr(command, "commands", {}).items():
        found.append(((*path, name), sub))
        found += _commands(sub, (*path, name))
    return found


def test_the_cli_reference_lists_every_command_and_option(site: Path) -> None:
    page = html.unescape((site / "cli.html").read_text(encoding="utf-8"))
    assert "\b" not in page  # click's no-rewrap marker is markup, not text
    ids = _ids(site / "cli.html")
    commands = _commands(_root_command())
    assert {" ".join(path) for path, _ in commands} >= {"info", "validate", "convert", "simulate", "view",
                                                         "compare", "batch", "batch validate", "sweep"}
    missing = []
    for path, command in commands:
        prog = "-".join(("gltf-physics", *path))
        if prog not in ids:  # the command's section
            missing.append(" ".join(path))
        for param in command.params:
            if param.param_type_name != "option":
                if param.human_readable_name not in page:
                    missing.append(f"{' '.join(path)} {param.human_readable_name}")
                continue
            for opt in [*param.opts, *param.secondary_opts]:
                if opt == "--help":
                    continue
                anchor = f"cmdoption-{prog}-{opt.lstrip('-')}"
                if anchor not in ids:  # Sphinx's anchor for `.. option::` under `.. program::`
                    missing.append(f"{' '.join(path)} {opt}")
            if param.help and " ".join(param.help.split()[:4]) not in page:
                missing.append(f"{' '.join(path)} {param.opts[0]}: help text")
    assert missing == []


# --- links and references ------------------------------------------------------------------------------------

MD_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HTML_LINK = re.compile(r"""(?:href|src)=["']([^"']+)["']""")
RST_LINK = re.compile(r"`[^`<]*<([^>`]+)>`_")
FORBIDDEN = re.compile(r"DIGEST|DESIGN\.md|DESIGN §|\.\./shared|\bissue \d+|\bround [12]\b|/work/")


def _doc_sources() -> list[Path]:
    pages = [p for p in DOCS.rglob("*") if p.suffix in (".md", ".rst") and "_build" not in p.parts]
    return [ROOT / "README.md", *sorted(pages)]


def _links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # code blocks hold commands, not links
    return MD_LINK.findall(text) + HTML_LINK.findall(text) + RST_LINK.findall(text)


def _anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.MULTILINE)}


def test_links_stay_in_the_repository_or_go_to_public_https() -> None:
    bad = []
    for source in _doc_sources():
        for target in _links(source):
            if target.startswith("https://"):
                continue
            where, _, anchor = target.partition("#")
            dest = (source.parent / where).resolve() if where else source
            if not dest.is_relative_to(ROOT) or not dest.exists():
                bad.append(f"{source.relative_to(ROOT)}: {target}")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                bad.append(f"{source.relative_to(ROOT)}: {target} (no such heading)")
    assert bad == []


def test_pages_speak_of_the_project_alone() -> None:
    cited = {str(p.relative_to(ROOT)): FORBIDDEN.findall(p.read_text(encoding="utf-8")) for p in _doc_sources()}
    assert {page: found for page, found in cited.items() if found} == {}


def test_the_link_check_catches_what_it_must(tmp_path: Path) -> None:
    # The checks above are not vacuous: links of each form are found (code blocks aside), forbidden words seen.
    sample = tmp_path / "page.md"
    sample.write_text("[a](../shared/DESIGN.md) <a href=\"x.md\">b</a> `c <https://rapier.rs>`_\n"
                      "```\n[d](e.md)\n```\n![i](view.png)\n", encoding="utf-8")
    assert _links(sample) == ["../shared/DESIGN.md", "view.png", "x.md", "https://rapier.rs"]
    assert FORBIDDEN.findall("see DIGEST §11, issue 10 and round 2") == ["DIGEST", "issue 10", "round 2"]
    assert slug("JOINT-6") == "joint-6" and slug("UNDEFINED_PROPERTY") == "undefined_property"


def test_repository_files_the_pages_name_exist() -> None:
    # Sources, not the outputs a page tells a command to write (`examples/tumbling_boxes.html`).
    named = re.compile(r"`((?:tests|bench|tools|examples|viewer|docs)/[\w./-]+\.(?:py|gltf|glb|md|rst|js))`")
    missing = [f"{source.relative_to(ROOT)}: {path}" for source in _doc_sources()
               for path in named.findall(source.read_text(encoding="utf-8")) if not (ROOT / path).exists()]
    assert missing == []
    assert named.findall("see `bench/semantics.py` and `tests/test_docs.py`") == ["bench/semantics.py",
                                                                                  "tests/test_docs.py"]
