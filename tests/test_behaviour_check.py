"""The behaviour graph rules (KHRI-*): one broken graph per rule yields exactly that code at the pointer named,
its valid base yields none; a graph with an error is refused by the runner's callers; and ``validate`` reports
graphs as one of its passes."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from behaviour_graphs import T, graph_doc, inline, link, variable
from gltf_physics.behaviour.check import check, check_graph
from gltf_physics.behaviour.read import read_interactivity
from gltf_physics.gltf.document import Document
from gltf_physics.validation import validate

G = "/extensions/KHR_interactivity/graphs/0"


def base() -> dict[str, Any]:
    """onStart → branch(lt(x, 3)) → set x = x + 1; every rule satisfied."""
    return graph_doc([
        {"op": "variable/get", "configuration": {"variable": 0}},
        {"op": "math/lt", "values": {"a": link(0), "b": inline("int", 3)}},
        {"op": "math/add", "values": {"a": link(0), "b": inline("int", 1)}},
        {"op": "event/onStart", "flows": {"out": 4}},
        {"op": "flow/branch", "values": {"condition": link(1)}, "flows": {"true": 5}},
        {"op": "variable/set", "configuration": {"variables": [0]}, "values": {"0": link(2)}},
    ], variables=[variable("int", 0, name="x")])


def _nodes(g: dict[str, Any]) -> list[dict[str, Any]]:
    return g["extensions"]["KHR_interactivity"]["graphs"][0]["nodes"]


def _graph(g: dict[str, Any]) -> dict[str, Any]:
    return g["extensions"]["KHR_interactivity"]["graphs"][0]


CASES: list[tuple[str, str, Callable[[dict[str, Any]], None]]] = [
    ("KHRI-1", "/extensions/KHR_interactivity/graph",
     lambda g: g["extensions"]["KHR_interactivity"].__setitem__("graph", 3)),
    ("KHRI-2", f"{G}/declarations/0", lambda g: _graph(g)["declarations"][0].__setitem__("op", "variable/gte")),
    ("KHRI-3", f"{G}/declarations/1",
     lambda g: _graph(g)["declarations"][1].__setitem__("inputValueSockets", {"a": {"type": 1}})),
    ("KHRI-4", f"{G}/nodes/1/values/b", lambda g: _nodes(g)[1]["values"]["b"].__setitem__("type", 99)),
    ("KHRI-5", f"{G}/nodes/1/values/b", lambda g: _nodes(g)[1]["values"].__setitem__("b", inline("float", 3.0))),
    ("KHRI-6", f"{G}/nodes/1/values/a", lambda g: _nodes(g)[1]["values"]["a"].update(value=[1], type=T["int"])),
    ("KHRI-7", f"{G}/nodes/1/values/a", lambda g: _nodes(g)[1]["values"]["a"].__setitem__("socket", "nope")),
    ("KHRI-8", f"{G}/nodes/4/flows/true", lambda g: _nodes(g)[4]["flows"]["true"].__setitem__("node", 2)),
    ("KHRI-10", f"{G}/nodes/0/configuration/variable",
     lambda g: _nodes(g)[0]["configuration"]["variable"].__setitem__("value", [7])),
]


def _codes(g: dict[str, Any]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    check(g, lambda code, pointer, message, severity=None: found.append((code, pointer)))
    return found


def test_the_base_is_valid() -> None:
    assert _codes(base()) == []


@pytest.mark.parametrize(("code", "pointer", "mutate"), CASES, ids=[c[0] for c in CASES])
def test_each_rule_reports_its_code_at_its_pointer(code: str, pointer: str, mutate: Callable[..., None]) -> None:
    g = copy.deepcopy(base())
    mutate(g)
    assert (code, pointer) in _codes(g)


def test_value_loop_is_reported_in_the_draft_form() -> None:
    """KHRI-9: the draft lets links point forward, so two adds can feed each other."""
    g = graph_doc([
        {"op": "math/add", "values": {"a": link(1), "b": inline("int", 1)}},
        {"op": "math/add", "values": {"a": link(0), "b": inline("int", 1)}},
        {"op": "event/onStart", "flows": {"out": 3}},
        {"op": "variable/set", "configuration": {"variable": 0}, "values": {"value": link(1)}},  # draft-only
    ], variables=[variable("int", 0)])
    assert read_interactivity(g).form == "draft-2025"  # type: ignore[union-attr]
    codes = _codes(g)
    assert ("KHRI-9", f"{G}/nodes/1/values/a") in codes or ("KHRI-9", f"{G}/nodes/0/values/a") in codes
    assert ("KHRI-11", "/extensions/KHR_interactivity") in codes
    assert not any(code == "KHRI-8" for code, _ in codes)  # the draft has no ordering rule


def test_mismatched_equal_types_are_named() -> None:
    g = base()
    _nodes(g)[2]["values"]["b"] = inline("float", 1.0)  # int + float
    graph = read_interactivity(g).graphs[0]  # type: ignore[union-attr]
    found = check_graph(graph)
    assert [(c, p) for c, p, _ in found] == [("KHRI-5", f"{G}/nodes/2/values/b")]
    assert "needs them equal" in found[0][2]


def test_validate_reports_graph_rules_with_their_severity() -> None:
    g = base()
    _graph(g)["declarations"][0]["op"] = "variable/gte"
    report = validate(Document(json=g, buffers=[]))
    messages = [(m.code, m.pointer, int(m.severity)) for m in report.messages if m.code.startswith("KHRI")]
    assert messages == [("KHRI-2", f"{G}/declarations/0", 0)]
    assert report.exit_code() == 1


def test_an_invalid_graph_is_reported_and_not_run() -> None:
    from gltf_physics.behaviour import prepare
    from gltf_physics.behaviour.doc_host import DocumentHost

    good = base()
    prepared = prepare(good, DocumentHost(good))
    assert prepared.runner is not None and prepared.errors == [] and prepared.index == 0
    prepared.runner.start()
    assert prepared.runner.variable("x") == 1
    bad = base()
    _nodes(bad)[4]["flows"]["true"]["node"] = 2  # KHRI-8
    prepared = prepare(bad, DocumentHost(bad))
    assert prepared.runner is None
    assert prepared.errors == [f"KHRI-8 {G}/nodes/4/flows/true: a flow must go to a higher-numbered node "
                               "(node 4 → 2)"]
    assert prepare(bad, DocumentHost(bad), graph=5).errors == [
        "KHRI-1 /extensions/KHR_interactivity: no graph 5 (1 graphs)"]


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for key, value in items:
        out += _paths(value, (*prefix, key))
    return out


def test_malformed_graph_json_never_raises() -> None:
    """Every value of the base graph replaced by junk of each JSON kind: the checker, prepare() and a run of
    whatever still prepares report problems as messages, never an exception."""
    from gltf_physics.behaviour import prepare
    from gltf_physics.behaviour.doc_host import DocumentHost

    paths = _paths(base()["extensions"]["KHR_interactivity"])
    runs = 0
    for path in paths:
        for junk in (None, "x", -1, 1.5, [], {}, True, ["x"], 10**12):
            g = base()
            obj = g["extensions"]["KHR_interactivity"]
            for key in path[:-1]:
                obj = obj[key]
            obj[path[-1]] = junk
            check(g, lambda *args, **kw: None)
            prepared = prepare(g, DocumentHost(g))
            if prepared.runner is not None:
                prepared.runner.start()
                prepared.runner.tick(0.0, 0.0)
                runs += 1
    assert len(paths) > 60 and runs > 0


def _forward_chain(count: int, loop_back: bool) -> Any:
    """A draft graph: onStart → set v := add₀, where addₖ reads addₖ₊₁ (links pointing forward, as the draft
    allows) down a chain of ``count`` adds; ``loop_back``: the last add reads the first one again."""
    nodes: list[dict[str, Any]] = [
        {"op": "event/onStart", "flows": {"out": 1}},
        {"op": "variable/set", "configuration": {"variable": 0}, "values": {"value": link(2)}},  # draft-only
    ]
    for k in range(count):
        last = k == count - 1
        a = (link(2) if loop_back else inline("float", 1.0)) if last else link(len(nodes) + 1)
        nodes.append({"op": "math/add", "values": {"a": a, "b": inline("float", 1.0)}})
    graph = read_interactivity(graph_doc(nodes, variables=[variable("float", 0.0)]))
    assert graph is not None and graph.form == "draft-2025"
    return graph.graphs[0]


def test_a_forward_chain_of_three_thousand_links_is_checked_to_the_end() -> None:
    """Type inference and the loop search walk with their own stacks: a 3,000-link forward chain (three times
    Python's recursion limit) is valid in the draft, and closing it into a loop gives exactly one KHRI-9."""
    assert check_graph(_forward_chain(3000, False), "draft-2025") == []
    found = check_graph(_forward_chain(3000, True), "draft-2025")
    assert [(code, pointer) for code, pointer, _ in found] == [("KHRI-9", f"{G}/nodes/3001/values/a")]
