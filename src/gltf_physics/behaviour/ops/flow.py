"""The ``flow/*`` operations: sequence, branch, switch, loops, gates, throttle and delays.

Output sockets whose ids come from the graph (sequence, multiGate) are activated in code-point order of their ids
(the specification's socket order).
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..errors import GraphError
from ..values import whole
from ..vector import run_for
from .spec import OpSpec, table


def _int_cfg(node: Any, key: str, fallback: int) -> int:
    value = node.cfg(key)
    n = whole(value)
    return fallback if n is None else n


def _budget(rt: Any, node: Any) -> GraphError:
    return GraphError(f"stopped after {rt.budget} activations in one tick (a loop without end?)", node.pointer)


def _sequence_init(rt: Any, node: Any) -> None:
    node.state["order"] = sorted(node.source.flows)


def _sequence(rt: Any, node: Any, socket: str) -> None:
    activate = rt.activate
    for out in node.state["order"]:
        activate(node, out)


def _branch(rt: Any, node: Any, socket: str) -> None:
    rt.activate(node, "true" if rt.get(node, "condition") else "false")


def _switch_init(rt: Any, node: Any) -> None:
    cases = node.config.get("cases")
    ok = isinstance(cases, list) and all((n := whole(c)) is not None and -2**31 <= n < 2**31 for c in cases)
    node.state["cases"] = {str(whole(c)) for c in cases} if ok else set()  # type: ignore[union-attr]


def _switch(rt: Any, node: Any, socket: str) -> None:
    key = str(rt.get(node, "selection"))
    rt.activate(node, key if key in node.state["cases"] else "default")


def _while(rt: Any, node: Any, socket: str) -> None:
    get, activate = rt.get, rt.activate
    while get(node, "condition"):
        activate(node, "loopBody")
        rt.count += 1  # the self-activation of `in` counts against the budget (an endless loop must stop)
        if rt.count > rt.budget:
            raise _budget(rt, node)
    activate(node, "completed")


def _for_init(rt: Any, node: Any) -> None:
    node.out["index"] = _int_cfg(node, "initialIndex", 0)


def _for(rt: Any, node: Any, socket: str) -> None:
    # The hot loop of the benchmark: the body's activation is inlined (same counting as rt.activate), and an
    # inline endIndex is read once (a constant cannot change; a linked one is re-read every iteration).
    get, out = rt.get, node.out
    index = get(node, "startIndex")
    out["index"] = index
    rt.epoch += 1  # the index moved: a pure node reading it is evaluated afresh
    end_linked = "endIndex" in node.links
    end = get(node, "endIndex")
    body = node.flows.get("loopBody")
    target, in_socket = body if body is not None else (None, "")
    run = target.run if target is not None else None
    budget = rt.budget
    if run is not None and not end_linked and in_socket == "in" and run_for(rt, node, target, index, end):
        out["index"] = max(index, end)  # NumPy ran every iteration at once, with the same results
        rt.epoch += 1
        rt.activate(node, "completed")
        return
    while index < end:
        rt.count += 2 if body is not None else 1  # the body's activation and the self-activation of `in`
        rt.epoch += 1
        if rt.count > budget:
            raise _budget(rt, target if target is not None else node)
        if run is not None:
            run(rt, target, in_socket)
        index += 1  # index < end ≤ 2**31 - 1: no wrap-around possible
        out["index"] = index
        if end_linked:
            rt.epoch += 1  # the body executed and the index moved: the end is read afresh
            end = get(node, "endIndex")
    rt.activate(node, "completed")


def _do_n(rt: Any, node: Any, socket: str) -> None:
    if socket == "reset":
        node.out["currentCount"] = 0
        return
    if socket != "in":
        return
    count = node.out["currentCount"]
    if count < rt.get(node, "n"):
        node.out["currentCount"] = count + 1
        rt.activate(node, "out")


def _multi_gate_init(rt: Any, node: Any) -> None:
    node.state["order"] = sorted(node.source.flows)
    node.state["used"] = [False] * len(node.state["order"])
    random_, loop = node.cfg("isRandom"), node.cfg("isLoop")
    if not isinstance(random_, bool) or not isinstance(loop, bool):
        random_ = loop = False
    node.state["random"], node.state["loop"] = random_, loop
    node.out["lastIndex"] = -1


def _multi_gate(rt: Any, node: Any, socket: str) -> None:
    state = node.state
    used: list[bool] = state["used"]
    if socket == "reset":
        node.out["lastIndex"] = -1
        used[:] = [False] * len(used)
        return
    if socket != "in" or not used:
        return
    free = [i for i, u in enumerate(used) if not u]
    if not free:
        if not state["loop"]:
            return
        used[:] = [False] * len(used)
        free = list(range(len(used)))
    i = random.choice(free) if state["random"] else free[0]
    used[i] = True
    node.out["lastIndex"] = i
    rt.activate(node, state["order"][i])


def _wait_all_init(rt: Any, node: Any) -> None:
    n = _int_cfg(node, "inputFlows", 0)
    n = n if 0 <= n <= 64 else 0
    node.state["n"] = n
    node.state["seen"] = set()
    node.out["remainingInputs"] = n


def _wait_all(rt: Any, node: Any, socket: str) -> None:
    state = node.state
    if socket == "reset":
        state["seen"].clear()
        node.out["remainingInputs"] = state["n"]
        return
    if not socket.isdigit() or str(int(socket)) != socket or int(socket) >= state["n"]:
        return
    state["seen"].add(socket)
    node.out["remainingInputs"] = state["n"] - len(state["seen"])
    rt.activate(node, "completed" if node.out["remainingInputs"] == 0 else "out")


def _throttle(rt: Any, node: Any, socket: str) -> None:
    out = node.out
    if socket == "reset":
        out["lastRemainingTime"] = math.nan
        return
    if socket != "in":
        return
    duration = rt.get(node, "duration")
    if not math.isfinite(duration) or duration < 0:
        rt.activate(node, "err")
        return
    if not math.isnan(out["lastRemainingTime"]):
        elapsed = max(0.0, rt.time - node.state["stamp"])
        if duration > elapsed:
            out["lastRemainingTime"] = duration - elapsed
            return
    node.state["stamp"] = rt.time
    out["lastRemainingTime"] = 0.0
    rt.activate(node, "out")


MAX_DELAY = 1e9  # seconds; beyond it the time arithmetic would lose the tick resolution


def _set_delay(rt: Any, node: Any, socket: str) -> None:
    tokens: set[int] = node.state.setdefault("tokens", set())
    if socket == "cancel":
        node.out["lastDelay"] = None
        rt.cancelled.update(tokens)
        tokens.clear()
        return
    if socket != "in":
        return
    duration = rt.get(node, "duration")
    if not isinstance(duration, float) or not math.isfinite(duration) or duration < 0 or duration > MAX_DELAY:
        rt.activate(node, "err")
        return
    token = rt.schedule(node, duration)
    tokens.add(token)
    node.out["lastDelay"] = token
    node.out["lastDelayIndex"] = token  # the draft's name of the same output
    rt.activate(node, "out")


def _cancel_sockets(graph: Any, node: Any) -> Any:
    inputs = {"delayIndex": "int"} if "delayIndex" in node.values else {"delay": "ref"}  # the draft's int id
    return inputs, {}, ("in",), ("out",)


def _cancel_delay(rt: Any, node: Any, socket: str) -> None:
    delay = rt.get(node, "delay" if rt.has_input(node, "delay") else "delayIndex")  # draft: delayIndex
    if isinstance(delay, int) and not isinstance(delay, bool):
        rt.cancelled.add(delay)
    rt.activate(node, "out")


TABLE = table(
    OpSpec("flow/sequence", flows_in=("in",), run=_sequence, init=_sequence_init),
    OpSpec("flow/branch", {"condition": "bool"}, flows_in=("in",), flows_out=("true", "false"), run=_branch),
    OpSpec("flow/switch", {"selection": "int"}, flows_in=("in",), flows_out=("default",), config={"cases": "int[]"},
           run=_switch, init=_switch_init),
    OpSpec("flow/while", {"condition": "bool"}, flows_in=("in",), flows_out=("loopBody", "completed"), run=_while),
    OpSpec("flow/for", {"startIndex": "int", "endIndex": "int"}, {"index": "int"}, ("in",),
           ("loopBody", "completed"), {"initialIndex": "int"}, run=_for, init=_for_init),
    OpSpec("flow/doN", {"n": "int"}, {"currentCount": "int"}, ("in", "reset"), ("out",), run=_do_n),
    OpSpec("flow/multiGate", {}, {"lastIndex": "int"}, ("in", "reset"), config={"isRandom": "bool", "isLoop": "bool"},
           run=_multi_gate, init=_multi_gate_init),
    OpSpec("flow/waitAll", {}, {"remainingInputs": "int"}, ("reset",), ("out", "completed"), {"inputFlows": "int"},
           run=_wait_all, init=_wait_all_init),
    OpSpec("flow/throttle", {"duration": "float"}, {"lastRemainingTime": "float"}, ("in", "reset"), ("out", "err"),
           run=_throttle),
    OpSpec("flow/setDelay", {"duration": "float"}, {"lastDelay": "ref", "lastDelayIndex": "int"}, ("in", "cancel"),
           ("out", "err", "done"), run=_set_delay),
    OpSpec("flow/cancelDelay", {"delay": "ref"}, {}, ("in",), ("out",), run=_cancel_delay,
           sockets=_cancel_sockets),
)
