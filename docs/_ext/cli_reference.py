"""The command-line reference, generated at build time from the commands themselves (so it cannot drift).

The directive ``cli-reference`` walks the typer application of ``gltf_physics.cli`` (every command and every
subcommand of a group), and writes for each: its help text, its usage line, and every argument and option with
the help, type and default that ``--help`` shows. Options become Sphinx ``option`` entries under a ``program``
(``gltf-physics simulate``), so other pages can link them with ``{option}`` roles and each has an anchor.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

PROG = "gltf-physics"
_RST_SPECIAL = re.compile(r"([\\`*_|\[\]<>:])")


def escape(text: str) -> str:
    """``text`` as literal reStructuredText: every character that could start markup is backslash-escaped."""
    return _RST_SPECIAL.sub(r"\\\1", text)


def root_command() -> Any:
    """The click command behind ``gltf-physics`` with every command registered."""
    import typer

    from gltf_physics.cli import build_app

    return typer.main.get_command(build_app())


def walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command below ``command`` as (name path, command), groups before their subcommands, in the order
    ``--help`` lists them."""
    for name in command.list_commands(make_context(command, path)) if hasattr(command, "list_commands") else ():
        sub = command.get_command(make_context(command, path), name)
        if sub is None or getattr(sub, "hidden", False):
            continue
        yield (*path, name), sub
        yield from walk(sub, (*path, name))


def make_context(command: Any, path: tuple[str, ...]) -> Any:
    """A click context for ``command`` (needed for usage lines, metavars and help records)."""
    return command.context_class(command, info_name=" ".join((PROG, *path)), resilient_parsing=True)


def parameters(command: Any, ctx: Any) -> list[dict[str, Any]]:
    """Each visible parameter of ``command``: kind, names, how ``--help`` spells it, its help (with the type,
    default and ``[required]`` that ``--help`` adds)."""
    out = []
    for param in command.get_params(ctx):
        if getattr(param, "hidden", False) or "--help" in param.opts:
            continue
        record = param.get_help_record(ctx) or (param.make_metavar(ctx), "")
        out.append({
            "option": param.param_type_name == "option",
            "names": [*param.opts, *param.secondary_opts],
            "spelled": record[0],  # as `--help` spells it: "-o, --output PATH", "--gravity X Y Z", "IN"
            "help": record[1],
            "required": param.required,
        })
    return out


def command_rst(path: tuple[str, ...], command: Any) -> list[str]:
    """The reStructuredText of one command: a section with its help, usage and parameters."""
    ctx = make_context(command, path[:-1])
    ctx.info_name = path[-1]
    full = " ".join((PROG, *path))
    title = f"``{full}``"
    lines = [title, "-" * len(title), ""]
    # "\b" is click's "do not rewrap the next paragraph" marker, not text.
    text = (command.help or "").replace("\b", "").strip()
    for line in text.splitlines():
        if line.startswith("Example: "):  # a command line: shown as one, to copy
            lines += ["Example:", "", ".. code-block:: console", "", f"   $ {line.removeprefix('Example: ')}", ""]
        else:
            lines.append(escape(line))
    lines.append("")
    usage = " ".join([full, *command.collect_usage_pieces(ctx)])
    lines += ["Usage::", "", f"   {usage}", ""]
    params = parameters(command, ctx)
    if not params:
        return lines
    lines += [f".. program:: {full}", ""]
    for p in params:
        if p["option"]:  # "--strict / --no-strict": one entry (and anchor) per spelling
            lines.append(f".. option:: {p['spelled'].replace(' / ', ', ')}")
        else:
            lines.append(f".. describe:: {p['spelled']}")
        lines.append("")
        text = p["help"] or ("Required." if p["required"] else "")
        lines += [f"   {escape(line)}" for line in text.splitlines()] or ["   "]
        lines.append("")
    return lines


class CliReference(SphinxDirective):
    """``.. cli-reference::`` — every command of ``gltf-physics``, generated from the typer app."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        root = root_command()
        lines: list[str] = []
        for path, command in walk(root):
            lines += command_rst(path, command)
        node = nodes.section()
        node.document = self.state.document
        self.state.nested_parse(StringList(lines, source="cli_reference"), self.content_offset, node,
                                match_titles=True)
        return node.children


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive."""
    app.add_directive("cli-reference", CliReference)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
