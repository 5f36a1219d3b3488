// Live mode: the page connects back to the `gltf-physics view --live` server, applies the pose frames it streams
// (one binary message per frame for all bodies) and sends input back — grabs, vehicle keys, pointer settings,
// time controls. The server runs the World; the page only shows it and asks.
import * as THREE from 'three';
import { buildLiveBar, buildLivePanel } from './live_panel.js';
import { frame, sceneBounds } from './stage.js';

const HEADER_BYTES = 28; // magic "GPF1", step u32, time f64, real-time factor f32, speed f32, body count u32
const CHASE_OFFSET = new THREE.Vector3(0, 2.5, -7); // behind and above a vehicle (its forward is +Z)

// The clock the player bar and window.gltfPhysicsViewer read: the server's simulated time and state.
export class LiveClock {
  constructor(live) {
    this.live = live;
    this.time = 0;
    this.playing = true;
    this.speed = 1;
    this.duration = 0;
    this.rtf = 0;
    this.step = 0;
  }

  play() { this.live.send({ type: 'play' }); }

  pause() { this.live.send({ type: 'pause' }); }

  seek() {} // a live run cannot seek: reset goes back to the start

  setSpeed(s) { this.live.send({ type: 'speed', value: s }); }

  advance() {} // time comes from the server
}

export class Live {
  constructor(data) {
    this.data = data;
    this.clock = new LiveClock(this);
    this.hello = null;
    this.poses = null;
    this.fresh = false;
    this.pendingSets = new Map(); // pointer → value, sent once per drawn frame
    this.pendingDrag = null;
    this.grab = null; // { node, plane, line }
    this.keys = new Set();
    this.drive = { throttle: 0, steer: 0, brake: false };
    this.chase = false;
    this.hovered = null; // the glTF node under the pointer, as last sent
    this.info = { connected: false, framesReceived: 0, refused: [], applied: [], events: 0, cursor: 'default',
      grabbing: null, hello: null, closed: null };
  }

