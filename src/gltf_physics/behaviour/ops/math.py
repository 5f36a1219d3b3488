"""The scalar ``math/*`` operations: constants, arithmetic, comparisons, special, trigonometry, exponentials,
integer and boolean operations — component-wise over vectors and matrices, with the specification's numeric
semantics (IEEE doubles: NaN in → NaN out, division by zero gives ±inf; int32 wrap-around; integer division and
remainder by zero give 0). The vector, matrix and quaternion operations are in ``linalg.py``.

One operation name serves several types (``math/add`` on float, floatN, floatNxN and int): the value's Python type
picks the implementation at run time (a tuple is component-wise, an int is the int32 variant).
"""

from __future__ import annotations

import math as m
import random
from collections.abc import Callable
from typing import Any

from ..values import Mat, whole, wrap32
from .color import TABLE as COLOR
from .linalg import TABLE as LINALG
from .spec import OpSpec, table

INF, NAN = m.inf, m.nan


# ----- scalar float functions with IEEE results where Python's math raises -----------------------------------
def _guard(fn: Callable[[float], float], domain: Callable[[float], float]) -> Callable[[float], float]:
    def safe(x: float) -> float:
        try:
            return fn(x)
        except (ValueError, OverflowError):
            return domain(x)
    return safe


def _guard2(fn: Callable[[float, float], float]) -> Callable[[float, float], float]:
    def safe(a: float, b: float) -> float:
        try:
            return fn(a, b)
        except (ValueError, OverflowError):
            return NAN
    return safe


def _round(x: float) -> float:
    if not m.isfinite(x):
        return x
    return -float(m.floor(-x + 0.5)) if x < 0 else float(m.floor(x + 0.5))


def _integral(fn: Callable[[float], int]) -> Callable[[float], float]:
    def op(x: float) -> float:
        return x if not m.isfinite(x) else m.copysign(float(fn(x)), x) if fn(x) == 0 else float(fn(x))
    return op


def _log(base: Callable[[float], float]) -> Callable[[float], float]:
    def op(x: float) -> float:
        if x != x or x < 0:
            return NAN
        if x == 0:
            return -INF
        return INF if x == INF else base(x)
    return op


def _sqrt(x: float) -> float:
    return NAN if x < 0 else m.sqrt(x) if x == x else NAN


def _cbrt(x: float) -> float:
    return m.copysign(abs(x) ** (1.0 / 3.0), x) if m.isfinite(x) and x != 0 else x


def _pow(a: float, b: float) -> float:
    try:
        return m.pow(a, b)
    except OverflowError:
        return INF if a > 0 or (float(b).is_integer() and b % 2 == 0) else -INF
    except ValueError:
        if a == 0:
            return m.copysign(INF, a) if b % 2 == 1 else INF
        return NAN


