"""A ``flow/for`` whose body NumPy can run for every index at once, with the scalar loop's exact results.

The body qualifies when its flow chain is ``variable/set`` and ``flow/branch`` nodes only, and every value they
read is a chain of pure nodes this module knows: constants, the loop's ``index``, other flow nodes' kept outputs,
``variable/get`` of a variable the body does not write, ``pointer/get`` of ``/nodes/[i]/translation`` or
``rotation`` (the host reads every index at once: :meth:`WorldHost.trs_many`), ``math/extract3``/``extract4``,
``math/add``/``sub``/``mul`` on two floats or two ints (int32 wrap-around) and ``math/lt``/``le``/``gt``/``ge``.
A ``variable/set`` writes either ``v := v + E(i)`` (an accumulator: floats added one after the other in index
order, ints summed then wrapped — wrap-around commutes with addition) or ``v := E(i)`` (the last index wins). A
branch must go the same way for every index. Anything else — a side effect such as ``pointer/set``, a branch that
splits, a variable read and written, a mixed int/float operation, a running interpolation, a budget that would run
out — and the scalar loop runs instead, from the start: nothing is written before the whole body evaluated.

Every operation here is IEEE double arithmetic on the same operands as the scalar path (NumPy float64 ``+ - *``
and comparisons are the same operations as Python's float ones), so the variables end bit for bit the same.
"""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any

import numpy as np

MIN_ITERATIONS = 4  # below this the scalar loop is as fast (measured: 10 iterations already run faster at once)
_ARITH = {"math/add": operator.add, "math/sub": operator.sub, "math/mul": operator.mul}
_COMPARE = {"math/lt": operator.lt, "math/le": operator.le, "math/gt": operator.gt, "math/ge": operator.ge}
_EXTRACT = {"math/extract3": ("0", "1", "2"), "math/extract4": ("0", "1", "2", "3")}  # their output sockets
_TRS = {"translation": 3, "rotation": 4}


class Unsupported(Exception):
    """The body cannot run vectorised: the scalar loop runs."""


def run_for(rt: Any, loop: Any, target: Any, start: int, end: int) -> bool:
    """Run ``end - start`` iterations of ``loop``'s body (flow node ``target``) at once; False (nothing done)
    when the body does not qualify (module docstring)."""
    n = end - start
    if n < MIN_ITERATIONS or start < 0 or rt.interpolations or not getattr(rt, "vectorise", True):
        return False
    if rt.count + n * 2 > rt.budget:  # every iteration costs at least 2 activations (below): over the budget
        return False  # whatever the body, so the scalar loop's error line, without an index array of n int64s
    body = _Body(rt, loop, range(start, end))
    try:
        with np.errstate(all="ignore"):  # IEEE results (inf, NaN) as the scalar path gives them, without warnings
            writes, chain = body.walk(target)
    except Unsupported:
        return False
    per_iteration = 2 + (chain - 1)  # the body's activation, `in` again, and each linked activation in the chain
    if rt.count + n * per_iteration > rt.budget:
        return False  # the scalar loop stops at the exact activation, with its error line
    for index, value in writes:
        rt.variables[index] = value
    rt.count += n * per_iteration
    rt.epoch += n * (2 + 2 * chain)
    return True


