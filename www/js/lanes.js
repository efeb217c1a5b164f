// Timeline lanes: the hidden clocks made visible (page guide §3; seeds 000 and 002).
// One horizontal axis — the client's local clock, in ms from now, a 2 s window (1.5 s past, 0.5 s still
// to come, shaded) — and three lanes top to bottom: Server send → Arrival → Render time, plus a thin
// clock strip. Each snapshot is a ■ at its send time and a hairline slanting down to ○ at its arrival:
// the slope is the latency, crossing lines are reordering, a second ○ is a duplicate, a dashed line
// ending in ○✕ is a lost packet. A packet in flight shows as a dot on its line where "now" crosses it.
// The render lane and the clock strip are drawn by lanes-render.js. A vertical "now" line crosses all.
// Everything is drawn and labelled on the canvas: nothing needs hover or a keyboard.
import { COLORS, circle, square, cross, diamond } from './canvas.js';
import { reader, lowerBound, label, measure, serverToLocal, bracketOf } from './view-kit.js';
import { drawRenderLane, drawClockStrip } from './lanes-render.js';

const PAST = 1.5;
const FUTURE = 0.5;
const PAST_NARROW = 0.9;
const FUTURE_NARROW = 0.3;
const FUTURE_ALPHA = 0.3;

/** The lane geometry for a canvas `w` CSS px wide: wide pages get a label column, narrow ones inline labels. */
export function layout(w) {
  const wide = w >= 600;
  const left = wide ? 134 : 8;
  const inline = wide ? 0 : 13;
  const y = { axis: 13, send: 38 + inline, arrival: 84 + 2 * inline };
  y.render = y.arrival + 38 + inline;
  y.clockTop = y.render + 38 + inline;
  y.clockBottom = y.clockTop + 28;
  return {
    wide,
    left,
    right: w - 12,
    y,
    h: y.clockBottom + 8,
    past: wide ? PAST : PAST_NARROW,
    future: wide ? FUTURE : FUTURE_NARROW,
  };
}

/** Sizes the canvas to its CSS width at the height the layout needs (the lanes do not keep an aspect ratio). */
function fit(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth || 944;
  const L = layout(w);
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(L.h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(L.h * dpr);
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, L.h);
  return { ctx, w, L };
}

export function mount() {
  const canvas = document.getElementById('lanes');
  return {
    draw(scene) {
      if (!scene.frames.rows) return;
      const { ctx, w, L } = fit(canvas);
      drawLanes(ctx, w, L, scene);
    },
  };
}

function drawLanes(ctx, w, L, scene) {
  const { model, frames, index, theme } = scene;
  const at = reader(frames);
  const now = at(index, 'local');
  const t0 = now - L.past;
  const t1 = now + L.future;
  const X = (t) => L.left + ((t - t0) / (t1 - t0)) * (L.right - L.left);
  const toLocal = serverToLocal(model.params);
  const g = { ctx, L, X, now, t0, t1, theme, toLocal, w };

  // The future (what the client does not know yet) is shaded.
  ctx.fillStyle = theme.line;
  ctx.globalAlpha = 0.35;
  ctx.fillRect(X(now), L.y.axis + 6, L.right - X(now), L.y.clockBottom - L.y.axis - 2);
  ctx.globalAlpha = 1;
  label(ctx, L.wide ? 'not yet happened →' : 'future →', L.right - 4, L.y.axis + 18, { color: theme.muted, size: 10.5, align: 'right' });

  drawAxis(g);
  drawLaneLines(g);
  if (L.wide) drawLaneLabels(g);

  // The now line crosses every lane (under the marks, so labels with halos stay readable).
  ctx.strokeStyle = theme.ink;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(X(now), L.y.axis + 4);
  ctx.lineTo(X(now), L.y.clockBottom + 2);
  ctx.stroke();

  ctx.save();
  ctx.beginPath();
  ctx.rect(L.left - 8, 0, L.right - L.left + 16, L.h);
  ctx.clip();
  const bracket = bracketOf(model, frames, index);
  drawPackets(g, model, bracket);
  drawRenderLane(g, model, frames, index, bracket);
  drawClockStrip(g, frames, model, index);
  ctx.restore();
  if (!L.wide) drawLaneLabels(g);
}

