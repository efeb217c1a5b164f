// The step-through explainer (seed 002 is written as "可单步观察的过程"): the pipeline one event at a time —
// packet sent, arrived, inserted (sorted by server time: where it went), then for a frame: render time
// advanced, bracket found, factor computed, status chosen — each with a sentence whose numbers come from the
// core's walk of what is shown (`Lessons.walk` over the shown run or trace). Forward and back with buttons or
// keys; each step moves the playhead to its time and sets the page's highlight for the views and lanes:
//
//   {kind: 'snapshot', index, step: 'sent' | 'arrived' | 'inserted', time, tick, serverTime, sent, arrival,
//    outOfOrder, outcome, order: [ticks, oldest first], position}          index = row in model.table('snapshots')
//   {kind: 'frame', index, step: 'renderTime' | 'bracket' | 'factor' | 'status', time, renderTime, delay,
//    left, right: {tick, serverTime, x, y, index} | null, factor, x, y, status, mode, buffered: [ticks]}
//                                                                          index = row in model.table('frames')
import { t, loadPart } from './strings/i18n.js';

// The lessons' and the step-through's words (`lesson.*`, `step.*`) are fetched with this module, after the first
// frame (i18n.js `loadPart`), and are in before it draws one.
await loadPart('lessons');

const GLYPHS = { priming: '…', ready: '✓', underrun: '⚠', gap: '○✕', clockUncertain: '?', invalidInterval: '⊘' };
const ORDER = { sent: 0, arrived: 1, frame: 2 };
/** How much of a simulated run one walk covers, from the playhead (seconds of local time). */
const RUN_WINDOW = 0.2;

const sec = (v) => {
  const s = v.toFixed(3).replace(/0$/, '');
  return s;
};
const num = (v) => (Number.isFinite(v) ? String(Number(v.toFixed(2))) : '—');
const msText = (v) => `${Math.round(v * 1000)} ms`;
const list = (ticks) => `[${ticks.join(', ')}]`;

/** The key frames of a walk: the first, the first after each arrival, each change of status or mode, `focus`. */
function keyFrames(walk, focus) {
  const arrivals = walk.deliveries.map((d) => d.arrival);
  return walk.frames.filter((f, i) => {
    const prev = walk.frames[i - 1];
    if (!prev) return true;
    if (focus !== undefined && Math.abs(f.local - focus) < 1e-9) return true;
    if (arrivals.some((a) => a > prev.local && a <= f.local)) return true;
    return f.status !== prev.status || f.mode !== prev.mode;
  });
}

/** The ordered steps of a walk (plain data; the sentence is worded when shown, in the current language). */
export function buildSteps(walk, { focus } = {}) {
  const twoD = walk.deliveries.some((d) => d.y !== 0) || walk.frames.some((f) => f.y != null && f.y !== 0);
  const events = [];
  let newest = null;
  for (const d of walk.deliveries) {
    const newer = d.outOfOrder ? newest : null;
    if (d.outcome === 'inserted') newest = Math.max(newest ?? d.tick, d.tick);
    events.push({ time: d.sent, order: ORDER.sent, tick: d.tick, steps: [{ step: 'sent', d }] });
    events.push({ time: d.arrival, order: ORDER.arrived, tick: d.tick, steps: [{ step: 'arrived', d, newer }, { step: 'inserted', d }] });
  }
  for (const f of keyFrames(walk, focus)) {
    const steps = [{ step: 'renderTime', f }, { step: 'bracket', f }];
    if (f.status === 'ready') steps.push({ step: 'factor', f });
    steps.push({ step: 'status', f });
    events.push({ time: f.local, order: ORDER.frame, tick: 0, steps });
  }
  events.sort((a, b) => a.time - b.time || a.order - b.order || a.tick - b.tick);
  const steps = events.flatMap((e) => e.steps.map((s) => ({ ...s, time: e.time, kind: s.d ? 'snapshot' : 'frame', twoD, delay: walk.renderDelay })));
  // What left the buffer between two looks at it (pruned once the render time passed it).
  let seen = null;
  for (const s of steps) {
    const now = s.step === 'inserted' ? s.d.order : s.step === 'renderTime' ? s.f.buffered : null;
    if (!now) continue;
    const dropped = seen ? seen.filter((k) => !now.includes(k)) : [];
    for (const other of steps) if (s.f && other.f === s.f) other.dropped = dropped;
    seen = now;
  }
  return steps;
}

const where = (x, y, twoD) => (twoD ? t('step.wherePoint', { x: num(x), y: num(y) }) : t('step.whereX', { x: num(x) }));
const point = (x, y, twoD) => (twoD ? `(${num(x)}, ${num(y)})` : num(x));
const at = (x, y, twoD) => (twoD ? point(x, y, true) : `x = ${num(x)}`);

