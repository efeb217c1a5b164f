// Readouts beside the views: the current sample status with its reason, the buffer's depth in snapshots (seed
// 004 §3.3), the clock's observability (seed 002 "时钟指标": offset uncertainty, render-delay error, the last
// clock jump with its cause), the seed-002 counters so far, and (per run) the quality metrics of every strategy.
// Every word comes from `t()` (zh / en).
import { fixed, ms } from './canvas.js';
import { t, has, getLang } from './strings/i18n.js';

const GLYPHS = { priming: '…', ready: '✓', underrun: '⚠', gap: '○✕', clockUncertain: '?', invalidInterval: '⊘' };

/**
 * Why the frame's sample has its status, in words, from the numbers in the frame row — and, with `withMove`, for
 * the statuses a reader can do something about, what to move (`reason.STATUS.move`, with the strings fetched after
 * the first frame). The page asks for it while the playhead stands still: playing, the status changes every few
 * frames, too fast to read, and the longer words would grow the readouts' box mid-play.
 */
export function reasonFor(status, f, withMove = true) {
  const why = reasonOnly(status, f);
  const move = `reason.${status}.move`;
  return why && withMove && has(move) ? `${why}${t('reason.moveJoin')}${t(move)}` : why;
}

function reasonOnly(status, f) {
  switch (status) {
    case 'ready':
      // An imported trace knows the render time but not the buffer's depth: say only what is known.
      if (!Number.isFinite(f.bufferDepth)) return t('reason.readyShort', { render: f.renderTime.toFixed(3) });
      return t('reason.ready', { render: f.renderTime.toFixed(3), runway: ms(f.bufferDepth) });
    case 'underrun':
      if (!Number.isFinite(f.newestServerTime)) return t('reason.underrunShort', { render: f.renderTime.toFixed(3) });
      return t('reason.underrun', { render: f.renderTime.toFixed(3), past: ms(f.renderTime - f.newestServerTime), newest: f.newestServerTime.toFixed(3), delay: ms(f.delay) });
    case 'priming':
    case 'gap':
    case 'clockUncertain':
    case 'invalidInterval':
      return t(`reason.${status}`);
    default:
      return '';
  }
}

/** The glyph and the (translated) name of a status: statuses add no hue, always glyph + word. */
export function statusText(status) {
  return GLYPHS[status] ? { glyph: GLYPHS[status], name: t(`status.${status}`) } : { glyph: '', name: status };
}

/** Sorted event times of one run, so the counters at any time are a few binary searches (built once per run). */
function counterIndex(model) {
  if (model._counterIndex?.runId === model.runId) return model._counterIndex;
  const s = model.table('snapshots');
  const outcomes = model.codes.snapshotOutcome;
  const times = { sent: [], lost: [], received: [], duplicates: [], lateDuplicates: [], outOfOrder: [], conflicts: [], late: [] };
  for (let i = 0; i < s.rows; i++) {
    const row = i * s.stride;
    const sent = s.view[row + s.col.sent];
    const arrival = s.view[row + s.col.arrival];
    times.sent.push(sent);
    if (Number.isNaN(arrival)) { times.lost.push(sent); continue; }
    times.received.push(arrival);
    const dup = s.view[row + s.col.duplicateArrival];
    if (Number.isFinite(dup)) times.duplicates.push(dup);
    if (outcomes[s.view[row + s.col.duplicateOutcome]] === 'lateDuplicate') times.lateDuplicates.push(Math.max(arrival, dup));
    if (s.view[row + s.col.outOfOrder] === 1) times.outOfOrder.push(arrival);
    const outcome = outcomes[s.view[row + s.col.outcome]];
    if (outcome === 'conflict') times.conflicts.push(arrival);
    if (outcome === 'late') times.late.push(arrival);
  }
  for (const list of Object.values(times)) list.sort((a, b) => a - b);
  const f = model.table('frames');
  const underrun = model.codes.status.indexOf('underrun');
  const underrunsBefore = new Uint32Array(f.rows + 1);
  for (let i = 0; i < f.rows; i++) underrunsBefore[i + 1] = underrunsBefore[i] + (f.view[i * f.stride + f.col.status] === underrun ? 1 : 0);
  model._counterIndex = { runId: model.runId, times, underrunsBefore };
  return model._counterIndex;
}

