// Readouts beside the views: the current sample status with its reason, the seed-002 counters so far,
// and (per run) the quality metrics of every strategy.
import { ms } from './canvas.js';

const STATUS_TEXT = {
  priming: { glyph: '…', name: 'Priming' },
  ready: { glyph: '✓', name: 'Ready' },
  underrun: { glyph: '⚠', name: 'Underrun' },
  gap: { glyph: '○✕', name: 'Gap' },
  clockUncertain: { glyph: '?', name: 'Clock uncertain' },
  invalidInterval: { glyph: '⊘', name: 'Invalid interval' },
};

/** Why the frame's sample has its status, in words, from the numbers in the frame row. */
export function reasonFor(status, f) {
  switch (status) {
    case 'ready':
      return `render time ${f.renderTime.toFixed(3)} s sits between two snapshots; ${ms(f.bufferDepth)} of runway left`;
    case 'underrun':
      return `render time ${f.renderTime.toFixed(3)} s is ${ms(f.renderTime - f.newestServerTime)} past the newest snapshot (${f.newestServerTime.toFixed(3)} s)`;
    case 'priming':
      return 'not enough snapshots yet to interpolate';
    case 'gap':
      return 'the two snapshots around the render time are too far apart (lost packets) or the render time is before the oldest one';
    case 'clockUncertain':
      return 'the clock estimate is not trustworthy yet (too few RTT samples, or it just reset)';
    case 'invalidInterval':
      return 'the bracket spans a respawn or teleport: no interpolation across it';
    default:
      return '';
  }
}

export function statusText(status) {
  return STATUS_TEXT[status] ?? { glyph: '', name: status };
}

/** Sorted event times of one run, so the counters at any time are a few binary searches (built once per run). */
function counterIndex(model) {
  if (model._counterIndex?.runId === model.runId) return model._counterIndex;
  const s = model.table('snapshots');
  const outcomes = model.codes.snapshotOutcome;
  const times = { sent: [], lost: [], received: [], duplicates: [], outOfOrder: [], conflicts: [], late: [] };
  for (let i = 0; i < s.rows; i++) {
    const row = i * s.stride;
    const sent = s.view[row + s.col.sent];
    const arrival = s.view[row + s.col.arrival];
    times.sent.push(sent);
    if (Number.isNaN(arrival)) { times.lost.push(sent); continue; }
    times.received.push(arrival);
    const dup = s.view[row + s.col.duplicateArrival];
    if (Number.isFinite(dup)) times.duplicates.push(dup);
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

export function drawStatus(root, model, frame) {
  const status = model.codes.status[frame.status] ?? 'priming';
  const { glyph, name } = statusText(status);
  const mode = model.codes.mode[frame.mode] ?? '';
  root.innerHTML = '';
  const head = document.createElement('div');
  head.className = 'status';
  head.id = 'status';
  head.dataset.status = status;
  head.textContent = `${glyph} ${name}`;
  const why = document.createElement('div');
  why.id = 'reason';
  why.textContent = reasonFor(status, frame);
  const shown = document.createElement('div');
  shown.id = 'shown-mode';
  shown.textContent = `shown: ${mode}${Number.isFinite(frame.ahead) ? ` (${ms(frame.ahead)} ahead)` : ''} · delay ${ms(frame.delay)} · clock error ${ms(frame.clockError, 1)}`;
  root.append(head, why, shown);
}

export function drawCounters(root, counters) {
  const items = [
    ['sent', 'sent'], ['received', 'received'], ['lost', 'lost'], ['duplicates', 'duplicates'],
    ['outOfOrder', 'out of order'], ['conflicts', 'conflicts'], ['late', 'late'],
  ];
  root.innerHTML = '';
  for (const [key, label] of items) {
    const c = document.createElement('div');
    c.className = 'c';
    c.dataset.counter = key;
    c.innerHTML = `<span data-i18n="counter.${key}">${label}</span><b>${counters[key]}</b>`;
    root.append(c);
  }
  const u = document.createElement('div');
  u.className = 'c';
  u.dataset.counter = 'underrunPct';
  u.innerHTML = `<span data-i18n="counter.underrunPct">underrun frames</span><b>${counters.underrunPct.toFixed(1)} %</b>`;
  root.append(u);
}

const num = (v, d = 1) => (Number.isFinite(v) ? v.toFixed(d) : '—');

/** The per-strategy quality table (whole run); for an imported trace, its replay counters. */
export function drawMetrics(root, metrics, model) {
  if (metrics.trace) return drawTraceMetrics(root, metrics.trace, model);
  const rows = [
    ['Remote: shown (chosen policy)', metrics.remote.shown],
    ['Remote: hold', metrics.remote.hold],
    ['Remote: extrapolate (seed)', metrics.remote.extrapolateSeed],
    ['Remote: extrapolate (decay)', metrics.remote.extrapolateDecay],
    ['Remote: snap', metrics.remote.snap],
    ['Remote: hide', metrics.remote.hide],
    ['Path: timed playback', metrics.paths.timed],
    ['Path: lerp chase', metrics.paths.lerp],
  ];
  const table = document.createElement('table');
  table.id = 'metrics-table';
  table.innerHTML = `<caption data-i18n="metrics.caption">Quality against the truth (whole run, after the best-fit time shift)</caption>
    <thead><tr><th>strategy</th><th>RMS error</th><th>max error</th><th>added latency</th><th>stalls</th><th>snaps</th><th>jerk</th><th>shown</th></tr></thead>`;
  const body = document.createElement('tbody');
  for (const [name, m] of rows) {
    const tr = document.createElement('tr');
    tr.innerHTML = `<td>${name}</td><td>${num(m.rmsError, 2)}</td><td>${num(m.maxError, 1)}</td><td>${ms(m.addedLatency)}</td>
      <td>${m.stalls}</td><td>${m.snaps}</td><td>${num(m.jerk / 1000, 0)}k</td><td>${num(100 * m.shown, 0)} %</td>`;
    body.append(tr);
  }
  table.append(body);
  const local = metrics.local;
  const extra = document.createElement('p');
  extra.id = 'local-metrics';
  extra.textContent = `Local player: ${local.corrections} corrections (mean ${num(local.meanCorrection, 2)}, max ${num(local.maxCorrection, 2)}); ` +
    `shown − predicted RMS: half-life ${num(local.halfLife.rmsOffset, 2)}, first version ${num(local.firstVersion.rmsOffset, 2)}, ` +
    `snap ${num(local.snap.rmsOffset, 2)}, linear ${num(local.linear.rmsOffset, 2)}. ` +
    `Remote: underrun ${num(100 * metrics.remote.underrunShare, 1)} % of frames, extrapolating ${num(100 * metrics.remote.extrapolationShare, 1)} %.`;
  root.innerHTML = '';
  root.append(table, extra);
}

function drawTraceMetrics(root, m) {
  root.innerHTML = '';
  const p = document.createElement('p');
  p.id = 'trace-metrics';
  const keys = ['received', 'inserted', 'duplicates', 'conflicts', 'outOfOrder', 'invalid', 'late', 'underruns', 'gaps', 'readySamples'];
  p.textContent = 'Imported trace (replayed by the core): ' + keys.filter((k) => k in m).map((k) => `${k} ${m[k]}`).join(' · ');
  root.append(p);
}
