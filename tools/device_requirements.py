"""Check that this interpreter has every requirement of gltf-physics and its ``[scale]`` extra, and theirs, in
range: one line per distribution (version, where it was found), a warning for a version outside the range the
project declares, exit 1 on a missing one. Run from the repo root (it reads pyproject.toml), with the same
PYTHONPATH as the code it checks for: ``python tools/device_requirements.py [EXTRA ...]`` (default ``scale``).
"""

from __future__ import annotations

import importlib.metadata as metadata
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


def project_requirements(extras: list[str]) -> list[Requirement]:
    """The core requirements and those of ``extras``, as pyproject.toml declares them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = list(project["dependencies"])
    for extra in extras:
        lines += project["optional-dependencies"][extra]
    return [Requirement(line) for line in lines]


def applies(req: Requirement, extras: set[str]) -> bool:
    """Whether ``req`` is needed here, for a distribution asked for with ``extras``."""
    if req.marker is None:
        return True
    return any(req.marker.evaluate({"extra": extra}) for extra in extras or {""})


def walk(reqs: list[Requirement]) -> tuple[list[str], list[str]]:
    """Every distribution ``reqs`` need, depth first: (report lines, missing names)."""
    lines: list[str] = []
    missing: list[str] = []
    seen: set[str] = set()
    todo = [(req, set()) for req in reqs]
    while todo:
        req, wanted = todo.pop(0)
        if not applies(req, wanted):
            continue
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            missing.append(req.name)
            lines.append(f"  MISSING  {req}")
            continue
        key = dist.metadata["Name"].lower()
        in_range = req.specifier.contains(dist.version, prereleases=True)
        if key not in seen or not in_range:
            where = Path(str(dist.locate_file(""))).as_posix()
            flag = "ok     " if in_range else "WARNING"
            lines.append(f"  {flag}  {dist.metadata['Name']} {dist.version} ({req.specifier or 'any'}) {where}")
        if key in seen:
            continue
        seen.add(key)
        todo += [(Requirement(line), set(req.extras)) for line in dist.requires or []]
    return lines, missing


def main() -> None:
    """Print the check; exit 1 if a requirement is missing."""
    extras = sys.argv[1:] or ["scale"]
    lines, missing = walk(project_requirements(extras))
    print(f"requirements of gltf-physics[{','.join(extras)}] on Python {sys.version.split()[0]}:")
    print("\n".join(lines))
    if missing:
        print(f"missing: {', '.join(sorted(set(missing)))}", file=sys.stderr)
        raise SystemExit(1)


if __name__ == "__main__":
    main()