/** How many of the sorted `list` are ≤ t. */
function countUpTo(list, t) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The seed-002 observability counters up to local time `t` (frame `index`). */
export function countersAt(model, t, index = model.frameAt(t)) {
  const { times, underrunsBefore } = counterIndex(model);
  const c = Object.fromEntries(Object.entries(times).map(([k, list]) => [k, countUpTo(list, t)]));
  c.underrunPct = index >= 0 ? (100 * underrunsBefore[index + 1]) / (index + 1) : 0;
  return c;
}

/** Sets `node`'s text (and `data-*` values) only when they differ: a frame that shows the same words costs no layout. */
function put(node, text, data = {}) {
  if (node.textContent !== text) node.textContent = text;
  for (const [k, v] of Object.entries(data)) {
    if (v === undefined) { if (k in node.dataset) delete node.dataset[k]; } else if (node.dataset[k] !== v) node.dataset[k] = v;
  }
}

/**
 * A text box whose words change every frame while the run plays (the status card), laid out on its
 * own: `root` holds a box in size and layout containment (playground.css `.text-box`: a relayout boundary, so new
 * words lay out that box alone, not the whole document — a grid item cannot be one itself) and, inside it, the
 * flow the words are written into (`.text-flow`, returned). The box keeps the tallest height the flow has had at
 * its width and language: the status card's lines change from one frame to the next (125, 167 or 188 px tall at
 * 1280 px), which would move everything under it — the league table, the plots — up and down as it plays: a
 * layout shift, and a repaint and raster of the page below. A ResizeObserver reads the flow's height
 * after the browser's own layout (no forced layout); a new width or language starts over from the height of that
 * moment.
 */
function textBox(root) {
  const box = document.createElement('div');
  box.className = 'text-box';
  const flow = document.createElement('div');
  flow.className = 'text-flow';
  box.append(flow);
  root.replaceChildren(box);
  if (typeof ResizeObserver !== 'function') {
    box.classList.add('unbounded'); // no observer to size it: the box follows its words
    return flow;
  }
  let width = -1;
  let lang = null;
  let tallest = 0;
  new ResizeObserver(([entry]) => {
    const b = entry.borderBoxSize?.[0];
    const w = b ? b.inlineSize : entry.contentRect.width;
    const h = b ? b.blockSize : entry.contentRect.height;
    if (Math.abs(w - width) > 0.5 || lang !== getLang()) {
      width = w;
      lang = getLang();
      tallest = 0;
    }
    if (h > tallest + 0.5 || (tallest === 0 && h > 0)) {
      tallest = h;
      box.style.height = `${h}px`;
    }
  }).observe(flow);
  return flow;
}

/** The readout lines whose terms glossary.js explains on hover and tap. */
const GLOSSARY = { reason: 'runway', 'buffer-depth': 'ahead generation' };

/**
 * `root`'s children with the given ids, made once (the readouts are redrawn every frame: only their words change);
 * `glossary`: id → the terms a line uses (`data-glossary`, focusable so a keyboard reaches the explanation).
 */
function parts(root, ids, glossary = {}) {
  if (root._parts) return root._parts;
  const flow = textBox(root);
  root._parts = {};
  for (const id of ids) {
    const node = document.createElement('div');
    if (id) node.id = id;
    if (glossary[id]) Object.assign(node, { tabIndex: 0 }).dataset.glossary = glossary[id];
    flow.append(node);
    root._parts[id] = node;
  }
  return root._parts;
}

/**
 * `metrics`: the run's metrics (`model.metrics()`), or `null` while they are on their way (a drag takes them from
 * the simulation worker, main.js `metricsForFrame`): the clock line then keeps the jump log it showed last, and
 * the next draw with the metrics shows this run's. Left out, they are computed here. `still`: the playhead stands
 * still (a reason then also says what to move).
 */