function whySentence(f, buffer) {
  const w = f.why ?? { kind: 'noSnapshot' };
  switch (w.kind) {
    case 'noSnapshot': return t('step.why.noSnapshot', { buffer });
    case 'priming': return t('step.why.priming', { held: w.held, needed: w.needed, buffer });
    case 'beforeOldest': return t('step.why.beforeOldest', { render: sec(w.renderTime), ms: Math.round((w.oldestTime - w.renderTime) * 1000), tick: w.oldestTick, time: sec(w.oldestTime) });
    case 'pastNewest': return t('step.why.pastNewest', { render: sec(w.renderTime), ms: Math.round((w.renderTime - w.newestTime) * 1000), tick: w.newestTick, time: sec(w.newestTime), delay: Math.round((w.delay ?? f.delay) * 1000) });
    case 'respawn': return t('step.why.respawn', { left: w.left, right: w.right, lg: w.leftGeneration, rg: w.rightGeneration });
    case 'teleport': return t('step.why.teleport', { tick: w.tick });
    case 'wideBracket': return t('step.why.wideBracket', { left: w.left, right: w.right, span: Math.round(w.span * 1000), factor: w.gapFactor, interval: Math.round(w.sendInterval * 1000) });
    case 'clock': return t('step.why.clock', { text: w.text });
    default: return t('step.why.renderTimeNotFinite');
  }
}