/** Ticks every 250 ms (500 ms when narrow) labelled in ms relative to now, on the client's clock. */
function drawAxis({ ctx, L, X, now, t0, t1, theme }) {
  const axisName = L.wide ? 'ms from now · client clock' : 'ms from now';
  const nameEnd = L.wide ? L.left + 24 : L.left + measure(ctx, axisName, 10.5) + 24;
  const step = ((L.right - L.left) / (t1 - t0)) * 0.25 >= 50 ? 0.25 : 0.5;
  ctx.strokeStyle = theme.line;
  ctx.lineWidth = 1;
  for (let k = Math.ceil((t0 - now) / step); now + k * step <= t1 + 1e-9; k++) {
    const x = X(now + k * step);
    ctx.beginPath();
    ctx.moveTo(x, L.y.axis + 5);
    ctx.lineTo(x, L.y.clockBottom);
    ctx.globalAlpha = 0.6;
    ctx.stroke();
    ctx.globalAlpha = 1;
    if (k === 0 || x < nameEnd) continue;
    const ms = Math.round(k * step * 1000);
    label(ctx, `${ms > 0 ? '+' : '−'}${Math.abs(ms)}`, x, L.y.axis, { color: theme.muted, size: 10.5, align: 'center' });
  }
  label(ctx, 'now', X(now), L.y.axis, { color: theme.ink, size: 11, weight: '700', align: 'center' });
  label(ctx, axisName, L.wide ? 8 : L.left, L.y.axis, { color: theme.muted, size: 10.5 });
}

const LANES = [
  ['send', 'Server send', 'when each snapshot left'],
  ['arrival', 'Arrival', 'slope = latency'],
  ['render', 'Render time', 'server time being shown'],
];

/** The lane's own mark, drawn in its concept colour in front of its name. */
function laneMark(ctx, key, x, y) {
  if (key === 'send') square(ctx, x, y, 8, COLORS.snapshot);
  else if (key === 'arrival') arrivalMark(ctx, x, y, true);
  else diamond(ctx, x, y, 6, COLORS.render, { cased: true });
}

function drawLaneLines({ ctx, L, theme }) {
  ctx.strokeStyle = theme.line;
  ctx.lineWidth = 1;
  for (const [key] of LANES) {
    ctx.beginPath();
    ctx.moveTo(L.left, L.y[key]);
    ctx.lineTo(L.right, L.y[key]);
    ctx.stroke();
  }
}

function drawLaneLabels({ ctx, L, theme }) {
  for (const [key, name, sub] of LANES) {
    const y = L.y[key];
    if (L.wide) {
      laneMark(ctx, key, 13, y - 5);
      label(ctx, name, 23, y - 1, { color: theme.ink, size: 12, weight: '600' });
      label(ctx, sub, 8, y + 12, { color: theme.muted, size: 10.5 });
    } else {
      inlineLabel(ctx, theme, `${name} — ${sub}`, L.left, y - 11);
    }
  }
  const c = (L.y.clockTop + L.y.clockBottom) / 2;
  if (L.wide) {
    label(ctx, 'Clock error', 8, c - 1, { color: theme.ink, size: 12, weight: '600' });
    label(ctx, 'estimate − true', 8, c + 12, { color: theme.muted, size: 10.5 });
  } else {
    inlineLabel(ctx, theme, 'Clock error — estimate − true server time', L.left, L.y.clockTop - 4);
  }
}

/** A lane name on narrow screens: on a panel-coloured backing so packet lines behind it do not cut it. */
function inlineLabel(ctx, theme, text, x, y) {
  const w = measure(ctx, text, 11);
  ctx.fillStyle = theme.panel;
  ctx.globalAlpha = 0.85;
  ctx.fillRect(x - 2, y - 10, w + 4, 13);
  ctx.globalAlpha = 1;
  label(ctx, text, x, y, { color: theme.ink, size: 11 });
}

