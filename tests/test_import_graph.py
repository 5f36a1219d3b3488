"""The package's import graph has no circles.

Every module under ``src/gltf_physics`` is parsed (``ast``, nothing imported) and each import statement becomes an
edge to the module it names: absolute or relative, ``from . import sub`` to the submodule, ``from .mod import
name`` to ``mod`` (and to ``mod.name`` when that is a module). An import is *module-level* when it runs with the
module — a top-level statement, or one under a top-level ``if``/``try`` (``if TYPE_CHECKING:`` included: a type
checker follows it) — and *function-level* when it sits in a function or method body, run on use. A circle is
the usual one: module-level edges only (a function-level import is how a module defers a dependency, and it
runs after both modules exist). Function-level edges that close a circle are counted apart and pinned.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "gltf_physics"
ROOT = Path(__file__).resolve().parents[1] / "src" / PACKAGE


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _resolve(importer: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The package modules ``node`` (in module ``importer``) imports."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
        return {_nearest(n) for n in names if n == PACKAGE or n.startswith(PACKAGE + ".")} - {None}  # type: ignore[misc]
    if node.level:
        base = importer.split(".") if _is_package(importer) else importer.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    if not (target == PACKAGE or target.startswith(PACKAGE + ".")):
        return set()
    out = {t for t in (f"{target}.{a.name}" for a in node.names) if t in MODULES}
    if target in MODULES and (not out or any(f"{target}.{a.name}" not in MODULES for a in node.names)):
        out.add(target)
    nearest = _nearest(target)
    if not out and nearest is not None:
        out.add(nearest)
    return out


def _nearest(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _edges() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(module-level, function-level) edges of every module."""
    top: dict[str, set[str]] = {m: set() for m in MODULES}
    deferred: dict[str, set[str]] = {m: set() for m in MODULES}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        _walk(name, tree.body, top[name], deferred[name], in_function=False)
    return top, deferred


def _walk(name: str, body: list[ast.stmt], top: set[str], deferred: set[str], in_function: bool) -> None:
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            (deferred if in_function else top).update(_resolve(name, stmt) - {name})
            continue
        inner = in_function or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.stmt):
                _walk(name, [child], top, deferred, inner)
            elif hasattr(child, "body") and isinstance(child.body, list):
                _walk(name, child.body, top, deferred, inner)  # except handlers, match cases


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph)))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def test_the_walk_sees_the_package_and_its_imports() -> None:
    top, deferred = _edges()
    assert len(MODULES) > 200 and f"{PACKAGE}.sim.trace" in MODULES
    # Spot checks against the source, one per import form.
    assert f"{PACKAGE}.sim.trace_writers" in top[f"{PACKAGE}.sim.trace"]  # from .trace_writers import …
    assert f"{PACKAGE}.gltf.errors" in top[f"{PACKAGE}.geometry.limits"]  # from ..gltf.errors import …
    assert f"{PACKAGE}.dialects.common.emit" in top[f"{PACKAGE}.dialects.registry"]  # under if TYPE_CHECKING
    assert f"{PACKAGE}.sim.preflight" in deferred[f"{PACKAGE}.cli.simulate"]  # in say_hints' body
    assert f"{PACKAGE}.geometry.limits" in deferred[f"{PACKAGE}.sim.errors"]


def test_a_circle_is_found_when_there_is_one() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_level_import_circle() -> None:
    top, _ = _edges()
    assert _cycles(top) == []


def test_function_level_imports_close_no_circle_either() -> None:
    top, deferred = _edges()
    both = {m: top[m] | deferred[m] for m in MODULES}
    assert _cycles(both) == []
