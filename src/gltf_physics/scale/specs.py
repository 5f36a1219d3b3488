"""Sweep parameter specs: parsing ``uniform(a,b)``, ``normal(mu,sigma)``, ``choice(v1,…)``, ``grid(a,b,n)``,
constants and vectors of them (``[uniform(0,5),2,0]``), and drawing each run's values.

Every run's values are a function of (seed, run index) alone — a generator seeded with both, drawing the
random specs in the order given — and grid points come from the run index, so a sweep is the same whatever
the number of workers or the order they finish in. Grid specs combine as a product (the first grid varies
slowest); run ``r`` takes grid point ``r mod G``.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Any

import numpy as np


class SpecError(ValueError):
    """A SPEC that does not parse, or has bad bounds."""


@dataclass(frozen=True)
class Spec:
    """One scalar (or whole-value ``choice``/constant) spec: ``kind`` in const, uniform, normal, choice, grid."""

    kind: str
    args: tuple[Any, ...]

    def grid_values(self) -> list[float]:
        a, b, n = self.args
        return [float(v) for v in np.linspace(a, b, int(n))]


Value = Spec | list[Spec]  # a list: a vector, one spec per component


def parse(text: str) -> Value:
    """Parse a SPEC; SpecError naming it when it does not parse."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
        return _value(node, top=True)
    except (SyntaxError, ValueError) as e:
        raise SpecError(f"{text!r}: {e}" if isinstance(e, SpecError) else
                        f"{text!r}: expected uniform(a,b), normal(mu,sigma), choice(v1,...), grid(a,b,n), a "
                        "number or a list of these") from None


def _value(node: ast.expr, top: bool) -> Value:
    if isinstance(node, ast.List) and top:
        return [_scalar(item) for item in node.elts]
    return _scalar(node)


def _scalar(node: ast.expr) -> Spec:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        args = tuple(_literal(a) for a in node.args)
        return _call(node.func.id, args)
    return Spec("const", (_literal(node),))


def _call(name: str, args: tuple[Any, ...]) -> Spec:
    numbers = all(isinstance(a, int | float) and not isinstance(a, bool) and math.isfinite(a) for a in args)
    if name in ("uniform", "normal") and (len(args) != 2 or not numbers):
        raise SpecError(f"{name} takes two finite numbers")
    if name == "uniform" and args[0] > args[1]:
        raise SpecError("uniform(a,b) needs a ≤ b")
    if name == "normal" and args[1] < 0:
        raise SpecError("normal(mu,sigma) needs sigma ≥ 0")
    if name == "grid" and not (len(args) == 3 and numbers and isinstance(args[2], int) and args[2] >= 1):
        raise SpecError("grid(a,b,n) takes two finite numbers and a whole n ≥ 1")
    if name == "choice" and not args:
        raise SpecError("choice needs at least one value")
    if name not in ("uniform", "normal", "grid", "choice"):
        raise SpecError(f"unknown spec {name}()")
    return Spec(name, args)


def _literal(node: ast.expr) -> Any:
    """A JSON-like literal: numbers (signed), true/false/null, strings, lists of these."""
    if isinstance(node, ast.Name) and node.id in ("true", "false", "null", "True", "False", "None"):
        return {"true": True, "True": True, "false": False, "False": False}.get(node.id)
    if isinstance(node, ast.List):
        return [_literal(e) for e in node.elts]
    value = ast.literal_eval(node)  # numbers, -numbers, strings; anything else raises ValueError
    if not isinstance(value, int | float | str) or (isinstance(value, float) and not math.isfinite(value)):
        raise ValueError("not a JSON value")
    return value


@dataclass(frozen=True)
class Plan:
    """The varied pointers (in order), their specs, the grid size and the run count."""

    pointers: list[str]
    specs: list[Value]
    runs: int

    @property
    def grids(self) -> list[Spec]:
        return [s for s in _components(self.specs) if s.kind == "grid"]

    def values(self, seed: int, run: int) -> dict[str, Any]:
        """Run ``run``'s value of every pointer."""
        rng = np.random.default_rng([seed, run])
        point = iter(_grid_point(self.grids, run))
        out: dict[str, Any] = {}
        for pointer, spec in zip(self.pointers, self.specs, strict=True):
            if isinstance(spec, list):
                out[pointer] = [_draw(s, rng, point) for s in spec]
            else:
                out[pointer] = _draw(spec, rng, point)
        return out


def plan(vary: dict[str, Any], runs: int | None) -> Plan:
    """A plan from {pointer: SPEC text, number or list}; ``runs`` defaults to the grid size (1 without grids)."""
    specs = [parse(v) if isinstance(v, str) else _value(ast.parse(repr(v), mode="eval").body, top=True)
             for v in vary.values()]
    size = math.prod(int(s.args[2]) for s in _components(specs) if s.kind == "grid")
    count = size if runs is None else runs
    if count < 1:
        raise SpecError("--runs must be ≥ 1")
    return Plan(list(vary), specs, count)


def _components(specs: list[Value]) -> list[Spec]:
    return [c for s in specs for c in (s if isinstance(s, list) else [s])]


def _grid_point(grids: list[Spec], run: int) -> list[float]:
    sizes = [int(g.args[2]) for g in grids]
    index = run % math.prod(sizes) if sizes else 0
    point = []
    for grid, n in zip(reversed(grids), reversed(sizes), strict=True):  # the last grid varies fastest
        index, k = divmod(index, n)
        point.append(grid.grid_values()[k])
    return point[::-1]


def _draw(spec: Spec, rng: np.random.Generator, grid_point: Any) -> Any:
    if spec.kind == "uniform":
        return float(rng.uniform(*spec.args))
    if spec.kind == "normal":
        return float(rng.normal(*spec.args))
    if spec.kind == "choice":
        return spec.args[int(rng.integers(len(spec.args)))]
    if spec.kind == "grid":
        return next(grid_point)
    return spec.args[0]
