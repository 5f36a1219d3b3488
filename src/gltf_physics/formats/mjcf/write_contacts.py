"""The MJCF writer's contact filtering: filter classes as ``contype``/``conaffinity`` bits (exact for the
symmetric rule up to 32 classes), ``<exclude>`` per body pair beyond that, and explicit ``<pair>`` elements where a
nested joint enables collision between its bodies (MuJoCo skips parent–child contacts)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any


class ContactFilters:
    """Mixed into the MJCF writer (``write._Writer``), whose state it reads: ``scene``, ``index``, ``elements``,
    ``contact``, ``collide_pairs``, ``pending_excludes`` and ``loss``; it sets ``table`` (may class i touch class
    j) and ``bits`` (filter key → (contype, conaffinity)) for the geoms."""

    scene: Any
    index: Any
    elements: dict[int | None, ET.Element]
    contact: ET.Element
    collide_pairs: list[tuple[int, int]]
    pending_excludes: bool
    loss: Any

    def _filters(self) -> None:
        """Every filter class's bits, or (beyond 32 classes) the excludes to write once the geoms are known."""
        from ...sim.filters import class_table

        keys = sorted({c.filter for c in self.scene.colliders} | {t.filter for t in self.scene.triggers}
                      | {None}, key=lambda k: -1 if k is None else k)
        self.index.filter_keys = keys
        filters = [self.scene.filters[k] if k is not None and 0 <= k < len(self.scene.filters) else None
                   for k in keys]
        self.table = class_table(filters)
        self.bits: dict[int | None, tuple[int, int]] = {}
        if all(all(row) for row in self.table):
            return  # everything collides: MuJoCo's defaults
        if len(keys) <= 32:
            for i, k in enumerate(keys):
                self.bits[k] = (1 << i, sum(1 << j for j, ok in enumerate(self.table[i]) if ok))
        else:
            self.loss("MJCF-3", "/", f"{len(keys)} filter classes exceed MuJoCo's 32 bits: written as "
                      "<exclude> per body pair that never collides")
            self.pending_excludes = True

    def _filter_excludes(self) -> None:
        """Beyond 32 classes: exclude body pairs none of whose geom pairs may collide (approximate)."""
        classes = {k: i for i, k in enumerate(self.index.filter_keys)}
        per_body: dict[str, set[int]] = {}
        for el_node, el in self.elements.items():
            name = "world" if el_node is None else el.get("name", "")
            per_body[name] = set()
        for _, node, key in self.index.solids:
            body = self.index.body.get(node, "world")
            per_body.setdefault(body, set()).add(classes[key])
        names = sorted(per_body)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if per_body[a] and per_body[b] and not any(self.table[x][y] for x in per_body[a]
                                                           for y in per_body[b]):
                    ET.SubElement(self.contact, "exclude", body1=a, body2=b)

    def _collide_pairs(self) -> None:
        """enableCollision on a nested joint: MuJoCo skips parent–child contacts, explicit pairs do not."""
        cls = {k: i for i, k in enumerate(self.index.filter_keys)}
        by_body: dict[int, list[tuple[str, int]]] = {}
        for geom, node, key in self.index.solids:
            by_body.setdefault(node, []).append((geom, cls[key]))
        for parent, child in self.collide_pairs:
            for g1, c1 in by_body.get(parent, []):
                for g2, c2 in by_body.get(child, []):
                    if self.table[c1][c2]:  # a pair overrides contype/conaffinity: keep the filters' verdict
                        ET.SubElement(self.contact, "pair", geom1=g1, geom2=g2)
