"""The live server against a Python WebSocket client (no browser): the stream, time controls, reset, saving,
and faults — malformed messages, an oversized message, a flood, a client vanishing mid-grab, two clients, a
missing token, a foreign origin. Waits are on what the server reports (its ticks, the simulated time), bounded.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

try:
    import websockets  # noqa: F401 - the live extra
except ImportError:
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("the live extra (websockets) is not installed", allow_module_level=True)

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

import gltf_physics as gp
import live_scenes as scenes
from gltf_physics.sim.errors import SimulationError
from gltf_physics.view import live
from gltf_physics.view.live.protocol import MAX_TEXT
from gltf_physics.view.live.server import FLOOD_CLOSE, is_loopback
from gltf_physics.view.live.session import FRAME_HEADER, LiveSession

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "tumbling_boxes.gltf"
TIMEOUT = 20.0


class Log:
    """The server's one-line notices, collected from its thread."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self.lock:
            self.lines.append(line)

    def matching(self, pattern: str) -> list[str]:
        with self.lock:
            return [x for x in self.lines if re.search(pattern, x)]


@pytest.fixture
def serve() -> Iterator[Callable[..., Any]]:
    running: list[Any] = []

    def start(path: Path, **options: Any) -> Any:
        log = Log()
        r = live.start(gp.World.from_file(path), log=log, **options)
        r.log = log
        running.append(r)
        return r

    yield start
    for r in running:
        r.stop()


def ws_url(r: Any, token: str | None = None) -> str:
    base = f"ws://127.0.0.1:{r.server.port}/ws"
    return base + (f"?token={token}" if token else "")


def frame_of(data: bytes) -> tuple[int, float, np.ndarray]:
    magic, step, t, _rtf, _speed, count = FRAME_HEADER.unpack_from(data)
    assert magic == b"GPF1" and len(data) == FRAME_HEADER.size + 28 * count
    return step, t, np.frombuffer(data, dtype="<f4", offset=FRAME_HEADER.size).reshape(count, 7)


