// The render lane and the clock strip of the timeline (lanes.js draws the axis and the packet lanes).
//
// Render lane — everything on it is a *server* time, placed on the local axis through the run's true clock
// map, so it lines up under the ■ sent at that server time:
//   ◆ the render-time cursor (what server moment is shown now), a dotted line up to the two ■ it sits
//     between; the render-delay bracket from the cursor to the estimated "now", labelled;
//   the runway: a grey bar from the cursor to the newest snapshot that has arrived (how much buffered
//     time is left); when the cursor has passed it, an orange Underrun hatch over the overrun instead;
//   the played history to the left of the cursor: the render line (thick solid while interpolated, dashed
//     extrapolated colour while extrapolated, broken while hidden) over each past frame's status — orange
//     hatch = Underrun, dashed box ○✕ = Gap, grey cross-hatch = Invalid, dotted box = Priming/Clock?
//     — each named with glyph + word where there is room (statuses never get a new hue).
// Clock strip — the client's server-clock estimate minus the true server time over the window, against
// the zero line (the truth), so the hidden clock is visible.
import { COLORS, diamond } from '../canvas.js';
import { reader, column, label, measure, casedStroke, fitText } from '../views/view-kit.js';
import { statusText } from '../readouts.js';
import { t } from '../strings/i18n.js';

const NICE = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

export function drawRenderLane(g, model, frames, index, bracket) {
  const { ctx, L, X, now, t0, theme, toLocal } = g;
  const at = reader(frames);
  const y = L.y.render;
  const statuses = model.codes.status;
  const modes = model.codes.mode;
  const first = model.frameAt(t0 - 0.6, frames);

  // Played history: x of each past frame's render time.
  const renderTime = column(frames, 'renderTime');
  const status = column(frames, 'status');
  const mode = column(frames, 'mode');
  const xs = [];
  for (let i = first; i <= index; i++) {
    const rt = renderTime(i);
    xs.push(Number.isFinite(rt) ? X(toLocal(rt)) : NaN);
  }
  const xOf = (i) => xs[i - first];
  drawStatusRuns(ctx, theme, y, first, index, xOf, (i) => statuses[status(i)], L.left);
  drawModeLine(ctx, y, first, index, xOf, (i) => modes[mode(i)]);

  const rt = at(index, 'renderTime');
  if (!Number.isFinite(rt)) {
    label(ctx, fitText(ctx, [t('lane.noRenderTime'), '…'], X(now) - 6 - L.left, 11), X(now) - 6, y + 4, { color: theme.ink, halo: theme.panel, size: 11, align: 'right' });
    return { cursor: null };
  }
  const xc = X(toLocal(rt));
  const newest = at(index, 'newestServerTime');
  if (Number.isFinite(newest)) drawRunway(ctx, theme, L, y, xc, X(toLocal(newest)), newest - rt, statuses[status(index)]);

  // The cursor and its link up to the snapshots it sits between.
  ctx.strokeStyle = COLORS.render;
  ctx.lineWidth = 1.25;
  ctx.setLineDash([2, 3]);
  ctx.beginPath();
  ctx.moveTo(xc, y - 8);
  ctx.lineTo(xc, L.y.send + 8);
  ctx.stroke();
  ctx.setLineDash([]);
  if (bracket.left && bracket.right) {
    ctx.strokeStyle = COLORS.render;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(X(bracket.left.sent), L.y.send + 9);
    ctx.lineTo(X(bracket.right.sent), L.y.send + 9);
    ctx.stroke();
  }
  diamond(ctx, xc, y, 7.5, COLORS.render, { cased: true });

  // The render-delay bracket: cursor → the client's estimate of the server's now.
  const delay = at(index, 'delay');
  const xe = X(toLocal(rt + delay));
  const yb = y + 13;
  ctx.strokeStyle = COLORS.render;
  ctx.lineWidth = 1.25;
  ctx.beginPath();
  ctx.moveTo(xc, yb - 4);
  ctx.lineTo(xc, yb);
  ctx.lineTo(xe, yb);
  ctx.lineTo(xe, yb - 4);
  ctx.stroke();
  // Inside the bracket when it fits, else just right of it (never over the status words to the left).
  const text = t(L.wide ? 'lane.delay' : 'lane.delayShort', { ms: Math.round(delay * 1000) });
  const tw = measure(ctx, text, 11, '600');
  const inside = xe - xc > tw + 4;
  label(ctx, text, inside ? (xc + xe) / 2 : Math.min(xe + 4, L.right - tw), yb + 12,
    { color: COLORS.render, halo: theme.panel, size: 11, weight: '600', align: inside ? 'center' : 'left' });
  return { cursor: toLocal(rt), delay, depth: newest - rt, status: statuses[status(index)] };
}