/** Every snapshot of the window: ■ at send, hairline, ○ at arrival (or ○✕ where it would have arrived). */
function drawPackets({ ctx, L, X, now, t0, t1, theme }, model, bracket) {
  const snaps = model.table('snapshots');
  const s = reader(snaps);
  const latency = model.params.network.downlink.latency;
  const outcomes = model.codes.snapshotOutcome;
  const INSERTED = outcomes.indexOf('inserted');
  const yS = L.y.send;
  const yA = L.y.arrival;
  const inFlight = [];
  const laterMarks = [];
  let noteEnd = -Infinity;
  const note = (text, x, arrived) => {
    if (!arrived || x < L.left + 14 || x - 14 < noteEnd) return;
    label(ctx, text, x, yA + 17, { color: theme.ink, halo: theme.panel, size: 10.5, align: 'center', weight: '600' });
    noteEnd = x + 14;
  };
  for (let i = lowerBound(snaps, 'sent', t0 - 1); i < snaps.rows; i++) {
    const sent = s(i, 'sent');
    if (sent > t1) break;
    const arrival = s(i, 'arrival');
    const xs = X(sent);
    const future = sent > now;
    if (Number.isNaN(arrival)) {
      // Lost: a dashed line that stops where it would have arrived, ○✕.
      const xa = X(sent + latency);
      ctx.globalAlpha = future ? FUTURE_ALPHA : 1;
      ctx.setLineDash([3, 3]);
      ctx.strokeStyle = COLORS.snapshot;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(xs, yS);
      ctx.lineTo(xa, yA);
      ctx.stroke();
      ctx.setLineDash([]);
      laterMarks.push(() => {
        ctx.globalAlpha = future ? FUTURE_ALPHA : 1;
        circle(ctx, xa, yA, 5.5, theme.muted, false);
        cross(ctx, xa, yA, 4, theme.ink);
        note('lost', xa, sent + latency <= now);
      });
    } else {
      hairline(ctx, xs, yS, X(arrival), yA, sent, arrival, now, inFlight);
      const dup = s(i, 'duplicateArrival');
      if (Number.isFinite(dup)) {
        hairline(ctx, xs, yS, X(dup), yA, sent, dup, now, inFlight, 0.5);
        laterMarks.push(() => { arrivalMark(ctx, X(dup), yA, dup <= now); note('dup', X(dup), dup <= now); });
      }
      const outcome = s(i, 'outcome');
      const word = outcome === INSERTED || Number.isNaN(outcome) ? '' : outcomes[outcome];
      laterMarks.push(() => {
        arrivalMark(ctx, X(arrival), yA, arrival <= now);
        if (word) note(word === 'duplicate' ? 'dup' : word, X(arrival), arrival <= now);
      });
    }
    ctx.globalAlpha = future ? FUTURE_ALPHA : 1;
    square(ctx, xs, yS, 8, COLORS.snapshot);
  }
  for (const mark of laterMarks) mark();
  ctx.globalAlpha = 1;
  for (const [x, y] of inFlight) {
    circle(ctx, x, y, 3, COLORS.snapshot);
  }
  // The bracket: the two snapshots around the render time, ringed, with their ticks.
  const pair = [bracket.left, bracket.right].filter(Boolean);
  for (const b of pair) {
    const x = X(b.sent);
    ctx.strokeStyle = theme.ink;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(x - 7.5, yS - 7.5, 15, 15);
  }
  const tickLabel = (text, x) => label(ctx, text, x, yS - 11, { color: theme.ink, halo: theme.panel, size: 10.5, align: 'center', weight: '600' });
  if (pair.length === 2 && X(pair[1].sent) - X(pair[0].sent) < 30) {
    tickLabel(`${pair[0].tick}·${pair[1].tick}`, (X(pair[0].sent) + X(pair[1].sent)) / 2);
  } else {
    for (const b of pair) tickLabel(String(b.tick), X(b.sent));
  }
}

/** A packet's hairline: solid up to now (a dot where it is now if still in flight), faded after. */
function hairline(ctx, xs, yS, xa, yA, sent, arrival, now, inFlight, alpha = 1) {
  ctx.strokeStyle = COLORS.snapshot;
  ctx.lineWidth = 1;
  if (arrival <= now || sent > now) {
    ctx.globalAlpha = (sent > now ? FUTURE_ALPHA : 0.85) * alpha;
    ctx.beginPath();
    ctx.moveTo(xs, yS);
    ctx.lineTo(xa, yA);
    ctx.stroke();
  } else {
    const f = (now - sent) / (arrival - sent);
    const px = xs + (xa - xs) * f;
    const py = yS + (yA - yS) * f;
    ctx.globalAlpha = 0.85 * alpha;
    ctx.beginPath();
    ctx.moveTo(xs, yS);
    ctx.lineTo(px, py);
    ctx.stroke();
    ctx.globalAlpha = FUTURE_ALPHA * alpha;
    ctx.beginPath();
    ctx.moveTo(px, py);
    ctx.lineTo(xa, yA);
    ctx.stroke();
    inFlight.push([px, py]);
  }
  ctx.globalAlpha = 1;
}

/** ○ in the arrival colour with a dark casing; hollow until it has arrived. */
function arrivalMark(ctx, x, y, arrived) {
  ctx.globalAlpha = arrived ? 1 : FUTURE_ALPHA;
  circle(ctx, x, y, 5.5, COLORS.casing, false);
  circle(ctx, x, y, 4.5, COLORS.arrival, arrived);
  ctx.globalAlpha = 1;
}
