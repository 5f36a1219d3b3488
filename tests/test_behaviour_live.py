"""A behaviour graph in ``view --live``: a click (``select``) and the pointer (``hover``) reach the graph's
event/onSelect and event/onHoverIn/Out, its debug/log lines stream to the pages as ``graph`` messages, and a
reset replays the graph from its start."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import behaviour_scenes as bs

try:
    import websockets  # noqa: F401 - the live extra
except ImportError:
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("the live extra (websockets) is not installed", allow_module_level=True)

from websockets.sync.client import connect

import gltf_physics as gp
from gltf_physics.behaviour.build import GraphBuilder
from gltf_physics.view import live
from gltf_physics.view.live.protocol import Refused, parse

TIMEOUT = 20.0


def _scene(tmp_path: Path) -> tuple[Path, int]:
    doc = bs.scene()
    box = bs.add_body(doc, (0.0, 0.0, 0.0), bs.box(1.0), mass=2.0, gravity_factor=0.0)
    g = GraphBuilder()
    select = g.node("event/onSelect", configuration={"nodeIndex": box, "stopPropagation": True})
    push = g.node("rigid_body/applyImpulse", nodeIndex=box, linearImpulse=(0.0, 2.0, 0.0))
    log = g.node("debug/log", configuration={"message": "clicked {n}"}, n=g.out(select, "selectedNodeIndex"))
    g.flow(select, "out", push)
    g.flow(push, "out", log)
    hover = g.node("event/onHoverIn", configuration={"nodeIndex": box, "stopPropagation": False})
    g.flow(hover, "out", g.node("debug/log", configuration={"message": "over {n}"}, n=g.out(hover, "hoverNodeIndex")))
    g.attach(doc)
    path = tmp_path / "clickable.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path, box


def _read_until(ws: Any, want: Callable[[Any], bool]) -> Any:
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        m = ws.recv(timeout=max(end - time.monotonic(), 0.01))
        m = json.loads(m) if isinstance(m, str) else m
        if want(m):
            return m
    raise AssertionError("the server did not send what was waited for")


def _graph(m: Any) -> bool:
    return isinstance(m, dict) and m.get("type") == "graph"


def test_select_and_hover_messages_are_checked() -> None:
    assert parse('{"type":"select","node":3,"point":[0,1,0],"origin":[0,1,5]}').fields == {
        "node": 3, "point": [0.0, 1.0, 0.0], "origin": [0.0, 1.0, 5.0]}
    assert parse('{"type":"hover","node":null}').fields == {"node": None}
    with pytest.raises(Refused, match="node must be a node index"):
        parse('{"type":"hover","node":-1}')


def test_a_click_runs_the_graph_and_its_log_streams(tmp_path: Path) -> None:
    path, box = _scene(tmp_path)
    lines: list[str] = []
    r = live.start(gp.World.from_file(path), log=lines.append)
    try:
        with connect(f"ws://127.0.0.1:{r.server.port}/ws") as ws:
            ws.send(json.dumps({"type": "hover", "node": box}))
            got = _read_until(ws, _graph)
            assert [x["message"] for x in got["lines"]] == [f"over {box}"]
            ws.send('{"type":"pause"}')
            ws.send(json.dumps({"type": "select", "node": box, "point": [0.5, 0, 0], "origin": [5, 0, 0]}))
            got = _read_until(ws, _graph)
            assert got["lines"][0]["event"] == "log" and got["lines"][0]["message"] == f"clicked {box}"
            world = r.server.session.world
            assert world.get(f"/nodes/{box}/extensions/KHR_physics_rigid_bodies/motion/linearVelocity") == \
                pytest.approx([0.0, 1.0, 0.0])  # the impulse ran: 2 N·s on 2 kg
            ws.send('{"type":"reset"}')
            _read_until(ws, lambda m: isinstance(m, dict) and m.get("type") == "reset")
            assert world.get(f"/nodes/{box}/extensions/KHR_physics_rigid_bodies/motion/linearVelocity") == \
                [0.0, 0.0, 0.0]
            assert world.graph.logs == []  # the graph is back at its start too
        assert any("graph log t=" in x and f"clicked {box}" in x for x in lines)
    finally:
        r.stop()


def test_the_page_sends_hover_and_click_to_the_graph(tmp_path: Path) -> None:
    """In real chromium: moving the mouse over the box fires its onHoverIn, a click its onSelect (the graph's
    log lines reach the page's event list)."""
    import shutil

    chromium = "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("the playwright package is not installed")
    if shutil.which(chromium) is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{chromium} not found")
        pytest.skip(f"{chromium} not found")
    import live_scenes
    from test_view_live_browser import ARGS, LivePage

    path = live_scenes.box_on_ground(tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    g = GraphBuilder()
    for op, out in (("event/onHoverIn", "hoverNodeIndex"), ("event/onSelect", "selectedNodeIndex")):
        ev = g.node(op, configuration={"nodeIndex": 1, "stopPropagation": False})
        g.flow(ev, "out", g.node("debug/log", configuration={"message": op[8:] + " {n}"}, n=g.out(ev, out)))
    g.attach(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
        page = LivePage(browser, path)
        try:
            page.wait_time(0.1)
            page.state("live.frameScene()")
            runner = page.session().world.graph
            mouse = page.page.mouse
            mouse.move(*page.client_point(0.0, 0.5, 0.0))  # the box's top face
            deadline = time.monotonic() + TIMEOUT  # bounded waits on what the server's graph logged
            while not runner.logs and time.monotonic() < deadline:
                page.page.wait_for_timeout(20)
            mouse.down()
            mouse.up()
            while len(runner.logs) < 2 and time.monotonic() < deadline:
                page.page.wait_for_timeout(20)
            assert [x.message for x in runner.logs] == ["HoverIn 1", "Select 1"]
            page.wait("document.body.textContent.includes('log: Select 1')")
            assert page.errors == []
        finally:
            page.close()
            browser.close()
