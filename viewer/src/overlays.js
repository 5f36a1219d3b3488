// Physics overlays built from the neutral overlay JSON (computed by gltf_physics.view.overlay from the model,
// never from extension JSON). Each overlay hangs under its node's three.js object, so whatever moves the node
// (file animation or the baked run) moves the overlay with it.
import * as THREE from 'three';
import { mergeLines, meshShapeGeometry, shapeGeometry } from './shapes.js';

export const COLOURS = {
  dynamic: 0xff8c1a,
  kinematic: 0x3aa0ff,
  static: 0x9aa0a6,
  trigger: 0x3ddc84,
  triggerActive: 0xffe14d,
  joint: 0xff4fd8,
  wheel: 0xe8e8e8,
  thruster: 0xff5252,
  gravity: 0xb388ff,
  seat: 0x4dd0e1,
  highlight: 0xffffff,
};

function lineMaterial(colour) {
  // Drawn on top of the meshes: a collider usually coincides with its visual surface.
  return new THREE.LineBasicMaterial({ color: colour, depthTest: false, transparent: true, opacity: 0.95 });
}

function segments(geometry, colour) {
  const obj = new THREE.LineSegments(geometry, lineMaterial(colour));
  obj.renderOrder = 10;
  return obj;
}

function polyline(points, colour) {
  const g = new THREE.BufferGeometry().setFromPoints(points.map((p) => new THREE.Vector3(...p)));
  const obj = new THREE.Line(g, lineMaterial(colour));
  obj.renderOrder = 10;
  return obj;
}

function arrow(from, dir, length, colour) {
  const a = new THREE.ArrowHelper(dir.clone().normalize(), from, length, colour, length * 0.25, length * 0.12);
  a.traverse((o) => {
    if (o.material) {
      o.material.depthTest = false;
      o.material.transparent = true;
      o.renderOrder = 11;
    }
  });
  return a;
}

function frameAxes(size) {
  // Joint frame axes: X red, Y green, Z blue (the axis indices limits and drives refer to).
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(
    [0, 0, 0, size, 0, 0, 0, 0, 0, 0, size, 0, 0, 0, 0, 0, 0, size], 3));
  g.setAttribute('color', new THREE.Float32BufferAttribute(
    [1, 0.2, 0.2, 1, 0.2, 0.2, 0.2, 1, 0.2, 0.2, 1, 0.2, 0.3, 0.5, 1, 0.3, 0.5, 1], 3));
  const m = new THREE.LineBasicMaterial({ vertexColors: true, depthTest: false, transparent: true });
  const obj = new THREE.LineSegments(g, m);
  obj.renderOrder = 12;
  return obj;
}

function anchorPoint(size, colour) {
  const g = new THREE.SphereGeometry(size, 8, 6);
  const m = new THREE.MeshBasicMaterial({ color: colour, depthTest: false, transparent: true });
  const obj = new THREE.Mesh(g, m);
  obj.renderOrder = 12;
  return obj;
}

// A rigid frame (translation + rotation, no scale) relative to an object's rigid world frame.
class RigidAttachment {
  constructor(object3d, host, pose) {
    this.object = object3d;
    this.host = host; // node object, or null for world space
    this.local = new THREE.Matrix4().compose(
      new THREE.Vector3(...pose.translation), new THREE.Quaternion(...pose.rotation), new THREE.Vector3(1, 1, 1));
    object3d.matrixAutoUpdate = false;
  }

  update() {
    const m = new THREE.Matrix4();
    if (this.host) {
      const p = new THREE.Vector3();
      const q = new THREE.Quaternion();
      const s = new THREE.Vector3();
      this.host.matrixWorld.decompose(p, q, s);
      m.compose(p, q, new THREE.Vector3(1, 1, 1)); // joint frames are rigid (scale removed, as in the model)
    }
    this.object.matrix.multiplyMatrices(m, this.local);
    this.object.matrixWorldNeedsUpdate = true;
  }
}

export class Overlays {
  constructor(data, nodeObject, loadMesh, worldRoot) {
    this.data = data;
    this.nodeObject = nodeObject; // node index → three.js Object3D
    this.loadMesh = loadMesh;
    this.worldRoot = worldRoot;
    this.colliders = []; // {index, kind, node, object}
    this.joints = [];
    this.wheels = [];
    this.thrusters = [];
    this.gravity = [];
    this.gravityArrows = 0; // direction arrows drawn for all gravity volumes
    this.seats = [];
    this.rigid = []; // RigidAttachment list updated every frame
    this.byNode = new Map(); // node → overlay objects, for highlighting
  }

