"""The node tree of a USD stage as glTF nodes and meshes (the half of reading USD that is not physics).

Every ``Xformable`` prim is a glTF node (``Scope``s and other untransformed prims are see-through), except
the parts our writer hangs under a node (``customData["gltfPhysics"]["role"]`` ``mesh`` / ``collider`` /
``meshData``) and its ``/World`` root. Files we wrote carry glTF node and mesh indices in ``customData`` and
are read back to the same indices; any other USD file gets indices in traversal order. A Z-up stage is
wrapped in one root node that turns it Y-up. Also here: how single-precision USD values become ours.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from ...gltf.document import Document
from ...model import PhysicsScene, ReadNote
from .out import NS

Z_UP_TO_Y_UP = (-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))  # −90° about X: +Z becomes +Y


def shortest(stored: float, to_si: Any = None, from_si: Any = None) -> float:
    """The shortest decimal whose single-precision USD form is ``stored``: 0.1f reads as 0.1. A converted
    value (``to_si``/``from_si``: USD unit ↔ ours) that is a short decimal in USD units (45°) converts exactly
    (π/4); otherwise it reads as the shortest value in our units that writes back the same float, so radians
    written as float degrees come back as written (0.0174533 rad → 1.0000004f° → 0.0174533)."""
    short = float(str(np.float32(stored))) if math.isfinite(stored) else float(stored)
    if to_si is None or not math.isfinite(short):
        return short
    if len(f"{short:.7g}".rstrip("0").replace("-", "").replace(".", "").lstrip("0")) <= 6:
        return to_si(short)  # a round number of degrees (45, 0.5) was meant as such: π/4 stays π/4
    exact = to_si(short)
    target = np.float32(stored)
    for digits in range(1, 18):
        x = float(f"{exact:.{digits}g}")
        if np.float32(from_si(x) if from_si else x) == target:
            return x
    return exact


def f32(v: float) -> float:
    """A single-precision USD value in our units, as the shortest decimal that is that float."""
    return shortest(v)


def deg(v: float) -> float:
    """Float degrees (or degrees per second) → radians, the shortest that writes back the same float."""
    return shortest(v, math.radians, math.degrees)


def per_deg(v: float) -> float:
    """A float per-degree gain (angular drive stiffness, damping) → per radian, likewise."""
    return shortest(v, lambda x: x * 180 / math.pi, lambda x: x * math.pi / 180)


def vec(v: Any, single: bool = True) -> tuple[float, ...]:
    return tuple(f32(x) if single else float(x) for x in v)


def quat(q: Any, single: bool = True) -> tuple[float, float, float, float]:
    """USD (w, x, y, z) → model xyzw."""
    im = q.GetImaginary()
    conv = f32 if single else float
    return (conv(im[0]), conv(im[1]), conv(im[2]), conv(q.GetReal()))


def custom(prim: Any) -> dict[str, Any]:
    data = prim.GetCustomDataByKey(NS)
    return dict(data) if data else {}


class NodeTree:
    """Reads the prims into ``json_nodes`` / ``meshes``; the physics reader builds on it."""

    def __init__(self, pxr: Any, stage: Any) -> None:
        self.pxr, self.stage = pxr, stage
        self.scene = PhysicsScene()
        self.order: list[Any] = []  # node prims, traversal order
        self.node_of: dict[Any, int] = {}  # prim path → glTF node index
        self.parent_of: dict[Any, Any] = {}  # node prim path → parent node prim path (None at the root)
        self.json_nodes: list[dict[str, Any]] = []
        self.meshes: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.mesh_of_prim: dict[Any, int] = {}
        self.wrapper: int | None = None
        self.up = "Y"

    def note(self, code: str, where: Any, message: str) -> None:
        self.scene.notes.append(ReadNote(code, str(where), message))

    def _units(self) -> None:
        UsdGeom, UsdPhysics = self.pxr.UsdGeom, self.pxr.UsdPhysics
        self.up = UsdGeom.GetStageUpAxis(self.stage)
        mpu = UsdGeom.GetStageMetersPerUnit(self.stage)
        kpu = UsdPhysics.GetStageKilogramsPerUnit(self.stage)
        if mpu != 1.0 or kpu != 1.0:
            self.note("USD-13", "/", f"metersPerUnit {mpu:g}, kilogramsPerUnit {kpu:g}: values are read as metres "
                      "and kilograms, not rescaled")

    def _walk(self, prim: Any, parent: Any) -> None:
        for child in prim.GetChildren():
            if not child.IsActive() or not child.IsDefined() or child.IsAbstract():
                continue
            if child.IsA(self.pxr.UsdShade.Material) and not child.HasAPI(self.pxr.UsdPhysics.MaterialAPI):
                continue
            self._unsupported(child)
            role = custom(child).get("role")
            is_node = child.IsA(self.pxr.UsdGeom.Xformable) and role not in ("root", "mesh", "collider",
                                                                                "meshData", "trigger")
            if role in ("mesh", "meshData") and "mesh" in custom(child):
                self._register_mesh(child, int(custom(child)["mesh"]))
            if is_node:
                self.order.append(child.GetPath())
                self.parent_of[child.GetPath()] = parent
                self._walk(child, child.GetPath())
            else:
                self._walk(child, parent)

    def _unsupported(self, prim: Any) -> None:
        """Notes for what a foreign file may carry that glTF physics cannot hold."""
        UsdPhysics = self.pxr.UsdPhysics
        if prim.IsInstance():
            self.note("USD-12", prim.GetPath(), "an instanced prim: its prototype's content is not read")
        if prim.HasAPI(UsdPhysics.FilteredPairsAPI):
            self.note("USD-12", prim.GetPath(), "filtered pairs: no glTF counterpart, those pairs collide")
        if prim.HasAPI(UsdPhysics.MassAPI) and not prim.HasAPI(UsdPhysics.RigidBodyAPI):
            self.note("USD-12", prim.GetPath(), "mass on a collider: the body's mass is computed from shapes")

    def _index_nodes(self) -> None:
        stored = {p: custom(self.stage.GetPrimAtPath(p)).get("node") for p in self.order}
        taken = {v for v in stored.values() if isinstance(v, int)}
        valid = len(taken) == sum(isinstance(v, int) for v in stored.values())  # no duplicates
        n = (max(taken) + 1) if taken and valid else 0
        for p in self.order:
            v = stored[p]
            if valid and isinstance(v, int) and v >= 0:
                self.node_of[p] = v
            else:
                self.node_of[p] = n
                n += 1
        self.json_nodes = [{} for _ in range(n)]
        for p in self.order:
            self.json_nodes[self.node_of[p]] = self._node_json(self.stage.GetPrimAtPath(p))
        for p in self.order:
            parent = self.parent_of[p]
            if parent is not None:
                self.json_nodes[self.node_of[parent]].setdefault("children", []).append(self.node_of[p])
        if self.up == self.pxr.UsdGeom.Tokens.z:
            roots = [self.node_of[p] for p in self.order if self.parent_of[p] is None]
            self.wrapper = self._helper_node(None, {"name": "Z_up_to_Y_up", "rotation": list(Z_UP_TO_Y_UP),
                                                    "children": roots})

    def _helper_node(self, parent: int | None, node: dict[str, Any]) -> int:
        self.json_nodes.append(node)
        index = len(self.json_nodes) - 1
        if parent is not None:
            self.json_nodes[parent].setdefault("children", []).append(index)
        return index

    def _node_json(self, prim: Any) -> dict[str, Any]:
        data = custom(prim)
        node: dict[str, Any] = {}
        if "name" in data:
            node["name"] = str(data["name"])
        elif "node" not in data:
            node["name"] = prim.GetName()
        node.update(self._transform(prim))
        node.update(self._kept(prim))
        mesh = self._visual_mesh(prim)
        if mesh is not None:
            node["mesh"] = mesh
        return node

    def _transform(self, prim: Any) -> dict[str, Any]:
        UsdGeom = self.pxr.UsdGeom
        xf = UsdGeom.Xformable(prim)
        if xf.GetResetXformStack():
            self.note("USD-12", prim.GetPath(), "resetXformStack: read as a transform relative to the parent")
        ops = xf.GetOrderedXformOps()
        kinds = [op.GetOpType() for op in ops]
        T = UsdGeom.XformOp
        trs = (T.TypeTranslate, T.TypeOrient, T.TypeScale)
        if all(k in trs for k in kinds) and kinds == sorted(kinds, key=trs.index) and len(set(kinds)) == len(kinds) \
                and not any(op.IsInverseOp() for op in ops):
            out: dict[str, Any] = {}
            for op in ops:
                single = op.GetPrecision() != T.PrecisionDouble
                value = op.Get()
                if op.GetOpType() == T.TypeTranslate:
                    out["translation"] = list(vec(value, single))
                elif op.GetOpType() == T.TypeOrient:
                    out["rotation"] = list(quat(value, single))
                else:
                    out["scale"] = list(vec(value, single))
            return out
        matrix = xf.GetLocalTransformation()
        flat = [float(matrix[r][c]) for r in range(4) for c in range(4)]  # USD row-major Mᵀ = glTF column-major
        return {} if flat == [float(v) for v in np.eye(4).reshape(-1)] else {"matrix": flat}

    def _visual_mesh(self, prim: Any) -> int | None:
        for child in prim.GetChildren():
            data = custom(child)
            if data.get("role") == "mesh" and "mesh" in data:
                return int(data["mesh"])
        if prim.IsA(self.pxr.UsdGeom.Mesh) and "node" not in custom(prim):
            return self._register_mesh(prim, None)
        return None

    def _register_mesh(self, prim: Any, index: int | None) -> int:
        if prim.GetPath() in self.mesh_of_prim:
            return self.mesh_of_prim[prim.GetPath()]
        if index is None:
            index = max(self.meshes, default=-1) + 1
        if index not in self.meshes:
            self.meshes[index] = self._triangles(prim)
        self.mesh_of_prim[prim.GetPath()] = index
        return index

    def _triangles(self, prim: Any) -> tuple[np.ndarray, np.ndarray]:
        """Points and triangles (polygons as fans); faces that run past the index list or name a point that
        does not exist are dropped with a note, so the glTF written from them stays valid."""
        mesh = self.pxr.UsdGeom.Mesh(prim)
        points = np.asarray(mesh.GetPointsAttr().Get() or [], dtype=np.float32).reshape(-1, 3)
        counts = np.asarray(mesh.GetFaceVertexCountsAttr().Get() or [], dtype=np.int64)
        indices = np.asarray(mesh.GetFaceVertexIndicesAttr().Get() or [], dtype=np.int64)
        if len(counts) and np.all(counts == 3) and len(indices) == 3 * len(counts):
            tris = indices.reshape(-1, 3)
        else:
            found: list[list[int]] = []
            start = 0
            for c in counts:  # USD faces are planar and convex in practice: a fan is exact
                face = indices[start:start + c]
                if len(face) == c:
                    found += [[int(face[0]), int(face[k]), int(face[k + 1])] for k in range(1, c - 1)]
                start += c
            tris = np.asarray(found, dtype=np.int64).reshape(-1, 3)
        ok = np.all((tris >= 0) & (tris < len(points)), axis=1) if len(tris) else np.zeros(0, dtype=bool)
        if len(tris) != int(ok.sum()) or int(counts.sum()) != len(indices):
            self.note("USD-12", prim.GetPath(), "mesh faces with indices past its points or index list: dropped")
        return points, tris[ok]

    def _node_for(self, path: Any) -> int | None:
        """The glTF node a prim belongs to: itself, or the nearest node prim above it."""
        while path is not None and not path.isEmpty and path != self.pxr.Sdf.Path.absoluteRootPath:
            if path in self.node_of:
                return self.node_of[path]
            path = path.GetParentPath()
        return None

    def _kept(self, prim: Any) -> dict[str, Any]:
        """The plain glTF JSON our writer kept in customData (lights, cameras, extras…), or ``{}``."""
        text = custom(prim).get("gltf")
        try:
            kept = json.loads(str(text)) if text is not None else {}
        except ValueError:
            self.note("USD-12", prim.GetPath(), f"unreadable {NS} glTF data: skipped")
            return {}
        return kept if isinstance(kept, dict) else {}

    def _document(self) -> Document:
        gltf: dict[str, Any] = {"asset": {"version": "2.0", "generator": "gltf-physics (from OpenUSD)"}}
        root = self.stage.GetDefaultPrim()
        if root and custom(root).get("role") == "root":
            gltf.update(self._kept(root))
        has_parent = {c for n in self.json_nodes for c in n.get("children", [])}
        gltf["scene"] = 0
        gltf["scenes"] = [{"nodes": [i for i in range(len(self.json_nodes)) if i not in has_parent]}]
        gltf["nodes"] = self.json_nodes
        data = bytearray()
        if self.meshes:
            gltf["meshes"], gltf["accessors"], gltf["bufferViews"] = [], [], []
            for m in range(max(self.meshes) + 1):
                points, tris = self.meshes.get(m, (np.zeros((0, 3), np.float32), np.zeros((0, 3), np.int64)))
                gltf["meshes"].append({"primitives": [_primitive(gltf, data, points, tris)]})
            gltf["buffers"] = [{"byteLength": len(data)}]
        return Document(json=gltf, buffers=[bytes(data)] if self.meshes else [], path=None)


def _primitive(gltf: dict[str, Any], data: bytearray, points: np.ndarray, tris: np.ndarray) -> dict[str, Any]:
    """POSITION + indices accessors for one triangle list, appended to ``data`` (4-byte aligned)."""
    if len(points) == 0:  # keep the mesh index valid: one point at the origin, no triangles (mode POINTS)
        points, tris = np.zeros((1, 3), np.float32), np.zeros((0, 3), np.int64)
    pos = _view(gltf, data, np.ascontiguousarray(points, dtype="<f4").tobytes(), 34962)
    gltf["accessors"].append({"bufferView": pos, "componentType": 5126, "count": len(points), "type": "VEC3",
                              "min": [float(v) for v in points.min(axis=0)],
                              "max": [float(v) for v in points.max(axis=0)]})
    prim: dict[str, Any] = {"attributes": {"POSITION": len(gltf["accessors"]) - 1}}
    if len(tris):
        idx = _view(gltf, data, np.ascontiguousarray(tris, dtype="<u4").reshape(-1).tobytes(), 34963)
        gltf["accessors"].append({"bufferView": idx, "componentType": 5125, "count": int(tris.size),
                                  "type": "SCALAR"})
        prim["indices"] = len(gltf["accessors"]) - 1
    else:
        prim["mode"] = 0
    return prim


def _view(gltf: dict[str, Any], data: bytearray, chunk: bytes, target: int) -> int:
    data.extend(b"\0" * (-len(data) % 4))
    gltf["bufferViews"].append({"buffer": 0, "byteOffset": len(data), "byteLength": len(chunk), "target": target})
    data.extend(chunk)
    return len(gltf["bufferViews"]) - 1

