// The stage around the physics: environment lighting, a ground grid with a soft contact shadow, a camera that
// frames the scene (and the whole run) and can follow a selected body. Nothing here reads extension data.
import * as THREE from 'three';

// Lights, tone mapping (keeps white surfaces from blowing out) and soft shadows; metallic materials get an
// environment map in `reflect`.
export function light(renderer, scene) {
  renderer.toneMapping = THREE.ACESFilmicToneMapping;
  renderer.toneMappingExposure = 1.0;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 0.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.name = 'gp-sun';
  sun.castShadow = true;
  sun.shadow.mapSize.set(512, 512);
  sun.shadow.radius = 4;
  scene.add(sun, sun.target);
  return sun;
}

// Metals reflect their surroundings: under lights alone they render black. Only metallic materials get the
// environment map, since sampling it costs every pixel a lot in a software GL (headless browsers, CI).
export function reflect(root) {
  let texture = null;
  let count = 0;
  root.traverse((o) => {
    for (const m of (o.isMesh ? [o.material].flat() : [])) {
      if (m && m.isMeshStandardMaterial && m.metalness >= 0.3 && !m.envMap) {
        texture = texture || studioEnvironment();
        m.envMap = texture;
        m.needsUpdate = true;
        count += 1;
      }
    }
  });
  return count;
}

// A small studio panorama drawn in code (bright ceiling, soft walls, dark floor): enough for metals to reflect
// something, and cheap to prefilter, where a rendered room environment takes tens of seconds in a software GL.
function studioEnvironment() {
  const w = 64;
  const h = 32;
  const pixels = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y += 1) {
    const up = 1 - (y + 0.5) / h; // 1 at the top (zenith), 0 at the bottom
    for (let x = 0; x < w; x += 1) {
      const panel = up > 0.55 && up < 0.8 && (x % 16) < 6 ? 1 : 0; // softbox strips above the horizon
      const base = up > 0.5 ? 120 + 100 * (up - 0.5) * 2 : 40 + 80 * up * 2;
      const v = Math.min(255, base + panel * 110);
      const i = (y * w + x) * 4;
      pixels.set([v, v, Math.min(255, v + 8), 255], i);
    }
  }
  const texture = new THREE.DataTexture(pixels, w, h, THREE.RGBAFormat);
  texture.mapping = THREE.EquirectangularReflectionMapping;
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.magFilter = THREE.LinearFilter;
  texture.needsUpdate = true;
  return texture;
}

// The bounds of what the scene shows: meshes and collider overlays, leaving out unbounded planes.
export function sceneBounds(scene) {
  scene.updateMatrixWorld(true);
  const box = new THREE.Box3();
  scene.traverse((o) => {
    if (o.userData && (o.userData.unbounded || o.userData.stage)) return;
    if (o.isMesh || o.isLine || o.isLineSegments) box.expandByObject(o, false);
  });
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  return box;
}

// Grid and shadow catcher just under the lowest point, sized to the scene; the sun's shadow camera covers it.
export function ground(scene, box, sun) {
  const size = box.getSize(new THREE.Vector3());
  const centre = box.getCenter(new THREE.Vector3());
  const extent = niceStep(Math.max(size.x, size.z, 1) * 3);
  const y = box.min.y - Math.max(size.y, 1) * 1e-3; // just below, so it never hides a resting face
  const grid = new THREE.GridHelper(extent, 20, 0x6a7080, 0x3c4048);
  grid.name = 'gp-grid';
  grid.position.set(centre.x, y, centre.z);
  grid.material.transparent = true;
  grid.material.opacity = 0.6;
  grid.userData.stage = true;
  grid.userData.cell = extent / 20; // a live chase moves the grid by whole cells, so its lines stand still
  const catcher = new THREE.Mesh(new THREE.PlaneGeometry(extent, extent).rotateX(-Math.PI / 2),
    new THREE.ShadowMaterial({ opacity: 0.35 }));
  catcher.name = 'gp-shadow';
  catcher.receiveShadow = true;
  catcher.position.set(centre.x, y, centre.z);
  catcher.userData.stage = true;
  scene.add(grid, catcher);
  const reach = Math.max(size.length(), 1);
  sun.position.set(centre.x + reach * 0.5, box.max.y + reach * 1.5, centre.z + reach * 0.8);
  sun.target.position.copy(centre);
  const cam = sun.shadow.camera;
  cam.left = -extent / 2; cam.right = extent / 2; cam.top = extent / 2; cam.bottom = -extent / 2;
  cam.near = 0.01; cam.far = reach * 6;
  cam.updateProjectionMatrix();
  scene.traverse((o) => { if (o.isMesh && !o.userData.stage) o.castShadow = true; });
  return grid;
}

function niceStep(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= x);
}

// Place the camera so the box fills the view from a raised three-quarter angle.
export function frame(camera, controls, box) {
  const centre = box.getCenter(new THREE.Vector3());
  const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 0.5);
  const fit = Math.min(camera.fov, camera.fov * camera.aspect);
  const dist = radius / Math.sin(THREE.MathUtils.degToRad(fit / 2));
  camera.position.copy(centre).add(new THREE.Vector3(0.6, 0.5, 1).normalize().multiplyScalar(dist));
  camera.near = dist / 1000;
  camera.far = dist * 100;
  camera.updateProjectionMatrix();
  controls.target.copy(centre);
  controls.update();
}

// Keeps a node at the orbit target: the camera moves with it, the user still orbits and zooms around it.
export class Follower {
  constructor(camera, controls) {
    this.camera = camera;
    this.controls = controls;
    this.object = null;
    this.node = null;
  }

  follow(node, object) {
    this.node = node;
    this.object = object;
    this.update();
  }

  stop() {
    this.node = null;
    this.object = null;
  }

  update() {
    if (!this.object) return;
    const p = this.object.getWorldPosition(new THREE.Vector3());
    const delta = p.sub(this.controls.target);
    this.camera.position.add(delta);
    this.controls.target.add(delta);
  }
}

// Where a world point lands on the canvas, in CSS pixels from the top left (for tests and the console).
export function screenPosition(camera, canvas, point) {
  const v = point.clone().project(camera);
  const r = canvas.getBoundingClientRect();
  return [(v.x + 1) / 2 * r.width, (1 - v.y) / 2 * r.height, v.z];
}