  // Called once the scene, overlays and panels exist.
  attach(ctx) {
    Object.assign(this, ctx);
    this.objectNode = new Map(); // body node object → node
    for (const b of this.data.overlay.bodies || []) this.objectNode.set(this.nodeObject(b.node), b.node);
    this.motion = new Map((this.data.overlay.bodies || []).map((b) => [b.node, b.motion]));
    this.pickables = [];
    this.buildProxies();
    this.scene.traverse((o) => { if (o.isMesh && !o.userData.stage) this.pickables.push(o); });
    this.grabLine = new THREE.Line(new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]),
      new THREE.LineBasicMaterial({ color: 0xffffff, depthTest: false }));
    this.grabLine.renderOrder = 20;
    this.grabLine.frustumCulled = false; // its bounds are those of its first, empty geometry
    this.grabLine.visible = false;
    this.grabLine.userData.stage = true;
    this.scene.add(this.grabLine);
    const r = Math.max((this.data.overlay.markerSize || 0.25) * 0.25, 0.02);
    this.grabTarget = new THREE.Mesh(new THREE.SphereGeometry(r, 12, 8),
      new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: false, transparent: true, opacity: 0.9 }));
    this.grabTarget.renderOrder = 20;
    this.grabTarget.visible = false;
    this.grabTarget.userData.stage = true;
    this.scene.add(this.grabTarget); // where the cursor pulls (the spring's other end)
    this.panel = buildLivePanel(this.side, this);
    this.bindPointer();
    this.bindKeys();
    this.connect();
    this.exposeState();
  }

  buildBar(bar) {
    bar.replaceChildren();
    return buildLiveBar(bar, this);
  }

  // Invisible solids of the simple collider shapes, so bodies without a visual mesh can be grabbed too.
  buildProxies() {
    const hidden = new THREE.MeshBasicMaterial({ visible: false, side: THREE.DoubleSide });
    for (const c of this.overlays.colliders) {
      const s = c.shape;
      let g = null;
      if (s.type === 'box') g = new THREE.BoxGeometry(...s.size);
      else if (s.type === 'sphere') g = new THREE.SphereGeometry(s.radius, 16, 12);
      else if (s.type === 'cylinder' || s.type === 'capsule') {
        const extra = s.type === 'capsule' ? (s.radiusTop + s.radiusBottom) : 0;
        g = new THREE.CylinderGeometry(s.radiusTop, s.radiusBottom, s.height + extra, 16);
      }
      if (!g || c.kind === 'trigger') continue;
      const proxy = new THREE.Mesh(g, hidden);
      proxy.userData.stage = true; // not part of the framing bounds
      proxy.userData.pick = { body: c.body, kind: c.kind };
      this.nodeObject(c.node).add(proxy);
      this.pickables.push(proxy);
    }
  }

  // -- connection ---------------------------------------------------------------------------------
  connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}${this.data.live.socket}${location.search}`);
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => { this.info.connected = true; this.panel.refresh(); };
    ws.onclose = (e) => { this.info.connected = false; this.info.closed = e.code; this.panel.refresh(); };
    ws.onmessage = (e) => (typeof e.data === 'string' ? this.onText(JSON.parse(e.data)) : this.onFrame(e.data));
    this.ws = ws;
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  onFrame(buffer) {
    const view = new DataView(buffer);
    const count = view.getUint32(24, true);
    this.clock.step = view.getUint32(4, true);
    this.clock.time = view.getFloat64(8, true);
    this.clock.rtf = view.getFloat32(16, true);
    this.clock.speed = view.getFloat32(20, true);
    this.poses = new Float32Array(buffer, HEADER_BYTES, count * 7);
    this.fresh = true;
    this.info.framesReceived += 1;
  }

  onText(m) {
    if (m.type === 'hello') this.onHello(m);
    else if (m.type === 'status' || m.type === 'pong') {
      this.clock.playing = !m.paused;
      this.clock.speed = m.speed;
      this.info.status = m;
    } else if (m.type === 'events') {
      for (const e of m.events) this.events.push(e);
      this.info.events = this.events.length;
      this.panel.addEvents(m.events);
    } else if (m.type === 'reset') {
      this.events.length = 0;
      this.info.events = 0;
      this.panel.clearEvents();
      if (this.hello) this.panel.settings(this.hello.settings); // back to the file's values, as the World is
    } else if (m.type === 'refused' || m.type === 'error') {
      this.info.refused.push(m.reason || m.message);
      this.panel.notice(m.reason || m.message);
    } else if (m.type === 'graph') {
      this.info.graph = (this.info.graph || 0) + m.lines.length;
      this.panel.addGraphLines(m.lines);
    } else if (m.type === 'applied') {
      this.panel.applied(m.pointer, m.value); // keys and other pages move the panel's fields too
      this.info.applied.push(m);
      if (this.info.applied.length > 200) this.info.applied.shift();
    }
  }

  onHello(m) {
    this.hello = m;
    this.info.hello = { nodes: m.nodes, rate: m.rate, engine: m.engine, vehicles: m.vehicles.map((v) => v.node) };
    this.objects = m.nodes.map((n) => this.nodeObject(n));
    this.order = m.nodes.map((_, i) => i).sort((i, j) => depth(this.objects[i]) - depth(this.objects[j]));
    this.scales = this.objects.map((o) => {
      o.updateWorldMatrix(true, false);
      const s = new THREE.Vector3();
      o.matrixWorld.decompose(new THREE.Vector3(), new THREE.Quaternion(), s);
      return s;
    });
    this.panel.settings(m.settings);
    this.panel.vehicles(m.vehicles);
    this.markPilotSeats(m.vehicles);
  }

  // -- each drawn frame ---------------------------------------------------------------------------
  apply() {
    for (const [pointer, value] of this.pendingSets) this.send({ type: 'set', pointer, value });
    this.pendingSets.clear();
    if (this.pendingDrag) {
      this.send({ type: 'drag', target: this.pendingDrag });
      this.pendingDrag = null;
    }
    if (this.fresh && this.poses && this.objects) {
      this.fresh = false;
      const world = new THREE.Matrix4();
      const parentInv = new THREE.Matrix4();
      const t = new THREE.Vector3();
      const q = new THREE.Quaternion();
      for (const i of this.order) {
        const k = 7 * i;
        const p = this.poses;
        q.set(p[k], p[k + 1], p[k + 2], p[k + 3]);
        t.set(p[k + 4], p[k + 5], p[k + 6]);
        const obj = this.objects[i];
        world.compose(t, q, this.scales[i]);
        if (obj.parent) {
          obj.parent.updateWorldMatrix(true, false);
          parentInv.copy(obj.parent.matrixWorld).invert();
          world.premultiply(parentInv);
        }
        world.decompose(obj.position, obj.quaternion, obj.scale);
        obj.updateMatrixWorld(true);
      }
    }
    this.updateGrabLine();
    this.updateChase();
    this.panel.refresh();
  }

  // -- grab -----------------------------------------------------------------------------------------
  // The body under a canvas point: { node, kind, point } or null (kind: dynamic, kinematic, static).
  pick(clientX, clientY) {
    const ray = this.ray(clientX, clientY);
    const hits = ray.intersectObjects(this.pickables, false);
    for (const h of hits) {
      const pick = h.object.userData.pick;
      let node = pick ? pick.body : this.bodyOf(h.object);
      if (node === undefined) node = null;
      const kind = node == null ? 'static' : (this.motion.get(node) || 'static');
      return { node, kind, point: h.point.clone(), gltfNode: this.nodeOf ? this.nodeOf(h.object) : null };
    }
    return null;
  }

  bodyOf(object) {
    for (let o = object; o; o = o.parent) if (this.objectNode.has(o)) return this.objectNode.get(o);
    return null;
  }

  ray(clientX, clientY) {
    const r = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    const raycaster = new THREE.Raycaster();
    raycaster.setFromCamera(ndc, this.camera);
    return raycaster;
  }

  bindPointer() {
    const canvas = this.renderer.domElement;
    canvas.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      const hit = this.pick(e.clientX, e.clientY);
      if (hit && hit.gltfNode != null) { // the behaviour graph's event/onSelect
        const origin = this.ray(e.clientX, e.clientY).ray.origin;
        this.send({ type: 'select', node: hit.gltfNode, point: hit.point.toArray(), origin: origin.toArray() });
      }
      if (!hit || hit.kind !== 'dynamic') return; // the orbit controls keep the drag
      e.stopImmediatePropagation();
      this.controls.enabled = false;
      canvas.setPointerCapture(e.pointerId);
      // Drag in the horizontal plane through the grab point (Shift: the plane facing the camera).
      const normal = e.shiftKey ? this.camera.getWorldDirection(new THREE.Vector3()).negate() : new THREE.Vector3(0, 1, 0);
      this.grab = { node: hit.node, plane: new THREE.Plane().setFromNormalAndCoplanarPoint(normal, hit.point),
        target: hit.point.clone(), anchor: this.localPoint(hit.node, hit.point) };
      this.info.grabbing = hit.node;
      this.send({ type: 'grab', node: hit.node, point: hit.point.toArray() });
    }, { capture: true });
    canvas.addEventListener('pointermove', (e) => {
      if (this.grab) {
        const p = this.ray(e.clientX, e.clientY).ray.intersectPlane(this.grab.plane, new THREE.Vector3());
        if (p) {
          this.grab.target.copy(p);
          this.pendingDrag = p.toArray();
        }
        return;
      }
      const hit = this.pick(e.clientX, e.clientY);
      let cursor = 'default';
      if (hit && hit.kind === 'dynamic') cursor = 'grab';
      else if (hit) cursor = 'not-allowed'; // a kinematic body or static geometry: not draggable
      canvas.style.cursor = cursor;
      this.info.cursor = cursor;
      this.info.hover = hit ? { node: hit.node, kind: hit.kind } : null;
      const hovered = hit && hit.gltfNode != null ? hit.gltfNode : null;
      if (hovered !== this.hovered) { // the behaviour graph's event/onHoverIn/Out
        this.hovered = hovered;
        this.send({ type: 'hover', node: hovered });
      }
    });
    const release = () => {
      if (!this.grab) return;
      if (this.pendingDrag) this.send({ type: 'drag', target: this.pendingDrag });
      this.pendingDrag = null;
      this.send({ type: 'release' });
      this.grab = null;
      this.info.grabbing = null;
      this.controls.enabled = true;
    };
    canvas.addEventListener('pointerup', release);
    canvas.addEventListener('pointercancel', release);
  }

  localPoint(node, point) {
    const obj = this.nodeObject(node);
    obj.updateWorldMatrix(true, false);
    const m = new THREE.Matrix4().compose(obj.getWorldPosition(new THREE.Vector3()),
      obj.getWorldQuaternion(new THREE.Quaternion()), new THREE.Vector3(1, 1, 1));
    return point.clone().applyMatrix4(m.invert());
  }

  updateGrabLine() {
    if (!this.grab) {
      this.grabLine.visible = false;
      this.grabTarget.visible = false;
      return;
    }
    this.grabTarget.position.copy(this.grab.target);
    this.grabTarget.visible = true;
    const obj = this.nodeObject(this.grab.node);
    const m = new THREE.Matrix4().compose(obj.getWorldPosition(new THREE.Vector3()),
      obj.getWorldQuaternion(new THREE.Quaternion()), new THREE.Vector3(1, 1, 1));
    const from = this.grab.anchor.clone().applyMatrix4(m);
    this.grabLine.geometry.setFromPoints([from, this.grab.target]);
    this.grabLine.visible = true;
  }

  // -- drive ----------------------------------------------------------------------------------------
  bindKeys() {
    const keys = { KeyW: 1, KeyS: 1, KeyA: 1, KeyD: 1, Space: 1, ArrowUp: 1, ArrowDown: 1, ArrowLeft: 1,
      ArrowRight: 1 };
    const change = (e, down) => {
      if (!this.hello || !this.hello.vehicles.length || !(e.code in keys)) return;
      if (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return; // typing in the panel
      e.preventDefault();
      if (down) this.keys.add(e.code); else this.keys.delete(e.code);
      const k = (...codes) => codes.some((c) => this.keys.has(c));
      const drive = { throttle: (k('KeyW', 'ArrowUp') ? 1 : 0) - (k('KeyS', 'ArrowDown') ? 1 : 0),
        steer: (k('KeyA', 'ArrowLeft') ? 1 : 0) - (k('KeyD', 'ArrowRight') ? 1 : 0), brake: k('Space') };
      if (drive.throttle === this.drive.throttle && drive.steer === this.drive.steer
        && drive.brake === this.drive.brake) return;
      this.drive = drive;
      const node = this.pilotedVehicle();
      this.send({ type: 'drive', node, ...drive });
      if (!this.chase) this.setChase(true);
    };
    window.addEventListener('keydown', (e) => change(e, true));
    window.addEventListener('keyup', (e) => change(e, false));
  }

  pilotedVehicle() { return this.hello.vehicles[0].node; }

  setChase(on) {
    this.chase = on && !!(this.hello && this.hello.vehicles.length);
    this.info.chase = this.chase;
  }

  // A camera behind and above the piloted vehicle, easing toward its place each frame.
  updateChase() {
    if (!this.chase) return;
    const obj = this.nodeObject(this.pilotedVehicle());
    const p = obj.getWorldPosition(new THREE.Vector3());
    const q = obj.getWorldQuaternion(new THREE.Quaternion());
    // Only the heading (yaw) turns the camera: a pitching chassis would shake it.
    const forward = new THREE.Vector3(0, 0, 1).applyQuaternion(q);
    const yaw = Math.atan2(forward.x, forward.z);
    const offset = CHASE_OFFSET.clone().applyAxisAngle(new THREE.Vector3(0, 1, 0), yaw);
    this.camera.position.lerp(p.clone().add(offset), 0.15);
    this.controls.target.lerp(p.clone().add(new THREE.Vector3(0, 1, 0)), 0.3);
    // The grid goes along under the car (by whole cells: its lines stay put on the ground), so a drive of a
    // kilometre keeps grid lines around it to see it move by.
    const grid = this.scene.getObjectByName('gp-grid');
    if (grid && grid.userData.cell > 0) {
      const cell = grid.userData.cell;
      grid.position.x = Math.round(p.x / cell) * cell;
      grid.position.z = Math.round(p.z / cell) * cell;
      this.info.grid = { x: grid.position.x, z: grid.position.z, cell };
    }
  }

  // The pilot seat of each vehicle: a bright marker on the seat node, and its name in the panel.
  markPilotSeats(vehicles) {
    for (const v of vehicles) {
      if (v.pilot_seat == null) continue;
      const size = Math.max(this.data.overlay.markerSize || 0.25, 0.1);
      const marker = new THREE.Mesh(new THREE.ConeGeometry(size * 0.5, size * 1.2, 16),
        new THREE.MeshBasicMaterial({ color: 0x4dd0e1, depthTest: false, transparent: true, opacity: 0.9 }));
      marker.rotation.x = Math.PI; // pointing down at the seat
      marker.position.y = size * 1.6;
      marker.renderOrder = 21;
      marker.name = 'gp-pilot-seat';
      marker.userData.stage = true;
      this.nodeObject(v.pilot_seat).add(marker);
      this.info.pilotSeat = v.pilot_seat;
    }
  }

  // -- state for tests and the console --------------------------------------------------------------
  exposeState() {
    const s = this.state;
    s.live = this.info;
    Object.defineProperty(this.info, 'rtf', { get: () => this.clock.rtf, enumerable: true });
    Object.defineProperty(this.info, 'step', { get: () => this.clock.step, enumerable: true });
    Object.assign(this.info, {
      send: (m) => this.send(m),
      set: (pointer, value) => this.pendingSets.set(pointer, value),
      setChase: (on) => this.setChase(on),
      frameScene: () => { this.setChase(false); frame(this.camera, this.controls, sceneBounds(this.scene)); },
      poses: () => (this.poses ? Array.from(this.poses) : null), // the last frame: [qx qy qz qw tx ty tz] a body
      // The canvas point (CSS pixels from the page's top left) of a world point, to aim the mouse in tests.
      clientPoint: (x, y, z) => {
        const v = new THREE.Vector3(x, y, z).project(this.camera);
        const r = this.renderer.domElement.getBoundingClientRect();
        return [r.left + ((v.x + 1) / 2) * r.width, r.top + ((1 - v.y) / 2) * r.height];
      },
    });
  }
}

function depth(obj) {
  let d = 0;
  for (let o = obj; o && o.parent; o = o.parent) d++;
  return d;
}