/** Grey runway to the newest arrived snapshot, or the orange Underrun hatch over the overrun. */
function drawRunway(ctx, theme, L, y, xc, xn, depth, status) {
  const { glyph, name } = statusText(status);
  // Right of the cursor, pulled left when the canvas ends first; on narrow screens flush right, clear
  // of the lane's name on the left.
  const say = (candidates) => {
    // Narrow: flush right in what the inline lane name (left) leaves free.
    const text = fitText(ctx, candidates, L.wide ? L.right - L.left - 4 : (L.right - L.left) * 0.45, 11, '600');
    const tw = measure(ctx, text, 11, '600');
    const x = L.wide ? Math.min(xc + 10, L.right - tw - 2) : L.right - tw - 2;
    label(ctx, text, x, y - 10, { color: theme.ink, halo: theme.panel, size: 11, weight: '600' });
  };
  if (xn >= xc) {
    ctx.fillStyle = theme.muted;
    ctx.globalAlpha = 0.45;
    ctx.fillRect(xc, y - 4, xn - xc, 8);
    ctx.globalAlpha = 1;
    ctx.fillStyle = theme.ink;
    ctx.fillRect(xn - 1, y - 7, 2, 14);
    const ms = Math.round(depth * 1000);
    say([t('lane.runwayLeft', { status: `${glyph} ${name}`, ms }), t('lane.runwayLeft', { status: glyph, ms })]);
  } else {
    underrunBox(ctx, xn, xc, y);
    ctx.fillStyle = theme.ink;
    ctx.fillRect(xn - 1, y - 7, 2, 14);
    const ms = Math.round(-depth * 1000);
    say([t('lane.pastNewest', { status: `${glyph} ${name}`, ms }), t('lane.pastNewest', { status: glyph, ms })]);
  }
}

function underrunBox(ctx, x0, x1, y) {
  ctx.fillStyle = COLORS.extrapolated;
  ctx.globalAlpha = 0.18;
  ctx.fillRect(x0, y - 8, x1 - x0, 16);
  ctx.globalAlpha = 1;
  hatch(ctx, x0, y - 8, x1 - x0, 16, COLORS.extrapolated, 4);
  ctx.strokeStyle = COLORS.extrapolated;
  ctx.lineWidth = 1;
  ctx.strokeRect(x0, y - 8, x1 - x0, 16);
}

/** Each past frame's status over the stretch of render time it played (Ready draws nothing extra); named right of `minX`. */
function drawStatusRuns(ctx, theme, y, first, last, xOf, statusOf, minX) {
  const words = [];
  let i = first;
  while (i <= last) {
    const status = statusOf(i);
    let j = i;
    while (j + 1 <= last && statusOf(j + 1) === status) j++;
    const x0 = xOf(i);
    const x1 = j + 1 <= last ? xOf(j + 1) : xOf(j);
    if (status !== 'ready' && Number.isFinite(x0) && Number.isFinite(x1) && x1 > x0) {
      const w = x1 - x0;
      if (status === 'underrun') underrunBox(ctx, x0, x1, y);
      else if (status === 'invalidInterval') {
        hatch(ctx, x0, y - 8, w, 16, theme.muted, 4);
        hatch(ctx, x0, y - 8, w, 16, theme.muted, 4, true);
      } else {
        ctx.strokeStyle = theme.muted;
        ctx.lineWidth = 1;
        ctx.setLineDash(status === 'gap' ? [4, 2] : [1, 2]);
        ctx.strokeRect(x0, y - 8, w, 16);
        ctx.setLineDash([]);
      }
      words.push({ status, cx: (x0 + x1) / 2, w, rank: status === 'underrun' ? 1 : 0 });
    }
    i = j + 1;
  }
  // Name each stretch (glyph + word, or the glyph alone when narrow); rarer statuses claim room first.
  const taken = [];
  const free = (a, b) => taken.every(([c, d]) => b + 3 < c || a - 3 > d);
  words.sort((a, b) => a.rank - b.rank || b.w - a.w);
  for (const { status, cx, w } of words) {
    const { glyph, name } = statusText(status);
    for (const text of [`${glyph} ${name}`, glyph]) {
      const tw = measure(ctx, text, 10.5);
      if (text !== glyph && w < tw - 8) continue;
      if (cx - tw / 2 < minX || !free(cx - tw / 2, cx + tw / 2)) continue; // never cut by the lane's left edge
      label(ctx, text, cx, y + 23, { color: theme.ink, size: 10.5, align: 'center' });
      taken.push([cx - tw / 2, cx + tw / 2]);
      break;
    }
  }
}