export function drawStatus(root, model, frame, metrics = model.imported || !model.metricsReady ? null : model.metrics(), still = true) {
  const status = model.codes.status[frame.status] ?? 'priming';
  const { glyph, name } = statusText(status);
  const mode = model.codes.mode[frame.mode] ?? '';
  const p = parts(root, ['status', 'reason', 'shown-mode', 'buffer-depth', 'clock-line'], GLOSSARY);
  if (p.status.className !== 'status') p.status.className = 'status';
  put(p.status, `${glyph} ${name}`, { status });
  put(p.reason, reasonFor(status, frame, still));
  put(p['shown-mode'], t('status.shown', {
    mode: mode ? t(`mode.${mode}`) : '',
    ahead: Number.isFinite(frame.ahead) ? t('status.ahead', { ahead: ms(frame.ahead) }) : '',
    delay: ms(frame.delay),
    error: ms(frame.clockError, 1),
  }));
  bufferLine(p['buffer-depth'], model, frame);
  clockLine(p['clock-line'], model, frame, metrics);
}

/**
 * Seed 004 §3.3 ("缓冲区里至少要有3到4个快照"): how many snapshots the buffer holds now, and how far its newest
 * is ahead of the render time — in send intervals and in multiples of the delay; the generation shown (seed 002).
 */
function bufferLine(line, model, f) {
  const interval = model.sendInterval;
  const parts = [];
  if (Number.isFinite(f.buffered)) parts.push(t('status.buffered', { n: f.buffered }));
  if (Number.isFinite(f.bufferDepth)) {
    parts.push(t('status.depth', { depth: ms(f.bufferDepth), intervals: fixed(f.bufferDepth / interval),
      times: f.delay > 0 ? fixed(f.bufferDepth / f.delay) : '—' }));
  }
  if (Number.isFinite(f.generation)) parts.push(t('status.generation', { g: f.generation }));
  put(line, parts.join(' · '), { buffered: String(f.buffered) });
}

/** Seed 002's clock metrics at the playhead: the offset uncertainty, the render-delay error, the last jump. */
function clockLine(line, model, f, metrics) {
  const parts = [];
  if (Number.isFinite(f.offsetUncertainty)) parts.push(t('status.uncertainty', { ms: ms(f.offsetUncertainty, 1) }));
  if (Number.isFinite(f.renderDelayError)) parts.push(t('status.delayError', { ms: ms(f.renderDelayError, 1) }));
  if (Number.isFinite(f.adaptiveRtt)) parts.push(t('status.adaptiveRtt', { ms: ms(f.adaptiveRtt) }));
  // The jump log is the full core's (`metrics().clock.jumpLog`; the first frame's core has none: src/web/analysis.rs).
  // Until the first one is known — the first frame's run, before the simulation worker's answer or the full core
  // (main.js `metricsForFrame`) — the line says it is being computed; later, a run whose metrics are on their way
  // keeps the jump log shown before (a drag's runs: no line flickering to "computing…" in every frame).
  const jumps = model.imported ? [] : metrics ? (metrics.clock.jumpLog ?? []) : line._jumps;
  line._jumps = jumps;
  // Which run's jump log the line shows (the end-to-end tests read it): this run's, or the one drawn before.
  if (metrics || model.imported) line._metricsRun = String(model.runId);
  const last = jumps?.filter((j) => j.at <= f.local + 1e-9).at(-1);
  if (!jumps) parts.push(t('status.jumpPending'));
  else if (last) {
    const cause = last.cause ? t(`status.cause.${last.cause.kind}`, last.cause.kind === 'rtt'
      ? { rtt: ms(last.cause.rtt) } : { server: last.cause.serverTime.toFixed(3), arrival: last.cause.arrival.toFixed(3) }) : t('status.cause.none');
    parts.push(t('status.lastJump', { at: last.at.toFixed(2), from: ms(last.oldOffset, 1), to: ms(last.newOffset, 1),
      step: ms(last.renderAfter - last.renderBefore, 1), cause, estimator: t(`status.estimator.${last.estimator}`) }));
  }
  put(line, parts.join(' · '), { jumpAt: last ? String(last.at) : undefined, metricsRun: line._metricsRun, jumpsPending: jumps ? undefined : 'true' });
}

const COUNTERS = ['sent', 'received', 'lost', 'duplicates', 'lateDuplicates', 'outOfOrder', 'conflicts', 'late', 'underrunPct'];

