// Small shared helpers for the three world views and the timeline lanes: reading timeline rows by column
// name, finding the rows inside a time window, mapping server time onto the client's time axis, legible
// canvas labels (text with a paper-coloured halo, so a label stays readable over a trail), trails that
// break at teleports, and the inline legends (SVG keys built once, never per frame).
import { COLORS, FONT, diamondPath, fontSize, ratio } from '../canvas.js';
import { t, getLang } from '../strings/i18n.js';

/** `(row, column) → value` for a table from `model.table(kind)` (for a few reads; loops use `column`). */
export function reader(table) {
  const { view, stride, col } = table;
  return (i, name) => view[i * stride + col[name]];
}

/** `row → value` of one column (the column index resolved once: for loops over many rows). */
export function column(table, name) {
  const { view, stride } = table;
  const c = table.col[name];
  return (i) => view[i * stride + c];
}

// Setting ctx.font re-parses the string, and labels are the most frequent call: remember the last one
// per context. `fresh(ctx)` forgets it (call it at the start of every canvas draw: a resize resets fonts), and
// puts back the stroke state a previous draw may have left (line join, cap, dash, alpha), so the same moment
// always draws the same pixels, whatever was drawn before it.
const fonts = new WeakMap();
export function fresh(ctx) {
  fonts.delete(ctx);
  ctx.lineJoin = 'miter';
  ctx.lineCap = 'butt';
  ctx.setLineDash([]);
  ctx.globalAlpha = 1;
}
function setFont(ctx, font) {
  if (fonts.get(ctx) !== font) {
    ctx.font = font;
    fonts.set(ctx, font);
  }
}
const widths = new Map();

