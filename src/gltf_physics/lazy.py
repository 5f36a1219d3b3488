"""Package attributes imported on first use (PEP 562), so that importing a package stays cheap.

Start-up is budgeted (`info` on a small file ≤ 0.25 s CPU): a package that re-exports everything
would load numpy for `--help`, or make classes a document never uses (a frozen dataclass costs ~1.5 ms CPU to
make on Python 3.11, which compiles each generated method).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any


def exports(package: str, where: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``name`` comes from its submodule ``where[name]``, imported when
    first asked for and then kept as a plain attribute of the package."""

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{where[name]}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


def listing(package: str, names: list[str]) -> Callable[[], list[str]]:
    """A module ``__dir__`` for ``package``: its public ``names`` (lazy or not, imported yet or not) and whatever
    the module already holds, so ``dir()`` and tab completion show the API before first use."""

    def __dir__() -> list[str]:
        held = vars(sys.modules[package]).items()
        return sorted({*names, *(n for n, v in held if n.startswith("__") or isinstance(v, ModuleType))})

    return __dir__
