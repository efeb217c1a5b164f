// Timeline lanes: the hidden clocks made visible (page guide §3; seeds 000 and 002).
// One horizontal axis — the client's local clock, in ms from now, a 2 s window (1.5 s past, 0.5 s still
// to come, shaded; 0.8 s while the step-through shows a step) — and three lanes top to bottom: Server send → Arrival → Render time, plus a thin
// clock strip. Each snapshot is a ■ at its send time and a hairline slanting down to ○ at its arrival:
// the slope is the latency, crossing lines are reordering, a second ○ is a duplicate, a dashed line
// ending in ○✕ is a lost packet. A packet in flight shows as a dot on its line where "now" crosses it.
// The render lane and the clock strip are drawn by lanes-render.js, the step-through's event (`scene.highlight`) by
// lanes-highlight.js. A vertical "now" line crosses all.
// Everything is drawn and labelled on the canvas: nothing needs hover or a keyboard. Pointing at a packet, or
// focusing the lanes and pressing ← →, inspects it (inspector.js; its chain is drawn by lanes-inspect.js).
import { COLORS, cssWidth, square, diamond, ratio } from '../canvas.js';
import { reader, column, lowerBound, label, measure, serverToLocal, bracketOf, fresh, staticLayer, themeKey, fitText } from '../views/view-kit.js';
import { drawRenderLane, drawClockStrip, clockFrame, clockRange } from './lanes-render.js';
import { marks } from '../marks.js';
import { drawLaneMarks } from '../engines/engines.js';
import { t } from '../strings/i18n.js';

const PAST = 1.5;
const FUTURE = 0.5;
const PAST_NARROW = 0.9;
const FUTURE_NARROW = 0.3;
const FUTURE_ALPHA = 0.3;
/** While the step-through shows a step, the window narrows this much: its events are a few 100 ms apart. */
const STEP_ZOOM = 0.4;

/**
 * The lane geometry for a canvas `w` CSS px wide: wide pages get a label column, narrow ones inline labels;
 * `compact` (a tall embed frame, `data-compact` on the canvas) packs the lanes 10 px closer.
 */
export function layout(w, compact = false) {
  const wide = w >= 600;
  const left = wide ? 134 : 8;
  const inline = wide ? 0 : 13;
  const gap = compact ? 28 : 38;
  const y = { axis: 13, send: gap + inline };
  y.arrival = y.send + gap + 8 + inline;
  y.render = y.arrival + gap + inline;
  y.clockTop = y.render + gap + inline;
  y.clockBottom = y.clockTop + (compact ? 22 : 28);
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
  const dpr = ratio();
  const w = cssWidth(canvas) || 944;
  const L = layout(w, canvas.dataset.compact === 'true');
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(L.h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(L.h * dpr);
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, L.h);
  fresh(ctx);
  return { ctx, w, L };
}

export function mount() {
  const canvas = document.getElementById('lanes');
  const cache = {};
  return {
    /** What the last draw showed, in numbers (for the end-to-end tests; nothing reads it per frame). */
    last: null,
    draw(scene) {
      if (!scene.frames.rows) return;
      const { ctx, w, L } = fit(canvas);
      this.last = drawLanes(ctx, w, L, scene, cache, scene.highlight ?? null, scene.inspected ?? null);
    },
  };
}

