// The step-through on the timeline lanes (seed 002 "可单步观察的过程"): while the scene has a `highlight`
// (stepper.js), the event of the step is drawn over the lanes in the emphasis style of highlight-kit.js —
//   sent        the snapshot's ■ on the server lane, haloed, "tick N sent";
//   arrived     its send → arrival hairline thick, its ○ haloed; out of order: the crossing with the packet
//               that overtook it ringed, "overtaken by M";
//   inserted    the buffer as ■ on the render lane (its server-time axis) in server-time order, the new one at
//               its place haloed, its neighbours outlined, "buffer: N between L and R";
//   renderTime  the ◆ cursor haloed at the render time, the delay bracket thick, "now − delay = … s";
//   bracket     the left and right ■ haloed on the server lane, "left N" / "right M", the span between them
//               thick on the render lane;
//   factor      that span from left to the cursor thick, 0 and 1 at its ends, "t = f" at the cursor;
// While a step is shown the lanes zoom in (lanes.js STEP_ZOOM): seed 002's events are 20–100 ms apart.
//   status      glyph + word at the cursor (the Underrun hatch, the Invalid cross-hatch and ⊘, the Gap box).
// Everything is placed by the same clocks as the lanes (lanes.js): server times through the run's true clock map.
import { COLORS, diamond } from '../canvas.js';
import { reader, label, tickRows } from '../views/view-kit.js';
import { halo, thickSegment, tagAt } from '../highlight-kit.js';
import { statusText } from '../readouts.js';
import { t } from '../strings/i18n.js';

/** Draws highlight `h` over the lanes; returns what it drew (for the tests), or null when `h` does not apply. */
export function drawLaneHighlight(g, model, frames, h) {
  const snaps = model.table('snapshots');
  const s = reader(snaps);
  const rows = tickRows(model);
  const bounds = { left: g.L.left, right: g.L.right, top: g.L.y.axis + 3, bottom: g.L.y.clockBottom + 6 };
  const reserved = g.reserved ?? [];
  const ctx = { ...g, s, rows, taken: [...reserved], bounds };
  let out = null;
  if (h.kind === 'snapshot') {
    if (!(h.index >= 0 && h.index < snaps.rows) || s(h.index, 'tick') !== h.tick) return null;
    if (h.step === 'sent') out = sent(ctx, h);
    else if (h.step === 'arrived') out = arrived(ctx, h, snaps);
    else if (h.step === 'inserted') out = inserted(ctx, h);
  } else if (h.index >= 0 && h.index < frames.rows) {
    if (h.step === 'renderTime') out = renderTime(ctx, h);
    else if (h.step === 'bracket') out = bracket(ctx, h);
    else if (h.step === 'factor') out = factor(ctx, h);
    else if (h.step === 'status') out = status(ctx, h, frames);
  }
  // The tags' rects (CSS px), so the tests can hold them inside the canvas and apart.
  return out && { ...out, tags: ctx.taken.filter((r) => r.tag) };
}

function sent({ ctx, X, L, theme, s, taken, bounds }, h) {
  const x = X(s(h.index, 'sent'));
  const y = L.y.send;
  halo(ctx, x, y, 8, COLORS.snapshot, theme, 'square');
  tagAt(ctx, t('hl.sent', { tick: h.tick }), x, y, 9, COLORS.snapshot, theme, { bounds, taken, prefer: ['right', 'left', 'below'] });
  return { step: 'sent', tick: h.tick, x };
}

