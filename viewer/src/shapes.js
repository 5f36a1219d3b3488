// Wireframe geometry of the physics model's shapes, in the shape node's own space (DIGEST §2, §4, §6.1:
// round shapes are centred on the node origin with their axis along local +Y).
import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';

// Size drawn for an infinite plane (KHR plane without sizeX/sizeZ): a finite patch is all a picture can hold.
export const INFINITE_PLANE_SIZE = 20;

function lines(geometry, feature) {
  // Edges (feature lines) read better for flat-faced shapes; the full wireframe for round ones.
  const g = feature ? new THREE.EdgesGeometry(geometry, 20) : new THREE.WireframeGeometry(geometry);
  geometry.dispose();
  return g;
}

function capsuleProfile(height, rBottom, rTop, segments) {
  // Lathe profile: bottom hemisphere (centre -h/2), top hemisphere (centre +h/2); height is between the
  // hemisphere centres (D-8). Tapered capsules join the two arcs at their equators.
  const pts = [];
  for (let i = 0; i <= segments; i++) {
    const a = -Math.PI / 2 + (i / segments) * (Math.PI / 2);
    pts.push(new THREE.Vector2(Math.max(rBottom * Math.cos(a), 1e-6), -height / 2 + rBottom * Math.sin(a)));
  }
  for (let i = 0; i <= segments; i++) {
    const a = (i / segments) * (Math.PI / 2);
    pts.push(new THREE.Vector2(Math.max(rTop * Math.cos(a), 1e-6), height / 2 + rTop * Math.sin(a)));
  }
  return pts;
}

function planeGeometry(shape) {
  const sx = shape.sizeX ?? INFINITE_PLANE_SIZE;
  const sz = shape.sizeZ ?? INFINITE_PLANE_SIZE;
  const infinite = shape.sizeX == null || shape.sizeZ == null;
  const div = infinite ? 10 : 1;
  const g = new THREE.PlaneGeometry(sx, sz, div, div);
  g.rotateX(-Math.PI / 2); // PlaneGeometry faces +Z; the physics plane's normal is +Y
  const wire = new THREE.WireframeGeometry(g);
  g.dispose();
  // A short normal marker so the solid side can be told apart.
  const normal = new THREE.BufferGeometry().setFromPoints([
    new THREE.Vector3(0, 0, 0), new THREE.Vector3(0, Math.min(sx, sz) * 0.1, 0),
  ]);
  return mergeLines([wire, normal]);
}

export function mergeLines(geometries) {
  const positions = [];
  for (const g of geometries) {
    const p = g.getAttribute('position');
    const index = g.getIndex();
    if (index) {
      // Indexed line geometry: expand to plain segments.
      for (let i = 0; i < index.count; i++) {
        const k = index.getX(i);
        positions.push(p.getX(k), p.getY(k), p.getZ(k));
      }
    } else {
      for (let i = 0; i < p.count; i++) positions.push(p.getX(i), p.getY(i), p.getZ(i));
    }
    g.dispose();
  }
  const out = new THREE.BufferGeometry();
  out.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
  return out;
}

// Line-segment geometry of an analytic shape; mesh shapes are built by meshShapeGeometry.
export function shapeGeometry(shape) {
  switch (shape.type) {
    case 'box':
      return lines(new THREE.BoxGeometry(shape.size[0], shape.size[1], shape.size[2]), true);
    case 'sphere':
      return lines(new THREE.SphereGeometry(shape.radius, 12, 8), false);
    case 'capsule':
      return lines(new THREE.LatheGeometry(
        capsuleProfile(shape.height, shape.radiusBottom, shape.radiusTop, 4), 12), false);
    case 'cylinder':
      return lines(new THREE.CylinderGeometry(shape.radiusTop, shape.radiusBottom, shape.height, 16, 1), false);
    case 'plane':
      return planeGeometry(shape);
    default:
      return null;
  }
}

// The positions of a glTF mesh (all primitives) transformed by `matrix` (part → shape node space).
function meshPositions(meshObject, matrix, out) {
  const v = new THREE.Vector3();
  meshObject.updateMatrixWorld(true);
  const root = new THREE.Matrix4().copy(meshObject.matrixWorld).invert();
  meshObject.traverse((o) => {
    if (!o.isMesh || !o.geometry) return;
    const p = o.geometry.getAttribute('position');
    if (!p) return;
    // Primitives of a multi-primitive mesh sit under a group; keep their offset from the mesh root.
    const m = new THREE.Matrix4().multiplyMatrices(matrix, root.clone().multiply(o.matrixWorld));
    for (let i = 0; i < p.count; i++) {
      v.fromBufferAttribute(p, i).applyMatrix4(m);
      out.push(v.clone());
    }
  });
}

function meshTriangles(meshObject, matrix) {
  const geos = [];
  meshObject.updateMatrixWorld(true);
  const root = new THREE.Matrix4().copy(meshObject.matrixWorld).invert();
  meshObject.traverse((o) => {
    if (!o.isMesh || !o.geometry) return;
    const g = o.geometry.clone();
    g.applyMatrix4(new THREE.Matrix4().multiplyMatrices(matrix, root.clone().multiply(o.matrixWorld)));
    geos.push(new THREE.EdgesGeometry(g, 20));
    g.dispose();
  });
  return geos;
}

// Convex hull or triangle edges of the glTF meshes a mesh shape names (`parts`: mesh index + matrix).
export async function meshShapeGeometry(shape, loadMesh) {
  const parts = [];
  for (const part of shape.parts) {
    const mesh = await loadMesh(part.mesh);
    if (mesh) parts.push({ mesh, matrix: new THREE.Matrix4().fromArray(part.matrix) });
  }
  if (shape.convex) {
    const pts = [];
    for (const p of parts) meshPositions(p.mesh, p.matrix, pts);
    if (pts.length < 4) return new THREE.BufferGeometry();
    try {
      return lines(new ConvexGeometry(pts), true);
    } catch (e) {
      // Degenerate (flat) point sets have no 3-D hull; fall back to the mesh's own edges.
      console.warn('gltf-physics viewer: convex hull failed, drawing mesh edges', e);
    }
  }
  const geos = [];
  for (const p of parts) geos.push(...meshTriangles(p.mesh, p.matrix));
  return mergeLines(geos);
}
