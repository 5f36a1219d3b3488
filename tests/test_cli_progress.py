"""Progress bars only on a terminal and only for runs past 2 s of wall time; Ctrl-C says where the run stopped,
exits 130 and leaves no file; Ctrl-C on `batch` is its one line, without the workers' tracebacks.

Ctrl-C is a real SIGINT: sent by the process to itself after a given step (a deterministic point in the run), or
to the whole process group as a terminal does, once the batch's journal shows one asset done and the next is held
under way.
"""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TERM": "xterm", "COLUMNS": "100"}


def run_cli(folder: Path, args: list[str], *, interrupt_at_step: int | None = None, show_after: float | None = None,
            stderr: int | None = None) -> subprocess.Popen[bytes]:
    """`gltf-physics ARGS` in a fresh interpreter; SIGINT to itself once step ``interrupt_at_step`` is done."""
    code = ["import os, signal", "from gltf_physics.sim.world import World"]
    if interrupt_at_step is not None:
        code += ["original = World.step",
                 "def step(self):",
                 "    original(self)",
                 f"    if self.step_count == {interrupt_at_step + 1}:",
                 "        os.kill(os.getpid(), signal.SIGINT)",
                 "World.step = step"]
    if show_after is not None:
        code += ["import gltf_physics.cli.progress as progress", f"progress.SHOW_AFTER = {show_after}"]
    code += ["from gltf_physics.cli import main", f"main({args!r})"]
    return subprocess.Popen([sys.executable, "-c", "\n".join(code)], cwd=folder, env=ENV, stdout=subprocess.PIPE,
                            stderr=stderr if stderr is not None else subprocess.PIPE)


@pytest.mark.parametrize("command", [["simulate", str(EXAMPLE), "--duration", "10", "-o", "out.gltf",
                                      "--trace", "t.csv", "--events", "e.jsonl"],
                                     ["view", str(EXAMPLE), "--simulate", "10", "--out", "page.html"]])
def test_ctrl_c_during_a_run_says_where_it_stopped_and_writes_nothing(tmp_path: Path, command: list[str]) -> None:
    p = run_cli(tmp_path, command, interrupt_at_step=192)  # 192 steps at 60 Hz: 3.2 s
    out, err = p.communicate(timeout=120)
    assert (p.returncode, out, err.decode()) == (130, b"", "interrupted at t = 3.2 s; nothing written\n")
    assert sorted(os.listdir(tmp_path)) == []  # no output, no temporary file


def read_terminal(p: subprocess.Popen[bytes], master: int) -> bytes:
    """Everything written to the pseudo-terminal until the process ends."""
    data = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal closed with the process
                break
            data += chunk
        elif p.poll() is not None:
            break
    p.wait(timeout=60)
    return data


@pytest.mark.parametrize(("show_after", "shown"), [(0.0, True), (None, False)])
def test_the_bar_is_for_a_terminal_and_a_run_past_two_seconds(tmp_path: Path, show_after: float | None,
                                                                shown: bool) -> None:
    master, slave = pty.openpty()
    try:
        p = run_cli(tmp_path, ["simulate", str(EXAMPLE), "--duration", "1"], show_after=show_after, stderr=slave)
        os.close(slave)
        screen = read_terminal(p, master)
    finally:
        os.close(master)
    assert p.returncode == 0
    assert (b"simulating" in screen) is shown  # a 1 s run takes well under 2 s: the default shows no bar


# The batch's second asset never ends by itself (tests/batch_faults.py: ``*.hang.gltf`` sleeps in its runner, which
# the fork inherits from here), so the Ctrl-C lands while it runs, whatever the machine's load: a batch of quick
# assets could otherwise finish between the first journal line and the signal.
BATCH_WITH_A_HANG = """
import batch_faults
from gltf_physics.scale import tasks
run = tasks.run
tasks.run = lambda command, path, options: (batch_faults.fault(path), run(command, path, options))[1]
from gltf_physics.cli import main
main({args!r})
"""


def test_ctrl_c_on_batch_is_one_line_without_worker_tracebacks(tmp_path: Path) -> None:
    pytest.importorskip("distributed")  # the [scale] extra
    assets = tmp_path / "assets"
    assets.mkdir()
    for name in ["a0.gltf", "a1.hang.gltf", *(f"a{i}.gltf" for i in range(2, 8))]:  # run in this order
        (assets / name).write_text(EXAMPLE.read_text())
    journal = tmp_path / "rows.jsonl.partial.jsonl"
    args = ["batch", "simulate", "assets", "--duration", "30", "--workers", "2", "--out", "rows.jsonl"]
    env = {**ENV, "PYTHONPATH": os.pathsep.join([ENV["PYTHONPATH"], str(ROOT / "tests")])}
    p = subprocess.Popen([sys.executable, "-c", BATCH_WITH_A_HANG.format(args=args)], cwd=tmp_path, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while not (journal.is_file() and journal.read_text().count("\n") >= 1):  # a0 is done, a1 is under way
        assert p.poll() is None and time.monotonic() < deadline, p.communicate()
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C: every process of the group
    out, err = p.communicate(timeout=120)
    assert (p.returncode, out) == (130, "")
    assert err == "interrupted after 1 asset(s); --resume --out rows.jsonl does the rest\n"
    assert [json.loads(line)["path"] for line in journal.read_text().splitlines()] == ["assets/a0.gltf"]