function arrived({ ctx, X, L, theme, s, taken, bounds }, h, snaps) {
  const xs = X(s(h.index, 'sent'));
  const arrival = s(h.index, 'arrival');
  if (!Number.isFinite(arrival)) return null;
  const xa = X(arrival);
  const yS = L.y.send;
  const yA = L.y.arrival;
  thickSegment(ctx, xs, yS, xa, yA, COLORS.snapshot, theme, 3);
  halo(ctx, xa, yA, 8, COLORS.arrival, theme);
  const out = { step: 'arrived', tick: h.tick, x: xa, crossing: null };
  if (h.outOfOrder) {
    // The packet that overtook it: sent later, arrived earlier. Where the two hairlines cross, ring it.
    let best = null;
    for (let j = h.index + 1; j < snaps.rows && s(j, 'sent') < arrival; j++) {
      const aj = s(j, 'arrival');
      if (aj < arrival && (!best || aj > best.arrival)) best = { j, arrival: aj, tick: s(j, 'tick'), sent: s(j, 'sent') };
    }
    if (best) {
      const xj = X(best.sent);
      const xaj = X(best.arrival);
      const f = (xj - xs) / ((xa - xs) - (xaj - xj));
      thickSegment(ctx, xj, yS, xaj, yA, COLORS.snapshot, theme, 1.5);
      if (f > 0 && f < 1) {
        const cx = xs + (xa - xs) * f;
        const cy = yS + (yA - yS) * f;
        halo(ctx, cx, cy, 6, COLORS.snapshot, theme);
        tagAt(ctx, t('hl.overtaken', { tick: best.tick }), cx, cy, 7, COLORS.snapshot, theme, { bounds, taken, prefer: ['left', 'aboveLeft', 'belowLeft', 'right'] });
        out.crossing = { tick: best.tick, x: cx, y: cy };
      }
    }
  }
  tagAt(ctx, t('hl.arrived', { tick: h.tick }), xa, yA, 9, COLORS.arrival, theme, { bounds, taken, prefer: ['belowRight', 'right', 'belowLeft', 'left'] });
  return out;
}

function inserted({ ctx, X, L, theme, s, rows, taken, bounds, toLocal }, h) {
  if (!h.order?.length || h.position == null) return null;
  const y = L.y.render;
  const xs = h.order.map((tick) => {
    const i = rows.get(tick);
    return i === undefined ? NaN : X(toLocal(s(i, 'serverTime')));
  });
  const shown = xs.filter(Number.isFinite);
  if (!shown.length) return null;
  // The buffer: a dashed box around its ■, in server-time order along the render lane's server-time axis.
  const x0 = Math.max(Math.min(...shown) - 9, L.left - 4);
  const x1 = Math.min(Math.max(...shown) + 9, L.right + 4);
  ctx.save();
  ctx.strokeStyle = COLORS.snapshot;
  ctx.lineWidth = 1.25;
  ctx.setLineDash([3, 2]);
  ctx.strokeRect(x0, y - 10, x1 - x0, 20);
  ctx.restore();
  for (const x of shown) {
    ctx.fillStyle = theme.panel;
    ctx.fillRect(x - 5, y - 5, 10, 10);
    ctx.fillStyle = COLORS.snapshot;
    ctx.fillRect(x - 4, y - 4, 8, 8);
  }
  const p = h.position;
  const x = xs[p];
  // The neighbours outlined and named in the tag; the new one haloed.
  const left = h.order[p - 1];
  const right = h.order[p + 1];
  for (const k of [p - 1, p + 1]) {
    if (k < 0 || k >= xs.length || !Number.isFinite(xs[k])) continue;
    ctx.strokeStyle = theme.ink;
    ctx.lineWidth = 1.25;
    ctx.strokeRect(xs[k] - 6.5, y - 6.5, 13, 13);
  }
  const key = left !== undefined && right !== undefined ? 'hl.insertedBetween' : left !== undefined ? 'hl.insertedAfter' : right !== undefined ? 'hl.insertedBefore' : 'hl.insertedFirst';
  if (Number.isFinite(x)) {
    halo(ctx, x, y, 8, COLORS.snapshot, theme, 'square');
    tagAt(ctx, t(key, { tick: h.tick, left, right }), x, y, 11, COLORS.snapshot, theme,
      { bounds, taken, prefer: ['above', 'aboveRight', 'aboveLeft', 'belowRight', 'belowLeft'] });
  }
  return { step: 'inserted', order: h.order, position: p, x };
}

