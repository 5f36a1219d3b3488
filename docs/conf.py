"""Sphinx configuration of the gltf-physics documentation (built with `sphinx-build -W --keep-going -b html docs
docs/_build/html`; warnings are errors)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# The checkout's own package (not whatever is installed) and the site's extensions.
sys.path[:0] = [str(HERE.parent / "src"), str(HERE / "_ext")]

import gltf_physics  # noqa: E402

project = "gltf-physics"
author = "the gltf-physics authors"
copyright = "the gltf-physics authors"
release = version = gltf_physics.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "cli_reference",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
# The README's viewer pictures live here too; pages use them, the build copies them.
myst_enable_extensions = ["colon_fence", "deflist"]
# Headings get the slugs GitHub gives them, so `rules.md#joint-6` works on the forge and in the site alike.
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# A CLI reference must print `--duration` as typed, not with an en dash.
smartquotes = False

html_theme = "furo"
html_title = f"gltf-physics {release}"
html_static_path: list[str] = []
html_show_sourcelink = False

_LITERAL = re.compile(r"(``.*?``)")


def _plain_bars(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Docstrings write magnitudes as ``|value|`` (plain text for ``help()``); outside literals that is not a
    reStructuredText substitution."""
    for i, line in enumerate(lines):
        parts = _LITERAL.split(line)
        lines[i] = "".join(p if p.startswith("``") else p.replace("|", r"\|") for p in parts)


def setup(app: Any) -> None:
    """Hooks of this site."""
    app.connect("autodoc-process-docstring", _plain_bars)
