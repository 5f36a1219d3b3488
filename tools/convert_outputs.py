"""Write `gltf-physics convert --to omi|khr --report` outputs (.gltf and .glb) of every fixture into a folder, to
compare two checkouts byte for byte (the writers' speed-ups must not move a byte).

    PYTHONPATH=/work/main/src python tools/convert_outputs.py /tmp/out_main
    PYTHONPATH=$PWD/src       python tools/convert_outputs.py /tmp/out_branch
    diff -r /tmp/out_main /tmp/out_branch && echo identical

The CLI runs in-process (one start-up for ~600 conversions); besides the fixtures (GLTF_PHYSICS_FIXTURES), the
examples and two bench/scale.py documents (300 and 2,000 nodes) are converted. ``log.txt`` holds each command's
exit code and printed lines; the outputs land in the same relative places, so a diff names the file that moved.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from gltf_physics.api import save  # noqa: E402
from gltf_physics.cli import main  # noqa: E402
from scale import build  # noqa: E402


def sources(scratch: Path) -> list[Path]:
    fixtures = Path(os.environ.get("GLTF_PHYSICS_FIXTURES", ROOT.parent / "shared" / "fixtures"))
    found = sorted(p for p in fixtures.rglob("*") if p.suffix.lower() in (".gltf", ".glb"))
    found += sorted((ROOT / "examples").glob("*.gltf"))
    for n in (300, 2000):
        path = scratch / f"scale{n}.gltf"
        save(build(n), path)
        found.append(path)
    return found


def run(out: Path) -> None:
    """Convert every source both ways into ``out`` (work in a fixed temporary path, so printed paths match)."""
    log = []
    scratch = Path(tempfile.gettempdir()) / "gltf_physics_convert_outputs"  # fixed: reports name their source
    scratch.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "out"
        for i, src in enumerate(sources(scratch)):
            for to in ("omi", "khr"):
                for ext in (".gltf", ".glb"):
                    folder = work / f"{i:03d}_{src.stem}_{to}{ext[1:]}"
                    folder.mkdir(parents=True)
                    printed = io.StringIO()
                    code: object = 0
                    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                        try:
                            main(["convert", str(src), str(folder / f"out{ext}"), "--to", to,
                                  "--report", str(folder / "report.json")])
                        except SystemExit as exc:
                            code = exc.code
                    text = printed.getvalue().replace(str(work), "OUT").replace(tmp, "TMP")
                    log.append(f"{src.name} {to} {ext} exit={code}\n{text}")
        (work / "log.txt").write_text("\n".join(log), encoding="utf-8")
        out.mkdir(parents=True, exist_ok=True)
        for path in sorted(work.rglob("*")):
            target = out / path.relative_to(work)
            if path.is_dir():
                target.mkdir(exist_ok=True)
            else:
                target.write_bytes(path.read_bytes())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="the folder the outputs are written into (made if absent)")
    run(parser.parse_args().out)
