// The page around the 3-D view: side panel (info summary, validator messages, events, legend) and the
// playback bar (play/pause, timeline scrubber, speed). Plain DOM: no framework, nothing fetched.
import { COLOURS } from './overlays.js';

const CSS = `
html,body{margin:0;height:100%;background:#1b1d21;color:#dde;font:13px/1.4 system-ui,sans-serif}
#gp-app{display:flex;height:100%}
#gp-main{flex:1;display:flex;flex-direction:column;min-width:0}
#gp-view{flex:1;position:relative;min-height:0;overflow:hidden}
#gp-view canvas{position:absolute;inset:0;display:block;width:100%;height:100%}
#gp-bar{display:flex;gap:8px;align-items:center;padding:6px 10px;background:#23262b;border-top:1px solid #333}
#gp-bar input[type=range]{flex:1;min-width:40px}
#gp-time{font-variant-numeric:tabular-nums;min-width:7.5em;text-align:right;white-space:nowrap}
#gp-side{width:clamp(180px,26vw,340px);flex:none;box-sizing:border-box;overflow-y:auto;overflow-x:hidden;
  padding:8px 10px;background:#202227;border-left:1px solid #333;overflow-wrap:anywhere}
@media (max-width:560px){#gp-app{flex-direction:column}#gp-side{width:auto;height:38%;border-left:0;
  border-top:1px solid #333}}
#gp-side h2{font-size:13px;margin:12px 0 4px;color:#fff}
#gp-side table{border-collapse:collapse;width:100%;table-layout:fixed}
#gp-side td{padding:1px 4px;vertical-align:top}
.gp-item{cursor:pointer;padding:2px 4px;border-radius:3px}
.gp-item:hover{background:#333842}
.gp-item.gp-selected{background:#41485a}
.gp-error{color:#ff6b6b}.gp-warning{color:#ffc14d}.gp-info{color:#8ab4f8}.gp-hint{color:#aaa}
.gp-swatch{display:inline-block;width:10px;height:10px;margin-right:6px;border-radius:2px}
.gp-muted{color:#889}
button,select{background:#2f333a;color:#dde;border:1px solid #444;border-radius:3px;padding:2px 8px}
`;

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

// The node index a JSON pointer points into (/nodes/N/...), or null.
export function pointerNode(pointer) {
  const m = /^\/nodes\/(\d+)(\/|$)/.exec(pointer || '');
  return m ? Number(m[1]) : null;
}

export function buildLayout(title) {
  document.head.append(el('style', {}, CSS));
  document.title = title;
  const view = el('div', { id: 'gp-view' });
  const bar = el('div', { id: 'gp-bar' });
  const side = el('div', { id: 'gp-side' });
  document.body.append(el('div', { id: 'gp-app' }, el('div', { id: 'gp-main' }, view, bar), side));
  return { view, bar, side };
}

// Human words for the summary's camelCase count keys (the JSON keeps them).
const LABELS = { staticColliders: 'static colliders', compoundTriggers: 'compound triggers',
  hoverThrusters: 'hover thrusters', gravityFields: 'gravity fields' };

// "Ball (#3)" from the glTF's node names, "#3" for a node without one.
export function nodeLabel(gltf, node) {
  const name = gltf?.nodes?.[node]?.name;
  return name ? `${name} (#${node})` : `#${node}`;
}

// The trigger is the subject: an overlap has no direction, and a trigger carried onto a static collider
// must not read as if the ground had moved ("Headlight (#11) starts touching StaticMesh (#23)").
export function eventText(gltf, e) {
  const verb = e.event === 'enter' ? 'starts touching' : 'stops touching';
  return `${e.time.toFixed(3)} s ${nodeLabel(gltf, e.trigger)} ${verb} ${nodeLabel(gltf, e.node)}`;
}

