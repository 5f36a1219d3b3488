// gltf-physics viewer: reads the page's embedded data (glTF with data: URIs, physics overlay, summary,
// validator report, optional baked run), shows it with three.js, and reports its state on
// window.gltfPhysicsViewer for tests. Nothing is fetched from the network.
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { Overlays } from './overlays.js';
import { buildBar, buildLayout, buildSide } from './panel.js';
import { Bake, triggerState } from './playback.js';
import { Live } from './live.js';
import { Follower, frame, ground, light, reflect, sceneBounds, screenPosition } from './stage.js';

const STILL_FRAMES = 5; // frames drawn for a still picture before the render loop stops
const FLASH_SECONDS = 0.3; // how long a trigger stays lit after an event, so one-step overlaps are seen

const state = {
  ready: false,
  error: null,
  colliderOverlays: 0,
  jointOverlays: 0,
  wheelOverlays: 0,
  thrusterOverlays: 0,
  gravityOverlays: 0,
  gravityArrows: 0,
  seatOverlays: 0,
  grid: false,
  followedNode: null,
  time: 0,
  duration: 0,
  playing: true,
  speed: 1,
  baked: false,
  activeTriggers: [],
  firedEvents: 0,
  highlightedNode: null,
  framesRendered: 0,
  framed: null, // what the first view frames: 'moving' (the bodies that move) or 'scene'
};
window.gltfPhysicsViewer = state;

function readData() {
  const tag = document.getElementById('gltf-physics-data');
  return JSON.parse(tag.textContent);
}

function parseGltf(gltfJson) {
  return new Promise((resolve, reject) => new GLTFLoader().parse(gltfJson, '', resolve, reject));
}

// node index → Object3D: the loaded scene's node objects; nodes outside the scene get a placeholder at
// their world pose (computed by the page builder), so their overlays still show.
function nodeMap(gltf, overlay, worldRoot) {
  const map = new Map();
  gltf.scene.traverse((o) => {
    const a = gltf.parser.associations.get(o);
    if (a && a.nodes !== undefined && !map.has(a.nodes)) map.set(a.nodes, o);
  });
  return (node) => {
    if (!map.has(node)) {
      const o = new THREE.Object3D();
      o.matrix.fromArray(overlay.worldMatrices[node]);
      o.matrix.decompose(o.position, o.quaternion, o.scale);
      o.name = `node:${node}`;
      worldRoot.add(o);
      map.set(node, o);
    }
    return map.get(node);
  };
}

class Player {
  constructor(duration) {
    this.duration = duration;
    this.time = 0;
    this.playing = true;
    this.speed = 1;
  }

  play() { this.playing = true; }

  pause() { this.playing = false; }

  seek(t) { this.time = this.duration > 0 ? Math.min(Math.max(t, 0), this.duration) : Math.max(t, 0); }

  setSpeed(s) { this.speed = s; }

  advance(dt) {
    if (!this.playing) return;
    this.time += dt * this.speed;
    // Loop the run; with nothing to play (no bake, no clip) the clock simply runs.
    if (this.duration > 0 && this.time > this.duration) this.time %= this.duration;
  }
}

