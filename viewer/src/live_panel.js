// The live page's controls: the time bar (pause, step, reset, speed, simulated time and real-time factor, save),
// and side-panel sections for the connection, vehicle keys, the tuning of settable pointers and trigger events.
import { nodeLabel } from './panel.js';

const CSS = `
.gp-live-row{display:grid;grid-template-columns:7.5em 1fr 4.8em;gap:4px;align-items:center;margin:1px 0}
.gp-live-row input[type=range]{width:100%;min-width:40px}
.gp-live-row input[type=number]{width:100%;box-sizing:border-box;background:#2f333a;color:#dde;border:1px solid #444}
.gp-live-vec{display:flex;gap:2px;grid-column:span 2}.gp-live-vec input{width:33%;min-width:0}
.gp-live-group{margin-top:6px;color:#aab}
#gp-live-notice{color:#ffc14d;min-height:1.2em}
#gp-bar a{color:#8ab4f8}
.gp-key{display:inline-block;border:1px solid #666;border-radius:3px;padding:0 4px;margin:0 2px;font-size:11px}
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

export function buildLiveBar(bar, live) {
  const clock = live.clock;
  const play = el('button', { id: 'gp-play', onclick: () => (clock.playing ? clock.pause() : clock.play()) }, 'Pause');
  const step = el('button', { id: 'gp-step', title: 'One step (pauses)', onclick: () => live.send({ type: 'step' }) },
    'Step');
  const reset = el('button', { id: 'gp-reset', title: 'Back to the start', onclick: () => live.send({ type: 'reset' }) },
    'Reset');
  const speed = el('select', { id: 'gp-speed' });
  for (const [s, label] of [[0.25, '¼'], [0.5, '½'], [1, '1'], [2, '2'], [4, '4']]) {
    const o = el('option', { value: String(s) }, `×${label}`);
    if (s === 1) o.selected = true;
    speed.append(o);
  }
  speed.addEventListener('change', () => clock.setSpeed(Number(speed.value)));
  const time = el('span', { id: 'gp-time' }, '0.00 s');
  const rtf = el('span', { id: 'gp-rtf', class: 'gp-muted' }, '');
  const query = location.search;
  const replay = el('a', { id: 'gp-save-replay', href: `/replay.html${query}`, download: 'replay.html',
    title: 'The recent run as a self-contained replay page' }, 'Save replay');
  const trace = el('a', { id: 'gp-save-trace', href: `/trace.csv${query}`, download: 'trace.csv',
    title: 'The recent run as a trace (CSV)' }, 'Trace');
  bar.append(play, step, reset, speed, time, rtf, el('span', { style: 'flex:1' }), replay, trace);
  return {
    refresh() {
      play.textContent = clock.playing ? 'Pause' : 'Play';
      time.textContent = `${clock.time.toFixed(2)} s`;
      rtf.textContent = clock.playing ? `×${clock.rtf.toFixed(2)} real time` : 'paused';
      if (document.activeElement !== speed && Number(speed.value) !== clock.speed) speed.value = String(clock.speed);
    },
  };
}

export function buildLivePanel(side, live) {
  document.head.append(el('style', {}, CSS));
  const gltf = live.data.gltf;
  const status = el('div', { id: 'gp-live-status', class: 'gp-muted' }, 'connecting…');
  const notice = el('div', { id: 'gp-live-notice' });
  const help = el('div', { class: 'gp-muted' }, 'Drag a dynamic body with the mouse (Shift: vertical plane).');
  const drive = el('div', { id: 'gp-live-drive' });
  const tune = el('div', { id: 'gp-tune' });
  const eventsTitle = el('h2', {}, 'Trigger events (0)');
  const events = el('div', { id: 'gp-live-events' });
  const live0 = el('div', {}, el('h2', {}, 'Live'), status, notice, help, drive);
  side.prepend(live0, el('h2', {}, 'Tune'), tune, eventsTitle, events);
  let count = 0;
  return {
    refresh() {
      const info = live.info;
      status.textContent = info.connected ? `connected · ${info.hello ? info.hello.engine : ''} at `
        + `${info.hello ? info.hello.rate : '?'} Hz · frames ${info.framesReceived}`
        : (info.closed != null ? `disconnected (${info.closed})` : 'connecting…');
    },
    notice(text) { notice.textContent = text; },
    // The behaviour graph's debug/log lines and errors, in the event list.
    addGraphLines(list) {
      for (const e of list) {
        count += 1;
        if (count > 500) events.firstChild?.remove();
        events.append(el('div', { class: 'gp-item gp-event' }, `${e.time.toFixed(3)} s `
          + `${e.event === 'log' ? 'log' : 'graph error'}: ${e.message}`));
      }
    },
    addEvents(list) {
      for (const e of list) {
        count += 1;
        if (count > 500) events.firstChild?.remove();
        events.append(el('div', { class: 'gp-item gp-event' }, `${e.time.toFixed(3)} s ${nodeLabel(gltf, e.node)} `
          + `${e.event === 'enter' ? 'enters' : 'leaves'} ${nodeLabel(gltf, e.trigger)}`));
      }
      eventsTitle.textContent = `Trigger events (${count})`;
    },
    clearEvents() {
      count = 0;
      events.replaceChildren();
      eventsTitle.textContent = 'Trigger events (0)';
    },
    vehicles(list) {
      drive.replaceChildren();
      for (const v of list) {
        const seat = v.pilot_seat != null ? `; pilot seat ${nodeLabel(gltf, v.pilot_seat)} (cone)` : '';
        drive.append(el('div', {}, `Drive ${nodeLabel(gltf, v.node)}${seat}: `,
          el('span', { class: 'gp-key' }, 'W'), el('span', { class: 'gp-key' }, 'S'), 'throttle ',
          el('span', { class: 'gp-key' }, 'A'), el('span', { class: 'gp-key' }, 'D'), 'steer ',
          el('span', { class: 'gp-key' }, 'Space'), 'brake'));
        const chase = el('button', { id: 'gp-chase' }, 'Chase camera');
        chase.addEventListener('click', () => live.setChase(!live.chase));
        drive.append(chase);
      }
    },
    settings(list) { buildTune(tune, list, live, gltf); },
    applied(pointer, value) {
      for (const input of tune.querySelectorAll('input')) {
        if (input.dataset.pointer !== pointer || input === document.activeElement) continue;
        const v = Array.isArray(value) ? value[Number(input.dataset.axis ?? 0)] : value;
        const show = input.dataset.degrees ? (v * 180) / Math.PI : v;
        if (input.type === 'checkbox') input.checked = !!v;
        else input.value = input.type === 'range' ? String(show) : fmt(show);
      }
    },
  };
}

// One row per setting: a slider and a number field for numbers (radians shown in degrees), three fields for
// vectors, a checkbox for flags. Every change is World.set on the server (coalesced to one per drawn frame).
function buildTune(box, list, live, gltf) {
  box.replaceChildren();
  if (!list.length) box.append(el('div', { class: 'gp-muted' }, 'nothing settable in this scene'));
  let group = null;
  for (const s of list) {
    if (s.group !== group) {
      group = s.group;
      box.append(el('div', { class: 'gp-live-group' }, `${group}${s.node != null ? ` — ${nodeLabel(gltf, s.node)}` : ''}`));
    }
    const degrees = s.unit === 'rad' || s.unit === 'rad/s';
    const show = (v) => (degrees ? (v * 180) / Math.PI : v);
    const back = (v) => (degrees ? (v * Math.PI) / 180 : v);
    const unit = degrees ? s.unit.replace('rad', '°') : s.unit;
    const label = el('span', { title: s.pointer }, `${s.label}${unit ? ` (${unit})` : ''}`);
    if (s.kind === 'number') {
      const value = s.value == null ? s.high : s.value;
      const deg = degrees ? { 'data-degrees': '1' } : {};
      const slider = el('input', { type: 'range', 'data-pointer': s.pointer, ...deg, min: String(show(s.low)),
        max: String(show(s.high)), step: String(show(s.high - s.low) / 1000), value: String(show(value)) });
      const field = el('input', { type: 'number', 'data-pointer': s.pointer, ...deg, value: fmt(show(value)) });
      slider.addEventListener('input', () => {
        field.value = fmt(Number(slider.value));
        live.pendingSets.set(s.pointer, back(Number(slider.value)));
      });
      field.addEventListener('change', () => {
        const v = Number(field.value);
        if (!Number.isFinite(v)) return;
        slider.value = String(v);
        live.pendingSets.set(s.pointer, back(v));
      });
      box.append(el('div', { class: 'gp-live-row' }, label, slider, field));
    } else if (s.kind === 'vec3') {
      const fields = [0, 1, 2].map((i) => el('input', { type: 'number', step: '0.1', 'data-pointer': s.pointer,
        'data-axis': String(i), ...(degrees ? { 'data-degrees': '1' } : {}), value: fmt(show(s.value[i])) }));
      for (const f of fields) {
        f.addEventListener('change', () => {
          const v = fields.map((x) => back(Number(x.value)));
          if (v.every(Number.isFinite)) live.pendingSets.set(s.pointer, v);
        });
      }
      box.append(el('div', { class: 'gp-live-row' }, label, el('div', { class: 'gp-live-vec' }, ...fields)));
    } else if (s.kind === 'bool') {
      const box1 = el('input', { type: 'checkbox', 'data-pointer': s.pointer });
      box1.checked = !!s.value;
      box1.addEventListener('change', () => live.pendingSets.set(s.pointer, box1.checked));
      box.append(el('div', { class: 'gp-live-row' }, label, box1, el('span')));
    }
  }
}

function fmt(v) {
  return String(+Number(v).toPrecision(5));
}
