"""Chains of scalar ``math/*`` nodes compiled into one generated Python function each.

A graph's arithmetic is mostly trees of one-output math nodes (``mul`` → ``add`` → ``clamp`` …). Run node by
node, each costs a reader call, an epoch check and the operation's type dispatch (~1–2 µs a node); a 90-node chain
was most of a tick. Here every math node whose only reader is another such node is folded into that reader, and
each tree's top node gets one function, generated once per runner, that reads the tree's inputs, checks that every
one is a float and then computes the whole tree in straight-line code over the same scalar functions the nodes use
(``+``, ``-`` and ``*`` written inline: the same IEEE operations as the operations' own ``a + b``). Any input that is
not a float (an int, a vector, a matrix) runs the unfused nodes instead, so the results are the nodes' own bit for
bit, on every type.

The specification's retention rule still holds: the top node keeps its value for the rest of a flow epoch (its
reader caches it, :meth:`GraphRunner._reader`). A folded node is read by nothing but its one consumer, so nobody can
see that it keeps no value of its own. Nodes read twice, by a flow node, or through another output stay as they are.

Generated code is plain Python built from this module's templates and node indices; no text of the file reaches it
(constants are passed in as bound names, never printed into the source).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .ops.math import NAN, ieee_max, ieee_min

_INFIX = {"math/add": "+", "math/sub": "-", "math/mul": "*"}  # the operations' float form is exactly `a OP b`
_SOCKETS = ("a", "b", "c")


def scalar_of(node: Any) -> Callable[..., float] | None:
    """The float function of a lifted math node (``a`` … ``c`` → float), or None when it has none."""
    return getattr(node.value, "scalar", None) if node.value is not None else None


def fuse_math(rt: Any) -> int:
    """Give the top node of every tree of at least two foldable math nodes a generated thunk; returns how many
    nodes were folded into another one's code."""
    inputs = {id(n): _inputs(n) for n in rt.nodes}
    foldable = {id(n) for n in rt.nodes if inputs[id(n)] is not None and n.thunk is not None}
    readers: dict[int, list[Any]] = {}
    for node in rt.nodes:
        for src, out, _ in node.links.values():
            readers.setdefault(id(src), []).append((node, out))

    def folded(node: Any) -> bool:
        found = readers.get(id(node), [])
        return (id(node) in foldable and len(found) == 1 and found[0][1] == "value"
                and id(found[0][0]) in foldable)

    count = 0
    for node in rt.nodes:
        if id(node) not in foldable or folded(node):
            continue
        tree = _Tree(node, inputs, folded)
        if tree.size > 1:
            node.thunk = tree.function(node.thunk)
            count += tree.size - 1
    return count


def _plain_bounds(node: Any) -> bool:
    """Whether a clamp's bounds are both inline, neither NaN nor zero (where ``min``/``max`` need their sign rules)."""
    bounds = [node.consts.get(s) for s in ("b", "c")]
    return all(x.__class__ is float and x == x and x != 0 for x in bounds)


def _inputs(node: Any) -> tuple[str, ...] | None:
    """The value sockets of a foldable node (each inline float or linked to another node's ``value``), or None."""
    if scalar_of(node) is None:
        return None
    sockets = tuple(s for s in _SOCKETS if s in node.spec.inputs)
    if len(sockets) != len(node.spec.inputs):
        return None
    for socket in sockets:
        if socket in node.consts:
            if node.consts[socket].__class__ is not float:
                return None
        elif socket not in node.links:
            return None
    return sockets


class _Tree:
    """One top node and the nodes folded into it, as generated source."""

    def __init__(self, top: Any, inputs: dict[int, tuple[str, ...] | None], folded: Callable[[Any], bool]) -> None:
        self.inputs, self.folded = inputs, folded
        self.names: dict[str, Any] = {}  # bound names of the generated function: readers, constants, functions
        self.leaves: list[str] = []  # names of the values read from outside the tree
        self.lines: list[str] = []
        self.size = 0
        self.result = self._emit(top)

    def _bind(self, prefix: str, value: Any) -> str:
        name = f"{prefix}{len(self.names)}"
        self.names[name] = value
        return name

    def _emit(self, top: Any) -> str:
        """Emit the lines computing ``top`` and every node folded into it, each node after the nodes it reads (an
        explicit stack: a chain of thousands of nodes must not hit Python's recursion limit); returns the local
        name holding the top's value."""
        stack = [(top, False)]
        while stack:
            node, ready = stack.pop()
            if not ready:
                stack.append((node, True))
                for socket in reversed(self.inputs[id(node)] or ()):
                    src = node.links[socket][0] if socket not in node.consts else None
                    if src is not None and self.folded(src):
                        stack.append((src, False))
                continue
            self.size += 1
            args = [self._argument(node, socket) for socket in self.inputs[id(node)] or ()]
            infix = _INFIX.get(node.op)
            if infix is not None:
                expr = f" {infix} ".join(args)
            elif node.op == "math/clamp" and _plain_bounds(node):
                expr = self._clamp(node, args[0])
            else:
                expr = f"{self._bind('f', scalar_of(node))}({', '.join(args)})"
            self.lines.append(f"    v{node.index} = {expr}")
        return f"v{top.index}"

    def _argument(self, node: Any, socket: str) -> str:
        """The name of input ``socket``'s value: a bound constant, a folded node's local, or a new leaf read."""
        if socket in node.consts:
            return self._bind("k", node.consts[socket])
        src = node.links[socket][0]
        if self.folded(src):
            return f"v{src.index}"
        leaf = f"x{len(self.leaves)}"
        self.leaves.append(leaf)
        self.lines.insert(len(self.leaves) - 1, f"    {leaf} = {self._bind('r', node.read[socket])}()")
        return leaf

    def _clamp(self, node: Any, a: str) -> str:
        """``clamp(a, b, c)`` = ``min(max(a, min(b, c)), max(b, c))`` with constant bounds, written out: the bounds
        are folded now, and since neither is NaN or zero, ``max``/``min`` against them are plain comparisons
        (equal non-zero floats have equal bits; only a NaN ``a`` needs its own branch, giving the operations' NaN)."""
        b, c = node.consts["b"], node.consts["c"]
        lo, hi = self._bind("k", ieee_min(b, c)), self._bind("k", ieee_max(b, c))
        nan, low = self._bind("k", NAN), f"t{node.index}"
        self.lines.append(f"    {low} = {a} if {a} > {lo} else {lo}")
        return f"{nan} if {a} != {a} else ({low} if {low} < {hi} else {hi})"

    def function(self, fallback: Callable[[], Any]) -> Callable[[], Any]:
        """The generated thunk (``fallback``: the unfused nodes, for inputs that are not floats)."""
        reads, body = self.lines[:len(self.leaves)], self.lines[len(self.leaves):]
        guard = " or ".join(f"{leaf}.__class__ is not float" for leaf in self.leaves) or "False"
        params = ", ".join(f"{name}={name}" for name in (*self.names, "fallback"))
        source = "\n".join([f"def fused({params}):", *reads, f"    if {guard}:", "        return fallback()",
                            *body, f"    return {self.result}"])
        scope: dict[str, Any] = {**self.names, "fallback": fallback}
        exec(compile(source, "<fused math nodes>", "exec"), scope)  # the source is built from the templates above
        return scope["fused"]  # type: ignore[no-any-return]