/** The sentence of one step, in the current language. */
export function sentence(s) {
  const { d, f, twoD } = s;
  switch (s.step) {
    case 'sent':
      return t('step.sent', { tick: d.tick, server: sec(d.serverTime), where: where(d.x, d.y, twoD) });
    case 'arrived':
      return s.newer !== null && d.outOfOrder
        ? t('step.arrivedOutOfOrder', { tick: d.tick, arrival: sec(d.arrival), newer: s.newer })
        : t('step.arrived', { tick: d.tick, arrival: sec(d.arrival), transit: msText(d.arrival - d.sent) });
    case 'inserted': {
      if (d.outcome !== 'inserted') return t(`step.${d.outcome}`, { tick: d.tick });
      const p = d.position;
      const vars = { order: list(d.order), tick: d.tick, place: p + 1, count: d.order.length, left: d.order[p - 1], right: d.order[p + 1] };
      return t(p > 0 && p < d.order.length - 1 ? 'step.insertedBetween' : 'step.inserted', vars);
    }
    case 'renderTime':
      return f.renderTime == null
        ? t('step.renderTimeNone', { local: sec(f.local) })
        : t('step.renderTime', { local: sec(f.local), now: sec(f.renderTime + f.delay), delay: sec(f.delay), render: sec(f.renderTime) });
    case 'bracket': {
      const buffer = list(f.buffered) + (s.dropped?.length ? t('step.dropped', { ticks: s.dropped.join(', ') }) : '');
      if (f.status !== 'ready') return whySentence(f, buffer);
      if (f.left.tick === f.right.tick) return t('step.bracketExact', { render: sec(f.renderTime), buffer, left: f.left.tick });
      return t('step.bracket', { render: sec(f.renderTime), buffer, left: f.left.tick, leftTime: sec(f.left.serverTime), right: f.right.tick, rightTime: sec(f.right.serverTime) });
    }
    case 'factor': {
      const { left: l, right: r } = f;
      if (l.tick === r.tick) return t('step.factorExact', { left: l.tick, pos: at(f.x, f.y, twoD) });
      const vars = { render: sec(f.renderTime), leftTime: sec(l.serverTime), rightTime: sec(r.serverTime), factor: f.factor.toFixed(2) };
      const lx = l.x + (r.x - l.x) * f.factor;
      const ly = l.y + (r.y - l.y) * f.factor;
      if (Math.hypot(lx - f.x, ly - f.y) > 1e-6) return t('step.factorCurve', { ...vars, x: point(f.x, f.y, twoD) });
      if (twoD) return t('step.factor2d', { ...vars, left: point(l.x, l.y, true), right: point(r.x, r.y, true), pos: point(f.x, f.y, true) });
      return t('step.factor', { ...vars, lx: num(l.x), rx: num(r.x), x: num(f.x) });
    }
    case 'status':
      if (f.status === 'ready') return t('step.statusReady', { pos: at(f.x, f.y, twoD) });
      return t('step.statusOther', {
        glyph: GLYPHS[f.status] ?? '', status: t(`status.${f.status}`), mode: t(`step.mode.${f.mode}`),
        at: f.x != null ? t('step.at', { pos: at(f.x, f.y, twoD) }) : '',
      });
    default:
      return '';
  }
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

/**
 * The panel; `api`: {host, showSeed002(), closed()} (the second makes sure seed 002's trace is what is shown, the
 * third returns to where the walk was opened from). `host`, the
 * page: `model()`, `core()`, `playing()`, `playhead()`, `setPlaying(on)`, `seek(t)`, `redraw()`, the URL's
 * `extras()` / `setExtras(patch)` / `writeHash()` (the step), `setHighlight(h)` (what the views and lanes mark).
 */
export class Stepper {
  constructor(root, api) {
    this.root = root;
    this.api = api;
    this.host = api.host;
    this.steps = [];
    this.index = 0;
    this.source = 'seed002';
    this.isOpen = false;
    root.addEventListener('keydown', (e) => this.onPanelKey(e));
    document.addEventListener('keydown', (e) => this.onKey(e));
    document.getElementById('play')?.addEventListener('click', () => {
      if (this.host.playing()) this.setHighlight(null);
    });
  }

  /** Opens on `source` ('seed002' or 'run') at step `at`. */
  open(source = 'seed002', at = 0) {
    this.source = source;
    this.isOpen = false; // not refreshed by the re-run showSeed002 may cause
    this.host.setPlaying(false);
    if (source === 'seed002') this.api.showSeed002();
    this.isOpen = true;
    this.root.hidden = false;
    this.from = this.host.playhead();
    this.compute();
    this.build();
    this.go(at);
    this.root.querySelector('#stepper-next')?.focus({ preventScroll: true });
  }

  close() {
    this.isOpen = false;
    this.root.hidden = true;
    this.root.replaceChildren();
    this.setHighlight(null);
    if (this.host.extras()?.step !== undefined) {
      this.host.setExtras({ step: undefined });
      this.host.writeHash();
    }
    this.host.redraw();
    this.api.closed?.();
  }

  /** Walks what is shown now: the whole trace when a trace is shown, else a window from the playhead. */
  compute() {
    const model = this.host.model();
    const trace = model.exportTrace('snapshots');
    const whole = model.imported;
    const from = whole ? -Infinity : this.from - 1e-9;
    const to = whole ? Infinity : this.from + RUN_WINDOW;
    let walk;
    try {
      walk = this.host.core().Lessons.walk(trace, from, to);
    } catch (error) {
      console.warn('step-through:', error);
      walk = { deliveries: [], frames: [], renderDelay: 0 };
    }
    const focus = this.source === 'seed002' ? 10.3 : undefined;
    this.steps = buildSteps(walk, { focus });
    this.rows = this.snapshotRows(model);
  }

  /** Row of each tick in the snapshots timeline. */
  snapshotRows(model) {
    const s = model.table('snapshots');
    const rows = new Map();
    for (let i = 0; i < s.rows; i++) {
      const tick = s.view[i * s.stride + s.col.tick];
      if (!rows.has(tick)) rows.set(tick, i);
    }
    return rows;
  }

  /** After a re-run: walk again and stay on the same step number. */
  refresh() {
    if (!this.isOpen) return;
    this.compute();
    this.go(Math.min(this.index, Math.max(0, this.steps.length - 1)));
  }

  build() {
    const title = el('h2', { text: t('stepper.title') });
    const close = el('button', { type: 'button', class: 'lesson-close', id: 'stepper-close', 'aria-label': t('stepper.close'), title: t('stepper.close'), text: '×' });
    close.addEventListener('click', () => this.close());
    const source = el('select', { id: 'stepper-source' },
      el('option', { value: 'seed002', text: t('stepper.source.seed002') }),
      el('option', { value: 'run', text: t('stepper.source.run') }));
    source.value = this.source;
    source.addEventListener('change', () => this.open(source.value));
    const nav = el('div', { class: 'stepper-nav' });
    const button = (id, key, fn, titleKey) => {
      const b = el('button', { type: 'button', id, text: t(key) });
      if (titleKey) {
        b.title = t(titleKey);
        b.setAttribute('aria-label', t(titleKey));
      }
      b.addEventListener('click', fn);
      return b;
    };
    nav.append(button('stepper-first', 'stepper.first', () => this.go(0), 'stepper.firstTitle'),
      button('stepper-prev', 'stepper.prev', () => this.go(this.index - 1)),
      button('stepper-next', 'stepper.next', () => this.go(this.index + 1)),
      button('stepper-last', 'stepper.last', () => this.go(this.steps.length - 1), 'stepper.lastTitle'));
    this.kind = el('span', { id: 'stepper-kind' });
    const meta = el('p', { class: 'stepper-kind' }, el('output', { id: 'stepper-count', class: 'stepper-count' }), ' · ', this.kind);
    this.text = el('p', { class: 'stepper-text', id: 'stepper-text', 'aria-live': 'polite' });
    this.chips = el('div', { class: 'stepper-buffer', id: 'stepper-buffer' });
    this.root.replaceChildren(el('header', { class: 'lesson-head' }, close, title),
      el('div', { class: 'row stepper-source' }, el('label', { for: 'stepper-source', text: t('stepper.source') }), source),
      nav, meta, this.text, this.chips, el('p', { class: 'hint', text: t('stepper.keys') }));
  }

  /** Shows step `i`: sentence, buffer, playhead, highlight, URL. */
  go(i) {
    if (!this.isOpen) return;
    const n = this.steps.length;
    this.index = Math.max(0, Math.min(i, n - 1));
    const count = this.root.querySelector('#stepper-count');
    if (!n) {
      count.textContent = t('stepper.count', { i: 0, n: 0 });
      this.text.textContent = t('stepper.empty');
      this.kind.textContent = '';
      this.chips.replaceChildren();
      this.setHighlight(null);
      return;
    }
    const s = this.steps[this.index];
    count.textContent = t('stepper.count', { i: this.index + 1, n });
    this.root.dataset.step = s.step;
    this.root.dataset.index = String(this.index);
    this.kind.replaceChildren(el('span', { class: `tag step-${s.step}`, text: t(`step.kind.${s.step}`) }), ` t = ${sec(s.time)} s`);
    this.text.textContent = sentence(s);
    this.renderChips(s);
    // aria-disabled, not disabled: a disabled button would drop the keyboard focus out of the panel.
    this.root.querySelector('#stepper-prev').setAttribute('aria-disabled', String(this.index === 0));
    this.root.querySelector('#stepper-next').setAttribute('aria-disabled', String(this.index === n - 1));
    this.setHighlight(this.highlightFor(s));
    const step = this.source === 'seed002' ? this.index + 1 : undefined;
    if (this.host.extras()?.step !== step) {
      this.host.setExtras({ step });
      this.host.writeHash();
    }
    this.host.seek(s.time);
  }

  renderChips(s) {
    const chip = (tick, cls) => el('span', { class: `chip ${cls ?? ''}`, text: String(tick) });
    const label = el('span', { class: 'chips-label', text: `${t('stepper.buffer')} ` });
    if (s.kind === 'snapshot') {
      if (s.step !== 'inserted') return this.chips.replaceChildren(label, chip(s.d.tick, 'incoming'));
      return this.chips.replaceChildren(label, ...s.d.order.map((k) => chip(k, k === s.d.tick ? 'mark' : '')));
    }
    const marks = s.step === 'renderTime' ? [] : [s.f.left?.tick, s.f.right?.tick];
    this.chips.replaceChildren(label, ...s.f.buffered.map((k) => chip(k, marks.includes(k) ? 'mark' : '')));
  }

  highlightFor(s) {
    const model = this.host.model();
    if (s.kind === 'snapshot') {
      const d = s.d;
      return {
        kind: 'snapshot', index: this.rows.get(d.tick) ?? -1, step: s.step, time: s.time, tick: d.tick,
        serverTime: d.serverTime, sent: d.sent, arrival: d.arrival, outOfOrder: d.outOfOrder, outcome: d.outcome,
        order: d.order, position: d.position,
      };
    }
    const f = s.f;
    const side = (h) => (h ? { tick: h.tick, serverTime: h.serverTime, x: h.x, y: h.y, index: this.rows.get(h.tick) ?? -1 } : null);
    return {
      kind: 'frame', index: model.frameAt(f.local), step: s.step, time: f.local, renderTime: f.renderTime, delay: f.delay,
      left: side(f.left), right: side(f.right), factor: f.factor, x: f.x, y: f.y, status: f.status, mode: f.mode,
      buffered: f.buffered,
    };
  }

  setHighlight(h) {
    this.host.setHighlight(h);
    document.documentElement.dataset.highlight = h ? `${h.kind}:${h.step}` : '';
  }

  onKey(e) {
    if (!this.isOpen || e.ctrlKey || e.metaKey || e.altKey) return;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target?.tagName)) return;
    if (e.key === ',' || e.key === '<') this.go(this.index - 1);
    else if (e.key === '.' || e.key === '>') this.go(this.index + 1);
    else return;
    e.preventDefault();
  }

  /** ← → Home End inside the panel step (and do not steer the local player). */
  onPanelKey(e) {
    if (e.target?.tagName === 'SELECT') return;
    const moves = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0, End: this.steps.length - 1 };
    if (!(e.key in moves)) return;
    e.preventDefault();
    e.stopPropagation();
    this.go(moves[e.key]);
  }

  /** After a language switch. */
  relabel() {
    if (!this.isOpen) return;
    this.build();
    this.go(this.index);
  }
}
