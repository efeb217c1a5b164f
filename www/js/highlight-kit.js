// The one emphasis style of the step-through, shared by the lanes and the views (stepper.js sets the page's
// highlight, the painters get it as `scene.highlight`; lanes-highlight.js and views-highlight.js draw it). Whatever a
// step is about gets
//   a halo — a soft wide ring in the concept's colour under a crisp ring of the same colour (cased on a light
//            panel when the colour is a light one, page guide §2), around the mark itself;
//   a tag   — a few words on a pill filled with that colour (white or near-black text, whichever reads on it),
//            measured, kept inside the canvas and out of the other tags' way.
// Statuses add no hue: their tags are ink on the panel, with the glyph.
import { COLORS, FONT } from './canvas.js';

/** Light concept colours that need a dark casing on a light panel (sky blue, orange, yellow). */
const LIGHT = new Set([COLORS.arrival, COLORS.extrapolated, COLORS.offset]);

/** Near-black or white, whichever reads better on `color` (a #rrggbb hex). */
function textOn(color) {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (!m) return '#ffffff';
  const n = parseInt(m[1], 16);
  const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const L = 0.2126 * lin(n >> 16) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  return (L + 0.05) / 0.05 > 1.05 / (L + 0.05) ? '#111111' : '#ffffff';
}

/** The outline of a mark: a circle, or a square (`shape: 'square'`) of half-size `r`. */
function outline(ctx, shape, x, y, r) {
  ctx.beginPath();
  if (shape === 'square') ctx.rect(x - r, y - r, 2 * r, 2 * r);
  else ctx.arc(x, y, r, 0, Math.PI * 2);
}

/** A halo around a mark at (x, y): `r` is the ring's radius (or half side for squares). */
export function halo(ctx, x, y, r, color, theme, shape = 'circle') {
  ctx.save();
  ctx.setLineDash([]);
  ctx.globalAlpha = theme.dark ? 0.4 : 0.3;
  ctx.strokeStyle = color;
  ctx.lineWidth = 7;
  outline(ctx, shape, x, y, r + 1);
  ctx.stroke();
  ctx.globalAlpha = 1;
  if (!theme.dark && LIGHT.has(color)) {
    ctx.strokeStyle = COLORS.casing;
    ctx.lineWidth = 3.5;
    outline(ctx, shape, x, y, r);
    ctx.stroke();
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  outline(ctx, shape, x, y, r);
  ctx.stroke();
  ctx.restore();
}

/** A segment made to stand out: a soft wide band in `color` under a solid line `width` px thick. */
export function thickSegment(ctx, x0, y0, x1, y1, color, theme, width = 4) {
  ctx.save();
  ctx.setLineDash([]);
  ctx.lineCap = 'round';
  ctx.globalAlpha = theme.dark ? 0.4 : 0.3;
  ctx.strokeStyle = color;
  ctx.lineWidth = width + 6;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.globalAlpha = 1;
  if (!theme.dark && LIGHT.has(color)) {
    ctx.strokeStyle = COLORS.casing;
    ctx.lineWidth = width + 1.5;
    ctx.stroke();
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.stroke();
  ctx.restore();
}

const TAG_SIZE = 11;
const TAG_PAD = 4;
const TAG_H = 17;

/**
 * Places the tag for `text` beside a mark at (x, y) of radius `r`: the first of `prefer` ('right', 'left',
 * 'above', 'below', 'aboveRight', …) that stays inside `bounds` and clear of `taken` (rects already used);
 * falls back to the first, pushed inside. Returns the rect `{x, y, w, h}` (and records it in `taken`).
 */
export function placeTag(ctx, text, x, y, r, { bounds, taken = [], prefer = ['right', 'left', 'above', 'below'] }) {
  ctx.save(); // the font is part of the saved state: the caller's font is left as it was
  ctx.font = `700 ${TAG_SIZE}px ${FONT}`;
  const w = Math.min(Math.ceil(ctx.measureText(text).width) + 2 * TAG_PAD, bounds.right - bounds.left);
  ctx.restore();
  const h = TAG_H;
  const gap = r + 5;
  const spots = {
    right: [x + gap, y - h / 2], left: [x - gap - w, y - h / 2],
    above: [x - w / 2, y - gap - h], below: [x - w / 2, y + gap],
    aboveRight: [x + gap * 0.6, y - gap - h + 4], aboveLeft: [x - gap * 0.6 - w, y - gap - h + 4],
    belowRight: [x + gap * 0.6, y + gap - 4], belowLeft: [x - gap * 0.6 - w, y + gap - 4],
  };
  const inside = (rx, ry) => rx >= bounds.left && rx + w <= bounds.right && ry >= bounds.top && ry + h <= bounds.bottom;
  const clear = (rx, ry) => taken.every((o) => rx + w + 2 <= o.x || o.x + o.w + 2 <= rx || ry + h + 1 <= o.y || o.y + o.h + 1 <= ry);
  let spot = null;
  for (const name of prefer) {
    const [rx, ry] = spots[name];
    if (inside(rx, ry) && clear(rx, ry)) { spot = [rx, ry]; break; }
  }
  if (!spot) {
    const [rx, ry] = spots[prefer[0]];
    spot = [Math.min(Math.max(rx, bounds.left), bounds.right - w), Math.min(Math.max(ry, bounds.top), bounds.bottom - h)];
  }
  const rect = { x: spot[0], y: spot[1], w, h, tag: true };
  taken.push(rect);
  return rect;
}

/**
 * Draws a tag: `text` on a pill filled with `color` (or ink on the panel when `color` is null: statuses),
 * at the rect from `placeTag`; a short leader joins it to the mark at (x, y) when they are apart.
 */
export function tag(ctx, text, rect, color, theme, mark) {
  const fill = color ?? theme.panel;
  const ink = color ? textOn(color) : theme.ink;
  ctx.save();
  ctx.setLineDash([]);
  if (mark) {
    const cx = Math.min(Math.max(mark[0], rect.x), rect.x + rect.w);
    const cy = Math.min(Math.max(mark[1], rect.y), rect.y + rect.h);
    if (Math.hypot(cx - mark[0], cy - mark[1]) > 12) {
      ctx.strokeStyle = color ?? theme.ink;
      ctx.lineWidth = 1.25;
      ctx.beginPath();
      ctx.moveTo(cx, cy);
      ctx.lineTo(mark[0], mark[1]);
      ctx.stroke();
    }
  }
  ctx.beginPath();
  ctx.roundRect(rect.x, rect.y, rect.w, rect.h, 4);
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.lineWidth = color ? 1 : 1.5;
  ctx.strokeStyle = color ? theme.panel : theme.ink;
  ctx.stroke();
  ctx.font = `700 ${TAG_SIZE}px ${FONT}`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = ink;
  let s = text;
  while (s.length > 1 && ctx.measureText(s).width > rect.w - 2 * TAG_PAD + 0.5) s = s.slice(0, -1);
  ctx.fillText(s === text ? s : `${s.slice(0, -1)}…`, rect.x + TAG_PAD, rect.y + rect.h / 2 + 0.5);
  ctx.textBaseline = 'alphabetic';
  ctx.restore();
}

/** `placeTag` + `tag` in one call; returns the rect. */
export function tagAt(ctx, text, x, y, r, color, theme, opts) {
  const rect = placeTag(ctx, text, x, y, r, opts);
  tag(ctx, text, rect, color, theme, [x, y]);
  return rect;
}
