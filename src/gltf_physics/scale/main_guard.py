"""The ``if __name__ == "__main__":`` guard a script needs around ``gp.batch`` / ``gp.sweep``.

A local cluster starts its worker processes with multiprocessing's *spawn* method, and each new process re-runs
the script that started it (as ``__mp_main__``) before it can work. A call at the script's top level without the
guard runs again in every worker, which Python stops with two screens of tracebacks from inside Dask. Here the
situation is recognised before any process starts, by the same rule multiprocessing uses to decide what a new
process re-runs, and said in one error.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from types import FrameType

MESSAGE = ('gp.batch and gp.sweep start worker processes that each re-run {script} from the top: put the call '
           '(line {line}) under if __name__ == "__main__":')


class MissingMainGuard(RuntimeError):
    """A script started a local cluster from its top level without ``if __name__ == "__main__":``."""


def check_main_guard() -> None:
    """Raise :class:`MissingMainGuard` when starting worker processes now would re-run the caller's script."""
    import multiprocessing

    if getattr(multiprocessing.current_process(), "_inheriting", False):  # a worker re-running the script
        raise MissingMainGuard(MESSAGE.format(script="the script", line="?"))
    main = sys.modules.get("__main__")
    script = _rerun_file(main)
    frame = _top_level_frame(main)
    if script is None or frame is None:
        return
    if not _guarded(script, frame.f_lineno):
        raise MissingMainGuard(MESSAGE.format(script=script.name, line=frame.f_lineno))


def _rerun_file(main: object) -> Path | None:
    """The file a spawned process re-runs as ``__mp_main__``, or None (interactive, ``-c``, ``-m package``)."""
    spec = getattr(main, "__spec__", None)
    name = getattr(spec, "name", None)
    if name is not None and (name == "__main__" or name.endswith(".__main__")):
        return None  # multiprocessing does not re-run a package's __main__ module
    file = getattr(main, "__file__", None)
    return Path(file) if isinstance(file, str) else None  # an entry-point script has no .py: re-run all the same


def _top_level_frame(main: object) -> FrameType | None:
    """The frame running the main script's top-level code, if the call comes from it."""
    frame: FrameType | None = sys._getframe(1)
    found = None
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals is getattr(main, "__dict__", None):
            found = frame
        frame = frame.f_back
    return found


def _guarded(script: Path, line: int) -> bool:
    """Whether ``line`` of ``script`` lies inside a top-level ``if __name__ == "__main__":`` block (or the file
    cannot be read, when nothing is said)."""
    try:
        tree = ast.parse(script.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return True
    for node in tree.body:
        if isinstance(node, ast.If) and _is_main_test(node.test):
            last = node.body[-1].end_lineno or node.body[-1].lineno
            if node.body[0].lineno <= line <= last:
                return True
    return False


def _is_main_test(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    constants = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and constants == ["__main__"]