export function buildBar(bar, player, actions = {}) {
  const play = el('button', { id: 'gp-play', onclick: () => (player.playing ? player.pause() : player.play()) },
    'Pause');
  const scrub = el('input', { id: 'gp-scrub', type: 'range', min: '0', max: '1000', value: '0' });
  scrub.addEventListener('input', () => player.seek((Number(scrub.value) / 1000) * player.duration));
  const speed = el('select', { id: 'gp-speed' });
  for (const s of [0.1, 0.25, 0.5, 1, 2, 4]) {
    const o = el('option', { value: String(s) }, `${s}×`);
    if (s === 1) o.selected = true;
    speed.append(o);
  }
  speed.addEventListener('change', () => player.setSpeed(Number(speed.value)));
  const time = el('span', { id: 'gp-time' }, '0.00 s');
  const follow = el('button', { id: 'gp-follow', title: 'Keep the selected body in view' }, 'Follow');
  follow.addEventListener('click', () => actions.toggleFollow && actions.toggleFollow());
  bar.append(play, scrub, time, speed, follow);
  if (!(player.duration > 0)) scrub.disabled = true;
  return {
    refresh() {
      play.textContent = player.playing ? 'Pause' : 'Play';
      const following = window.gltfPhysicsViewer?.followedNode != null;
      follow.textContent = following ? 'Unfollow' : 'Follow';
      follow.disabled = !following && !(actions.canFollow && actions.canFollow());
      time.textContent = player.duration > 0
        ? `${player.time.toFixed(2)} / ${player.duration.toFixed(2)} s`
        : `${player.time.toFixed(2)} s`;
      if (player.duration > 0 && document.activeElement !== scrub) {
        scrub.value = String(Math.round((player.time / player.duration) * 1000));
      }
    },
  };
}

function legend() {
  const rows = [['dynamic', 'dynamic collider'], ['kinematic', 'kinematic collider'],
    ['static', 'static collider'], ['trigger', 'trigger'], ['triggerActive', 'trigger firing'],
    ['joint', 'joint anchor (A), axes X/Y/Z'], ['wheel', 'wheel'], ['thruster', 'thruster (+Z)'],
    ['gravity', 'gravity volume (arrows: its pull)'], ['seat', 'seat (back, knee, foot)']];
  return el('div', {}, ...rows.map(([k, label]) => el('div', {},
    el('span', { class: 'gp-swatch', style: `background:#${COLOURS[k].toString(16).padStart(6, '0')}` }),
    label)));
}

function summaryBlock(summary) {
  const box = el('div', {});
  box.append(el('div', { class: 'gp-muted' }, summary.file));
  for (const [ext, gen] of Object.entries(summary.generations || {})) box.append(el('div', {}, `${ext}: ${gen}`));
  const counts = Object.entries(summary.counts || {}).filter(([, v]) => (typeof v === 'object'
    ? Object.keys(v).length : v));
  const t = el('table', {});
  for (const [k, v] of counts) {
    const text = typeof v === 'object' ? Object.entries(v).map(([a, b]) => `${a} ${b}`).join(', ') : v;
    t.append(el('tr', {}, el('td', { class: 'gp-muted' }, LABELS[k] || k), el('td', {}, text)));
  }
  box.append(t);
  if (summary.worldGravity) {
    box.append(el('div', {}, `world gravity (${summary.worldGravity.map((v) => +(v + 0).toPrecision(4)).join(', ')}) m/s²`));
  }
  return box;
}

export function buildSide(side, data, actions) {
  side.append(el('h2', {}, 'Scene'), summaryBlock(data.summary));
  const selectable = [];
  const select = (item, node) => {
    for (const s of selectable) s.classList.toggle('gp-selected', s === item);
    actions.highlight(node);
  };
  if (data.summary.bodies && data.summary.bodies.length) {
    side.append(el('h2', {}, 'Bodies'));
    for (const b of data.summary.bodies) {
      const item = el('div', { class: 'gp-item', 'data-node': String(b.node) },
        `${nodeLabel(data.gltf, b.node)} — ${b.mass === undefined ? b.motion : `${b.motion}, ${b.mass} kg`}`);
      item.addEventListener('click', () => select(item, b.node));
      selectable.push(item);
      side.append(item);
    }
  }
  const messages = data.report?.issues?.messages || [];
  side.append(el('h2', {}, `Validator messages (${messages.length})`));
  if (!data.report) side.append(el('div', { class: 'gp-muted' }, 'not validated'));
  for (const m of messages) {
    const node = pointerNode(m.pointer);
    const sev = ['error', 'warning', 'info', 'hint'][m.severity] ?? String(m.severity).toLowerCase();
    const item = el('div', { class: `gp-item gp-message gp-${sev}`, 'data-pointer': m.pointer || '' },
      `${m.code} ${m.pointer || ''}: ${m.message}`);
    item.addEventListener('click', () => select(item, node));
    selectable.push(item);
    side.append(item);
  }
  const events = data.bake?.events || [];
  if (data.bake) {
    side.append(el('h2', {}, `Trigger events (${events.length})`));
    for (const e of events.slice(0, 500)) {
      const item = el('div', { class: 'gp-item gp-event' },
        eventText(data.gltf, e));
      item.addEventListener('click', () => { actions.seek(e.time); select(item, e.trigger); });
      selectable.push(item);
      side.append(item);
    }
  }
  side.append(el('h2', {}, 'Legend'), legend());
}