// `#t=2.5` → 2.5 (seconds); null when the address names no time.
function startTime(hash) {
  const m = /(?:^#|&)t=([0-9]*\.?[0-9]+)/.exec(hash || '');
  return m ? Number(m[1]) : null;
}

// World box of the dynamic and kinematic bodies as they stand: their nodes' meshes and their collider
// overlays. Null when nothing moves.
function movingBounds(overlay, overlays, nodeObject) {
  const moving = new Set((overlay.bodies || []).filter((b) => b.motion !== 'static').map((b) => b.node));
  if (moving.size === 0) return null;
  const box = new THREE.Box3();
  for (const node of moving) {
    const object = nodeObject(node);
    box.expandByPoint(object.getWorldPosition(new THREE.Vector3()));
    object.traverse((o) => { if (o.isMesh) box.expandByObject(o, false); });
  }
  overlay.colliders.forEach((c, i) => {
    if (moving.has(c.body) && overlays.colliders[i]) box.expandByObject(overlays.colliders[i].object, false);
  });
  return box.isEmpty() ? null : box;
}

async function main() {
  const data = readData();
  const { view, bar, side } = buildLayout(`${data.title} — gltf-physics`);

  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio);
  view.append(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x2a2d33);
  const sun = light(renderer, scene);
  const camera = new THREE.PerspectiveCamera(50, view.clientWidth / view.clientHeight, 0.01, 1000);
  const controls = new OrbitControls(camera, renderer.domElement);

  const gltf = await parseGltf(data.gltf);
  scene.add(gltf.scene);
  state.reflectiveMaterials = reflect(gltf.scene);
  const worldRoot = new THREE.Group(); // overlays in world space, and placeholders of nodes outside the scene
  scene.add(worldRoot);
  const nodeObject = nodeMap(gltf, data.overlay, worldRoot);
  const loadMesh = (i) => gltf.parser.getDependency('mesh', i);

  const overlays = new Overlays(data.overlay, nodeObject, loadMesh, worldRoot);
  await overlays.build();
  state.colliderOverlays = overlays.colliders.length;
  state.jointOverlays = overlays.joints.length;
  state.wheelOverlays = overlays.wheels.length;
  state.thrusterOverlays = overlays.thrusters.length;
  state.gravityOverlays = overlays.gravity.length;
  state.gravityArrows = overlays.gravityArrows;
  state.seatOverlays = overlays.seats.length;
  for (const c of overlays.colliders) {
    if (c.shape.type === 'plane' && (c.shape.sizeX == null || c.shape.sizeZ == null)) {
      c.object.userData.unbounded = true;
    }
  }

  const bake = data.bake ? new Bake(data.bake, nodeObject) : null;
  const mixer = new THREE.AnimationMixer(gltf.scene);
  for (const clip of gltf.animations) mixer.clipAction(clip).play();
  const clipDuration = Math.max(0, ...gltf.animations.map((c) => c.duration));
  const live = data.live ? new Live(data) : null; // live mode: the server's World, streamed
  const player = live ? live.clock : new Player(bake ? bake.duration : clipDuration);
  const events = (data.bake?.events || []).slice().sort((a, b) => a.time - b.time);
  const triggerParts = new Map(data.overlay.triggers.map((t) => [t.node, t.parts]));

  let highlight = null;
  const highlightBox = new THREE.BoxHelper(undefined, 0xffffff);
  highlightBox.visible = false;
  highlightBox.material.depthTest = false;
  scene.add(highlightBox);
  const follower = new Follower(camera, controls);
  const bodyNodes = new Set((data.overlay.bodies || []).map((b) => b.node));
  const actions = {
    highlight(node) {
      highlight = node;
      state.highlightedNode = node;
      highlightBox.visible = false;
      if (node != null && node < data.overlay.worldMatrices.length) {
        highlightBox.setFromObject(nodeObject(node));
        highlightBox.visible = true;
      }
    },
    seek(t) { player.seek(t); },
    // Follow the highlighted body (or stop following); returns whether the camera now follows one.
    toggleFollow() {
      if (follower.node != null || highlight == null || !bodyNodes.has(highlight)) follower.stop();
      else follower.follow(highlight, nodeObject(highlight));
      state.followedNode = follower.node;
      return follower.node != null;
    },
    canFollow: () => highlight != null && bodyNodes.has(highlight),
  };
  buildSide(side, data, actions);
  // The glTF node of a picked object (its own or its nearest ancestor's), for the graph's onSelect/onHover.
  const nodeOf = (object) => {
    for (let o = object; o; o = o.parent) {
      const a = gltf.parser.associations.get(o);
      if (a && a.nodes !== undefined) return a.nodes;
      const m = /^node:(\d+)$/.exec(o.name || '');
      if (m) return Number(m[1]);
    }
    return null;
  };
  if (live) live.attach({ scene, camera, controls, renderer, nodeObject, nodeOf, overlays, follower, events, side,
    state });
  const barUi = live ? live.buildBar(bar) : buildBar(bar, player, actions);
  // Size the canvas to the view once the panel and bar have taken their room, and whenever it changes.
  const fit = () => {
    const w = Math.max(view.clientWidth, 1);
    const h = Math.max(view.clientHeight, 1);
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  };
  fit();
  // `#…&still` (a picture, e.g. a headless screenshot): the side panel hidden, and a few frames drawn, then no
  // render loop — an idle page lets a headless browser's virtual time run out at once instead of drawing
  // frames in software for the whole budget.
  const still = /(?:^#|&)still(?:&|$)/.test(window.location.hash);
  new ResizeObserver(() => {
    fit();
    if (still && state.ready) renderer.render(scene, camera);
  }).observe(view);

  // Live views of the player, so a test reads the state right after a call, not one frame later.
  for (const key of ['time', 'playing', 'speed', 'duration']) {
    Object.defineProperty(state, key, { get: () => player[key], enumerable: true });
  }
  Object.assign(state, {
    baked: !!bake,
    play: () => player.play(),
    pause: () => player.pause(),
    seek: (t) => player.seek(t),
    setSpeed: (s) => player.setSpeed(s),
    highlightNode: (n) => actions.highlight(n),
    // World positions, for tests and the console: a node's object and a collider overlay.
    nodeWorldPosition: (n) => nodeObject(n).getWorldPosition(new THREE.Vector3()).toArray(),
    colliderWorldPosition: (i) => overlays.colliders[i].object.getWorldPosition(new THREE.Vector3()).toArray(),
    // Canvas pixels (x, y from the top left) and depth of a node's origin as last drawn.
    nodeScreenPosition: (n) => screenPosition(camera, renderer.domElement,
      nodeObject(n).getWorldPosition(new THREE.Vector3())),
    follow: (n) => {
      if (n == null) follower.stop();
      else { actions.highlight(n); follower.follow(n, nodeObject(n)); }
      state.followedNode = follower.node;
    },
  });

  const show = () => {
    mixer.setTime(player.time);
    if (bake) bake.apply(player.time);
    if (live) live.apply();
    scene.updateMatrixWorld(true);
    overlays.update();
    const trig = triggerState(events, triggerParts, player.time, FLASH_SECONDS);
    overlays.recolour(trig.active, highlight);
    if (highlight != null && highlightBox.visible) highlightBox.setFromObject(nodeObject(highlight));
    state.activeTriggers = [...trig.active].sort((a, b) => a - b);
    state.firedEvents = events.filter((e) => e.time <= player.time).length;
  };
  // A time in the address (page.html#t=2.5) opens the run there, paused: what a headless browser's
  // screenshot of the page shows (gltf-physics view --png --at 2.5).
  const at = startTime(window.location.hash);
  if (at != null) {
    player.seek(at);
    player.pause();
  }
  if (still) side.style.display = 'none';
  show();
  const bounds = sceneBounds(scene);
  // The grid lies under the lowest point but spreads over the framed run, so a ball falling onto a 200 m floor
  // has grid lines around it, not 30 m cells.
  const runBox = data.frame ? new THREE.Box3().setFromArray([...data.frame.min, ...data.frame.max]) : null;
  const gridBox = runBox ? new THREE.Box3(new THREE.Vector3(runBox.min.x, Math.min(bounds.min.y, runBox.min.y),
    runBox.min.z), runBox.max.clone()) : bounds;
  state.grid = !!ground(scene, gridBox, sun);
  // The first view is on what moves (a robot, not the floor it stands on); a still scene is framed whole.
  // The page brings the box of the whole run (view/framing.py: the moving bodies along their paths and the
  // static geometry they meet), so a picture at 2 s shows where the bodies went, not bodies on a blank ground.
  const moving = movingBounds(data.overlay, overlays, nodeObject);
  if (moving && runBox) moving.union(runBox);
  state.frameBox = moving ? [moving.min.toArray(), moving.max.toArray()] : null;
  state.framed = moving ? 'moving' : 'scene';
  view.dataset.framed = state.framed; // readable in a dumped DOM (headless chromium without a driver)
  frame(camera, controls, moving || bounds);

  let last = performance.now();
  const loop = (now) => {
    // rAF stamps can precede the last performance.now(); a stalled tab does not jump the run.
    player.advance(Math.min(Math.max((now - last) / 1000, 0), 0.1));
    last = now;
    show();
    follower.update();
    controls.update();
    renderer.render(scene, camera);
    state.framesRendered += 1;
    barUi.refresh();
    if (!(still && state.framesRendered >= STILL_FRAMES)) requestAnimationFrame(loop);
  };
  renderer.render(scene, camera);
  state.ready = true;
  requestAnimationFrame(loop);
}

main().catch((e) => {
  state.error = String(e && e.stack ? e.stack : e);
  console.error('gltf-physics viewer failed:', e);
});