function drawLanes(ctx, w, layoutL, scene, cache, highlight, inspect) {
  const { model, frames, index, theme } = scene;
  const L = highlight ? { ...layoutL, past: layoutL.past * STEP_ZOOM, future: layoutL.future * STEP_ZOOM, zoomed: true } : layoutL;
  const at = reader(frames);
  const now = at(index, 'local');
  const t0 = now - L.past;
  const t1 = now + L.future;
  const X = (t) => L.left + ((t - t0) / (t1 - t0)) * (L.right - L.left);
  const toLocal = serverToLocal(model.params);
  const g = { ctx, L, X, now, t0, t1, theme, toLocal, w };

  // Everything placed relative to now stands still on screen: painted once, blitted per frame.
  const layer = staticLayer(cache, `${themeKey(theme)}|${L.past}|${L.future}`, w, L.h, (c) => drawStatic({ ...g, ctx: c }));
  ctx.drawImage(layer, 0, 0, w, L.h);

  ctx.save();
  ctx.beginPath();
  ctx.rect(L.left - 8, 0, L.right - L.left + 16, L.h);
  ctx.clip();
  const bracket = bracketOf(model, frames, index);
  const packets = drawPackets(g, model, bracket);
  const render = drawRenderLane(g, model, frames, index, bracket);
  const engines = drawLaneMarks(g, scene, L.y.render); // the Engines panel's picks on the render lane
  const range = drawClockStrip(g, frames, model, index);
  ctx.restore();
  clockRange(g, range);
  const reserved = L.wide ? [] : drawLaneLabels(g);
  // The step-through's event, over everything else (only while a step is shown; its tags keep off the labels).
  const hl = highlight && marks.lane ? marks.lane({ ...g, reserved }, model, frames, highlight) : null;
  // The packet inspector's chain (never while a step is shown: the step-through owns the highlight).
  const inspected = !highlight && inspect && marks.inspected ? marks.inspected({ ...g, reserved }, model, frames, index, inspect) : null;
  return { ...packets, ...render, bracket: [bracket.left?.tick ?? null, bracket.right?.tick ?? null], window: [t0, t1], layout: L, wide: L.wide, highlight: hl, inspected, engines };
}

/** The still parts: future shading, axis, lane lines and names, the now line, the clock strip's frame. */
function drawStatic(g) {
  const { ctx, L, X, now, theme } = g;
  // The future (what the client does not know yet) is shaded.
  ctx.fillStyle = theme.line;
  ctx.globalAlpha = 0.35;
  ctx.fillRect(X(now), L.y.axis + 6, L.right - X(now), L.y.clockBottom - L.y.axis - 2);
  ctx.globalAlpha = 1;
  label(ctx, fitText(ctx, [t(L.wide ? 'lane.future' : 'lane.futureShort'), '→'], L.right - X(now) - 8, 10.5), L.right - 4, L.y.axis + 18, { color: theme.muted, size: 10.5, align: 'right' });
  drawAxis(g);
  drawLaneLines(g);
  if (L.wide) drawLaneLabels(g);
  clockFrame(g);
  // The now line crosses every lane (under the marks, so labels with halos stay readable).
  ctx.strokeStyle = theme.ink;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(X(now), L.y.axis + 4);
  ctx.lineTo(X(now), L.y.clockBottom + 2);
  ctx.stroke();
}

/** Ticks every 250 ms (500 ms when narrow; 50 or 100 ms while stepping) labelled in ms relative to now, on the client's clock. */
function drawAxis({ ctx, L, X, now, t0, t1, theme }) {
  const axisName = fitText(ctx, [t(L.wide ? 'lane.axis' : 'lane.axisShort'), t('lane.axisShort')], L.wide ? L.left - 12 : (L.right - L.left) / 3, 10.5);
  const nameEnd = L.wide ? L.left + 24 : L.left + measure(ctx, axisName, 10.5) + 24;
  const perSecond = (L.right - L.left) / (t1 - t0);
  const step = [0.05, 0.1, 0.25, 0.5].find((s) => s * perSecond >= 50) ?? 1;
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
  label(ctx, t('lane.now'), X(now), L.y.axis, { color: theme.ink, size: 11, weight: '700', align: 'center' });
  label(ctx, axisName, L.wide ? 8 : L.left, L.y.axis, { color: theme.muted, size: 10.5 });
}

/** Each lane: its key and the string keys of its name (the sub-line and the narrow form add `.sub`, `.short`). */
const LANES = [
  ['send', 'lane.serverSend'],
  ['arrival', 'lane.arrival'],
  ['render', 'lane.render'],
];