/** The cursor's x and y, or null when there is no render time. */
function cursorOf({ X, L, toLocal }, h) {
  return Number.isFinite(h.renderTime) ? { x: X(toLocal(h.renderTime)), y: L.y.render } : null;
}

function renderTime(g, h) {
  const { ctx, X, L, theme, taken, bounds, toLocal, now } = g;
  const c = cursorOf(g, h);
  if (!c) {
    tagAt(ctx, t('lane.noRenderTime'), X(now), L.y.render, 6, null, theme, { bounds, taken, prefer: ['left', 'right'] });
    return { step: 'renderTime', x: null };
  }
  const xe = X(toLocal(h.renderTime + h.delay));
  const yb = c.y + 13;
  thickSegment(ctx, c.x, yb, xe, yb, COLORS.render, theme, 2.5);
  halo(ctx, c.x, c.y, 10, COLORS.render, theme);
  diamond(ctx, c.x, c.y, 7.5, COLORS.render, { cased: true });
  tagAt(ctx, t('hl.renderTime', { render: h.renderTime.toFixed(3).replace(/0$/, '') }), c.x, c.y, 11, COLORS.render, theme,
    { bounds, taken, prefer: ['left', 'aboveLeft', 'belowLeft', 'right'] });
  return { step: 'renderTime', x: c.x };
}

/** The bracket's two sides: `{tick, x (send lane), xr (render lane)}` each, or null. */
function sides({ X, rows, s, toLocal }, h) {
  const side = (b) => {
    if (!b) return null;
    const i = b.index >= 0 ? b.index : rows.get(b.tick);
    const sentAt = i === undefined ? toLocal(b.serverTime) : s(i, 'sent');
    return { tick: b.tick, x: X(sentAt), xr: X(toLocal(b.serverTime)) };
  };
  return { left: side(h.left), right: side(h.right) };
}

function bracket(g, h) {
  const { ctx, L, theme, taken, bounds } = g;
  const { left, right } = sides(g, h);
  const c = cursorOf(g, h);
  if (left && right) thickSegment(ctx, left.xr, L.y.render, right.xr, L.y.render, COLORS.render, theme, 4);
  for (const [b, key, prefer] of [[left, 'hl.left', ['left', 'belowLeft', 'below']], [right, 'hl.right', ['right', 'belowRight', 'below']]]) {
    if (!b) continue;
    halo(ctx, b.x, L.y.send, 8, COLORS.snapshot, theme, 'square');
    tagAt(ctx, t(key, { tick: b.tick }), b.x, L.y.send, 9, COLORS.snapshot, theme, { bounds, taken, prefer });
  }
  if (c) diamond(ctx, c.x, c.y, 7.5, COLORS.render, { cased: true });
  if (!(left && right) && c) tagAt(ctx, t('hl.noBracket'), c.x, c.y, 9, null, theme, { bounds, taken, prefer: ['aboveRight', 'aboveLeft'] });
  return { step: 'bracket', left: left?.tick ?? null, right: right?.tick ?? null };
}