export function drawCounters(root, counters) {
  if (!root._values) {
    root.replaceChildren();
    root._values = {};
    for (const key of COUNTERS) {
      const c = document.createElement('div');
      c.className = 'c';
      c.dataset.counter = key;
      const label = document.createElement('span');
      label.dataset.i18n = `counter.${key}`;
      label.textContent = t(`counter.${key}`);
      // The number changes every frame while the run plays: it is written into a box of a fixed size in size and
      // layout containment (playground.css `.counters .n`), a relayout boundary (the `<b>`, a flex item, cannot be).
      const value = document.createElement('b');
      const number = document.createElement('span');
      number.className = 'n';
      value.append(number);
      c.append(label, value);
      root.append(c);
      root._values[key] = number;
    }
  }
  for (const key of COUNTERS) put(root._values[key], key === 'underrunPct' ? `${counters.underrunPct.toFixed(1)} %` : String(counters[key]));
}

const num = (v, d = 1) => (Number.isFinite(v) ? v.toFixed(d) : '—');

/** The per-strategy quality table (whole run); for an imported trace, its replay counters. */
export function drawMetrics(root, metrics, model) {
  if (metrics.trace) return drawTraceMetrics(root, metrics.trace, model);
  const rows = [
    ['shown', metrics.remote.shown],
    ['hold', metrics.remote.hold],
    ['extrapolateSeed', metrics.remote.extrapolateSeed],
    ['extrapolateDecay', metrics.remote.extrapolateDecay],
    ['snap', metrics.remote.snap],
    ['hide', metrics.remote.hide],
    ['timed', metrics.paths.timed],
    ['lerp', metrics.paths.lerp],
  ];
  const table = document.createElement('table');
  table.id = 'metrics-table';
  const heads = ['strategy', 'rms', 'max', 'latency', 'stalls', 'snaps', 'jerk', 'shownPct'];
  table.innerHTML = `<caption data-i18n="metrics.caption">${t('metrics.caption')}</caption>
    <thead><tr>${heads.map((h) => `<th data-i18n="metrics.${h}"${h === 'jerk' ? ' data-glossary="jerk" tabindex="0"' : ''}>${t(`metrics.${h}`)}</th>`).join('')}</tr></thead>`;
  const body = document.createElement('tbody');
  for (const [name, m] of rows) {
    const tr = document.createElement('tr');
    tr.innerHTML = `<td data-i18n="metrics.row.${name}">${t(`metrics.row.${name}`)}</td><td>${num(m.rmsError, 2)}</td><td>${num(m.maxError, 1)}</td><td>${ms(m.addedLatency)}</td>
      <td>${m.stalls}</td><td>${m.snaps}</td><td>${num(m.jerk / 1000, 0)}k</td><td>${num(100 * m.shown, 0)} %</td>`;
    body.append(tr);
  }
  table.append(body);
  const local = metrics.local;
  const extra = document.createElement('p');
  extra.id = 'local-metrics';
  extra.textContent = t('metrics.local', {
    corrections: local.corrections,
    mean: num(local.meanCorrection, 2),
    max: num(local.maxCorrection, 2),
    halfLife: num(local.halfLife.rmsOffset, 2),
    firstVersion: num(local.firstVersion.rmsOffset, 2),
    snap: num(local.snap.rmsOffset, 2),
    linear: num(local.linear.rmsOffset, 2),
    underrun: num(100 * metrics.remote.underrunShare, 1),
    extrapolating: num(100 * metrics.remote.extrapolationShare, 1),
  });
  root.innerHTML = '';
  root.append(table, extra);
}

function drawTraceMetrics(root, m) {
  root.innerHTML = '';
  const p = document.createElement('p');
  p.id = 'trace-metrics';
  const keys = ['received', 'inserted', 'duplicates', 'lateDuplicates', 'conflicts', 'outOfOrder', 'invalid', 'late', 'underruns', 'gaps', 'readySamples'];
  p.textContent = t('metrics.trace') + keys.filter((k) => k in m).map((k) => `${t(`trace.${k}`)} ${m[k]}`).join(' · ');
  root.append(p);
}