/** The played render line: thick solid when interpolated, cased dashed orange when extrapolated. */
function drawModeLine(ctx, y, first, last, xOf, modeOf) {
  let i = first;
  while (i <= last) {
    const mode = modeOf(i);
    let j = i;
    while (j + 1 <= last && modeOf(j + 1) === mode) j++;
    const x0 = xOf(i);
    const x1 = j + 1 <= last ? xOf(j + 1) : xOf(j);
    if (mode !== 'hidden' && Number.isFinite(x0) && Number.isFinite(x1) && x1 > x0) {
      const path = () => { ctx.beginPath(); ctx.moveTo(x0, y); ctx.lineTo(x1, y); };
      if (mode === 'extrapolated') casedStroke(ctx, path, COLORS.extrapolated, 2.5, [5, 3]);
      else {
        ctx.strokeStyle = COLORS.render;
        ctx.lineWidth = 3;
        path();
        ctx.stroke();
      }
    }
    i = j + 1;
  }
}

/** The clock strip's frame and its zero line (the true server time): part of the static layer. */
export function clockFrame({ ctx, L, theme }) {
  const top = L.y.clockTop;
  const bottom = L.y.clockBottom;
  const mid = (top + bottom) / 2;
  ctx.strokeStyle = theme.truth;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(L.left, mid);
  ctx.lineTo(L.right, mid);
  ctx.stroke();
  ctx.strokeStyle = theme.line;
  ctx.strokeRect(L.left, top, L.right - L.left, bottom - top);
  if (L.wide) label(ctx, t('lane.trueZero'), L.right - 4, mid - 3, { color: theme.muted, halo: theme.panel, size: 9.5, align: 'right' });
}

/** The clock estimate's error over the window (ms), against zero = the true server time. */
export function drawClockStrip(g, frames, model, index) {
  const { ctx, L, X, now, t0, theme } = g;
  const error = column(frames, 'clockError');
  const local = column(frames, 'local');
  const first = model.frameAt(t0, frames);
  let worst = 0;
  for (let i = first; i <= index; i++) {
    const e = Math.abs(error(i));
    if (Number.isFinite(e) && e > worst) worst = e;
  }
  const range = NICE.find((n) => n >= worst * 1000 * 1.15) ?? 1000;
  const top = L.y.clockTop;
  const bottom = L.y.clockBottom;
  const mid = (top + bottom) / 2;
  const Y = (e) => mid - ((e * 1000) / range) * ((bottom - top) / 2);

  ctx.strokeStyle = theme.ink;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  let pen = false;
  for (let i = first; i <= index; i++) {
    const e = error(i);
    if (!Number.isFinite(e)) { pen = false; continue; }
    const x = X(local(i));
    if (pen) ctx.lineTo(x, Y(e));
    else ctx.moveTo(x, Y(e));
    pen = true;
  }
  ctx.stroke();
  const e = error(index);
  const text = Number.isFinite(e) ? `${e >= 0 ? '+' : '−'}${Math.abs(e * 1000).toFixed(1)} ms` : t('lane.noEstimate');
  const above = !(e > 0);
  label(ctx, text, X(now) + 5, above ? mid - 3 : mid + 11, { color: theme.ink, halo: theme.panel, size: 11, weight: '600' });
  return range;
}

/** The clock strip's scale: in the label column when there is one, else inside the strip (unclipped). */
export function clockRange({ ctx, L, theme }, range) {
  const rx = L.wide ? L.left - 6 : L.left + 3;
  const align = L.wide ? 'right' : 'left';
  label(ctx, `+${range} ms`, rx, L.y.clockTop + 8, { color: theme.muted, halo: theme.panel, size: 9.5, align });
  label(ctx, `−${range} ms`, rx, L.y.clockBottom, { color: theme.muted, halo: theme.panel, size: 9.5, align });
}

/** Diagonal hatch over a rectangle in one clipped path (canvas.js's hatch strokes every stripe alone). */
function hatch(ctx, x, y, w, h, color, gap, mirror = false) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  ctx.beginPath();
  for (let d = -h; d < w; d += gap) {
    if (mirror) {
      ctx.moveTo(x + d, y);
      ctx.lineTo(x + d + h, y + h);
    } else {
      ctx.moveTo(x + d, y + h);
      ctx.lineTo(x + d + h, y);
    }
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
}