class _Body:
    """One vectorised evaluation of a loop body over ``indices`` (``index``: the same as an int64 array)."""

    def __init__(self, rt: Any, loop: Any, indices: range) -> None:
        self.rt, self.loop, self.indices = rt, loop, indices
        self.index = np.arange(indices.start, indices.stop, dtype=np.int64)
        self.memo: dict[tuple[int, str], Any] = {}
        self.read: set[int] = set()  # variables read outside an accumulator

    def walk(self, node: Any) -> tuple[list[tuple[int, Any]], int]:
        """The variable writes of the body's chain from ``node`` and the chain's length."""
        writes: list[tuple[int, Any]] = []
        written: set[int] = set()
        chain = 0
        while node is not None:
            chain += 1
            if chain > 64:
                raise Unsupported("shape")
            op = node.op
            if op == "variable/set" and node.state.get("single") is not None:
                socket, var = node.state["single"]
                if var in written:
                    raise Unsupported("shape")
                written.add(var)
                writes.append((var, self._final(node, socket, var)))
                nxt = node.flows.get("out")
            elif op == "flow/branch":
                condition = self.value(node, "condition")
                if isinstance(condition, np.ndarray):
                    if condition.dtype != np.bool_:
                        raise Unsupported("type")
                    taken = bool(condition[0])
                    if (condition != taken).any():
                        raise Unsupported("split")
                elif condition.__class__ is bool:
                    taken = condition
                else:
                    raise Unsupported("type")
                nxt = node.flows.get("true" if taken else "false")
            else:
                raise Unsupported("shape")
            if nxt is None:
                break
            node, in_socket = nxt
            if in_socket != "in":
                raise Unsupported("shape")
        if written & self.read:
            raise Unsupported("read and written")
        return writes, chain

    def _final(self, node: Any, socket: str, var: int) -> Any:
        """The variable's value after the last iteration."""
        link = node.links.get(socket)
        current = self.rt.variables[var]
        if link is not None and link[0].op == "math/add" and link[1] == "value":
            add = link[0]
            a, b = add.links.get("a"), add.links.get("b")
            for mine, other, first in ((a, "b", True), (b, "a", False)):
                if mine is not None and mine[0].op == "variable/get" and mine[0].state.get("v") == var:
                    return _accumulate(current, self.value(add, other), first, len(self.index))
        value = self.value(node, socket)
        if isinstance(value, np.ndarray):
            if value.ndim != 1:
                raise Unsupported("type")
            value = value[-1]
        return _scalar(value, current)

    # ----- values ----------------------------------------------------------------------------------------
    def value(self, node: Any, socket: str) -> Any:
        """Input ``socket`` of ``node`` for every index: an array of one per index, or one Python value."""
        if socket in node.consts:
            value = node.consts[socket]
            if value.__class__ not in (float, int, bool):
                raise Unsupported("type")
            return value
        link = node.links.get(socket)
        if link is None:
            raise Unsupported("shape")
        src, out, _ = link
        key = (id(src), out)
        if key not in self.memo:
            self.memo[key] = self._output(src, out)
        return self.memo[key]

    def _output(self, src: Any, out: str) -> Any:
        op = src.op
        if src.compute is None:  # a flow node's kept output
            if src is self.loop and out == "index":
                return self.index
            value = src.out.get(out)
            if value.__class__ not in (float, int, bool):
                raise Unsupported("type")
            return value
        if op == "variable/get":
            var = src.state["v"]
            self.read.add(var)
            value = self.rt.variables[var]
            if value.__class__ not in (float, int, bool):
                raise Unsupported("type")
            return value
        if op in _ARITH or op in _COMPARE:
            a, b = self.value(src, "a"), self.value(src, "b")
            kind = _kind(a)
            if kind != _kind(b) or kind == "bool":
                raise Unsupported("type")
            if op in _COMPARE:
                return _COMPARE[op](a, b)
            result = _ARITH[op](a, b)
            return _wrap(result) if kind == "int" else result
        if op in _EXTRACT and out in _EXTRACT[op]:
            a = self.value(src, "a")
            if not isinstance(a, np.ndarray) or a.ndim != 2 or a.shape[1] != len(_EXTRACT[op]):
                raise Unsupported("type")
            return a[:, int(out)]
        if op == "pointer/get" and out == "value":
            return self._pointer(src)
        raise Unsupported("shape")

    def _pointer(self, src: Any) -> np.ndarray:
        parts = src.state["parts"]
        if len(parts) != 3 or parts[0] != "nodes" or parts[2] not in _TRS or not isinstance(parts[1], tuple) \
                or parts[1][1] != "int" or src.state["type"] != f"float{_TRS[parts[2]]}":
            raise Unsupported("shape")
        nodes = self.value(src, parts[1][0])
        many = getattr(self.rt.host, "trs_many", None)
        if not isinstance(nodes, np.ndarray) or nodes.dtype != np.int64 or many is None:
            raise Unsupported("shape")
        values = many(self.indices if nodes is self.index else nodes.tolist(), parts[2])
        if values is None:
            raise Unsupported("host")
        return values


_ARRAY_KINDS = {"f": "float", "i": "int", "b": "bool"}  # NumPy dtype kind → the scalar path's type
_SCALAR_KINDS = {float: "float", int: "int", bool: "bool"}


def _kind(value: Any) -> str:
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise Unsupported("type")
        return _ARRAY_KINDS.get(value.dtype.kind, "other")
    return _SCALAR_KINDS.get(value.__class__, "other")


def _wrap(value: Any) -> Any:
    """int32 wrap-around of an int64 array or a Python int."""
    if isinstance(value, np.ndarray):
        return (value + 2**31) % 2**32 - 2**31
    return (value + 2**31) % 2**32 - 2**31


def _accumulate(current: Any, terms: Any, first: bool, count: int) -> Any:
    """``current`` after ``current + term`` (``term + current`` when not ``first``) for each of ``count`` terms
    in order (``terms``: an array, or one value for every index)."""
    kind = _kind(terms)
    if kind != _kind(current) or kind not in ("float", "int"):
        raise Unsupported("type")
    n = None if not isinstance(terms, np.ndarray) else len(terms)
    if kind == "int":  # wrap-around commutes with addition: wrap the exact sum once
        total = int(terms.sum(dtype=np.int64)) if n is not None else terms * count
        return _wrap(current + total)
    if n is None:
        raise Unsupported("type")  # a constant float term: the scalar loop (rare)
    # NumPy's accumulate adds strictly left to right (only its reductions sum pairwise): the scalar loop's sums
    running = np.empty(n + 1)
    running[0] = current
    running[1:] = terms
    total = float(np.add.accumulate(running, out=running)[-1])
    if total == total:
        return total
    # A NaN (one among the terms or the start, or inf − inf on the way): which NaN's sign and payload a sum keeps
    # depends on operand order, and NumPy's loop may keep the other. Add in the scalar loop's order (`acc + term`,
    # or `term + acc` when the variable is the second operand).
    values = terms.tolist()
    return reduce(operator.add, values, current) if first else reduce(lambda acc, t: t + acc, values, current)


def _scalar(value: Any, current: Any) -> Any:
    """A NumPy scalar as the Python value the scalar path would hold."""
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.integer):
        return int(value)
    return value
