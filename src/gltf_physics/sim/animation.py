"""File animations at runtime (docs/semantics.md, docs/semantics.md): engine-agnostic sampling schedule.

"File animation of a body overrides simulation": a body follows the animation when its node, or an ancestor
below its nearest motion ancestor, has an animated translation/rotation/scale channel; the walk stops at a
motion ancestor because a descendant body is independent of its parent body (docs/semantics.md). A collider
or trigger with no motion ancestor is static but "follows animated transforms" when its node or any ancestor
up to the root is animated. Only the document's FIRST animation plays (the common engine default), from
t = 0, holding its last keys after it ends (no looping). Followed poses are world matrices of the file
hierarchy with sampled local matrices: unanimated ancestors keep their file transforms, bodies included.

``AnimationSchedule.for_scene`` returns ``None`` for a scene without usable animation channels, so such
scenes build and step exactly as before. The per-step cost is one product of precomputed factors per followed
node: consecutive unanimated nodes of a chain are premultiplied once here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..gltf.animation import NodeTracks, node_tracks, sample_local
from ..gltf.hierarchy import ancestors, parents
from ..gltf.transforms import local_matrix
from ..model import PhysicsScene

Factor = np.ndarray | int  # a constant matrix, or an animated node sampled at each time


class AnimationSchedule:
    def __init__(self, gltf: dict[str, Any], tracks: dict[int, NodeTracks], skipped: list[str]) -> None:
        self.gltf = gltf
        self.tracks = tracks
        self.skipped = skipped  # descriptions of malformed channels that were ignored
        nodes = gltf.get("nodes")
        self.nodes: list[Any] = nodes if isinstance(nodes, list) else []
        self.parent_of = parents(gltf)
        self._chains: dict[int, list[Factor]] = {}

    @classmethod
    def for_scene(cls, scene: PhysicsScene) -> AnimationSchedule | None:
        doc = scene.document
        if doc is None or not doc.json.get("animations"):
            return None
        skipped: list[str] = []
        tracks = node_tracks(doc, 0, skipped)
        return cls(doc.json, tracks, skipped) if tracks else None

    # -- who follows ---------------------------------------------------------------------------------
    def animated_within(self, node: int, stop: set[int] | frozenset[int] = frozenset()) -> bool:
        """Whether ``node`` or one of its ancestors below the first ``stop`` node is animated."""
        if node in self.tracks:
            return True
        for a in ancestors(self.parent_of, node):
            if a in stop:
                return False
            if a in self.tracks:
                return True
        return False

    # -- sampling ------------------------------------------------------------------------------------
    def local(self, node: int, t: float) -> np.ndarray:
        return sample_local(self.nodes[node], self.tracks.get(node), t)

    def world(self, node: int, t: float) -> np.ndarray:
        """World 4×4 of ``node`` at time ``t`` (scale included)."""
        chain = self._chains.get(node)
        if chain is None:
            chain = self._chains[node] = self._chain(node)
        m = np.eye(4)
        for f in chain:
            m = m @ (self.local(f, t) if isinstance(f, int) else f)
        return m

    def _chain(self, node: int) -> list[Factor]:
        """Root-first factors of the node's world matrix, runs of unanimated nodes premultiplied."""
        path = [node, *ancestors(self.parent_of, node)][::-1]
        chain: list[Factor] = []
        const: np.ndarray | None = None
        for n in path:
            if n in self.tracks:
                if const is not None:
                    chain.append(const)
                    const = None
                chain.append(n)
            else:
                rest = local_matrix(self.nodes[n] if isinstance(self.nodes[n], dict) else {})
                const = rest if const is None else const @ rest
        if const is not None:
            chain.append(const)
        return chain

    def world_all(self, t: float) -> list[np.ndarray]:
        """World matrices of every node at time ``t`` (the build pose: the animation at t = 0)."""
        return [self.world(n, t) for n in range(len(self.nodes))]
