// Playback of the baked run: world poses of body nodes per step, applied to the node objects so that the
// meshes, and the overlays hanging under them, follow the simulation. Trigger occupancy from the events.
import * as THREE from 'three';

export class Bake {
  constructor(bake, nodeObject) {
    this.rate = bake.rate;
    this.frames = bake.frames;
    this.nodes = bake.nodes;
    this.t = bake.translations; // flat: frame-major, then body, then xyz
    this.q = bake.rotations; // flat: frame-major, then body, then xyzw
    this.duration = (this.frames - 1) / this.rate;
    this.objects = this.nodes.map((n) => nodeObject(n));
    // Parents before children, so a nested body sees its parent's new pose.
    this.order = this.nodes.map((_, i) => i).sort((i, j) => depth(this.objects[i]) - depth(this.objects[j]));
    this.scales = this.objects.map((o) => {
      o.updateWorldMatrix(true, false);
      const s = new THREE.Vector3();
      o.matrixWorld.decompose(new THREE.Vector3(), new THREE.Quaternion(), s);
      return s; // the node keeps its world scale; the run moves it rigidly
    });
  }

  pose(frame, body) {
    const B = this.nodes.length;
    const k = frame * B + body;
    return {
      t: new THREE.Vector3(this.t[3 * k], this.t[3 * k + 1], this.t[3 * k + 2]),
      q: new THREE.Quaternion(this.q[4 * k], this.q[4 * k + 1], this.q[4 * k + 2], this.q[4 * k + 3]),
    };
  }

  apply(time) {
    const x = Math.min(Math.max(time * this.rate, 0), this.frames - 1);
    const f0 = Math.floor(x);
    const f1 = Math.min(f0 + 1, this.frames - 1);
    const a = x - f0;
    const world = new THREE.Matrix4();
    const parentInv = new THREE.Matrix4();
    for (const i of this.order) {
      const obj = this.objects[i];
      const p0 = this.pose(f0, i);
      const p1 = this.pose(f1, i);
      p0.t.lerp(p1.t, a);
      p0.q.slerp(p1.q, a);
      world.compose(p0.t, p0.q, this.scales[i]);
      if (obj.parent) {
        obj.parent.updateWorldMatrix(true, false);
        parentInv.copy(obj.parent.matrixWorld).invert();
        world.premultiply(parentInv);
      }
      world.decompose(obj.position, obj.quaternion, obj.scale);
      obj.updateMatrixWorld(true);
    }
  }
}

function depth(obj) {
  let d = 0;
  for (let o = obj; o && o.parent; o = o.parent) d++;
  return d;
}

// Trigger nodes occupied at `time` (enter count above exit count), expanded to the nodes of their parts,
// plus the events fired within `flash` seconds before `time`.
export function triggerState(events, triggerParts, time, flash) {
  const count = new Map();
  const recent = [];
  for (const e of events) {
    if (e.time > time) break; // events are sorted by time
    const d = e.event === 'enter' ? 1 : -1;
    count.set(e.trigger, (count.get(e.trigger) || 0) + d);
    if (time - e.time <= flash) recent.push(e);
  }
  const active = new Set();
  const mark = (trigger) => {
    for (const n of triggerParts.get(trigger) || [trigger]) active.add(n);
  };
  for (const [trigger, c] of count) if (c > 0) mark(trigger);
  for (const e of recent) mark(e.trigger);
  return { active, recent };
}