def read_until(ws: Any, want: Callable[[Any], bool], timeout: float = TIMEOUT) -> Any:
    """Messages (JSON decoded, frames as bytes) until ``want(message)``; fails after ``timeout`` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        m = ws.recv(timeout=max(end - time.monotonic(), 0.01))
        m = json.loads(m) if isinstance(m, str) else m
        if want(m):
            return m
    raise AssertionError("the server did not send what was waited for")


def is_type(kind: str) -> Callable[[Any], bool]:
    return lambda m: isinstance(m, dict) and m.get("type") == kind


def pong(ws: Any) -> dict[str, Any]:
    ws.send('{"type":"ping"}')
    return read_until(ws, is_type("pong"))


def wait_ticks(r: Any, n: int) -> None:
    start = r.server.ticks
    end = time.monotonic() + TIMEOUT
    while r.server.ticks < start + n:
        assert time.monotonic() < end, "the server's run loop stopped"
        time.sleep(0.005)


def test_one_binary_frame_per_tick_carries_every_body(serve):
    r = serve(EXAMPLE)
    with connect(ws_url(r)) as ws:
        hello = read_until(ws, is_type("hello"))
        assert hello["nodes"] == [1, 2, 3, 7] and hello["rate"] == 60.0 and hello["engine"] == "rapier"
        first = read_until(ws, lambda m: isinstance(m, bytes))
        step, t, poses = frame_of(first)
        assert (step, t) == (0, 0.0) and poses.shape == (4, 7)
        world = gp.World.from_file(EXAMPLE)
        _, tr, q = world.poses()
        assert np.array_equal(poses, np.concatenate([q, tr], axis=1).astype(np.float32))
        steps = [frame_of(read_until(ws, lambda m: isinstance(m, bytes)))[0] for _ in range(30)]
        assert steps == sorted(steps) and steps[-1] > steps[0]


def test_pause_stops_time_and_step_advances_one_step(serve):
    r = serve(EXAMPLE)
    with connect(ws_url(r)) as ws:
        read_until(ws, lambda m: isinstance(m, dict) and m.get("type") == "status" and m["time"] >= 0.2)
        ws.send('{"type":"pause"}')
        t1 = pong(ws)
        assert t1["paused"] is True
        wait_ticks(r, 15)
        t2 = pong(ws)
        assert (t2["time"], t2["step"]) == (t1["time"], t1["step"])
        ws.send('{"type":"step"}')
        t3 = pong(ws)
        assert t3["step"] == t1["step"] + 1 and t3["time"] == (t1["step"] + 1) / 60.0
        ws.send('{"type":"play"}')
        read_until(ws, lambda m: isinstance(m, dict) and m.get("type") == "status" and m["step"] > t3["step"])


def test_reset_restores_the_start_poses_exactly(serve):
    r = serve(EXAMPLE)
    with connect(ws_url(r)) as ws:
        start = frame_of(read_until(ws, lambda m: isinstance(m, bytes)))[2].copy()
        read_until(ws, lambda m: isinstance(m, bytes) and frame_of(m)[1] >= 0.5)
        ws.send('{"type":"pause"}')
        ws.send('{"type":"reset"}')
        read_until(ws, is_type("reset"))
        step, t, poses = frame_of(read_until(ws, lambda m: isinstance(m, bytes)))
        assert (step, t) == (0, 0.0)
        assert poses.tobytes() == start.tobytes()  # bit for bit


def test_trigger_events_stream_as_they_happen_and_a_reset_clears_them(serve):
    # examples/tumbling_boxes.gltf: the ball (node 3) enters the landing zone (node 8) at step 49 (0.8167 s).
    r = serve(EXAMPLE)
    with connect(ws_url(r)) as ws:
        got = read_until(ws, is_type("events"))
        assert got["events"][0] == {"time": 49 / 60, "event": "enter", "trigger": 8, "node": 3}
        ws.send('{"type":"reset"}')
        read_until(ws, is_type("reset"))
        again = read_until(ws, is_type("events"))  # the same event again, once the run gets there again
        assert again["events"][0] == got["events"][0]


def test_a_reset_run_repeats_the_first_run_bit_for_bit():
    session = LiveSession(gp.World.from_file(EXAMPLE))
    for _ in range(40):
        session.step_once()
    first = session.world.poses()[1].copy()
    session.reset()
    for _ in range(40):
        session.step_once()
    assert session.world.poses()[1].tobytes() == first.tobytes()


def test_speed_is_one_of_the_offered_values(serve):
    r = serve(EXAMPLE)
    with connect(ws_url(r)) as ws:
        ws.send('{"type":"speed","value":4}')
        assert pong(ws)["speed"] == 4.0
        ws.send('{"type":"speed","value":3}')
        assert read_until(ws, is_type("refused"))["reason"] == "speed must be one of 0.25, 0.5, 1.0, 2.0, 4.0"
        assert pong(ws)["speed"] == 4.0


BAD = [
    ("garbage", "not JSON"),
    ("[1, 2]", 'expected a JSON object with a string "type"'),
    ('{"type": 5}', 'expected a JSON object with a string "type"'),
    ('{"type": "explode"}', "unknown message type 'explode'"),
    ('{"type": "speed", "value": NaN}', "not JSON"),
    ('{"type": "pause", "extra": 1}', "unexpected field 'extra'"),
    ('{"type": "grab", "node": 1, "point": [0, 0]}', "point must be a list of 3 numbers"),
    ('{"type": "grab", "node": 0, "point": [0, 0, 0]}', "node 0 is not a dynamic body"),
    ('{"type": "drive", "node": 1, "throttle": 2, "steer": 0, "brake": false}', "throttle must be within [-1, 1]"),
    ('{"type": "set", "pointer": "/nodes/3/extensions/KHR_physics_rigid_bodies/motion/color", "value": 1}',
     "'color' is not settable"),
    (b"\x00\x01binary", "binary messages are not accepted"),
]


def test_malformed_messages_are_refused_with_one_line_each_and_the_run_goes_on(serve):
    r = serve(EXAMPLE)
    with connect(ws_url(r)) as ws:
        read_until(ws, is_type("hello"))
        for raw, reason in BAD:
            ws.send(raw)
            got = read_until(ws, is_type("refused"))["reason"]
            assert reason in got, (raw, got)
        lines = r.log.matching(r"^live: refused a message from client 1: ")
        assert len(lines) == len(BAD)
        assert r.server.refused == len(BAD)
        before = pong(ws)["step"]
        read_until(ws, lambda m: isinstance(m, bytes) and frame_of(m)[0] > before)


def test_an_oversized_message_closes_that_client_only(serve):
    r = serve(EXAMPLE)
    with connect(ws_url(r)) as other, connect(ws_url(r)) as big:
        read_until(big, is_type("hello"))
        big.send(json.dumps({"type": "ping", "pad": "x" * (MAX_TEXT + 10)}))
        with pytest.raises(ConnectionClosed) as closed:
            read_until(big, lambda m: False)  # frames until the server closes it
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        step = pong(other)["step"]
        read_until(other, lambda m: isinstance(m, bytes) and frame_of(m)[0] > step)
    end = time.monotonic() + TIMEOUT
    while not r.log.matching(r"refused a message from client 2: a message over"):
        assert time.monotonic() < end
        time.sleep(0.01)


def test_a_flood_is_cut_summed_up_and_disconnected_while_others_keep_their_stream(serve):
    r = serve(EXAMPLE)
    with connect(ws_url(r)) as calm, connect(ws_url(r), close_timeout=1) as flood:
        read_until(flood, is_type("hello"))
        step = pong(calm)["step"]
        sent, end = 0, time.monotonic() + TIMEOUT
        with pytest.raises(ConnectionClosed) as closed:
            while time.monotonic() < end:  # until the server hangs up
                flood.send('{"type":"ping"}')
                sent += 1
        # The server hangs up (1008) in mid-flood; the client may see the close frame or just the lost socket.
        assert closed.value.rcvd is None or closed.value.rcvd.code == 1008
        assert sent > FLOOD_CLOSE
        later = pong(calm)
        assert later["step"] > step  # the run went on during the flood
        read_until(calm, lambda m: isinstance(m, bytes) and frame_of(m)[0] > later["step"])
    assert r.log.matching(rf"^live: client 2 flooded: {FLOOD_CLOSE} messages over its budget, disconnected$")
    assert r.log.matching(r"^live: client 2 left")


def test_a_client_vanishing_mid_grab_and_drive_lets_go(serve, tmp_path):
    r = serve(scenes.car_on_ground(tmp_path))
    ws = connect(ws_url(r))
    read_until(ws, is_type("hello"))
    ws.send(json.dumps({"type": "grab", "node": 0, "point": [0.0, 0.5, 0.0]}))
    ws.send(json.dumps({"type": "drive", "node": 0, "throttle": 1, "steer": 1, "brake": False}))
    pong(ws)
    assert r.call(lambda: list(r.server.session.grabs)) == [1]
    ws.socket.shutdown(socket.SHUT_RDWR)  # no closing handshake: the page's tab just died
    ws.socket.close()
    end = time.monotonic() + TIMEOUT
    while not r.log.matching(r"client 1 left"):
        assert time.monotonic() < end
        time.sleep(0.01)
    assert r.call(lambda: dict(r.server.session.grabs)) == {}
    last = r.call(lambda: list(r.server.session.inputs)[-3:])
    assert [e["value"] for e in last] == [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], True]
    with connect(ws_url(r)) as again:
        assert read_until(again, is_type("hello"))["vehicles"][0]["node"] == 0


def test_two_clients_share_one_run(serve):
    r = serve(EXAMPLE)
    with connect(ws_url(r)) as a, connect(ws_url(r)) as b:
        read_until(a, is_type("hello"))
        read_until(b, is_type("hello"))
        a.send('{"type":"pause"}')
        pa = pong(a)
        read_until(b, lambda m: isinstance(m, dict) and m.get("type") == "status" and m["paused"])
        pb = pong(b)
        assert (pa["step"], pa["time"]) == (pb["step"], pb["time"])
        b.send('{"type":"play"}')
        read_until(a, lambda m: isinstance(m, bytes) and frame_of(m)[0] > pa["step"])


def test_the_run_moves_only_while_a_page_is_open(serve):
    r = serve(EXAMPLE)
    wait_ticks(r, 10)
    assert r.call(lambda: r.server.session.world.step_count) == 0
    with connect(ws_url(r)) as ws:
        read_until(ws, lambda m: isinstance(m, bytes) and frame_of(m)[0] >= 3)
    end = time.monotonic() + TIMEOUT
    while r.call(lambda: len(r.server.clients)):
        assert time.monotonic() < end
        time.sleep(0.01)
    steps = r.call(lambda: r.server.session.world.step_count)
    wait_ticks(r, 10)
    assert r.call(lambda: r.server.session.world.step_count) == steps


def test_off_loopback_the_token_is_required(serve):
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")
    r = serve(EXAMPLE, host="0.0.0.0")
    token = r.server.token
    assert token and len(token) >= 20 and r.url.endswith(f"/?token={token}")
    page = f"http://127.0.0.1:{r.server.port}/"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(page, timeout=TIMEOUT)
    assert refused.value.code == 403
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(page + "?token=" + "x" * len(token), timeout=TIMEOUT)
    assert urllib.request.urlopen(page + f"?token={token}", timeout=TIMEOUT).status == 200
    with pytest.raises(InvalidStatus):
        connect(ws_url(r))
    with connect(ws_url(r, token)) as ws:
        assert read_until(ws, is_type("hello"))["nodes"] == [1, 2, 3, 7]
    assert len(r.log.matching(r"^live: refused /(ws)? from 127\.0\.0\.1:\d+: missing or wrong token$")) == 3


def test_loopback_needs_no_token_but_refuses_a_foreign_origin(serve):
    r = serve(EXAMPLE)
    assert r.server.token is None and r.url == f"http://127.0.0.1:{r.server.port}/"
    with pytest.raises(InvalidStatus):
        connect(ws_url(r), origin="http://evil.example")
    assert r.log.matching(r"refused a WebSocket from origin 'http://evil.example'")


def test_the_session_saves_as_a_replay_page_and_a_trace(serve):
    r = serve(EXAMPLE)
    with connect(ws_url(r)) as ws:
        read_until(ws, lambda m: isinstance(m, bytes) and frame_of(m)[1] >= 0.3)
        ws.send('{"type":"pause"}')
        state = pong(ws)
    step, _, last = frame_of(r.call(r.server.session.frame))  # what the server last sent, paused
    assert step == state["step"]
    base = f"http://127.0.0.1:{r.server.port}"
    html = urllib.request.urlopen(base + "/replay.html", timeout=TIMEOUT).read().decode()
    data = json.loads(re.search(r'id="gltf-physics-data">(.*?)</script>', html, re.S)[1])
    assert "live" not in data and "connect-src data: blob:" in html  # the plain replay page `view` writes
    bake = data["bake"]
    frames = state["step"] + 1
    assert bake["frames"] == frames and bake["nodes"] == [1, 2, 3, 7] and bake["rate"] == 60.0
    assert np.allclose(np.reshape(bake["translations"], (frames, 4, 3))[-1], last[:, 4:], atol=1e-5)
    csv = urllib.request.urlopen(base + "/trace.csv", timeout=TIMEOUT).read().decode().splitlines()
    assert csv[0] == "time,node,name,tx,ty,tz,qx,qy,qz,qw" and len(csv) == 1 + frames * 4
    row = csv[-1].split(",")
    assert int(row[1]) == 7 and np.allclose([float(v) for v in row[3:]], [*last[3, 4:], *last[3, :4]], atol=1e-6)


def test_a_push_for_one_step_is_exactly_that_force():
    # The ball (node 3, in the air) pushed up by its weight for one step does not move in that step.
    world = gp.World.from_file(EXAMPLE)
    t0 = world.pose(3)[0]
    world.push(3, [0.0, world.mass_properties(3).mass * 9.81, 0.0], t0)
    world.step()
    assert np.array_equal(world.pose(3)[0], t0)
    world.step()  # the push lasted one step: gravity alone again
    assert world.pose(3)[0][1] < t0[1]
    with pytest.raises(SimulationError, match="node 4 is not a dynamic body"):
        world.push(4, [0, 1, 0], [0, 0, 0])


def test_a_grab_drags_a_box_along_the_ground_by_the_targets_distance(tmp_path):
    session = LiveSession(gp.World.from_file(scenes.box_on_ground(tmp_path)))
    start = session.world.pose(1)[0].copy()
    target = start + np.array([0.5, 0.0, 0.0])  # the +X face's centre
    session.grab(7, 1, list(target))
    for _ in range(60):  # 1.5 m in 1 s, then 1 s to settle
        target[0] += 1.5 / 60
        session.drag(7, list(target))
        session.step_once()
    for _ in range(60):
        session.step_once()
    moved = session.world.pose(1)[0] - start
    # The spring's steady lag behind the target is the friction over its stiffness: μg/ω² = 0.6·9.81/(6π)² = 17 mm.
    assert moved[0] == pytest.approx(1.5, abs=0.03) and abs(moved[2]) < 0.01 and abs(moved[1]) < 0.01


def test_the_grab_force_is_limited_to_three_g(tmp_path):
    # Pulled toward a point 1 km up, the box (no friction in the air) accelerates at 3 g minus gravity.
    session = LiveSession(gp.World.from_file(scenes.box_on_ground(tmp_path)))
    p = session.world.pose(1)[0]
    session.grab(1, 1, list(p))
    session.drag(1, [p[0], p[1] + 1000.0, p[2]])
    for _ in range(30):
        session.step_once()
    y0 = session.world.pose(1)[0][1]
    for _ in range(30):
        session.step_once()
    y1 = session.world.pose(1)[0][1]
    v0, v1 = None, None
    # Mean velocities over the two half seconds differ by a·0.5 s.
    v0 = (y0 - p[1]) / 0.5
    v1 = (y1 - y0) / 0.5
    assert (v1 - v0) / 0.5 == pytest.approx(2 * 9.81, rel=0.02)
    assert math.isfinite(v1)


def test_driving_the_simple_car_with_w_for_two_seconds(tmp_path):
    # Rear wheels 2 × 2000 N on 1000 kg: a = 4 m/s², from rest d = a·T²/2 = 8.0 m in T = 2 s (the wheels' grip
    # 0.6 · the rear load is not exceeded; rolling losses nil in the ray-cast model).
    session = LiveSession(gp.World.from_file(scenes.car_on_ground(tmp_path)))
    for _ in range(60):  # 1 s: it drops onto its wheels and settles
        session.step_once()
    start = session.world.pose(0)[0].copy()
    session.drive(0, 1.0, 0.0, False)
    for _ in range(120):
        session.step_once()
    moved = session.world.pose(0)[0] - start
    expected = 0.5 * scenes.CAR_DRIVE_FORCE / scenes.CAR_MASS * 2.0**2
    assert expected == 8.0
    assert moved[2] == pytest.approx(expected, rel=0.03) and abs(moved[0]) < 0.05


def test_space_brakes_the_car_through_its_dampeners(tmp_path):
    # Braking: no throttle, linear dampeners on; each rear wheel brakes with its propulsion force (brakingForce
    # -1), the front wheels have none: 4000 N on 1000 kg, 4 m/s², so 8 m/s stops in about 2 s.
    session = LiveSession(gp.World.from_file(scenes.car_on_ground(tmp_path)))
    for _ in range(60):
        session.step_once()
    session.drive(0, 1.0, 0.0, False)
    for _ in range(120):
        session.step_once()
    z = [session.world.pose(0)[0][2]]
    session.drive(0, 1.0, 0.0, True)  # Space held with W: the brake wins
    for _ in range(3 * 60):
        session.step_once()
        z.append(session.world.pose(0)[0][2])
    speed = np.diff(z) * 60
    assert speed[0] == pytest.approx(8.0, rel=0.05)
    assert abs(speed[-1]) < 0.05  # stopped
    assert [e["value"] for e in list(session.inputs)[-3:]] == [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], True]


def test_grabbing_on_an_engine_that_cannot_push_is_refused_up_front():
    session = LiveSession(gp.World.from_file(EXAMPLE, engine="mujoco"))
    with pytest.raises(ValueError, match="the mujoco engine cannot push bodies: grabbing needs --engine rapier"):
        session.grab(1, 1, [0.0, 1.0, 0.0])
    session.step_once()  # the run goes on


def test_view_live_prints_the_url_and_stops_on_ctrl_c_with_one_line(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-m", "gltf_physics", "view", str(EXAMPLE), "--live"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        m = re.fullmatch(r"live at (http://127\.0\.0\.1:(\d+)/) \(Ctrl-C stops\)\n", line)
        assert m, line
        assert urllib.request.urlopen(m[1], timeout=TIMEOUT).status == 200
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert out == "live: stopped\n" and proc.returncode == 0
    assert "Traceback" not in err


def test_view_live_off_loopback_prints_a_token_url(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-m", "gltf_physics", "view", str(EXAMPLE), "--live", "--host",
                             "0.0.0.0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert re.fullmatch(r"live at http://0\.0\.0\.0:\d+/\?token=[\w-]{24} \(Ctrl-C stops\)\n", line), line
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0


def test_bad_live_options_are_one_line_and_exit_2(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-m", "gltf_physics", "view", str(EXAMPLE), "--live", "--port", "70000"],
                          capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert done.returncode == 2 and done.stderr.strip().endswith("--port 70000: expected 0 (any free port) to 65535")
    assert "Traceback" not in done.stderr


def test_the_tune_panel_shows_the_mass_the_runtime_uses_when_the_file_gives_none(tmp_path):
    # A KHR body without mass is weighed from its collider at 1000 kg/m³: the 1 × 0.5 × 1 m box is 500 kg.
    path = scenes.box_on_ground(tmp_path)
    gltf = json.loads(path.read_text(encoding="utf-8"))
    del gltf["nodes"][1]["extensions"]["KHR_physics_rigid_bodies"]["motion"]["mass"]
    path.write_text(json.dumps(gltf), encoding="utf-8")
    session = LiveSession(gp.World.from_file(path))
    [mass] = [s for s in session.settings if s.pointer.endswith("/motion/mass")]
    assert mass.value == pytest.approx(500.0, rel=1e-12)