def _div(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:
        if a != a or a == 0:
            return NAN
        return m.copysign(INF, a) * m.copysign(1.0, b)


def _rem(a: float, b: float) -> float:
    if m.isinf(a) or b == 0 or a != a or b != b:
        return NAN
    if m.isinf(b):
        return a
    return m.fmod(a, b)


def _min(a: float, b: float) -> float:
    if a != a or b != b:
        return NAN
    if a == b == 0:
        return a if m.copysign(1.0, a) < 0 else b
    return a if a < b else b


def _max(a: float, b: float) -> float:
    if a != a or b != b:
        return NAN
    if a == b == 0:
        return a if m.copysign(1.0, a) > 0 else b
    return a if a > b else b


ieee_min, ieee_max = _min, _max  # the float min/max with the specification's NaN and signed-zero rules (fuse.py)


def _sign(a: float) -> float:
    return -1.0 if a < 0 else 1.0 if a > 0 else a


def _fract(a: float) -> float:
    return a - m.floor(a) if m.isfinite(a) else NAN


def _smooth(a: float, b: float, c: float) -> float:
    t = _min(_max(_div(c - _min(a, b), abs(b - a)), 0.0), 1.0)
    return t * t * (3 - 2 * t)


# ----- integer variants (int32) ----------------------------------------------------------------------------
def _idiv(a: int, b: int) -> int:
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return wrap32(q if (a < 0) == (b < 0) else -q)


def _irem(a: int, b: int) -> int:
    if b == 0:
        return 0
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def _clz(a: int) -> int:
    return 32 - (a & 0xFFFFFFFF).bit_length()


def _ctz(a: int) -> int:
    a &= 0xFFFFFFFF
    return 32 if a == 0 else (a & -a).bit_length() - 1


# ----- lifting scalar functions to sockets -----------------------------------------------------------------
# Each lifted ``value(rt, node)`` carries ``value.bind(rt, node)``: the same computation as a closure over the
# node's compiled input readers (GraphRunner._compile), so a read runs no socket lookup. ``bind`` gives None when
# an input is missing: the unbound form then reports it.
def _readers(node: Any, *sockets: str) -> list[Callable[[], Any]] | None:
    found = [node.read.get(s) for s in sockets]
    return None if None in found else found  # type: ignore[return-value]


def _lift1(fn: Callable[[Any], Any], ifn: Callable[[int], int] | None = None) -> Callable[[Any, Any], Any]:
    def apply(a: Any) -> Any:
        if a.__class__ is float:
            return fn(a)
        if a.__class__ is int and ifn is not None:
            return ifn(a)
        if isinstance(a, tuple):
            out = tuple(fn(x) for x in a)
            return Mat(out) if isinstance(a, Mat) else out
        return fn(float(a))

    def value(rt: Any, node: Any) -> Any:
        return apply(rt.get(node, "a"))

    def bind(rt: Any, node: Any) -> Callable[[], Any] | None:
        found = _readers(node, "a")
        if found is None:
            return None
        (ra,) = found
        return lambda: apply(ra())
    value.bind = bind  # type: ignore[attr-defined]
    value.scalar = fn  # type: ignore[attr-defined]  # the float form, for fused chains (behaviour/fuse.py)
    return value


def _lift2(fn: Callable[[Any, Any], Any], ifn: Callable[[int, int], int] | None = None) -> Callable[[Any, Any], Any]:
    def apply(a: Any, b: Any) -> Any:
        if a.__class__ is float:
            return fn(a, b)
        if a.__class__ is int and ifn is not None:
            return ifn(a, b)
        if isinstance(a, tuple):
            out = tuple(fn(x, y) for x, y in zip(a, b, strict=True))
            return Mat(out) if isinstance(a, Mat) else out
        return fn(a, b)

    def value(rt: Any, node: Any) -> Any:
        get = rt.get
        return apply(get(node, "a"), get(node, "b"))

    def bind(rt: Any, node: Any) -> Callable[[], Any] | None:
        found = _readers(node, "a", "b")
        if found is None:
            return None
        ra, rb = found

        def thunk() -> Any:
            a, b = ra(), rb()
            if a.__class__ is float:
                return fn(a, b)
            return apply(a, b)
        return thunk
    value.bind = bind  # type: ignore[attr-defined]
    value.scalar = fn  # type: ignore[attr-defined]  # the float form, for fused chains (behaviour/fuse.py)
    return value


def _lift3(fn: Callable[[Any, Any, Any], Any], ifn: Any = None) -> Callable[[Any, Any], Any]:
    def apply(a: Any, b: Any, c: Any) -> Any:
        if a.__class__ is int and ifn is not None:
            return ifn(a, b, c)
        if isinstance(a, tuple):
            cs = c if isinstance(c, tuple) else (c,) * len(a)
            out = tuple(fn(x, y, z) for x, y, z in zip(a, b, cs, strict=True))
            return Mat(out) if isinstance(a, Mat) else out
        return fn(a, b, c)

    def value(rt: Any, node: Any) -> Any:
        return apply(rt.get(node, "a"), rt.get(node, "b"), rt.get(node, "c"))

    def bind(rt: Any, node: Any) -> Callable[[], Any] | None:
        found = _readers(node, "a", "b", "c")
        if found is None:
            return None
        ra, rb, rc = found
        return lambda: apply(ra(), rb(), rc())
    value.bind = bind  # type: ignore[attr-defined]
    value.scalar = fn  # type: ignore[attr-defined]  # the float form, for fused chains (behaviour/fuse.py)
    return value


def _compare(fn: Callable[[Any, Any], bool]) -> Callable[[Any, Any], Any]:
    def value(rt: Any, node: Any) -> Any:
        return fn(rt.get(node, "a"), rt.get(node, "b"))

    def bind(rt: Any, node: Any) -> Callable[[], Any] | None:
        found = _readers(node, "a", "b")
        if found is None:
            return None
        ra, rb = found
        return lambda: fn(ra(), rb())
    value.bind = bind  # type: ignore[attr-defined]
    return value


def _eq(a: Any, b: Any) -> bool:
    return a == b  # tuples compare component-wise; NaN != NaN and -0.0 == 0.0 as the specification asks



def _select(rt: Any, node: Any) -> dict[str, Any]:
    return {"value": rt.get(node, "a" if rt.get(node, "condition") else "b")}


def _switch(rt: Any, node: Any) -> dict[str, Any]:
    key = str(rt.get(node, "selection"))
    cases = node.config.get("cases")
    ok = isinstance(cases, list) and all(whole(c) is not None for c in cases)
    if ok and key in {str(whole(c)) for c in cases} and rt.has_input(node, key):  # type: ignore[union-attr]
        return {"value": rt.get(node, key)}
    return {"value": rt.get(node, "default")}


def _switch_sockets(graph: Any, node: Any) -> Any:
    cases = node.configuration.get("cases")
    names = [str(n) for c in cases if (n := whole(c)) is not None] if isinstance(cases, list) else []
    return {"selection": "int", "default": "T", **{n: "T" for n in names}}, {"value": "T"}, (), ()


def _random(rt: Any, node: Any) -> dict[str, Any]:
    # one value per flow activation: two reads with no activation between them agree
    state = node.state
    if state.get("epoch") != rt.epoch or "value" not in state:
        state["epoch"], state["value"] = rt.epoch, {"value": random.random()}
    return state["value"]


def _unary(name: str, fn: Callable[[Any], Any], ifn: Any = None) -> OpSpec:
    t = "NI" if ifn is not None else "N"  # NI: the float types or int (the int32 variant)
    return OpSpec(name, {"a": t}, {"value": t}, value=_lift1(fn, ifn))


def _binary(name: str, fn: Callable[[Any, Any], Any], ifn: Any = None) -> OpSpec:
    t = "NI" if ifn is not None else "N"
    return OpSpec(name, {"a": t, "b": t}, {"value": t}, value=_lift2(fn, ifn))


def _constant(name: str, value: float) -> OpSpec:
    return OpSpec(name, {}, {"value": "float"}, value=lambda rt, node: value)


_FLOAT_UNARY: dict[str, Callable[[float], float]] = {
    "math/trunc": _integral(m.trunc), "math/floor": _integral(m.floor), "math/ceil": _integral(m.ceil),
    "math/round": _round, "math/fract": _fract, "math/saturate": lambda a: _min(_max(a, 0.0), 1.0),
    "math/rad": lambda a: a * (m.pi / 180), "math/deg": lambda a: a * (180 / m.pi),
    "math/sin": _guard(m.sin, lambda x: NAN), "math/cos": _guard(m.cos, lambda x: NAN),
    "math/tan": _guard(m.tan, lambda x: NAN), "math/asin": _guard(m.asin, lambda x: NAN),
    "math/acos": _guard(m.acos, lambda x: NAN), "math/atan": m.atan,
    "math/sinh": _guard(m.sinh, lambda x: m.copysign(INF, x)), "math/cosh": _guard(m.cosh, lambda x: INF),
    "math/tanh": m.tanh, "math/asinh": m.asinh, "math/acosh": _guard(m.acosh, lambda x: NAN),
    "math/atanh": _guard(m.atanh, lambda x: m.copysign(INF, x) if abs(x) == 1 else NAN),
    "math/exp": _guard(m.exp, lambda x: INF), "math/log": _log(m.log), "math/log2": _log(m.log2),
    "math/log10": _log(m.log10), "math/sqrt": _sqrt, "math/cbrt": _cbrt,
}

TABLE = table(
    _constant("math/E", m.e), _constant("math/Pi", m.pi), _constant("math/Tau", m.tau),
    _constant("math/Inf", INF), _constant("math/NaN", NAN),
    _unary("math/abs", abs, lambda a: wrap32(abs(a))),
    _unary("math/sign", _sign, lambda a: (a > 0) - (a < 0)),
    _unary("math/neg", lambda a: -a, lambda a: wrap32(-a)),
    *(_unary(name, fn) for name, fn in _FLOAT_UNARY.items()),
    _binary("math/add", lambda a, b: a + b, lambda a, b: wrap32(a + b)),
    _binary("math/sub", lambda a, b: a - b, lambda a, b: wrap32(a - b)),
    _binary("math/mul", lambda a, b: a * b, lambda a, b: wrap32(a * b)),
    _binary("math/div", _div, _idiv), _binary("math/rem", _rem, _irem),
    _binary("math/min", _min, min), _binary("math/max", _max, max),
    _binary("math/atan2", _guard2(m.atan2)), _binary("math/pow", _pow),
    OpSpec("math/clamp", {"a": "NI", "b": "NI", "c": "NI"}, {"value": "NI"},
           value=_lift3(lambda a, b, c: _min(_max(a, _min(b, c)), _max(b, c)),
                          lambda a, b, c: min(max(a, min(b, c)), max(b, c)))),
    OpSpec("math/mix", {"a": "N", "b": "N", "c": "N"}, {"value": "N"},
           value=_lift3(lambda a, b, c: (1 - c) * a + c * b)),
    OpSpec("math/smoothStep", {"a": "N", "b": "N", "c": "N"}, {"value": "N"}, value=_lift3(_smooth)),
    OpSpec("math/eq", {"a": "T", "b": "T"}, {"value": "bool"}, value=_compare(_eq)),
    OpSpec("math/lt", {"a": "S", "b": "S"}, {"value": "bool"}, value=_compare(lambda a, b: a < b)),
    OpSpec("math/le", {"a": "S", "b": "S"}, {"value": "bool"}, value=_compare(lambda a, b: a <= b)),
    OpSpec("math/gt", {"a": "S", "b": "S"}, {"value": "bool"}, value=_compare(lambda a, b: a > b)),
    OpSpec("math/ge", {"a": "S", "b": "S"}, {"value": "bool"}, value=_compare(lambda a, b: a >= b)),
    OpSpec("math/isNaN", {"a": "float"}, {"value": "bool"}, value=lambda rt, n: m.isnan(rt.get(n, "a"))),
    OpSpec("math/isInf", {"a": "float"}, {"value": "bool"}, value=lambda rt, n: m.isinf(rt.get(n, "a"))),
    OpSpec("math/select", {"condition": "bool", "a": "T", "b": "T"}, {"value": "T"}, compute=_select),
    OpSpec("math/switch", {"selection": "int", "default": "T"}, {"value": "T"}, config={"cases": "int[]"},
           compute=_switch, sockets=_switch_sockets),
    OpSpec("math/random", {}, {"value": "float"}, compute=_random),
    # integer bitwise (bool variants of not/and/or/xor share the names)
    OpSpec("math/not", {"a": "B"}, {"value": "B"},
           value=lambda rt, n: (lambda a: not a if a.__class__ is bool else ~a)(rt.get(n, "a"))),
    OpSpec("math/and", {"a": "B", "b": "B"}, {"value": "B"},
           value=lambda rt, n: rt.get(n, "a") & rt.get(n, "b")),
    OpSpec("math/or", {"a": "B", "b": "B"}, {"value": "B"},
           value=lambda rt, n: rt.get(n, "a") | rt.get(n, "b")),
    OpSpec("math/xor", {"a": "B", "b": "B"}, {"value": "B"},
           value=lambda rt, n: rt.get(n, "a") ^ rt.get(n, "b")),
    OpSpec("math/asr", {"a": "int", "b": "int"}, {"value": "int"},
           value=lambda rt, n: rt.get(n, "a") >> (rt.get(n, "b") & 31)),
    OpSpec("math/lsl", {"a": "int", "b": "int"}, {"value": "int"},
           value=lambda rt, n: wrap32(rt.get(n, "a") << (rt.get(n, "b") & 31))),
    OpSpec("math/clz", {"a": "int"}, {"value": "int"}, value=lambda rt, n: _clz(rt.get(n, "a"))),
    OpSpec("math/ctz", {"a": "int"}, {"value": "int"}, value=lambda rt, n: _ctz(rt.get(n, "a"))),
    OpSpec("math/popcnt", {"a": "int"}, {"value": "int"},
           value=lambda rt, n: bin(rt.get(n, "a") & 0xFFFFFFFF).count("1")),
    OpSpec("ref/eq", {"a": "ref", "b": "ref"}, {"value": "bool"},
           value=lambda rt, n: rt.get(n, "a") == rt.get(n, "b")),
)
TABLE.update(LINALG)
TABLE.update(COLOR)