/** The lane's own mark, drawn in its concept colour in front of its name. */
function laneMark(ctx, key, x, y) {
  if (key === 'send') square(ctx, x, y, 8, COLORS.snapshot);
  else if (key === 'arrival') arrivalMarks(ctx, [x], y, true);
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

/**
 * The lane names (a label column when wide, inline above each lane when narrow: their rects are returned;
 * while a step is shown, narrow names drop their sub-line to leave the step's tags room).
 */
function drawLaneLabels({ ctx, L, theme }) {
  const rects = [];
  // The label column is L.left wide: names and sub-lines are fitted to it (Chinese runs wider per character).
  const column = L.left - 14;
  for (const [key, name] of LANES) {
    const y = L.y[key];
    if (L.wide) {
      laneMark(ctx, key, 13, y - 5);
      label(ctx, fitText(ctx, t(name), column - 15, 12, '600'), 23, y - 1, { color: theme.ink, size: 12, weight: '600' });
      label(ctx, fitText(ctx, [t(`${name}.sub`), t(`${name}.short`)], column, 10.5), 8, y + 12, { color: theme.muted, size: 10.5 });
    } else {
      const full = L.zoomed ? [t(name)] : [`${t(name)} · ${t(`${name}.short`)}`, t(name)];
      rects.push(inlineLabel(ctx, theme, fitText(ctx, full, (L.right - L.left) * 0.6, 11), L.left, y - 11));
    }
  }
  const c = (L.y.clockTop + L.y.clockBottom) / 2;
  if (L.wide) {
    label(ctx, fitText(ctx, t('lane.clockError'), column, 12, '600'), 8, c - 1, { color: theme.ink, size: 12, weight: '600' });
    label(ctx, fitText(ctx, t('lane.clockError.sub'), column, 10.5), 8, c + 12, { color: theme.muted, size: 10.5 });
  } else {
    const full = L.zoomed ? [t('lane.clockError')] : [t('lane.clockError.inline'), t('lane.clockError')];
    rects.push(inlineLabel(ctx, theme, fitText(ctx, full, (L.right - L.left) * 0.8, 11), L.left, L.y.clockTop - 4));
  }
  return rects;
}

/** A lane name on narrow screens: on a panel-coloured backing so packet lines behind it do not cut it. */
function inlineLabel(ctx, theme, text, x, y) {
  const w = measure(ctx, text, 11);
  ctx.fillStyle = theme.panel;
  ctx.globalAlpha = 0.85;
  ctx.fillRect(x - 2, y - 10, w + 4, 13);
  ctx.globalAlpha = 1;
  label(ctx, text, x, y, { color: theme.ink, size: 11 });
  return { x: x - 2, y: y - 10, w: w + 4, h: 13 };
}

/**
 * Every snapshot of the window: ■ at send, hairline, ○ at arrival (or ○✕ where it would have arrived).
 * Marks are collected first and stroked in a few batched paths (one per style), not one per packet.
 */
function drawPackets({ ctx, L, X, now, t0, t1, theme }, model, bracket) {
  const snaps = model.table('snapshots');
  const sentOf = column(snaps, 'sent');
  const arrivalOf = column(snaps, 'arrival');
  const dupOf = column(snaps, 'duplicateArrival');
  const outcomeOf = column(snaps, 'outcome');
  const latency = model.params.network.downlink.latency;
  const outcomes = model.codes.snapshotOutcome;
  const INSERTED = outcomes.indexOf('inserted');
  const yS = L.y.send;
  const yA = L.y.arrival;
  const B = {
    lines: new Map(), // alpha → [x0, y0, x1, y1, …] solid hairlines
    lost: [[], []], // [past, future]: dashed hairlines of lost packets
    squares: [[], []], // [past, future]: ■ at send
    arrived: [], // ○ filled
    pending: [], // ○ hollow, not arrived yet (faded)
    missing: [[], []], // ○✕ where a lost packet would have arrived: [known by now, not yet]
    inFlight: [], // dots where now crosses a packet still on its way
    notes: [], // [word, x]
  };
  const addLine = (alpha, x0, y0, x1, y1) => {
    let list = B.lines.get(alpha);
    if (!list) B.lines.set(alpha, (list = []));
    list.push(x0, y0, x1, y1);
  };
  const hairline = (xs, xa, sent, arrival, weight) => {
    if (arrival <= now || sent > now) {
      addLine((sent > now ? FUTURE_ALPHA : 0.85) * weight, xs, yS, xa, yA);
      return;
    }
    const f = (now - sent) / (arrival - sent);
    const px = xs + (xa - xs) * f;
    const py = yS + (yA - yS) * f;
    addLine(0.85 * weight, xs, yS, px, py);
    addLine(FUTURE_ALPHA * weight, px, py, xa, yA);
    B.inFlight.push(px, py);
  };
  for (let i = lowerBound(snaps, 'sent', t0 - 1); i < snaps.rows; i++) {
    const sent = sentOf(i);
    if (sent > t1) break;
    const arrival = arrivalOf(i);
    const xs = X(sent);
    const future = sent > now ? 1 : 0;
    B.squares[future].push(xs);
    if (Number.isNaN(arrival)) {
      const xa = X(sent + latency);
      B.lost[future].push(xs, xa);
      const known = sent + latency <= now;
      B.missing[known ? 0 : 1].push(xa);
      if (known) B.notes.push(['lost', xa]);
      continue;
    }
    const xa = X(arrival);
    hairline(xs, xa, sent, arrival, 1);
    (arrival <= now ? B.arrived : B.pending).push(xa);
    const dup = dupOf(i);
    if (Number.isFinite(dup)) {
      hairline(xs, X(dup), sent, dup, 0.5);
      (dup <= now ? B.arrived : B.pending).push(X(dup));
      if (dup <= now) B.notes.push(['dup', X(dup)]);
    }
    const outcome = outcomeOf(i);
    if (arrival <= now && outcome !== INSERTED && !Number.isNaN(outcome)) {
      B.notes.push([outcomes[outcome] === 'duplicate' ? 'dup' : outcomes[outcome], xa]);
    }
  }

  ctx.strokeStyle = COLORS.snapshot;
  ctx.lineWidth = 1;
  for (const [alpha, list] of B.lines) {
    ctx.globalAlpha = alpha;
    ctx.beginPath();
    for (let k = 0; k < list.length; k += 4) {
      ctx.moveTo(list[k], list[k + 1]);
      ctx.lineTo(list[k + 2], list[k + 3]);
    }
    ctx.stroke();
  }
  ctx.setLineDash([3, 3]);
  for (const future of [0, 1]) {
    const list = B.lost[future];
    if (!list.length) continue;
    ctx.globalAlpha = future ? FUTURE_ALPHA : 1;
    ctx.beginPath();
    for (let k = 0; k < list.length; k += 2) {
      ctx.moveTo(list[k], yS);
      ctx.lineTo(list[k + 1], yA);
    }
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.fillStyle = COLORS.snapshot;
  for (const future of [0, 1]) {
    ctx.globalAlpha = future ? FUTURE_ALPHA : 1;
    for (const x of B.squares[future]) ctx.fillRect(x - 4, yS - 4, 8, 8);
  }
  ctx.globalAlpha = 1;
  arrivalMarks(ctx, B.arrived, yA, true);
  ctx.globalAlpha = FUTURE_ALPHA;
  arrivalMarks(ctx, B.pending, yA, false);
  const missing = sprite(`missing|${theme.muted}|${theme.ink}`, 13, (c, m) => {
    c.beginPath();
    c.arc(m, m, 5.5, 0, Math.PI * 2);
    c.strokeStyle = theme.muted;
    c.lineWidth = 1.5;
    c.stroke();
    c.beginPath();
    c.moveTo(m - 3.5, m - 3.5);
    c.lineTo(m + 3.5, m + 3.5);
    c.moveTo(m - 3.5, m + 3.5);
    c.lineTo(m + 3.5, m - 3.5);
    c.strokeStyle = theme.ink;
    c.stroke();
  });
  for (const known of [0, 1]) {
    ctx.globalAlpha = known === 0 ? 1 : FUTURE_ALPHA;
    for (const x of B.missing[known]) stamp(ctx, missing, x, yA);
  }
  ctx.globalAlpha = 1;
  const dot = sprite('inFlight', 7, (c, m) => {
    c.beginPath();
    c.arc(m, m, 3, 0, Math.PI * 2);
    c.fillStyle = COLORS.snapshot;
    c.fill();
  });
  for (let k = 0; k < B.inFlight.length; k += 2) stamp(ctx, dot, B.inFlight[k], B.inFlight[k + 1]);
  // Outcome words under the arrival lane (measured), skipped where they would overlap.
  let noteEnd = -Infinity;
  B.notes.sort((a, b) => a[1] - b[1]);
  for (const [word, x] of B.notes) {
    const text = t(`lane.note.${word}`);
    const half = measure(ctx, text, 10.5, '600') / 2;
    if (x - half < L.left || x - half - 3 < noteEnd) continue;
    label(ctx, text, x, yA + 17, { color: theme.ink, halo: theme.panel, size: 10.5, align: 'center', weight: '600' });
    noteEnd = x + half;
  }
  // The bracket: the two snapshots around the render time, ringed, with their ticks.
  const pair = [bracket.left, bracket.right].filter(Boolean);
  for (const b of pair) {
    const x = X(b.sent);
    ctx.strokeStyle = theme.ink;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(x - 7.5, yS - 7.5, 15, 15);
  }
  // Above the ■; on narrow screens below it (the lane's inline name takes the row above).
  const tickLabel = (text, x) => label(ctx, text, x, L.wide ? yS - 11 : yS + 19, { color: theme.ink, halo: theme.panel, size: 10.5, align: 'center', weight: '600' });
  if (pair.length === 2 && X(pair[1].sent) - X(pair[0].sent) < 30) {
    tickLabel(`${pair[0].tick}·${pair[1].tick}`, (X(pair[0].sent) + X(pair[1].sent)) / 2);
  } else {
    for (const b of pair) tickLabel(String(b.tick), X(b.sent));
  }
  return {
    sent: B.squares[0].length + B.squares[1].length,
    arrived: B.arrived.length,
    arrivedX: B.arrived, // where each ○ was stamped (CSS px; the end-to-end tests look at the pixels there)
    arrivalY: yA,
    lost: B.missing[0].length + B.missing[1].length,
    inFlight: B.inFlight.length / 2,
  };
}

/** ○ marks in the arrival colour over a dark casing (filled once arrived), stamped from a sprite. */
function arrivalMarks(ctx, xs, y, filled) {
  const mark = sprite(`arrival|${filled}`, 13, (c, m) => {
    c.beginPath();
    c.arc(m, m, 5.5, 0, Math.PI * 2);
    c.strokeStyle = COLORS.casing;
    c.lineWidth = 1.5;
    c.stroke();
    c.beginPath();
    c.arc(m, m, 4.5, 0, Math.PI * 2);
    c.strokeStyle = COLORS.arrival;
    c.stroke();
    if (filled) {
      c.fillStyle = COLORS.arrival;
      c.fill();
    }
  });
  for (const x of xs) stamp(ctx, mark, x, y);
}

/**
 * The lanes' round marks (○ arrivals, ○✕ losses, in-flight dots), each drawn once into a small canvas at the
 * backing store's pixel ratio and stamped with `drawImage` wherever it goes. A 2 s window holds 40–60 of them per
 * frame, and their stroked arcs were most of the lanes' raster in Chromium's software rasteriser (about half of a
 * playing frame's raster on the bench machine): a blit costs a fraction of that. `key` names what the drawing
 * depends on besides the ratio (colours, filled or not).
 */
const sprites = new Map();
function sprite(key, size, paint) {
  const dpr = ratio();
  const full = `${key}|${dpr}`;
  let s = sprites.get(full);
  if (!s) {
    const px = Math.ceil(size * dpr);
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = px;
    const c = canvas.getContext('2d');
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    paint(c, px / dpr / 2);
    s = { canvas, size: px / dpr, dpr };
    if (sprites.size > 32) sprites.clear();
    sprites.set(full, s);
  }
  return s;
}

/** Stamps sprite `s` centred on (x, y), its corner on a whole backing pixel (no resampling blur). */
function stamp(ctx, s, x, y) {
  const left = Math.round((x - s.size / 2) * s.dpr) / s.dpr;
  const top = Math.round((y - s.size / 2) * s.dpr) / s.dpr;
  ctx.drawImage(s.canvas, left, top, s.size, s.size);
}
