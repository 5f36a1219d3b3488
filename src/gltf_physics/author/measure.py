"""How well a collider fits its mesh: volume over the mesh hull's volume and the surface-to-surface distances.

Both distances are fractions of the mesh's bounding-box diagonal:

- ``mesh_to_collider``: the largest distance from a point of the mesh's surface to the collider's surface
  (how far the collider strays from what is drawn: a hull over a bowl's opening scores the bowl's depth);
- ``collider_to_mesh``: the largest distance from a point of the collider's surface to the mesh's surface
  (how far the collider bulges past it: a box around a sphere scores its corners).

Every collider is convex or a union of convex parts (primitives are tessellated finely: a sphere's facets
stay within 0.05 % of its radius), so a mesh point inside a part is measured exactly against that part's
facet planes; for the other points, and in the other direction, nearest surface samples (``SAMPLES``
area-weighted points on each surface plus every vertex, fixed seed) bound each distance from above and the
points that could hold the largest one are then measured exactly against the triangles (trimesh's closest
point), so the maxima are exact for the sampled points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..geometry.hulls import Hull, convex_hull

SAMPLES = 20_000


@dataclass(frozen=True)
class Fitness:
    """Fit numbers of one collider (see the module text); ``volume_ratio`` is ``None`` for a triangle mesh
    that encloses no volume."""

    volume: float | None
    hull_volume: float
    volume_ratio: float | None
    mesh_to_collider: float
    collider_to_mesh: float


def surface_samples(vertices: np.ndarray, triangles: np.ndarray, count: int = SAMPLES,
                    seed: int = 0) -> np.ndarray:
    """Every vertex used by a triangle and ``count`` area-weighted random points of the triangles."""
    v = np.asarray(vertices, dtype=float)
    t = np.asarray(triangles, dtype=np.int64)
    if not len(t):
        return v
    a, b, c = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
    area = np.linalg.norm(np.cross(b - a, c - a), axis=1)
    if area.sum() <= 0:
        return v[np.unique(t)]
    rng = np.random.default_rng(seed)
    pick = rng.choice(len(t), size=count, p=area / area.sum())
    r1, r2 = rng.random(count), rng.random(count)
    s = np.sqrt(r1)
    points = (1 - s)[:, None] * a[pick] + (s * (1 - r2))[:, None] * b[pick] + (s * r2)[:, None] * c[pick]
    return np.concatenate([v[np.unique(t)], points])


def measure(vertices: np.ndarray, triangles: np.ndarray, parts: list[Hull] | None,
            hull: Hull | None = None, volume: float | None = None) -> Fitness:
    """The fit of a collider made of the convex ``parts`` (``None``: the mesh's own triangles) around the mesh.

    ``volume``: the collider's exact volume when known (a primitive's, not its tessellation's).
    """
    v = np.asarray(vertices, dtype=float)
    hull = hull or convex_hull(v)
    hull_volume = hull.volume if hull is not None else 0.0
    if parts is None:
        from ..geometry.hulls import is_closed
        from ..geometry.integrals import mesh_mass

        volume = mesh_mass(v, triangles)[0] if is_closed(v, triangles) else None
        ratio = volume / hull_volume if volume is not None and hull_volume > 0 else None
        return Fitness(volume, hull_volume, ratio, 0.0, 0.0)
    diag = float(np.linalg.norm(np.ptp(v, axis=0))) or 1.0
    volume = float(sum(p.volume for p in parts)) if volume is None else volume
    mesh_points = surface_samples(v, triangles)
    collider_points = _outer_samples(parts, diag)
    from scipy.spatial import cKDTree

    union = _concatenated(parts)
    to_collider = _distance_to_parts(mesh_points, parts, union, cKDTree(collider_points), diag)
    to_mesh = largest_distance(collider_points, (v, np.asarray(triangles)), cKDTree(mesh_points))
    return Fitness(volume, hull_volume, volume / hull_volume if hull_volume > 0 else None,
                   float(to_collider) / diag, float(to_mesh) / diag)


def largest_distance(points: np.ndarray, target: tuple[np.ndarray, np.ndarray], samples: object) -> float:
    """The largest distance from ``points`` to the triangles ``target``: the samples' nearest distances bound
    each point's from above; points are measured exactly, largest bound first, until no bound left can beat
    the largest exact distance found."""
    if not len(points):
        return 0.0
    import trimesh

    bound = samples.query(points)[0]  # type: ignore[attr-defined]
    order = np.argsort(-bound, kind="stable")
    mesh = trimesh.Trimesh(target[0], target[1], process=False)
    best, start = 0.0, 0
    while start < len(order) and bound[order[start]] > best:
        batch = order[start: start + 256]
        exact = trimesh.proximity.closest_point(mesh, points[batch])[1]
        best = max(best, float(exact.max()))
        start += len(batch)
    return best


def _concatenated(parts: list[Hull]) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.cumsum([0] + [len(p.points) for p in parts])
    return (np.concatenate([p.points for p in parts]),
            np.concatenate([p.triangles + o for p, o in zip(parts, offsets, strict=False)]))


def _outer_samples(parts: list[Hull], diag: float) -> np.ndarray:
    """Samples of the union's surface: each part's, less those inside another part or on its boundary (within
    0.1 % of the diagonal: faces two adjacent parts share are inside the union, not on its surface)."""
    out = []
    for k, part in enumerate(parts):
        pts = surface_samples(part.points, part.triangles, max(SAMPLES // len(parts), 2000), seed=k)
        inside = np.zeros(len(pts), dtype=bool)
        for j, other in enumerate(parts):
            if j != k:
                inside |= other.contains(pts, tolerance=1e-3 * diag)
        out.append(pts[~inside])
    kept = [p for p in out if len(p)]
    return np.concatenate(kept) if kept else np.concatenate([p.points for p in parts])


def _distance_to_parts(points: np.ndarray, parts: list[Hull], union: tuple[np.ndarray, np.ndarray],
                       samples: object, diag: float) -> float:
    """The largest distance of ``points`` to the union's surface: a point's depth in the deepest part holding
    it (exact for one part, a lower bound for a union), else its distance to the parts' triangles.

    The nearest surface sample bounds each point's distance from above, so points are measured largest bound
    first, in batches, until no bound left can beat the largest distance found (on a 100,000-triangle mesh:
    a few batches instead of every point against every facet)."""
    bound = samples.query(points)[0]  # type: ignore[attr-defined]
    order = np.argsort(-bound, kind="stable")
    best, start = 0.0, 0
    while start < len(order) and bound[order[start]] > best:
        batch = points[order[start: start + 2048]]
        depth = np.full(len(batch), -np.inf)
        for part in parts:
            signed = batch @ part.normals.T + part.offsets  # <= 0 inside each facet's plane
            depth = np.maximum(depth, (-signed).min(axis=1))  # > 0 inside: the distance to the nearest plane
        outside = depth < -1e-9 * diag  # on a facet within rounding counts as on the surface
        if (~outside).any():
            best = max(best, float(np.maximum(depth[~outside], 0.0).max()))
        if outside.any():
            best = max(best, largest_distance(batch[outside], union, samples))
        start += 2048
    return best


def primitive_mesh(shape: object, matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A fine tessellation of a box, sphere, capsule or cylinder (+Y axis), moved by ``matrix``."""
    import trimesh.creation

    from ..model import Box, Capsule, Cylinder, Sphere

    if isinstance(shape, Box):
        m = trimesh.creation.box(extents=shape.size)
    elif isinstance(shape, Sphere):
        m = trimesh.creation.icosphere(subdivisions=3, radius=shape.radius)
    else:
        assert isinstance(shape, Capsule | Cylinder)
        r = shape.radius_bottom
        if isinstance(shape, Capsule):
            m = trimesh.creation.capsule(height=shape.height, radius=r, count=[32, 32])
        else:
            m = trimesh.creation.cylinder(radius=r, height=shape.height, sections=64)
        z_to_y = np.array([[1.0, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]])
        m.apply_transform(z_to_y)
    v = np.asarray(m.vertices, dtype=float) @ matrix[:3, :3].T + matrix[:3, 3]
    return v, np.asarray(m.faces, dtype=np.int64)
