// Small chart kit for the plots: linear scales, "nice" ticks, axes with units, and the strokes the page
// guide asks for (one line style per concept; light colours get a dark casing on a light background).

import { COLORS, FONT } from '../canvas.js';

/** A linear map from [d0, d1] to [r0, r1], with `invert`. */
export function scale(d0, d1, r0, r1) {
  const k = (r1 - r0) / (d1 - d0 || 1);
  const f = (v) => r0 + (v - d0) * k;
  f.invert = (p) => d0 + (p - r0) / k;
  f.domain = [d0, d1];
  f.range = [r0, r1];
  return f;
}

/** A round step (1, 2, 2.5 or 5 × 10ⁿ) giving about `count` ticks over `span`. */
export function niceStep(span, count = 5) {
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
}

/** Tick values from `lo` to `hi` on a nice step. */
export function ticks(lo, hi, count = 5) {
  const step = niceStep(hi - lo, count);
  const out = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

/** The smallest nice number ≥ `v` (for an axis maximum). */
export function niceCeil(v, count = 4) {
  if (!(v > 0)) return 1;
  const step = niceStep(v, count);
  return Math.ceil(v / step - 1e-9) * step;
}

export function font(size = 11, weight = '') {
  return `${weight} ${size}px ${FONT}`.trim();
}

/** Text with a halo in the panel colour so it stays legible over lines. */
export function label(ctx, s, x, y, { color, size = 11, align = 'left', baseline = 'alphabetic', halo, weight = '' } = {}) {
  ctx.font = font(size, weight);
  ctx.textAlign = align;
  ctx.textBaseline = baseline;
  if (halo) {
    ctx.lineJoin = 'round';
    ctx.lineWidth = 3;
    ctx.strokeStyle = halo;
    ctx.setLineDash([]);
    ctx.strokeText(s, x, y);
  }
  ctx.fillStyle = color;
  ctx.fillText(s, x, y);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  return measured(ctx, ctx.font, s);
}

/** Text widths by font and string: labels repeat every frame, measuring them again costs real time. */
const widths = new Map();

function measured(ctx, f, s) {
  const key = `${f}|${s}`;
  let w = widths.get(key);
  if (w === undefined) {
    ctx.font = f;
    w = ctx.measureText(s).width;
    if (widths.size > 4000) widths.clear();
    widths.set(key, w);
  }
  return w;
}

export function textWidth(ctx, s, size = 11, weight = '') {
  const f = font(size, weight);
  ctx.font = f;
  return measured(ctx, f, s);
}

/**
 * The first of `candidates` (longest first) that fits in `maxWidth` px; when none does, the last one cut short
 * with "…". Plot labels come from the string tables and Chinese runs wider per character than English, so a
 * label that could crowd its neighbour is chosen this way, never assumed to fit.
 */
export function fitText(ctx, candidates, maxWidth, size = 11, weight = '') {
  const list = (Array.isArray(candidates) ? candidates : [candidates]).filter((c) => c);
  for (const c of list) if (textWidth(ctx, c, size, weight) <= maxWidth) return c;
  const last = list[list.length - 1] ?? '';
  let s = last;
  while (s.length > 1 && textWidth(ctx, `${s}…`, size, weight) > maxWidth) s = s.slice(0, -1);
  return s.length < last.length ? `${s}…` : s;
}

/**
 * Axes for the box {left, top, right, bottom}: a light grid, tick labels, and the units —
 * the y label above the axis (horizontal, readable), the x label at the right under the ticks. Both are fitted to
 * the box (`yLabelWidth` narrows the y label when something shares its line).
 */
export function axes(ctx, box, { x, y, xTicks, yTicks, xFormat = String, yFormat = String, xLabel, yLabel, yLabelWidth, theme, grid = true, yLabelRight = false }) {
  ctx.save();
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  if (grid) {
    ctx.strokeStyle = theme.line;
    ctx.beginPath();
    for (const v of yTicks) {
      const py = Math.round(y(v)) + 0.5;
      ctx.moveTo(box.left, py);
      ctx.lineTo(box.right, py);
    }
    ctx.stroke();
  }
  ctx.strokeStyle = theme.muted;
  ctx.beginPath();
  ctx.moveTo(box.left + 0.5, box.top);
  ctx.lineTo(box.left + 0.5, box.bottom + 0.5);
  ctx.lineTo(box.right, box.bottom + 0.5);
  for (const v of xTicks) {
    const px = Math.round(x(v)) + 0.5;
    ctx.moveTo(px, box.bottom);
    ctx.lineTo(px, box.bottom + 4);
  }
  ctx.stroke();
  for (const v of yTicks) label(ctx, yFormat(v), box.left - 4, y(v), { color: theme.muted, size: 10, align: 'right', baseline: 'middle' });
  let lastRight = -Infinity;
  const xl = xLabel ? Math.min(textWidth(ctx, xLabel, 10.5), box.right - box.left) : 0;
  for (const v of xTicks) {
    const s = xFormat(v);
    const px = x(v);
    const half = textWidth(ctx, s, 10) / 2;
    if (px - half < lastRight + 4) continue;
    if (xLabel && px + half > box.right - xl - 6 && v !== xTicks[0]) continue;
    label(ctx, s, px, box.bottom + 14, { color: theme.muted, size: 10, align: 'center' });
    lastRight = px + half;
  }
  if (xLabel) label(ctx, fitText(ctx, xLabel, box.right - box.left, 10.5), box.right, box.bottom + 14, { color: theme.ink, size: 10.5, align: 'right' });
  if (yLabel) label(ctx, fitText(ctx, yLabel, yLabelWidth ?? box.right - box.left + 2, 10.5), yLabelRight ? box.right : box.left - 2, box.top - 6, { color: theme.ink, size: 10.5, align: yLabelRight ? 'right' : 'left' });
  ctx.restore();
}

/** Light hexes need a dark casing on a light panel (page guide §2); on dark panels they stand alone. */
export function needsCasing(color, theme) {
  return !theme.dark && [COLORS.offset, COLORS.arrival, COLORS.extrapolated].includes(color);
}

/** A polyline through `points` ([x, y] in pixels; null breaks the line), optionally cased. */
export function polyline(ctx, points, { color, width = 2, dash = [], cased = false, cap = 'butt', alpha = 1 }) {
  const trace = () => {
    ctx.beginPath();
    let pen = false;
    for (const p of points) {
      if (!p || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
        pen = false;
        continue;
      }
      if (pen) ctx.lineTo(p[0], p[1]);
      else ctx.moveTo(p[0], p[1]);
      pen = true;
    }
  };
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.lineJoin = 'round';
  ctx.lineCap = cap;
  if (cased) {
    trace();
    ctx.setLineDash(dash);
    ctx.strokeStyle = COLORS.casing;
    ctx.lineWidth = width + 2;
    ctx.stroke();
  }
  trace();
  ctx.setLineDash(dash);
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.stroke();
  ctx.restore();
}

/** The line styles of the concepts (page guide §2). */
export const DASH = {
  solid: [],
  extrapolated: [6, 4],
  extrapolatedAlt: [2, 3, 8, 3],
  lerp: [1.5, 3.5],
  timed: [12, 5],
  guide: [2, 3],
};

/** A vertical cursor (the playhead) with a small label box at the top. */
export function cursor(ctx, px, top, bottom, theme, text) {
  ctx.save();
  ctx.strokeStyle = theme.ink;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(Math.round(px) + 0.5, top);
  ctx.lineTo(Math.round(px) + 0.5, bottom);
  ctx.stroke();
  ctx.restore();
  if (text) label(ctx, text, px + 3, top + 9, { color: theme.ink, size: 10, halo: theme.panel });
}

/** Diagonal hatch over a polygon (statuses are hatched, never a new hue). */
export function hatchPath(ctx, buildPath, bounds, color, gap = 5) {
  ctx.save();
  buildPath();
  ctx.clip();
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.beginPath();
  const { left, top, right, bottom } = bounds;
  const h = bottom - top;
  for (let d = left - h; d < right; d += gap) {
    ctx.moveTo(d, bottom);
    ctx.lineTo(d + h, top);
  }
  ctx.stroke();
  ctx.restore();
}