/** First row whose `name` column is ≥ `value` (the column must be ascending; NaN rows count as larger). */
export function lowerBound(table, name, value) {
  const { view, stride, col, rows } = table;
  const c = col[name];
  let lo = 0;
  let hi = rows;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (view[mid * stride + c] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Server time → the client's local time axis, with the run's true clock offset and skew (sim/world.rs:
 * `tl = (ts − clockOffset)·(1 + clockSkew)`). A snapshot's `sent` equals this map of its `serverTime`.
 */
export function serverToLocal(params) {
  const offset = params.network?.clockOffset ?? 0;
  const skew = params.network?.clockSkew ?? 0;
  return (ts) => (ts - offset) * (1 + skew);
}

/** Row of each tick in the snapshots table (the first, if a tick repeats), cached per run. */
export function tickRows(model) {
  if (model._tickRows?.runId === model.runId) return model._tickRows.rows;
  const snaps = model.table('snapshots');
  const tickOf = column(snaps, 'tick');
  const rows = new Map();
  for (let i = 0; i < snaps.rows; i++) if (!rows.has(tickOf(i))) rows.set(tickOf(i), i);
  model._tickRows = { runId: model.runId, rows };
  return rows;
}

/** Text with a halo in the panel colour, so it stays legible over marks. */
export function label(ctx, s, x, y, { color, halo, size = 12, align = 'left', weight = '', baseline = 'alphabetic' } = {}) {
  setFont(ctx, `${weight ? `${weight} ` : ''}${fontSize(size)}px ${FONT}`);
  ctx.textAlign = align;
  ctx.textBaseline = baseline;
  if (halo) {
    ctx.lineJoin = 'round';
    ctx.lineWidth = 3;
    ctx.strokeStyle = halo;
    ctx.strokeText(s, x, y);
  }
  ctx.fillStyle = color;
  ctx.fillText(s, x, y);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
}

/** Width of `s` at `size` px (labels are measured, never assumed). */
export function measure(ctx, s, size = 12, weight = '') {
  const font = `${weight ? `${weight} ` : ''}${fontSize(size)}px ${FONT}`;
  const key = `${font}|${s}`;
  let w = widths.get(key);
  if (w === undefined) {
    setFont(ctx, font);
    w = ctx.measureText(s).width;
    if (widths.size > 2000) widths.clear();
    widths.set(key, w);
  }
  return w;
}

/**
 * The first of `candidates` (longest first) that fits in `maxWidth` px at `size`; when none does, the last one
 * cut short with "…". Labels come from the string tables and a Chinese label is wider per character than its
 * English one, so every label that could crowd something is chosen this way, never assumed to fit.
 */
export function fitText(ctx, candidates, maxWidth, size = 12, weight = '') {
  const list = (Array.isArray(candidates) ? candidates : [candidates]).filter((c) => c);
  for (const c of list) if (measure(ctx, c, size, weight) <= maxWidth) return c;
  let s = list[list.length - 1] ?? '';
  while (s.length > 1 && measure(ctx, `${s}…`, size, weight) > maxWidth) s = s.slice(0, -1);
  return s.length < (list[list.length - 1] ?? '').length ? `${s}…` : s;
}

/** A line with a dark casing underneath (light colours on white need it, page guide §2). */
export function casedStroke(ctx, path, color, width, dash = []) {
  ctx.setLineDash(dash);
  ctx.strokeStyle = COLORS.casing;
  ctx.lineWidth = width + 2;
  path();
  ctx.stroke();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  path();
  ctx.stroke();
  ctx.setLineDash([]);
}

/**
 * Draws a polyline from rows `from..to` of `frames` (columns `xName`/`yName`), mapped through `map`,
 * broken where a value is NaN or where a step is longer than `maxStep(i)` world units (a teleport or a
 * respawn: never draw a line the entity did not travel). `style(i)` may return a key that splits the
 * line into runs (e.g. display mode); `onRun(key, path)` strokes each run. Returns the jumps found.
 */
export function trail(ctx, frames, from, to, xName, yName, map, { maxStep, style = () => 0, onRun }) {
  const xs = column(frames, xName);
  const ys = column(frames, yName);
  const jumps = [];
  let key = null;
  let points = [];
  const flush = () => {
    if (points.length > 1) {
      const pts = points;
      onRun(key, () => {
        ctx.beginPath();
        ctx.moveTo(pts[0], pts[1]);
        for (let k = 2; k < pts.length; k += 2) ctx.lineTo(pts[k], pts[k + 1]);
      });
    }
    points = [];
  };
  let px = NaN;
  let py = NaN;
  for (let i = from; i <= to; i++) {
    const x = xs(i);
    const y = ys(i);
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      flush();
      px = NaN;
      continue;
    }
    const k = style(i);
    const jumped = Number.isFinite(px) && Math.hypot(x - px, y - py) > maxStep(i);
    if (jumped) {
      flush();
      jumps.push({ from: [px, py], to: [x, y], i });
    } else if (k !== key && points.length) {
      // Start the new run where the old one ended, so runs join without a gap.
      const lx = points[points.length - 2];
      const ly = points[points.length - 1];
      flush();
      points.push(lx, ly);
    }
    key = k;
    points.push(map.x(x), map.y(y));
    px = x;
    py = y;
  }
  flush();
  return jumps;
}

/** The frames of the last `seconds` up to the playhead: `[first, index]`. */
export function recentFrames(model, frames, index, seconds) {
  const first = model.frameAt(frames.view[index * frames.stride + frames.col.local] - seconds, frames);
  return [first, index];
}

// ---- Legends: small SVG keys, one per mark, in the concept's colour (built once per mount). ----

const SVG_NS = 'http://www.w3.org/2000/svg';
const KEYS = {
  dot: (c) => `<circle cx="7" cy="7" r="4.5" fill="${c}"/>`,
  ghost: (c) => `<circle cx="7" cy="7" r="4.5" fill="${c}" opacity="0.35"/>`,
  ring: (c) => `<circle cx="7" cy="7" r="4.2" fill="none" stroke="${c}" stroke-width="2"/>`,
  square: (c) => `<rect x="2.5" y="2.5" width="9" height="9" fill="${c}"/>`,
  squareOutline: (c) => `<rect x="3" y="3" width="8" height="8" fill="none" stroke="${c}" stroke-width="1.8"/>`,
  squareFaded: (c) => `<rect x="1" y="3" width="6" height="6" fill="${c}" opacity="0.35"/><rect x="6" y="2.5" width="7" height="7" fill="${c}"/>`,
  cross: (c) => `<path d="M3 3L11 11M3 11L11 3" stroke="${c}" stroke-width="2"/>`,
  diamond: (c) => `<path d="M7 1.5L12.5 7L7 12.5L1.5 7Z" fill="${c}" stroke="${COLORS.casing}" stroke-width="0.8"/>`,
  diamondOpen: (c) => `<path d="M7 2L12 7L7 12L2 7Z" fill="none" stroke="${COLORS.casing}" stroke-width="3.4"/><path d="M7 2L12 7L7 12L2 7Z" fill="none" stroke="${c}" stroke-width="2"/>`,
  line: (c) => `<path d="M0 7H14" stroke="${c}" stroke-width="1.5"/>`,
  thick: (c) => `<path d="M0 7H14" stroke="${c}" stroke-width="3"/>`,
  dashed: (c) => `<path d="M0 7H14" stroke="${COLORS.casing}" stroke-width="4" stroke-dasharray="4 2.5"/><path d="M0 7H14" stroke="${c}" stroke-width="2.4" stroke-dasharray="4 2.5"/>`,
  band: (c) => `<path d="M0 7H14" stroke="${c}" stroke-width="6" opacity="0.8"/><path d="M2 7H10M8 4.5L11 7L8 9.5" fill="none" stroke="${COLORS.casing}" stroke-width="1.4"/>`,
};

/**
 * Fills a legend `<span>` with keys: `[{key, color, text, i18n}]`. `color` may be a CSS value such as
 * `var(--truth)` (the truth follows the theme).
 */
export function fillLegend(el, items) {
  if (!el || el.dataset.filled) return;
  el.dataset.filled = 'true';
  el.replaceChildren();
  // Each legend takes its own line under the view's title, so the three captions are equally tall.
  el.style.flexBasis = '100%';
  el.style.columnGap = '7px';
  for (const item of items) {
    const span = document.createElement('span');
    span.className = 'k';
    const svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('width', '14');
    svg.setAttribute('height', '14');
    svg.setAttribute('viewBox', '0 0 14 14');
    svg.setAttribute('aria-hidden', 'true');
    svg.style.verticalAlign = '-2px';
    svg.style.marginRight = '3px';
    svg.style.overflow = 'visible';
    svg.innerHTML = KEYS[item.key]('currentColor');
    svg.style.color = item.color;
    const words = document.createElement('span');
    // The words follow the language: `data-i18n` is rewritten by every switch (i18n.js applyI18n).
    words.textContent = item.i18n ? t(item.i18n) : item.text;
    if (item.i18n) words.dataset.i18n = item.i18n;
    span.append(svg, words);
    el.append(span);
  }
}

/** ◇: a hollow diamond, 2.5 px in `color` over a dark casing, filled with `fill` (the panel) inside. */
export function openDiamond(ctx, x, y, r, color, fill) {
  diamondPath(ctx, x, y, r);
  if (fill) {
    ctx.fillStyle = fill;
    ctx.fill();
  }
  ctx.lineJoin = 'miter';
  ctx.strokeStyle = COLORS.casing;
  ctx.lineWidth = 4.5;
  ctx.stroke();
  ctx.strokeStyle = color;
  ctx.lineWidth = 2.5;
  ctx.stroke();
}

/**
 * The interpolation bracket at frame `index`: among snapshots that have arrived by now and were inserted
 * into the buffer, the newest at or before the render time (`left`) and the first after it (`right`).
 * Each is `{i, tick, serverTime, sent, x, y}`; either may be null. Used by the Remote view and the lanes
 * so both ring the same two snapshots.
 */
export function bracketOf(model, frames, index) {
  const at = reader(frames);
  const now = at(index, 'local');
  const renderTime = at(index, 'renderTime');
  const out = { left: null, right: null, renderTime };
  if (!Number.isFinite(renderTime)) return out;
  const snaps = model.table('snapshots');
  const s = reader(snaps);
  const arrival = column(snaps, 'arrival');
  const outcome = column(snaps, 'outcome');
  const inserted = model.codes.snapshotOutcome.indexOf('inserted');
  const row = (i) => ({ i, tick: s(i, 'tick'), serverTime: s(i, 'serverTime'), sent: s(i, 'sent'), x: s(i, 'x'), y: s(i, 'y') });
  // An imported trace has no outcomes (NaN): every snapshot that has arrived counts as inserted.
  const usable = (i) => arrival(i) <= now && (outcome(i) === inserted || Number.isNaN(outcome(i)));
  const split = lowerBound(snaps, 'serverTime', renderTime + 1e-12);
  for (let i = split - 1; i >= 0 && i >= split - 64; i--) {
    if (usable(i)) { out.left = row(i); break; }
  }
  for (let i = split; i < snaps.rows && i < split + 64; i++) {
    if (usable(i)) { out.right = row(i); break; }
  }
  if (out.left && out.right) out.alpha = (renderTime - out.left.serverTime) / (out.right.serverTime - out.left.serverTime);
  return out;
}

/**
 * A static layer (labels, frames, axis ticks: what does not move with the playhead) painted once into an
 * offscreen canvas and blitted on every draw. Repainted when `key` (size, theme…) changes.
 */
export function staticLayer(holder, key, w, h, paint) {
  const dpr = ratio();
  const full = `${key}|${w}|${h}|${dpr}`;
  if (holder.layerKey !== full) {
    const canvas = holder.layer ?? document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(w * dpr));
    canvas.height = Math.max(1, Math.round(h * dpr));
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    fresh(ctx);
    paint(ctx);
    holder.layer = canvas;
    holder.layerKey = full;
  }
  return holder.layer;
}

/**
 * A key for what a static layer depends on besides its size: the theme colours and the language (a layer is
 * repainted when the theme or the language changes — its labels come from the string tables).
 */
export const themeKey = (theme) => `${theme.ink}${theme.muted}${theme.line}${theme.panel}${theme.truth}|${getLang()}`;
