"""One sweep run, on a worker: the scene with the run's pointer values, simulated; final poses (and the trace).

Node transform pointers (``/nodes/N/translation|rotation|scale``) edit a copy of the document before the
scene is read (they change where everything starts); every other pointer goes through ``World.set`` once the
world is built, exactly like ``simulate --set``. No Dask here: the sweep submits :func:`run` as its tasks.
"""

from __future__ import annotations

import copy
import functools
import os
import re
from typing import Any

import numpy as np

from ..gltf.document import Document

_TRS = re.compile(r"^/nodes/(\d+)/(translation|rotation|scale)$")
_TRS_LENGTH = {"translation": 3, "rotation": 4, "scale": 3}


def is_node_transform(pointer: str) -> bool:
    """Whether ``pointer`` is a core node transform (applied to the document, before the world is built)."""
    return _TRS.match(pointer) is not None


def check_pointer(pointer: str) -> None:
    """ValueError naming ``pointer`` unless a sweep can vary it."""
    if is_node_transform(pointer):
        return
    from ..dialects.common import pointers

    pointers.resolve(pointer)


def run_chunk(scene: str, chunk: list[tuple[int, dict[str, Any]]], duration: float, rate: float, substeps: int,
              trace: bool) -> list[dict[str, Any]]:
    """Several runs in one task (a task costs the scheduler milliseconds; a small run costs less than that).

    The runs use the worker's own physics thread pool: a local cluster starts its workers with one thread per
    native pool (``RAYON_NUM_THREADS=1``: the workers are the parallelism). Not ``World(threads=1)``: the
    rapier3d bindings give each such world a pool whose thread outlives it (measured: 30 worlds, 30 more
    threads, after ``gc.collect()`` too), so a worker running 1,000 runs held 500 threads and its time went to
    the kernel (2 workers no faster than 1 on a 2,048-run sweep). Results do not depend on the thread count."""
    return [run(scene, index, values, duration, rate, substeps, trace) for index, values in chunk]


def run(scene: str, index: int, values: dict[str, Any], duration: float, rate: float, substeps: int,
        trace: bool, threads: int | None = None) -> dict[str, Any]:
    """Run ``index``: ``nodes``, ``names``, final ``poses`` (B, 7: tx ty tz qx qy qz qw), ``events`` and, with
    ``trace``, ``times`` (F,) and ``frames`` (F, B, 7); ``threads``: the physics engine's (default: its own)."""
    from ..dialects import read_scene
    from ..sim import World

    doc = _document(scene)
    edits = {p: v for p, v in values.items() if is_node_transform(p)}
    if edits:
        doc = Document(json=_with_transforms(doc.json, edits), buffers=doc.buffers, path=doc.path,
                       is_glb=doc.is_glb)
    world = World(read_scene(doc), rate=rate, substeps=substeps, record=trace, threads=threads)
    for pointer, value in values.items():
        if pointer not in edits:
            world.set(pointer, value)
    world.run(duration)
    nodes, translations, rotations = world.poses()
    result: dict[str, Any] = {"run": index, "nodes": nodes, "names": _names(doc, nodes),
                              "poses": np.concatenate([translations, rotations], axis=1),
                              "events": len(world.events())}
    if trace and world.recording is not None:
        rec = world.recording
        result["times"] = rec.times.copy()
        result["frames"] = np.concatenate([rec.translations, rec.rotations], axis=2).astype(np.float64)
    return result


def preload() -> None:
    """Import what a run needs (the readers and the physics engine), once."""
    from ..dialects import read_scene  # noqa: F401
    from ..sim import World  # noqa: F401


@functools.lru_cache(maxsize=4)
def _cached(path: str, stamp: tuple[int, int]) -> Document:
    from ..gltf.io import load

    return load(path)


def _document(path: str) -> Document:
    """The scene, loaded once per worker process (re-read if the file changed)."""
    st = os.stat(path)
    return _cached(path, (st.st_mtime_ns, st.st_size))


def _with_transforms(gltf: dict[str, Any], edits: dict[str, Any]) -> dict[str, Any]:
    out = dict(gltf)
    out["nodes"] = copy.deepcopy(gltf.get("nodes", []))
    for pointer, value in edits.items():
        m = _TRS.match(pointer)
        assert m is not None
        index, prop = int(m[1]), m[2]
        if index >= len(out["nodes"]) or not isinstance(out["nodes"][index], dict):
            raise ValueError(f"{pointer}: there is no node {index}")
        node = out["nodes"][index]
        if "matrix" in node:
            raise ValueError(f"{pointer}: node {index} has a matrix, not translation/rotation/scale")
        if not (isinstance(value, list) and len(value) == _TRS_LENGTH[prop]):
            raise ValueError(f"{pointer}: expected {_TRS_LENGTH[prop]} numbers, got {value!r}")
        node[prop] = value
    return out


def _names(doc: Document, nodes: np.ndarray) -> list[str | None]:
    all_nodes = doc.json.get("nodes", [])
    names = []
    for n in nodes.tolist():
        name = all_nodes[n].get("name") if isinstance(all_nodes[n], dict) else None
        names.append(name if isinstance(name, str) else None)
    return names