  attach(node, object) {
    this.nodeObject(node).add(object);
    if (!this.byNode.has(node)) this.byNode.set(node, []);
    this.byNode.get(node).push(object);
  }

  async build() {
    for (const c of this.data.colliders) await this.buildCollider(c);
    this.data.joints.forEach((j) => this.buildJoint(j));
    this.data.wheels.forEach((w) => this.buildWheel(w));
    this.data.thrusters.forEach((t) => this.buildThruster(t));
    this.data.gravity.forEach((g) => this.buildGravity(g));
    (this.data.seats || []).forEach((s) => this.buildSeat(s));
  }

  async buildCollider(c) {
    const geometry = c.shape.type === 'mesh'
      ? await meshShapeGeometry(c.shape, this.loadMesh)
      : shapeGeometry(c.shape);
    const obj = segments(geometry || new THREE.BufferGeometry(), COLOURS[c.kind]);
    obj.name = `collider:${c.node}`;
    obj.userData = { kind: c.kind, node: c.node, baseColour: COLOURS[c.kind] };
    this.attach(c.node, obj);
    this.colliders.push({ ...c, object: obj });
  }

  buildJoint(j) {
    const group = new THREE.Group();
    const size = this.data.markerSize;
    for (const [side, colour] of [['a', COLOURS.joint], ['b', 0x00e5ff]]) {
      const end = j[side];
      const frame = new THREE.Group();
      frame.add(frameAxes(size * 2));
      frame.add(anchorPoint(size * 0.25, colour));
      const host = end.body == null ? null : this.nodeObject(end.body);
      this.rigid.push(new RigidAttachment(frame, host, end));
      group.add(frame);
    }
    // A connector from anchor A to anchor B shows how far the solver has to pull them together.
    const g = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]);
    const line = new THREE.Line(g, lineMaterial(COLOURS.joint));
    line.renderOrder = 12;
    line.frustumCulled = false;
    group.add(line);
    // Arms from each anchor to its body's origin: pivot to bob, so a pendulum reads as one.
    const arms = ['a', 'b'].map((side) => {
      if (j[side].body == null) return null;
      const arm = new THREE.Line(new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]),
        lineMaterial(COLOURS.joint));
      arm.material.opacity = 0.6;
      arm.renderOrder = 12;
      arm.frustumCulled = false;
      arm.name = `joint-arm:${j.node}:${side}`;
      group.add(arm);
      return { line: arm, host: this.nodeObject(j[side].body) };
    });
    group.name = `joint:${j.node}`;
    this.worldRoot.add(group);
    this.joints.push({ ...j, object: group, ends: group.children.slice(0, 2), connector: line, arms });
  }

  buildWheel(w) {
    // A wheel is a circle in local YZ, a cylinder of its width along X (DIGEST §9).
    const g = new THREE.CylinderGeometry(w.radius, w.radius, w.width, 16, 1, true);
    g.rotateZ(Math.PI / 2);
    const wire = new THREE.EdgesGeometry(g, 1);
    g.dispose();
    const forward = new THREE.BufferGeometry().setFromPoints(
      [new THREE.Vector3(0, 0, 0), new THREE.Vector3(0, 0, w.radius * 1.5)]);
    const obj = segments(mergeLines([wire, forward]), COLOURS.wheel);
    obj.name = `wheel:${w.node}`;
    this.attach(w.node, obj);
    this.wheels.push({ ...w, object: obj });
  }

  buildThruster(t) {
    // Thrust acts along the node's +Z (THR-2); hover thrusters push away from the ground along the same axis.
    const obj = arrow(new THREE.Vector3(), new THREE.Vector3(0, 0, 1), this.data.markerSize * 3, COLOURS.thruster);
    obj.name = `${t.kind}:${t.node}`;
    this.attach(t.node, obj);
    this.thrusters.push({ ...t, object: obj });
  }

  buildGravity(f) {
    const group = new THREE.Group();
    let size = this.data.markerSize * 3;
    const sign = f.gravity < 0 ? -1 : 1; // negative gravity repels (DIGEST §11)
    const add = (from, pull) => { // `pull`: where an attracting field pulls a body at `from`
      const p = pull.clone().normalize();
      const length = size * 0.8;
      if (sign > 0) group.add(arrow(from, p, length, COLOURS.gravity));
      else group.add(arrow(from.clone().add(p.clone().multiplyScalar(length)), p.negate(), length, COLOURS.gravity));
      this.gravityArrows += 1;
    };
    const v = (x = 0, y = 0, z = 0) => new THREE.Vector3(x, y, z);
    if (f.type === 'directional') {
      add(v(), v(...f.direction));
    } else if (f.type === 'point') {
      for (const d of [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]) {
        const at = v(...d).multiplyScalar(size);
        add(at, at.clone().negate());
      }
    } else if (f.type === 'disc' || f.type === 'torus') {
      // Disc: filled circle in local XZ, pulling toward its plane; torus: its ring, pulling toward it (DIGEST §7).
      const r = f.radius;
      const circle = new THREE.EllipseCurve(0, 0, r, r).getPoints(48).map((p) => [p.x, 0, p.y]);
      group.add(polyline(circle, COLOURS.gravity));
      if (f.type === 'disc') {
        group.add(polyline([[-r, 0, 0], [r, 0, 0]], COLOURS.gravity));
        for (const x of [-r / 2, r / 2]) { add(v(x, size, 0), v(0, -1, 0)); add(v(x, -size, 0), v(0, 1, 0)); }
      } else {
        for (const x of [-r, r]) { add(v(x, size, 0), v(0, -1, 0)); add(v(x * 1.6, 0, 0), v(-Math.sign(x), 0, 0)); }
      }
    } else if (f.type === 'line' && f.points.length >= 2) {
      group.add(polyline(f.points, COLOURS.gravity));
      for (let i = 0; i + 1 < f.points.length; i += 1) {
        const mid = v(...f.points[i]).add(v(...f.points[i + 1])).multiplyScalar(0.5);
        const along = v(...f.points[i + 1]).sub(v(...f.points[i]));
        const side = Math.abs(along.y) < 0.9 * along.length() ? v(0, 1, 0) : v(1, 0, 0);
        add(mid.clone().add(side.clone().multiplyScalar(size)), side.clone().negate());
      }
    } else if (f.type === 'shaped' && f.shape) {
      const g = shapeGeometry(f.shape);
      if (g) {
        group.add(segments(g, COLOURS.gravity));
        g.computeBoundingBox();
        const box = g.boundingBox;
        size = Math.max(size, box.getSize(v()).length() * 0.12); // arrows to the volume's scale
        // One arrow onto each face of the shape's bounds: shaped gravity pulls toward the nearest surface.
        for (let axis = 0; axis < 3; axis += 1) {
          for (const [end, out] of [[box.min, -1], [box.max, 1]]) {
            const at = box.getCenter(v()).setComponent(axis, end.getComponent(axis) + out * size);
            add(at, v().setComponent(axis, -out));
          }
        }
      }
    }
    group.name = `gravity:${f.node}`;
    this.attach(f.node, group);
    this.gravity.push({ ...f, object: group });
  }

  buildSeat(seat) {
    // OMI_seat: back → knee → foot in the seat node's space (DIGEST §8), with markers at the three points.
    const group = new THREE.Group();
    group.add(polyline([seat.back, seat.knee, seat.foot], COLOURS.seat));
    for (const p of [seat.back, seat.knee, seat.foot]) {
      const m = anchorPoint(this.data.markerSize * 0.2, COLOURS.seat);
      m.position.set(...p);
      group.add(m);
    }
    group.name = `seat:${seat.node}`;
    this.attach(seat.node, group);
    this.seats.push({ ...seat, object: group });
  }

  update() {
    for (const r of this.rigid) r.update();
    const a = new THREE.Vector3();
    const b = new THREE.Vector3();
    for (const j of this.joints) {
      j.ends[0].updateMatrixWorld(true);
      j.ends[1].updateMatrixWorld(true);
      a.setFromMatrixPosition(j.ends[0].matrixWorld);
      b.setFromMatrixPosition(j.ends[1].matrixWorld);
      j.connector.geometry.setFromPoints([a, b]);
      j.arms.forEach((arm, k) => {
        if (!arm) return;
        arm.line.geometry.setFromPoints([k === 0 ? a : b, arm.host.getWorldPosition(new THREE.Vector3())]);
      });
    }
  }

  // Colour every collider: its body kind, trigger parts yellow while occupied, `node`'s overlays white.
  recolour(activeTriggerNodes, highlightNode) {
    for (const c of this.colliders) {
      let colour = c.object.userData.baseColour;
      if (c.kind === 'trigger' && activeTriggerNodes.has(c.node)) colour = COLOURS.triggerActive;
      if (highlightNode != null && c.node === highlightNode) colour = COLOURS.highlight;
      c.object.material.color.setHex(colour);
    }
  }
}