function factor(g, h) {
  const { ctx, L, theme, taken, bounds } = g;
  const { left, right } = sides(g, h);
  const c = cursorOf(g, h);
  if (!left || !right || !c) return bracket(g, h);
  if (left.tick === right.tick) {
    // Exactly on a snapshot: t = 0, nothing to interpolate.
    halo(ctx, c.x, L.y.render, 10, COLORS.render, theme);
    diamond(ctx, c.x, L.y.render, 7.5, COLORS.render, { cased: true });
    tagAt(ctx, t('hl.factor', { factor: '0' }), c.x, L.y.render, 11, COLORS.render, theme, { bounds, taken, prefer: ['above', 'aboveRight', 'aboveLeft'] });
    return { step: 'factor', factor: 0, x: c.x };
  }
  const y = L.y.render;
  thickSegment(ctx, left.xr, y, right.xr, y, COLORS.render, theme, 1.5);
  thickSegment(ctx, left.xr, y, c.x, y, COLORS.render, theme, 5);
  // 0 and 1 at the bracket's ends, above the lane (the space under it holds the delay bracket and statuses).
  for (const [x, text] of [[left.xr, '0'], [right.xr, '1']]) {
    ctx.fillStyle = theme.ink;
    ctx.fillRect(x - 0.75, y - 7, 1.5, 14);
    const r = { x: x - 5, y: y - 20, w: 10, h: 12 };
    if (taken.some((o) => r.x < o.x + o.w && o.x < r.x + r.w && r.y < o.y + o.h && o.y < r.y + r.h)) continue; // a lane name is there
    label(ctx, text, x, y - 10, { color: theme.ink, halo: theme.panel, size: 10.5, weight: '700', align: 'center' });
    taken.push(r);
  }
  halo(ctx, c.x, y, 10, COLORS.render, theme);
  diamond(ctx, c.x, y, 7.5, COLORS.render, { cased: true });
  tagAt(ctx, t('hl.factor', { factor: Number(h.factor).toFixed(2) }), c.x, y, 11, COLORS.render, theme,
    { bounds, taken, prefer: ['above', 'aboveRight', 'aboveLeft', 'below'] });
  return { step: 'factor', factor: h.factor, x: c.x };
}

function status(g, h, frames) {
  const { ctx, L, theme, taken, bounds, X, now, toLocal } = g;
  const { glyph, name } = statusText(h.status);
  const c = cursorOf(g, h) ?? { x: X(now), y: L.y.render };
  const y = c.y;
  if (h.status === 'underrun') {
    // The overrun: from the newest snapshot held to the cursor, in the Underrun hatch (it triggers extrapolation).
    const newest = reader(frames)(h.index, 'newestServerTime');
    const xn = Number.isFinite(newest) ? X(toLocal(newest)) : c.x - 12;
    box(ctx, Math.min(xn, c.x - 6), y, Math.max(c.x - xn, 6) + 6, COLORS.extrapolated, 'hatch');
    halo(ctx, c.x, y, 10, COLORS.extrapolated, theme);
  } else if (h.status === 'invalidInterval') {
    box(ctx, c.x - 12, y, 24, theme.muted, 'cross');
    label(ctx, '⊘', c.x, y - 13, { color: theme.ink, halo: theme.panel, size: 13, weight: '700', align: 'center' });
  } else if (h.status === 'gap' || h.status === 'priming' || h.status === 'clockUncertain') {
    ctx.save();
    ctx.strokeStyle = theme.ink;
    ctx.lineWidth = 1.5;
    ctx.setLineDash(h.status === 'gap' ? [4, 2] : [1.5, 2]);
    ctx.strokeRect(c.x - 12, y - 10, 24, 20);
    ctx.restore();
  } else {
    halo(ctx, c.x, y, 10, COLORS.render, theme);
  }
  if (h.mode !== 'hidden') diamond(ctx, c.x, y, 7.5, h.mode === 'extrapolated' ? COLORS.extrapolated : COLORS.render, { cased: true });
  tagAt(ctx, `${glyph} ${name}`, c.x, y, 12, null, theme, { bounds, taken, prefer: ['left', 'aboveLeft', 'belowLeft', 'right'] });
  return { step: 'status', status: h.status, x: c.x };
}

/** A status box around the cursor: the Underrun hatch (`hatch`) or the Invalid cross-hatch (`cross`). */
function box(ctx, x, y, w, color, kind) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y - 10, w, 20);
  ctx.globalAlpha = 0.2;
  ctx.fillStyle = color;
  ctx.fill();
  ctx.globalAlpha = 1;
  ctx.clip();
  ctx.beginPath();
  for (let d = -20; d < w; d += 4) {
    ctx.moveTo(x + d, y + 10);
    ctx.lineTo(x + d + 20, y - 10);
    if (kind === 'cross') {
      ctx.moveTo(x + d, y - 10);
      ctx.lineTo(x + d + 20, y + 10);
    }
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.strokeRect(x, y - 10, w, 20);
}
