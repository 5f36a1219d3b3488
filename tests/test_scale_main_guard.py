"""`gp.batch` in a script without ``if __name__ == "__main__":``: one clear error before any worker starts,
instead of Dask's tracebacks from every worker re-running the script (the [scale] extra)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "tumbling_boxes.gltf"
pytest.importorskip("distributed")  # the [scale] extra


def run_script(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "script.py"
    script.write_text(text)
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=180, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})


def test_a_top_level_batch_without_the_guard_is_one_clear_error(tmp_path: Path) -> None:
    r = run_script(tmp_path, f"import gltf_physics as gp\n\ntable = gp.batch([{str(EXAMPLE)!r}], 'info', workers=1)\n")
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == (
        "gltf_physics.scale.main_guard.MissingMainGuard: gp.batch and gp.sweep start worker processes that each "
        're-run script.py from the top: put the call (line 3) under if __name__ == "__main__":')
    assert "bootstrapping" not in r.stderr and "Nanny" not in r.stderr


def test_a_function_called_from_the_top_level_is_caught_too(tmp_path: Path) -> None:
    r = run_script(tmp_path, "import gltf_physics as gp\n\ndef go():\n    return gp.sweep('x.gltf', {}, 1)\n\n\ngo()\n")
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1].endswith('put the call (line 7) under if __name__ == "__main__":')


def test_with_the_guard_the_batch_runs(tmp_path: Path) -> None:
    r = run_script(tmp_path, "import gltf_physics as gp\n\nif __name__ == '__main__':\n"
                   f"    table = gp.batch([{str(EXAMPLE)!r}], 'info', workers=1)\n"
                   "    print(table.column('status').to_pylist(), table.column('bodies_dynamic').to_pylist())\n")
    assert (r.returncode, r.stdout) == (0, "['ok'] [4]\n"), r.stderr
